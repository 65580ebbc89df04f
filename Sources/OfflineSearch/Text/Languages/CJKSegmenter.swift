import Foundation

/// Splits a run of Chinese or Japanese characters (written without spaces) into words, as
/// Algolia does with its dictionaries, so a word inside a sentence is found, highlighted and
/// counted as a word for proximity.
///
/// The tokenizer hands it each maximal run of Han, Hiragana and Katakana characters (folded:
/// kana without voicing marks, as Algolia normalizes them). A piece of Katakana is one word (a
/// loanword); any other piece is split by dynamic programming over the dictionary
/// (`CJKDictionary`): a dictionary word of rank r (0 the most frequent) costs
/// round(1000 · ln(r + 10)), any single character round(1000 · (ln(N + 10) + 3)) for a dictionary
/// of N words, the split with the least total cost wins, and on a tie the longer first word. The
/// reference is `Benchmarks/cjk/segment.py` (the specification: `make_cjk_dictionaries.py`);
/// the dictionary here is folded as text is, so words differing only by a voicing mark are one,
/// at their better rank. Segmenting then joining loses no character. Korean, written with
/// spaces between words, is not segmented. The measurement behind the choice of a dictionary
/// over character bigrams: `Benchmarks/cjk/RESULTS.md`.
enum CJKSegmenter {
    /// The scripts segmented here.
    @inline(__always) static func isSegmented(_ value: UInt32) -> Bool {
        switch value {
        case 0x3040...0x30FF, 0x31F0...0x31FF,          // Hiragana, Katakana (with ー), Katakana extensions
             0x3400...0x4DBF, 0x4E00...0x9FFF,          // CJK ideographs, extension A
             0xF900...0xFAFF, 0x20000...0x2FFFF,        // compatibility ideographs, extensions B–F
             0x3005, 0x3007, 0x3021...0x3029, 0x3038...0x303B:  // 々 〇 and the other Han letters of CJK Symbols
            return true
        default:
            return false
        }
    }

    @inline(__always) static func isKatakana(_ value: UInt32) -> Bool {
        (0x30A0...0x30FF).contains(value) || (0x31F0...0x31FF).contains(value)
    }

    /// Whether a word holds a character of the scripts Algolia gives no typo tolerance
    /// (Chinese, Japanese, Korean).
    static func hasCJK(_ word: String) -> Bool {
        word.unicodeScalars.contains { isSegmented($0.value) || (0xAC00...0xD7AF).contains($0.value) || (0x1100...0x11FF).contains($0.value) }
    }

    /// The words of `run` (folded scalars of the segmented scripts), as ranges of it, in order
    /// and covering it whole.
    static func segment(_ run: [UInt32]) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var start = 0
        while start < run.count {
            var end = start + 1
            let katakana = isKatakana(run[start])
            while end < run.count, isKatakana(run[end]) == katakana { end += 1 }
            if katakana {
                words.append(start..<end)
            } else {
                split(run, start..<end, into: &words)
            }
            start = end
        }
        return words
    }

    /// The least-cost split of `run[range]` into dictionary words and single characters, by
    /// dynamic programming from the end (so that ties go to the longer first word).
    private static func split(_ run: [UInt32], _ range: Range<Int>, into words: inout [Range<Int>]) {
        let dictionary = CJKDictionary.shared
        let count = range.count
        if count == 1 {
            words.append(range)
            return
        }
        // cost[i]: the least cost of splitting characters i..<count; wordLength[i]: the length of
        // the first word of that split.
        var cost = [Int](repeating: 0, count: count + 1)
        var wordLength = [Int](repeating: 1, count: count + 1)
        for i in stride(from: count - 1, through: 0, by: -1) {
            var best = dictionary.characterCost + cost[i + 1]
            var length = 1
            dictionary.forEachWord(in: run, at: range.lowerBound + i, end: range.upperBound) { wordLength, wordCost in
                let total = wordCost + cost[i + wordLength]
                if total < best || (total == best && wordLength > length) {
                    best = total
                    length = wordLength
                }
            }
            cost[i] = best
            wordLength[i] = length
        }
        var i = 0
        while i < count {
            words.append((range.lowerBound + i)..<(range.lowerBound + i + wordLength[i]))
            i += wordLength[i]
        }
    }
}

/// The words `CJKSegmenter` knows: Chinese and Japanese words (2 to 8 characters), ranked by
/// frequency, read once from `CJKDictionary+Words.swift` on first use and folded as text is.
/// Laid out flat: each pair of first characters points to its words' entries, longest first.
struct CJKDictionary: Sendable {
    static let shared = CJKDictionary(lists: [chineseWords, japaneseWords])

    /// The cost of a single character, whether or not it starts a dictionary word.
    let characterCost: Int
    private let firstPairs: [UInt64: Range<Int>]
    /// (offset of the word's characters after the first two in `characters`, length, cost)
    private let entries: [(offset: Int32, length: Int32, cost: Int)]
    private let characters: [UInt32]

    /// Words separated by spaces, most frequent first; a word in several lists keeps its best rank.
    init(lists: [String]) {
        var ranks: [[UInt32]: Int] = [:]
        for list in lists {
            var rank = 0
            for word in list.split(separator: " ") {
                var folded: [UInt32] = []
                var isWord = true
                for scalar in word.unicodeScalars {
                    switch CharacterFolding.fold(scalar) {
                    case .letters(let letters): folded += letters.unicodeScalars.map(\.value)
                    case .ignorable: continue
                    case .separator: isWord = false
                    }
                }
                if isWord, folded.count >= 2, folded.count <= 8, folded.allSatisfy(CJKSegmenter.isSegmented) {
                    ranks[folded] = min(ranks[folded] ?? .max, rank)
                }
                rank += 1
            }
        }
        characterCost = Self.rounded(1000 * (Foundation.log(Double(ranks.count) + 10) + 3))
        var byFirst: [UInt64: [(word: [UInt32], rank: Int)]] = [:]
        for (word, rank) in ranks { byFirst[UInt64(word[0]) << 32 | UInt64(word[1]), default: []].append((word, rank)) }
        var firstPairs: [UInt64: Range<Int>] = [:]
        var entries: [(offset: Int32, length: Int32, cost: Int)] = []
        var characters: [UInt32] = []
        for (first, words) in byFirst {
            let start = entries.count
            for (word, rank) in words.sorted(by: { $0.word.count != $1.word.count ? $0.word.count > $1.word.count : $0.word.lexicographicallyPrecedes($1.word) }) {
                entries.append((Int32(characters.count), Int32(word.count), Self.rounded(1000 * Foundation.log(Double(rank) + 10))))
                characters += word.dropFirst(2)
            }
            firstPairs[first] = start..<entries.count
        }
        self.firstPairs = firstPairs
        self.entries = entries
        self.characters = characters
    }

    /// Half away from zero, as the reference's costs (no rank falls near a half: see the script).
    private static func rounded(_ value: Double) -> Int { Int((value + 0.5).rounded(.down)) }

    /// Calls `body` with the length and cost of each dictionary word that `run` holds at `start`
    /// (ending at or before `end`).
    func forEachWord(in run: [UInt32], at start: Int, end: Int, _ body: (Int, Int) -> Void) {
        guard start + 1 < end, let range = firstPairs[UInt64(run[start]) << 32 | UInt64(run[start + 1])] else { return }
        for index in range {
            let entry = entries[index]
            let length = Int(entry.length)
            guard start + length <= end else { continue }
            var matches = true
            var offset = Int(entry.offset)
            for position in (start + 2)..<(start + length) {
                if characters[offset] != run[position] { matches = false; break }
                offset += 1
            }
            if matches { body(length, entry.cost) }
        }
    }
}
