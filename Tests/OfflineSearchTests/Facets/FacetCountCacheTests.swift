import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI
import DatasetGenerator

/// Facet counts over a large set of matches are kept on the snapshot (`FacetCountCache`): read
/// back only for the very same documents, and equal to the counts made afresh.
@Suite struct FacetCountCacheTests {
    static let records = DatasetGenerator(seed: 5).records(.products, count: 4000)

    func counts(_ label: String) -> FacetCountCache.Counts {
        ([FacetCounts(attribute: "brand", values: [(label, 1)])], [:])
    }

    @Test func countsAreReadBackForTheSameDocumentsOnly() {
        let cache = FacetCountCache(documentCount: 10_000)
        var documents = DocumentSet(capacity: 10_000)
        for document in stride(from: 0, to: 10_000, by: 3) { documents.insert(document) }
        var calls = 0
        func ask(_ set: DocumentSet, _ label: String, attributes: [String] = ["brand"], maxValues: Int = 100) -> String {
            let answer = cache.counts(attributes, over: set, documentCount: set.count, maxValues: maxValues, sort: .count) {
                calls += 1
                return counts(label)
            }
            return answer.facets[0].values[0].value
        }
        #expect(ask(documents, "first") == "first")
        #expect(ask(documents, "second") == "first", "the same documents: the kept counts")
        #expect(calls == 1)
        var other = documents
        other.remove(0)
        #expect(ask(other, "other") == "other", "one document fewer: counted afresh")
        #expect(ask(documents, "again", maxValues: 10) == "again", "another maxValuesPerFacet: counted afresh")
        #expect(ask(documents, "again", attributes: ["brand", "categories"]) == "again", "other attributes: counted afresh")
        #expect(calls == 4)

        var small = DocumentSet(capacity: 10_000)
        for document in 0..<(FacetCountCache.smallestSetKept - 1) { small.insert(document) }
        _ = ask(small, "small")
        _ = ask(small, "small")
        #expect(calls == 6, "a small set is counted every time")
    }

    /// Above the 4 MiB floor the budget grows with the records, so that a large index keeps the
    /// counts over the hundred-odd large sets a keystroke log comes back to.
    @Test func aLargeIndexKeepsTheCountsOfAHundredAndTwentyLargeSets() {
        let documentCount = 300_000
        let cache = FacetCountCache(documentCount: documentCount)
        let sets = (0..<120).map { missing in
            var set = DocumentSet(capacity: documentCount, full: true)
            set.remove(missing)
            return set
        }
        var calls = 0
        for _ in 0..<2 {
            for set in sets {
                _ = cache.counts(["brand"], over: set, documentCount: set.count, maxValues: 10, sort: .count) {
                    calls += 1
                    return counts("counted")
                }
            }
        }
        #expect(calls == 120, "each of 120 sets of 300,000 records (37.5 KB each) counted once, then read back")
    }

    func parameters(_ query: String, filters: String? = nil) -> SearchParameters {
        var parameters = SearchParameters(query: query)
        parameters.facets = ["brand", "categories", "price"]
        parameters.filters = filters
        parameters.hitsPerPage = 5
        return parameters
    }

    @Test func answersWithKeptCountsAreTheAnswersCountedAfresh() throws {
        guard case .object(let settings) = DatasetGenerator.settings(for: .products) else { throw SearchError(.invalidParameter, "settings") }
        let engine = try TestEngine()
        let index = try engine.index("products", settings: settings, records: Self.records)
        let searches = ["", "s", "a", "e", "", "s", "a", "e"].map { parameters($0) }
            + ["", "s", ""].map { parameters($0, filters: "price > 50") }
        let warm = try searches.map { try index.search($0).answerWithoutTiming }
        #expect(index.live.state.base.facetCounts.count > 0, "the counts over large sets were kept")

        for (position, search) in searches.enumerated() {
            let fresh = try SearchEngine(directory: engine.directory.url).existingIndex("products")
            let same = try fresh.search(search).answerWithoutTiming == warm[position]
            #expect(same, "the answer to \"\(search.query)\" (\(search.filters ?? "no filters")) with kept counts differs from the one counted afresh")
        }
    }
}
