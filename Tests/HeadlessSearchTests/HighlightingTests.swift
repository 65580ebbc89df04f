import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI

/// Tagged strings with any tags, the inverted form, and the highlight results of real hits.
@Suite struct HighlightingTests {
    static let tagPairs = [("<em>", "</em>"), ("<mark>", "</mark>"), ("**", "**"), ("[", "]"), ("__ais-highlight__", "__/ais-highlight__")]

    /// Text segments that never contain a tag, nor a character that could join one across a
    /// boundary (`*`, `_`, brackets); partial tags (`<`, `</e`, `m>`) and non-ASCII are in.
    static let alphabet = Array("ab Zé🙂ñ<>/em.-")

    @Test(arguments: 0..<tagPairs.count)
    func parsingRoundTrips(tags: Int) {
        let (preTag, postTag) = Self.tagPairs[tags]
        var generator = SeededGenerator(seed: UInt64(100 + tags))
        for _ in 0..<200 {
            let count = Int.random(in: 0...6, using: &generator)
            var startsTagged = Bool.random(using: &generator)
            var segments: [(String, Bool)] = []
            for _ in 0..<count {
                let text = String((0..<Int.random(in: 1...5, using: &generator)).map { _ in Self.alphabet.randomElement(using: &generator)! })
                segments.append((text, startsTagged))
                startsTagged.toggle()
            }
            let input = segments.map { $0.1 ? preTag + $0.0 + postTag : $0.0 }.joined()
            let tagged = TaggedString(string: input, preTag: preTag, postTag: postTag)
            #expect(tagged.output == segments.map(\.0).joined())
            #expect(tagged.taggedSubstrings().map(String.init) == segments.filter(\.1).map(\.0), "\(input)")
            #expect(tagged.untaggedSubstrings().map(String.init) == segments.filter { !$0.1 }.map(\.0))
            #expect(tagged.tagged() == input)
            #expect(tagged.segments.map { String($0.text) } == segments.map(\.0))
            // Inverted: the other parts are tagged, and inverting twice gives the original back.
            #expect(tagged.inverted.taggedSubstrings().map(String.init) == segments.filter { !$0.1 }.map(\.0))
            #expect(tagged.inverted.inverted == tagged)
            #expect(TaggedString(string: tagged.inverted.input, preTag: preTag, postTag: postTag) == tagged.inverted)
        }
    }

    @Test func anUnterminatedTagIsText() {
        let tagged = TaggedString(string: "a <em>b</em> c <em>d", preTag: "<em>", postTag: "</em>")
        #expect(tagged.output == "a b c <em>d")
        #expect(tagged.taggedSubstrings() == ["b"])
        let retagged = HighlightedString(string: "<em>iph</em>one").taggedString.tagged(preTag: "[", postTag: "]")
        #expect(retagged == "[iph]one")
    }

    @Test func querySuggestionDisplay() {
        let typed = QuerySuggestion(query: "iphone case", highlighted: HighlightedString(string: "<em>iph</em>one case"), matchLevel: .partial)
        #expect(typed.displayedText().taggedString.taggedSubstrings() == ["one case"])
        #expect(typed.displayedText(inverted: false).taggedString.taggedSubstrings() == ["iph"])
        let nothing = QuerySuggestion(query: "tv", highlighted: HighlightedString(string: "tv"), matchLevel: MatchLevel.none)
        #expect(nothing.displayedText().taggedString.taggedRanges.isEmpty)
        #expect(nothing.displayedText().text == "tv")
    }

    @Test func highlightResultsOfRealHitsWithCustomTags() async throws {
        let test = try TestEngine()
        try test.index("books", settings: ["searchableAttributes": ["title", "authors", "details.publisher"]], records: [
            ["objectID": "1", "title": "The Swift Programming Language", "authors": ["Apple", "Swift Team"],
             "details": ["publisher": "Swift Press"], "year": 2014],
        ])
        var parameters = SearchParameters(query: "swift")
        parameters.highlightPreTag = "<mark>"
        parameters.highlightPostTag = "</mark>"
        parameters.attributesToSnippet = ["title:2"]
        let response = try await test.engine.search(indexName: "books", parameters: parameters)
        let hit = try JSONDecoder().decode(Hit<JSONValue>.self, from: Data(try #require(response.hits.first).jsonBytes))
        #expect(hit.objectID == "1")
        #expect(hit.object["year"] == 2014)
        let title = try #require(hit.highlightResult?["title"]?.value)
        #expect(title.matchLevel == .full)
        let custom = try #require(hit.highlightedString(forKey: "title", preTag: "<mark>", postTag: "</mark>"))
        #expect(custom.text == "The Swift Programming Language")
        #expect(custom.taggedString.taggedSubstrings() == ["Swift"])
        #expect(title.value.taggedString.taggedRanges.isEmpty, "read with the default tags, <mark> is text")
        // Arrays and nested objects mirror the record.
        #expect(hit.highlightResult?["authors"]?.values?.map(\.matchLevel) == [.none, .full])
        #expect(hit.highlightResult?.value(atPath: "details.publisher")?.value?.matchLevel == .full)
        #expect(hit.snippetResult?["title"]?.value?.matchLevel == .full)
    }
}
