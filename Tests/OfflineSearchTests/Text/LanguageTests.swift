import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// `ignorePlurals`, `removeStopWords` and synonyms: other words that count as the query's.
@Suite struct LanguageTests {
    static let records: [JSONValue] = [
        ["objectID": "case", "name": "Leather case"],
        ["objectID": "cases", "name": "Two cases"],
        ["objectID": "battery", "name": "Spare battery"],
        ["objectID": "batteries", "name": "AA batteries"],
        ["objectID": "tv", "name": "Smart TV 55"],
        ["objectID": "television", "name": "Portable television"],
        ["objectID": "hat", "name": "The hat"],
        ["objectID": "mice", "name": "Wireless mice"],
    ]

    func index(_ settings: JSONObject = [:]) throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        var all: JSONObject = ["searchableAttributes": ["name"], "typoTolerance": false]
        for (key, value) in settings { all[key] = value }
        return (engine, try engine.index(settings: all, records: LanguageTests.records))
    }

    @Test func pluralsCountAsTheSameWordWhenAsked() throws {
        let (owner, plain) = try index()
        defer { withExtendedLifetime(owner) {} }
        #expect(ids(try plain.search("case ")) == ["case"])
        let (owner2, plurals) = try index(["ignorePlurals": true])
        defer { withExtendedLifetime(owner2) {} }
        #expect(ids(try plurals.search("case ")) == ["case", "cases"])
        #expect(ids(try plurals.search("cases ")) == ["case", "cases"])
        #expect(ids(try plurals.search("battery ")) == ["battery", "batteries"])
        #expect(ids(try plurals.search("batteries ")) == ["battery", "batteries"])
        #expect(ids(try plurals.search("mouse ")) == ["mice"])
        #expect(ids(try plain.search("case ", ["ignorePlurals": ["en"]])) == ["case", "cases"])
        #expect(ids(try plurals.search("case ", ["ignorePlurals": false])) == ["case"])
        // The plural form is highlighted like the word itself, and counts as exact unless
        // `alternativesAsExact` leaves `ignorePlurals` out.
        let hit = try #require(try plurals.search("case ", ["hitsPerPage": 10]).hits.first { $0["objectID"] == "cases" })
        #expect(hit["_highlightResult"]?["name"]?["value"] == "Two <em>cases</em>")
        let (owner3, mixed) = try index(["ignorePlurals": true])
        defer { withExtendedLifetime(owner3) {} }
        try mixed.saveObjects([["objectID": "mixed", "name": "Leather cases"]])
        func exactWords(_ parameters: JSONObject) throws -> JSONValue? {
            var all: JSONObject = ["getRankingInfo": true]
            for (key, value) in parameters { all[key] = value }
            return try mixed.search("leather case ", all).hits.first { $0["objectID"] == "mixed" }?["_rankingInfo"]?["nbExactWords"]
        }
        #expect(try exactWords([:]) == 2)
        #expect(try exactWords(["alternativesAsExact": []]) == 1)
        #expect(throws: SearchError.self) { try mixed.search("case", ["alternativesAsExact": ["plurals"]]) }
    }

    @Test func trueMeansTheQueryLanguages() throws {
        // Algolia: `ignorePlurals: true` and `removeStopWords: true` use `queryLanguages`; the
        // English rules apply only when it lists English (or is unset).
        // "battery" and "batteries" are an English pair only (French would pair "batterys").
        let (_, french) = try index(["ignorePlurals": true, "removeStopWords": true, "queryLanguages": ["fr"]])
        #expect(ids(try french.search("battery ")) == ["battery"])
        #expect(try french.search("the leather ").objectIDs.isEmpty)
        #expect(ids(try french.search("battery ", ["queryLanguages": ["fr", "en"]])) == ["batteries", "battery"])
        #expect(try french.search("the leather ", ["queryLanguages": ["en"]]).objectIDs == ["case"])
        // A list names the languages itself, whatever queryLanguages says.
        #expect(ids(try french.search("battery ", ["ignorePlurals": ["en"]])) == ["batteries", "battery"])
        let (_, every) = try index(["ignorePlurals": true])
        #expect(ids(try every.search("battery ", ["queryLanguages": ["de"]])) == ["battery"])
        #expect(ids(try every.search("mouse ", ["queryLanguages": ["de"]])).isEmpty)
        // Unset, queryLanguages falls back to the languages the other feature lists (Algolia):
        // removeStopWords ["de"] makes ignorePlurals true German only.
        #expect(ids(try every.search("battery ", ["removeStopWords": ["de"]])) == ["battery"])
        #expect(ids(try every.search("battery ", ["removeStopWords": ["en"]])) == ["batteries", "battery"])
        // Unset, every language with plural rules applies (Algolia's default), English among them.
        #expect(ids(try every.search("battery ")) == ["batteries", "battery"])
        #expect(ids(try every.search("mouse ")) == ["mice"])
    }

    @Test func eachLanguageDropsItsOwnStopWords() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "typoTolerance": false], records: [
            ["objectID": "fr", "name": "Sac en cuir"], ["objectID": "de", "name": "Tasche aus Leder"],
            ["objectID": "es", "name": "Bolso de cuero"], ["objectID": "ru", "name": "Кожаная сумка"],
        ])
        // "le sac" (French): "le" is French, not English.
        #expect(try index.search("le sac ").objectIDs.isEmpty)
        #expect(try index.search("le sac ", ["removeStopWords": ["fr"]]).objectIDs == ["fr"])
        #expect(try index.search("le sac ", ["removeStopWords": ["en"]]).objectIDs.isEmpty)
        // true: the query's languages; unset, every language with a list.
        #expect(try index.search("le sac ", ["removeStopWords": true, "queryLanguages": ["fr"]]).objectIDs == ["fr"])
        #expect(try index.search("le sac ", ["removeStopWords": true, "queryLanguages": ["de"]]).objectIDs.isEmpty)
        #expect(try index.search("le sac ", ["removeStopWords": true]).objectIDs == ["fr"])
        #expect(try index.search("die tasche ", ["removeStopWords": true, "queryLanguages": ["de"]]).objectIDs == ["de"])
        #expect(try index.search("el bolso ", ["removeStopWords": ["es"]]).objectIDs == ["es"])
        // Folded as the query is: "и" (Russian "and"), and an accented French stop word ("à").
        #expect(try index.search("и сумка ", ["removeStopWords": ["ru"]]).objectIDs == ["ru"])
        #expect(try index.search("à sac ", ["removeStopWords": ["fr"]]).objectIDs == ["fr"])
        #expect(StopWords.languages.count == 15)
    }

    @Test func camelCaseAttributesSplitTheirWords() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name", "code"], "typoTolerance": false], records: [
            ["objectID": "1", "name": "iPhoneCase Deluxe", "code": "ProMax"],
            ["objectID": "2", "name": "Plain case", "code": "Другое"],
        ])
        #expect(try index.search("phone ").objectIDs.isEmpty)
        try index.setSettings(["camelCaseAttributes": ["name"]])
        // "iPhoneCase" is i, phone and case in `name`; `code` is not split.
        #expect(try index.search("phone ").objectIDs == ["1"])
        #expect(Set(try index.search("case ").objectIDs) == ["1", "2"])
        #expect(try index.search("max ").objectIDs.isEmpty)
        let hit = try #require(try index.search("phone case ").hits.first)
        // Matched words that touch share one pair of tags, as with indexed separators.
        #expect(hit["_highlightResult"]?["name"]?["value"] == "i<em>PhoneCase</em> Deluxe")
        // Written after the setting, through a write's own segment, and in any script.
        try index.saveObjects([["objectID": "3", "name": "кожаныйЧехол"]])
        #expect(try index.search("чехол ").objectIDs == ["3"])
        try index.setSettings(["camelCaseAttributes": []])
        #expect(try index.search("phone ").objectIDs.isEmpty)
    }

    @Test func stopWordsAreDroppedFromTheQueryWhenAsked() throws {
        let (_, plain) = try index()
        #expect(try plain.search("the leather ").objectIDs.isEmpty)
        let (_, stopping) = try index(["removeStopWords": true])
        #expect(try stopping.search("the leather ").objectIDs == ["case"])
        // A query of stop words only is kept as it is.
        #expect(try stopping.search("the ").objectIDs == ["hat"])
    }

    @Test func synonymsFromSettingsAndTheSwiftAPI() throws {
        let (owner, groups) = try index(["synonyms": [["tv", "television"]]])
        defer { withExtendedLifetime(owner) {} }
        #expect(ids(try groups.search("tv ")) == ["tv", "television"])
        #expect(ids(try groups.search("television ")) == ["tv", "television"])
        #expect(ids(try groups.search("tv ", ["synonyms": false])) == ["tv"])

        let (owner2, index) = try index()
        defer { withExtendedLifetime(owner2) {} }
        try index.saveSynonyms([["objectID": "one-way", "type": "oneWaySynonym", "input": "portable", "synonyms": ["smart"]]])
        #expect(ids(try index.search("portable ")) == ["television", "tv"])
        #expect(ids(try index.search("smart ")) == ["tv"])   // one way only
        try index.saveSynonyms([["objectID": "one-way", "type": "synonym", "synonyms": ["spare", "aa"]]])
        #expect(index.settings.values["synonyms"]?.arrayValue?.count == 1)   // replaced by objectID
        #expect(ids(try index.search("spare ")) == ["battery", "batteries"])
        let hit = try #require(try index.search("spare ").hits.first { $0["objectID"] == "batteries" })
        #expect(hit["_highlightResult"]?["name"]?["value"] == "<em>AA</em> batteries")
        #expect(throws: SearchError.self) { try index.setSettings(["synonyms": "tv=television"]) }
    }

    /// Synonyms with several words on one side: the phrase (adjacent, in order) stands for the
    /// word, and the word for every word of the phrase.
    @Test func multiWordSynonyms() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "typoTolerance": false,
                                                "customRanking": ["asc(rank)"],
                                                "synonyms": [["objectID": "ny", "type": "synonym", "synonyms": ["NY", "New York"]],
                                                             ["objectID": "pc", "type": "oneWaySynonym", "input": "pc",
                                                              "synonyms": ["personal computer"]]]],
                                     records: [
                                         ["objectID": "phrase", "name": "New York pizza", "rank": 1],
                                         ["objectID": "short", "name": "NY bagels", "rank": 2],
                                         ["objectID": "apart", "name": "York of new potatoes", "rank": 3],
                                         ["objectID": "computer", "name": "A personal computer", "rank": 4],
                                         ["objectID": "pc", "name": "Gaming PC", "rank": 5],
                                     ])
        #expect(ids(try index.search("ny ")) == ["phrase", "short"])
        #expect(ids(try index.search("new york ")) == ["phrase", "short", "apart"])
        #expect(ids(try index.search("new york pizza ")) == ["phrase"])
        #expect(ids(try index.search("ny pizza ")) == ["phrase"])
        #expect(ids(try index.search("ny bagels ")) == ["short"])
        #expect(ids(try index.search("new york bagels ")) == ["short"])
        #expect(ids(try index.search("pc ")) == ["computer", "pc"])
        #expect(ids(try index.search("personal computer ")) == ["computer"])   // one way only
        #expect(ids(try index.search("ny ", ["synonyms": false])) == ["short"])
        // The synonym's match counts as the words themselves, with no typo, and is highlighted; it
        // is exact only when `alternativesAsExact` has `multiWordsSynonym` (not by default).
        let hits = try index.search("new york ", ["getRankingInfo": true]).hits
        let short = try #require(hits.first { $0["objectID"] == "short" })
        #expect(short["_rankingInfo"]?["nbTypos"] == 0)
        #expect(short["_rankingInfo"]?["nbExactWords"] == 0)
        #expect(short["_highlightResult"]?["name"]?["value"] == "<em>NY</em> bagels")
        let asExact = try index.search("new york ", ["getRankingInfo": true, "alternativesAsExact": ["multiWordsSynonym"]]).hits
        #expect(asExact.first { $0["objectID"] == "short" }?["_rankingInfo"]?["nbExactWords"] == 2)
        let phrase = try #require(try index.search("ny ").hits.first { $0["objectID"] == "phrase" })
        #expect(phrase["_highlightResult"]?["name"]?["value"] == "<em>New</em> <em>York</em> pizza")
        // Adjacent phrase matches rank before words far apart.
        #expect(try index.search("new york ").objectIDs.last == "apart")
    }

    /// `altCorrection1` / `altCorrection2`: the word finds its corrections, one way, counted as
    /// one or two typos; with a multi-word regular synonym in the same query, as in the synonym
    /// tests of Algolia's API clients (`Howard Street` with `street` → `st`, `SF` ↔ `San Francisco`).
    @Test func altCorrectionsCountAsTyposAndCombineWithPhraseSynonyms() throws {
        let engine = try TestEngine()
        let synonyms: JSONValue = [
            ["objectID": "sf", "type": "synonym", "synonyms": ["SF", "San Francisco"]],
            ["objectID": "street", "type": "altCorrection1", "word": "street", "corrections": ["st"]],
            ["objectID": "boulevard", "type": "altcorrection2", "word": "Boulevard", "corrections": ["Blvd", "bd"]],
        ]
        let index = try engine.index(settings: ["searchableAttributes": ["address"], "customRanking": ["asc(rank)"], "synonyms": synonyms],
                                     records: [
                                         ["objectID": "st", "address": "Howard St San Francisco", "rank": 1],
                                         ["objectID": "street", "address": "Howard Street SF", "rank": 2],
                                         ["objectID": "mission", "address": "Mission Street Oakland", "rank": 3],
                                         ["objectID": "blvd", "address": "Geary Blvd San Francisco", "rank": 4],
                                     ])
        // The record with the word itself first (no typo), then the correction (one typo).
        let howard = try index.search("howard street sf", ["getRankingInfo": true])
        #expect(howard.objectIDs == ["street", "st"])
        let corrected = try #require(howard.hits.last)
        #expect(corrected["_rankingInfo"]?["nbTypos"] == 1)
        #expect(corrected["_highlightResult"]?["address"]?["value"] == "<em>Howard</em> <em>St</em> <em>San</em> <em>Francisco</em>")
        // One way: `st` does not find `street`; the regular synonym works both ways.
        #expect(try index.search("howard st san francisco").objectIDs == ["st"])
        #expect(try index.search("howard st sf").objectIDs == ["st"])
        // altCorrection2: two typos; type names in any case.
        let geary = try index.search("geary boulevard", ["getRankingInfo": true])
        #expect(geary.objectIDs == ["blvd"])
        #expect(geary.hits.first?["_rankingInfo"]?["nbTypos"] == 2)
        // Without synonyms, only the words as written.
        #expect(try index.search("howard street sf", ["synonyms": false]).objectIDs == ["street"])
        #expect(try index.search("geary boulevard", ["synonyms": false]).objectIDs == [])
    }

    /// Placeholders: a record holding `<tag>` matches a query word equal to any replacement, in
    /// the base and in a delta segment alike; the tag as text and other words do not.
    @Test func placeholdersMatchTheirReplacements() throws {
        let engine = try TestEngine()
        let synonyms: JSONValue = [
            ["objectID": "number", "type": "placeholder", "placeholder": "<streetnumber>", "replacements": ["1", "2", "3", "10"]],
        ]
        let index = try engine.index(settings: ["searchableAttributes": ["address"], "customRanking": ["asc(rank)"], "synonyms": synonyms],
                                     records: [
                                         ["objectID": "main", "address": "<streetnumber> Main Street", "rank": 1],
                                         ["objectID": "second", "address": "2 Main Street", "rank": 2],
                                         ["objectID": "other", "address": "<housenumber> Main Street", "rank": 3],
                                         ["objectID": "text", "address": "streetnumber Main Street", "rank": 4],
                                     ])
        #expect(try index.search("2 main street").objectIDs == ["main", "second"])
        #expect(try index.search("10 main").objectIDs == ["main"])
        // The placeholder is highlighted, with its brackets, as the word it stood for.
        let highlighted = try index.search("10 main").hits.first?["_highlightResult"]?["address"]
        #expect(highlighted?["value"] == "<em><streetnumber></em> <em>Main</em> Street")
        #expect(highlighted?["matchedWords"] == ["10", "main"])
        #expect(try index.search("4 main").objectIDs == [])
        // The tag is not a word of the record; without synonyms, no replacement either.
        #expect(try index.search("streetnumber").objectIDs == ["text"])
        #expect(try index.search("2 main street", ["synonyms": false]).objectIDs == ["second"])
        // A record written since the index was derived whole (a delta segment) matches the same way.
        try index.saveObjects([["objectID": "new", "address": "<streetnumber> Main Street, Springfield", "rank": 0]])
        #expect(index.deltaCount > 0)
        #expect(try index.search("3 main street").objectIDs == ["new", "main"])
        // Removing the placeholder derives the index again: the tag is a plain word.
        try index.setSettings(["synonyms": []])
        #expect(try index.search("3 main street").objectIDs == [])
        #expect(try index.search("streetnumber").objectIDs == ["new", "main", "text"])
    }

    /// An `altCorrection` of several words: the phrase, side by side, found with the typos the
    /// correction counts, so it ranks after the word itself.
    @Test func altCorrectionsOfSeveralWords() throws {
        let engine = try TestEngine()
        let synonyms: JSONValue = [
            ["objectID": "sf", "type": "altCorrection1", "word": "sf", "corrections": ["san francisco"]],
            ["objectID": "la", "type": "altCorrection2", "word": "la", "corrections": ["los angeles"]],
        ]
        let index = try engine.index(settings: ["searchableAttributes": ["city"], "synonyms": synonyms], records: [
            ["objectID": "phrase", "city": "San Francisco"],
            ["objectID": "apart", "city": "San Jose, near Francisco Bay"],
            ["objectID": "word", "city": "SF"],
            ["objectID": "angeles", "city": "Los Angeles"],
        ])
        let response = try index.search("sf", ["getRankingInfo": true])
        #expect(response.objectIDs == ["word", "phrase"])
        #expect(response.hits.map { $0["_rankingInfo"]?["nbTypos"]?.intValue } == [0, 1])
        #expect(response.hits[1]["_highlightResult"]?["city"]?["value"] == "<em>San</em> <em>Francisco</em>")
        let two = try index.search("la", ["getRankingInfo": true])
        #expect(two.objectIDs == ["angeles"])
        #expect(two.hits.first?["_rankingInfo"]?["nbTypos"]?.intValue == 2)
        // One way: the phrase does not find the word.
        #expect(try index.search("san francisco").objectIDs == ["phrase", "apart"])
        // A word of several words: the query's words side by side find the correction.
        try index.saveSynonyms([["objectID": "nyc", "type": "altCorrection1", "word": "big apple", "corrections": ["los angeles"]]])
        let phrase = try index.search("big apple", ["getRankingInfo": true])
        #expect(phrase.objectIDs == ["angeles"])
        #expect(phrase.hits.first?["_rankingInfo"]?["nbTypos"]?.intValue == 1)   // once, for the phrase
        #expect(try index.search("apple big").objectIDs == [])
    }

    /// A replacement of several words finds the placeholder as the words side by side.
    @Test func placeholderReplacementsOfSeveralWords() throws {
        let engine = try TestEngine()
        let synonyms: JSONValue = [
            ["objectID": "number", "type": "placeholder", "placeholder": "<num>", "replacements": ["twenty one", "21"]],
        ]
        let index = try engine.index(settings: ["searchableAttributes": ["address"], "synonyms": synonyms],
                                     records: [
                                         ["objectID": "tag", "address": "<num> Jump Street"],
                                         ["objectID": "words", "address": "Twenty Jump Street, one way"],
                                     ])
        // "words" holds the three words too, apart: the placeholder, adjacent by proximity, first.
        #expect(try index.search("twenty one jump").objectIDs == ["tag", "words"])
        #expect(try index.search("21 jump").objectIDs == ["tag"])
        // Out of order, the words are not the replacement.
        #expect(try index.search("one twenty jump").objectIDs == ["words"])
        let hit = try index.search("twenty one jump").hits.first
        #expect(hit?["_highlightResult"]?["address"]?["value"] == "<em><num></em> <em>Jump</em> Street")
    }

    @Test(arguments: ["streetnumber", "<street number>", "<>", "<a-b>"])
    func aPlaceholderIsOneWordBetweenAngleBrackets(_ placeholder: String) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["address"]], records: [])
        let error = expectSearchError {
            try index.saveSynonyms([["objectID": "p", "type": "placeholder", "placeholder": .string(placeholder), "replacements": ["1"]]])
        }
        #expect(error?.message.contains("a placeholder of one word between < and >") == true)
    }
}
