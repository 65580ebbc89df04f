import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI
import OfflineSearchTestSupport

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
        // Algolia gives `fullyHighlighted` only where something matched.
        #expect(full?["bio"]?["fullyHighlighted"] == nil)
        #expect(full?["bio"]?.objectValue?.keys == ["value", "matchLevel", "matchedWords"])

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

    /// Algolia's answers have no highlight or snippet entry for a boolean or a null.
    @Test func booleansAndNullsAreNotHighlightedOrSnippeted() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "Batman", "active": true, "deleted": nil,
                                                "info": ["year": 1989, "sequel": false]]])
        let hit = try #require(try index.search("batman", ["attributesToSnippet": ["name", "active", "deleted", "info"]]).hits.first)
        for key in ["_highlightResult", "_snippetResult"] {
            let result = try #require(hit[key]?.objectValue, "\(key)")
            #expect(result.keys == ["name", "info"], "\(key)")
            #expect(result["info"]?.objectValue?.keys == ["year"], "\(key)")
            #expect(result["name"]?["value"] == "<em>Batman</em>", "\(key)")
        }
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

/// Which query word wraps a token when several could: the word itself wherever it is in the
/// query, else the first word that matches it, and for one word a variant (a typo or synonym
/// match, wrapped whole) before its prefix (only the typed part wrapped).
@Suite struct HighlightWordPrecedenceTests {
    static func highlight(_ text: String, query: String, variants: [Set<String>]) -> JSONValue {
        HighlightBuilder(words: QueryWords.parse(query, queryType: .prefixLast, separators: .none),
                         preTag: "<em>", postTag: "</em>", separators: .none, variantTerms: variants).highlight(text)
    }

    @Test func theWordItselfWinsOverAnEarlierWordsVariant() {
        let result = Self.highlight("iphone", query: "phone iphone ca", variants: [["iphone"], [], []])
        #expect(result["value"] == "<em>iphone</em>")
        #expect(result["matchedWords"] == ["iphone"])
    }

    @Test func anEarlierWordsVariantWinsOverALaterPrefix() {
        let result = Self.highlight("cable", query: "phone iphone ca", variants: [["cable"], [], []])
        #expect(result["value"] == "<em>cable</em>")
        #expect(result["matchedWords"] == ["phone"])
    }

    @Test func aWordsVariantIsWrappedWholeBeforeItsPrefix() {
        let whole = Self.highlight("cable", query: "phone ca", variants: [[], ["cable"]])
        #expect(whole["value"] == "<em>cable</em>")
        #expect(whole["matchedWords"] == ["ca"])
        let prefix = Self.highlight("cable", query: "phone ca", variants: [[], []])
        #expect(prefix["value"] == "<em>ca</em>ble")
        #expect(prefix["matchedWords"] == ["ca"])
    }

    /// ASCII tokens are compared byte by byte and a variant looked up only for a token of one of
    /// the variants' lengths; other tokens and words through strings. Each way gives the same.
    @Test func variantsOfEveryLengthAndScriptAreFound() {
        let lengths = Self.highlight("cable cab cables", query: "phone", variants: [["cables", "cab"]])
        #expect(lengths["value"] == "cable <em>cab</em> <em>cables</em>")
        let long = String(repeating: "a", count: 70)
        let longer = Self.highlight("\(long) \(long)a \(long.prefix(63))", query: "zzz", variants: [[long, String(long.prefix(63))]])
        #expect(longer["value"] == .string("<em>\(long)</em> \(long)a <em>\(long.prefix(63))</em>"))
        let cyrillic = Self.highlight("Кот cat", query: "cat", variants: [["кот"]])
        #expect(cyrillic["value"] == "<em>Кот</em> <em>cat</em>")
    }

    @Test func wordsAndPrefixesBeyondASCIIAreMatchedAsStrings() {
        let prefix = Self.highlight("Кофе Кофемашина", query: "чай кофем", variants: [[], []])
        #expect(prefix["value"] == "Кофе <em>Кофем</em>ашина")
        #expect(prefix["matchLevel"] == "partial")
        let word = Self.highlight("Crème brûlée", query: "brulee creme", variants: [[], []])
        #expect(word["value"] == "<em>Crème</em> <em>brûlée</em>")
        #expect(word["matchedWords"] == ["brulee", "creme"])
    }

    /// A prefix wraps the typed part of the original text: byte for byte in an ASCII token, by
    /// folded letters (and the marks that follow them) beyond it.
    @Test func aPrefixWrapsTheTypedPartOfTheOriginalText() {
        #expect(Self.highlight("GALAXY Galaxy", query: "gal", variants: [[]])["value"] == "<em>GAL</em>AXY <em>Gal</em>axy")
        #expect(Self.highlight("Éclair Straße", query: "ecl", variants: [[]])["value"] == "<em>Écl</em>air Straße")
        #expect(Self.highlight("Straße", query: "strass", variants: [[]])["value"] == "<em>Straß</em>e")
        #expect(Self.highlight("Cafe\u{301}s", query: "cafe", variants: [[]])["value"] == "<em>Cafe\u{301}</em>s")
    }

    /// A prefix typed with typos has hundreds of variants of every length; a bit filter passes
    /// over most tokens without looking them up. Every variant in a page of tokens is still
    /// wrapped, and no other token.
    @Test(arguments: 0..<4) func everyVariantAmongManyIsWrappedAndNoOtherToken(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(900 + seed))
        func word() -> String {
            String((0..<Int.random(in: 2...9, using: &generator)).map { _ in "abcdefghij".randomElement(using: &generator)! })
        }
        let variants = Set((0..<[5, 120, 600, 2_000][seed]).map { _ in word() })
        let tokens = (0..<400).map { _ in Bool.random(using: &generator) ? variants.randomElement(using: &generator)! : word() }
        let text = tokens.map { Bool.random(using: &generator) ? $0.uppercased() : $0 }.joined(separator: " ")
        let expected = text.split(separator: " ").map { variants.contains($0.lowercased()) ? "<em>\($0)</em>" : String($0) }
        let result = Self.highlight(text, query: "zzzz", variants: [variants])
        #expect(result["value"] == .string(expected.joined(separator: " ")))
        // The same variants as a later word's, and beside a variant beyond ASCII.
        let later = Self.highlight(text, query: "zzzz yyyy", variants: [[], variants])
        #expect(later["value"] == .string(expected.joined(separator: " ")))
        let mixed = Self.highlight(text + " Кот", query: "zzzz", variants: [variants.union(["кот"])])
        #expect(mixed["value"] == .string(expected.joined(separator: " ") + " <em>Кот</em>"))
    }
}
