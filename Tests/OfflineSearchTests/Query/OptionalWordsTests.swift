import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// `optionalWords`, `removeWordsIfNoResults` and the `words` criterion.
@Suite struct OptionalWordsTests {
    static let records: [JSONValue] = [
        ["objectID": "both", "name": "black leather sofa", "rank": 1],
        ["objectID": "black", "name": "black lamp", "rank": 3],
        ["objectID": "sofa", "name": "blue sofa", "rank": 2],
        ["objectID": "none", "name": "red chair", "rank": 4],
    ]

    func index(_ settings: JSONObject = [:]) throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        var all: JSONObject = ["searchableAttributes": ["name"], "customRanking": ["desc(rank)"], "typoTolerance": false]
        for (key, value) in settings { all[key] = value }
        return (engine, try engine.index(settings: all, records: OptionalWordsTests.records))
    }

    @Test func optionalWordsWidenTheMatchAndRankByWordsMatched() throws {
        let (_, index) = try index(["optionalWords": ["black"]])
        // "black" is optional: sofas match without it, and the one with it ranks first whatever the custom ranking.
        #expect(try index.search("black sofa ").objectIDs == ["both", "sofa"])
        #expect(try index.search("black sofa ", ["optionalWords": []]).objectIDs == ["both"])
        // A query of optional words only: at least one must match.
        #expect(Set(try index.search("black ").objectIDs) == ["both", "black"])
    }

    @Test(arguments: [
        ("none", [String]()),
        ("lastWords", ["black"]),            // "black lamp sofa": sofa, then lamp, made optional
        ("firstWords", ["both", "sofa"]),    // black, then lamp, made optional; "both" also has black
        ("allOptional", ["both", "black", "sofa"]),
    ])
    func removeWordsIfNoResults(mode: String, expected: [String]) throws {
        let (_, index) = try index()
        let response = try index.search("black lamp sofa ", ["removeWordsIfNoResults": .string(mode)])
        if mode == "allOptional" {
            #expect(Set(response.objectIDs) == Set(expected))
            #expect(response.objectIDs.first == "both" || response.objectIDs.first == "black")
        } else {
            #expect(response.objectIDs == expected)
        }
    }

    /// Once the required words so far match nothing together, the words after them are not
    /// matched (`CandidateMatcher`): the answers are those of the words that decide them.
    @Test func wordsAfterAnEmptyMatchChangeNothing() throws {
        let (_, index) = try index()
        #expect(try index.search("purple sofa ").nbHits == 0)
        #expect(try index.search("purple sofa black ", ["optionalWords": ["black"]]).nbHits == 0)
        #expect(try index.search("purple sofa ", ["optionalWords": ["purple"]]).objectIDs == ["sofa", "both"])
        #expect(try index.search("sofa purple ", ["optionalWords": ["purple"]]).objectIDs == ["sofa", "both"])
        #expect(try index.search("purple black sofa ", ["removeWordsIfNoResults": "firstWords"]).objectIDs == ["both"])
        #expect(try index.search("purple black lam", ["removeWordsIfNoResults": "firstWords"]).objectIDs == ["black"])
        // A word typed after the empty match is matched in full when the first goes (a new search).
        #expect(try index.search("black lam").objectIDs == ["black"])
    }

    @Test func removeWordsIfNoResultsFromSettingsAndValidation() throws {
        let (_, index) = try index(["removeWordsIfNoResults": "allOptional"])
        #expect(try index.search("red sofa ").nbHits == 3)
        #expect(throws: SearchError.self) { try index.search("x", ["removeWordsIfNoResults": "sometimes"]) }
    }
}

@Suite struct RankingInfoTests {
    @Test func rankingInfoReportsWhatTheCriteriaSaw() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["title", "body"], "customRanking": ["desc(rank)"],
                                                "optionalWords": ["red"]],
                                     records: [["objectID": "1", "title": "red iphone case", "rank": 2],
                                               ["objectID": "2", "title": "case", "body": "for iphnoe", "rank": 1]])
        let response = try index.search("red iphone case ", ["getRankingInfo": true])
        #expect(response.objectIDs == ["1", "2"])
        let first = try #require(response.hits.first?["_rankingInfo"])
        #expect(first["nbTypos"] == 0)
        #expect(first["words"] == 3)
        #expect(first["nbExactWords"] == 3)
        #expect(first["firstMatchedWord"] == 0)
        let second = try #require(response.hits.last?["_rankingInfo"])
        #expect(second["nbTypos"] == 1)           // iphnoe
        #expect(second["words"] == 2)             // red is optional and missing
        #expect(second["nbExactWords"] == 1)      // case
        #expect((first["userScore"]?.intValue ?? 0) > (second["userScore"]?.intValue ?? 0))
        #expect(try index.search("case").hits.first?["_rankingInfo"] == nil)
    }
}

@Suite struct DistinctTests {
    static let records: [JSONValue] = [
        ["objectID": "r1", "name": "shirt red", "product": "shirt", "rank": 6],
        ["objectID": "r2", "name": "shirt blue", "product": "shirt", "rank": 5],
        ["objectID": "r3", "name": "shirt green", "product": "shirt", "rank": 4],
        ["objectID": "p1", "name": "pants blue", "product": "pants", "rank": 3],
        ["objectID": "p2", "name": "pants black", "product": "pants", "rank": 2],
        ["objectID": "x1", "name": "hat blue", "rank": 1],
    ]

    @Test func distinctKeepsTheBestRecordsOfEachGroup() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "customRanking": ["desc(rank)"],
                                                "attributeForDistinct": "product", "attributesForFaceting": ["product"]],
                                     records: DistinctTests.records)
        #expect(try index.search("").objectIDs == ["r1", "r2", "r3", "p1", "p2", "x1"])
        let one = try index.search("", ["distinct": true, "facets": ["product"]])
        #expect(one.objectIDs == ["r1", "p1", "x1"])
        #expect(one.nbHits == 3)
        #expect(one.facet("product")?["shirt"] == 3)   // facets are counted before distinct
        #expect(try index.search("", ["distinct": 2]).objectIDs == ["r1", "r2", "p1", "p2", "x1"])
        #expect(try index.search("blue", ["distinct": 1]).objectIDs == ["r2", "p1", "x1"])
        let paged = try index.search("", ["distinct": 1, "hitsPerPage": 2, "page": 1])
        #expect(paged.objectIDs == ["x1"])
        #expect(paged.nbPages == 2)
        #expect(throws: SearchError.self) { try index.search("", ["distinct": 9]) }
        // From the settings, and off per request.
        try index.setSettings(["distinct": 1])
        #expect(try index.search("").nbHits == 3)
        #expect(try index.search("", ["distinct": false]).nbHits == 6)
    }
}

@Suite struct OptionalFiltersTests {
    static let records: [JSONValue] = [
        ["objectID": "a1", "name": "phone", "brand": "Acme", "color": "red", "rank": 4],
        ["objectID": "b1", "name": "phone", "brand": "Bolt", "color": "red", "rank": 3],
        ["objectID": "b2", "name": "phone", "brand": "Bolt", "color": "blue", "rank": 2],
        ["objectID": "c1", "name": "phone", "brand": "Cove", "color": "blue", "rank": 1],
    ]

    @Test func optionalFiltersRankMatchingRecordsFirstWithoutFiltering() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "customRanking": ["desc(rank)"],
                                                "attributesForFaceting": ["brand", "color"]],
                                     records: OptionalFiltersTests.records)
        #expect(try index.search("phone").objectIDs == ["a1", "b1", "b2", "c1"])
        #expect(try index.search("phone", ["optionalFilters": ["brand:Bolt"]]).objectIDs == ["b1", "b2", "a1", "c1"])
        // Two optional filters: matching both beats matching one.
        #expect(try index.search("phone", ["optionalFilters": ["brand:Bolt", "color:blue"]]).objectIDs == ["b2", "b1", "c1", "a1"])
        // An OR-group counts once; a negative optional filter demotes.
        #expect(try index.search("phone", ["optionalFilters": [["brand:Cove", "brand:Acme"]]]).objectIDs == ["a1", "c1", "b1", "b2"])
        #expect(try index.search("phone", ["optionalFilters": ["brand:-Acme"]]).objectIDs == ["b1", "b2", "c1", "a1"])
        // Without a query too, and reported in _rankingInfo.
        let response = try index.search("", ["optionalFilters": "brand:Cove", "getRankingInfo": true])
        #expect(response.objectIDs.first == "c1")
        #expect(response.nbHits == 4)
        #expect(response.hits.first?["_rankingInfo"]?["filters"] == 1)
        #expect(response.hits.last?["_rankingInfo"]?["filters"] == 0)
    }
}

/// Algolia's filter scoring: `<score=N>` on optional filters and `sumOrFiltersScores`.
@Suite struct FilterScoringTests {
    func index() throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "customRanking": ["desc(rank)"],
                                                "attributesForFaceting": ["brand", "color"]],
                                     records: OptionalFiltersTests.records)
        return (engine, index)
    }

    @Test func scoresOrderTheRecordsByTheirTotal() throws {
        let (_, index) = try index()
        // Cove 3 > Bolt 2 > the rest; Acme buried under the records with no score.
        let scored: JSONValue = ["brand:Cove<score=3>", "brand:Bolt<score=2>", "brand:-Acme<score=1>"]
        let response = try index.search("phone", ["optionalFilters": scored, "getRankingInfo": true])
        #expect(response.objectIDs == ["c1", "b1", "b2", "a1"])
        #expect(response.hits.map { $0["_rankingInfo"]?["filters"] } == [4, 3, 3, 0])
        // A quoted value, the string form, and a score of 0 (no boost).
        #expect(try index.search("phone", ["optionalFilters": "brand:\"Cove\"<score=5>,color:red<score=2>"]).objectIDs
            == ["c1", "a1", "b1", "b2"])
        #expect(try index.search("phone", ["optionalFilters": ["brand:Cove<score=0>"]]).objectIDs == ["a1", "b1", "b2", "c1"])
    }

    @Test func anOrGroupScoresItsBestFilterOrTheSum() throws {
        let (_, index) = try index()
        let group: JSONValue = [["brand:Bolt<score=2>", "color:blue<score=3>"]]
        // Best of the group: b2 (Bolt, blue) 3, c1 (blue) 3, b1 (Bolt) 2, a1 0.
        let best = try index.search("phone", ["optionalFilters": group, "getRankingInfo": true])
        #expect(best.objectIDs == ["b2", "c1", "b1", "a1"])
        #expect(best.hits.map { $0["_rankingInfo"]?["filters"] } == [3, 3, 2, 0])
        // Summed: b2 5 ranks alone first.
        let summed = try index.search("phone", ["optionalFilters": group, "sumOrFiltersScores": true, "getRankingInfo": true])
        #expect(summed.objectIDs == ["b2", "c1", "b1", "a1"])
        #expect(summed.hits.map { $0["_rankingInfo"]?["filters"] } == [5, 3, 2, 0])
        // The string form's OR group, the same.
        #expect(try index.search("phone", ["optionalFilters": "(brand:Bolt<score=2>,color:blue<score=3>)", "sumOrFiltersScores": true])
            .objectIDs == ["b2", "c1", "b1", "a1"])
        // AND-ed filters always add up.
        let anded = try index.search("phone", ["optionalFilters": ["brand:Bolt<score=2>", "color:red<score=2>"], "getRankingInfo": true])
        #expect(anded.objectIDs == ["b1", "a1", "b2", "c1"])
        #expect(anded.hits.map { $0["_rankingInfo"]?["filters"] } == [4, 2, 2, 0])
    }

    @Test func theSameOrderWithRecentWritesInTheDelta() throws {
        let (owner, index) = try index()
        defer { withExtendedLifetime(owner) {} }
        try index.saveObjects([["objectID": "d1", "name": "phone", "brand": "Dune", "color": "blue", "rank": 5]])
        #expect(index.deltaCount > 0)
        let parameters: JSONObject = ["optionalFilters": [["brand:Dune<score=4>", "color:blue<score=3>"], "brand:Bolt<score=2>"],
                                      "sumOrFiltersScores": true]
        #expect(try index.search("phone", parameters).objectIDs == ["d1", "b2", "c1", "b1", "a1"])
        try index.merge()
        #expect(try index.search("phone", parameters).objectIDs == ["d1", "b2", "c1", "b1", "a1"])
    }

    @Test(arguments: ["brand:Bolt<score=70000>", "brand:Bolt<score=99999999999999999999>"])
    func aScoreOutOfRangeIsAnError(_ filter: String) {
        let error = expectSearchError { _ = try FilterScoringTests.searchOnce(["optionalFilters": [.string(filter)]]) }
        #expect(error?.message.contains("expected a whole number from 0 to 65535") == true)
        #expect(error?.message.hasPrefix("optionalFilters: ") == true)
    }

    static func searchOnce(_ parameters: JSONObject) throws -> SearchResponse {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["attributesForFaceting": ["brand"]], records: OptionalFiltersTests.records)
        return try index.search("", parameters)
    }
}
