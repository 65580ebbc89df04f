import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a
/// substring), computed plainly: the reference for the vocabulary walk.
func referenceTypos(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
        }
    }
    return d[a.count][b.count]
}

@Suite struct TypoCandidateTests {
    static func randomWord(_ generator: inout SeededGenerator, alphabet: [UInt8], length: ClosedRange<Int>) -> String {
        String(decoding: (0..<Int.random(in: length, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
    }

    /// The walk computes only the band of each row within the typos (Ukkonen's cut-off): words
    /// much longer or shorter than the terms (the second set: two letters, up to 12 of them)
    /// reach past the band on both sides. The last set's larger alphabets give each prefix many
    /// continuations, most of them out of reach, which the walk skips without their rows.
    @Test(arguments: [(1, "abcde", 7, 6), (2, "abcde", 7, 6), (3, "abcde", 7, 6), (4, "abcde", 7, 6), (5, "abcde", 7, 6),
                      (6, "ab", 12, 10), (7, "abc", 12, 4), (8, "ab", 3, 11),
                      (9, "abcdefghijklmnopqrstuvwxyz", 9, 9), (10, "aeinorst", 8, 9)])
    func theVocabularyWalkFindsExactlyTheWordsWithinReach(_ setup: (seed: Int, letters: String, longestTerm: Int, longestQuery: Int)) {
        let (seed, letters, longestTerm, longestQuery) = setup
        var generator = SeededGenerator(seed: UInt64(seed))
        let alphabet = Array(letters.utf8)   // a small alphabet makes near misses common
        let vocabulary = Array(Set((0..<600).map { _ in TypoCandidateTests.randomWord(&generator, alphabet: alphabet, length: 1...longestTerm) }))
        let (table, _) = TermTable.build(vocabulary)
        for _ in 0..<40 {
            let query = TypoCandidateTests.randomWord(&generator, alphabet: alphabet, length: 1...longestQuery)
            let q = Array(query.utf8)
            for maxTypos in 1...2 {
                for isPrefix in [false, true] {
                    let found = TypoCandidates.find(query, isPrefix: isPrefix, maxTypos: maxTypos, in: table)
                    var expected: [Int: Int] = [:]
                    for id in 0..<table.count {
                        let term = Array(table.term(id).utf8)
                        let typos = isPrefix
                            ? (0...term.count).map { referenceTypos(Array(term[0..<$0]), q) }.min()!
                            : referenceTypos(term, q)
                        if typos > 0, typos <= maxTypos { expected[id] = typos }
                    }
                    let actual = Dictionary(found.map { ($0.term, $0.typos) }, uniquingKeysWith: { min($0, $1) })
                    #expect(actual == expected, "query \(query), maxTypos \(maxTypos), prefix \(isPrefix)")
                    #expect(found.count == actual.count, "no term twice")
                }
            }
        }
    }

    @Test func aTranspositionIsOneTypo() {
        let (table, _) = TermTable.build(["iphone", "samsung", "galaxy"])
        let found = TypoCandidates.find("iphoen", isPrefix: false, maxTypos: 1, in: table)
        #expect(found == [TypoCandidates.Candidate(term: table.id(of: "iphone")!, typos: 1)])
        #expect(TypoCandidates.find("samsnug", isPrefix: true, maxTypos: 1, in: table).map { table.term($0.term) } == ["samsung"])
    }
}

@Suite struct TypoToleranceTests {
    static let records: [JSONValue] = [
        ["objectID": "iphone", "name": "Apple iPhone 15", "rank": 1],
        ["objectID": "galaxy", "name": "Samsung Galaxy S24", "rank": 2],
        ["objectID": "headphones", "name": "Wireless headphones", "rank": 3],
        ["objectID": "charger", "name": "USB charger 2024", "rank": 4],
        ["objectID": "chargers", "name": "Chargers pack", "rank": 5],
    ]

    static func makeIndex(_ engine: TestEngine, settings: JSONObject = [:]) throws -> SearchIndex {
        var all: JSONObject = ["searchableAttributes": ["name"], "customRanking": ["desc(rank)"]]
        for (key, value) in settings { all[key] = value }
        return try engine.index(settings: all, records: records)
    }

    @Test func typosAreForgivenByWordLength() throws {
        let engine = try TestEngine()
        let index = try TypoToleranceTests.makeIndex(engine)
        #expect(try index.search("iphoen").objectIDs == ["iphone"])              // 6 letters, 1 typo (transposition)
        #expect(try index.search("samsnug gal").objectIDs == ["galaxy"])          // a typo, then a prefix
        #expect(try index.search("galxy").objectIDs == ["galaxy"])               // a missing letter
        #expect(try index.search("gal").objectIDs == ["galaxy"])
        #expect(try index.search("aple ").objectIDs == ["iphone"])               // 4 letters: one typo
        #expect(try index.search("usv ").nbHits == 0)                            // 3 letters: none
        #expect(try index.search("headphonse").objectIDs == ["headphones"])      // 10 letters
        #expect(try index.search("hedphonse ").objectIDs == ["headphones"])      // two typos, 9 letters
        #expect(try index.search("wirles ").nbHits == 0)                         // two typos, 6 letters: one allowed
    }

    @Test func fewerTyposRankFirstWhateverTheCustomRanking() throws {
        let engine = try TestEngine()
        let index = try TypoToleranceTests.makeIndex(engine)
        // "charger" is exact for one record and one typo from "chargers" (ranked higher by rank).
        #expect(try index.search("charger ").objectIDs == ["charger", "chargers"])
        let info = try index.search("charger ", ["typoTolerance": "min"])
        #expect(info.objectIDs == ["charger"])
        #expect(try index.search("charger ", ["typoTolerance": "strict"]).objectIDs == ["charger", "chargers"])
        #expect(try index.search("charger ", ["typoTolerance": false]).objectIDs == ["charger"])
        #expect(try index.search("charger ", ["typoTolerance": "false"]).objectIDs == ["charger"])
    }

    /// `typoTolerance: "min"` keeps the fewest typos found in the index's records. A segment of
    /// recent writes that matches nothing must not count as "found with no typo": records matched
    /// with one typo elsewhere stay (as in the index derived whole from the same records).
    @Test func aWriteSegmentThatMatchesNothingLeavesMinTyposAlone() throws {
        let engine = try TestEngine()
        let index = try TypoToleranceTests.makeIndex(engine)
        #expect(try index.search("iphoen", ["typoTolerance": "min"]).objectIDs == ["iphone"])
        try index.saveObjects([["objectID": "bag", "name": "Laptop bag", "rank": 9]])
        #expect(index.deltaCount == 1)
        for mode: JSONValue in ["min", "strict"] {
            #expect(try index.search("iphoen", ["typoTolerance": mode]).objectIDs == ["iphone"], "\(mode)")
            #expect(try index.search("charger ", ["typoTolerance": mode]).objectIDs == (mode == "min" ? ["charger"] : ["charger", "chargers"]))
        }
    }

    @Test func typoOptions() throws {
        let engine = try TestEngine()
        let index = try TypoToleranceTests.makeIndex(engine, settings: ["minWordSizefor1Typo": 3])
        #expect(try index.search("usv ").objectIDs == ["charger"])
        #expect(try index.search("usv ", ["minWordSizefor1Typo": 4]).nbHits == 0)
        // Two typos from `minWordSizefor2Typos` letters (8 by default), counted in `_rankingInfo`.
        #expect(try index.search("wirles ").nbHits == 0)
        let twoTypos = try index.search("wirles ", ["minWordSizefor2Typos": 6, "getRankingInfo": true])
        #expect(twoTypos.objectIDs == ["headphones"])
        #expect(twoTypos.hits.first?["_rankingInfo"]?["nbTypos"] == 2)
        #expect(try index.search("2025 ").objectIDs == ["charger"])
        #expect(try index.search("2025 ", ["allowTyposOnNumericTokens": false]).nbHits == 0)
        #expect(try index.search("iphoen", ["disableTypoToleranceOnWords": ["iphoen"]]).nbHits == 0)
        #expect(throws: SearchError.self) { try index.search("x", ["typoTolerance": "sometimes"]) }
    }

    @Test func typoMatchesAreHighlighted() throws {
        let engine = try TestEngine()
        let index = try TypoToleranceTests.makeIndex(engine)
        let hit = try #require(try index.search("samsnug gal").hits.first)
        #expect(hit["_highlightResult"]?["name"]?["value"] == "<em>Samsung</em> <em>Gal</em>axy S24")
        #expect(hit["_highlightResult"]?["name"]?["matchedWords"] == ["samsnug", "gal"])
        #expect(hit["_highlightResult"]?["name"]?["matchLevel"] == "full")
    }
}
