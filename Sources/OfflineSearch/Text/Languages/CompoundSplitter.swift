/// Splits compound words into their parts (`fussballschuhe` → `fussball`, `schuhe`), for
/// `decompoundedAttributes` (at indexing) and `decompoundQuery` (in the query), in the languages
/// Algolia decompounds: German, Dutch, Finnish, Danish, Swedish and Norwegian.
///
/// Works on folded words. A word of at least `minimumLength` letters is split into two to
/// `maximumParts` parts, each a word of the language's list (`CompoundParts`, at least
/// `minimumPartLength` letters), with one of the language's linking elements allowed between two
/// parts (a German `s` or `n` where the list has only the bare word). Of the splits found, the one with
/// the fewest parts wins, then the one whose last part (the head of the compound) is longest,
/// then the fewest linking letters, then the longest parts from the first on: the reference is
/// `Benchmarks/decompound/split.py`. A word with no split has no parts; a word of the list is
/// split too (most compounds are in it). Finnish and Swedish have no list here (their only
/// sources offline carry share-alike terms; see `make_compound_parts.py`): their words are not split.
struct CompoundSplitter: Sendable, Hashable {
    /// The languages with a list of parts.
    static let languages: [String] = ["da", "de", "fi", "nl", "no", "sv"]

    static let minimumLength = 6
    static let minimumPartLength = 3
    static let maximumParts = 4

    /// What may join two parts, per language (folded).
    static let linkingElements: [String: [String]] = [
        "de": ["s", "es", "n", "en", "e", "er"], "nl": ["s", "e", "en"], "sv": ["s", "a", "e", "u", "o"],
        "da": ["s", "e"], "no": ["s", "e"], "fi": [],
    ]

    /// The languages split in (those of the list given that decompound), sorted: what two
    /// splitters are compared by.
    let languages: [String]
    private let words: Set<String>
    private let links: [String]
    private let longestWord: Int

    static func == (lhs: CompoundSplitter, rhs: CompoundSplitter) -> Bool { lhs.languages == rhs.languages }
    func hash(into hasher: inout Hasher) { hasher.combine(languages) }

    /// The splitter for these languages (their words and links together); nil when none of them
    /// decompounds.
    init?(languages: [String]) {
        let known = Set(languages).intersection(Self.languages).sorted()
        guard !known.isEmpty else { return nil }
        self.languages = known
        var words: Set<String> = []
        var links: Set<String> = []
        for language in known {
            words.formUnion(Self.words(of: language))
            links.formUnion(Self.linkingElements[language] ?? [])
        }
        self.words = words
        self.links = [""] + links.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        longestWord = words.lazy.map(\.count).max() ?? 0
    }

    /// The parts of `word` (folded), or none when it is not a compound of the list's words.
    func parts(of word: String) -> [String] {
        let letters = Array(word.unicodeScalars)
        guard !words.isEmpty, letters.count >= Self.minimumLength, letters.allSatisfy({ $0.properties.isAlphabetic }) else { return [] }
        var best: [Range<Int>]?
        var current: [Range<Int>] = []
        search(letters, from: 0, current: &current, best: &best)
        guard let best, best.count >= 2 else { return [] }
        return best.map { String(String.UnicodeScalarView(letters[$0])) }
    }

    /// Depth-first over the splits of `letters[start...]`, keeping the best whole split by
    /// `precedes` (the order of `Benchmarks/decompound/split.py`, step 4).
    private func search(_ letters: [Unicode.Scalar], from start: Int, current: inout [Range<Int>], best: inout [Range<Int>]?) {
        guard current.count < Self.maximumParts else { return }
        if let best, current.count + 1 > best.count { return }   // cannot beat a split with fewer parts
        let longest = min(longestWord, letters.count - start)
        guard longest >= Self.minimumPartLength else { return }
        for length in stride(from: longest, through: Self.minimumPartLength, by: -1) {
            // A whole word is not its own split: the first part leaves room for another.
            if current.isEmpty, length == letters.count { continue }
            let end = start + length
            guard words.contains(String(String.UnicodeScalarView(letters[start..<end]))) else { continue }
            current.append(start..<end)
            if end == letters.count {
                if current.count >= 2, best.map({ Self.precedes(current, $0, wordLength: letters.count) }) ?? true { best = current }
            } else {
                for link in links {
                    let linkLetters = Array(link.unicodeScalars)
                    guard end + linkLetters.count < letters.count,
                          letters[end..<(end + linkLetters.count)].elementsEqual(linkLetters) else { continue }
                    search(letters, from: end + linkLetters.count, current: &current, best: &best)
                }
            }
            current.removeLast()
        }
    }

    /// Whether split `a` comes before split `b`: fewer parts; then a longer last part; then fewer
    /// letters in linking elements; then longer parts, from the first on.
    private static func precedes(_ a: [Range<Int>], _ b: [Range<Int>], wordLength: Int) -> Bool {
        if a.count != b.count { return a.count < b.count }
        if a.last!.count != b.last!.count { return a.last!.count > b.last!.count }
        let linksA = wordLength - a.reduce(0) { $0 + $1.count }
        let linksB = wordLength - b.reduce(0) { $0 + $1.count }
        if linksA != linksB { return linksA < linksB }
        for (partA, partB) in zip(a, b) where partA.count != partB.count { return partA.count > partB.count }
        return false
    }

    /// A language's words, folded, read once.
    private static func words(of language: String) -> Set<String> {
        if let known = made.value[language] { return known }
        var words: Set<String> = []
        for word in (CompoundParts.lists[language] ?? "").split(separator: " ") {
            let folded = Tokenizer.words(String(word), separators: .none)
            if folded.count == 1, folded[0].unicodeScalars.count >= minimumPartLength { words.insert(folded[0]) }
        }
        made.modify { $0[language] = words }
        return words
    }

    private static let made = LockedValue<[String: Set<String>]>([:])
}
