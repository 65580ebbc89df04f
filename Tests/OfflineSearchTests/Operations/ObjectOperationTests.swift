import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Get objects, partial updates with every `_operation`, browse, copy/move, synonyms and
/// forwardToReplicas: the operations the REST server exposes, on the Swift API.
@Suite struct ObjectOperationTests {
    static let records: [JSONValue] = [
        ["objectID": "1", "name": "red phone", "brand": "Acme", "price": 10, "tags": ["a"], "secret": "x"],
        ["objectID": "2", "name": "blue phone", "brand": "Zeta", "price": 20],
        ["objectID": "3", "name": "green case", "brand": "Acme", "price": 5],
    ]

    func makeIndex(_ engine: TestEngine) throws -> SearchIndex {
        try engine.index("products", settings: ["attributesForFaceting": ["brand"], "unretrievableAttributes": ["secret"]],
                         records: ObjectOperationTests.records)
    }

    @Test func getObjectsRetrievesTheAskedAttributesAndNilForMissing() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        #expect(try index.object("1", attributesToRetrieve: ["name"]) == ["name": "red phone", "objectID": "1"])
        #expect(try index.object("1", attributesToRetrieve: nil)?["secret"] == nil)
        #expect(try index.object("1", attributesToRetrieve: nil, includeUnretrievable: true)?["secret"] == "x")
        let found = try index.objects(["3", "missing", "2"], attributesToRetrieve: ["*", "-price"])
        #expect(found.map { $0?["objectID"]?.stringValue } == ["3", nil, "2"])
        #expect(found[0]?["price"] == nil && found[0]?["brand"] == "Acme")
    }

    @Test(arguments: [
        ("Increment", JSONValue.int(5), JSONValue.int(15)),
        ("Decrement", .int(3), .int(7)),
        ("Increment", .double(0.5), .double(10.5)),
    ])
    func incrementAndDecrement(operation: String, value: JSONValue, expected: JSONValue) throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        try index.partialUpdateObjects([["objectID": "1", "price": ["_operation": .string(operation), "value": value]]])
        #expect(try index.object("1")?["price"] == expected)
    }

    @Test func arrayOperations() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        try index.partialUpdateObjects([
            ["objectID": "1", "tags": ["_operation": "Add", "value": "b"]],
            ["objectID": "1", "tags": ["_operation": "AddUnique", "value": "a"]],
            ["objectID": "1", "tags": ["_operation": "AddUnique", "value": "c"]],
            ["objectID": "1", "tags": ["_operation": "Remove", "value": "b"]],
            ["objectID": "2", "tags": ["_operation": "Add", "value": "new"]],
        ])
        #expect(try index.object("1")?["tags"] == ["a", "c"])
        #expect(try index.object("2")?["tags"] == ["new"])
        // The other attributes stay.
        #expect(try index.object("1")?["name"] == "red phone")
    }

    @Test func incrementFromAndIncrementSetApplyOnlyWhenTheirConditionHolds() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        try index.partialUpdateObjects([["objectID": "1", "version": ["_operation": "IncrementFrom", "value": 0], "name": "v1"]])
        #expect(try index.object("1")?["version"] == 1)
        // A stale version: the whole update of the record is ignored.
        try index.partialUpdateObjects([["objectID": "1", "version": ["_operation": "IncrementFrom", "value": 0], "name": "stale"]])
        #expect(try index.object("1")?["name"] == "v1")
        try index.partialUpdateObjects([["objectID": "2", "stamp": ["_operation": "IncrementSet", "value": 7]]])
        try index.partialUpdateObjects([["objectID": "2", "stamp": ["_operation": "IncrementSet", "value": 3], "name": "older"]])
        #expect(try index.object("2")?["stamp"] == 7)
        #expect(try index.object("2")?["name"] == "blue phone")
    }

    @Test func createIfNotExists() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        try index.partialUpdateObjects([["objectID": "9", "name": "new"]], createIfNotExists: false)
        #expect(try index.object("9") == nil)
        try index.partialUpdateObjects([["objectID": "9", "name": "new", "count": ["_operation": "Increment", "value": 2]]])
        #expect(try index.object("9") == ["objectID": "9", "name": "new", "count": 2])
        // Searchable at once.
        #expect(try index.search("new").objectIDs == ["9"])
    }

    @Test func anUnknownOperationIsRejectedBeforeAnythingIsWritten() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        #expect(throws: SearchError.self) {
            try index.partialUpdateObjects([["objectID": "1", "name": "changed"], ["objectID": "2", "price": ["_operation": "Multiply", "value": 2]]])
        }
        #expect(try index.object("1")?["name"] == "red phone")
    }

    @Test func browseReturnsEveryRecordOnceInObjectIDOrderEvenWithWritesBetweenPages() throws {
        let engine = try TestEngine()
        let records: [JSONValue] = (0..<25).map { ["objectID": .string(String(format: "r%02d", $0)), "n": .int(Int64($0))] }
        let index = try engine.index("many", settings: ["paginationLimitedTo": 5], records: records)
        var seen: [String] = []
        var page = try index.browse(SearchParameters(json: ["hitsPerPage": 10]))
        #expect(page.response.nbHits == 25)
        seen += page.response.objectIDs
        // A write between pages renumbers the records; the cursor is an objectID, not a position.
        try index.deleteObjects(["r00"])
        try index.saveObjects([["objectID": "r00b", "n": 100]])
        while let cursor = page.cursor {
            page = try index.browse(SearchParameters(), cursor: cursor)
            seen += page.response.objectIDs
        }
        #expect(seen == (0..<25).map { String(format: "r%02d", $0) })
        // Default: 1000 a page, not capped by paginationLimitedTo.
        #expect(try index.browse(SearchParameters()).response.hits.count == 25)
    }

    @Test func browseWithAQueryAndFilters() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        let page = try index.browse(SearchParameters(json: ["query": "phone", "filters": "brand:Acme"]))
        #expect(page.response.objectIDs == ["1"])
        #expect(page.cursor == nil)
        #expect(page.jsonValue["cursor"] == nil)
        #expect(throws: SearchError.self) { try index.browse(SearchParameters(), cursor: "garbage") }
    }

    @Test func copyAndMoveWithAndWithoutScope() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        try index.saveSynonyms([["objectID": "s", "type": "synonym", "synonyms": ["phone", "mobile"]]])
        try engine.engine.copyIndex("products", to: "copy")
        let copy = try engine.engine.existingIndex("copy")
        #expect(copy.recordCount == 3)
        #expect(copy.settings.attributesForFaceting == ["brand"])
        #expect(try copy.search("mobile").nbHits == 2)

        let other = try engine.index("other", records: [["objectID": "o", "name": "other"]])
        try engine.engine.copyIndex("products", to: "other", scope: [.settings])
        #expect(other.recordCount == 1)
        #expect(other.settings.attributesForFaceting == ["brand"])
        #expect(other.synonyms.isEmpty)
        try engine.engine.copyIndex("products", to: "other", scope: [.synonyms])
        #expect(other.synonyms.count == 1)

        try engine.engine.moveIndex("copy", to: "products_new")
        #expect(!engine.engine.exists("copy"))
        #expect(try engine.engine.existingIndex("products_new").recordCount == 3)
        #expect(throws: SearchError.self) { try engine.engine.copyIndex("missing", to: "x") }
    }

    @Test func synonymsGetDeleteClearSearch() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        try index.saveSynonyms([
            ["objectID": "phones", "type": "synonym", "synonyms": ["phone", "mobile"]],
            ["objectID": "cases", "type": "oneWaySynonym", "input": "case", "synonyms": ["cover"]],
        ])
        #expect(index.synonym("phones")?["synonyms"] == ["phone", "mobile"])
        #expect(index.searchSynonyms(query: "mobile").hits.map { $0["objectID"] } == ["phones"])
        #expect(index.searchSynonyms(types: ["oneWaySynonym"]).nbHits == 1)
        #expect(index.searchSynonyms().hits.map { $0["objectID"] } == ["cases", "phones"])
        #expect(try index.deleteSynonym("phones"))
        #expect(try !index.deleteSynonym("phones"))
        #expect(try index.search("mobile").nbHits == 0)
        try index.clearSynonyms()
        #expect(index.synonyms.isEmpty)
    }

    @Test func forwardToReplicas() throws {
        let engine = try TestEngine()
        let index = try makeIndex(engine)
        try index.setSettings(["replicas": ["products_asc"]])
        let replica = try engine.engine.existingIndex("products_asc")
        try index.setSettings(["customRanking": ["desc(price)"]], forwardToReplicas: true)
        #expect(replica.settings.customRanking == ["desc(price)"])
        try index.setSettings(["customRanking": ["asc(price)"]], forwardToReplicas: false)
        #expect(replica.settings.customRanking == ["desc(price)"])
        try index.saveSynonyms([["objectID": "s", "type": "synonym", "synonyms": ["phone", "mobile"]]], forwardToReplicas: true)
        #expect(replica.synonym("s") != nil)
        try index.clearSynonyms(forwardToReplicas: true)
        #expect(replica.synonyms.isEmpty)
    }
}
