import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Filter scoring written in `filters`, with Algolia's stock portfolio example: the filters
/// select as usual, and the scores rank what they selected (the `filters` criterion).
@Suite struct FilterScoringInFiltersTests {
    static let portfolios: [JSONValue] = [
        ["objectID": "facebook only", "company": ["Facebook"]],
        ["objectID": "amazon only", "company": ["Amazon"]],
        ["objectID": "all three", "company": ["Google", "Amazon", "Facebook"]],
        ["objectID": "google only", "company": ["Google"]],
        ["objectID": "none of them", "company": ["Apple"]],
    ]
    static let filters = "(company:Google<score=3> OR company:Amazon<score=2> OR company:Facebook<score=1>)"

    @Test func scoresRankWhatTheFiltersSelect() throws {
        let index = try TestEngine().index(settings: ["attributesForFaceting": ["company"]], records: Self.portfolios)
        let best = try index.search("", ["filters": .string(Self.filters), "getRankingInfo": true])
        // By default an OR group scores its best match: "all three" and "google only" score 3.
        #expect(best.objectIDs == ["all three", "google only", "amazon only", "facebook only"])
        #expect(best.hits.map { $0["_rankingInfo"]?["filters"]?.intValue } == [3, 3, 2, 1])
        let summed = try index.search("", ["filters": .string(Self.filters), "sumOrFiltersScores": true, "getRankingInfo": true])
        #expect(summed.objectIDs == ["all three", "google only", "amazon only", "facebook only"])
        #expect(summed.hits.map { $0["_rankingInfo"]?["filters"]?.intValue } == [6, 3, 2, 1])
        // Quoted values and AND-ed groups: each group adds its score.
        let quoted = try index.search("", ["filters": "company:\"Facebook\"<score=5> OR company:Google", "getRankingInfo": true])
        #expect(quoted.objectIDs == ["facebook only", "all three", "google only"])
        #expect(quoted.hits.map { $0["_rankingInfo"]?["filters"]?.intValue } == [5, 5, 1])
    }

    @Test func aFilterWithoutScoresDoesNotRank() throws {
        let index = try TestEngine().index(settings: ["attributesForFaceting": ["company"]], records: Self.portfolios)
        let plain = try index.search("", ["filters": "company:Google OR company:Facebook", "getRankingInfo": true])
        #expect(plain.objectIDs == ["facebook only", "all three", "google only"])   // insertion order
        #expect(plain.hits.allSatisfy { $0["_rankingInfo"]?["filters"]?.intValue == 0 })
    }

    /// With recent writes in a delta segment, the same order as a rebuilt index.
    @Test func theSameWithRecentWrites() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["attributesForFaceting": ["company"]], records: Array(Self.portfolios.prefix(3)))
        try index.saveObjects(Array(Self.portfolios.dropFirst(3)))
        #expect(index.deltaCount > 0)
        #expect(try index.search("", ["filters": .string(Self.filters)]).objectIDs == ["all three", "google only", "amazon only", "facebook only"])
    }
}
