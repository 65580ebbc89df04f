import Testing
@testable import OfflineSearch

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
