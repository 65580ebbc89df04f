import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Chinese and Japanese text split into words (`CJKSegmenter`): a word inside a sentence is
/// found, highlighted and counted as a word; Korean keeps its spaces; no typos in these scripts.
@Suite struct CJKTests {
    static let records: [JSONValue] = [
        ["objectID": "ja", "name": "日本語の辞書を買いました"],
        ["objectID": "zh", "name": "我们喜欢北京大学的图书馆"],
        ["objectID": "kyoto", "name": "京都の大学"],
        ["objectID": "tokyo", "name": "他们在东京都工作"],
        ["objectID": "ko", "name": "서울 특별시 도서관 컴퓨터실"],
        ["objectID": "mixed", "name": "iPhone用の携帯電話ケース"],
    ]

    func index() throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        return (engine, try engine.index(settings: ["searchableAttributes": ["name"]], records: Self.records))
    }

    @Test(arguments: [
        ("日本語", ["ja"], "<em>日本語</em>の辞書を買いました"),
        ("辞書", ["ja"], "日本語の<em>辞書</em>を買いました"),
        ("图书馆", ["zh"], "我们喜欢北京大学的<em>图书馆</em>"),
        ("北京大学", ["zh"], "我们喜欢<em>北京大学</em>的图书馆"),
        ("携帯電話", ["mixed"], "iPhone用の<em>携帯電話</em>ケース"),
        ("ケース", ["mixed"], "iPhone用の携帯電話<em>ケース</em>"),
        ("도서관", ["ko"], "서울 특별시 <em>도서관</em> 컴퓨터실"),
    ])
    func aWordInsideASentenceIsFoundAndHighlighted(_ query: String, _ expected: [String], _ highlighted: String) throws {
        let (owner, index) = try index()
        defer { withExtendedLifetime(owner) {} }
        let response = try index.search(query + " ")
        #expect(response.objectIDs == expected, "\(query)")
        #expect(response.hits.first?["_highlightResult"]?["name"]?["value"] == .string(highlighted))
    }

    @Test func aWordIsNotFoundInsideAnotherWord() throws {
        let (owner, index) = try index()
        defer { withExtendedLifetime(owner) {} }
        // 京都 (Kyoto) is not a word of 东京都 (Tokyo): only the Kyoto record.
        #expect(try index.search("京都 ").objectIDs == ["kyoto"])
        // As the word being typed, it is a prefix: 东京 finds 东京都.
        #expect(try index.search("东京").objectIDs == ["tokyo"])
    }

    @Test func wordsAreWordsForProximityAndTheQuery() throws {
        let (owner, index) = try index()
        defer { withExtendedLifetime(owner) {} }
        // A query written as a sentence is split the same way: every word must match.
        #expect(try index.search("辞書を買い ").objectIDs == ["ja"])
        let hit = try #require(try index.search("辞書を買い ", ["getRankingInfo": true]).hits.first)
        #expect(hit["_rankingInfo"]?["words"] == 3)
        #expect(hit["_rankingInfo"]?["proximityDistance"] == 2)
        // Folded: traditional forms read as simplified, as Algolia normalizes them.
        #expect(Tokenizer.words("日本語の辞書を買いました", separators: .none) == ["日本语", "の", "辞书", "を", "买い", "まし", "た"])
    }

    @Test func noTyposInTheseScripts() throws {
        let (owner, index) = try index()
        defer { withExtendedLifetime(owner) {} }
        // One character off, four characters long: Latin would allow a typo, these do not.
        #expect(try index.search("携帯電言 ").objectIDs.isEmpty)
        #expect(try index.search("컴퓨터싱 ").objectIDs.isEmpty)
        #expect(try index.search("컴퓨터실 ").objectIDs == ["ko"])
    }

    /// Segmenting then joining loses no character: the tokens of a text of Chinese and Japanese
    /// characters, marks and other letters cover every character that is not a separator, in
    /// order, each once.
    @Test func segmentingThenJoiningLosesNoCharacter() {
        var generator = SeededGenerator(seed: 32)
        let alphabet: [String] = Array("東京都日本語勉強大学北京我们喜欢的图书馆携帯電話ひらがなカタカナーで").map(String.init)
            + ["a", "Z", "7", " ", "、", "。", "\u{3099}", "é", "ｶ", "한"]
        for round in 0..<400 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in generator.pick(alphabet) }.joined()
            let tokens = Tokenizer.tokens(text, separators: .none)
            let utf8 = Array(text.utf8)
            // In order, not overlapping, each within the text.
            var previousEnd = 0
            for token in tokens {
                #expect(token.start >= previousEnd && token.start < token.end && token.end <= utf8.count, "round \(round): \(text)")
                previousEnd = token.end
            }
            // Joined, the tokens are the folded text without its separators.
            let folded = Tokenizer.words(text, separators: .none).joined()
            let expected = text.unicodeScalars.compactMap { scalar -> String? in
                if scalar.value < 0x80 {
                    return scalar.properties.isAlphabetic || scalar.properties.numericType != nil ? String(scalar).lowercased() : nil
                }
                if case .letters(let letters) = CharacterFolding.fold(scalar) { return letters }
                return nil
            }.joined()
            #expect(folded == expected, "round \(round): \(text)")
            // Each token's range holds the characters it was folded from.
            for token in tokens {
                let original = String(decoding: utf8[token.start..<token.end], as: UTF8.self)
                #expect(Tokenizer.words(original, separators: .none).joined() == token.folded, "round \(round): \(text)")
            }
        }
    }
}

/// The Swift segmenter against the Python reference (`Benchmarks/cjk/segment.py`), on the
/// reference's golden sentences (`Benchmarks/cjk/golden.tsv`).
@Suite struct CJKReferenceTests {
    static let goldenFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Benchmarks/cjk/golden.tsv").standardizedFileURL

    @Test func theGoldenSentencesSplitAsTheReferenceSplitsThem() throws {
        let lines = try String(contentsOf: Self.goldenFile, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count >= 20)
        var compared = 0
        var differing = 0
        for line in lines {
            let fields = line.split(separator: "\t")
            guard fields.count == 2 else { continue }
            // The reference splits unfolded text; the words compare folded (kana voicing marks off).
            let expected = fields[1].components(separatedBy: " / ").map { word in
                word.unicodeScalars.map { scalar -> String in
                    if case .letters(let folded) = CharacterFolding.fold(scalar) { return folded }
                    return String(scalar).lowercased()
                }.joined()
            }
            let text = String(fields[0])
            let words = Tokenizer.words(text, separators: .none)
            compared += 1
            // The dictionary here is folded as text is (voicing marks off, traditional characters
            // simplified), so two of its words can become one, at the better rank: a few
            // sentences may split otherwise than the reference, which reads the lists unfolded.
            if words != expected {
                differing += 1
                Issue.record("\(text): \(words) (reference: \(expected))", severity: .warning)
            }
        }
        #expect(compared >= 20)
        #expect(differing <= 3, "\(differing) of \(compared) sentences split otherwise than the reference")
    }
}
