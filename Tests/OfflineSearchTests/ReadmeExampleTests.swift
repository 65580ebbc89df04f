import Foundation
import OfflineSearch
import SearchAPI
import Testing

/// The README's Swift example, compiled and run as it stands there: the test fails when the
/// README's code block and the marked code below differ, or when the code stops compiling,
/// throws, or prints something else.
@Suite struct ReadmeExampleTests {
    @Test func theExampleRunsAndPrintsWhatTheReadmeSays() async throws {
        // README example begins
        // An engine keeps its indices in a folder (one SQLite database per index).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-example")
        let engine = try SearchEngine(directory: folder)
        let index = try engine.index("instant_search")
        try index.setSettings(["searchableAttributes": ["brand", "name", "unordered(description)"],
                               "attributesForFaceting": ["brand", "searchable(categories)"],
                               "customRanking": ["desc(popularity)"]])
        try index.saveObjects([
            ["objectID": "1", "name": "iPhone 15", "brand": "Apple", "categories": ["Phones"], "popularity": 10],
            ["objectID": "2", "name": "Galaxy S24", "brand": "Samsung", "categories": ["Phones"], "popularity": 8],
            ["objectID": "3", "name": "iPad Air", "brand": "Apple", "categories": ["Tablets"], "popularity": 9],
        ], replaceExisting: true)

        // Algolia's search parameters in, Algolia's response out.
        var parameters = SearchParameters(query: "iph")
        parameters.facets = ["brand"]
        let response = try index.search(parameters)
        let name = response.hits.first?["_highlightResult"]?["name"]?["value"]?.stringValue ?? ""
        print("\(response.nbHits) hit(s); first: \(name)")            // 1 hit(s); first: <em>iPh</em>one 15

        // Disjunctive faceting (OR-refined facets, as InstantSearch does it) in one call: brand is
        // counted as if its own refinements were absent.
        var refined = SearchParameters()
        refined.facets = ["brand"]
        refined.facetFilters = .list([.anyOf(["brand:Apple"])])
        let byBrand = try index.search(refined, disjunctiveFacets: ["brand"])
        print(byBrand.nbHits, byBrand.facet("brand")?.values.map { "\($0.value): \($0.count)" } ?? [])
        // 2 ["Apple: 2", "Samsung: 1"]

        // Facet-value search (needs searchable(categories)) and delete by filter.
        var facetQuery = SearchParameters()
        facetQuery.facetQuery = "pho"
        let values = try index.searchForFacetValues(facet: "categories", parameters: facetQuery)
        print(values.facetHits.map(\.value))                         // ["Phones"]
        var obsolete = SearchParameters()
        obsolete.filters = "popularity < 9"
        print(try index.deleteBy(obsolete), "deleted")               // 1 deleted

        // The same engine through the protocol a UI layer uses: swap in a remote service, or back.
        let service: any SearchService = engine
        let results = try await service.multiSearch([.hits(indexName: "instant_search", parameters: parameters)], strategy: .none)
        print(results.first?.searchResponse?.nbHits ?? 0)            // 1
        // README example ends
        #expect(response.nbHits == 1 && name == "<em>iPh</em>one 15")
        #expect(byBrand.nbHits == 2 && byBrand.facet("brand")?["Samsung"] == 1)
        #expect(values.facetHits.map(\.value) == ["Phones"])
        #expect(results.first?.searchResponse?.nbHits == 1)
    }

    @Test func theReadmeHoldsExactlyThisCode() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let section = try #require(readme.range(of: "## The Swift API"))
        let blockStart = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
        let blockEnd = try #require(readme.range(of: "\n```", range: blockStart.upperBound..<readme.endIndex))
        let block = readme[blockStart.upperBound..<blockEnd.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        #expect(Array(block.prefix(3)) == ["import Foundation", "import OfflineSearch", "import SearchAPI"])
        let readmeCode = block.dropFirst(3).drop { $0.isEmpty }.map(String.init)
        let begin = try #require(test.range(of: "// README example begins\n"))
        let end = try #require(test.range(of: "        // README example ends"))
        let marked = test[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
        #expect(readmeCode == marked, "README.md's Swift example and ReadmeExampleTests differ: change both")
    }
}
