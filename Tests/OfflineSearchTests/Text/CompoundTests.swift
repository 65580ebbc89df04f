import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// `decompoundedAttributes` and `decompoundQuery`: compound words and their parts, as Algolia
/// splits them in German, Dutch, Finnish, Danish, Swedish and Norwegian.
@Suite struct CompoundTests {
    static let records: [JSONValue] = [
        ["objectID": "boots", "name": "Fußballschuhe für Kinder", "description": "Leichte Fußballschuhe"],
        ["objectID": "study", "name": "Schreibtisch fürs Arbeitszimmer", "description": "Arbeitszimmer aus Holz"],
        ["objectID": "cup", "name": "Kaffeetasse", "description": "Kaffeetasse"],
        ["objectID": "apart", "name": "Fußball Schuhe", "description": ""],
    ]

    func index(_ settings: JSONObject) throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        var all: JSONObject = ["searchableAttributes": ["name", "description"], "typoTolerance": false]
        for (key, value) in settings { all[key] = value }
        return (engine, try engine.index(settings: all, records: Self.records))
    }

    @Test func aPartIsFoundOnlyInADecompoundedAttribute() throws {
        let (owner, index) = try index(["decompoundedAttributes": ["de": ["name"]]])
        defer { withExtendedLifetime(owner) {} }
        // "Schuhe" finds "Fußballschuhe" (in name) and the record that writes them apart.
        #expect(Set(try index.search("schuhe ").objectIDs) == ["boots", "apart"])
        #expect(Set(try index.search("tasse ").objectIDs) == ["cup"])
        // Linking elements: Arbeit-s-zimmer.
        #expect(Set(try index.search("zimmer ").objectIDs) == ["study"])
        // The whole compound is still a word.
        #expect(Set(try index.search("fussballschuhe ").objectIDs) == ["boots"])
        // The part is highlighted as the whole compound, in the decompounded attribute only.
        let hit = try #require(try index.search("schuhe ").hits.first { $0["objectID"] == "boots" })
        #expect(hit["_highlightResult"]?["name"]?["value"] == "<em>Fußballschuhe</em> für Kinder")
        #expect(hit["_highlightResult"]?["description"]?["value"] == "Leichte Fußballschuhe")
        // Only the description holds "Holz": a part of description's compounds is not found.
        let (owner2, nameOnly) = try self.index(["decompoundedAttributes": ["de": ["description"]],
                                                  "searchableAttributes": ["name"]])
        defer { withExtendedLifetime(owner2) {} }
        #expect(Set(try nameOnly.search("schuhe ").objectIDs) == ["apart"])
    }

    @Test func withoutTheSettingACompoundIsOneWord() throws {
        let (owner, index) = try index([:])
        defer { withExtendedLifetime(owner) {} }
        #expect(Set(try index.search("schuhe ").objectIDs) == ["apart"])
        #expect(try index.search("tasse ").objectIDs.isEmpty)
    }

    @Test func changingTheSettingReadsTheRecordsAgain() throws {
        let (owner, index) = try index([:])
        defer { withExtendedLifetime(owner) {} }
        #expect(try index.search("tasse ").objectIDs.isEmpty)
        try index.setSettings(["decompoundedAttributes": ["de": ["name"]]])
        #expect(try index.search("tasse ").objectIDs == ["cup"])
        try index.setSettings(["decompoundedAttributes": [:]])
        #expect(try index.search("tasse ").objectIDs.isEmpty)
    }

    @Test func aCompoundQueryFindsItsPartsSideBySide() throws {
        let (owner, index) = try index(["queryLanguages": ["de"]])
        defer { withExtendedLifetime(owner) {} }
        // decompoundQuery is on by default once queryLanguages names German.
        #expect(Set(try index.search("fußballschuhe ").objectIDs) == ["boots", "apart"])
        #expect(Set(try index.search("fußballschuhe ", ["decompoundQuery": false]).objectIDs) == ["boots"])
        // Without a decompounding query language, the query is not split.
        #expect(Set(try index.search("fußballschuhe ", ["queryLanguages": ["en"]]).objectIDs) == ["boots"])
    }

    @Test func splitsAsAlgoliaDescribes() throws {
        let german = try #require(CompoundSplitter(languages: ["de"]))
        #expect(german.parts(of: "fussballschuhe") == ["fussball", "schuhe"])
        #expect(german.parts(of: "arbeitszimmer").last == "zimmer")   // arbeits (a listed form) + zimmer
        #expect(german.parts(of: "schreibtischlampe") == ["schreibtisch", "lampe"])
        #expect(german.parts(of: "handtasche") == ["hand", "tasche"])
        #expect(german.parts(of: "kaffeetasse") == ["kaffee", "tasse"])
        #expect(german.parts(of: "schuhe").isEmpty)       // too short, and no split
        #expect(german.parts(of: "kaffee").isEmpty)
        #expect(CompoundSplitter(languages: ["en", "fr"]) == nil)
    }

    @Test(arguments: [
        ["fr": ["name"]], ["de": "name"], ["de": [1]], "name",
    ] as [JSONValue])
    func badSettingsAreRefused(_ value: JSONValue) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: [:], records: Self.records)
        #expect(throws: SearchError.self) { try index.setSettings(["decompoundedAttributes": value]) }
        #expect(index.settings.values["decompoundedAttributes"] == nil)
    }
}
