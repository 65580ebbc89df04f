import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// One test per behaviour the engine promises, each on a small index of its own whose records
// are named for what they prove.

private func ids(_ response: SearchResponse) -> Set<String> { Set(response.objectIDs) }

/// The first hit whose objectID is `id`.
private func hit(_ response: SearchResponse, _ id: String) -> JSONValue? {
    response.hits.first { $0["objectID"]?.stringValue == id }
}


private func writeFile(_ directory: TemporaryDirectory, _ name: String, _ text: String) throws -> URL {
    let url = directory.url.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
}

// MARK: - Records, import and persistence

@Suite struct EngineRecordTests {
    @Test func objectIDIsKeptStringifiedOrGenerated() throws {
        let engine = try TestEngine()
        let index = try engine.engine.index("ids")
        let saved = try index.saveObjects([
            ["objectID": "sku-1", "name": "kept string"],
            ["objectID": 42, "name": "numeric integer"],
            ["name": "generated one"],
            ["objectID": nil, "name": "generated two"],
        ])
        #expect(saved.count == 4)
        #expect(saved[0] == "sku-1")
        #expect(saved[1] == "42")
        #expect(!saved[2].isEmpty && !saved[3].isEmpty && saved[2] != saved[3])
        #expect(index.recordCount == 4)

        let numeric = try index.search("numeric")
        #expect(numeric.hits.first?["objectID"] == .string("42"))
        #expect(try index.object("42")?["objectID"] == .string("42"))

        let generated = try index.search("generated")
        #expect(ids(generated) == [saved[2], saved[3]])
        #expect(try index.object(saved[2])?["name"] == "generated one")
    }

    @Test func invalidObjectIDsAreRejected() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "first"]])
        for bad: JSONValue in [["objectID": true], ["objectID": ["a"]], ["objectID": ""]] {
            let error = expectSearchError { try index.saveObjects([["objectID": "2", "name": "second"], bad]) }
            #expect(error?.kind == .invalidParameter)
            #expect(error?.message.contains("record 2") == true)
        }
        #expect(index.recordCount == 1)
        #expect(try index.search("second").nbHits == 0)
    }

    @Test func sameObjectIDReplacesTheRecord() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "old red"], ["objectID": "2", "name": "other"]])
        try index.saveObjects([["objectID": "1", "name": "new blue"]])
        #expect(index.recordCount == 2)
        #expect(try index.search("old").nbHits == 0)
        #expect(try index.search("red").nbHits == 0)
        #expect(try index.search("blue").objectIDs == ["1"])
        #expect(try index.object("1") == ["objectID": "1", "name": "new blue"])
        // Within one batch the last version wins.
        try index.saveObjects([["objectID": "3", "name": "draft"], ["objectID": "3", "name": "final"]])
        #expect(index.recordCount == 3)
        #expect(try index.search("draft").nbHits == 0)
        #expect(try index.search("final").objectIDs == ["3"])
    }

    @Test func importOfInvalidJSONNamesLineAndColumnAndKeepsNothing() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "a", "name": "apple"], ["objectID": "b", "name": "banana"]])
        let file = try writeFile(engine.directory, "broken.json", """
            [
              {"objectID": "c", "name": "cherry"},
              {"objectID": "d", "name": }
            ]
            """)
        let error = expectSearchError { try index.importFile(at: file) }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.status == 400)
        #expect(error?.message.contains("line 3, column 29") == true, "\(error?.message ?? "")")
        #expect(index.recordCount == 2)
        #expect(try index.search("cherry").nbHits == 0)
        #expect(try index.search("apple").objectIDs == ["a"])
        #expect(try index.search("").nbHits == 2)
    }

    @Test func importOfInvalidJSONLinesNamesTheFilesLine() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "a", "name": "apple"]])
        let file = try writeFile(engine.directory, "broken.jsonl", """
            {"objectID":"c","name":"cherry"}
            {"objectID":"d","name":"date",}
            {"objectID":"e","name":"elder"}
            """)
        let error = expectSearchError { try index.importFile(at: file) }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message.contains("line 2, column 31") == true, "\(error?.message ?? "")")
        #expect(index.recordCount == 1)
        #expect(try index.search("cherry").nbHits == 0)
    }

    @Test func importOfValidFilesArrayAndLines() throws {
        let engine = try TestEngine()
        let index = try engine.engine.index("import")
        let array = try writeFile(engine.directory, "records.json", #"[{"objectID":"1","name":"one"},{"objectID":"2","name":"two"}]"#)
        let lines = try writeFile(engine.directory, "records.jsonl", "{\"objectID\":\"3\",\"name\":\"three\"}\n\n{\"objectID\":\"1\",\"name\":\"uno\"}\n")
        #expect(try index.importFile(at: array) == 2)
        #expect(try index.importFile(at: lines) == 2)
        #expect(index.recordCount == 3)
        #expect(try index.search("uno").objectIDs == ["1"])
        #expect(try index.search("one").nbHits == 0)
        // replaceExisting keeps only the file's records.
        #expect(try index.importFile(at: array, replaceExisting: true) == 2)
        #expect(index.recordCount == 2)
        #expect(try index.search("three").nbHits == 0)
    }

    @Test func aNonObjectElementIsRejectedWithItsPosition() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "a", "name": "apple"]])
        let file = try writeFile(engine.directory, "mixed.json", #"[{"objectID": "e", "name": "elder"}, {"objectID": "f"}, 5]"#)
        let error = expectSearchError { try index.importFile(at: file) }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message.contains("record 3") == true, "\(error?.message ?? "")")
        #expect(index.recordCount == 1)
        #expect(try index.search("elder").nbHits == 0)

        let direct = expectSearchError { try index.saveObjects([["objectID": "g"], "text"]) }
        #expect(direct?.message.contains("record 2") == true)
        #expect(index.recordCount == 1)
    }

    @Test func reopenedEngineSearchesWithoutReimporting() throws {
        let directory = TemporaryDirectory()
        do {
            let engine = try SearchEngine(directory: directory.url)
            let index = try engine.index("books")
            try index.setSettings(["searchableAttributes": ["title"], "attributesForFaceting": ["genre"],
                                   "customRanking": ["desc(rank)"], "hitsPerPage": 2])
            try index.saveObjects([
                ["objectID": "low", "title": "Dune Messiah", "genre": "scifi", "rank": 1, "summary": "sandworm"],
                ["objectID": "high", "title": "Dune", "genre": "scifi", "rank": 9],
                ["objectID": "other", "title": "Emma", "genre": "classic", "rank": 5],
            ])
        }
        let reopened = try SearchEngine(directory: directory.url)
        #expect(reopened.exists("books"))
        #expect(reopened.indexNames() == ["books"])
        let index = try reopened.existingIndex("books")
        #expect(index.recordCount == 3)
        // Settings persisted, and the index derived from them.
        #expect(index.settings.searchableAttributes == ["title"])
        #expect(index.settings.customRanking == ["desc(rank)"])
        #expect(index.settings.hitsPerPage == 2)
        let dune = try index.search("dune", ["facets": ["genre"]])
        #expect(dune.objectIDs == ["high", "low"])
        #expect(dune.facet("genre")?["scifi"] == 2)
        #expect(try index.search("sandworm").nbHits == 0)
        #expect(try index.search("").hits.count == 2)

        // A write after reopening is persisted too.
        try index.saveObjects([["objectID": "new", "title": "Dune Prequel", "rank": 5]])
        let again = try SearchEngine(directory: directory.url)
        #expect(try again.existingIndex("books").search("dune").objectIDs == ["high", "new"])
    }

    @Test func missingIndexIsNotFoundAndNotCreated() throws {
        let engine = try TestEngine()
        let error = expectSearchError { _ = try engine.engine.existingIndex("nope") }
        #expect(error?.kind == .indexNotFound)
        #expect(error?.status == 404)
        #expect(error?.message == "Index nope does not exist")
        #expect(!engine.engine.exists("nope"))
    }
}

// MARK: - Tokenization

@Suite struct EngineTokenizationTests {
    static let records: [JSONValue] = [
        ["objectID": "accented", "name": "Éclair Crème"],
        ["objectID": "plain", "name": "eclair vanilla"],
        ["objectID": "decomposed", "name": "Cre\u{0301}me bru\u{0302}le\u{0301}e"],
    ]

    @Test(arguments: [
        ("eclair creme", ["accented"]),
        ("ÉCLAIR CRÈME", ["accented"]),
        ("ÉCLAIR", ["accented", "plain"]),
        ("éclair", ["accented", "plain"]),
        ("ECLAIR", ["accented", "plain"]),
        ("Crème", ["accented", "decomposed"]),
        ("cre\u{0301}me", ["accented", "decomposed"]),
        ("brulee", ["decomposed"]),
        ("BRÛLÉE", ["decomposed"]),
    ])
    func caseAndDiacriticInsensitiveBothWays(query: String, expected: [String]) throws {
        let engine = try TestEngine()
        let index = try engine.index(records: EngineTokenizationTests.records)
        #expect(ids(try index.search(query)) == Set(expected))
    }

    @Test func highlightWrapsTheOriginalCharacters() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: EngineTokenizationTests.records)
        let response = try index.search("eclair crem")
        #expect(hit(response, "accented")?["_highlightResult"]?["name"]?["value"] == "<em>Éclair</em> <em>Crèm</em>e")
    }

    /// nil: every record (the query has no words).
    @Test(arguments: [
        ("\"", nil),
        ("*", nil),
        ("\"\"", nil),
        ("(", nil),
        (")", nil),
        ("-", nil),
        ("^", nil),
        ("AND", ["salt"]),
        ("OR", []),
        ("NOT pepper", []),
        ("salt AND pepper", ["salt"]),
        ("\"salt pepper\"", ["salt"]),
        ("salt*", ["salt"]),
        ("-pepper", ["salt"]),
        ("NEAR(", ["near"]),
        ("NEAR(salt, pepper)", []),
        ("name:x", ["near"]),
        ("title:salt", []),
        ("pepper^2", []),
        ("(salt)", ["salt"]),
        ("salt 😀", ["salt"]),
        ("{}[]:;'\\", nil),
    ] as [(String, [String]?)])
    func ftsSyntaxIsPlainText(query: String, expected: [String]?) throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [
            ["objectID": "salt", "title": "salt AND pepper"],
            ["objectID": "near", "title": "near the name x"],
            ["objectID": "none", "title": "plain words"],
        ])
        let response = try index.search(query)
        #expect(ids(response) == Set(expected ?? ["salt", "near", "none"]))
    }

    @Test func emojiQueriesNeverError() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "title": "party 🎉 time"]])
        for query in ["😀", "🎉", "👨‍👩‍👧", "🇫🇷", "party🎉", "🎉time"] {
            let response = try index.search(query)
            #expect(response.nbHits <= 1)
        }
        #expect(try index.search("party🎉").objectIDs == ["1"])
    }
}

// MARK: - Query semantics

@Suite struct EngineQueryTests {
    @Test func everyWordMustMatchSomeAttribute() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [
            ["objectID": "red apple", "name": "apple", "color": "red"],
            ["objectID": "green apple", "name": "apple", "color": "green"],
            ["objectID": "red cherry", "name": "red cherry"],
        ])
        #expect(ids(try index.search("apple red")) == ["red apple"])
        #expect(ids(try index.search("red")) == ["red apple", "red cherry"])
        #expect(ids(try index.search("apple")) == ["red apple", "green apple"])
        #expect(try index.search("apple red cherry").nbHits == 0)
    }

    static let jerky: [JSONValue] = [["objectID": "jerky", "name": "Beef jerky"], ["objectID": "jam", "name": "Jam tart"]]

    @Test(arguments: [
        ("je b", QueryType.prefixLast, [String]()),
        ("je b", .prefixAll, ["jerky"]),
        ("je b", .prefixNone, []),
        ("beef je", .prefixLast, ["jerky"]),
        ("beef je", .prefixNone, []),
        ("jerky beef", .prefixNone, ["jerky"]),
        ("jerk", .prefixNone, []),   // with typo tolerance off (see below): "jerky" is one typo away
        ("be jer", .prefixAll, ["jerky"]),
        ("ja", .prefixLast, ["jam"]),
        ("j", .prefixLast, ["jerky", "jam"]),
    ])
    func queryType(query: String, type: QueryType, expected: [String]) throws {
        let engine = try TestEngine()
        let index = try engine.index(records: EngineQueryTests.jerky)
        #expect(ids(try index.search(query, ["queryType": .string(type.rawValue), "typoTolerance": false])) == Set(expected))
    }

    @Test func queryTypeFromSettings() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["queryType": "prefixAll"], records: EngineQueryTests.jerky)
        #expect(try index.search("je b").objectIDs == ["jerky"])
        #expect(try index.search("je b", ["queryType": "prefixLast"]).nbHits == 0)
    }

    @Test func trailingSpaceMakesTheLastWordWhole() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["typoTolerance": false], records: EngineQueryTests.jerky)
        #expect(try index.search("jerk").objectIDs == ["jerky"])
        #expect(try index.search("jerk ").nbHits == 0)
        #expect(try index.search("jerky ").objectIDs == ["jerky"])
        #expect(try index.search("beef jerk ").nbHits == 0)
        // With typo tolerance (the default), the whole word "jerk" is one letter from "jerky".
        #expect(try index.search("jerk ", ["typoTolerance": true]).objectIDs == ["jerky"])
    }

    @Test func emptyQueryReturnsEveryRecord() throws {
        let engine = try TestEngine()
        let records: [JSONValue] = (0..<30).map { ["objectID": .string("r\($0)"), "n": .int(Int64($0))] }
        let index = try engine.index(records: records)
        let response = try index.search("", ["hitsPerPage": 100])
        #expect(response.nbHits == 30)
        #expect(response.hits.count == 30)
        #expect(try index.search("   ").nbHits == 30)
    }
}

// MARK: - searchableAttributes

@Suite struct EngineSearchableAttributesTests {
    /// "title" and "body" both say kiwi; "notes" too, but it is never searchable. `rank` makes
    /// the custom ranking prefer the body match, so only the attribute level can put the title first.
    static let records: [JSONValue] = [
        ["objectID": "in body", "title": "plain", "body": "kiwi", "notes": "nothing", "rank": 1],
        ["objectID": "in title", "title": "kiwi", "body": "plain", "notes": "nothing", "rank": 2],
        ["objectID": "in notes", "title": "plain", "body": "plain", "notes": "kiwi", "rank": 0],
    ]

    @Test(arguments: [
        (["title", "body"], ["in title", "in body"]),
        (["body", "title"], ["in body", "in title"]),
        (["title,body"], ["in body", "in title"]),
        (["title, body"], ["in body", "in title"]),
        (["unordered(title)", "unordered(body)"], ["in title", "in body"]),
        (["unordered(title),body"], ["in body", "in title"]),
        (["title"], ["in title"]),
        (["notes", "title"], ["in notes", "in title"]),
    ])
    func levelsAreOrdered(searchable: [String], expected: [String]) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": .array(searchable.map { .string($0) }),
                                                "customRanking": ["asc(rank)"]],
                                     records: EngineSearchableAttributesTests.records)
        #expect(try index.search("kiwi").objectIDs == expected)
    }

    @Test func nestedPathsAndArrays() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["hierarchicalCategories.lvl0", "tags", "variants.color"]],
                                     records: [
                                         ["objectID": "fridge", "hierarchicalCategories": ["lvl0": "Appliances", "lvl1": "Appliances > Fridges"]],
                                         ["objectID": "watch", "tags": ["waterproof", "shock resistant"]],
                                         ["objectID": "shirt", "variants": [["color": "teal", "size": "small"], ["color": "navy"]]],
                                     ])
        #expect(try index.search("appliances").objectIDs == ["fridge"])
        #expect(try index.search("fridges").nbHits == 0)
        #expect(try index.search("shock").objectIDs == ["watch"])
        #expect(try index.search("resistant waterproof").objectIDs == ["watch"])
        #expect(try index.search("navy").objectIDs == ["shirt"])
        #expect(try index.search("teal").objectIDs == ["shirt"])
        #expect(try index.search("small").nbHits == 0)
    }

    @Test func withoutSettingEveryAttributeIsSearchable() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [
            ["objectID": "1", "deep": ["nested": ["word": "hidden"]], "list": ["alpha", ["beta"]], "year": 1999, "flag": true],
        ])
        #expect(try index.search("hidden").objectIDs == ["1"])
        #expect(try index.search("beta").objectIDs == ["1"])
        #expect(try index.search("1999").objectIDs == ["1"])
        // objectID itself is not searchable text.
        #expect(try index.search("objectid").nbHits == 0)
    }

    @Test func settingSearchableAttributesReDerivesTheIndex() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: EngineSearchableAttributesTests.records)
        #expect(ids(try index.search("nothing")) == ["in body", "in title"])
        try index.setSettings(["searchableAttributes": ["title"]])
        #expect(try index.search("nothing").nbHits == 0)
        #expect(try index.search("kiwi").objectIDs == ["in title"])
        #expect(try index.store.ftsMatch(words: ["kiwi"], lastIsPrefix: false) == ["in title"])
    }

    /// A second change of searchableAttributes re-derives the index and the FTS5 table (this
    /// once failed with "database table is locked" from a statement left active).
    @Test func changingSearchableAttributesAgainMakesNewlySearchableWordsFindable() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["title"]], records: EngineSearchableAttributesTests.records)
        #expect(try index.search("nothing").nbHits == 0)
        do {
            try index.setSettings(["searchableAttributes": ["title", "notes"]])
            #expect(ids(try index.search("nothing")) == ["in body", "in title"])
            try index.setSettings(["searchableAttributes": ["body"]])
            #expect(try index.search("nothing").nbHits == 0)
            #expect(try index.search("kiwi").objectIDs == ["in body"])
            // null resets to "every attribute".
            try index.setSettings(["searchableAttributes": nil])
            #expect(try index.search("kiwi").nbHits == 3)
            // The FTS5 table follows too.
            #expect(try index.store.ftsMatch(words: ["nothing"], lastIsPrefix: false) == ["in body", "in title"])
            #expect(try index.store.ftsMatch(words: ["kiwi"], lastIsPrefix: false) == ["in body", "in title", "in notes"])
        }
        // Whatever happened, the index is still searchable as before.
        #expect(index.recordCount == 3)
    }

    @Test func unrelatedSettingsChangesAfterSearchableAttributesWork() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["title", "body"]], records: EngineSearchableAttributesTests.records)
        try index.setSettings(["customRanking": ["desc(rank)"], "attributesForFaceting": ["title"]])
        #expect(try index.search("kiwi").objectIDs == ["in title", "in body"])
        #expect(try index.search("", ["facets": ["title"]]).facet("title")?["plain"] == 2)
    }

    @Test func invalidSearchableAttributesAreRejectedAndNothingChanges() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["title"]], records: EngineSearchableAttributesTests.records)
        let error = expectSearchError { try index.setSettings(["searchableAttributes": ["unordered(title"]]) }
        #expect(error?.kind == .invalidParameter)
        #expect(error?.message.hasPrefix("searchableAttributes") == true)
        #expect(index.settings.searchableAttributes == ["title"])
        #expect(try index.search("kiwi").objectIDs == ["in title"])
    }
}

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

// MARK: - Paging

@Suite struct EnginePagingTests {
    /// r00…r24, ranked in that order, in three groups.
    static func makeIndex(_ engine: TestEngine, settings: JSONObject = [:]) throws -> SearchIndex {
        var all: JSONObject = ["customRanking": ["asc(n)"], "attributesForFaceting": ["group"]]
        for (key, value) in settings { all[key] = value }
        let records: [JSONValue] = (0..<25).map { i in
            ["objectID": .string(String(format: "r%02d", i)), "name": "item", "n": .int(Int64(i)), "group": .string("g\(i % 3)")]
        }
        return try engine.index(settings: all, records: records)
    }

    static func names(_ range: Range<Int>) -> [String] { range.map { String(format: "r%02d", $0) } }

    @Test func pagesAndHitsPerPage() throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine)
        let first = try index.search("item", ["hitsPerPage": 10])
        #expect(first.objectIDs == EnginePagingTests.names(0..<10))
        #expect(first.nbHits == 25)
        #expect(first.nbPages == 3)
        #expect(first.page == 0)
        #expect(first.hitsPerPage == 10)
        let last = try index.search("item", ["hitsPerPage": 10, "page": 2])
        #expect(last.objectIDs == EnginePagingTests.names(20..<25))
        #expect(last.page == 2)
        let beyond = try index.search("item", ["hitsPerPage": 10, "page": 3])
        #expect(beyond.hits.isEmpty)
        #expect(beyond.nbHits == 25)
        #expect(beyond.page == 3)
        // Default 20, and a hitsPerPage setting.
        #expect(try index.search("").hits.count == 20)
        try index.setSettings(["hitsPerPage": 4])
        #expect(try index.search("", ["page": 1]).objectIDs == EnginePagingTests.names(4..<8))
    }

    @Test func hitsPerPageZeroGivesCountsAndFacetsOnly() throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine)
        let response = try index.search("item", ["hitsPerPage": 0, "facets": "group"])
        #expect(response.hits.isEmpty)
        #expect(response.nbHits == 25)
        #expect(response.hitsPerPage == 0)
        #expect(response.facet("group")?["g0"] == 9)
        #expect(response.facet("group")?["g1"] == 8)
        #expect(response.facet("group")?["g2"] == 8)
        // Also from a URL-encoded params string, as InstantSearch sends it.
        let viaParams = try index.search(SearchParameters(json: ["params": "query=item&hitsPerPage=0&page=0&facets=group"]))
        #expect(viaParams.hits.isEmpty)
        #expect(viaParams.facet("group")?["g0"] == 9)
    }

    @Test func offsetAndLength() throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine)
        let response = try index.search("item", ["offset": 3, "length": 4])
        #expect(response.objectIDs == EnginePagingTests.names(3..<7))
        #expect(response.offset == 3)
        #expect(response.length == 4)
        #expect(response.nbHits == 25)
        #expect(response.jsonValue["offset"] == 3)
        #expect(response.jsonValue["length"] == 4)
        let tail = try index.search("item", ["offset": 22, "length": 10])
        #expect(tail.objectIDs == EnginePagingTests.names(22..<25))
        let error = expectSearchError { _ = try index.search("item", ["length": 4]) }
        #expect(error?.kind == .invalidParameter)
        #expect(error?.message.contains("length") == true)
    }

    @Test(arguments: [
        (10, 1000, 3),
        (7, 1000, 4),
        (25, 1000, 1),
        (26, 1000, 1),
        (1000, 1000, 1),
        (1, 1000, 25),
        (10, 15, 2),
        (4, 15, 4),
        (1, 5, 5),
        (10, 30, 3),
    ])
    func nbPagesFormula(hitsPerPage: Int, paginationLimitedTo: Int, expected: Int) throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine, settings: ["paginationLimitedTo": .int(Int64(paginationLimitedTo))])
        let response = try index.search("item", ["hitsPerPage": .int(Int64(hitsPerPage))])
        let ceilHits = (25 + hitsPerPage - 1) / hitsPerPage
        let ceilLimit = (paginationLimitedTo + hitsPerPage - 1) / hitsPerPage
        #expect(expected == min(ceilHits, ceilLimit))
        #expect(response.nbPages == expected)
        #expect(response.nbHits == 25)
    }

    @Test func paginationLimitedToCapsTheResults() throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine, settings: ["paginationLimitedTo": 15])
        let second = try index.search("item", ["hitsPerPage": 10, "page": 1])
        #expect(second.objectIDs == EnginePagingTests.names(10..<15))
        #expect(second.nbHits == 25)
        #expect(try index.search("item", ["hitsPerPage": 10, "page": 2]).hits.isEmpty)
        #expect(try index.search("item", ["offset": 12, "length": 10]).objectIDs == EnginePagingTests.names(12..<15))
        #expect(try index.search("item", ["offset": 20, "length": 3]).hits.isEmpty)
    }
}

// MARK: - Response

@Suite struct EngineResponseTests {
    @Test func responseEchoesTheRequest() throws {
        let engine = try TestEngine()
        let index = try engine.index("my index", records: [["objectID": "1", "name": "red shoe"], ["objectID": "2", "name": "red hat"]])
        let response = try index.search("red sh", ["hitsPerPage": 5, "facets": ["brand"]])
        #expect(response.query == "red sh")
        #expect(response.params == "query=red+sh&hitsPerPage=5&facets=%5B%22brand%22%5D")
        #expect(response.index == "my index")
        #expect(response.nbHits == 1)
        #expect(response.queryID == nil)
        let json = try #require(response.jsonValue.objectValue)
        for key in ["hits", "nbHits", "page", "nbPages", "hitsPerPage", "processingTimeMS", "query", "params", "index",
                    "exhaustiveNbHits", "exhaustiveTypo", "exhaustive", "renderingContent"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(try SearchResponse(json: response.jsonValue) == response)
    }

    @Test func clickAnalyticsAddsAQueryID() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "red shoe"]])
        let first = try #require(try index.search("red", ["clickAnalytics": true]).queryID)
        let second = try #require(try index.search("red", ["clickAnalytics": true]).queryID)
        #expect(first.count == 32)
        #expect(first.allSatisfy { $0.isHexDigit })
        #expect(first != second)
    }
}

// MARK: - Retrieval

@Suite struct EngineRetrievalTests {
    static let lamp: JSONValue = [
        "objectID": "lamp", "name": "Desk lamp", "price": 10, "meta": ["color": "red", "size": "large"],
        "secret": "classified word", "tags": ["light"],
    ]

    static func makeIndex(_ engine: TestEngine, unretrievable: [JSONValue] = ["secret"]) throws -> SearchIndex {
        try engine.index(settings: ["unretrievableAttributes": .array(unretrievable)], records: [lamp])
    }

    private func keys(_ hit: JSONValue?) -> Set<String> { Set(hit?.objectValue?.keys ?? []).subtracting(["_highlightResult", "_snippetResult"]) }

    @Test func attributesToRetrieve() throws {
        let engine = try TestEngine()
        let index = try EngineRetrievalTests.makeIndex(engine)
        let everything: Set<String> = ["objectID", "name", "price", "meta", "tags"]
        #expect(keys(try index.search("lamp").hits.first) == everything)
        #expect(keys(try index.search("lamp", ["attributesToRetrieve": ["*"]]).hits.first) == everything)
        #expect(keys(try index.search("lamp", ["attributesToRetrieve": ["name"]]).hits.first) == ["objectID", "name"])
        #expect(keys(try index.search("lamp", ["attributesToRetrieve": "name,price"]).hits.first) == ["objectID", "name", "price"])
        #expect(keys(try index.search("lamp", ["attributesToRetrieve": ["*", "-price", "-tags"]]).hits.first) == ["objectID", "name", "meta"])
        let nested = try index.search("lamp", ["attributesToRetrieve": ["meta.color"]]).hits.first
        #expect(nested?["meta"] == ["color": "red"])
        #expect(keys(nested) == ["objectID", "meta"])
        let excludedNested = try index.search("lamp", ["attributesToRetrieve": ["*", "-meta.size"]]).hits.first
        #expect(excludedNested?["meta"] == ["color": "red"])
    }

    @Test func objectIDIsAlwaysReturned() throws {
        let engine = try TestEngine()
        let index = try EngineRetrievalTests.makeIndex(engine)
        for list: JSONValue in [["name"], [], ["*", "-objectID"], ["doesNotExist"]] {
            #expect(try index.search("lamp", ["attributesToRetrieve": list]).hits.first?["objectID"] == "lamp")
        }
    }

    @Test func unretrievableAttributesAreNeverReturned() throws {
        let engine = try TestEngine()
        let index = try EngineRetrievalTests.makeIndex(engine)
        // Still searchable…
        let response = try index.search("classified", ["attributesToRetrieve": ["*", "secret"], "attributesToHighlight": ["*", "secret"],
                                                        "attributesToSnippet": ["secret", "name"]])
        let found = try #require(response.hits.first)
        // …but never shown, neither as a value nor in a highlight or snippet.
        #expect(found["secret"] == nil)
        #expect(found["_highlightResult"]?["secret"] == nil)
        #expect(found["_highlightResult"]?["name"] != nil)
        #expect(found["_snippetResult"]?["secret"] == nil)
        #expect(!JSONValue.array(response.hits).jsonString.contains("classified"))
        #expect(try index.search("classified", ["attributesToRetrieve": ["secret"]]).hits.first?["secret"] == nil)
    }

    @Test func unretrievableNestedAttributeIsNotHighlighted() throws {
        let engine = try TestEngine()
        let index = try EngineRetrievalTests.makeIndex(engine, unretrievable: ["secret", "meta.size"])
        let found = try #require(try index.search("lamp").hits.first)
        #expect(found["meta"] == ["color": "red"])
        #expect(found["_highlightResult"]?["meta"]?["color"] != nil)
        do {
            #expect(found["_highlightResult"]?["meta"]?["size"] == nil)
            #expect(!found.jsonString.contains("large"))
        }
    }
}

// MARK: - Highlighting and snippets

@Suite struct EngineHighlightTests {
    static let clooney: JSONValue = [
        "objectID": "clooney", "name": "George Clooney", "bio": "Actor and director",
        "roles": ["Ocean's Eleven", "Batman"], "info": ["born": "Lexington", "year": 1961], "height": 1.8,
        "note": "Tom & Jerry <b>fan</b>",
    ]

    static func highlight(_ query: String, _ parameters: JSONObject = [:], settings: JSONObject = [:]) throws -> JSONValue? {
        let engine = try TestEngine()
        let index = try engine.index(settings: settings, records: [clooney])
        return try index.search(query, parameters).hits.first?["_highlightResult"]
    }

    @Test func prefixHighlightsOnlyTheTypedPart() throws {
        let name = try EngineHighlightTests.highlight("clo")?["name"]
        #expect(name?["value"] == "George <em>Clo</em>oney")
        #expect(name?["matchLevel"] == "full")
        #expect(name?["matchedWords"] == ["clo"])
        #expect(name?["fullyHighlighted"] == false)
    }

    @Test func matchLevelsAndFullyHighlighted() throws {
        let full = try EngineHighlightTests.highlight("george clooney")
        #expect(full?["name"]?["value"] == "<em>George</em> <em>Clooney</em>")
        #expect(full?["name"]?["matchLevel"] == "full")
        #expect(full?["name"]?["matchedWords"] == ["george", "clooney"])
        #expect(full?["name"]?["fullyHighlighted"] == true)
        #expect(full?["bio"]?["matchLevel"] == "none")
        #expect(full?["bio"]?["matchedWords"] == [])
        #expect(full?["bio"]?["value"] == "Actor and director")
        #expect(full?["bio"]?["fullyHighlighted"] == false)

        let partial = try EngineHighlightTests.highlight("george actor")
        #expect(partial?["name"]?["matchLevel"] == "partial")
        #expect(partial?["name"]?["matchedWords"] == ["george"])
        #expect(partial?["name"]?["value"] == "<em>George</em> Clooney")
        #expect(partial?["bio"]?["matchLevel"] == "partial")
        #expect(partial?["bio"]?["matchedWords"] == ["actor"])
        #expect(partial?["name"]?["fullyHighlighted"] == false)
    }

    @Test func arraysAndNestedObjectsAreMirroredAndNumbersStringified() throws {
        let result = try #require(try EngineHighlightTests.highlight("batman"))
        let roles = try #require(result["roles"]?.arrayValue)
        #expect(roles.count == 2)
        #expect(roles[0]["value"] == "Ocean's Eleven")
        #expect(roles[0]["matchLevel"] == "none")
        #expect(roles[1]["value"] == "<em>Batman</em>")
        #expect(roles[1]["matchLevel"] == "full")
        #expect(roles[1]["fullyHighlighted"] == true)
        #expect(result["info"]?["born"]?["value"] == "Lexington")
        #expect(result["info"]?["year"]?["value"] == "1961")
        #expect(result["height"]?["value"] == "1.8")

        let year = try #require(try EngineHighlightTests.highlight("1961"))
        #expect(year["info"]?["year"]?["value"] == "<em>1961</em>")
        #expect(year["info"]?["year"]?["matchLevel"] == "full")
        #expect(year["info"]?["born"]?["matchLevel"] == "none")
    }

    @Test func customTagsFromParametersAndSettings() throws {
        let parameters = try EngineHighlightTests.highlight("geo", ["highlightPreTag": "<mark class=\"hit\">", "highlightPostTag": "</mark>"])
        #expect(parameters?["name"]?["value"] == "<mark class=\"hit\">Geo</mark>rge Clooney")
        let settings = try EngineHighlightTests.highlight("clooney", settings: ["highlightPreTag": "[", "highlightPostTag": "]"])
        #expect(settings?["name"]?["value"] == "George [Clooney]")
        let both = try EngineHighlightTests.highlight("clooney", ["highlightPreTag": "{"], settings: ["highlightPreTag": "[", "highlightPostTag": "]"])
        #expect(both?["name"]?["value"] == "George {Clooney]")
    }

    @Test func valuesAreNotHTMLEscaped() throws {
        let note = try EngineHighlightTests.highlight("tom fan")?["note"]
        #expect(note?["value"] == "<em>Tom</em> & Jerry <b><em>fan</em></b>")
    }

    @Test func attributesToHighlightChoosesAttributes() throws {
        let onlyName = try #require(try EngineHighlightTests.highlight("george", ["attributesToHighlight": ["name"]])?.objectValue)
        #expect(onlyName.keys == ["name"])
        #expect(try EngineHighlightTests.highlight("george", ["attributesToHighlight": []]) == nil)
        let nested = try #require(try EngineHighlightTests.highlight("lexington", ["attributesToHighlight": ["info.born"]])?.objectValue)
        #expect(JSONValue.object(nested) == ["info": ["born": ["value": "<em>Lexington</em>", "matchLevel": "full",
                                                               "fullyHighlighted": true, "matchedWords": ["lexington"]]]])
        // Default: the searchable attributes.
        let searchable = try #require(try EngineHighlightTests.highlight("george", settings: ["searchableAttributes": ["name", "bio"]])?.objectValue)
        #expect(Set(searchable.keys) == ["name", "bio"])
    }

    @Test func snippetWithWordCountAndEllipsis() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [[
            "objectID": "1",
            "description": "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen",
            "short": "tiny ten",
            "other": "alpha beta gamma delta epsilon zeta eta theta",
        ]])
        let response = try index.search("ten", ["attributesToSnippet": ["description:5", "short", "other:3"], "snippetEllipsisText": "[…]"])
        let snippets = try #require(response.hits.first?["_snippetResult"])
        let description = try #require(snippets["description"]?["value"]?.stringValue)
        #expect(description.contains("<em>ten</em>"))
        #expect(description.hasPrefix("[…] "))
        #expect(description.hasSuffix(" […]"))
        let words = description.replacingOccurrences(of: "<em>", with: "").replacingOccurrences(of: "</em>", with: "")
            .split(separator: " ").filter { $0 != "[…]" }
        #expect(words.count == 5)
        #expect(snippets["description"]?["matchLevel"] == "full")
        #expect(snippets["short"] == ["value": "tiny <em>ten</em>", "matchLevel": "full"])
        #expect(snippets["other"]?["matchLevel"] == "none")
        #expect(snippets["other"]?["value"] == "alpha beta gamma […]")

        let defaultEllipsis = try index.search("ten", ["attributesToSnippet": ["description:3"]])
        let value = try #require(defaultEllipsis.hits.first?["_snippetResult"]?["description"]?["value"]?.stringValue)
        #expect(value.hasPrefix("… "))
        #expect(value.hasSuffix(" …"))
        #expect(value.contains("<em>ten</em>"))
    }
}

// MARK: - Facets

@Suite struct EngineFacetTests {
    static let records: [JSONValue] = [
        ["objectID": "1", "name": "gadget", "brand": "Apple", "color": ["red", "red", "blue"], "price": 10, "inStock": true,
         "rating": 4.5, "type": "phone", "size": "S"],
        ["objectID": "2", "name": "gadget", "brand": "Samsung", "color": ["blue"], "price": 20, "inStock": false,
         "rating": 4, "type": "phone", "size": "M"],
        ["objectID": "3", "name": "gadget", "brand": "Apple", "color": ["green"], "price": 30, "inStock": true,
         "rating": 4, "type": "tablet", "size": "S"],
        ["objectID": "4", "name": "gadget", "brand": "Banana", "color": "red", "price": 40, "inStock": true,
         "rating": 3, "type": "phone"],
    ]
    static let settings: JSONObject = ["attributesForFaceting": ["brand", "color", "price", "searchable(inStock)", "afterDistinct(rating)",
                                                                 "filterOnly(type)"]]

    static func makeIndex(_ engine: TestEngine) throws -> SearchIndex {
        try engine.index(settings: settings, records: records)
    }

    static func pairs(_ counts: FacetCounts?) -> [String] { counts?.values.map { "\($0.value)=\($0.count)" } ?? [] }

    @Test func listStarAndBareString() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let list = try index.search("gadget", ["facets": ["brand"]])
        #expect(list.facets?.map(\.attribute) == ["brand"])
        #expect(EngineFacetTests.pairs(list.facet("brand")) == ["Apple=2", "Banana=1", "Samsung=1"])
        let bare = try index.search("gadget", ["facets": "brand"])
        #expect(bare.facets == list.facets)
        let star = try index.search("gadget", ["facets": "*"])
        #expect(Set(star.facets?.map(\.attribute) ?? []) == ["brand", "color", "price", "inStock", "rating"])
        #expect(star.exhaustiveFacetsCount == true)
    }

    @Test func onlyDeclaredAndCountableFacetsAreCounted() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let response = try index.search("gadget", ["facets": ["size", "type", "brand"]])
        #expect(response.facet("size") == nil)
        #expect(response.facet("type") == nil)
        #expect(response.facet("brand") != nil)
        // filterOnly still filters.
        #expect(try index.search("", ["filters": "type:tablet"]).objectIDs == ["3"])
    }

    @Test func countsCoverEveryMatchNotOnlyThePage() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let response = try index.search("gadget", ["facets": ["brand", "color"], "hitsPerPage": 1, "page": 1])
        #expect(response.hits.count == 1)
        #expect(EngineFacetTests.pairs(response.facet("brand")) == ["Apple=2", "Banana=1", "Samsung=1"])
        // Count descending, then value; an array's repeated element counts once per record.
        #expect(EngineFacetTests.pairs(response.facet("color")) == ["blue=2", "red=2", "green=1"])
        // Counts follow the query and filters.
        let filtered = try index.search("gadget", ["facets": ["brand"], "filters": "color:red"])
        #expect(EngineFacetTests.pairs(filtered.facet("brand")) == ["Apple=1", "Banana=1"])
    }

    @Test func maxValuesPerFacetAndAlphaSort() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let capped = try index.search("", ["facets": ["color", "brand"], "maxValuesPerFacet": 2])
        #expect(EngineFacetTests.pairs(capped.facet("color")) == ["blue=2", "red=2"])
        #expect(EngineFacetTests.pairs(capped.facet("brand")) == ["Apple=2", "Banana=1"])
        let alpha = try index.search("", ["facets": ["color", "brand"], "sortFacetValuesBy": "alpha"])
        #expect(EngineFacetTests.pairs(alpha.facet("color")) == ["blue=2", "green=1", "red=2"])
        #expect(EngineFacetTests.pairs(alpha.facet("brand")) == ["Apple=2", "Banana=1", "Samsung=1"])
        try index.setSettings(["maxValuesPerFacet": 1])
        #expect(EngineFacetTests.pairs(try index.search("", ["facets": ["brand"]]).facet("brand")) == ["Apple=2"])
    }

    @Test func facetsStats() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let all = try index.search("", ["facets": ["price", "rating", "brand", "inStock"]])
        #expect(all.facetsStats?["price"] == FacetStats(min: 10, max: 40, avg: 25, sum: 100))
        #expect(all.facetsStats?["rating"] == FacetStats(min: 3, max: 4.5, avg: 3.875, sum: 15.5))
        #expect(all.facetsStats?["brand"] == nil)
        #expect(all.facetsStats?["inStock"] == nil)
        let filtered = try index.search("", ["facets": ["price"], "filters": "price > 15"])
        #expect(filtered.facetsStats?["price"] == FacetStats(min: 20, max: 40, avg: 30, sum: 90))
        let json = filtered.jsonValue["facets_stats"]?["price"]
        #expect(json == ["min": 20, "max": 40, "avg": 30, "sum": 90])
    }

    @Test func numbersAndBooleansAreCountedByTheirText() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let response = try index.search("", ["facets": ["inStock", "rating", "price"]])
        #expect(EngineFacetTests.pairs(response.facet("inStock")) == ["true=3", "false=1"])
        #expect(EngineFacetTests.pairs(response.facet("rating")) == ["4=2", "3=1", "4.5=1"])
        #expect(EngineFacetTests.pairs(response.facet("price")) == ["10=1", "20=1", "30=1", "40=1"])
        #expect(response.jsonValue["facets"]?["inStock"] == ["true": 3, "false": 1])
    }
}

// MARK: - Filters

@Suite struct EngineFilterTests {
    @Test(arguments: [
        ("brand:apple", ["1", "3"]),
        ("brand:APPLE", ["1", "3"]),
        ("brand:\"Apple\"", ["1", "3"]),
        ("brand:'samsung'", ["2"]),
        ("Brand:Apple", []),
        ("color:red", ["1", "4"]),
        ("inStock:true", ["1", "3", "4"]),
        ("inStock:false", ["2"]),
        ("price < 25", ["1", "2"]),
        ("price<=20", ["1", "2"]),
        ("price >= 30", ["3", "4"]),
        ("price = 20", ["2"]),
        ("price != 20", ["1", "3", "4"]),
        ("price > 40", []),
        ("price:10 TO 30", ["1", "2", "3"]),
        ("rating = 4.5", ["1"]),
        ("brand:Apple AND price > 15", ["3"]),
        ("brand:Samsung OR brand:Banana", ["2", "4"]),
        ("(brand:Samsung OR brand:Banana) AND price < 30", ["2"]),
        ("price < 15 OR price > 35", ["1", "4"]),
        ("NOT brand:Apple", ["2", "4"]),
        ("brand:Apple AND NOT color:green", ["1"]),
        ("type:tablet", ["3"]),
        ("size:S", []),
    ])
    func filters(filter: String, expected: [String]) throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        #expect(ids(try index.search("gadget", ["filters": .string(filter)])) == Set(expected))
    }

    /// Facet values compare case- and diacritic-insensitively (ALGOLIA.md §2), but they are
    /// still whole values: punctuation and symbols are part of them.
    @Test func facetValuesDifferingOnlyByPunctuationAreDifferentValues() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["attributesForFaceting": ["brand", "categories"]], records: [
            ["objectID": "ampersand", "brand": "AT&T", "categories": ["Cases & Clips"]],
            ["objectID": "space", "brand": "AT T", "categories": ["Cases Clips"]],
            ["objectID": "trademark", "brand": "Insignia™", "categories": ["Cases, Clips"]],
            ["objectID": "plain", "brand": "Insignia", "categories": ["cases & clips"]],
            ["objectID": "accent", "brand": "Café", "categories": ["x"]],
        ])
        // What is certain: case and accents do not matter.
        #expect(ids(try index.search("", ["filters": "brand:CAFE"])) == ["accent"])
        #expect(ids(try index.search("", ["filters": "categories:\"CASES & CLIPS\""])).isSuperset(of: ["ampersand", "plain"]))
        do {
            let ampersand = try index.search("", ["filters": "brand:\"AT&T\""])
            #expect(ids(ampersand) == ["ampersand"])
            let space = try index.search("", ["filters": "brand:\"AT T\""])
            #expect(ids(space) == ["space"])
            let plain = try index.search("", ["filters": "brand:Insignia"])
            #expect(ids(plain) == ["plain"])
            let trademark = try index.search("", ["facetFilters": ["brand:Insignia™"]])
            #expect(ids(trademark) == ["trademark"])
            let category = try index.search("", ["filters": "categories:\"Cases & Clips\""])
            #expect(ids(category) == ["ampersand", "plain"])
        }
    }

    @Test func facetFiltersNumericFiltersAndTheirCombination() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        func search(_ parameters: JSONObject) throws -> Set<String> { ids(try index.search("", parameters)) }
        #expect(try search(["facetFilters": [["brand:Samsung", "brand:Banana"], "inStock:true"]]) == ["4"])
        #expect(try search(["facetFilters": ["brand:Apple"]]) == ["1", "3"])
        #expect(try search(["facetFilters": "brand:Apple"]) == ["1", "3"])
        #expect(try search(["facetFilters": ["brand:-Apple"]]) == ["2", "4"])
        #expect(try search(["facetFilters": [["color:green", "color:blue"]]]) == ["1", "2", "3"])
        #expect(try search(["numericFilters": ["price>=20", "price<=30"]]) == ["2", "3"])
        #expect(try search(["numericFilters": [["price<15", "price>35"]]]) == ["1", "4"])
        #expect(try search(["numericFilters": ["price:20 TO 30"]]) == ["2", "3"])
        // filters AND facetFilters AND numericFilters.
        #expect(try search(["filters": "inStock:true", "facetFilters": ["brand:Apple"], "numericFilters": ["price>15"]]) == ["3"])
        #expect(try search(["filters": "brand:Samsung", "facetFilters": ["brand:Apple"]]) == [])
    }

    @Test(arguments: [
        ("filters", JSONValue.string("brand:Apple AND"), "col 16"),
        ("filters", .string("brand:Apple OR price < 5"), "col "),
        ("filters", .string("(brand:Apple"), "col "),
        ("filters", .string("brand:Apple and brand:Samsung"), "col 13"),
        ("numericFilters", .array(["price>>5"]), "price>>5"),
        ("facetFilters", .string("brandApple"), "brandApple"),
    ])
    func badFiltersAreInvalidFilterErrorsWithPosition(parameter: String, value: JSONValue, fragment: String) throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let error = expectSearchError { _ = try index.search("", [parameter: value]) }
        #expect(error?.kind == .invalidFilter)
        #expect(error?.status == 400)
        #expect(error?.message.hasPrefix(parameter + ":") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        ("hitsPerPage", JSONValue.string("abc")),
        ("hitsPerPage", .int(1001)),
        ("page", .int(-1)),
        ("attributesToSnippet", .array(["description:many"])),
        ("queryType", .string("prefixMiddle")),
        ("madeUpParameter", .int(1)),
    ])
    func badParametersAreInvalidParameterErrorsNamingThem(name: String, value: JSONValue) throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let error = expectSearchError { _ = try index.search("gadget", [name: value]) }
        #expect(error?.kind == .invalidParameter)
        #expect(error?.status == 400)
        #expect(error?.message.contains(name) == true, "\(error?.message ?? "")")
    }
}

// MARK: - Concurrency

@Suite struct EngineConcurrencyTests {
    static let baseCount = 40
    static let batchCount = 6
    static let batchSize = 10

    static func batch(_ k: Int) -> [JSONValue] {
        (0..<batchSize).map { i in ["objectID": .string("b\(k)-\(i)"), "name": "widget", "batch": .string("\(k)")] }
    }

    /// The objectIDs after `k` batches.
    static func expectedIDs(afterBatches k: Int) -> Set<String> {
        var result = Set((0..<baseCount).map { "base-\($0)" })
        for b in 0..<k { for i in 0..<batchSize { result.insert("b\(b + 1)-\(i)") } }
        return result
    }

    @Test func searchesDuringImportsSeeWholeBatchesOnly() async throws {
        let engine = try TestEngine()
        let base: [JSONValue] = (0..<EngineConcurrencyTests.baseCount).map { ["objectID": .string("base-\($0)"), "name": "widget", "batch": "0"] }
        let index = try engine.index(settings: ["attributesForFaceting": ["batch"]], records: base)
        let valid = Set((0...EngineConcurrencyTests.batchCount).map { EngineConcurrencyTests.baseCount + $0 * EngineConcurrencyTests.batchSize })

        let observed = try await withThrowingTaskGroup(of: [Int].self) { group in
            group.addTask {
                for k in 1...EngineConcurrencyTests.batchCount {
                    try index.saveObjects(EngineConcurrencyTests.batch(k))
                    await Task.yield()
                }
                return []
            }
            for _ in 0..<8 {
                group.addTask {
                    var seen: [Int] = []
                    for _ in 0..<20 {
                        let response = try index.search("widget", ["hitsPerPage": 1000, "facets": ["batch"]])
                        seen.append(response.nbHits)
                        #expect(valid.contains(response.nbHits), "partial state: nbHits \(response.nbHits)")
                        #expect(response.hits.count == response.nbHits)
                        let k = (response.nbHits - EngineConcurrencyTests.baseCount) / EngineConcurrencyTests.batchSize
                        #expect(ids(response) == EngineConcurrencyTests.expectedIDs(afterBatches: k))
                        let counts = response.facet("batch")
                        #expect(counts?["0"] == EngineConcurrencyTests.baseCount)
                        #expect(counts?.values.count == k + 1)
                        #expect(counts?.values.map(\.count).reduce(0, +) == response.nbHits)
                        await Task.yield()
                    }
                    return seen
                }
            }
            var all: [Int] = []
            for try await seen in group { all += seen }
            return all
        }
        #expect(observed.count == 8 * 20)
        #expect(index.recordCount == EngineConcurrencyTests.baseCount + EngineConcurrencyTests.batchCount * EngineConcurrencyTests.batchSize)
        #expect(try index.search("widget").nbHits == index.recordCount)
    }
}

// MARK: - SearchService

@Suite struct EngineServiceTests {
    static func makeEngine() throws -> TestEngine {
        let engine = try TestEngine()
        _ = try engine.index("products", settings: ["attributesForFaceting": ["searchable(brand)", "color"]], records: [
            ["objectID": "p1", "name": "phone", "brand": "Apple", "color": "black"],
            ["objectID": "p2", "name": "phone case", "brand": "Apple", "color": "red"],
            ["objectID": "p3", "name": "phone", "brand": "Samsung", "color": "black"],
            ["objectID": "p4", "name": "laptop", "brand": "Applied Tech", "color": "grey"],
        ])
        _ = try engine.index("articles", records: [
            ["objectID": "a1", "title": "phone review"],
            ["objectID": "a2", "title": "laptop review"],
        ])
        return engine
    }

    @Test func multiSearchKeepsOrder() async throws {
        let engine = try EngineServiceTests.makeEngine()
        let service: any SearchService = engine.engine
        var facetParameters = SearchParameters()
        facetParameters.facetQuery = "app"
        let results = try await service.multiSearch([
            .hits(indexName: "articles", parameters: SearchParameters(query: "review")),
            .hits(indexName: "products", parameters: SearchParameters(query: "phone")),
            .facetValues(indexName: "products", facet: "brand", parameters: facetParameters),
            .hits(indexName: "articles", parameters: SearchParameters(query: "laptop")),
        ], strategy: .none)
        #expect(results.count == 4)
        #expect(results[0].searchResponse?.index == "articles")
        #expect(Set(results[0].searchResponse?.objectIDs ?? []) == ["a1", "a2"])
        #expect(results[1].searchResponse?.index == "products")
        #expect(Set(results[1].searchResponse?.objectIDs ?? []) == ["p1", "p2", "p3"])
        guard case .facetValues(let facetValues) = results[2] else {
            Issue.record("expected facet values third")
            return
        }
        #expect(facetValues.facetHits.map(\.value) == ["Apple", "Applied Tech"])
        #expect(facetValues.facetHits.map(\.count) == [2, 1])
        #expect(facetValues.facetHits.first?.highlighted == "<em>App</em>le")
        #expect(results[3].searchResponse?.objectIDs == ["a2"])

        let single = try await service.search(indexName: "products", parameters: SearchParameters(query: "laptop"))
        #expect(single.objectIDs == ["p4"])
    }

    @Test func multiSearchFromJSONRequests() async throws {
        let engine = try EngineServiceTests.makeEngine()
        let requests: [JSONValue] = [
            ["indexName": "products", "params": "query=phone&hitsPerPage=1&facets=%5B%22color%22%5D"],
            ["indexName": "products", "type": "facet", "facet": "brand", "facetQuery": "sam"],
        ]
        var queries: [MultiSearchQuery] = []
        for request in requests { queries.append(try MultiSearchQuery(json: request)) }
        let results = try await engine.engine.multiSearch(queries, strategy: .none)
        #expect(results[0].searchResponse?.nbHits == 3)
        #expect(results[0].searchResponse?.hits.count == 1)
        #expect(results[0].searchResponse?.facet("color")?["black"] == 2)
        #expect(results[1].jsonValue["facetHits"] == [["value": "Samsung", "highlighted": "<em>Sam</em>sung", "count": 1]])
    }

    @Test func aMissingIndexFailsTheWholeCallWith404() async throws {
        let engine = try EngineServiceTests.makeEngine()
        let service: any SearchService = engine.engine
        do {
            _ = try await service.multiSearch([
                .hits(indexName: "products", parameters: SearchParameters(query: "phone")),
                .hits(indexName: "missing", parameters: SearchParameters(query: "phone")),
            ], strategy: .none)
            Issue.record("expected a 404")
        } catch {
            #expect(error.kind == .indexNotFound)
            #expect(error.status == 404)
            #expect(error.message == "Index missing does not exist")
            #expect(error.jsonValue == ["message": "Index missing does not exist", "status": 404])
        }
        #expect(!engine.engine.exists("missing"))
        do {
            _ = try await service.searchForFacetValues(indexName: "missing", facet: "brand", parameters: SearchParameters())
            Issue.record("expected a 404")
        } catch {
            #expect(error.status == 404)
        }
    }

    @Test(arguments: ["color", "undeclared"])
    func facetValueSearchOnANonSearchableFacetUsesAlgoliasMessage(facet: String) async throws {
        let engine = try EngineServiceTests.makeEngine()
        let service: any SearchService = engine.engine
        do {
            _ = try await service.searchForFacetValues(indexName: "products", facet: facet, parameters: SearchParameters())
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "Cannot search in `\(facet)` attribute, you need to add `searchable(\(facet))` to attributesForFaceting.")
            #expect(error.status == 400)
        }
    }

    @Test func facetValueSearchFollowsQueryFiltersAndTags() async throws {
        let engine = try EngineServiceTests.makeEngine()
        var parameters = try SearchParameters(json: ["query": "phone", "filters": "color:black", "highlightPreTag": "<b>", "highlightPostTag": "</b>"])
        parameters.facetQuery = "a"
        let response = try await engine.engine.searchForFacetValues(indexName: "products", facet: "brand", parameters: parameters)
        #expect(response.facetHits == [FacetHit(value: "Apple", highlighted: "<b>A</b>pple", count: 1)])
    }
}

// MARK: - FTS5 agreement

@Suite struct EngineFTSAgreementTests {
    static let records: [JSONValue] = [
        ["objectID": "1", "name": "Apple iPhone 15", "tags": ["red", "phone"], "meta": ["origin": "Cupertino"]],
        ["objectID": "2", "name": "Apple Watch", "tags": ["wearable"], "notes": "apple red phone"],
        ["objectID": "3", "name": "Éclair au café", "tags": ["pastry"], "meta": ["origin": "Paris"]],
        ["objectID": "4", "name": "Red Phone Case", "tags": ["accessory", "red"]],
        ["objectID": "5", "name": "Crème brûlée", "tags": ["pastry", "dessert"], "meta": ["origin": "Lyon 2024"]],
        ["objectID": "6", "name": "Straße map", "tags": ["paper"]],
        ["objectID": "7", "name": "AT&T GoPhone", "tags": ["prepaid"]],
    ]
    static let queries = ["ap", "apple", "apple re", "red ph", "éclair", "cafe", "creme b", "2024", "paris", "phone", "go", "at t",
                          "strasse", "xyz", "red phone case", "p", "e"]

    @Test func ftsTableAgreesWithTheEngine() throws {
        let engine = try TestEngine()
        // FTS5 matches exactly or by prefix: compare with typo tolerance off.
        let index = try engine.index(settings: ["searchableAttributes": ["name", "tags", "meta.origin"], "typoTolerance": false],
                                     records: EngineFTSAgreementTests.records)
        func check(_ label: String) throws {
            for query in EngineFTSAgreementTests.queries {
                let engineHits = ids(try index.search(query, ["hitsPerPage": 1000]))
                let fts = try index.store.ftsMatch(words: Tokenizer.words(query, separators: .none), lastIsPrefix: true)
                #expect(fts == engineHits, "\(label): \(query)")
            }
        }
        try check("initial")
        try index.saveObjects([["objectID": "1", "name": "Pear phone"], ["objectID": "8", "name": "apple crumble", "tags": ["pastry"]]])
        try index.deleteObjects(["4"])
        try check("after writes")
        // Whole-word matching too.
        for query in ["apple", "red", "pastry"] {
            let engineHits = ids(try index.search(query + " ", ["hitsPerPage": 1000]))
            #expect(try index.store.ftsMatch(words: Tokenizer.words(query, separators: .none), lastIsPrefix: false) == engineHits)
        }
    }

    @Test func ftsTableAgreesWhenSearchableAttributesAreFirstSet() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["typoTolerance": false], records: EngineFTSAgreementTests.records)
        try EngineFTSAgreementTests.check(index, "every attribute")
        try index.setSettings(["searchableAttributes": ["name", "notes"]])
        try EngineFTSAgreementTests.check(index, "name and notes")
    }

    static func check(_ index: SearchIndex, _ label: String) throws {
        for query in queries {
            let engineHits = ids(try index.search(query, ["hitsPerPage": 1000]))
            let fts = try index.store.ftsMatch(words: Tokenizer.words(query, separators: .none), lastIsPrefix: true)
            #expect(fts == engineHits, "\(label): \(query)")
        }
    }
}
