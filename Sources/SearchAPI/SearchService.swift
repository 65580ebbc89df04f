/// One query of a multi-search: a hits search or a facet-value search, on one index.
public enum MultiSearchQuery: Sendable, Hashable {
    /// `{"indexName": ..., ...params}`
    case hits(indexName: String, parameters: SearchParameters)
    /// `{"indexName": ..., "type": "facet", "facet": ..., "facetQuery": ..., ...params}`
    case facetValues(indexName: String, facet: String, parameters: SearchParameters)

    /// The index the query runs on.
    public var indexName: String {
        switch self {
        case .hits(let name, _), .facetValues(let name, _, _): name
        }
    }

    /// Reads one element of a multi-search `requests` array.
    public init(json: JSONValue) throws(SearchError) {
        guard case .object(let object) = json else {
            throw SearchError(.invalidJSON, "request: expected a JSON object such as {\"indexName\": \"products\", \"query\": \"phone\"}")
        }
        guard let indexName = object["indexName"]?.stringValue, !indexName.isEmpty else {
            throw .invalidParameter("indexName", expected: "the name of an index")
        }
        let parameters = try SearchParameters(json: object)
        switch object["type"]?.stringValue ?? "default" {
        case "default": self = .hits(indexName: indexName, parameters: parameters)
        case "facet":
            guard let facet = object["facet"]?.stringValue else {
                throw .invalidParameter("facet", expected: "the facet attribute to search in, with type \"facet\"")
            }
            self = .facetValues(indexName: indexName, facet: facet, parameters: parameters)
        case let other:
            throw .invalidParameter("type", expected: "\"default\" or \"facet\"", got: "\"\(other)\"")
        }
    }

    /// The element of a multi-search `requests` array, as `init(json:)` reads it:
    /// `indexName` (then `type` and `facet` for a facet-value search), then the parameters.
    ///
    /// ```swift
    /// MultiSearchQuery.hits(indexName: "movies", parameters: SearchParameters(query: "star")).jsonValue
    /// // {"indexName": "movies", "query": "star"}
    /// ```
    public var jsonValue: JSONValue {
        var object: JSONObject = ["indexName": .string(indexName)]
        let parameters: SearchParameters
        switch self {
        case .hits(_, let hitsParameters):
            parameters = hitsParameters
        case .facetValues(_, let facet, let facetParameters):
            object.appendUnique("type", "facet")
            object.appendUnique("facet", .string(facet))
            parameters = facetParameters
        }
        for (key, value) in parameters.jsonObject where !SearchParameters.requestKeys.contains(key) {
            object.appendUnique(key, value)
        }
        return .object(object)
    }
}

/// The answer to one query of a multi-search, in request order.
public enum MultiSearchResult: Sendable, Hashable {
    /// The answer to a hits query.
    case hits(SearchResponse)
    /// The answer to a facet-value query.
    case facetValues(FacetValuesResponse)

    /// The answer in Algolia's JSON: one element of a multi-search `results` array.
    public var jsonValue: JSONValue {
        switch self {
        case .hits(let response): response.jsonValue
        case .facetValues(let response): response.jsonValue
        }
    }

    /// Reads one element of a multi-search `results` array: a facet-value answer when it has
    /// `facetHits`, a hits response otherwise.
    public init(json: JSONValue) throws(SearchError) {
        if json["facetHits"] != nil {
            self = .facetValues(try FacetValuesResponse(json: json))
        } else {
            self = .hits(try SearchResponse(json: json))
        }
    }

    /// The hits response, or nil for a facet-value answer.
    public var searchResponse: SearchResponse? {
        if case .hits(let response) = self { return response }
        return nil
    }
}

/// `strategy` of a multi-search.
public enum MultiSearchStrategy: String, Sendable, Hashable, CaseIterable {
    /// Run every query.
    case none
    /// Stop once a query has found `hitsPerPage` hits; the rest answer with no hits.
    case stopIfEnoughMatches
}

/// What a search UI needs from a search backend: Algolia's multi-search and facet-value
/// search. The local engine implements it, and so can a client of the Algolia REST API, so an
/// app switches between them in one line.
public protocol SearchService: Sendable {
    /// Runs the queries (in order) and answers each, as `POST /1/indexes/*/queries`.
    func multiSearch(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult]

    /// Searches the values of a `searchable()` facet, as `POST /1/indexes/{index}/facets/{facet}/query`.
    func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse
}

extension SearchService {
    /// Searches one index.
    public func search(indexName: String, parameters: SearchParameters) async throws(SearchError) -> SearchResponse {
        let results = try await multiSearch([.hits(indexName: indexName, parameters: parameters)], strategy: .none)
        guard let response = results.first?.searchResponse else {
            throw SearchError(.internalError, "the search service answered a hits query with no hits response")
        }
        return response
    }
}
