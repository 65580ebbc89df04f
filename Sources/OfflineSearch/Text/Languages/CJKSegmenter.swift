import Foundation

/// Splits a run of Chinese or Japanese characters (written without spaces) into words, as
/// Algolia does with its dictionaries, so a word inside a sentence is found, highlighted and
/// counted as a word for proximity.
///
/// The tokenizer hands it each maximal run of Han, Hiragana and Katakana characters (folded:
/// kana without voicing marks, as Algolia normalizes them). A run of Katakana is one word (a
/// loanword); the rest is split by dynamic programming over the dictionary (`CJKDictionary`):
/// each dictionary word of rank r (0 the most frequent) costs ln(r + 10), any single character
/// ln(N + 10) + 3 for a dictionary of N words, and the split with the least total cost wins (the
/// longer word on a tie). Segmenting then joining loses no character. Korean, written with
/// spaces between words, is not segmented.
enum CJKSegmenter {
    /// The scripts segmented here.
    @inline(__always) static func isSegmented(_ value: UInt32) -> Bool {
        switch value {
        case 0x3040...0x30FF, 0x31F0...0x31FF,          // Hiragana, Katakana (with ー), Katakana extensions
             0x3400...0x4DBF, 0x4E00...0x9FFF,          // CJK ideographs, extension A
             0xF900...0xFAFF, 0x20000...0x2FFFF:        // compatibility ideographs, extensions B–F
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

    /// The least-cost split of `run[range]` into dictionary words and single characters.
    private static func split(_ run: [UInt32], _ range: Range<Int>, into words: inout [Range<Int>]) {
        let dictionary = CJKDictionary.shared
        let count = range.count
        if count == 1 {
            words.append(range)
            return
        }
        // cost[i]: the least cost of the first i characters; wordLength[i]: the length of the last
        // word of that split.
        var cost = [Double](repeating: .infinity, count: count + 1)
        var wordLength = [Int](repeating: 1, count: count + 1)
        cost[0] = 0
        for i in 0..<count where cost[i] < .infinity {
            let single = cost[i] + dictionary.unknownCost
            if single < cost[i + 1] {
                cost[i + 1] = single
                wordLength[i + 1] = 1
            }
            dictionary.forEachWord(in: run, at: range.lowerBound + i, end: range.upperBound) { length, wordCost in
                let total = cost[i] + wordCost
                let j = i + length
                if total < cost[j] || (total == cost[j] && length > wordLength[j]) {
                    cost[j] = total
                    wordLength[j] = length
                }
            }
        }
        var ends: [Int] = []
        var j = count
        while j > 0 {
            ends.append(j)
            j -= wordLength[j]
        }
        var previous = 0
        for end in ends.reversed() {
            words.append((range.lowerBound + previous)..<(range.lowerBound + end))
            previous = end
        }
    }
}

/// The words `CJKSegmenter` knows: Chinese and Japanese words (2 to 8 characters), ranked by
/// frequency, read once from `CJKDictionary+Words.swift` on first use and folded as text is.
/// Laid out flat: each first character points to its words' entries, longest first.
struct CJKDictionary: Sendable {
    static let shared = CJKDictionary(lists: [chineseWords, japaneseWords])

    /// The cost of a character that starts no dictionary word.
    let unknownCost: Double
    private let firstCharacters: [UInt32: Range<Int>]
    /// (offset of the word's characters after the first in `characters`, length, cost)
    private let entries: [(offset: Int32, length: Int32, cost: Double)]
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
        unknownCost = Foundation.log(Double(ranks.count) + 10) + 3
        var byFirst: [UInt32: [(word: [UInt32], rank: Int)]] = [:]
        for (word, rank) in ranks { byFirst[word[0], default: []].append((word, rank)) }
        var firstCharacters: [UInt32: Range<Int>] = [:]
        var entries: [(offset: Int32, length: Int32, cost: Double)] = []
        var characters: [UInt32] = []
        for (first, words) in byFirst {
            let start = entries.count
            for (word, rank) in words.sorted(by: { $0.word.count != $1.word.count ? $0.word.count > $1.word.count : $0.word.lexicographicallyPrecedes($1.word) }) {
                entries.append((Int32(characters.count), Int32(word.count), Foundation.log(Double(rank) + 10)))
                characters += word.dropFirst()
            }
            firstCharacters[first] = start..<entries.count
        }
        self.firstCharacters = firstCharacters
        self.entries = entries
        self.characters = characters
    }

    /// Calls `body` with the length and cost of each dictionary word that `run` holds at `start`
    /// (ending at or before `end`).
    func forEachWord(in run: [UInt32], at start: Int, end: Int, _ body: (Int, Double) -> Void) {
        guard let range = firstCharacters[run[start]] else { return }
        for index in range {
            let entry = entries[index]
            let length = Int(entry.length)
            guard start + length <= end else { continue }
            var matches = true
            var offset = Int(entry.offset)
            for position in (start + 1)..<(start + length) {
                if characters[offset] != run[position] { matches = false; break }
                offset += 1
            }
            if matches { body(length, entry.cost) }
        }
    }
}
