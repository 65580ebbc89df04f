import SearchAPI

/// Builds `_highlightResult` and `_snippetResult` with the same tokenizer and the same
/// word-matching rule as the search: a whole-word query word wraps a whole word, a prefix
/// query word wraps only the typed part (`<em>iph</em>one`). Matches that touch (`C#` for the
/// query `c#` with `#` in `separatorsToIndex`) are wrapped together: `<em>C#</em>`.
struct HighlightBuilder {
    let words: [QueryWord]
    let preTag: String
    let postTag: String
    /// The index's `separatorsToIndex`: the texts are tokenized as the records were.
    var separators: TokenizerRules
    /// For each query word, the indexed words it matched with typos (wrapped whole).
    var variantTerms: [Set<String>] {
        didSet {
            matchesPlaceholders = HighlightBuilder.matchesPlaceholders(variantTerms)
            lookup = WordLookup(words: words, variantTerms: variantTerms)
        }
    }
    /// Whether a query word matched a placeholder: only then are texts read for `<tag>`s.
    private var matchesPlaceholders: Bool
    /// The query words and their variants by folded text, for `spans`.
    private var lookup: WordLookup
    /// `decompoundedAttributes`: a compound whose part a query word matches is wrapped whole.
    var compounds: CompoundSplitter?

    init(words: [QueryWord], preTag: String, postTag: String, separators: TokenizerRules, variantTerms: [Set<String>] = []) {
        self.words = words
        self.preTag = preTag
        self.postTag = postTag
        self.separators = separators
        self.variantTerms = variantTerms
        matchesPlaceholders = HighlightBuilder.matchesPlaceholders(variantTerms)
        lookup = WordLookup(words: words, variantTerms: variantTerms)
    }

    /// What `span` compares a token with, per query word, read without copying the words (a
    /// page's texts have thousands of tokens). A class: its seven arrays are retained once when
    /// the builder is copied, not one by one.
    private final class WordLookup {
        /// Each query word's folded text.
        let folded: [String]
        /// Each query word's folded bytes when they are ASCII (nil otherwise): an ASCII token is
        /// compared with them byte by byte, with no string made for it.
        let asciiBytes: [[UInt8]?]
        /// Whether each query word is a prefix (`isPrefix`).
        let isPrefix: [Bool]
        /// Each query word's variants (`variantTerms`; empty past them).
        let variants: [Set<String>]
        /// For each query word, the byte lengths of its ASCII variants (bit `min(length, 63)`),
        /// and whether it has variants that are not ASCII: an ASCII token of no such length is
        /// none of its variants, and no set is hashed for it.
        let asciiVariantLengths: [UInt64]
        let hasNonASCIIVariants: [Bool]
        /// For each query word, `filterWords` words of a bit filter of its ASCII variants (bit
        /// `fingerprint(variant)`): an ASCII token whose bit is clear is none of them, and no
        /// string is made and hashed for it. (A prefix with typos has hundreds of variants, of
        /// every length: most tokens of a page passed the length test and were hashed.)
        let asciiVariantFilter: [UInt64]
        /// How many distinct folded words the query has.
        let distinctWords: Int

        init(words: [QueryWord], variantTerms: [Set<String>]) {
            folded = words.map(\.folded)
            asciiBytes = folded.map { word in word.utf8.isASCII ? Array(word.utf8) : nil }
            isPrefix = words.map(\.isPrefix)
            variants = words.indices.map { $0 < variantTerms.count ? variantTerms[$0] : [] }
            asciiVariantLengths = variants.map { variants in
                variants.reduce(UInt64(0)) { mask, variant in
                    variant.utf8.isASCII ? mask | 1 << UInt64(min(variant.utf8.count, 63)) : mask
                }
            }
            hasNonASCIIVariants = variants.map { variants in variants.contains { !$0.utf8.isASCII } }
            // Only a query with variants has filters (`mayBeVariant` is asked only for those).
            let hasVariants = variants.contains { !$0.isEmpty }
            var filter = [UInt64](repeating: 0, count: hasVariants ? variants.count * WordLookup.filterWords : 0)
            for (index, variants) in variants.enumerated() {
                for variant in variants where variant.utf8.isASCII {
                    let bit = WordLookup.fingerprint(variant.utf8)
                    filter[index * WordLookup.filterWords + bit >> 6] |= 1 << UInt64(bit & 63)
                }
            }
            asciiVariantFilter = filter
            distinctWords = Set(folded).count
        }

        /// 4,096 bits a query word: with 500 variants, about one token in nine is hashed.
        static let filterWords = 64

        /// A token's bit in the filters: FNV-1a of its bytes, folded to 12 bits.
        static func fingerprint<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int {
            let hash = FNV1a.hash(bytes)
            return Int((hash ^ hash >> 16) & UInt32(filterWords * 64 - 1))
        }

        /// Whether a token of `byteCount` bytes (its `fingerprint` read only when it is ASCII) may
        /// be one of query word `index`'s variants.
        func mayBeVariant(_ index: Int, isASCII: Bool, byteCount: Int, fingerprint: () -> Int) -> Bool {
            guard isASCII, !hasNonASCIIVariants[index] else { return true }
            guard asciiVariantLengths[index] & 1 << UInt64(min(byteCount, 63)) != 0 else { return false }
            let bit = fingerprint()
            return asciiVariantFilter[index * WordLookup.filterWords + bit >> 6] & 1 << UInt64(bit & 63) != 0
        }
    }

    private static func matchesPlaceholders(_ variantTerms: [Set<String>]) -> Bool {
        variantTerms.contains { $0.contains { $0.hasPrefix(SynonymTable.placeholderPrefix) } }
    }

    /// One highlighted span in a text: UTF-8 offsets, and the query word it matched.
    struct Span {
        var start: Int
        var end: Int
        var word: Int
        /// The whole token is wrapped (not only a prefix of it).
        var wholeToken: Bool
    }

    /// The spans query words match in a text, in order; with `everyToken`, each token (its
    /// UTF-8 range) and its span or nil, for a snippet's window.
    struct SpannedText {
        var found: [Span] = []
        var tokenCount = 0
        /// Every token is wrapped whole (true for a text without tokens).
        var everyTokenWhole = true
        /// Only with `everyToken`.
        var tokens: [Range<Int>] = []
        var spans: [Span?] = []
    }

    /// The spans of `text`, read from the tokenizer's folded bytes: a string is made for a token
    /// only when a set or a non-ASCII word needs one. A highlight needs only the spans found
    /// (`everyToken` false: no array the length of the text).
    func spanned(_ text: String, everyToken: Bool) -> SpannedText {
        var sink = SpanSink(builder: self, text: text, utf8: matchesPlaceholders ? Array(text.utf8) : [], everyToken: everyToken)
        Tokenizer.scan(text, separators: separators, into: &sink)
        return sink.result
    }

    private struct SpanSink: TokenSink {
        let builder: HighlightBuilder
        let text: String
        /// The text's bytes, only when a placeholder may be matched (they are read around tokens).
        let utf8: [UInt8]
        let everyToken: Bool
        var result = SpannedText()

        mutating func token(_ folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
            let span = builder.span(folded: folded, start: start, end: end, text: text, utf8: utf8)
            result.tokenCount += 1
            if let span {
                result.found.append(span)
                if !span.wholeToken { result.everyTokenWhole = false }
            } else {
                result.everyTokenWhole = false
            }
            if everyToken {
                result.tokens.append(start..<end)
                result.spans.append(span)
            }
        }
    }

    /// The span a query word matches in one token (`folded`, at UTF-8 offsets `start..<end` of
    /// `text`), or nil. The token is a query word: the first word with it. Else the first word it
    /// matches otherwise; for one word, a placeholder first, then a variant, then a prefix. Else
    /// a compound one of whose parts a query word matches.
    private func span(folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int, text: String, utf8: [UInt8]) -> Span? {
        let isASCII = folded.isASCII
        var made: String?
        func string() -> String {
            if let made { return made }
            let string = String(decoding: folded, as: UTF8.self)
            made = string
            return string
        }
        var fingerprinted: Int?
        func fingerprint() -> Int {
            if let fingerprinted { return fingerprinted }
            let bit = WordLookup.fingerprint(folded)
            fingerprinted = bit
            return bit
        }
        // ASCII texts are equal, or one a prefix of the other, exactly when their bytes are.
        for index in lookup.folded.indices {
            let isWord = if isASCII, let bytes = lookup.asciiBytes[index] {
                bytes.count == folded.count && bytes.elementsEqual(folded)
            } else {
                string() == lookup.folded[index]
            }
            if isWord { return Span(start: start, end: end, word: index, wholeToken: true) }
        }
        // A placeholder (`<streetnumber>`) found through one of its replacements: wrapped with its
        // brackets.
        let placeholder = matchesPlaceholders && start > 0 && end < utf8.count && utf8[start - 1] == UInt8(ascii: "<")
            && utf8[end] == UInt8(ascii: ">") ? SynonymTable.placeholderTerm(string()) : nil
        for index in lookup.folded.indices {
            let variants = lookup.variants[index]
            if let placeholder, variants.contains(placeholder) {
                return Span(start: start - 1, end: end + 1, word: index, wholeToken: true)
            }
            if !variants.isEmpty, lookup.mayBeVariant(index, isASCII: isASCII, byteCount: folded.count, fingerprint: fingerprint),
               variants.contains(string()) {
                return Span(start: start, end: end, word: index, wholeToken: true)
            }
            guard lookup.isPrefix[index] else { continue }
            let hasPrefix = if isASCII, let bytes = lookup.asciiBytes[index] {
                folded.starts(with: bytes)
            } else {
                string().hasPrefix(lookup.folded[index])
            }
            if hasPrefix {
                let prefixEnd = HighlightBuilder.originalEnd(of: text, start: start, end: end, foldedLength: lookup.folded[index].utf8.count)
                return Span(start: start, end: prefixEnd, word: index, wholeToken: prefixEnd == end)
            }
        }
        if let compounds {
            let parts = compounds.parts(of: string())
            for index in lookup.folded.indices where parts.contains(where: { part in
                part == lookup.folded[index] || (lookup.isPrefix[index] && part.hasPrefix(lookup.folded[index]))
                    || lookup.variants[index].contains(part)
            }) {
                return Span(start: start, end: end, word: index, wholeToken: true)
            }
        }
        return nil
    }

    /// Where, in the original text, the first `foldedLength` folded bytes of a token end.
    static func originalEnd(of text: String, start: Int, end: Int, foldedLength: Int) -> Int {
        // An ASCII token folds byte for byte (and has no combining marks to swallow).
        if let asciiEnd = text.utf8.withContiguousStorageIfAvailable({ utf8 -> Int? in
            UnsafeBufferPointer(rebasing: utf8[start..<end]).isASCII ? min(start + max(foldedLength, 0), end) : nil
        }), let asciiEnd {
            return asciiEnd
        }
        var folded = 0
        var offset = start
        let utf8 = text.utf8
        let startIndex = utf8.index(utf8.startIndex, offsetBy: start)
        let endIndex = utf8.index(utf8.startIndex, offsetBy: end)
        for scalar in text.unicodeScalars[startIndex..<endIndex] {
            if folded >= foldedLength { break }
            offset += UTF8.width(scalar)
            if scalar.value < 0x80 {
                folded += 1
            } else if case .letters(let replacement) = CharacterFolding.fold(scalar) {
                folded += replacement.utf8.count
            }
        }
        // Swallow combining marks that belong to the last highlighted letter.
        var index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        while index < endIndex, let scalar = text.unicodeScalars[index...].first, case .ignorable = CharacterFolding.fold(scalar) {
            offset += UTF8.width(scalar)
            index = text.utf8.index(after: index)
            while index < endIndex, text.utf8[index] & 0xC0 == 0x80 { index = text.utf8.index(after: index) }
        }
        return min(offset, end)
    }

    /// `{value, matchLevel, matchedWords, fullyHighlighted}` for one string; as in Algolia,
    /// `fullyHighlighted` only where something matched (`matchLevel` other than `none`).
    func highlight(_ text: String) -> JSONValue {
        let tokenized = spanned(text, everyToken: false)
        let matched = Set(tokenized.found.map(\.word))
        let value = render(text, spans: tokenized.found, from: 0, to: text.utf8.count)
        let fully = tokenized.tokenCount > 0 && tokenized.everyTokenWhole
        let level = matchLevel(matched.count)
        var result: JSONObject = [
            "value": .string(value),
            "matchLevel": .string(level),
        ]
        if level != "none" { result["fullyHighlighted"] = .bool(fully && level == "full") }
        result["matchedWords"] = .array(matched.sorted().map { .string(words[$0].original) })
        return .object(result)
    }

    /// `{value, matchLevel}` for one string: the `wordCount` words around the best match.
    func snippet(_ text: String, wordCount: Int, ellipsis: String) -> JSONValue {
        let tokenized = spanned(text, everyToken: true)
        let (tokens, spans) = (tokenized.tokens, tokenized.spans)
        let matched = Set(tokenized.found.map(\.word))
        guard tokens.count > wordCount, wordCount > 0 else {
            return ["value": .string(render(text, spans: tokenized.found, from: 0, to: text.utf8.count)),
                    "matchLevel": .string(matchLevel(matched.count))]
        }
        // The window with the most distinct matched words, then the most matches, earliest first.
        var bestStart = 0
        var bestScore = (-1, -1)
        for start in 0...(tokens.count - wordCount) {
            let window = spans[start..<start + wordCount].compactMap { $0 }
            let score = (Set(window.map(\.word)).count, window.count)
            if score > bestScore { bestScore = score; bestStart = start }
            if spans[start] == nil, bestScore.0 == matched.count, bestScore.0 > 0 { break }
        }
        // Start a little before the first match so the match has context.
        if let firstMatch = (bestStart..<bestStart + wordCount).first(where: { spans[$0] != nil }) {
            bestStart = max(0, min(firstMatch - 2, tokens.count - wordCount))
        }
        let end = bestStart + wordCount
        var value = render(text, spans: tokenized.found, from: tokens[bestStart].lowerBound, to: tokens[end - 1].upperBound)
        if bestStart > 0 { value = ellipsis + " " + value }
        if end < tokens.count { value += " " + ellipsis }
        return ["value": .string(value), "matchLevel": .string(matchLevel(matched.count))]
    }

    private func matchLevel(_ matchedWords: Int) -> String {
        if matchedWords == 0 || words.isEmpty { return "none" }
        return matchedWords == lookup.distinctWords || matchedWords == words.count ? "full" : "partial"
    }

    /// The text between two UTF-8 offsets with the spans inside it wrapped in the tags; spans
    /// that touch share one pair of tags. (Only indexed separators make tokens touch: without
    /// them, a separator always stands between two tokens.)
    private func render(_ text: String, spans: [Span], from start: Int, to end: Int) -> String {
        var text = text
        return text.withUTF8 { utf8 in
            func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: utf8[range]) }
            var out: [UInt8] = []
            out.reserveCapacity(end - start + spans.count * (preTag.utf8.count + postTag.utf8.count))
            var cursor = start
            var open = false
            for span in spans where span.start >= start && span.end <= end {
                if open, span.start == cursor {
                    out.append(contentsOf: bytes(span.start..<span.end))
                    cursor = span.end
                    continue
                }
                if open { out.append(contentsOf: postTag.utf8) }
                out.append(contentsOf: bytes(cursor..<span.start))
                out.append(contentsOf: preTag.utf8)
                out.append(contentsOf: bytes(span.start..<span.end))
                open = true
                cursor = span.end
            }
            if open { out.append(contentsOf: postTag.utf8) }
            out.append(contentsOf: bytes(cursor..<end))
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Maps the text in a value, keeping its shape: each string, and each number as its text,
    /// becomes what `transform` makes of it (a highlight or snippet object); arrays stay arrays
    /// and objects objects, with the same keys. Booleans and nulls have no entry (nil), as in
    /// Algolia's answers.
    func mapText(in value: JSONValue, _ transform: (String) -> JSONValue) -> JSONValue? {
        switch value {
        case .string(let s): return transform(s)
        case .int, .double: return transform(value.scalarText!)
        case .bool: return nil
        case .array(let elements): return .array(elements.compactMap { mapText(in: $0, transform) })
        case .object(let object):
            var result = JSONObject()
            for (key, child) in object { if let mapped = mapText(in: child, transform) { result.appendUnique(key, mapped) } }
            return .object(result)
        case .null: return nil
        }
    }
}
