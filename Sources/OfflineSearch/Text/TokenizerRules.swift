import SearchAPI

/// What the index tells its one tokenizer, beside the defaults, so records, queries, highlighting
/// and facet-value search split and fold text the same way:
///
/// - `separatorsToIndex`: separators (characters that are neither letters nor digits) kept as a
///   word of their own instead of dropped. With `"+#"`, `C# and C++` is the words
///   `c # and c + +`, and the query `c#` the words `c #`. Letters, digits and combining marks in
///   the setting are ignored (they already belong to words), and so is whitespace (it only ever
///   separates words). Control characters are rejected.
/// - `camelCaseAttributes`: camel-case words split, per attribute (`splittingCamelCase`).
/// - `keepDiacriticsOnCharacters` and `customNormalization`: characters folded otherwise than
///   by default (`CharacterFolding`), in both cases.
///
/// ```swift
/// let rules = try TokenizerRules(setting: "+#")
/// Tokenizer.words("C++", separators: rules)  // ["c", "+", "+"]
/// ```
struct TokenizerRules: Sendable, Hashable {
    /// ASCII separators, one bit per code point: `low` holds 0–63, `high` 64–127. One shift
    /// and mask per separator byte keeps the tokenizer's ASCII path as fast as without them.
    private(set) var low: UInt64 = 0
    private(set) var high: UInt64 = 0
    /// Separators beyond ASCII.
    private(set) var nonASCII: Set<Unicode.Scalar> = []
    /// `camelCaseAttributes`: a lowercase letter followed by an uppercase one also ends a word
    /// (`iPhoneCase` is `i phone case`). Set per attribute, by `splittingCamelCase`.
    private(set) var splitsCamelCase = false
    /// Characters beyond ASCII folded otherwise than by `CharacterFolding`: to themselves in
    /// lowercase (`keepDiacriticsOnCharacters`), or as `customNormalization` says.
    private(set) var folding: [Unicode.Scalar: CharacterFolding.Result] = [:]

    /// These separators, camel-case words split too (for an attribute of `camelCaseAttributes`).
    var splittingCamelCase: TokenizerRules {
        var split = self
        split.splitsCamelCase = true
        return split
    }

    /// No separator is indexed (Algolia's default, `""`).
    static let none = TokenizerRules()

    private init() {}

    /// The separators of a `separatorsToIndex` value, and the foldings of
    /// `keepDiacriticsOnCharacters` and `customNormalization` (the latter wins for a character
    /// both name).
    /// - Throws: `invalidParameter` for a control character, which no text shows as a separator,
    ///   and for a folding that names an ASCII character or anything but one character.
    init(setting: String, keepDiacriticsOn kept: String? = nil, customNormalization: JSONValue? = nil) throws(SearchError) {
        try addSeparators(setting)
        for scalar in (kept ?? "").unicodeScalars {
            // Algolia's rules: a lowercase letter that folding would change (`ø`, not `Ø` or `o`).
            guard scalar.value >= 0x80, !scalar.properties.isUppercase,
                  case .letters(let folded) = CharacterFolding.fold(scalar), folded != String(scalar) else {
                throw .invalidParameter("keepDiacriticsOnCharacters",
                                        expected: "lowercase letters that normalization would change, such as \"øé\"",
                                        got: "\"\(scalar)\" in \(JSONValue.string(kept ?? "").jsonString)")
            }
            for form in [scalar] + Self.caseVariants(of: scalar) { folding[form] = .letters(String(scalar)) }
        }
        if let customNormalization {
            try addCustomNormalization(customNormalization)
        }
    }

    /// The other-case forms of a letter (`é` → `É`), so a folding applies whatever the case.
    private static func caseVariants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var variants: [Unicode.Scalar] = []
        for mapping in [scalar.properties.uppercaseMapping, scalar.properties.lowercaseMapping, scalar.properties.titlecaseMapping] {
            let scalars = Array(mapping.unicodeScalars)
            if scalars.count == 1, scalars[0] != scalar, !variants.contains(scalars[0]) { variants.append(scalars[0]) }
        }
        return variants
    }

    /// `customNormalization`: `{"default": {"ä": "ae", …}}`, Algolia's one scope.
    private mutating func addCustomNormalization(_ value: JSONValue) throws(SearchError) {
        let expected = "an object such as {\"default\": {\"ä\": \"ae\"}}: characters beyond ASCII and their replacements"
        guard case .object(let scopes) = value else {
            throw .invalidParameter("customNormalization", expected: expected, got: value.jsonString)
        }
        for (scope, table) in scopes.sorted(by: { $0.key < $1.key }) {
            guard scope == "default" else {
                throw .invalidParameter("customNormalization", expected: "the scope \"default\"", got: "\"\(scope)\"")
            }
            guard case .object(let entries) = table else {
                throw .invalidParameter("customNormalization.default", expected: expected, got: table.jsonString)
            }
            for (character, replacement) in entries.sorted(by: { $0.key < $1.key }) {
                let scalars = Array(character.unicodeScalars)
                guard scalars.count == 1, scalars[0].value >= 0x80, case .letters = CharacterFolding.fold(scalars[0]) else {
                    throw .invalidParameter("customNormalization.default", expected: "one letter beyond ASCII per key",
                                            got: "\"\(character)\"")
                }
                // At most two characters (Algolia's limit), none to drop the character; folded in
                // turn (`"AE"` and `"ae"` are one choice), so folding a folded word changes nothing.
                guard case .string(let text) = replacement, text.count <= 2,
                      case let words = Tokenizer.words(text, separators: .none), words.count == (text.isEmpty ? 0 : 1) else {
                    throw .invalidParameter("customNormalization.default.\(character)",
                                            expected: "a replacement of at most two letters or digits", got: replacement.jsonString)
                }
                let result: CharacterFolding.Result = words.isEmpty ? .ignorable : .letters(words[0])
                for form in [scalars[0]] + Self.caseVariants(of: scalars[0]) { folding[form] = result }
            }
        }
    }

    private mutating func addSeparators(_ setting: String) throws(SearchError) {
        for scalar in setting.unicodeScalars {
            if scalar.properties.isWhitespace { continue }
            if scalar.properties.generalCategory == .control {
                let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                throw .invalidParameter("separatorsToIndex", expected: "printable separator characters such as \"+#\"",
                                        got: "the control character \(code)")
            }
            if scalar.value < 0x80 {
                let byte = UInt8(scalar.value)
                guard !TokenizerRules.isASCIIWordCharacter(byte) else { continue }
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            } else if case .separator = CharacterFolding.fold(scalar) {
                nonASCII.insert(scalar)
            }
        }
    }

    /// How the tokenizer folds `scalar` (beyond ASCII) under these rules.
    @inline(__always) func fold(_ scalar: Unicode.Scalar) -> CharacterFolding.Result {
        if !folding.isEmpty, let result = folding[scalar] { return result }
        return CharacterFolding.fold(scalar)
    }

    /// Whether the ASCII byte `byte` (below 0x80) is an indexed separator.
    @inline(__always) func contains(ascii byte: UInt8) -> Bool {
        TokenizerRules.contains(ascii: byte, low: low, high: high)
    }

    @inline(__always) static func contains(ascii byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        (byte < 64 ? low >> UInt64(byte) : high >> UInt64(byte & 63)) & 1 != 0
    }

    /// The indexed ASCII separators, in code point order (FTS5's `tokenchars`).
    var asciiCharacters: String {
        String(decoding: (0..<128).map(UInt8.init).filter(contains(ascii:)), as: UTF8.self)
    }

    static func isASCIIWordCharacter(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
