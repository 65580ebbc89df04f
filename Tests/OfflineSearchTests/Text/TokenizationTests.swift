import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

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
