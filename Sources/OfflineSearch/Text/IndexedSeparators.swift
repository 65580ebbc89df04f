import SearchAPI

/// The characters of Algolia's `separatorsToIndex` setting: separators (characters that are
/// neither letters nor digits) that the tokenizer keeps, each as a word of its own, instead of
/// dropping them. With `"+#"`, `C# and C++` is the words `c # and c + +`, and the query `c#` the
/// words `c #`.
///
/// Letters, digits and combining marks in the setting are ignored (they already belong to
/// words), and so is whitespace (it only ever separates words). Control characters are rejected.
///
/// ```swift
/// let separators = try IndexedSeparators(setting: "+#")
/// Tokenizer.words("C++", separators: separators)  // ["c", "+", "+"]
/// ```
struct IndexedSeparators: Sendable, Hashable {
    /// ASCII separators, one bit per code point: `low` holds 0–63, `high` 64–127. One shift
    /// and mask per separator byte keeps the tokenizer's ASCII path as fast as without them.
    private(set) var low: UInt64 = 0
    private(set) var high: UInt64 = 0
    /// Separators beyond ASCII.
    private(set) var nonASCII: Set<Unicode.Scalar> = []
    /// `camelCaseAttributes`: a lowercase letter followed by an uppercase one also ends a word
    /// (`iPhoneCase` is `i phone case`). Set per attribute, by `splittingCamelCase`.
    private(set) var splitsCamelCase = false

    /// These separators, camel-case words split too (for an attribute of `camelCaseAttributes`).
    var splittingCamelCase: IndexedSeparators {
        var split = self
        split.splitsCamelCase = true
        return split
    }

    /// No separator is indexed (Algolia's default, `""`).
    static let none = IndexedSeparators()

    private init() {}

    /// The separators of a `separatorsToIndex` value.
    /// - Throws: `invalidParameter` for a control character, which no text shows as a separator.
    init(setting: String) throws(SearchError) {
        for scalar in setting.unicodeScalars {
            if scalar.properties.isWhitespace { continue }
            if scalar.properties.generalCategory == .control {
                let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                throw .invalidParameter("separatorsToIndex", expected: "printable separator characters such as \"+#\"",
                                        got: "the control character \(code)")
            }
            if scalar.value < 0x80 {
                let byte = UInt8(scalar.value)
                guard !IndexedSeparators.isASCIIWordCharacter(byte) else { continue }
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            } else if case .separator = CharacterFolding.fold(scalar) {
                nonASCII.insert(scalar)
            }
        }
    }

    /// Whether the ASCII byte `byte` (below 0x80) is an indexed separator.
    @inline(__always) func contains(ascii byte: UInt8) -> Bool {
        IndexedSeparators.contains(ascii: byte, low: low, high: high)
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
