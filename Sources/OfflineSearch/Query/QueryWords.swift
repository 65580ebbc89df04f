import SearchAPI

/// One word of the query, with how it may match.
struct QueryWord: Sendable, Hashable {
    /// Folded, as the tokenizer indexes words.
    var folded: String
    /// As the user typed it (for `matchedWords`).
    var original: String
    /// Matches any indexed word that starts with it (`queryType`), not only the word itself.
    var isPrefix: Bool
    /// Other words that count as this one with no typo: plural or singular forms
    /// (`ignorePlurals`) and single-word synonyms, also exact for the `exact` criterion.
    var alternatives: [String] = []
    /// Other words that match as this one with no typo but are not exact (the kinds that
    /// `alternativesAsExact` leaves out).
    var inexactAlternatives: [String] = []
    /// An optional word (`optionalWords`, `removeWordsIfNoResults`): records without it still
    /// match, ranked after those with it (the `words` criterion).
    var isOptional = false
    /// Inside a quoted phrase (`advancedSyntax`): matched as typed, no prefix, typo or alternative.
    var isExact = false
    /// Which quoted phrase the word belongs to (its words must be adjacent, in order).
    var phrase: Int?
    /// Synonyms that stand for this word and the `length - 1` words after it, when one side of
    /// the pair has several words (`ny` ↔ `new york`): their phrase counts as all of those words.
    var phraseSynonyms: [PhraseSynonym] = []
    /// Words that match as this one with typos they are counted with: `altCorrection1` and
    /// `altCorrection2` synonyms of the word (one-way, from the word to its corrections).
    var corrections: [Correction] = []
}

/// A word an `altCorrection` synonym lets a query word match, and the typos the match counts.
struct Correction: Sendable, Hashable {
    var word: String
    var typos: Int
}

/// A synonym of `length` query words (from the word that holds it): `words`, adjacent and in order.
struct PhraseSynonym: Sendable, Hashable {
    var length: Int
    var words: [String]
    /// Whether its matches count as exact (`alternativesAsExact` with `multiWordsSynonym`).
    var isExact: Bool
    /// The typos a match counts: 0, or 1–2 for an `altCorrection` of several words.
    var typos = 0
}

/// `alternativesAsExact`: the alternatives whose matches count as exact words.
struct ExactAlternatives: OptionSet, Sendable, Hashable {
    let rawValue: Int
    static let plurals = ExactAlternatives(rawValue: 1)
    static let singleWordSynonyms = ExactAlternatives(rawValue: 2)
    static let multiWordSynonyms = ExactAlternatives(rawValue: 4)
    /// Algolia's default: `["ignorePlurals", "singleWordSynonym"]`.
    static let `default`: ExactAlternatives = [.plurals, .singleWordSynonyms]

    init(rawValue: Int) { self.rawValue = rawValue }

    init(_ value: JSONValue) throws(SearchError) {
        let names = try ParameterReader(name: "alternativesAsExact", value: value).stringList()
        var kinds: ExactAlternatives = []
        for name in names {
            switch name {
            case "ignorePlurals": kinds.insert(.plurals)
            case "singleWordSynonym": kinds.insert(.singleWordSynonyms)
            case "multiWordsSynonym": kinds.insert(.multiWordSynonyms)
            default:
                throw .invalidParameter("alternativesAsExact", expected: "\"ignorePlurals\", \"singleWordSynonym\" or \"multiWordsSynonym\"",
                                        got: "\"\(name)\"")
            }
        }
        self = kinds
    }
}

enum QueryWords {
    /// The query's words under `queryType`. With `prefixLast`, the last word is a prefix only
    /// while the user is still typing it: a query that ends with a space or punctuation has
    /// no prefix word.
    static func parse(_ query: String, queryType: QueryType, separators: TokenizerRules) -> [QueryWord] {
        parse(query, queryType: queryType, advancedSyntax: [], separators: separators).words
    }

    /// `advancedSyntaxFeatures`.
    struct AdvancedSyntax: OptionSet, Hashable, Sendable {
        let rawValue: Int
        static let exactPhrase = AdvancedSyntax(rawValue: 1)
        static let excludeWords = AdvancedSyntax(rawValue: 2)
    }

    /// The query's words, and with `advancedSyntax` the words to exclude (`-word`); words inside
    /// `"quotes"` are exact (no prefix, typo or alternative).
    ///
    /// An excluded entry is one word, or with `separatorsToIndex` the words written together
    /// (`-c#` is `c`, `#`): a record is left out when it has them side by side. The `"` and `-`
    /// of the syntax are never query words, even when they are indexed separators.
    static func parse(_ query: String, queryType: QueryType, advancedSyntax: AdvancedSyntax,
                      separators: TokenizerRules) -> (words: [QueryWord], excluded: [[String]]) {
        let tokens = Tokenizer.tokens(query, separators: separators)
        let utf8 = Array(query.utf8)
        // Byte ranges inside double quotes (an unclosed quote runs to the end).
        var quoted: [Range<Int>] = []
        if advancedSyntax.contains(.exactPhrase) {
            var open: Int?
            for (offset, byte) in utf8.enumerated() where byte == UInt8(ascii: "\"") {
                if let start = open { quoted.append(start..<offset); open = nil } else { open = offset + 1 }
            }
            if let start = open { quoted.append(start..<utf8.count) }
        }
        /// `-` right before a word, at the start of the query or after a space.
        func isExclusionMark(at offset: Int) -> Bool {
            offset >= 0 && utf8[offset] == UInt8(ascii: "-") && (offset == 0 || utf8[offset - 1] == UInt8(ascii: " "))
        }
        var words: [QueryWord] = []
        var excluded: [[String]] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            defer { index += 1 }
            let phraseIndex = quoted.firstIndex { $0.contains(token.start) }
            let inPhrase = phraseIndex != nil
            // An indexed `"` or `-` that is the syntax's own.
            if token.end == token.start + 1 {
                let byte = utf8[token.start]
                if byte == UInt8(ascii: "\""), advancedSyntax.contains(.exactPhrase) { continue }
                if advancedSyntax.contains(.excludeWords), !inPhrase, isExclusionMark(at: token.start),
                   index + 1 < tokens.count, tokens[index + 1].start == token.end { continue }
            }
            if advancedSyntax.contains(.excludeWords), !inPhrase, isExclusionMark(at: token.start - 1) {
                var group = [token.folded]
                var end = token.end
                while index + 1 < tokens.count, tokens[index + 1].start == end {
                    index += 1
                    group.append(tokens[index].folded)
                    end = tokens[index].end
                }
                excluded.append(group)
                continue
            }
            let original = String(decoding: utf8[token.start..<token.end], as: UTF8.self)
            let isPrefix: Bool
            switch queryType {
            case .prefixAll: isPrefix = !inPhrase
            case .prefixNone: isPrefix = false
            case .prefixLast: isPrefix = !inPhrase && index == tokens.count - 1 && token.end == utf8.count
            }
            words.append(QueryWord(folded: token.folded, original: original, isPrefix: isPrefix, isExact: inPhrase, phrase: phraseIndex))
        }
        return (words, excluded)
    }

    /// Applies the language settings: drops the stop words of `removeStopWords`' languages
    /// (unless that would leave nothing or the word is still being typed), adds each word's plural forms
    /// (`ignorePlurals`) and single-word synonyms as alternatives, the synonyms where one
    /// side has several words as phrase synonyms, and `altCorrection` words as corrections;
    /// `asExact` says which alternatives count as exact.
    static func applyingLanguage(_ words: [QueryWord], ignorePlurals plurals: PluralRuleSet?, removeStopWords languages: [String],
                                 synonyms: SynonymTable, asExact: ExactAlternatives = .default) -> [QueryWord] {
        var words = words
        if !languages.isEmpty {
            let stopWords = StopWords.words(of: languages)
            let kept = words.filter { $0.isPrefix || !stopWords.contains($0.folded) }
            if !kept.isEmpty { words = kept }
        }
        words = words.map { word in
            var word = word
            guard !word.isExact else { return word }
            // The plural forms come first, already distinct and without the word: they need no
            // set (hashing them cost a search-as-you-type keystroke more than making them).
            // Synonyms that follow are checked against what is there.
            let plural = plurals?.forms(of: word.folded) ?? []
            // Into an empty list, the cached list itself (no copy of its forms for each request).
            if asExact.contains(.plurals) {
                if word.alternatives.isEmpty { word.alternatives = plural } else { word.alternatives += plural }
            } else {
                if word.inexactAlternatives.isEmpty { word.inexactAlternatives = plural } else { word.inexactAlternatives += plural }
            }
            var seen: Set<String>?
            func known() -> Set<String> {
                if let seen { return seen }
                let made = Set(plural + [word.folded])
                seen = made
                return made
            }
            func add(_ forms: [String], exact: Bool) {
                for form in forms {
                    guard known().contains(form) == false else { continue }
                    seen!.insert(form)
                    if exact { word.alternatives.append(form) } else { word.inexactAlternatives.append(form) }
                }
            }
            add(synonyms.alternatives(of: [word.folded]).filter { $0.count == 1 }.map { $0[0] },
                exact: asExact.contains(.singleWordSynonyms))
            add(synonyms.placeholders(for: word.folded), exact: asExact.contains(.singleWordSynonyms))
            let corrections = synonyms.corrections(of: word.folded)
            word.corrections = corrections.isEmpty ? [] : corrections.filter { !known().contains($0.word) }
            return word
        }
        for start in words.indices {
            for length in stride(from: 1, through: min(synonyms.longestPhrase, words.count - start), by: 1) {
                let span = words[start..<(start + length)]
                guard !span.contains(where: \.isExact) else { break }
                for phrase in synonyms.alternatives(of: span.map(\.folded)) where length > 1 || phrase.count > 1 {
                    words[start].phraseSynonyms.append(PhraseSynonym(length: length, words: phrase,
                                                                     isExact: asExact.contains(.multiWordSynonyms)))
                }
                for correction in synonyms.phraseCorrections(of: span.map(\.folded)) {
                    words[start].phraseSynonyms.append(PhraseSynonym(length: length, words: correction.words, isExact: false,
                                                                     typos: correction.typos))
                }
            }
        }
        return words
    }
}

extension QueryWords {
    /// `decompoundQuery`: a compound query word (not in quotes) also matches its
    /// parts written side by side (`fussballschuhe` finds `Fußball Schuhe`), as a phrase
    /// alternative of the word.
    static func splittingCompounds(_ words: [QueryWord], with compounds: CompoundSplitter) -> [QueryWord] {
        words.map { word in
            guard !word.isExact else { return word }
            let parts = compounds.parts(of: word.folded)
            guard parts.count >= 2 else { return word }
            var word = word
            word.phraseSynonyms.append(PhraseSynonym(length: 1, words: parts, isExact: false))
            return word
        }
    }
}

/// `removeWordsIfNoResults`.
enum WordRemoval: String, Sendable, Hashable, CaseIterable {
    case none, lastWords, firstWords, allOptional

    /// The successive word lists to try when `words` finds nothing: more and more words made
    /// optional, from the end, from the start, or all at once.
    func fallbacks(for words: [QueryWord]) -> [[QueryWord]] {
        guard words.count > 1 else { return [] }
        func optional(_ indices: some Sequence<Int>) -> [QueryWord] {
            var result = words
            for index in indices { result[index].isOptional = true }
            return result
        }
        switch self {
        case .none: return []
        case .allOptional: return [optional(words.indices)]
        case .lastWords: return (1..<words.count).map { count in optional((words.count - count)..<words.count) }
        case .firstWords: return (1..<words.count).map { count in optional(0..<count) }
        }
    }
}

/// Synonyms from the `synonyms` setting: regular ones (every phrase of a group stands for the
/// others) and one-way ones (the input stands for its synonyms, not the reverse). A phrase is one
/// word or several (`ny` ↔ `new york`). Accepts Algolia's synonym objects
/// (`{"type": "synonym", "synonyms": [...]}`, `{"type": "oneWaySynonym", "input": ..., "synonyms": [...]}`)
/// and plain groups (`[["tv", "television"]]`), and `altCorrection1` / `altCorrection2`
/// (`{"word": ..., "corrections": [...]}`: the word finds each one-word correction, counted as
/// one or two typos). Type names are read in any case (`onewaysynonym`, as older clients send).
/// Placeholders (`{"type": "placeholder", "placeholder": "<num>", "replacements": ["1", "2"]}`):
/// a record whose searchable text holds `<num>` is indexed with `placeholderTerm("num")` in place
/// of the word, and a query word equal to a replacement finds it.
struct SynonymTable: Sendable, Hashable {
    /// Folded phrase → the folded phrases that stand for it.
    private var table: [[String]: [[String]]] = [:]
    /// Folded word → its `altCorrection` words, fewest typos first.
    private var correctionTable: [String: [Correction]] = [:]
    /// Folded phrase → its `altCorrection`s where either side has several words, with their typos.
    private var phraseCorrectionTable: [[String]: [PhraseCorrection]] = [:]
    struct PhraseCorrection: Sendable, Hashable {
        var words: [String]
        var typos: Int
        init(_ words: [String], _ typos: Int) { (self.words, self.typos) = (words, typos) }
    }
    /// The most words in a phrase that has synonyms.
    private(set) var longestPhrase = 0
    /// Placeholder tags (the folded word between `<` and `>`), for the index side.
    private(set) var placeholderTags: Set<String> = []
    /// Folded replacement word → the `placeholderTerm`s it finds.
    private var placeholderTable: [String: [String]] = [:]

    init() {}

    /// The `synonyms` setting, its phrases tokenized as the index is (`c#` is two words when `#`
    /// is indexed).
    init(_ value: JSONValue?, separators: TokenizerRules) throws(SearchError) {
        guard let value else { return }
        guard case .array(let entries) = value else {
            throw .invalidParameter("synonyms", expected: "an array of synonym objects or of arrays of words", got: value.jsonString)
        }
        for entry in entries {
            switch entry {
            case .array(let group):
                add(group: group.compactMap(\.stringValue), separators: separators)
            case .object(let object):
                let phrases = object["synonyms"]?.arrayValue?.compactMap(\.stringValue) ?? []
                switch (object["type"]?.stringValue ?? "synonym").lowercased() {
                case "synonym": add(group: phrases, separators: separators)
                case "onewaysynonym":
                    guard let input = object["input"]?.stringValue else {
                        throw .invalidParameter("synonyms", expected: "an input for each oneWaySynonym", got: entry.jsonString)
                    }
                    add(from: Tokenizer.words(input, separators: separators),
                        to: phrases.map { Tokenizer.words($0, separators: separators) })
                case let type where type == "altcorrection1" || type == "altcorrection2":
                    guard let word = object["word"]?.stringValue else {
                        throw .invalidParameter("synonyms", expected: "a word for each \(type)", got: entry.jsonString)
                    }
                    let corrections = object["corrections"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    add(word: Tokenizer.words(word, separators: separators),
                        corrections: corrections.map { Tokenizer.words($0, separators: separators) },
                        typos: type == "altcorrection1" ? 1 : 2)
                case "placeholder":
                    let tag = object["placeholder"]?.stringValue ?? ""
                    let tagWords = Tokenizer.words(tag, separators: separators)
                    guard tag.hasPrefix("<"), tag.hasSuffix(">"), tagWords.count == 1,
                          tag.dropFirst().dropLast().allSatisfy({ $0.isLetter || $0.isNumber }) else {
                        throw .invalidParameter("synonyms", expected: "a placeholder of one word between < and >, such as \"<streetnumber>\"",
                                                got: entry.jsonString)
                    }
                    let replacements = object["replacements"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    add(placeholder: tagWords[0], replacements: replacements.map { Tokenizer.words($0, separators: separators) })
                default:
                    continue
                }
            default:
                throw .invalidParameter("synonyms", expected: "synonym objects or arrays of words", got: entry.jsonString)
            }
        }
    }

    private mutating func add(group: [String], separators: TokenizerRules) {
        let phrases = group.map { Tokenizer.words($0, separators: separators) }
        for phrase in phrases { add(from: phrase, to: phrases) }
    }

    private mutating func add(from input: [String], to synonyms: [[String]]) {
        guard !input.isEmpty else { return }
        let others = synonyms.filter { !$0.isEmpty && $0 != input && !(table[input] ?? []).contains($0) }
        guard !others.isEmpty else { return }
        table[input, default: []] += others
        longestPhrase = max(longestPhrase, input.count)
    }

    /// An `altCorrection`: a word to its corrections, counted as `typos` typos. A word and a
    /// correction of one word each join the typo candidates; when either has several words, the
    /// query's words side by side find the correction's words side by side, as a phrase synonym.
    private mutating func add(word: [String], corrections: [[String]], typos: Int) {
        guard !word.isEmpty else { return }
        for correction in corrections where !correction.isEmpty && correction != word && (correction.count > 1 || word.count > 1) {
            var known = phraseCorrectionTable[word] ?? []
            if let index = known.firstIndex(where: { $0.words == correction }) {
                known[index].typos = min(known[index].typos, typos)
            } else {
                known.append(PhraseCorrection(correction, typos))
            }
            phraseCorrectionTable[word] = known
            longestPhrase = max(longestPhrase, word.count)
        }
        guard word.count == 1 else { return }
        var known = correctionTable[word[0]] ?? []
        for correction in corrections where correction.count == 1 && correction[0] != word[0] {
            if let index = known.firstIndex(where: { $0.word == correction[0] }) {
                known[index].typos = min(known[index].typos, typos)
            } else {
                known.append(Correction(word: correction[0], typos: typos))
            }
        }
        correctionTable[word[0]] = known.sorted { $0.typos < $1.typos }
    }

    /// A placeholder: one-word replacements find it (a replacement of several words is not applied).
    private mutating func add(placeholder tag: String, replacements: [[String]]) {
        placeholderTags.insert(tag)
        let term = SynonymTable.placeholderTerm(tag)
        for replacement in replacements where replacement.count == 1 && !(placeholderTable[replacement[0]] ?? []).contains(term) {
            placeholderTable[replacement[0], default: []].append(term)
        }
        // A replacement of several words stands for the tag as a phrase synonym does.
        for replacement in replacements where replacement.count > 1 { add(from: replacement, to: [[term]]) }
    }

    /// The indexed term of a placeholder tag: the tag after three control characters, which no
    /// text tokenizes to and no query word reaches within two typos.
    static func placeholderTerm(_ tag: String) -> String { placeholderPrefix + tag }
    static let placeholderPrefix = "\u{1}\u{1}\u{1}"

    /// The placeholder terms a query word (folded) finds.
    func placeholders(for word: String) -> [String] { placeholderTable[word] ?? [] }

    /// The phrases that stand for `phrase` (folded words).
    func alternatives(of phrase: [String]) -> [[String]] { table[phrase] ?? [] }

    /// The `altCorrection` words of `word` (folded), with the typos each counts.
    func corrections(of word: String) -> [Correction] { correctionTable[word] ?? [] }

    /// The `altCorrection`s of `phrase` (folded words) where either side has several words.
    func phraseCorrections(of phrase: [String]) -> [PhraseCorrection] { phraseCorrectionTable[phrase] ?? [] }
}
