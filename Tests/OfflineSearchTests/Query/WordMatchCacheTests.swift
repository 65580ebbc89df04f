import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI
import DatasetGenerator

/// A complete query word's match is kept on the snapshot for the next keystrokes
/// (`WordMatchCache`): the answers read from it must be the answers computed afresh, hits,
/// facets, highlights and `_rankingInfo` alike, whatever words came before.
@Suite struct WordMatchCacheTests {
    static let records = DatasetGenerator(seed: 11).records(.products, count: 1500)

    /// The keystrokes of a few multi-word queries, typed one after another: each complete word
    /// is matched once, then read back on every later keystroke (and by the next query that
    /// starts with it, next to other words).
    static let keystrokes: [String] = {
        let queries = ["samsung galaxy phone", "apple watch band", "apple iphone case", "smart tv remote", "wireles headphnes sony",
                       "usb cable charger fast", "laptop bag", "gaming laptop"]
        return queries.flatMap { query in (1...query.count).map { String(query.prefix($0)) } }
    }()

    func index(in engine: TestEngine) throws -> SearchIndex {
        guard case .object(let settings) = DatasetGenerator.settings(for: .products) else { throw SearchError(.invalidParameter, "settings") }
        return try engine.index("products", settings: settings, records: Self.records)
    }

    func parameters(_ query: String) -> SearchParameters {
        var parameters = SearchParameters(query: query)
        parameters.facets = ["brand", "categories"]
        parameters.getRankingInfo = true
        parameters.hitsPerPage = 50
        return parameters
    }

    @Test func answersReadFromTheCacheAreTheAnswersComputedAfresh() throws {
        let warm = try TestEngine()
        let warmIndex = try index(in: warm)
        var typed: [String] = []
        for keystroke in Self.keystrokes { typed.append(try warmIndex.search(parameters(keystroke)).answerWithoutTiming) }
        // Every complete word was kept: the cache holds entries now.
        #expect(warmIndex.live.state.base.wordMatches.entryCount > 10, "the complete words typed are kept")

        // Each keystroke again, on an index opened afresh for it (nothing kept yet).
        let cold = try TestEngine()
        _ = try index(in: cold)
        for (position, keystroke) in Self.keystrokes.enumerated() {
            let fresh = try SearchEngine(directory: cold.directory.url).existingIndex("products")
            // Compared as a flag: a failure names the keystroke, not two pages of JSON.
            let same = try fresh.search(parameters(keystroke)).answerWithoutTiming == typed[position]
            #expect(same, "the answer to \"\(keystroke)\" read from the cache differs from the one computed afresh")
        }
    }

    @Test func aQueryTypedAgainGivesTheSameAnswerFromTheCache() throws {
        let engine = try TestEngine()
        let index = try index(in: engine)
        for query in ["samsung galaxy ph", "apple iph", "wireles headphnes s"] {
            let first = try index.search(parameters(query)).answerWithoutTiming
            let second = try index.search(parameters(query)).answerWithoutTiming
            let same = first == second
            #expect(same, "the answer to \"\(query)\" differs the second time")
            // Kept from the second sighting: the third answer is read from the cache.
            let third = try index.search(parameters(query)).answerWithoutTiming
            #expect(third == first, "the answer to \"\(query)\" differs the third time")
        }
    }
}

/// A word's ranks kept in either form merge into a query's ranks as the element-wise minimum.
@Suite struct PackedRanksTests {
    /// `count` documents of `documentCount` with a rank, the rest `PostingRank.unmatched`.
    func ranks(count: Int, of documentCount: Int) -> (ranks: [UInt16], documents: DocumentSet) {
        var ranks = [UInt16](repeating: PostingRank.unmatched, count: documentCount)
        var documents = DocumentSet(capacity: documentCount)
        for document in stride(from: 0, to: documentCount, by: max(1, documentCount / count)).prefix(count) {
            ranks[document] = UInt16(document % 997)
            documents.insert(document)
        }
        return (ranks, documents)
    }

    @Test(arguments: [3, 40, 90, 100, 300])
    func mergingGivesTheLowerRankOfEachDocument(count: Int) {
        let documentCount = 300
        let (word, documents) = ranks(count: count, of: documentCount)
        let packed = PackedRanks(word, candidates: documents)
        #expect(packed.byteCount <= 2 * documentCount, "kept in the smaller form")
        var query = (0..<documentCount).map { $0 % 3 == 0 ? PostingRank.unmatched : UInt16(($0 * 7) % 500) }
        let expected = zip(query, word).map { min($0, $1) }
        packed.merge(into: &query)
        #expect(query == expected)
    }

    @Test func noRanksLeaveTheQueryAlone() {
        var query: [UInt16] = [1, PostingRank.unmatched, 7]
        PackedRanks.none.merge(into: &query)
        #expect(query == [1, PostingRank.unmatched, 7])
    }
}
