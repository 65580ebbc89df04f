import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

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
