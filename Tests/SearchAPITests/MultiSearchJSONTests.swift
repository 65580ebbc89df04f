import Testing
import SearchAPI

/// Multi-search queries and answers written as Algolia's JSON and read back unchanged: what a
/// fixture file or a remote client relies on.
@Suite struct MultiSearchJSONTests {
    @Test func aHitsQueryRoundTrips() throws {
        var parameters = SearchParameters(query: "star wars")
        parameters.page = 2
        parameters.facets = ["genre", "year"]
        parameters.facetFilters = .list([.single("genre:Drama"), .anyOf(["year:1977", "year:1980"])])
        parameters.numericFilters = .string("rating>=4")
        parameters.filters = #"actor:"Harrison Ford""#
        parameters.other["typoTolerance"] = "min"
        let query = MultiSearchQuery.hits(indexName: "movies", parameters: parameters)

        let json = query.jsonValue
        #expect(json.objectValue?.keys.first == "indexName")
        #expect(json["type"] == nil)
        #expect(try MultiSearchQuery(json: json) == query)
        // Through text too, as a file or a request body carries it.
        #expect(try MultiSearchQuery(json: JSONValue(parsing: json.jsonString)) == query)
    }

    @Test func aFacetValuesQueryRoundTrips() throws {
        var parameters = SearchParameters(query: "phone")
        parameters.facetQuery = "app"
        parameters.maxFacetHits = 5
        let query = MultiSearchQuery.facetValues(indexName: "products", facet: "brand", parameters: parameters)

        let json = query.jsonValue
        #expect(json.objectValue?.keys.prefix(3) == ["indexName", "type", "facet"])
        #expect(json["type"] == "facet")
        #expect(try MultiSearchQuery(json: JSONValue(parsing: json.jsonString)) == query)
    }

    @Test func requestKeysSetByHandInOtherDoNotOverrideTheQuerysOwn() throws {
        var parameters = SearchParameters(query: "x")
        parameters.other["indexName"] = "elsewhere"
        let json = MultiSearchQuery.hits(indexName: "movies", parameters: parameters).jsonValue
        #expect(json["indexName"] == "movies")
        #expect(json.objectValue?.keys.filter { $0 == "indexName" }.count == 1)
    }

    @Test func resultsOfBothKindsRoundTrip() throws {
        var response = SearchResponse()
        response.hits = [["objectID": "1", "title": "Star Wars", "rating": 4.5]]
        response.nbHits = 1
        response.nbPages = 1
        response.query = "star"
        response.params = "query=star"
        response.index = "movies"
        response.facets = [FacetCounts(attribute: "genre", values: [(value: "Sci-Fi", count: 1)])]
        let facetValues = FacetValuesResponse(facetHits: [FacetHit(value: "Apple", highlighted: "<em>App</em>le", count: 12)],
                                              exhaustiveFacetsCount: false, processingTimeMS: 3)

        for result in [MultiSearchResult.hits(response), .facetValues(facetValues)] {
            #expect(try MultiSearchResult(json: JSONValue(parsing: result.jsonValue.jsonString)) == result)
        }
    }

    @Test func aFacetValuesAnswerWithABadHitNamesIt() throws {
        let json = try JSONValue(parsing: #"{"facetHits": [{"value": "Apple", "count": 3}, {"value": "Sony"}]}"#)
        let error = #expect(throws: SearchError.self) { try FacetValuesResponse(json: json) }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message.contains("facetHits[1]") == true)
    }

    @Test func aFacetValuesAnswerWithoutFacetHitsIsAnError() throws {
        let error = #expect(throws: SearchError.self) { try FacetValuesResponse(json: ["nbHits": 3]) }
        #expect(error?.message.contains("facetHits is missing") == true)
    }

    @Test func networkAndCancellationErrorsHaveTheirStatus() {
        #expect(SearchError(.unreachable, "offline").status == 503)
        #expect(SearchError.cancelled().kind == .cancelled)
        #expect(SearchError.cancelled().status == 499)
        #expect(SearchError.cancelled("the search for \"ip\"").message == "the search for \"ip\" was cancelled")
    }
}
