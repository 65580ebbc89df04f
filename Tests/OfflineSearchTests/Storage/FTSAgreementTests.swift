import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

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
