import SearchAPI

/// How many typos each query word may have: `typoTolerance`, `minWordSizefor1Typo`,
/// `minWordSizefor2Typos`, `allowTyposOnNumericTokens` and `disableTypoToleranceOnWords`,
/// from the request or else the settings, with Algolia's defaults. One rule for matching,
/// ranking and highlighting.
struct TypoPolicy: Hashable, Sendable {
    enum Mode: Hashable, Sendable {
        /// No typos.
        case off
        /// Typos allowed; fewer typos rank first (Algolia's `true`).
        case on
        /// Only the records with the fewest typos are returned (`"min"`).
        case min
        /// Only the records with the two lowest typo counts are returned (`"strict"`).
        case strict
    }

    var mode: Mode = .on
    var minWordSizeFor1Typo = 4
    var minWordSizeFor2Typos = 8
    var allowTyposOnNumericTokens = true
    /// Folded words that never match with a typo.
    var disabledWords: Set<String> = []

    init() {}

    init(_ parameters: SearchParameters, settings: IndexSettings, separators: TokenizerRules) throws(SearchError) {
        func value(_ name: String) -> JSONValue? { parameters.other[name] ?? settings.values[name] }
        if let tolerance = value("typoTolerance") {
            switch tolerance {
            case .bool(true), .string("true"): mode = .on
            case .bool(false), .string("false"): mode = .off
            case .string("min"): mode = .min
            case .string("strict"): mode = .strict
            default:
                throw .invalidParameter("typoTolerance", expected: "true, false, \"min\" or \"strict\"", got: tolerance.jsonString)
            }
        }
        if let size = value("minWordSizefor1Typo") {
            minWordSizeFor1Typo = try ParameterReader(name: "minWordSizefor1Typo", value: size).int(in: 0...1000)
        }
        if let size = value("minWordSizefor2Typos") {
            minWordSizeFor2Typos = try ParameterReader(name: "minWordSizefor2Typos", value: size).int(in: 0...1000)
        }
        if let allow = value("allowTyposOnNumericTokens") {
            allowTyposOnNumericTokens = try ParameterReader(name: "allowTyposOnNumericTokens", value: allow).bool()
        }
        if let words = value("disableTypoToleranceOnWords") {
            disabledWords = Set(try ParameterReader(name: "disableTypoToleranceOnWords", value: words).stringList()
                .flatMap { Tokenizer.words($0, separators: separators) })
        }
    }

    /// The typos `word` may have: 0, 1 or 2.
    func maxTypos(for word: QueryWord) -> Int {
        guard mode != .off, !word.isExact, !disabledWords.contains(word.folded) else { return 0 }
        if !allowTyposOnNumericTokens, word.folded.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return 0 }
        // Chinese, Japanese and Korean words get no typo tolerance, as on Algolia.
        if word.folded.utf8.contains(where: { $0 >= 0xE1 }), CJKSegmenter.hasCJK(word.folded) { return 0 }
        let length = word.folded.count
        if length >= minWordSizeFor2Typos { return 2 }
        if length >= minWordSizeFor1Typo { return 1 }
        return 0
    }
}
