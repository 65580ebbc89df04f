import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Typos counted in letters (Unicode scalars), not in UTF-8 bytes: a Cyrillic or Greek letter
/// missing, extra, wrong or swapped is one typo, as in Algolia.
@Suite struct TypoLettersTests {
    /// The distance between two words in letters (optimal string alignment: adjacent
    /// transpositions count one), computed directly.
    static func distance(_ a: [UInt32], _ b: [UInt32]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }

    /// What `TypoCandidates.find` must return for `word`: every term within `maxTypos` letters
    /// (as a whole word, or as the beginning of the term), other than exact matches.
    static func expected(_ word: String, isPrefix: Bool, maxTypos: Int, terms: [String]) -> [String: Int] {
        let query = word.unicodeScalars.map(\.value)
        var found: [String: Int] = [:]
        for term in terms {
            let letters = term.unicodeScalars.map(\.value)
            let typos = isPrefix ? (0...letters.count).map { distance(query, Array(letters.prefix($0))) }.min()! : distance(query, letters)
            if typos > 0, typos <= maxTypos { found[term] = typos }
        }
        return found
    }

    @Test func randomWordsOfMixedScriptsMatchTheDirectDistance() {
        var generator = SeededGenerator(seed: 29)
        let alphabet = Array("кошаеиαβγz") + ["ж", "ё"]
        for round in 0..<60 {
            let vocabulary = Array(Set((0..<80).map { _ in String((0..<Int.random(in: 1...6, using: &generator)).map { _ in generator.pick(alphabet) }) }))
            let (table, _) = TermTable.build(vocabulary)
            for _ in 0..<12 {
                let word = String((0..<Int.random(in: 1...6, using: &generator)).map { _ in generator.pick(alphabet) })
                guard !word.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
                for isPrefix in [false, true] {
                    for maxTypos in 1...2 {
                        let found = TypoCandidates.find(word, isPrefix: isPrefix, maxTypos: maxTypos, in: table)
                        let got = Dictionary(uniqueKeysWithValues: found.map { (table.term($0.term), $0.typos) })
                        #expect(got == Self.expected(word, isPrefix: isPrefix, maxTypos: maxTypos, terms: vocabulary),
                                "round \(round): \(word) prefix \(isPrefix) typos \(maxTypos)")
                    }
                }
            }
        }
    }

    @Test func aCyrillicOrGreekLetterIsOneTypo() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"]], records: [
            ["objectID": "cat", "name": "кошка"], ["objectID": "milk", "name": "молоко"], ["objectID": "coffee", "name": "καφές"],
        ])
        // An extra, a missing, a wrong and two swapped letters: one typo each (5 and 6 letters:
        // one typo allowed from 4 letters, two from 8).
        #expect(try index.search("кошкаа ").objectIDs == ["cat"])
        #expect(try index.search("кошa ", ["typoTolerance": true]).objectIDs.isEmpty)   // a Latin "a": two letters away
        #expect(try index.search("кшка ").objectIDs == ["cat"])
        #expect(try index.search("молако ").objectIDs == ["milk"])
        #expect(try index.search("молкоо ").objectIDs == ["milk"])
        #expect(try index.search("καφέςς ").objectIDs == ["coffee"])
        let ranked = try index.search("кошкаа ", ["getRankingInfo": true])
        #expect(ranked.hits.first?["_rankingInfo"]?["nbTypos"] == 1)
        // Two letters wrong in a word of 6: not found (one typo allowed below 8 letters).
        #expect(try index.search("мплвко ").objectIDs.isEmpty)
    }
}
