import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - Ranking (documented order: attribute, exact, custom)

@Suite struct EngineRankingTests {
    @Test func attributeLevelBeatsCustomRanking() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name", "description"], "customRanking": ["desc(popularity)"]],
                                     records: [
                                         ["objectID": "popular, in description", "name": "cable", "description": "for a phone", "popularity": 100],
                                         ["objectID": "unpopular, in name", "name": "phone", "description": "cheap", "popularity": 1],
                                     ])
        #expect(try index.search("phone").objectIDs == ["unpopular, in name", "popular, in description"])
    }

    /// Algolia's example: in an ordered attribute an earlier match wins; `unordered(x)` and
    /// attributes sharing a level ignore the position.
    @Test func positionInsideAnOrderedAttribute() throws {
        let records: [JSONValue] = [
            ["objectID": "late", "name": "case for the apple iphone", "tags": ["red", "apple"], "rank": 3],
            ["objectID": "early", "name": "apple iphone case", "tags": ["apple"], "rank": 1],
            ["objectID": "middle", "name": "new apple iphone", "tags": ["green", "blue", "apple"], "rank": 2],
        ]
        func ranked(_ searchable: [JSONValue], _ query: String = "apple") throws -> [String] {
            let engine = try TestEngine()
            let index = try engine.index(settings: ["searchableAttributes": .array(searchable), "customRanking": ["desc(rank)"]],
                                         records: records)
            return try index.search(query).objectIDs
        }
        #expect(try ranked(["name"]) == ["early", "middle", "late"])
        #expect(try ranked(["name"], "iphone app") == ["early", "middle", "late"])
        #expect(try ranked(["unordered(name)"]) == ["late", "middle", "early"])
        #expect(try ranked(["name,tags"]) == ["late", "middle", "early"])
        // Array elements continue the positions: "apple" is word 1, 0 and 2 of `tags`.
        #expect(try ranked(["tags", "name"], "apple") == ["early", "late", "middle"])

        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["tags", "name"]], records: records)
        let hits = try index.search("iphone", ["getRankingInfo": true]).hits
        // Level 1 (`name`) × 1000 + the position of "iphone" there.
        #expect(hits.map { $0["objectID"]?.stringValue } == ["early", "middle", "late"])
        #expect(hits.map { $0["_rankingInfo"]?["firstMatchedWord"]?.intValue } == [1001, 1002, 1004])
    }

    @Test func wholeWordBeatsPrefixOnly() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["customRanking": ["desc(popularity)"]], records: [
            ["objectID": "prefix only", "name": "black tablet case", "popularity": 100],
            ["objectID": "whole word", "name": "black tab key", "popularity": 1],
        ])
        #expect(try index.search("black tab").objectIDs == ["whole word", "prefix only"])
        #expect(try index.search("black ta").objectIDs == ["prefix only", "whole word"])
        #expect(try index.search("black tab ").objectIDs == ["whole word"])
    }

    static let popularity: [JSONValue] = [
        ["objectID": "missing", "name": "item"],
        ["objectID": "p5", "name": "item", "popularity": 5],
        ["objectID": "p10", "name": "item", "popularity": 10],
        ["objectID": "null", "name": "item", "popularity": nil],
        ["objectID": "p1", "name": "item", "popularity": 1],
    ]

    @Test(arguments: [
        ("desc(popularity)", ["p10", "p5", "p1", "missing", "null"]),
        ("asc(popularity)", ["p1", "p5", "p10", "missing", "null"]),
    ])
    func customRankingWithMissingValuesLast(criterion: String, expected: [String]) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["customRanking": [.string(criterion)]], records: EngineRankingTests.popularity)
        #expect(try index.search("").objectIDs == expected)
        #expect(try index.search("ite").objectIDs == expected)
    }

    @Test func severalCustomCriteria() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["customRanking": ["desc(stars)", "asc(price)"]], records: [
            ["objectID": "3 stars cheap", "stars": 3, "price": 5],
            ["objectID": "5 stars pricey", "stars": 5, "price": 50],
            ["objectID": "5 stars cheap", "stars": 5, "price": 10],
            ["objectID": "no stars", "price": 1],
        ])
        #expect(try index.search("").objectIDs == ["5 stars cheap", "5 stars pricey", "3 stars cheap", "no stars"])
    }
}

/// `attributeCriteriaComputedBy` (`best`, `minProximity`, `sum`) and the older
/// `attributeCriteriaComputedByMinProximity`: which attribute the attribute criterion ranks by.
@Suite struct AttributeCriteriaComputedByTests {
    /// For `red shoes`: `title` has both words together in the first attribute; `split` has them
    /// in two attributes (no close pair); `desc` has `red` in the first and the pair in the second.
    static let records: [JSONValue] = [
        ["objectID": "title", "title": "red shoes", "description": "for running", "rank": 3],
        ["objectID": "split", "title": "red", "description": "shoes", "rank": 2],
        ["objectID": "desc", "title": "red car", "description": "red shoes", "rank": 1],
    ]
    static let attributeFirst: JSONValue = ["typo", "words", "filters", "attribute", "proximity", "exact", "custom"]

    func index(_ settings: JSONObject = [:]) throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        var all: JSONObject = ["searchableAttributes": ["unordered(title)", "unordered(description)"], "customRanking": ["asc(rank)"]]
        for (key, value) in settings { all[key] = value }
        return (engine, try engine.index(settings: all, records: AttributeCriteriaComputedByTests.records))
    }

    @Test(arguments: [
        // Attribute before proximity: `best` by default; the others when asked.
        (attributeFirst, nil, nil, ["desc", "title", "split"]),
        (attributeFirst, "best", nil, ["desc", "title", "split"]),
        (attributeFirst, nil, true, ["title", "split", "desc"]),
        (attributeFirst, "minProximity", nil, ["title", "split", "desc"]),
        (attributeFirst, "sum", nil, ["title", "desc", "split"]),
        // Proximity before attribute (Algolia's order): `minProximity` by default.
        (nil, nil, nil, ["title", "desc", "split"]),
        (nil, "best", nil, ["desc", "title", "split"]),
        (nil, "sum", nil, ["title", "desc", "split"]),
        (nil, nil, false, ["title", "desc", "split"]),
    ] as [(JSONValue?, String?, Bool?, [String])])
    func theStrategyPicksTheAttribute(ranking: JSONValue?, strategy: String?, byMinProximity: Bool?, expected: [String]) throws {
        var settings: JSONObject = [:]
        if let ranking { settings["ranking"] = ranking }
        if let strategy { settings["attributeCriteriaComputedBy"] = .string(strategy) }
        if let byMinProximity { settings["attributeCriteriaComputedByMinProximity"] = .bool(byMinProximity) }
        let (_, index) = try index(settings)
        #expect(try index.search("red shoes").objectIDs == expected)
        // A search parameter too, over the setting.
        if let strategy {
            let (_, plain) = try self.index(ranking.map { ["ranking": $0] } ?? [:])
            #expect(try plain.search("red shoes", ["attributeCriteriaComputedBy": .string(strategy)]).objectIDs == expected)
        }
    }

    @Test(arguments: ["best", "minProximity", "sum"])
    func theSameOrderWithRecentWritesInTheDelta(_ strategy: String) throws {
        let (owner, index) = try index(["ranking": AttributeCriteriaComputedByTests.attributeFirst, "attributeCriteriaComputedBy": .string(strategy)])
        defer { withExtendedLifetime(owner) {} }
        let whole = try index.search("red shoes").objectIDs
        // The same records written again land in the delta, each in a segment of its own.
        for record in AttributeCriteriaComputedByTests.records { try index.saveObjects([record]) }
        #expect(index.deltaCount > 0)
        #expect(try index.search("red shoes").objectIDs == whole)
    }

    @Test func anUnknownStrategyIsAnError() throws {
        let (_, index) = try index()
        let error = expectSearchError { _ = try index.search("red shoes", ["attributeCriteriaComputedBy": "closest"]) }
        #expect(error?.message.contains("attributeCriteriaComputedBy") == true)
    }
}

// MARK: - The document order's integer keys

/// `DocumentOrder.numericOrder` (integer keys, used when every value is a number) must give
/// exactly the order of the general comparator `DocumentOrder.precedes`, over the values the
/// records' columns (`OrderValues`) hold.
@Suite struct NumericDocumentOrderTests {
    /// Records holding `keys` under `v0`, `v1`… (a missing value: no attribute), in columns.
    static func columns(_ keys: [[RankingValue?]], criteria: [CustomRankingCriterion]) -> OrderValues {
        var values = OrderValues(criteria: criteria.count)
        for documentKeys in keys {
            var record: JSONObject = ["objectID": "x"]
            for (c, key) in documentKeys.enumerated() {
                switch key {
                case nil: continue
                case .number(let number)?: record["v\(c)"] = .double(number)
                case .text(let text)?: record["v\(c)"] = .string(text)
                }
            }
            values.append(record, criteria: criteria)
        }
        return values
    }

    @Test func integerKeysOrderAsTheComparator() {
        var generator = SeededGenerator(seed: 11)
        let numbers: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 2, 1e-300, -1e-300, 1e300, -1e300,
                                 .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 21449, 21429, 49.99, 3]
        for trial in 0..<300 {
            let criteria = (0..<Int.random(in: 1...3, using: &generator)).map { c in
                CustomRankingCriterion(path: "v\(c)", ascending: generator.chance(50))
            }
            let count = Int.random(in: 0...60, using: &generator)
            let keys: [[RankingValue?]] = (0..<count).map { _ in
                criteria.map { _ in generator.chance(15) ? nil : .number(generator.pick(numbers)) }
            }
            // Rowids in any order, each once; some inputs left out (superseded).
            let rowIDs = (0..<count).map { Int64($0) + 1 }.shuffled(using: &generator)
            let inputs = (0..<count).filter { _ in !generator.chance(10) }
            let expected = inputs.sorted { a, b in
                DocumentOrder.precedes(keys[a], rowIDs[a], keys[b], rowIDs[b], criteria: criteria)
            }
            let values = NumericDocumentOrderTests.columns(keys, criteria: criteria)
            #expect((0..<count).allSatisfy { values.values(of: $0) == keys[$0] }, "trial \(trial): values as taken in")
            #expect(DocumentOrder.numericOrder(inputs, rowIDs: rowIDs, values: values, criteria: criteria) == expected, "trial \(trial)")
        }
    }

    /// With a text value, the comparator orders (`numericOrder` gives nil), and the columns
    /// give each input its values back, texts included.
    @Test func aTextValueLeavesTheOrderToTheComparator() {
        let criteria = [CustomRankingCriterion(path: "v0", ascending: true), CustomRankingCriterion(path: "v1", ascending: false)]
        let keys: [[RankingValue?]] = [[.number(1), nil], [.text("a"), .number(2)], [nil, .text("b")], [.number(3), .number(1)]]
        let values = NumericDocumentOrderTests.columns(keys, criteria: criteria)
        #expect(DocumentOrder.numericOrder([0, 1, 2, 3], rowIDs: [1, 2, 3, 4], values: values, criteria: criteria) == nil)
        #expect((0..<4).map { values.values(of: $0) } == keys)
        let ordered = values.keys(inOrder: [3, 1, 0, 2])
        #expect((0..<4).map { ordered.values(of: $0) } == [keys[3], keys[1], keys[0], keys[2]])
    }
}
