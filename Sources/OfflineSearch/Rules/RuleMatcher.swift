import SearchAPI

/// A condition's pattern as the elements to find among a query's words: literal words (folded
/// and split as the index's text is) and `{facet:attribute}` placeholders. `\:`, `\{`, `\}` and
/// `\\` are the literal characters.
struct RulePattern: Sendable, Hashable {
    enum Element: Sendable, Hashable {
        /// One folded word.
        case word(PatternWord)
        /// Any whole value of the facet attribute (one word or several).
        case facet(String)
    }

    let elements: [Element]

    init(_ pattern: String, separators: TokenizerRules) {
        var elements: [Element] = []
        var literal = ""
        func flush() {
            elements += Tokenizer.words(literal, separators: separators).map { .word(PatternWord($0)) }
            literal = ""
        }
        var characters = pattern[...]
        while let character = characters.popFirst() {
            if character == "\\", let escaped = characters.first {
                literal.append(escaped)
                characters = characters.dropFirst()
            } else if character == "{", characters.hasPrefix("facet:"), let close = characters.firstIndex(of: "}") {
                flush()
                elements.append(.facet(String(characters[characters.index(characters.startIndex, offsetBy: 6)..<close])))
                characters = characters[characters.index(after: close)...]
            } else {
                literal.append(character)
            }
        }
        flush()
        self.elements = elements
    }
}

/// A literal word of a pattern, with what `alternatives` compares it by, made once: its plural
/// and singular forms, and its letters for counting typos.
struct PatternWord: Sendable, Hashable {
    let word: String
    let pluralForms: Set<String>
    let scalars: [Unicode.Scalar]

    init(_ word: String) {
        self.word = word
        pluralForms = Set(EnglishLanguage.pluralForms(of: word))
        scalars = Array(word.unicodeScalars)
    }
}

/// Where a condition's pattern was found in the query: the range of query words it covers, and
/// the facet value each placeholder stood for.
struct PatternMatch: Sendable, Hashable {
    var words: Range<Int>
    var facets: [FacetMatch]
    /// How many of the pattern's elements were literal words (a literal beats a placeholder).
    var literalCount: Int

    struct FacetMatch: Sendable, Hashable {
        var attribute: String
        /// The value as stored (the filter's value).
        var value: String
        var words: Range<Int>
    }
}

/// A query as the rules see it: its folded words with their places in the text, and what
/// matching them needs from the index (facet values for placeholders, synonyms, plurals).
struct RuleQuery {
    let text: String
    let tokens: [Token]
    /// Each token's letters, for counting typos.
    let scalars: [[Unicode.Scalar]]
    /// Each token's one-word synonyms (the words the index's synonyms let it stand for).
    let synonyms: [Set<String>]
    let state: IndexState

    init(_ text: String, state: IndexState) {
        self.text = text
        self.state = state
        tokens = Tokenizer.tokens(text, separators: state.configuration.separators)
        scalars = tokens.map { Array($0.folded.unicodeScalars) }
        let table = state.configuration.synonyms
        synonyms = tokens.map { token in Set(table.alternatives(of: [token.folded]).compactMap { $0.count == 1 ? $0[0] : nil }) }
    }

    var count: Int { tokens.count }

    /// Where `pattern` is found with `anchoring`: the earliest place (and, there, literals
    /// before placeholders and the longest facet values first). Nil when it is not.
    /// - Complexity: O(elements × words × longest facet value): a place where the rest of the
    ///   pattern failed once is not tried again.
    func find(_ pattern: RulePattern, anchoring: RuleAnchoring, alternatives: Bool) -> PatternMatch? {
        let elements = pattern.elements[...]
        guard !elements.isEmpty else {
            return anchoring == .is && tokens.isEmpty ? PatternMatch(words: 0..<0, facets: [], literalCount: 0) : nil
        }
        var failed = Set<Int>()
        func attempt(_ start: Int, mustEnd: Bool) -> PatternMatch? {
            match(elements, from: start, start: start, mustEnd: mustEnd, alternatives: alternatives, failed: &failed)
        }
        switch anchoring {
        case .is: return attempt(0, mustEnd: true)
        case .startsWith: return attempt(0, mustEnd: false)
        case .endsWith:
            for start in 0..<max(tokens.count, 1) {
                if let found = attempt(start, mustEnd: true) { return found }
            }
            return nil
        case .contains:
            for start in 0..<max(tokens.count, 1) {
                guard var found = attempt(start, mustEnd: false) else { continue }
                // A lone placeholder finds every value of its facet in the query (`red and blue
                // shirts`: red, blue), for an automatic facet filter to AND or OR them.
                if elements.count == 1, case .facet = elements[elements.startIndex] {
                    var next = found.words.upperBound
                    while next < tokens.count {
                        guard let more = attempt(next, mustEnd: false) else {
                            next += 1
                            continue
                        }
                        found.facets += more.facets
                        found.words = found.words.lowerBound..<more.words.upperBound
                        next = more.words.upperBound
                    }
                }
                return found
            }
            return nil
        }
    }

    /// The rest of a pattern (`elements`) found from `position`; `failed` holds the places
    /// (element, word) where it was not, so none is tried twice.
    private func match(_ elements: ArraySlice<Pattern.Element>, from position: Int, start: Int, mustEnd: Bool,
                       alternatives: Bool, failed: inout Set<Int>) -> PatternMatch? {
        guard let element = elements.first else {
            guard !mustEnd || position == tokens.count else { return nil }
            return PatternMatch(words: start..<position, facets: [], literalCount: 0)
        }
        guard position < tokens.count else { return nil }
        let place = elements.startIndex * (tokens.count + 1) + position
        guard !failed.contains(place) else { return nil }
        switch element {
        case .word(let word):
            if matches(position, word, alternatives: alternatives),
               var found = match(elements.dropFirst(), from: position + 1, start: start, mustEnd: mustEnd, alternatives: alternatives,
                                 failed: &failed) {
                found.literalCount += 1
                return found
            }
        case .facet(let attribute):
            let phrases = state.facetPhrases(attribute)
            for length in stride(from: min(phrases.longest, tokens.count - position), through: 1, by: -1) {
                let words = tokens[position..<(position + length)].map(\.folded)
                guard let value = phrases.value(of: words),
                      var found = match(elements.dropFirst(), from: position + length, start: start, mustEnd: mustEnd,
                                        alternatives: alternatives, failed: &failed) else { continue }
                found.facets.insert(.init(attribute: attribute, value: value, words: position..<(position + length)), at: 0)
                return found
            }
        }
        failed.insert(place)
        return nil
    }

    typealias Pattern = RulePattern

    /// Whether the query word at `position` stands for the pattern's `word`: the same folded
    /// word, or with `alternatives` one step away: a plural or singular, a one-word synonym, or a
    /// typo (one for words of 4 letters or more, two from 8).
    func matches(_ position: Int, _ word: PatternWord, alternatives: Bool) -> Bool {
        let queryWord = tokens[position].folded
        if queryWord == word.word { return true }
        guard alternatives else { return false }
        if word.pluralForms.contains(queryWord) || synonyms[position].contains(word.word) { return true }
        let letters = scalars[position]
        guard letters.count >= 4 else { return false }
        let limit = letters.count >= 8 ? 2 : 1
        guard abs(letters.count - word.scalars.count) <= limit else { return false }
        return RuleQuery.editDistance(letters, word.scalars, limit: limit) != nil
    }

    /// The Damerau–Levenshtein distance (adjacent transpositions count one) when at most `limit`;
    /// three rows on the stack, and an early stop once every cell of a row is past `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        let width = b.count + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows -> Int? in
            var twoBefore = 0, previous = width, current = 2 * width
            for j in 0..<width { rows[previous + j] = j }
            for i in 1...a.count {
                rows[current] = i
                var smallest = i
                for j in 1...b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, rows[twoBefore + j - 2] + 1) }
                    rows[current + j] = value
                    smallest = min(smallest, value)
                }
                if smallest > limit { return nil }
                (twoBefore, previous, current) = (previous, current, twoBefore)
            }
            let distance = rows[previous + b.count]
            return distance <= limit ? distance : nil
        }
    }
}

/// The values of one facet attribute by their folded words, for `{facet:attribute}`
/// placeholders: a run of query words finds the value whose words they are.
struct FacetPhrases: Sendable {
    private var byWords: [[String]: String] = [:]
    /// The most words in a value.
    private(set) var longest = 0

    static let empty = FacetPhrases()

    init() {}

    /// The values of `attribute` in every segment of `state` (those with no live record too: a
    /// rule that filters on one finds nothing, as a filter on it would).
    init(_ attribute: String, state: IndexState) {
        let separators = state.configuration.separators
        for segment in state.segments {
            guard let column = segment.snapshot.facetColumn(attribute) else { continue }
            for id in 0..<column.values.count {
                let value = column.values[id]
                let words = Tokenizer.words(value, separators: separators)
                guard !words.isEmpty, byWords[words] == nil else { continue }
                byWords[words] = value
                longest = max(longest, words.count)
            }
        }
    }

    func value(of words: [String]) -> String? { byWords[words] }
}
