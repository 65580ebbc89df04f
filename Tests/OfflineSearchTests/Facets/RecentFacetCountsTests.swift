import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI
import DatasetGenerator

/// Facet counts over a set near one counted lately are taken from that set's counts
/// (`RecentFacetCounts`): equal to a pass over the set, whichever way they were taken.
@Suite struct RecentFacetCountsTests {
    static let records = DatasetGenerator(seed: 11).records(.products, count: 6000)

    /// Each value's count over `documents`, one document at a time.
    func bruteForce(_ column: FacetColumn, over documents: DocumentSet) -> [Int] {
        var counts = [Int](repeating: 0, count: column.values.count)
        documents.forEach { document in
            for i in Int(column.docStarts[document])..<Int(column.docStarts[document + 1]) { counts[Int(column.docValues[i])] += 1 }
            return true
        }
        return counts
    }

    func products() throws -> (TestEngine, SearchIndex) {
        guard case .object(let settings) = DatasetGenerator.settings(for: .products) else { throw SearchError(.invalidParameter, "settings") }
        let engine = try TestEngine()
        return (engine, try engine.index("products", settings: settings, records: Self.records))
    }

    /// Counted one document at a time (as a column this small is) and in batches (as a large
    /// index's columns are), from the column's slots and from its `docStarts` (`FacetTally`).
    @Test(arguments: [FacetCounter.Batching.largeSparsePasses, .always], [true, false])
    func countsFromANearSetAreThePassCounts(batching: FacetCounter.Batching, slots: Bool) throws {
        let (_, index) = try products()
        let snapshot = index.live.state.base
        let counter = FacetCounter(snapshot: snapshot, batching: batching)
        let total = snapshot.documentCount
        var generator = SplitMix64(state: 3)
        // About 40 % of the records (counted by a pass over them) and about 60 % (over the others).
        for (path, fifths) in [("brand", 2), ("categories", 2), ("price", 2), ("brand", 3), ("categories", 3)] as [(String, UInt64)] {
            var documents = DocumentSet(capacity: total)
            for document in 0..<total where generator.next() % 5 < fifths { documents.insert(document) }
            let stored = try #require(snapshot.facetColumn(path))
            #expect(stored.slots == nil, "a small index's columns have no slots")
            // With slots, under another path: its recent sets are its own.
            let slotted = stored.withSlots()
            let column = !slots ? stored : FacetColumn(path: path + " with slots", values: slotted.values, numbers: slotted.numbers,
                                                       docStarts: slotted.docStarts, docValues: slotted.docValues, valueStarts: slotted.valueStarts,
                                                       valueDocs: slotted.valueDocs, idsByKey: slotted.idsByKey, slots: slotted.slots)
            #expect(column.slots != nil || !slots)
            #expect(counter.countsInBatches(column, visits: 1) == (batching == .always), "\(path): a small index's column is counted in batches only when asked")
            var current = documents
            // Each step drops some documents and adds others, as the next keystroke or filter would
            // (a fiftieth of the records toggled: the set stays between its start and a half).
            for step in 0..<12 {
                var next = current
                for document in 0..<total where generator.next() % 50 == 0 {
                    if next.contains(document) { next.remove(document) } else { next.insert(document) }
                }
                let near = snapshot.facetCounts.recent.nearest(column.path, to: next.words, population: next.count,
                                                               within: min(next.count, total - next.count))
                if step > 0 { #expect(near != nil, "\(path) over \(fifths) fifths, step \(step): the set before is near enough to count from") }
                let counted = counter.counts(column, over: next, documentCount: next.count)
                #expect(counted == bruteForce(column, over: next), "\(path) over \(fifths) fifths, step \(step): counts from a near set differ from a pass")
                current = next
            }
        }
    }

    @Test func aFarSetIsCountedByAPass() throws {
        let (_, index) = try products()
        let snapshot = index.live.state.base
        let total = snapshot.documentCount
        let column = try #require(snapshot.facetColumn("brand"))
        var evens = DocumentSet(capacity: total), odds = DocumentSet(capacity: total)
        for document in 0..<total { if document % 2 == 0 { evens.insert(document) } else { odds.insert(document) } }
        _ = FacetCounter(snapshot: snapshot).counts(column, over: evens, documentCount: evens.count)
        #expect(snapshot.facetCounts.recent.nearest("brand", to: odds.words, population: odds.count, within: odds.count) == nil,
                "disjoint sets: a pass costs less")
        #expect(FacetCounter(snapshot: snapshot).counts(column, over: odds, documentCount: odds.count) == bruteForce(column, over: odds))
        #expect(FacetCounter(snapshot: snapshot, batching: .always).counts(column, over: odds, documentCount: odds.count) == bruteForce(column, over: odds),
                "a pass in batches")
    }

    @Test func keptSetsStayWithinTheirBounds() {
        let recent = RecentFacetCounts(byteBudget: 1 << 20)
        let words = [UInt64](repeating: 0b1011, count: 100)
        for step in 0..<(RecentFacetCounts.entryLimit + 5) {
            recent.keep(RecentFacetCounts.Entry(path: "brand", documents: words, population: 300 + step, counts: [1, 2, 3]))
        }
        #expect(recent.count == RecentFacetCounts.entryLimit, "the last sets of a column")
        for step in 0..<3 {
            recent.keep(RecentFacetCounts.Entry(path: "categories", documents: words, population: 300 + step, counts: [1]))
        }
        #expect(recent.count == RecentFacetCounts.entryLimit + 3, "another column's sets do not push out the first column's")
        #expect(recent.nearest("brand", to: words, population: 300, within: 10) != nil)
        let huge = RecentFacetCounts.Entry(path: "price", documents: [UInt64](repeating: 0, count: 200_000), population: 0, counts: [])
        recent.keep(huge)
        #expect(recent.count == RecentFacetCounts.entryLimit + 3, "a set larger than the whole budget is not kept, and pushes out none")
        recent.setByteBudget(0)
        #expect(recent.count == 0, "no budget: nothing is kept")
        recent.keep(RecentFacetCounts.Entry(path: "brand", documents: words, population: 300, counts: [1]))
        #expect(recent.count == 0, "no budget: nothing is kept")
    }

    @Test func theDifferenceStopsAtItsBound() {
        let a = [UInt64](repeating: 0, count: 300)
        var b = a
        for index in 0..<300 { b[index] = 0b111 }   // 900 documents apart
        #expect(RecentFacetCounts.difference(a, b, below: 1_000) == 900)
        #expect(RecentFacetCounts.difference(a, b, below: 900) == nil)
        #expect(RecentFacetCounts.difference(a, a, below: 1) == 0)
    }

    /// A keystroke log's answers with the recent sets kept are those of an engine that keeps
    /// nothing (`searchCacheSize: 0`): every set counted by a pass.
    @Test func keystrokeAnswersAreTheAnswersCountedAfresh() throws {
        let (engine, index) = try products()
        var searches: [SearchParameters] = []
        for text in ["s", "sa", "sam", "e", "el", "ele", "p", "pr", "c"] {
            for filters in [nil, "price > 20", "price > 25", "price > 30"] {
                var parameters = SearchParameters(query: text)
                parameters.facets = ["brand", "categories", "price"]
                parameters.filters = filters
                parameters.hitsPerPage = 3
                searches.append(parameters)
            }
        }
        let answers = try searches.map { try index.search($0).answerWithoutTiming }
        #expect(index.live.state.base.facetCounts.recent.count > 0, "large sets were kept")
        let fresh = try SearchEngine(directory: engine.directory.url, searchCacheSize: 0).existingIndex("products")
        for (position, search) in searches.enumerated() {
            let same = try fresh.search(search).answerWithoutTiming == answers[position]
            #expect(same, "\"\(search.query)\" (\(search.filters ?? "no filters")): the answer differs from the one counted afresh")
        }
    }
}
