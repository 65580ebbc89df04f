import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Random text drawn from the kinds of characters the tokenizer treats differently: ASCII and
/// Latin letters with and without diacritics, letters that fold to two (`ß`, `æ`), letters of
/// other scripts, combining marks, digits of other systems, punctuation, symbols, emoji and
/// whitespace. Seeded: every run draws the same cases.
struct RandomText {
    var generator: SeededGenerator

    static let pieces: [String] = [
        "a", "b", "e", "i", "o", "s", "t", "z", "A", "E", "O", "Z", "0", "1", "7", "9",
        "é", "È", "ü", "Ö", "ñ", "ç", "ø", "Å", "ß", "ẞ", "æ", "Œ", "İ", "ı", "ĳ", "ǅ", "ﬁ",
        "σ", "ς", "Σ", "Ω", "ά", "я", "Ж", "ё", "ש", "ع", "中", "文", "ア", "한", "ก",
        "e\u{301}", "o\u{308}", "\u{301}", "\u{20DD}", "²", "½", "٣", "Ⅻ",
        " ", " ", " ", "  ", "\t", "\n", "\u{A0}", "\u{3000}", ",", ".", "-", "_", "'", "\"", "/", "#", "+", "&",
        "(", ")", "!", "?", ":", ";", "@", "€", "©", "😀", "👍🏽", "🇫🇷", "\u{200B}", "\u{0}", "\u{1F}",
    ]

    mutating func text(maxPieces: Int = 24) -> String {
        let count = Int.random(in: 0...maxPieces, using: &generator)
        return (0..<count).map { _ in generator.pick(RandomText.pieces) }.joined()
    }
}

/// Properties of the one tokenizer, over hundreds of random texts.
@Suite struct TokenizerPropertyTests {
    static let cases = 600

    /// Every check for one text; returns the first property that fails.
    func violation(in text: String) -> String? {
        let tokens = Tokenizer.tokens(text, separators: .none)
        let utf8 = Array(text.utf8)
        var previousEnd = 0
        for token in tokens {
            if token.folded.isEmpty { return "an empty token at \(token.start)" }
            guard token.start >= previousEnd, token.start < token.end, token.end <= utf8.count else {
                return "token \(token.folded) at \(token.start)..<\(token.end) is out of order or out of range"
            }
            // Between two tokens there is nothing that makes a word.
            let gap = String(decoding: utf8[previousEnd..<token.start], as: UTF8.self)
            if !Tokenizer.words(gap, separators: .none).isEmpty { return "the gap \(gap.debugDescription) holds words" }
            // The token's own text is that one token.
            let original = String(decoding: utf8[token.start..<token.end], as: UTF8.self)
            let again = Tokenizer.words(original, separators: .none)
            if again != [token.folded] { return "\(original.debugDescription) alone is \(again), in the text \(token.folded)" }
            // Folding is idempotent: a folded token is already folded.
            let refolded = Tokenizer.words(token.folded, separators: .none)
            if refolded != [token.folded] { return "the folded token \(token.folded.debugDescription) tokenizes to \(refolded)" }
            if token.folded != token.folded.lowercased() { return "\(token.folded.debugDescription) is not lowercase" }
            previousEnd = token.end
        }
        let tail = String(decoding: utf8[previousEnd...], as: UTF8.self)
        if !Tokenizer.words(tail, separators: .none).isEmpty { return "the tail \(tail.debugDescription) holds words" }
        // Separators only separate: the words, joined by any separators, are the same words.
        let words = tokens.map(\.folded)
        for separator in [" ", ", ", " - ", "\n", "/"] {
            let originals = tokens.map { String(decoding: utf8[$0.start..<$0.end], as: UTF8.self) }
            let joined = Tokenizer.words(originals.joined(separator: separator), separators: .none)
            if joined != words { return "joined by \(separator.debugDescription): \(joined) instead of \(words)" }
        }
        // Case does not matter: the text in upper or lower case has the same words.
        for variant in [text.uppercased(), text.lowercased()] {
            let other = Tokenizer.words(variant, separators: .none)
            if other != words { return "\(variant.debugDescription) has the words \(other), not \(words)" }
        }
        // The FTS5 text is the same words, one space apart.
        var buffer: [UInt8] = []
        Tokenizer.appendFoldedWords(of: text, separators: .none, to: &buffer)
        if String(decoding: buffer, as: UTF8.self) != words.joined(separator: " ") { return "the FTS5 text differs" }
        return nil
    }

    @Test func tokensAreNonEmptyFoldedInOrderAndStable() {
        var random = RandomText(generator: SeededGenerator(seed: 11))
        var failures: [String] = []
        for _ in 0..<TokenizerPropertyTests.cases {
            let text = random.text()
            if let problem = violation(in: text) { failures.append("\(text.debugDescription): \(problem)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(TokenizerPropertyTests.cases): \(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Cases the random texts found, kept by name.
    @Test(arguments: [
        ("STRAẞE", "straße"),    // capital sharp s folds as ß does
        ("ΟΔΟΣ", "οδος"),        // final sigma is sigma
        ("İSTANBUL", "istanbul"),
        ("IŞIK", "ışık"),        // dotless i is i
        ("FISH", "ﬁsh"),         // a ligature is its letters
    ])
    func foldingAgreesAcrossCase(upper: String, lower: String) {
        #expect(Tokenizer.words(upper, separators: .none) == Tokenizer.words(lower, separators: .none))
    }

    @Test func separatorsToIndexAreTokensOfTheirOwn() throws {
        let separators = try TokenizerRules(setting: "#+")
        var random = RandomText(generator: SeededGenerator(seed: 12))
        for _ in 0..<TokenizerPropertyTests.cases {
            let text = random.text()
            let tokens = Tokenizer.tokens(text, separators: separators)
            let utf8 = Array(text.utf8)
            for token in tokens {
                let original = String(decoding: utf8[token.start..<token.end], as: UTF8.self)
                if original == "#" || original == "+" {
                    #expect(token.folded == original)
                } else {
                    #expect(Tokenizer.words(original, separators: separators) == [token.folded], "\(text.debugDescription)")
                }
            }
            // Without the separators, the other words are the same.
            #expect(tokens.map(\.folded).filter { $0 != "#" && $0 != "+" } == Tokenizer.words(text, separators: .none),
                    "\(text.debugDescription)")
        }
    }
}

/// Properties of highlighting and snippeting: lossless, balanced, and wrapping what matches.
@Suite struct HighlightPropertyTests {
    static let cases = 500
    static let vocabulary = ["lamp", "Lampe", "LAMPS", "désk", "Desk", "chair", "Öl", "straße", "Strasse", "中文", "c", "c3po",
                             "iPhone", "iphone15", "ÉCLAIR", "eclairs", "a", "ab", "abc", "naïve", "æsir", "😀"]
    static let separators = [" ", " ", ", ", " - ", "/", "(", ") ", "\n", "  ", "'", "…"]
    static let tags: [(String, String)] = [("<em>", "</em>"), ("⟦", "⟧"), ("<mark class=\"x\">", "</mark>"), ("[[", "]]")]

    struct Case {
        var value: String
        var query: String
        var queryType: QueryType
        var tags: (String, String)
    }

    static func cases(seed: UInt64) -> [Case] {
        var generator = SeededGenerator(seed: seed)
        var random = RandomText(generator: SeededGenerator(seed: seed + 1))
        return (0..<cases).map { _ in
            let words = Int.random(in: 0...14, using: &generator)
            var value = ""
            for _ in 0..<words {
                value += generator.chance(15) ? random.text(maxPieces: 4) : generator.pick(vocabulary)
                value += generator.pick(separators)
            }
            var query = (0..<Int.random(in: 0...4, using: &generator)).map { _ -> String in
                let word = generator.pick(vocabulary)
                // A prefix of a word, as typed so far.
                return generator.chance(30) ? String(word.prefix(Int.random(in: 1...max(1, word.count), using: &generator))) : word
            }.joined(separator: " ")
            if generator.chance(10) { query = random.text(maxPieces: 6) }
            return Case(value: value, query: query, queryType: generator.pick(QueryType.allCases), tags: generator.pick(tags))
        }
    }

    static func builder(_ example: Case) -> HighlightBuilder {
        HighlightBuilder(words: QueryWords.parse(example.query, queryType: example.queryType, separators: .none),
                         preTag: example.tags.0, postTag: example.tags.1, separators: .none)
    }

    /// The highlighted text split into plain and wrapped parts; nil when the tags are not
    /// balanced (a pre tag, its text, a post tag, never nested).
    static func parts(_ highlighted: String, tags: (String, String)) -> [(text: String, wrapped: Bool)]? {
        var parts: [(String, Bool)] = []
        var rest = Substring(highlighted)
        while !rest.isEmpty {
            guard let open = rest.range(of: tags.0) else {
                if rest.contains(tags.1) { return nil }
                parts.append((String(rest), false))
                break
            }
            let before = rest[..<open.lowerBound]
            if before.contains(tags.1) { return nil }
            parts.append((String(before), false))
            rest = rest[open.upperBound...]
            guard let close = rest.range(of: tags.1) else { return nil }
            let inside = rest[..<close.lowerBound]
            if inside.contains(tags.0) || inside.isEmpty { return nil }
            parts.append((String(inside), true))
            rest = rest[close.upperBound...]
        }
        return parts
    }

    @Test func highlightingIsLosslessBalancedAndWrapsExactlyTheMatches() {
        var failures: [String] = []
        for example in HighlightPropertyTests.cases(seed: 21) {
            let builder = HighlightPropertyTests.builder(example)
            let result = builder.highlight(example.value)
            let highlighted = result["value"]?.stringValue ?? ""
            let describe = "\(example.value.debugDescription) for \(example.query.debugDescription) (\(example.queryType))"
            guard let parts = HighlightPropertyTests.parts(highlighted, tags: example.tags) else {
                failures.append("unbalanced tags in \(highlighted.debugDescription): \(describe)")
                continue
            }
            // Lossless: without the tags, the value.
            if parts.map(\.text).joined() != example.value {
                failures.append("\(highlighted.debugDescription) without its tags is not the value: \(describe)")
            }
            // Every wrapped token is a query word, or starts with a query word typed as a prefix.
            let words = builder.words
            for part in parts where part.wrapped {
                for token in Tokenizer.words(part.text, separators: .none)
                where !words.contains(where: { $0.folded == token || ($0.isPrefix && token.hasPrefix($0.folded)) }) {
                    failures.append("\(token) is wrapped but matches no query word: \(describe)")
                }
            }
            // Every token equal to a query word is wrapped.
            let wrappedTokens = Set(parts.filter(\.wrapped).flatMap { Tokenizer.words($0.text, separators: .none) })
            for token in Tokenizer.words(example.value, separators: .none)
            where words.contains(where: { $0.folded == token }) && !wrappedTokens.contains(token) {
                failures.append("\(token) matches a query word but is not wrapped: \(describe)")
            }
            let level = result["matchLevel"]?.stringValue
            if (level == "none") != !parts.contains(where: \.wrapped) {
                failures.append("matchLevel \(level ?? "nil") disagrees with the tags in \(highlighted.debugDescription): \(describe)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5).joined(separator: "\n"))")
    }

    @Test func snippetsAreAWindowOfTheValueWithItsEllipses() {
        var failures: [String] = []
        var generator = SeededGenerator(seed: 31)
        for example in HighlightPropertyTests.cases(seed: 32) {
            let builder = HighlightPropertyTests.builder(example)
            let wordCount = Int.random(in: 1...6, using: &generator)
            let ellipsis = generator.pick(["…", "...", "<…>"])
            let snippet = builder.snippet(example.value, wordCount: wordCount, ellipsis: ellipsis)["value"]?.stringValue ?? ""
            let describe = "\(example.value.debugDescription) for \(example.query.debugDescription), \(wordCount) words"
            guard let parts = HighlightPropertyTests.parts(snippet, tags: example.tags) else {
                failures.append("unbalanced tags in \(snippet.debugDescription): \(describe)")
                continue
            }
            var plain = parts.map(\.text).joined()
            let tokens = Tokenizer.tokens(example.value, separators: .none)
            if tokens.count > wordCount {
                let startsLate = plain.hasPrefix(ellipsis + " ")
                let endsEarly = plain.hasSuffix(" " + ellipsis)
                if startsLate { plain.removeFirst(ellipsis.count + 1) }
                if endsEarly { plain.removeLast(ellipsis.count + 1) }
                // The window is `wordCount` consecutive words of the value, from the first
                // character of the first to the last of the last, and the ellipses say whether
                // words were left out before and after it.
                let utf8 = Array(example.value.utf8)
                let windows = (0...(tokens.count - wordCount)).filter { start in
                    let text = String(decoding: utf8[tokens[start].start..<tokens[start + wordCount - 1].end], as: UTF8.self)
                    return text == plain && startsLate == (start > 0) && endsEarly == (start + wordCount < tokens.count)
                }
                if windows.isEmpty {
                    failures.append("\(snippet.debugDescription) is not a window of \(wordCount) words with its ellipses: \(describe)")
                }
            } else if plain != example.value {
                failures.append("a short value is not kept whole: \(snippet.debugDescription): \(describe)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5).joined(separator: "\n"))")
    }
}
