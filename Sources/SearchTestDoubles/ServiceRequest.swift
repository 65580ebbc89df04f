import SearchAPI

/// One call made to a `SearchService`: what the doubles record, match and replay.
///
/// ```swift
/// let request = ServiceRequest.multiSearch([.hits(indexName: "movies", parameters: SearchParameters(query: "star"))])
/// let response = try await request.send(to: engine)
/// ```
public enum ServiceRequest: Sendable, Hashable {
    /// `multiSearch(_:strategy:)`: Algolia's `POST /1/indexes/*/queries`.
    case multiSearch([MultiSearchQuery], strategy: MultiSearchStrategy = .none)
    /// `searchForFacetValues(indexName:facet:parameters:)`: `POST /1/indexes/{indexName}/facets/{facet}/query`.
    case searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters)

    /// The queries of the call; a facet-value search is one `.facetValues` query.
    ///
    /// ```swift
    /// recorder.requests.flatMap(\.queries).map(\.indexName)   // ["movies", "actors"]
    /// ```
    public var queries: [MultiSearchQuery] {
        switch self {
        case .multiSearch(let queries, _): queries
        case .searchForFacetValues(let indexName, let facet, let parameters):
            [.facetValues(indexName: indexName, facet: facet, parameters: parameters)]
        }
    }

    /// The `query` text of each query, in order: what a search box sent.
    public var queryTexts: [String] { queries.map(\.searchParameters.query) }

    /// Makes the call on `service`.
    public func send(to service: any SearchService) async throws(SearchError) -> ServiceResponse {
        switch self {
        case .multiSearch(let queries, let strategy):
            .multiSearch(try await service.multiSearch(queries, strategy: strategy))
        case .searchForFacetValues(let indexName, let facet, let parameters):
            .searchForFacetValues(try await service.searchForFacetValues(indexName: indexName, facet: facet, parameters: parameters))
        }
    }

    /// The call as a fixture file stores it: the operation and Algolia's request body.
    ///
    /// ```json
    /// {"operation": "multiSearch", "body": {"requests": [{"indexName": "movies", "query": "star"}], "strategy": "none"}}
    /// {"operation": "searchForFacetValues", "indexName": "products", "facet": "brand", "body": {"query": "", "facetQuery": "app"}}
    /// ```
    public var jsonValue: JSONValue {
        switch self {
        case .multiSearch(let queries, let strategy):
            [
                "operation": "multiSearch",
                "body": MultiSearchBody(requests: queries, strategy: strategy).jsonValue,
            ]
        case .searchForFacetValues(let indexName, let facet, let parameters):
            [
                "operation": "searchForFacetValues",
                "indexName": .string(indexName),
                "facet": .string(facet),
                "body": .object(parameters.jsonObject),
            ]
        }
    }

    /// Reads the form `jsonValue` writes; an error names the field that is wrong.
    public init(json: JSONValue) throws(SearchError) {
        guard case .object(let object) = json else { throw SearchError(.invalidJSON, "request: expected a JSON object") }
        guard case .object(let body)? = object["body"] else {
            throw SearchError(.invalidJSON, "request: body: expected the JSON object of Algolia's request body")
        }
        switch object["operation"]?.stringValue {
        case "multiSearch":
            do throws(SearchError) {
                let multiSearch = try MultiSearchBody(json: .object(body))
                self = .multiSearch(multiSearch.requests, strategy: multiSearch.strategy)
            } catch {
                throw SearchError(error.kind, "request: body.\(error.message)")
            }
        case "searchForFacetValues":
            guard let indexName = object["indexName"]?.stringValue, let facet = object["facet"]?.stringValue else {
                throw SearchError(.invalidJSON, "request: a searchForFacetValues request needs indexName and facet strings")
            }
            do throws(SearchError) { self = .searchForFacetValues(indexName: indexName, facet: facet, parameters: try SearchParameters(json: body)) } catch {
                throw SearchError(error.kind, "request: body: \(error.message)")
            }
        case let other:
            throw SearchError(.invalidJSON, "request: operation: expected \"multiSearch\" or \"searchForFacetValues\", got \(other.map { "\"\($0)\"" } ?? "nothing")")
        }
    }

    /// `jsonValue` with every object's keys sorted, as compact text: equal requests give equal
    /// text whatever order their parameters were set in. The key a replay matches on.
    public var canonicalJSON: String { jsonValue.sortingKeys().jsonString }
}

/// What a `SearchService` answered to one `ServiceRequest`.
public enum ServiceResponse: Sendable, Hashable {
    /// The answers to a `multiSearch` request, one per query, in order.
    case multiSearch([MultiSearchResult])
    /// The answer to a `searchForFacetValues` request.
    case searchForFacetValues(FacetValuesResponse)

    /// Algolia's response body: `{"results": [...]}` for a multi-search, the facet-value answer as it is.
    public var jsonValue: JSONValue {
        switch self {
        case .multiSearch(let results): ["results": .array(results.map(\.jsonValue))]
        case .searchForFacetValues(let response): response.jsonValue
        }
    }

    /// Reads Algolia's response body to `request`; it must answer every query of it.
    public init(json: JSONValue, answering request: ServiceRequest) throws(SearchError) {
        switch request {
        case .multiSearch(let queries, _):
            guard case .array(let elements)? = json["results"] else {
                throw SearchError(.invalidJSON, "response: results: expected an array with one answer per query")
            }
            guard elements.count == queries.count else {
                throw SearchError(.invalidJSON, "response: results: \(elements.count) answers to \(queries.count) queries")
            }
            var results: [MultiSearchResult] = []
            for (position, (element, query)) in zip(elements, queries).enumerated() {
                let result: MultiSearchResult
                do throws(SearchError) { result = try MultiSearchResult(json: element) } catch {
                    throw SearchError(error.kind, "response: results[\(position)]: \(error.message)")
                }
                switch (query, result) {
                case (.hits, .hits), (.facetValues, .facetValues): results.append(result)
                default:
                    throw SearchError(.invalidJSON, "response: results[\(position)]: the answer's kind (hits or facetHits) does not match its query's")
                }
            }
            self = .multiSearch(results)
        case .searchForFacetValues:
            do throws(SearchError) { self = .searchForFacetValues(try FacetValuesResponse(json: json)) } catch {
                throw SearchError(error.kind, "response: \(error.message)")
            }
        }
    }
}

extension MultiSearchQuery {
    /// The query's parameters, whichever its kind.
    var searchParameters: SearchParameters {
        switch self {
        case .hits(_, let parameters), .facetValues(_, _, let parameters): parameters
        }
    }
}
