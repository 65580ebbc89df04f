import OfflineSearch
import SearchAPI

/// Searches: one index, several (multi-search), a facet's values, and browsing, with a secured
/// API key's restrictions applied to every query. The engine's synchronous forms of its
/// `SearchService` and `BrowsingService`: a search with filters waits while an index's search
/// index is built, and the endpoint runs it off Swift concurrency's threads then.
struct SearchHandler: Sendable {
    let engine: SearchEngine

    /// `POST /1/indexes/{indexName}/query` (and `GET /1/indexes/{indexName}`). On the
    /// caller's task without a suspension: a search is the hot path.
    func search(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let parameters = try operation.restricted(try SearchParameters(json: operation.searchObject()))
        return .ok(try engine.existingIndex(name).search(parameters).jsonValue)
    }

    /// `POST /1/indexes/*/queries`.
    func multiSearch(_ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let multiSearch = try MultiSearchBody(json: operation.body)
        var queries: [MultiSearchQuery] = []
        for request in multiSearch.requests {
            switch request {
            case .hits(let name, let parameters):
                queries.append(.hits(indexName: name, parameters: try operation.restricted(parameters)))
            case .facetValues(let name, let facet, let parameters):
                queries.append(.facetValues(indexName: name, facet: facet, parameters: try operation.restricted(parameters)))
            }
        }
        let results = try engine.multiSearchSync(queries, strategy: multiSearch.strategy)
        return .ok(["results": .array(results.map(\.jsonValue))])
    }

    /// `POST /1/indexes/{indexName}/facets/{facetName}/query`.
    func searchFacetValues(_ name: String, _ facet: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let parameters = try operation.restricted(try SearchParameters(json: try operation.bodyObject()))
        return .ok(try engine.existingIndex(name).searchForFacetValues(facet: facet, parameters: parameters).jsonValue)
    }

    /// `POST /1/indexes/{indexName}/browse` (and `GET`): a page of every record, and the
    /// cursor of the next.
    func browse(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        var object = try operation.searchObject()
        let cursor = object["cursor"]?.stringValue
        object["cursor"] = nil
        let parameters = try operation.restricted(try SearchParameters(json: object))
        return .ok(try engine.existingIndex(name).browse(parameters, cursor: cursor).jsonValue)
    }

    /// Search parameters from the body, and the URL's query parameters (a GET) that the body
    /// does not give; the credentials in the query string are not parameters.
    static func searchObject(_ body: JSONValue, _ query: [String: String]) throws(SearchError) -> JSONObject {
        guard case .object(var object) = body else {
            throw SearchError(.invalidJSON, "body: expected a JSON object, got \(body.jsonString.prefix(60))")
        }
        for (key, value) in query where !AuthenticationMiddleware.credentialNames.contains(key.lowercased()) && object[key] == nil {
            object[key] = .string(value)
        }
        return object
    }
}
