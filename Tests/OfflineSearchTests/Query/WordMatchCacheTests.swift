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

    /// A query's first word is kept from the query's own levels and ranks (nothing is noted
    /// before it), a later word from levels and ranks noted apart: read back, either gives the
    /// answer of an index that keeps nothing. One-word queries, dense prefixes and sparse words.
    @Test func aFirstWordKeptFromTheQuerysOwnLevelsAnswersAsOneNeverKept() throws {
        let made = try TestEngine()
        _ = try index(in: made)
        let keeping = try SearchEngine(directory: made.directory.url).existingIndex("products")
        let keepingNothing = try SearchEngine(directory: made.directory.url, searchCacheSize: 0).existingIndex("products")
        for query in ["s", "sa", "samsung", "galaxy", "phone", "wireles", "cable c", "laptop ba"] {
            let expected = try keepingNothing.search(parameters(query)).answerWithoutTiming
            // First sighting noted, second kept, third read back.
            for sighting in 1...3 {
                let same = try keeping.search(parameters(query)).answerWithoutTiming == expected
                #expect(same, "sighting \(sighting) of \"\(query)\" differs from the answer of an index that keeps nothing")
            }
        }
        #expect(keeping.live.state.base.wordMatches.entryCount >= 8, "the words were kept")
    }

    /// Terms without postings note nothing, and start nothing: no level bitmaps and no rank per
    /// record are made for them, and the ranks read as none (nil) until a word with postings
    /// is collected.
    @Test func termsWithoutPostingsNoteNothing() throws {
        let engine = try TestEngine()
        let base = try index(in: engine).live.state.base
        try #require(base.configuration.orderedLevelMask != 0, "some attribute is ordered: ranks are tracked")
        var collector = PostingCollector(snapshot: base)
        var documents = [UInt64](repeating: 0, count: (base.documentCount + 63) >> 6)
        collector.collect(base.terms.ids(withPrefix: "zqxv"), allowed: PostingMask.levels, wholeValueOnly: false, recordLevels: true,
                          into: &documents)
        #expect(!collector.isStarted, "nothing was noted")
        #expect(collector.attributeRanks() == nil, "no rank per record")
        #expect(collector.levelSets().allSatisfy(\.isEmpty) && collector.levelSets().count == base.configuration.levelCount)
        collector.collect(base.terms.ids(withPrefix: "samsung"), allowed: PostingMask.levels, wholeValueOnly: false, recordLevels: true,
                          into: &documents)
        #expect(collector.isStarted)
        #expect(collector.attributeRanks()?.count == base.documentCount)
        #expect(collector.levelSets().contains { !$0.isEmpty })
    }

    /// A word collected within a set of documents (a required word after others: the documents
    /// they match together) notes exactly what it notes collected whole, for those documents,
    /// and nothing for the others.
    @Test func aWordCollectedWithinDocumentsNotesWhatItNotesWholeForThemOnly() throws {
        let engine = try TestEngine()
        let base = try index(in: engine).live.state.base
        try #require(base.configuration.orderedLevelMask != 0, "some attribute is ordered: ranks are tracked")
        let stride = (base.documentCount + 63) >> 6
        func collected(_ prefix: String, allowed: UInt16 = PostingMask.levels,
                       within filter: DocumentSet?) -> (documents: DocumentSet, levels: [DocumentSet], ranks: [UInt16]?) {
            var collector = PostingCollector(snapshot: base)
            var documents = [UInt64](repeating: 0, count: stride)
            collector.collect(base.terms.ids(withPrefix: prefix), allowed: allowed, wholeValueOnly: false, recordLevels: true,
                              within: filter, into: &documents)
            return (DocumentSet(capacity: base.documentCount, words: documents), collector.levelSets(), collector.attributeRanks())
        }
        let within = collected("samsung", within: nil).documents
        try #require(within.count > 20 && within.count < base.documentCount / 2)
        // Every level (some unordered: positions looked up one by one), and the ordered levels
        // only (every posting's position read in turn, the cursor stepped past the filtered ones).
        let orderedOnly = base.configuration.orderedLevelMask
        try #require(orderedOnly != PostingMask.levels & PostingMask.mask(forLevels: 0...(base.configuration.levelCount - 1)),
                     "some level is unordered")
        for (prefix, allowed) in ["s", "ga", "phone", "cable"].flatMap({ [($0, PostingMask.levels), ($0, orderedOnly)] }) {
            let whole = collected(prefix, allowed: allowed, within: nil), part = collected(prefix, allowed: allowed, within: within)
            #expect(part.documents == whole.documents.intersection(within), "\(prefix): its documents within the set")
            #expect(part.documents.count > 0, "\(prefix): some of its documents are in the set")
            for (level, (partLevel, wholeLevel)) in zip(part.levels, whole.levels).enumerated() {
                #expect(partLevel == wholeLevel.intersection(within), "\(prefix): level \(level) within the set")
            }
            let (partRanks, wholeRanks) = (try #require(part.ranks), try #require(whole.ranks))
            for document in 0..<base.documentCount {
                let expected = within.contains(document) ? wholeRanks[document] : PostingRank.unmatched
                guard partRanks[document] == expected else {
                    Issue.record("\(prefix): document \(document) ranked \(partRanks[document]), not \(expected)")
                    break
                }
            }
        }
    }

    /// Queries with words the index does not have, optional or required, before or after words
    /// it has (so that a word kept may be the first to note anything): each sighting answers as
    /// an index that keeps nothing, `_rankingInfo` included.
    @Test func wordsTheIndexDoesNotHaveAnswerAsBeforeKeptOrNot() throws {
        let made = try TestEngine()
        _ = try index(in: made)
        let keeping = try SearchEngine(directory: made.directory.url).existingIndex("products")
        let keepingNothing = try SearchEngine(directory: made.directory.url, searchCacheSize: 0).existingIndex("products")
        for query in ["zqxv samsung", "zqxv samsung gal", "samsung zqxv", "zqxv", "zqxv s", "qzxjv wireless"] {
            for optional in [[], ["zqxv", "qzxjv"]] {
                var request = parameters(query)
                request.other["optionalWords"] = .array(optional.map { .string($0) })
                let expected = try keepingNothing.search(request).answerWithoutTiming
                for sighting in 1...3 {
                    let same = try keeping.search(request).answerWithoutTiming == expected
                    #expect(same, "sighting \(sighting) of \"\(query)\" (optional: \(optional)) differs from the answer of an index that keeps nothing")
                }
            }
        }
        var optionalRequest = parameters("zqxv samsung")
        optionalRequest.other["optionalWords"] = ["zqxv"]
        let optionalAnswer = try keeping.search(optionalRequest)
        #expect(optionalAnswer.nbHits > 0, "the optional unknown word leaves the known one's records")
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

/// `SearchEngine.searchCacheSize` bounds what an index keeps, whichever path made its
/// snapshots (opening, a write's segment, a merge), and 0 keeps nothing; the answers are the same.
@Suite struct SearchCacheSizeTests {
    func parameters(_ query: String) -> SearchParameters {
        var parameters = SearchParameters(query: query)
        parameters.facets = ["brand", "categories"]
        return parameters
    }

    /// Every snapshot of the index's current state.
    func snapshots(_ index: SearchIndex) -> [IndexSnapshot] { index.live.state.segments.map(\.snapshot) }

    /// The state's caches together are within `size`, and each within its own bound.
    func expectWithin(_ size: Int, _ index: SearchIndex, _ when: String) {
        let state = index.live.state
        let budgets = state.storedRecords.byteBudget
            + snapshots(index).reduce(0) { $0 + $1.wordMatches.byteBudget + $1.facetCounts.byteBudget }
        #expect(budgets <= size, "\(when): the caches' budgets add up to \(budgets) bytes, over \(size)")
        #expect(state.storedRecords.byteCount <= state.storedRecords.byteBudget, "\(when)")
        for snapshot in snapshots(index) {
            #expect(snapshot.wordMatches.byteCount <= snapshot.wordMatches.matchesByteBudget, "\(when)")
            if size == 0 {
                #expect(snapshot.wordMatches.entryCount == 0, "\(when): nothing is kept with searchCacheSize 0")
                #expect(snapshot.facetCounts.count == 0, "\(when): no counts are kept with searchCacheSize 0")
            }
        }
        if size == 0 { #expect(state.storedRecords.count == 0, "\(when): no records are kept with searchCacheSize 0") }
    }

    @Test func aSizeBoundsEverySnapshotAndZeroKeepsNothing() throws {
        let made = try TestEngine()
        guard case .object(let settings) = DatasetGenerator.settings(for: .products) else { throw SearchError(.invalidParameter, "settings") }
        _ = try made.index("products", settings: settings, records: WordMatchCacheTests.records)
        let typed = WordMatchCacheTests.keystrokes + ["", "s", "a", "", "s", "a"]
        let expected = try typed.map { try SearchEngine(directory: made.directory.url).existingIndex("products").search(parameters($0)).answerWithoutTiming }

        for size in [0, 256 << 10] {
            let index = try SearchEngine(directory: made.directory.url, searchCacheSize: size).existingIndex("products")
            for (position, query) in typed.enumerated() {
                let same = try index.search(parameters(query)).answerWithoutTiming == expected[position]
                #expect(same, "with searchCacheSize \(size), the answer to \"\(query)\" differs")
            }
            expectWithin(size, index, "size \(size), opened")
            if size > 0 { #expect(index.live.state.base.wordMatches.entryCount > 0, "words are kept within the size") }
            // Writes: each a segment of its own, the size shared with the base.
            for batch in 0..<3 {
                try index.saveObjects([["objectID": .string("cache-size-\(size)-\(batch)"), "name": "Searchcache Phone"]])
            }
            #expect(snapshots(index).count > 1, "the writes left segments beside the base")
            for query in typed { _ = try index.search(parameters(query)) }
            expectWithin(size, index, "size \(size), after writes")
            // A merge: one new base.
            try index.live.merge()
            #expect(snapshots(index).count == 1)
            for query in typed { _ = try index.search(parameters(query)) }
            expectWithin(size, index, "size \(size), after a merge")
            try index.deleteObjects((0..<3).map { "cache-size-\(size)-\($0)" })
            try index.live.merge()
        }
    }

    @Test func theDefaultIsSizedByTheIndex() throws {
        let engine = try TestEngine()
        let index = try engine.index("products", settings: [:], records: [["objectID": "1", "name": "phone"]])
        #expect(engine.engine.searchCacheSize == nil)
        #expect(index.live.state.base.wordMatches.byteBudget == WordMatchCache.matchBudget(documentCount: 1) + (5 << 20),
                "the matches' budget, and 4 MiB of typo candidates and 1 MiB of sightings beside it")
    }

    /// Above the 64 MiB floor the budget grows with the records, so that a large index keeps
    /// about a hundred dense words (a short prefix, a word a third of the records have): each
    /// weighs about 2.6 bytes a record (a rank, four level bits, the documents).
    @Test func aLargeIndexKeepsAHundredDenseWords() {
        let documentCount = 300_000
        let cache = WordMatchCache(documentCount: documentCount)
        let stride = (documentCount + 63) >> 6
        let every = DocumentSet(capacity: documentCount, full: true)
        let ranks = [UInt16](repeating: 0, count: documentCount)
        func key(_ word: Int) -> WordMatchCache.Key {
            WordMatchCache.Key(folded: "w\(word)", isPrefix: true, alternatives: [], inexactAlternatives: [], corrections: [],
                               maxTypos: 0, scope: MatchScope(), singleWord: true)
        }
        for word in 0..<100 {
            let entry = WordMatchCache.Entry(documents: every.words, byTypos: nil, variantTerms: [], termRange: word..<(word + 1),
                                             otherTermIDs: [], exact: nil,
                                             levelBits: PackedBits([UInt64](repeating: .max, count: 4 * stride)),
                                             ranks: PackedRanks(ranks, candidates: every))
            cache.store(entry, for: key(word))
        }
        #expect(cache.entryCount == 100, "100 dense words of 300,000 records (about 79 MB) are all kept")
        #expect((0..<100).allSatisfy { cache.entry(for: key($0)) != nil })
    }

    @Test func aNegativeSizeIsRefused() throws {
        let folder = try TestEngine()
        #expect {
            _ = try SearchEngine(directory: folder.directory.url, searchCacheSize: -1)
        } throws: { error in
            (error as? SearchError)?.kind == .invalidParameter && (error as? SearchError)?.message.contains("searchCacheSize") == true
        }
    }

    @Test func loweringTheBudgetLetsTheOldestEntriesGo() {
        let cache = BoundedCache<Int, Int>(byteBudget: 1000, entryLimit: 100)
        for key in 0..<10 { cache.store(key, bytes: 100, for: key) }
        _ = cache[0]
        // Over 400: down to an eighth under it (350), the least recently used first.
        cache.setByteBudget(400)
        #expect(cache.count == 3)
        #expect(cache.byteCount == 300)
        for key in [0, 8, 9] { #expect(cache[key] == key, "\(key), among the last used, stays") }
        for key in 1...7 { #expect(cache[key] == nil, "\(key), among the least recently used, went") }
        cache.store(99, bytes: 101, for: 99)
        #expect(cache[99] == nil, "an entry over a quarter of the budget is not kept")
        cache.setByteBudget(0)
        #expect(cache.count == 0)
        #expect(cache.byteCount == 0)
    }
}
