import Testing
@testable import OfflineSearch

/// `TermTable.id(of:)` finds a word with one binary search; it must give what the table's
/// sorted order says: the word's place in it, or nil for every word that is not there
/// (a prefix of a term, a term with more letters, words before the first and after the last).
@Suite struct TermTableTests {
    @Test func aWordsIDIsItsPlaceInTheSortedVocabularyOrNone() {
        var generator = SeededGenerator(seed: 41)
        let alphabet = Array("abcz") + ["é", "ж", "α"]
        for round in 0..<80 {
            let vocabulary = Array(Set((0..<Int.random(in: 0...60, using: &generator)).map { _ in
                String((0..<Int.random(in: 1...5, using: &generator)).map { _ in generator.pick(alphabet) })
            }))
            let (table, ids) = TermTable.build(vocabulary)
            let sorted = vocabulary.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, word) in vocabulary.enumerated() {
                #expect(table.id(of: word) == Int(ids[index]), "round \(round): \(word)")
                #expect(table.term(Int(ids[index])) == word)
            }
            var probes = ["", "a", "zzzzzz", "\u{7F}", "ααααα"]
            for word in vocabulary {
                probes += [String(word.dropLast()), word + "a", word + "z", String(word.dropFirst())]
            }
            for _ in 0..<20 {
                probes.append(String((0..<Int.random(in: 1...6, using: &generator)).map { _ in generator.pick(alphabet) }))
            }
            for probe in probes {
                #expect(table.id(of: probe) == sorted.firstIndex(of: probe), "round \(round): \(probe)")
            }
        }
    }
}
