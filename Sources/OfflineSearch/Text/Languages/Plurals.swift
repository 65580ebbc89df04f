/// The other forms of a word that `ignorePlurals` counts as the same word, by language (ISO 639-1
/// code): singular and plural, and for the languages that decline their nouns the common case
/// endings (Algolia's "plurals and other declensions"). Rules are written with the language's
/// letters and folded as words are when first used.
///
/// English keeps its own rules (`EnglishLanguage.pluralForms`). The other languages pair endings
/// (a singular ending and the plural or declined ending that replaces it, both folded: lowercase,
/// no diacritics, so German umlauts and Polish or Scandinavian letters already compare by their
/// base letter), plus a short list of irregular nouns per language. A rule works both ways: a
/// word ending in the plural ending gets the singular, and the other way round. A form that no
/// record contains finds nothing, so a rule that over-generates costs a lookup, not a match; a
/// form that happens to be another word (German `rat` and `raten`) is where these rules and
/// Algolia's dictionaries differ (README, "Differences from Algolia").
enum Plurals {
    /// The languages with plural rules, in the order they are listed in errors and docs.
    static let languages: [String] = ["da", "de", "en", "es", "fi", "fr", "it", "nl", "no", "pl", "pt", "ru", "sv"]

    /// The other forms of `word` (folded) in these languages; the word itself is not among them.
    static func forms(of word: String, languages: [String]) -> [String] {
        PluralRuleSet.forLanguages(languages)?.forms(of: word) ?? []
    }

    /// Each language's rules beside English.
    static let rules: [String: PluralRules] = [
        "da": PluralRules(
            endings: [("", "e"), ("", "er"), ("", "r"), ("", "en"), ("", "et"), ("", "ne"), ("", "ene"), ("", "erne"), ("", "rne")],
            irregular: [("mand", "maend"), ("barn", "born"), ("bog", "boger"), ("fod", "fodder"), ("tand", "taender"),
                        ("hand", "haender"), ("nat", "naetter"), ("bonde", "bonder"), ("gas", "gaes"), ("and", "aender")]),
        "de": PluralRules(
            endings: [("", "e"), ("", "en"), ("", "n"), ("", "er"), ("", "ern"), ("", "s"), ("", "es"), ("", "ens"),
                      ("in", "innen"), ("um", "en"), ("um", "a"), ("us", "en"), ("a", "en"), ("a", "as")],
            irregular: [("kaufmann", "kaufleute"), ("seemann", "seeleute"), ("atlas", "atlanten"), ("lexikon", "lexika"),
                        ("thema", "themen"), ("praxis", "praxen"), ("visum", "visa")]),
        "es": PluralRules(
            endings: [("", "s"), ("", "es"), ("z", "ces")],
            irregular: [("caracter", "caracteres"), ("regimen", "regimenes"), ("especimen", "especimenes")]),
        "fi": PluralRules(
            endings: [("", "t"), ("nen", "set"), ("nen", "sen"), ("i", "et"), ("e", "eet"), ("as", "aat"), ("in", "imet"),
                      ("us", "ukset"), ("os", "okset"), ("ton", "ttomat"),
                      ("kka", "kat"), ("ppa", "pat"), ("tta", "tat"), ("kki", "kit"), ("ppi", "pit"), ("tti", "tit"),
                      ("kko", "kot"), ("ppo", "pot"), ("tto", "tot"), ("kku", "kut"), ("ppu", "put"), ("ttu", "tut"),
                      ("nta", "nnat"), ("nto", "nnot"), ("lta", "llat"), ("rta", "rrat"), ("mpi", "mmat"), ("nki", "ngit")],
            irregular: [("mies", "miehet"), ("lapsi", "lapset"), ("vesi", "vedet"), ("kasi", "kadet"), ("susi", "sudet"),
                        ("uusi", "uudet"), ("kuusi", "kuuset")]),
        "fr": PluralRules(
            endings: [("", "s"), ("au", "aux"), ("eu", "eux"), ("ou", "oux"), ("al", "aux"), ("ail", "aux")],
            irregular: [("oeil", "yeux"), ("ciel", "cieux"), ("aieul", "aieux"), ("monsieur", "messieurs"),
                        ("madame", "mesdames"), ("mademoiselle", "mesdemoiselles"), ("bonhomme", "bonshommes")]),
        "it": PluralRules(
            endings: [("o", "i"), ("a", "e"), ("e", "i"), ("a", "i"), ("o", "a"), ("io", "i"), ("ca", "che"), ("ga", "ghe"),
                      ("co", "chi"), ("go", "ghi"), ("cia", "ce"), ("gia", "ge")],
            irregular: [("uomo", "uomini"), ("dio", "dei"), ("bue", "buoi"), ("moglie", "mogli"), ("ala", "ali"),
                        ("arma", "armi"), ("tempio", "templi")]),
        "nl": PluralRules(
            endings: [("", "en"), ("", "s"), ("", "n"), ("", "je"), ("", "jes"), ("", "tje"), ("", "tjes"),
                      ("f", "ven"), ("s", "zen"), ("heid", "heden"), ("um", "a")]
                + PluralRules.dutchSpellingChanges,
            irregular: [("kind", "kinderen"), ("ei", "eieren"), ("lid", "leden"), ("stad", "steden"), ("schip", "schepen"),
                        ("blad", "bladeren"), ("kalf", "kalveren"), ("lam", "lammeren"), ("volk", "volkeren"),
                        ("rund", "runderen"), ("gelid", "gelederen"), ("koe", "koeien"), ("vlo", "vlooien")]),
        "no": PluralRules(
            endings: [("", "er"), ("", "ene"), ("", "en"), ("", "et"), ("", "a"), ("", "r"), ("", "ne"), ("e", "er")],
            irregular: [("mann", "menn"), ("fot", "fotter"), ("hand", "hender"), ("tann", "tenner"), ("natt", "netter"),
                        ("bonde", "bonder"), ("and", "ender"), ("gas", "gjess"), ("bror", "brodre"), ("far", "fedre"),
                        ("mor", "modre")]),
        "pl": PluralRules(
            endings: [("", "y"), ("", "i"), ("", "e"), ("", "owie"), ("", "ow"), ("", "ami"), ("", "ach"), ("", "om"),
                      ("", "a"), ("", "u"), ("a", "y"), ("a", "i"), ("a", "e"), ("a", "ami"), ("a", "ach"), ("a", "om"),
                      ("a", "ie"), ("o", "a"), ("e", "a"), ("um", "a"), ("ek", "ki"), ("iec", "cy"), ("k", "ki"), ("g", "gi")],
            irregular: [("czlowiek", "ludzie"), ("rok", "lata"), ("dziecko", "dzieci"), ("oko", "oczy"), ("ucho", "uszy"),
                        ("tydzien", "tygodnie"), ("reka", "rece"), ("pies", "psy"), ("brat", "bracia"), ("ksiadz", "ksieza")]),
        "pt": PluralRules(
            endings: [("", "s"), ("ao", "oes"), ("ao", "aes"), ("al", "ais"), ("el", "eis"), ("ol", "ois"), ("ul", "uis"),
                      ("il", "is"), ("il", "eis"), ("m", "ns"), ("r", "res"), ("z", "zes"), ("s", "ses")],
            irregular: [("mal", "males"), ("consul", "consules")]),
        "ru": PluralRules(
            endings: [("а", "ы"), ("а", "и"), ("я", "и"), ("ь", "и"), ("о", "а"), ("е", "я"), ("й", "и"), ("ие", "ия"),
                      ("", "ы"), ("", "и"), ("", "а"), ("ок", "ки"), ("ец", "цы"), ("ень", "ни"),
                      ("", "ов"), ("", "ам"), ("", "ами"), ("", "ах"), ("", "у"), ("", "ом"), ("", "е"),
                      ("а", "у"), ("а", "ой"), ("а", "е"), ("а", "ам"), ("а", "ами"), ("а", "ах"),
                      ("я", "ю"), ("я", "ей"), ("я", "ям"), ("я", "ями"), ("я", "ях"), ("ь", "ей"), ("ь", "ям"), ("ь", "ями"),
                      ("ь", "ях"), ("й", "ев"), ("о", "ам"), ("о", "ами"), ("о", "ах")],
            irregular: [("человек", "люди"), ("ребёнок", "дети"), ("друг", "друзья"), ("брат", "братья"),
                        ("стул", "стулья"), ("лист", "листья"), ("сын", "сыновья"), ("мать", "матери"), ("дочь", "дочери"),
                        ("время", "времена"), ("имя", "имена"), ("глаз", "глаза"), ("дом", "дома")]),
        "sv": PluralRules(
            endings: [("", "ar"), ("", "or"), ("", "er"), ("", "r"), ("", "n"), ("", "en"), ("", "et"), ("", "na"),
                      ("", "arna"), ("", "orna"), ("", "erna"), ("", "s"), ("a", "or"), ("a", "orna"), ("e", "ar"),
                      ("e", "arna"), ("el", "lar"), ("er", "rar"), ("on", "nar")],
            irregular: [("mus", "moss"), ("gas", "gass"), ("fot", "fotter"), ("bok", "bocker"), ("bonde", "bonder"),
                        ("natt", "natter"), ("tand", "tander"), ("broder", "broder"), ("bror", "broder"), ("ko", "kor")]),
    ]
}

/// The plural rules of a set of languages, resolved once (an index's settings hold one), with the
/// forms already made for each word: search-as-you-type asks for the same words keystroke after
/// keystroke. A set is shared by every request naming the same languages.
final class PluralRuleSet: Sendable {
    /// The languages with rules, in the order given.
    let languages: [String]
    private let english: Bool
    private let rules: [PluralRules]
    private let made = LockedValue<[String: [String]]>([:])

    private init(languages: [String]) {
        self.languages = languages
        english = languages.contains("en")
        rules = languages.compactMap { Plurals.rules[$0] }
    }

    /// The set for these languages (nil when none has rules), made once per list.
    static func forLanguages(_ languages: [String]) -> PluralRuleSet? {
        let known = languages.filter { $0 == "en" || Plurals.rules[$0] != nil }
        guard !known.isEmpty else { return nil }
        if let set = sets.value[known] { return set }
        let set = PluralRuleSet(languages: known)
        sets.modify { $0[known] = $0[known] ?? set }
        return sets.value[known] ?? set
    }

    private static let sets = LockedValue<[[String]: PluralRuleSet]>([:])

    /// The other forms of `word` (folded) in these languages; the word itself is not among them.
    func forms(of word: String) -> [String] {
        guard word.utf8.count >= 2, Self.isLetters(word) else { return [] }
        // Looked up in place: `made.value` would copy the dictionary out (a retain and a release).
        if let known = made.modify({ $0[word] }) { return known }
        var forms: [String] = []
        // Room for every form up front: with all thirteen languages a word has dozens, and a set
        // grown one doubling at a time hashed each of them again (most words a query has are new
        // to this cache: the prefix typed grows a letter each keystroke).
        var seen = Set<String>(minimumCapacity: 128)
        seen.insert(word)
        if english {
            for form in EnglishLanguage.pluralForms(of: word) where seen.insert(form).inserted { forms.append(form) }
        }
        for language in rules { language.appendForms(of: word, to: &forms, seen: &seen) }
        made.modify { made in
            if made.count >= 20_000 { made.removeAll(keepingCapacity: true) }
            made[word] = forms
        }
        return forms
    }

    /// Letters only (no digits): ASCII checked byte by byte, the rest by Unicode.
    private static func isLetters(_ word: String) -> Bool {
        if word.utf8.isASCII { return word.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A } }
        return word.unicodeScalars.count >= 2 && word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic }
    }
}

/// One language's plural rules: endings paired singular → plural (both folded), and irregular
/// nouns. See `Plurals`. Endings are compared as UTF-8 bytes (an ending starts with a lead byte,
/// so a byte suffix is a letter suffix), and a form is made with one allocation.
struct PluralRules: Sendable {
    typealias Ending = (singular: String, plural: String)

    /// Grouped by the last byte of the ending each is matched by (indexed by that byte), so a
    /// word tries only the endings it can have: `(ending to match, ending to put in its place)`.
    private let byLastByte: [[(match: [UInt8], replacement: [UInt8])]]
    /// Endings matched by every word (an empty singular ending): the replacement is appended.
    private let appended: [[UInt8]]
    private let irregular: [String: [String]]

    /// The shortest word the endings apply to (shorter ones get only their irregular forms).
    static let minimumLength = 3

    init(endings: [Ending], irregular: [(String, String)]) {
        // Folded as words are (`й` is `и`), so a rule written with its letters meets the words.
        func fold(_ text: String) -> String { Tokenizer.words(text, separators: .none).joined() }
        var byLastByte = [[(match: [UInt8], replacement: [UInt8])]](repeating: [], count: 256)
        var appended: [[UInt8]] = []
        for ending in endings where fold(ending.singular) != fold(ending.plural) {
            let singular = Array(fold(ending.singular).utf8)
            let plural = Array(fold(ending.plural).utf8)
            if let last = singular.last {
                byLastByte[Int(last)].append((singular, plural))
            } else {
                appended.append(plural)
            }
            if let last = plural.last { byLastByte[Int(last)].append((plural, singular)) }
        }
        self.byLastByte = byLastByte
        self.appended = appended
        var table: [String: [String]] = [:]
        for (singular, plural) in irregular.map({ (fold($0.0), fold($0.1)) }) where singular != plural {
            table[singular, default: []].append(plural)
            table[plural, default: []].append(singular)
        }
        self.irregular = table
    }

    /// Appends to `forms` the forms the rules give `word` (folded) that are not in `seen`, in
    /// the rules' order (irregular forms, then endings), and adds them to `seen`. `seen` holds
    /// the word itself, so it is never among them.
    func appendForms(of word: String, to forms: inout [String], seen: inout Set<String>) {
        for form in irregular[word] ?? [] where seen.insert(form).inserted { forms.append(form) }
        guard word.unicodeScalars.count >= Self.minimumLength else { return }
        var word = word
        word.withUTF8 { bytes in
            func add(stemLength: Int, _ ending: [UInt8]) {
                let form = String(unsafeUninitializedCapacity: stemLength + ending.count) { buffer in
                    _ = buffer.initialize(fromContentsOf: bytes[..<stemLength])
                    _ = buffer[stemLength...].initialize(fromContentsOf: ending)
                    return stemLength + ending.count
                }
                if seen.insert(form).inserted { forms.append(form) }
            }
            for ending in appended { add(stemLength: bytes.count, ending) }
            guard let last = bytes.last else { return }
            for (match, replacement) in byLastByte[Int(last)] where bytes.count > match.count
                && bytes[(bytes.count - match.count)...].elementsEqual(match) {
                add(stemLength: bytes.count - match.count, replacement)
            }
        }
    }

    /// Dutch doubles the consonant after a short vowel (`kat`, `katten`) and writes a long vowel
    /// once before an ending that starts with a vowel (`boom`, `bomen`; `huis` keeps its `ui`).
    static let dutchSpellingChanges: [Ending] = {
        let consonants = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t"]
        var endings: [Ending] = []
        for consonant in consonants {
            endings.append((consonant, consonant + consonant + "en"))
            for vowel in ["a", "e", "o", "u"] {
                let ending = consonant == "f" ? "ven" : consonant == "s" ? "zen" : consonant + "en"
                endings.append((vowel + vowel + consonant, vowel + ending))
            }
        }
        return endings
    }()
}
