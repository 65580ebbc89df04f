import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

@Suite struct ProductsSmokeTests {
    @Test func realProductsAnswerTypicalQueries() throws {
        let engine = try TestEngine()
        let index = try engine.index("instant_search", settings: try SharedDatasets.settings("products.settings.json"),
                                     records: try SharedDatasets.records("products.json"))
        #expect(index.recordCount == 3291)
        for query in ["iphone", "samsung gal", "\"case\"", ""] {
            let response = try index.search(query, ["facets": ["brand", "categories"], "hitsPerPage": 3])
            print(query, response.nbHits, response.hits.map { $0["_highlightResult"]?["name"]?["value"]?.stringValue ?? "" },
                  response.facet("brand")?.values.prefix(3).map { "\($0.value)=\($0.count)" } ?? [])
            #expect(response.nbHits > 0)
        }
    }
}
