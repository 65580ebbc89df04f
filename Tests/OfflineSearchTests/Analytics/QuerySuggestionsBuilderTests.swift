import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

@Suite struct QuerySuggestionsBuilderTests {
    private static let products = AnalyticsFixture.products

    private static let configuration: JSONValue = [
        "indexName": "suggestions",
        "sourceIndices": [[
            "indexName": "products", "minHits": 2, "minLetters": 4,
            "facets": [["attribute": "categories", "amount": 2]],
            "generate": [["brand"], ["brand", "categories"]],
            "external": ["popular"],
        ]],
        "languages": ["en"],
        "exclude": ["^free"],
    ]

    private func folder() throws -> (TestEngine, SearchEngine) {
        let test = try TestEngine()
        try test.index("products", settings: ["searchableAttributes": ["name", "brand", "categories"],
                                              "attributesForFaceting": ["brand", "categories"]], records: Self.products)
        try test.index("popular", records: [["objectID": "a", "query": "Apple Phones!", "count": 7]])
        try test.engine.replaySearchLog([
            ["query": "iphone", "count": 10], ["query": "iphones", "count": 30], ["query": "ip", "count": 50],
            ["query": "free iphone", "count": 5], ["query": "nokia", "count": 20],
            ["query": "samsung tv", "count": 4, "facetFilters": ["categories:TVs"]],
        ], into: "products")
        return (test, test.engine)
    }

    @Test func theBuilderKeepsWhatAlgoliasRulesKeep() throws {
        let (test, engine) = try folder()
        _ = test
        let builder = QuerySuggestionsBuilder(engine: engine, configuration: try QuerySuggestionsConfiguration(json: Self.configuration))
        let report = try builder.build()
        #expect(report.candidates == 12)
        // "iphones", more popular than "iphone", finds nothing: "iphone" stays. "samsung tvs"
        // (generated, popularity 0) finds the two TVs, as "samsung tv" (4) does: one form stays.
        #expect(report.leftOut == ["minLetters": 1, "exclude": 1, "plural": 1, "minHits": 4])
        let records = try engine.existingIndex("suggestions").browse(SearchParameters()).response.hits
        let byQuery = Dictionary(uniqueKeysWithValues: records.map { ($0["query"]?.stringValue ?? "", $0) })
        #expect(Set(byQuery.keys) == ["iphone", "apple phones", "samsung tv", "apple", "samsung"])
        #expect(byQuery.mapValues { $0["popularity"]?.intValue } == ["iphone": 10, "apple phones": 7, "samsung tv": 4, "apple": 0, "samsung": 0])
        let iphone = try #require(byQuery["iphone"])
        #expect(iphone["objectID"] == "iphone")
        #expect(iphone["nb_words"] == 1)
        #expect(iphone["products"]?["exact_nb_hits"] == 3)
        #expect(iphone["products"]?["facets"]?["exact_matches"]?["categories"]
                == [["value": "Phones", "count": 2], ["value": "Accessories", "count": 1]])
        #expect(iphone["products"]?["facets"]?["analytics"]?["categories"] == [])
        #expect(byQuery["samsung tv"]?["products"]?["facets"]?["analytics"]?["categories"]
                == [["attribute": "categories", "operator": ":", "value": "TVs", "count": 4]])
        #expect(byQuery["apple phones"]?["nb_words"] == 2)

        // The guide's flow: a prefix finds the most popular suggestion first.
        let response = try engine.existingIndex("suggestions").search(SearchParameters(query: "s"))
        #expect(response.hits.first?["query"] == "samsung tv")
        #expect(try engine.existingIndex("suggestions").settings.values["customRanking"] == ["desc(popularity)"])
        #expect(!engine.exists("suggestions.building"))

        // A rebuild replaces the suggestions whole, keeping the index's own settings: without
        // the external index, "apple phones" is only generated (popularity 0).
        try engine.existingIndex("suggestions").setSettings(["searchableAttributes": ["query"], "customRanking": ["desc(popularity)"],
                                                            "hitsPerPage": 5])
        try engine.existingIndex("popular").clearObjects()
        try builder.build()
        let rebuilt = try engine.existingIndex("suggestions")
        let again = try rebuilt.browse(SearchParameters()).response.hits
        #expect(again.count == 5)
        #expect(again.first { $0["query"] == "apple phones" }?["popularity"] == 0)
        #expect(rebuilt.settings.values["hitsPerPage"] == 5)
    }

    @Test func aConfigurationWithAMistakeSaysWhere() throws {
        func message(_ json: JSONValue) -> String {
            do {
                _ = try QuerySuggestionsConfiguration(json: json)
                return ""
            } catch {
                return error.message
            }
        }
        #expect(message(["indexName": "s"]).contains("sourceIndices"))
        #expect(message(["indexName": "s", "sourceIndices": [["indexName": "p", "minHits": "5"]]]).contains("sourceIndices[0].minHits"))
        #expect(message(["indexName": "s", "sourceIndices": [["indexName": "p", "generate": ["brand"]]]]).contains("generate"))
        #expect(message(["indexName": "s", "sourceIndices": [["indexName": "p"]], "languages": ["xx"]]).contains("\"xx\""))
        #expect(message(["indexName": "p", "sourceIndices": [["indexName": "p"]]]).contains("cannot also be a source"))
        #expect(message(["indexName": "s", "sourceIndices": [["indexName": "p", "minHit": 5]]]).contains("minHit: unknown field"))
        let (test, engine) = try folder()
        _ = test
        var bad = try QuerySuggestionsConfiguration(json: Self.configuration)
        bad.exclude = ["("]
        #expect(throws: SearchError.self) { try QuerySuggestionsBuilder(engine: engine, configuration: bad).build() }
        #expect(!engine.exists("suggestions"))
    }

    @Test func everyBundledSuggestionFindsItsMinimumOfProducts() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        func read(_ name: String) throws -> JSONValue {
            try JSONValue(parsingUTF8: Array(try Data(contentsOf: repository.appendingPathComponent("Datasets/" + name))))
        }
        let configuration = try QuerySuggestionsConfiguration(json: try read("instantsearch_query_suggestions.config.json"))
        let source = try #require(configuration.sourceIndices.first)
        let test = try TestEngine()
        let products = try test.index("instant_search", settings: try read("instant_search.settings.json").objectValue ?? [:],
                                      records: try read("instant_search.json").arrayValue ?? [])
        let suggestions = try read("instantsearch_query_suggestions.json").arrayValue ?? []
        #expect(suggestions.count > 1000)
        for suggestion in suggestions {
            let query = try #require(suggestion["query"]?.stringValue)
            var parameters = SearchParameters(query: query)
            parameters.hitsPerPage = 0
            parameters.other["typoTolerance"] = false
            parameters.other["removeWordsIfNoResults"] = "none"
            parameters.other["enableRules"] = false
            let nbHits = try products.search(parameters).nbHits
            #expect(nbHits >= source.minHits, "\(query) finds \(nbHits) products")
            #expect(suggestion["instant_search"]?["exact_nb_hits"]?.intValue == nbHits, "\(query)")
            #expect(QuerySuggestionsBuilder.letterCount(query) >= source.minLetters, "\(query)")
        }
    }
}
