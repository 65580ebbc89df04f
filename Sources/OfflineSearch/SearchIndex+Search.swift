import Foundation
import SearchAPI

// Searching one index: a search, disjunctive faceting, facet-value search.
extension SearchIndex {
    // MARK: Reading

    /// The record with this objectID, or nil.
    public func object(_ objectID: String) throws(SearchError) -> JSONObject? {
        try store.record(objectID: objectID)
    }

    /// Runs one search (Algolia's `POST /1/indexes/{index}/query`).
    public func search(_ parameters: SearchParameters) throws(SearchError) -> SearchResponse {
        var context: StateContext?
        return try search(parameters, sharing: &context)
    }

    /// Runs one search, reusing the candidate and filter work in `context` from earlier queries
    /// of the same call (a multi-search). The context is replaced when the index has changed.
    /// `counted: false` keeps it out of the analytics (a query a multi-search's strategy skipped).
    func search(_ parameters: SearchParameters, sharing context: inout StateContext?, counted: Bool = true) throws(SearchError) -> SearchResponse {
        let response: SearchResponse
        if live.deriving.value, let answered = try searchFromTextTable(parameters) {
            response = answered
        } else {
            response = try onCommittedState(sharing: &context) { pipeline throws(SearchError) in
                try pipeline.search(parameters, relevantSortStrictness: try relevantSortStrictness(parameters, settings: pipeline.configuration.settings))
            }
        }
        if counted { analytics?.record(parameters, response: response, indexName: name) }
        return response
    }

    /// InstantSearch's disjunctive faceting in one call: the response to `parameters`, except
    /// that each facet in `disjunctiveFacets` is counted with the request's filters minus that
    /// facet's own refinements (the `facetFilters` OR-groups made only of `attribute:value`
    /// for it), so the UI can offer the other values of an OR-refined facet. Refined values that
    /// no longer match are listed with count 0, and refined values past `maxValuesPerFacet` are
    /// listed after the top values with their counts (so the UI can always show them checked).
    /// Shares the query and filter work between the counts, so the whole costs little more than
    /// one search.
    ///
    /// ```swift
    /// var parameters = SearchParameters(query: "phone")
    /// parameters.facets = ["brand", "categories"]
    /// parameters.facetFilters = .list([.anyOf(["brand:Apple", "brand:Samsung"]), .single("categories:Phones")])
    /// let response = try index.search(parameters, disjunctiveFacets: ["brand"])
    /// ```
    public func search(_ parameters: SearchParameters, disjunctiveFacets: [String]) throws(SearchError) -> SearchResponse {
        var context: StateContext?
        let response = try onCommittedState(sharing: &context) { pipeline throws(SearchError) in
            try pipeline.search(parameters, disjunctiveFacets: disjunctiveFacets,
                                relevantSortStrictness: try relevantSortStrictness(parameters, settings: pipeline.configuration.settings))
        }
        analytics?.record(parameters, response: response, indexName: name)
        return response
    }

    /// Runs `search` on a pipeline over the state that holds every write committed so far,
    /// and sets the response's `processingTimeMS`. When a write commits during the search (it
    /// returns nil), runs it again on the newer state, up to three times.
    private func onCommittedState(sharing context: inout StateContext?,
                                  _ search: (SearchPipeline) throws(SearchError) -> SearchResponse?) throws(SearchError) -> SearchResponse {
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<3 {
            if var response = try search(try pipeline(sharing: &context)) {
                response.processingTimeMS = (clock.now - started).wholeMilliseconds
                return response
            }
            // `followCommittedWrites` waits for a write of this process in flight.
            context = nil
        }
        throw SearchError(.internalError, "Index \(name) kept changing during the search; try again")
    }

    /// A pipeline over the state holding every committed write, with `context`'s work when it
    /// is of that state (else a new context, left in `context` for the next query of the call).
    private func pipeline(sharing context: inout StateContext?) throws(SearchError) -> SearchPipeline {
        live.waitForDerivation()
        try followCommittedWrites()
        let state = live.state
        if context?.state !== state { context = StateContext(state: state) }
        return SearchPipeline(context: context!, indexName: name, rules: live.rules, fetchRecords: { [store] rowIDs, generation throws(SearchError) in
            try store.records(rowIDs: rowIDs, generation: generation)
        }, findRecords: { [store] objectIDs throws(SearchError) in
            try store.rowIDs(objectIDs: objectIDs)
        })
    }

    /// `relevancyStrictness` (0–100, by default 100) when this index is a virtual replica (its
    /// primary lists it as `virtual(name)`): its sorts are relevant sorts. Nil otherwise. The
    /// primary's settings as last committed, by any process (as this process last read them
    /// when the primary cannot be read now: the replica's search still answers).
    func relevantSortStrictness(_ parameters: SearchParameters, settings: IndexSettings) throws(SearchError) -> Int? {
        guard let primaryName = settings.string("primary"), let primary = directory?.existing(primaryName) else { return nil }
        try? primary.followCommittedWrites()
        guard primary.live.state.configuration.virtualReplicas.contains(name) else { return nil }
        return try (parameters.other["relevancyStrictness"] ?? settings.values["relevancyStrictness"]).map { value throws(SearchError) in
            try ParameterReader(name: "relevancyStrictness", value: value).int(in: 0...100)
        } ?? 100
    }

    /// Searches the values of a `searchable()` facet (Algolia's search for facet values):
    /// values with a word that starts with each word of `facetQuery`, or does so within the
    /// typos the request's typo tolerance allows (as a query word: `Peanutz` finds `Peanuts`),
    /// counted over the records that match the request's query and filters, most frequent first.
    public func searchForFacetValues(facet: String, parameters: SearchParameters) throws(SearchError) -> FacetValuesResponse {
        var context: StateContext?
        return try searchForFacetValues(facet: facet, parameters: parameters, sharing: &context)
    }

    func searchForFacetValues(facet: String, parameters: SearchParameters,
                              sharing context: inout StateContext?) throws(SearchError) -> FacetValuesResponse {
        let clock = ContinuousClock()
        let started = clock.now
        var response = try pipeline(sharing: &context).facetValues(facet: facet, parameters: parameters)
        response.processingTimeMS = (clock.now - started).wholeMilliseconds
        return response
    }
}
