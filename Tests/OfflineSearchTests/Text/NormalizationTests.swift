import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Algolia's normalization: lowercase and no diacritics in every script, letter variants read
/// as one, and the index's own exceptions (`keepDiacriticsOnCharacters`, `customNormalization`).
@Suite struct NormalizationTests {
    func index(_ settings: JSONObject = [:], names: [String]) throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        var all: JSONObject = ["searchableAttributes": ["name"], "typoTolerance": false]
        for (key, value) in settings { all[key] = value }
        let records = names.enumerated().map { offset, name -> JSONValue in ["objectID": .string("\(offset)"), "name": .string(name)] }
        return (engine, try engine.index(settings: all, records: records))
    }

    @Test(arguments: [
        ("Αθήνα", "αθηνα"), ("ΟΔΟΣ", "οδός"),              // Greek tonos, final sigma
        ("ёлка", "елка"), ("Йошкар", "иошкар"),           // Cyrillic diaeresis, breve
        ("Phở bò", "pho bo"), ("Đà Nẵng", "da nang"),     // Vietnamese
        ("أحمد", "احمد"), ("إسلام", "اسلام"),              // Arabic hamza on alef
        ("کتاب", "كتاب"), ("یک", "يك"),                    // Persian keheh and yeh as Arabic
        ("مَدْرَسَة", "مدرسة"),                              // Arabic short vowels
        ("ＡＢＣ１２３", "abc123"), ("ｶﾒﾗ", "カメラ"),          // full- and half-width forms
        ("デジタル", "テシタル"),                             // kana voicing marks (Algolia: で → て)
        ("Crème Brûlée", "creme brulee"), ("Straße", "strasse"),
        ("圖書館", "图书馆"), ("图书馆", "圖書館"),              // traditional Chinese read as simplified
    ])
    func everyScriptLosesItsDiacritics(_ written: String, _ query: String) throws {
        let (owner, index) = try index(names: [written, "other"])
        defer { withExtendedLifetime(owner) {} }
        #expect(try index.search(query).objectIDs == ["0"], "\(query) → \(written)")
        #expect(try index.search(written).objectIDs == ["0"], "\(written) → itself")
    }

    @Test func keepDiacriticsOnCharactersKeepsThoseLettersApart() throws {
        let (owner, index) = try index(["keepDiacriticsOnCharacters": "øé"], names: ["Søren", "Soren", "Café", "Cafe", "Ärger"])
        defer { withExtendedLifetime(owner) {} }
        #expect(try index.search("søren").objectIDs == ["0"])
        #expect(try index.search("SØREN").objectIDs == ["0"])
        #expect(try index.search("soren").objectIDs == ["1"])
        #expect(try index.search("café").objectIDs == ["2"])
        #expect(try index.search("CAFÉ").objectIDs == ["2"])
        // A character not listed still folds.
        #expect(try index.search("arger").objectIDs == ["4"])
        let hit = try #require(try index.search("søren").hits.first)
        #expect(hit["_highlightResult"]?["name"]?["value"] == "<em>Søren</em>")
        // Without the setting, both spellings are one word.
        let (owner2, plain) = try self.index(names: ["Søren", "Soren"])
        defer { withExtendedLifetime(owner2) {} }
        #expect(Set(try plain.search("søren").objectIDs) == ["0", "1"])
    }

    @Test(arguments: ["Ø", "o", "ab", "1"])
    func keepDiacriticsRefusesWhatAlgoliaRefuses(_ value: String) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: [:], records: [["objectID": "1", "name": "Søren"]])
        #expect {
            try index.setSettings(["keepDiacriticsOnCharacters": .string(value)])
        } throws: { error in
            guard let error = error as? SearchError else { return false }
            return error.kind == .invalidParameter && error.message.hasPrefix("keepDiacriticsOnCharacters")
        }
        // Nothing stored.
        #expect(index.settings.values["keepDiacriticsOnCharacters"] == nil)
    }

    @Test func customNormalizationReplacesALetter() throws {
        let (owner, index) = try index(["customNormalization": ["default": ["ä": "ae", "ö": "oe", "ñ": "NY"]]],
                                       names: ["Bär", "Bar", "Möbel", "España"])
        defer { withExtendedLifetime(owner) {} }
        #expect(try index.search("baer").objectIDs == ["0"])
        #expect(try index.search("BÄR").objectIDs == ["0"])
        #expect(try index.search("bar").objectIDs == ["1"])
        #expect(try index.search("moebel").objectIDs == ["2"])
        #expect(try index.search("espanya").objectIDs == ["3"])
        let hit = try #require(try index.search("baer").hits.first)
        #expect(hit["_highlightResult"]?["name"]?["value"] == "<em>Bär</em>")
        // Changing the setting re-reads the records: the old spelling is found again.
        try index.setSettings(["customNormalization": [:]])
        #expect(Set(try index.search("bar").objectIDs) == ["0", "1"])
    }

    @Test(arguments: [
        ["default": ["a": "b"]],            // ASCII key
        ["default": ["ä": "abc"]],          // more than two characters
        ["default": ["äö": "a"]],           // more than one character
        ["default": ["ä": 1]],              // not a string
        ["fr": ["ä": "a"]],                 // a scope other than default
        "ä=ae",                             // not an object
    ] as [JSONValue])
    func customNormalizationRefusesWhatAlgoliaRefuses(_ value: JSONValue) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: [:], records: [["objectID": "1", "name": "Bär"]])
        #expect(throws: SearchError.self) { try index.setSettings(["customNormalization": value]) }
        #expect(index.settings.values["customNormalization"] == nil)
    }

    @Test func foldingAFoldedWordChangesNothing() {
        for value in UInt32(0x80)...UInt32(0x30FF) {
            guard let scalar = Unicode.Scalar(value), case .letters(let folded) = CharacterFolding.fold(scalar) else { continue }
            let again = folded.unicodeScalars.map { part -> String in
                if part.value < 0x80 { return String(part).lowercased() }
                if case .letters(let twice) = CharacterFolding.fold(part) { return twice }
                return String(part)
            }.joined()
            #expect(again == folded, "U+\(String(value, radix: 16)): \(folded) → \(again)")
        }
    }
}
