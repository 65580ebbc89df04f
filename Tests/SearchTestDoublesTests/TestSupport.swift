import Foundation
import OfflineSearch
import SearchAPI
@_exported import OfflineSearchTestSupport
@testable import SearchTestDoubles

/// A service that answers at once with the query it was asked, and counts its calls: enough to
/// see what a double let through without an engine.
final class EchoService: SearchService {
    private let calls = Protected(0)
    var callCount: Int { calls.withLock { $0 } }

    func multiSearch(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult] {
        calls.withLock { $0 += 1 }
        return queries.map { query in
            switch query {
            case .hits(let indexName, let parameters):
                var response = SearchResponse()
                response.index = indexName
                response.query = parameters.query
                return .hits(response)
            case .facetValues(_, let facet, let parameters):
                return .facetValues(Self.facetAnswer(facet, parameters))
            }
        }
    }

    func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse {
        calls.withLock { $0 += 1 }
        return Self.facetAnswer(facet, parameters)
    }

    private static func facetAnswer(_ facet: String, _ parameters: SearchParameters) -> FacetValuesResponse {
        let value = "\(facet):\(parameters.facetQuery ?? "")"
        return FacetValuesResponse(facetHits: [FacetHit(value: value, highlighted: value, count: 1)])
    }
}

extension SearchService {
    /// A hits search for `text` on `indexName`.
    func search(_ text: String, in indexName: String = "movies") async throws(SearchError) -> SearchResponse {
        try await search(indexName: indexName, parameters: SearchParameters(query: text))
    }
}

/// Lets every other ready task run for a while, so a test that expects something NOT to have
/// happened gives it every chance to happen first.
func yieldToOtherTasks() async {
    for _ in 0..<200 { await Task.yield() }
}
