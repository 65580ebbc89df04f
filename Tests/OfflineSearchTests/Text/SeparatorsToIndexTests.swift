import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// `separatorsToIndex`: the listed separators are indexed and searched as words of their own.
@Suite struct SeparatorsToIndexTests {
    static let records: [JSONValue] = [
        ["objectID": "csharp", "name": "C# in depth", "language": "C#"],
        ["objectID": "c", "name": "The C programming language", "language": "C"],
        ["objectID": "cpp", "name": "C++ primer", "language": "C++"],
        // Has c and # but apart: matches `c#`, ranked after the record where they touch.
        ["objectID": "apart", "name": "Tag # guide for C", "language": "C"],
        ["objectID": "euro", "name": "Rust for 5€", "language": "Rust"],
        ["objectID": "quotes", "name": "Rock 'n' roll \"live\"", "language": "Music"],
    ]

    func index(_ settings: JSONObject = [:], engine: TestEngine) throws -> SearchIndex {
        var all: JSONObject = ["searchableAttributes": ["name"], "attributesForFaceting": ["searchable(language)"],
                               "typoTolerance": false]
        for (key, value) in settings { all[key] = value }
        return try engine.index(settings: all, records: SeparatorsToIndexTests.records)
    }

    // MARK: Tokenizer

    @Test(arguments: [
        ("C# and C++", "+#", ["c", "#", "and", "c", "+", "+"]),
        ("C# and C++", "", ["c", "and", "c"]),
        ("C# and C++", "#", ["c", "#", "and", "c"]),
        ("#hashtag", "#", ["#", "hashtag"]),
        ("5€ off", "€", ["5", "€", "off"]),
        ("a→b", "→", ["a", "→", "b"]),
        ("Rock 'n' \"roll\"", "'\"", ["rock", "'", "n", "'", "\"", "roll", "\""]),
        // Letters, digits and spaces in the setting change nothing: they are not separators.
        ("C# 2", "a 2", ["c", "2"]),
    ])
    func tokenizerKeepsTokenizerRulesAsWords(text: String, setting: String, expected: [String]) throws {
        let separators = try TokenizerRules(setting: setting)
        #expect(Tokenizer.words(text, separators: separators) == expected)
        // The FTS5 text is the same words joined by spaces.
        var buffer: [UInt8] = []
        Tokenizer.appendFoldedWords(of: text, separators: separators, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == expected.joined(separator: " "))
    }

    @Test func indexedSeparatorTokensKeepTheirPlaceInTheText() throws {
        // UTF-8 offsets: `é` is two bytes, `€` three, and `€` ends the word `é` before it.
        let tokens = Tokenizer.tokens("C++ é€", separators: try TokenizerRules(setting: "+€"))
        #expect(tokens.map(\.folded) == ["c", "+", "+", "e", "€"])
        #expect(tokens.map { [$0.start, $0.end] } == [[0, 1], [1, 2], [2, 3], [4, 6], [6, 9]])
    }

    @Test func settingsThatIndexNothingAreNone() throws {
        #expect(try TokenizerRules(setting: "") == .none)
        #expect(try TokenizerRules(setting: " ab12\t\u{301}") == .none)
        #expect(try TokenizerRules(setting: "#+") == TokenizerRules(setting: "+ # #"))
        #expect(try TokenizerRules(setting: "~@!#").asciiCharacters == "!#@~")
    }

    // MARK: Search

    @Test func withoutTheSettingSeparatorsAreIgnored() throws {
        let engine = try TestEngine()
        let index = try index(engine: engine)
        #expect(Set(try index.search("c# ").objectIDs) == ["csharp", "c", "cpp", "apart"])
        #expect(Set(try index.search("c++").objectIDs) == ["csharp", "c", "cpp", "apart"])
        #expect(try index.search("#").nbHits == SeparatorsToIndexTests.records.count)  // no words: every record
    }

    @Test func anIndexedSeparatorIsAQueryWordOfItsOwn() throws {
        let engine = try TestEngine()
        let index = try index(["separatorsToIndex": "+#"], engine: engine)
        // c and #: the record where they touch first (proximity), then the one where they are apart.
        #expect(try index.search("c#").objectIDs == ["csharp", "apart"])
        #expect(try index.search("c# ").objectIDs == ["csharp", "apart"])
        #expect(try index.search("c++").objectIDs == ["cpp"])
        #expect(try index.search("c+").objectIDs == ["cpp"])
        #expect(try index.search("#").objectIDs == ["csharp", "apart"])
        // The plain word still finds every record with it.
        #expect(Set(try index.search("c ").objectIDs) == ["csharp", "c", "cpp", "apart"])
        // Separators not in the setting are still ignored.
        #expect(Set(try index.search("5€").objectIDs) == ["euro"])
        #expect(Set(try index.search("c€ ").objectIDs) == ["csharp", "c", "cpp", "apart"])
    }

    @Test func nonASCIISeparatorsAreIndexedToo() throws {
        let engine = try TestEngine()
        let index = try index(["separatorsToIndex": "€"], engine: engine)
        #expect(try index.search("€").objectIDs == ["euro"])
        #expect(try index.search("5€").objectIDs == ["euro"])
        #expect(try index.search("5 €").objectIDs == ["euro"])
        #expect(try index.search("c€").objectIDs.isEmpty)
        let hit = try #require(try index.search("€").hits.first)
        #expect(hit["_highlightResult"]?["name"]?["value"] == "Rust for 5<em>€</em>")
    }

    /// An index setting only, as in Algolia: a search cannot change how the records were indexed.
    @Test func separatorsToIndexIsNotASearchParameter() throws {
        let engine = try TestEngine()
        let index = try index(["separatorsToIndex": "#"], engine: engine)
        let error = expectSearchError { _ = try index.search("c#", ["separatorsToIndex": ""]) }
        #expect(error?.kind == .invalidParameter)
        #expect(error?.message.contains("separatorsToIndex") == true)
    }

    // MARK: Highlighting

    @Test func indexedSeparatorsAreHighlightedWithTheirWord() throws {
        let engine = try TestEngine()
        let index = try index(["separatorsToIndex": "+#"], engine: engine)
        let response = try index.search("c#", ["attributesToSnippet": ["name:3"]])
        let first = try #require(response.hits.first)
        #expect(first["_highlightResult"]?["name"]?["value"] == "<em>C#</em> in depth")
        #expect(first["_highlightResult"]?["name"]?["matchLevel"] == "full")
        #expect(first["_highlightResult"]?["name"]?["matchedWords"] == ["c", "#"])
        #expect(first["_highlightResult"]?["language"]?["value"] == nil)  // not searchable, not highlighted
        let apart = try #require(response.hits.last)
        #expect(apart["_highlightResult"]?["name"]?["value"] == "Tag <em>#</em> guide for <em>C</em>")
        // The snippet counts an indexed separator as a word.
        #expect(apart["_snippetResult"]?["name"]?["value"] == "Tag <em>#</em> guide …")

        let cpp = try #require(try index.search("c++").hits.first)
        #expect(cpp["_highlightResult"]?["name"]?["value"] == "<em>C++</em> primer")
        #expect(cpp["_highlightResult"]?["name"]?["fullyHighlighted"] == false)
        let plus = try #require(try index.search("+").hits.first)
        #expect(plus["_highlightResult"]?["name"]?["value"] == "C<em>++</em> primer")
    }

    @Test func facetValueSearchTokenizesLikeTheIndex() throws {
        let engine = try TestEngine()
        let plain = try index(engine: engine)
        func values(_ index: SearchIndex, _ query: String) throws -> [String] {
            try index.searchForFacetValues(facet: "language", parameters: SearchParameters(json: ["facetQuery": .string(query)]))
                .facetHits.map(\.highlighted)
        }
        #expect(Set(try values(plain, "c#")) == ["<em>C</em>", "<em>C</em>#", "<em>C</em>++"])
        let indexed = try engine.engine.index("indexed")
        try indexed.setSettings(["searchableAttributes": ["name"], "attributesForFaceting": ["searchable(language)"],
                                 "separatorsToIndex": "+#"])
        try indexed.saveObjects(SeparatorsToIndexTests.records)
        #expect(try values(indexed, "c#") == ["<em>C#</em>"])
        #expect(try values(indexed, "c+") == ["<em>C++</em>"])
    }

    // MARK: Query syntax and language

    @Test func advancedSyntaxKeepsWordsWrittenTogether() throws {
        let engine = try TestEngine()
        let index = try index(["separatorsToIndex": "+#-\"", "advancedSyntax": true], engine: engine)
        // A quoted phrase: c then # side by side.
        #expect(try index.search("\"c#\"").objectIDs == ["csharp"])
        // `-c#` leaves out the records with c# together, not every record with c or #.
        #expect(Set(try index.search("-c#").objectIDs) == Set(SeparatorsToIndexTests.records.map { $0["objectID"]!.stringValue! })
            .subtracting(["csharp"]))
        #expect(Set(try index.search("guide -c#").objectIDs) == ["apart"])
        // An indexed `-` or `"` is still the syntax's own; elsewhere it is a word.
        #expect(Set(try index.search("-c").objectIDs) == ["euro", "quotes"])
        #expect(try index.search("\"live\"").objectIDs == ["quotes"])
    }

    @Test func synonymsAndOptionalWordsTokenizeLikeTheIndex() throws {
        let engine = try TestEngine()
        let plain = try index(["synonyms": [["#", "sharp"]]], engine: engine)
        #expect(try plain.search("sharp").objectIDs.isEmpty)  // `#` is no word: no synonym
        let indexed = try engine.engine.index("indexed")
        try indexed.setSettings(["searchableAttributes": ["name"], "typoTolerance": false, "separatorsToIndex": "#",
                                 "synonyms": [["#", "sharp"]], "optionalWords": ["c#"]])
        try indexed.saveObjects(SeparatorsToIndexTests.records)
        #expect(try indexed.search("sharp ").objectIDs == ["csharp", "apart"])
        // `optionalWords: ["c#"]` makes both words optional: `c# primer` finds `primer`, then records
        // with c or # only.
        #expect(try indexed.search("c# primer ").objectIDs.first == "cpp")

        // A synonym written with an indexed separator is a phrase: `csharp` finds `c#` only
        // where the two words touch.
        let phrase = try engine.engine.index("phrase")
        try phrase.setSettings(["searchableAttributes": ["name"], "typoTolerance": false, "separatorsToIndex": "#",
                                "synonyms": [["c#", "csharp"]]])
        try phrase.saveObjects(SeparatorsToIndexTests.records)
        #expect(try phrase.search("csharp ").objectIDs == ["csharp"])
    }

    // MARK: Settings changes and FTS5

    static let ftsQueries = ["c", "c#", "c# ", "c++", "c+", "#", "+", "5€", "€", "'n'", "\"live\"", "rock '", "guide", "ru"]

    /// The FTS5 table finds what the in-memory index finds (typo tolerance is off; FTS5 matches
    /// every word, the last as a prefix).
    static func expectFTSAgrees(_ index: SearchIndex, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let separators = try IndexConfiguration(settings: index.settings).separators
        for query in ftsQueries {
            let tokens = Tokenizer.tokens(query, separators: separators)
            let engineHits = Set(try index.search(query, ["hitsPerPage": 1000]).objectIDs)
            // prefixLast: the last word is a prefix while it ends the query.
            let lastIsPrefix = tokens.last?.end == query.utf8.count
            let fts = tokens.isEmpty ? engineHits : try index.store.ftsMatch(words: tokens.map(\.folded), lastIsPrefix: lastIsPrefix)
            #expect(fts == engineHits, "\(label): \(query)", sourceLocation: sourceLocation)
        }
    }

    @Test func changingTheSettingReindexesTheRecordsAndTheFTSTable() throws {
        let engine = try TestEngine()
        let index = try index(engine: engine)
        try SeparatorsToIndexTests.expectFTSAgrees(index, "default")
        #expect(Set(try index.search("c#").objectIDs) == ["csharp", "c", "cpp", "apart"])

        try index.setSettings(["separatorsToIndex": "#+€'\""])
        #expect(try index.search("c#").objectIDs == ["csharp", "apart"])
        #expect(try index.search("€").objectIDs == ["euro"])
        try SeparatorsToIndexTests.expectFTSAgrees(index, "indexed")
        #expect(try index.store.ftsMatch(words: ["#"], lastIsPrefix: false) == ["csharp", "apart"])
        #expect(try index.store.ftsMatch(words: ["'"], lastIsPrefix: false) == ["quotes"])
        #expect(try index.store.ftsMatch(words: ["\""], lastIsPrefix: false) == ["quotes"])

        // Writes after the change keep the FTS5 table in step (old rows removed with their new words).
        try index.saveObjects([["objectID": "csharp", "name": "F# and Go"], ["objectID": "new", "name": "C# 12"]])
        try index.deleteObjects(["cpp"])
        #expect(try index.search("c#").objectIDs == ["new", "apart"])
        try SeparatorsToIndexTests.expectFTSAgrees(index, "after writes")

        // Reopened from disk: the stored derived index is the one for this setting.
        let reopened = try SearchEngine(directory: engine.directory.url).index("test")
        #expect(try reopened.search("c#").objectIDs == ["new", "apart"])

        // Only the non-ASCII separator changes: the text is rebuilt though FTS5's tokenizer is the same.
        try index.setSettings(["separatorsToIndex": "#+'\""])
        #expect(try index.search("€").nbHits == index.recordCount)  // no word left: every record
        try SeparatorsToIndexTests.expectFTSAgrees(index, "without €")
        #expect(try index.store.ftsMatch(words: ["€"], lastIsPrefix: false).isEmpty)

        try index.setSettings(["separatorsToIndex": nil])
        #expect(Set(try index.search("c#").objectIDs) == ["new", "c", "apart"])
        try SeparatorsToIndexTests.expectFTSAgrees(index, "reset")
        #expect(try index.store.ftsMatch(words: ["#"], lastIsPrefix: false).isEmpty)
    }

    /// `;` and the Greek question mark (U+037E) are canonically equivalent, so Swift's `==` takes
    /// the two settings for one. They index different separators: changing one into the other
    /// reindexes the records, as any other change of the setting does.
    @Test func aCanonicallyEquivalentSettingIsAChange() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "typoTolerance": false, "separatorsToIndex": ";"],
                                     records: [["objectID": "latin", "name": "a;b"], ["objectID": "greek", "name": "a\u{37E}b"]])
        #expect(try index.search(";").objectIDs == ["latin"])
        #expect(try index.store.ftsMatch(words: [";"], lastIsPrefix: false) == ["latin"])

        try index.setSettings(["separatorsToIndex": "\u{37E}"])
        #expect(try index.search("\u{37E}").objectIDs == ["greek"])
        #expect(try index.search("a\u{37E}").objectIDs == ["greek"])
        try SeparatorsToIndexTests.expectFTSAgrees(index, "the Greek question mark")
        #expect(try index.store.ftsMatch(words: ["\u{37E}"], lastIsPrefix: false) == ["greek"])
        #expect(try index.store.ftsMatch(words: [";"], lastIsPrefix: false).isEmpty)
        // Reopened from disk: the stored derived index is the one for this setting.
        let reopened = try SearchEngine(directory: engine.directory.url).index("test")
        #expect(try reopened.search("\u{37E}").objectIDs == ["greek"])
    }

    /// A `(` is a modifier's (`unordered(name)`), so a plain name may not hold one; but a `(`
    /// that a combining mark joins is one character with the mark, and part of a name.
    @Test func aParenthesisJoinedByAMarkIsPartOfAName() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["a(\u{301}", "name"]],
                                     records: [["objectID": "1", "a(\u{301}": "needle", "name": "other"]])
        #expect(try index.search("needle").objectIDs == ["1"])
        let error = expectSearchError { try index.setSettings(["searchableAttributes": ["a(b"]]) }
        #expect(error?.kind == .invalidParameter)
    }

    @Test func theFTSTableFollowsASettingStoredBeforeItApplied() throws {
        let engine = try TestEngine()
        let index = try index(["separatorsToIndex": "#"], engine: engine)
        // What an index written before the setting applied holds: the plain ascii tokenizer and
        // text without separators.
        do {
            let connection = try SQLiteConnection(path: index.store.path)
            try connection.execute("""
                DROP TABLE search_text;
                CREATE VIRTUAL TABLE search_text USING fts5(level0, tokenize = 'ascii', content = '', detail = none, columnsize = 0);
                """)
            let records = try connection.statement("SELECT rowid, body FROM records")
            let insert = try connection.statement("INSERT INTO search_text (rowid, level0) VALUES (?, ?)")
            while try records.step() {
                let name = try JSONValue(parsing: records.string(1))["name"]?.stringValue ?? ""
                var text: [UInt8] = []
                Tokenizer.appendFoldedWords(of: name, separators: .none, to: &text)
                insert.reset()
                try insert.bind(1, records.int64(0))
                try insert.bind(2, text: text)
                try insert.run()
            }
        }
        #expect(try index.store.ftsMatch(words: ["c"], lastIsPrefix: false) == ["csharp", "c", "cpp", "apart"])
        #expect(try index.store.ftsMatch(words: ["#"], lastIsPrefix: false).isEmpty)
        // The next write sees the table's tokenizer differ from the setting and rebuilds it.
        try index.saveObjects([["objectID": "new", "name": "C# 12"]])
        try SeparatorsToIndexTests.expectFTSAgrees(index, "rebuilt")
        #expect(try index.store.ftsMatch(words: ["#"], lastIsPrefix: false) == ["csharp", "apart", "new"])
    }

    @Test func tokenizeOptionQuotesSeparators() throws {
        #expect(RecordStore.tokenizeOption(.none) == "tokenize = 'ascii'")
        #expect(RecordStore.tokenizeOption(try TokenizerRules(setting: "+#")) == "tokenize = \"ascii tokenchars '#+'\"")
        #expect(RecordStore.tokenizeOption(try TokenizerRules(setting: "'\"€")) == "tokenize = \"ascii tokenchars '\"\"'''\"")
    }

    // MARK: Validation

    @Test func invalidValuesAreRejectedWithTheSettingsName() throws {
        let engine = try TestEngine()
        let index = try index(["separatorsToIndex": "#"], engine: engine)
        let notString = expectSearchError { try index.setSettings(["separatorsToIndex": ["#"]]) }
        #expect(notString?.kind == .invalidParameter)
        #expect(notString?.message == "separatorsToIndex: expected a string, got [\"#\"]")
        let control = expectSearchError { try index.setSettings(["separatorsToIndex": "#\u{7}"]) }
        #expect(control?.kind == .invalidParameter)
        #expect(control?.message == "separatorsToIndex: expected printable separator characters such as \"+#\", got the control character U+0007")
        // Nothing changed.
        #expect(index.settings.string("separatorsToIndex") == "#")
        #expect(try index.search("c#").objectIDs == ["csharp", "apart"])
        // Tabs and newlines are whitespace: ignored, like a space.
        try index.setSettings(["separatorsToIndex": "#\t\n"])
        #expect(try index.search("c#").objectIDs == ["csharp", "apart"])
        #expect(index.settings.withDefaults["separatorsToIndex"] == "#\t\n")
    }
}
