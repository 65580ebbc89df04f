import Foundation

/// One word of a text: its folded form (lowercase, no diacritics) and where it stands in the
/// original text, so highlighting can wrap the original characters.
struct Token: Sendable, Hashable {
    /// Lowercased, diacritics removed: what the index and the query compare.
    var folded: String
    /// The word's range in the original text, as UTF-8 offsets.
    var start: Int
    var end: Int
}

/// The one tokenizer of the engine: the index side and the query side both call it, so a
/// word is found exactly when it was indexed the same way.
///
/// A token is a maximal run of letters and digits (Unicode-aware). Folding lowercases and
/// removes diacritics (`Éclair` → `eclair`, `Ü` → `u`), and a few letters expand as they do
/// in Algolia (`ß` → `ss`, `æ` → `ae`). Everything else (spaces, punctuation, symbols) separates
/// words and is never part of one, except the index's `separatorsToIndex`: each of those is a
/// token of its own, as it is written (`C#` → `c`, `#`).
///
/// Every function takes the index's `TokenizerRules` (`.none` where the setting does not
/// apply), so the index, the query, highlighting, synonyms and FTS5 split text the same way.
enum Tokenizer {
    /// Changes when the words of some text change (a new folding): derived data made with another
    /// version is rebuilt (the FTS5 text on the next write; see `RecordStore`).
    /// 2: `ẞ` folds to `ss`, final sigma to sigma, `ı` to `i`, Latin ligatures to their letters.
    /// 3: diacritics removed in every script (Greek, Cyrillic, Vietnamese, Arabic, Kana), full-width
    /// forms folded, Persian letter variants read as Arabic. 4: traditional Chinese read as simplified.
    static let version = 4

    /// The folded words of `text`, in order.
    /// - Complexity: O(n) in the length of the text.
    static func words(_ text: String, separators: TokenizerRules) -> [String] {
        var result: [String] = []
        forEachToken(in: text, separators: separators) { folded, _, _ in result.append(folded) }
        return result
    }

    /// The tokens of `text` with their UTF-8 ranges.
    static func tokens(_ text: String, separators: TokenizerRules) -> [Token] {
        var result: [Token] = []
        forEachToken(in: text, separators: separators) { folded, start, end in
            result.append(Token(folded: folded, start: start, end: end))
        }
        return result
    }

    /// Calls `body` with each token's folded text and UTF-8 range.
    static func forEachToken(in text: String, separators: TokenizerRules, _ body: (String, Int, Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            var sink = ClosureSink(body: body)
            scan(text, separators: separators, into: &sink)
        }
    }

    /// Appends the folded words of `text` to `buffer`, separated by single spaces (the text
    /// stored in FTS5).
    static func appendFoldedWords(of text: String, separators: TokenizerRules, to buffer: inout [UInt8]) {
        var sink = TextSink(buffer: buffer)
        buffer = []
        scan(text, separators: separators, into: &sink)
        buffer = sink.buffer
    }

    /// The scanner behind every tokenizing function: hands each token's folded UTF-8 bytes and
    /// its UTF-8 range in `text` to `sink`. An indexed separator ends the current token and is
    /// a token itself, its bytes unchanged.
    /// - Complexity: O(n); ASCII text is folded byte by byte, without per-character strings.
    static func scan<Sink: TokenSink>(_ text: String, separators: TokenizerRules, into sink: inout Sink) {
        // Two specializations: the camel-case tests cost nothing where no attribute splits.
        if separators.splitsCamelCase {
            scan(text, separators: separators, into: &sink, camelCase: SplitCamelCase.self)
        } else {
            scan(text, separators: separators, into: &sink, camelCase: KeepCamelCase.self)
        }
    }

    private static func scan<Sink: TokenSink, CamelCase: CamelCaseRule>(_ text: String, separators: TokenizerRules, into sink: inout Sink,
                                                                         camelCase: CamelCase.Type) {
        var text = text
        // Hoisted: without indexed separators, a separator byte costs one more shift and test.
        let asciiLow = separators.low
        let asciiHigh = separators.high
        let indexesNonASCII = !separators.nonASCII.isEmpty
        text.withUTF8 { utf8 in
            // The current word folded, in a buffer of its own rather than an array: appending
            // a byte is then a store, without the array's uniqueness and capacity checks (run
            // for every byte of every record an import reads).
            var folded = FoldedWord()
            defer { folded.deallocate() }
            // The run of Chinese or Japanese characters being read, segmented into words when
            // it ends (`CJKSegmenter`).
            var run = CJKRun()
            var tokenStart = -1
            var offset = 0
            // With `splitsCamelCase`: whether the letter before was lowercase (an uppercase one
            // after it starts a new word).
            var afterLowercase = false
            while offset < utf8.count {
                let byte = utf8[offset]
                var width = 1
                var isSeparator = false
                var isIndexed = false
                if byte < 0x80 {
                    switch byte {
                    case 0x41...0x5A:  // A-Z
                        if !run.isEmpty { run.flush(into: &sink, scratch: &folded) }
                        if CamelCase.splits {
                            if afterLowercase, tokenStart >= 0 {
                                sink.token(folded.bytes, start: tokenStart, end: offset)
                                folded.removeAll()
                                tokenStart = -1
                            }
                            afterLowercase = false
                        }
                        if tokenStart < 0 { tokenStart = offset }
                        folded.append(byte + 0x20)
                    case 0x61...0x7A, 0x30...0x39:
                        if !run.isEmpty { run.flush(into: &sink, scratch: &folded) }
                        if CamelCase.splits { afterLowercase = byte >= 0x61 }
                        if tokenStart < 0 { tokenStart = offset }
                        folded.append(byte)
                    default:
                        isSeparator = true
                        isIndexed = TokenizerRules.contains(ascii: byte, low: asciiLow, high: asciiHigh)
                    }
                } else {
                    // Decode one non-ASCII scalar.
                    width = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                    var value = UInt32(byte) & (width == 4 ? 0x07 : width == 3 ? 0x0F : width == 2 ? 0x1F : 0x7F)
                    var i = 1
                    while i < width, offset + i < utf8.count {
                        value = value << 6 | UInt32(utf8[offset + i] & 0x3F)
                        i += 1
                    }
                    let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
                    switch separators.fold(scalar) {
                    case .separator:
                        isSeparator = true
                        isIndexed = indexesNonASCII && separators.nonASCII.contains(scalar)
                    case .ignorable:
                        // A combining mark continues the current word (it is a diacritic).
                        if !run.isEmpty { run.extendLast(to: min(offset + width, utf8.count)) }
                    case .letters(let replacement) where replacement.unicodeScalars.first.map({ CJKSegmenter.isSegmented($0.value) }) ?? false:
                        // A Chinese or Japanese character ends a word of other letters and joins the run.
                        if tokenStart >= 0 {
                            sink.token(folded.bytes, start: tokenStart, end: offset)
                            folded.removeAll()
                            tokenStart = -1
                        }
                        if CamelCase.splits { afterLowercase = false }
                        for scalar in replacement.unicodeScalars {
                            run.append(scalar.value, start: offset, end: min(offset + width, utf8.count))
                        }
                    case .letters(let replacement):
                        if !run.isEmpty { run.flush(into: &sink, scratch: &folded) }
                        if CamelCase.splits {
                            let properties = scalar.properties
                            if properties.isUppercase, afterLowercase, tokenStart >= 0 {
                                sink.token(folded.bytes, start: tokenStart, end: offset)
                                folded.removeAll()
                                tokenStart = -1
                            }
                            afterLowercase = properties.isLowercase
                        }
                        if tokenStart < 0 { tokenStart = offset }
                        folded.append(contentsOf: replacement.utf8)
                    }
                }
                if CamelCase.splits, isSeparator { afterLowercase = false }
                if isSeparator, !run.isEmpty { run.flush(into: &sink, scratch: &folded) }
                if isSeparator, tokenStart >= 0 {
                    sink.token(folded.bytes, start: tokenStart, end: offset)
                    folded.removeAll()
                    tokenStart = -1
                }
                if isIndexed {
                    let end = min(offset + width, utf8.count)
                    sink.token(UnsafeBufferPointer(rebasing: utf8[offset..<end]), start: offset, end: end)
                }
                offset += width
            }
            if tokenStart >= 0 {
                sink.token(folded.bytes, start: tokenStart, end: utf8.count)
            }
            if !run.isEmpty { run.flush(into: &sink, scratch: &folded) }
        }
    }

    /// Chinese or Japanese characters read one after another: each folded character and its
    /// UTF-8 range in the text, until the run ends and `flush` hands its words to the sink.
    private struct CJKRun {
        private var characters: [UInt32] = []
        private var starts: [Int] = []
        private var ends: [Int] = []

        var isEmpty: Bool { characters.isEmpty }

        mutating func append(_ character: UInt32, start: Int, end: Int) {
            characters.append(character)
            starts.append(start)
            ends.append(end)
        }

        mutating func extendLast(to end: Int) { ends[ends.count - 1] = end }

        /// Segments the run and hands each word to `sink` (its folded bytes made in `scratch`,
        /// which is left empty), then empties the run.
        mutating func flush<Sink: TokenSink>(into sink: inout Sink, scratch: inout FoldedWord) {
            for word in CJKSegmenter.segment(characters) {
                scratch.removeAll()
                for index in word {
                    // UTF-8 by hand: no string per character.
                    let value = characters[index]
                    if value < 0x800 {
                        scratch.append(UInt8(0xC0 | value >> 6))
                        scratch.append(UInt8(0x80 | value & 0x3F))
                    } else if value < 0x10000 {
                        scratch.append(UInt8(0xE0 | value >> 12))
                        scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
                        scratch.append(UInt8(0x80 | value & 0x3F))
                    } else {
                        scratch.append(UInt8(0xF0 | value >> 18))
                        scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
                        scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
                        scratch.append(UInt8(0x80 | value & 0x3F))
                    }
                }
                sink.token(scratch.bytes, start: starts[word.lowerBound], end: ends[word.upperBound - 1])
            }
            scratch.removeAll()
            characters.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
        }
    }

    /// Whether `scan` splits camel-case words: a type, so that each rule gets its own
    /// specialization of the scanning loop.
    private protocol CamelCaseRule { static var splits: Bool { get } }
    private enum SplitCamelCase: CamelCaseRule { static var splits: Bool { true } }
    private enum KeepCamelCase: CamelCaseRule { static var splits: Bool { false } }

    /// The bytes of the word being folded: a buffer that grows as a word needs, never shrinks,
    /// and is released by its owner (`scan`).
    private struct FoldedWord {
        private var start = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        private var capacity = 64
        private var count = 0

        var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

        mutating func append(_ byte: UInt8) {
            if count == capacity { grow() }
            start[count] = byte
            count += 1
        }

        mutating func append(contentsOf bytes: String.UTF8View) {
            for byte in bytes { append(byte) }
        }

        mutating func removeAll() { count = 0 }

        func deallocate() { start.deallocate() }

        private mutating func grow() {
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            larger.update(from: start, count: count)
            start.deallocate()
            start = larger
            capacity *= 2
        }
    }

    /// The key under which facet values compare: lowercased and without diacritics, every
    /// other character kept (`AT&T` and `AT T` stay different values).
    static func facetKey(_ text: String) -> String {
        var key = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                key.append(scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(scalar.value + 0x20)! : scalar)
                continue
            }
            switch CharacterFolding.fold(scalar) {
            case .letters(let replacement): key.append(contentsOf: replacement.unicodeScalars)
            case .ignorable: continue
            case .separator: key.append(scalar)
            }
        }
        return String(key)
    }
}

/// Receives the tokens of `Tokenizer.scan`.
protocol TokenSink {
    /// `folded` is valid only during the call.
    mutating func token(_ folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int)
}

private struct ClosureSink: TokenSink {
    let body: (String, Int, Int) -> Void
    mutating func token(_ folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        body(String(decoding: folded, as: UTF8.self), start, end)
    }
}

private struct TextSink: TokenSink {
    var buffer: [UInt8]
    mutating func token(_ folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        if !buffer.isEmpty { buffer.append(UInt8(ascii: " ")) }
        buffer.append(contentsOf: folded)
    }
}

/// How one non-ASCII character folds.
enum CharacterFolding {
    enum Result: Sendable, Hashable {
        case separator
        case ignorable
        case letters(String)
    }

    static func fold(_ scalar: Unicode.Scalar) -> Result {
        // The letters and digits of the table, and the common CJK ideographs (no case, no marks),
        // without asking for the character's category.
        if let folded = table[scalar.value] { return .letters(folded) }
        if (0x4E00...0x9FFF).contains(scalar.value) { return .letters(String(scalar)) }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return .ignorable
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return .letters(foldedLetters(scalar))
        default:
            return .separator
        }
    }

    /// Lowercase, without diacritics, in every script, as Algolia normalizes (`é` → `e`, `ά` → `α`,
    /// `й` → `и`, `で` → `て`, Arabic `أ` → `ا`): the scripts of `table` are folded through their
    /// canonical decomposition, made once; any other letter is lowercased, and the lowercase is
    /// folded in turn where it holds a letter of the table (`ẞ` → `ß` → `ss`). Final sigma is sigma
    /// (`ΟΔΟΣ` and `οδος` are one word): folding a folded word changes nothing.
    static func foldedLetters(_ scalar: Unicode.Scalar) -> String {
        if let cached = table[scalar.value] { return cached }
        let lowercase = scalar.properties.lowercaseMapping
        guard lowercase.unicodeScalars.contains(where: { table[$0.value] != nil || isMark($0) }) else { return lowercase }
        var folded = String.UnicodeScalarView()
        for part in lowercase.unicodeScalars where !isMark(part) {
            if let known = table[part.value] { folded.append(contentsOf: known.unicodeScalars) } else { folded.append(part) }
        }
        return String(folded)
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The scripts folded through their decomposition: Latin (Latin-1 Supplement, Extended-A and B,
    /// Extended Additional, which holds Vietnamese), Greek, Cyrillic, Hebrew, Arabic, Kana, and the
    /// full- and half-width forms (`Ａ` → `a`, `ｶ` → `カ`).
    private static let decomposedRanges: [ClosedRange<UInt32>] = [
        0xC0...0x24F, 0x370...0x3FF, 0x400...0x52F, 0x590...0x6FF, 0x1E00...0x1FFF, 0x3040...0x30FF,
        0xFB00...0xFB06, 0xFF10...0xFF19, 0xFF21...0xFF3A, 0xFF41...0xFF5A, 0xFF66...0xFF9F,
    ]

    /// Letters of other forms that Algolia reads as one: Persian `ی` and `ک` as Arabic `ي` and
    /// `ك`, alef maksura as yeh, and the Latin letters without a decomposition.
    private static let equivalents: [UInt32: String] = [
        0xDF: "ss", 0x1E9E: "ss",           // ß ẞ
        0xC6: "ae", 0xE6: "ae",             // Æ æ
        0x152: "oe", 0x153: "oe",           // Œ œ
        0xD8: "o", 0xF8: "o",               // Ø ø
        0x141: "l", 0x142: "l",             // Ł ł
        0xD0: "d", 0xF0: "d",               // Ð ð
        0xDE: "th", 0xFE: "th",             // Þ þ
        0x110: "d", 0x111: "d",             // Đ đ
        0x131: "i",                         // ı, whose uppercase is I
        0x3C2: "σ",                         // final sigma
        0x6CC: "\u{64A}", 0x649: "\u{64A}",  // Persian yeh, alef maksura → yeh
        0x6A9: "\u{643}",                   // Persian keheh → kaf
    ]

    /// Folded forms of the letters and digits of `decomposedRanges`, built once: the
    /// compatibility decomposition of the lowercase, without its marks, itself lowercased
    /// (`Ａ` → `A` → `a`), where that leaves letters or digits; and traditional Chinese
    /// characters as their simplified forms (`國` → `国`, `書` → `书`).
    static let table: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for range in decomposedRanges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter, .decimalNumber:
                    break
                default:
                    continue
                }
                if let known = equivalents[value] { table[value] = known; continue }
                let decomposed = scalar.properties.lowercaseMapping.decomposedStringWithCompatibilityMapping
                var kept = ""
                for part in decomposed.unicodeScalars where !isMark(part) {
                    kept += equivalents[part.value] ?? String(part).lowercased()
                }
                let clean = kept.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil }
                table[value] = clean && !kept.isEmpty ? kept : scalar.properties.lowercaseMapping
            }
        }
        for (value, folded) in equivalents where table[value] == nil { table[value] = folded }
        // Traditional Chinese read as simplified, as Algolia does (OpenCC's table).
        var pair: [Unicode.Scalar] = []
        for scalar in traditionalToSimplified.unicodeScalars {
            pair.append(scalar)
            guard pair.count == 2 else { continue }
            table[pair[0].value] = String(pair[1])
            pair.removeAll(keepingCapacity: true)
        }
        return table
    }()
}
