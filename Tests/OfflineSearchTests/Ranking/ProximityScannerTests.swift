import Testing
@testable import OfflineSearch
import SearchAPI
import OfflineSearchTestSupport

/// The proximity scan passes over the words no query word matches and works a word's position
/// and its place in its attribute out from its index. Checked here against a plain reading of
/// the forward index, word by word with a running position, on seeded random records whose
/// values are arrays as well as strings, in ordered and unordered attributes, for every
/// attribute strategy: the distance, the attribute of the closest pairs and the rank sum must
/// be the same, whether the scan reads through the vocabulary table (many records) or tests
/// each word (a few).
@Suite struct ProximityScannerTests {
    static let vocabulary = ["apple", "watch", "band", "blue", "pro", "max", "case", "red", "black", "mini"]

    static func record(_ id: Int, using generator: inout SeededGenerator) -> JSONObject {
        func words(_ range: ClosedRange<Int>) -> String {
            (0..<Int.random(in: range, using: &generator)).map { _ in generator.pick(vocabulary) }.joined(separator: " ")
        }
        var record: JSONObject = ["objectID": .string("r\(id)")]
        if generator.chance(90) { record["name"] = .string(words(0...6)) }
        if generator.chance(60) { record["tags"] = .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in .string(words(1...3)) }) }
        if generator.chance(70) { record["description"] = .string(words(0...24)) }
        if generator.chance(20) { record["notes"] = .array([.string(words(1...4)), .string(words(0...2))]) }
        return record
    }

    /// The scan as first written: every word read, its position counted as it goes.
    static func reference(_ document: Int, words: [WordTerms], forward: ForwardIndex, attributes: [SearchableAttribute],
                          minProximity: Int, sums: Bool) -> ProximityScanner.Match {
        let count = words.count
        guard count > 1 else { return ProximityScanner.Match(distance: 0, attributeRank: nil) }
        var last = [Int?](repeating: nil, count: count)
        var best = [Int](repeating: 8, count: count - 1)
        var pairRank = [UInt16](repeating: PostingRank.unmatched, count: count - 1)
        var wordRank = [UInt16](repeating: PostingRank.unmatched, count: count)
        var position = 0, inAttribute = 0, currentAttribute = -1, adjacentPairs = 0
        var attributeRank: UInt16 = 0, ordered = false
        reading: for index in Int(forward.starts[document])..<Int(forward.starts[document + 1]) {
            let term = forward.terms[index]
            if ForwardIndex.isMarker(term) {
                position += 8
                let ordinal = ForwardIndex.attribute(ofMarker: term)
                if ordinal != currentAttribute {
                    currentAttribute = ordinal
                    inAttribute = 0
                    let attribute = ordinal < attributes.count ? attributes[ordinal] : SearchableText.anyAttribute
                    attributeRank = PostingRank.rank(level: attribute.level, position: 0)
                    ordered = attribute.ordered
                }
                continue
            }
            for word in 0..<count where words[word].matches(term) {
                if sums {
                    wordRank[word] = min(wordRank[word], attributeRank | UInt16(min(ordered ? inAttribute : 0, PostingRank.maxPosition)))
                }
                for (pair, other) in [(word - 1, word - 1), (word, word + 1)] where pair >= 0 && other < count {
                    guard let previous = last[other], position - previous < best[pair] else { continue }
                    let distance = position - previous
                    best[pair] = distance
                    if distance < 8 {
                        pairRank[pair] = attributeRank | UInt16(min(ordered ? max(0, inAttribute - distance) : 0, PostingRank.maxPosition))
                    }
                    if distance == 1 { adjacentPairs += 1 }
                }
                last[word] = position
            }
            if adjacentPairs == count - 1, !sums { break reading }
            position += 1
            inAttribute += 1
        }
        let closest = (0..<(count - 1)).filter { best[$0] < 8 }.map { pairRank[$0] }.min()
        let distance = (0..<(count - 1)).reduce(0) { $0 + max(minProximity, min(best[$1], 8)) }
        let found = wordRank.filter { $0 != PostingRank.unmatched }
        return ProximityScanner.Match(distance: distance, attributeRank: closest,
                                      rankSum: sums && !found.isEmpty ? found.reduce(0) { $0 + Int($1) } : nil)
    }

    /// Odd seeds search every attribute (no `searchableAttributes`: one level, unordered).
    @Test(arguments: 0..<6) func theScanReadsAsEveryWordReadInTurn(seed: Int) throws {
        let settings: JSONObject = seed % 2 == 0 ? ["searchableAttributes": ["name", "tags", "unordered(description)", "notes"]] : [:]
        let configuration = try IndexConfiguration(settings: IndexSettings(json: settings))
        var generator = SeededGenerator(seed: UInt64(70 + seed))
        let inputs = (0..<300).map { SnapshotBuilder.Input(rowID: Int64($0 + 1), record: ProximityScannerTests.record($0, using: &generator)) }
        let snapshot = SnapshotBuilder.build(inputs, configuration: configuration, generation: 1)
        let terms = snapshot.terms
        var compared = 0
        for _ in 0..<60 {
            // Two to five query words: a word, a prefix (a range of terms), or a word with others.
            let words: [WordTerms] = (0..<Int.random(in: 2...5, using: &generator)).compactMap { _ in
                let word = generator.pick(ProximityScannerTests.vocabulary)
                if generator.chance(20) {
                    let range = terms.ids(withPrefix: String(word.prefix(1)))
                    return WordTerms(range: UInt32(range.lowerBound)..<UInt32(range.upperBound), others: [])
                }
                guard let id = terms.id(of: word) else { return nil }
                let others = generator.chance(25) ? [terms.id(of: generator.pick(ProximityScannerTests.vocabulary))].compactMap { $0.map(UInt32.init) } : []
                return WordTerms(range: UInt32(id)..<UInt32(id + 1), others: others.filter { $0 != UInt32(id) })
            }
            guard words.count > 1 else { continue }
            let strategy = generator.pick(AttributeStrategy.allCases)
            let minProximity = generator.chance(25) ? 2 : 1
            var candidates = CandidateMatches(
                matched: DocumentSet(capacity: snapshot.documentCount), levels: [], attributeRanks: nil, orderedLevels: [], exact: [],
                byTypos: [], variantTerms: [], optionalSets: [], wordTerms: words, forward: snapshot.forward,
                vocabularySize: terms.count, searchable: configuration.searchable ?? [])
            candidates.attributeStrategy = strategy
            candidates.minProximity = minProximity
            // 300 records read: through the vocabulary table (`ProximityScanner` makes one for
            // more than 256); one: each word tested.
            let throughTable = ProximityScanner(candidates, documents: snapshot.documentCount)
            let wordByWord = ProximityScanner(candidates, documents: 1)
            var tableMatches: [Int: ProximityScanner.Match] = [:]
            throughTable.scan(Array(0..<snapshot.documentCount)) { document, match in
                tableMatches[document] = match
                return true
            }
            for document in 0..<snapshot.documentCount {
                let expected = ProximityScannerTests.reference(document, words: words, forward: snapshot.forward,
                                                               attributes: configuration.searchable ?? [], minProximity: minProximity,
                                                               sums: strategy == .sum)
                let table = try #require(tableMatches[document])
                let plain = wordByWord.scan(document)
                #expect(table.distance == expected.distance && table.attributeRank == expected.attributeRank
                        && table.rankSum == expected.rankSum, "document \(document), through the table, \(strategy)")
                #expect(plain.distance == expected.distance && plain.attributeRank == expected.attributeRank
                        && plain.rankSum == expected.rankSum, "document \(document), word by word, \(strategy)")
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }
}
