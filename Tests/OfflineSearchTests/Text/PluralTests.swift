import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// `ignorePlurals` beyond English: for each language, a singular finds its plural (or declined
/// form) and back, regular and irregular, only with that language on.
@Suite struct PluralTests {
    /// (language, singular as written, plural as written)
    static let pairs: [(String, String, String)] = [
        ("fr", "cheval", "chevaux"), ("fr", "chapeau", "chapeaux"), ("fr", "œil", "yeux"), ("fr", "sac", "sacs"),
        ("de", "Hemd", "Hemden"), ("de", "Mann", "Männer"), ("de", "Lehrerin", "Lehrerinnen"), ("de", "Museum", "Museen"),
        ("es", "canción", "canciones"), ("es", "luz", "luces"), ("es", "zapato", "zapatos"),
        ("it", "libro", "libri"), ("it", "casa", "case"), ("it", "amico", "amici"), ("it", "uomo", "uomini"),
        ("pt", "pão", "pães"), ("pt", "animal", "animais"), ("pt", "homem", "homens"),
        ("nl", "kat", "katten"), ("nl", "boom", "bomen"), ("nl", "huis", "huizen"), ("nl", "kind", "kinderen"),
        ("ru", "книга", "книги"), ("ru", "стол", "столы"), ("ru", "окно", "окна"), ("ru", "человек", "люди"),
        ("sv", "flicka", "flickor"), ("sv", "bil", "bilar"), ("sv", "mus", "möss"),
        ("da", "bil", "biler"), ("da", "mand", "mænd"), ("da", "barn", "børn"),
        ("no", "bil", "biler"), ("no", "mann", "menn"), ("no", "tann", "tenner"),
        ("fi", "talo", "talot"), ("fi", "nainen", "naiset"), ("fi", "kauppa", "kaupat"), ("fi", "lapsi", "lapset"),
        ("pl", "kot", "koty"), ("pl", "książka", "książki"), ("pl", "człowiek", "ludzie"), ("pl", "okno", "okna"),
        ("en", "battery", "batteries"), ("en", "mouse", "mice"),
    ]

    @Test(arguments: PluralTests.pairs.indices)
    func aSingularFindsItsPluralAndBack(_ index: Int) throws {
        let (language, singular, plural) = Self.pairs[index]
        let engine = try TestEngine()
        let searchIndex = try engine.index(settings: ["searchableAttributes": ["name"], "typoTolerance": false,
                                                      "ignorePlurals": true, "queryLanguages": [.string(language)]],
                                           records: [["objectID": "singular", "name": .string(singular)],
                                                     ["objectID": "plural", "name": .string(plural)]])
        #expect(ids(try searchIndex.search(singular + " ")) == ["singular", "plural"], "\(language): \(singular) → \(plural)")
        #expect(ids(try searchIndex.search(plural + " ")) == ["singular", "plural"], "\(language): \(plural) → \(singular)")
        // Off, each finds only itself.
        #expect(ids(try searchIndex.search(singular + " ", ["ignorePlurals": false])) == ["singular"])
        #expect(ids(try searchIndex.search(plural + " ", ["ignorePlurals": false])) == ["plural"])
        // The plural is highlighted as the word searched for.
        let hit = try #require(try searchIndex.search(singular + " ").hits.first { $0["objectID"] == "plural" })
        #expect(hit["_highlightResult"]?["name"]?["value"] == .string("<em>\(plural)</em>"))
    }

    @Test func anIrregularFormAppliesOnlyInItsLanguage() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "typoTolerance": false, "ignorePlurals": true],
                                     records: [["objectID": "oeil", "name": "œil de bœuf"], ["objectID": "yeux", "name": "yeux bleus"],
                                               ["objectID": "ludzie", "name": "ludzie"]])
        #expect(ids(try index.search("oeil ", ["queryLanguages": ["fr"]])) == ["oeil", "yeux"])
        #expect(ids(try index.search("oeil ", ["queryLanguages": ["en"]])) == ["oeil"])
        #expect(ids(try index.search("człowiek ", ["queryLanguages": ["pl"]])) == ["ludzie"])
        #expect(ids(try index.search("człowiek ", ["queryLanguages": ["ru"]])).isEmpty)
        // A list in ignorePlurals names the languages itself.
        #expect(ids(try index.search("yeux ", ["ignorePlurals": ["fr"], "queryLanguages": ["en"]])) == ["oeil", "yeux"])
    }

    @Test func formsAreFoldedAndNeverTheWordItself() {
        for language in Plurals.languages {
            for word in ["hemd", "cheval", "книга", "ksiazka", "talo", "a", "x1"] {
                let forms = Plurals.forms(of: word, languages: [language])
                #expect(!forms.contains(word))
                #expect(Set(forms).count == forms.count, "\(language) \(word): \(forms)")
                for form in forms { #expect(Tokenizer.words(form, separators: .none) == [form], "\(language) \(word) → \(form)") }
            }
        }
        // Words with digits or one letter have no forms.
        #expect(Plurals.forms(of: "x1", languages: Plurals.languages).isEmpty)
        #expect(Plurals.forms(of: "a", languages: Plurals.languages).isEmpty)
        // German: Algolia's own example, hemd → hemde, hemds, hemden, hemdes.
        #expect(Set(["hemde", "hemds", "hemden", "hemdes"]).isSubset(of: Plurals.forms(of: "hemd", languages: ["de"])))
    }

    @Test func polishStopWordsOnlyWithPolish() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "typoTolerance": false],
                                     records: [["objectID": "kot", "name": "czarny kot"]])
        #expect(ids(try index.search("jest kot ")).isEmpty)
        #expect(ids(try index.search("jest kot ", ["removeStopWords": ["pl"]])) == ["kot"])
        #expect(ids(try index.search("jest kot ", ["removeStopWords": ["ru"]])).isEmpty)
        #expect(StopWords.languages.contains("pl"))
    }
}
