import Testing
@testable import OfflineSearch
import SearchAPI

/// An ordered level split by position gives each part's documents, in order, whether a part is
/// found by a pass of its own (the first reads) or from the listing made once more are read.
@Suite struct PositionSplitTests {
    /// 3,000 documents, every third in the level, at positions spread over 0–40 (and one at
    /// the largest position a rank holds).
    func level() -> (documents: DocumentSet, ranks: [UInt16], expected: [Int: [Int]]) {
        let capacity = 3000
        var documents = DocumentSet(capacity: capacity)
        var ranks = [UInt16](repeating: PostingRank.unmatched, count: capacity)
        var expected: [Int: [Int]] = [:]
        for document in stride(from: 0, to: capacity, by: 3) {
            let position = document == 2997 ? PostingRank.maxPosition : (document * 7919) % 41
            documents.insert(document)
            ranks[document] = PostingRank.rank(level: 2, position: position)
            expected[position, default: []].append(document)
        }
        return (documents, ranks, expected)
    }

    @Test func everyPartHasItsDocumentsInOrderBeforeAndAfterListing() {
        let (documents, ranks, expected) = level()
        let split = PositionSplit(documents, ranks: ranks)
        #expect(split.positions == expected.keys.sorted())
        // Read every part twice, as a set and as elements: the first reads are passes of their
        // own, the rest come from the listing.
        for position in split.positions {
            let want = expected[position]!
            #expect(split.count(at: position) == want.count)
            #expect(split.documentSet(at: position).elements(skip: 0, limit: .max) == want, "position \(position), as a set")
            #expect(split.elements(at: position, skip: 0, limit: .max) == want, "position \(position), as elements")
            #expect(split.elements(at: position, skip: 1, limit: 2) == Array(want.dropFirst(1).prefix(2)), "position \(position), a page")
        }
    }

    @Test func theTiersOfAnOrderedLevelAreItsPositionsInOrder() {
        let (documents, ranks, expected) = level()
        let tiers = RelevanceRanker.positionTiers(documents, ranks: ranks, levelRank: 2 << 10)
        #expect(tiers.map(\.0) == expected.keys.sorted().map { 2 << 10 + $0 })
        for (value, tier) in tiers {
            #expect(tier.elements(skip: 0, limit: .max) == expected[value - 2 << 10], "position \(value - 2 << 10)")
        }
    }

    @Test func aLevelAtOnePositionIsOneSet() {
        var documents = DocumentSet(capacity: 100)
        var ranks = [UInt16](repeating: PostingRank.unmatched, count: 100)
        for document in [3, 50, 99] {
            documents.insert(document)
            ranks[document] = PostingRank.rank(level: 1, position: 4)
        }
        let tiers = RelevanceRanker.positionTiers(documents, ranks: ranks, levelRank: 1 << 10)
        #expect(tiers.count == 1)
        #expect(tiers.first?.0 == 1 << 10 + 4)
        #expect(tiers.first?.1.elements(skip: 0, limit: .max) == [3, 50, 99])
    }
}

/// The ranking splits an ordered level by position only when the page reaches it
/// (`RelevanceRanker.AttributePart.orderedLevel`): the order is still the one each record's own
/// values give (`_rankingInfo`, computed record by record), on every page, in one snapshot and
/// across the segments of recent writes (whose tiers carry complete keys).
///
/// The levels are split that way with the `best` strategy, and with `minProximity` where a group
/// is over `proximityGroupLimit` (it falls back to the best match) or where the proximity split
/// reads a head in the best match's order; `sum` and `minProximity` below the limit rank the
/// group by its records' scans.
@Suite struct OrderedLevelsSplitWhenReachedTests {
    /// `count` records whose words sit at every position of three ordered attributes, so that a
    /// prefix matches hundreds of them in each level, at many positions.
    static func records(_ count: Int = 700) -> [JSONValue] {
        let vocabulary = ["alpha", "acme", "beta", "bravo", "gamma", "delta", "omega", "sigma", "kappa", "theta"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func words(_ count: Int) -> String { (0..<count).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " ") }
        return (0..<count).map { id in
            ["objectID": .string("r\(id)"), "brand": .string(words(1 + next(3))), "name": .string(words(2 + next(8))),
             "description": .string(words(4 + next(20))), "popularity": .int(Int64((id * 7_919) % count))]
        }
    }

    /// Each hit's values, in the order of the criteria (`RankingCriterion.defaultOrder`, then
    /// the custom ranking), lower first; nil when one is missing.
    func key(_ hit: JSONValue) -> [Int]? {
        let info = hit["_rankingInfo"]
        let values = [info?["nbTypos"], info?["words"], info?["filters"], info?["proximityDistance"], info?["firstMatchedWord"],
                      info?["nbExactWords"], hit["popularity"]].map { $0?.intValue }
        let present = values.compactMap { $0 }
        guard present.count == values.count else { return nil }
        // More words, filters, exact words and popularity rank first.
        return zip(present, [1, -1, -1, 1, 1, -1, -1]).map { $0 * $1 }
    }

    /// The first 1,000 hits of each query in the order of their values, and pages of 3 and 20
    /// hits as slices of them.
    func expectRankedByEachRecordsValues(_ index: SearchIndex, when: String,
                                         queries: [String] = ["a", "b", "g", "alpha", "ome", "alpha be", "sigma kappa"]) throws {
        for query in queries {
            let whole = try index.search(query, ["hitsPerPage": 1000, "getRankingInfo": true])
            #expect(whole.nbHits > 150, "\(query): hits in several levels")
            let keys = try whole.hits.map { try #require(key($0), "\(query): every value of \($0) is there") }
            for (earlier, later) in zip(keys, keys.dropFirst()) {
                #expect(earlier.lexicographicallyPrecedes(later) || earlier == later, "\(query), \(when): \(earlier) ranked before \(later)")
            }
            let ranked = whole.objectIDs
            for hitsPerPage in [3, 20] {
                for page in [0, 1, 7] {
                    let asked = try index.search(query, ["hitsPerPage": .int(Int64(hitsPerPage)), "page": .int(Int64(page))]).objectIDs
                    #expect(asked == Array(ranked.dropFirst(page * hitsPerPage).prefix(hitsPerPage)),
                            "\(query), page \(page) of \(hitsPerPage), \(when)")
                }
            }
        }
    }

    @Test(arguments: ["best", "minProximity"])
    func everyPageInTheOrderOfEachRecordsValues(_ strategy: String) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["brand", "name", "description"], "customRanking": ["desc(popularity)"],
                                                "attributeCriteriaComputedBy": .string(strategy)],
                                     records: Self.records())
        try expectRankedByEachRecordsValues(index, when: "one snapshot")
        // A tenth of the records written again: they land in the delta, beside the base.
        for record in Self.records().enumerated().filter({ $0.offset % 10 == 0 }).map(\.element) { try index.saveObjects([record]) }
        #expect(index.deltaCount > 0)
        try expectRankedByEachRecordsValues(index, when: "with recent writes")
    }

    /// One-word queries matching more records than `proximityGroupLimit` (8,000): `minProximity`
    /// falls back to the best match, and its ordered levels are split when reached.
    @Test func aGroupOverTheProximityLimitSplitsItsLevelsWhenReached() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["brand", "name", "description"], "customRanking": ["desc(popularity)"],
                                                "attributeCriteriaComputedBy": "minProximity"],
                                     records: Self.records(8_400))
        #expect(try index.search("a").nbHits > RelevanceRanker.proximityGroupLimit, "a group over the limit")
        try expectRankedByEachRecordsValues(index, when: "over the proximity limit", queries: ["a", "alpha", "be"])
    }
}
