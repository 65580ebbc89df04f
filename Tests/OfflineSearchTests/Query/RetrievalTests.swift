import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

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

    /// A dot that a combining mark follows is one `Character` with it: paths are split at the
    /// dot's byte, as they are searched for it.
    @Test func aDotWithACombiningMarkIsADot() throws {
        let engine = try TestEngine()
        let index = try EngineRetrievalTests.makeIndex(engine, unretrievable: ["meta.\u{301}", "secret"])
        #expect(keys(try index.search("lamp", ["attributesToRetrieve": ["*", "-name.\u{301}"]]).hits.first)
            == ["objectID", "name", "price", "meta", "tags"])
        #expect(keys(try index.search("lamp", ["attributesToRetrieve": ["meta.\u{301}"]]).hits.first) == ["objectID"])
    }

    @Test func objectIDIsAlwaysReturned() throws {
        let engine = try TestEngine()
        let index = try EngineRetrievalTests.makeIndex(engine)
        for list: JSONValue in [["name"], [], ["*", "-objectID"], ["doesNotExist"]] {
            #expect(try index.search("lamp", ["attributesToRetrieve": list]).hits.first?["objectID"] == "lamp")
        }
        // A literal dotted key that starts with `objectID` is retrieved whole; it does not
        // take the objectID's place.
        let dotted = try engine.index("dotted", records: [["objectID": "bulb", "name": "Bulb", "objectID.note": "spare"]])
        let hit = try dotted.search("bulb", ["attributesToRetrieve": ["objectID.note"]]).hits.first
        #expect(hit?["objectID"] == "bulb")
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
