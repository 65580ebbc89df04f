import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// The real products imported with their own settings (legacy attributesToIndex, ignorePlurals,
/// small typo thresholds) answer the sample queries sensibly.
@Suite(.needsSharedDatasets) struct ProductsSmokeTests {
    @Test func realProductsAnswerTypicalQueries() throws {
        let engine = try TestEngine()
        let index = try engine.index("instant_search", settings: try SharedDatasets.settings("products.settings.json"),
                                     records: try SharedDatasets.records("products.json"))
        #expect(index.recordCount == 3291)
        for (query, word) in [("iphone", "iphone"), ("samsung gal", "samsung"), ("\"case\"", "case")] {
            let response = try index.search(query, ["facets": ["brand", "categories"], "hitsPerPage": 3])
            #expect(response.nbHits > 20, "\(query)")
            let name = try #require(response.hits.first?["_highlightResult"]?["name"]?["value"]?.stringValue)
            #expect(name.lowercased().contains("<em>\(word)"), "\(query): \(name)")
            #expect((response.facet("brand")?.values.first?.count ?? 0) > 0)
        }
        let all = try index.search("", ["facets": ["categories"], "hitsPerPage": 3])
        #expect(all.nbHits == 3291)
        #expect(all.facet("categories")?["Cell Phones"] == 3291)
        // Ranked by desc(popularity) when nothing else differs: the most popular product first.
        #expect(all.hits.first?["popularity"] == 21449)
    }
}
