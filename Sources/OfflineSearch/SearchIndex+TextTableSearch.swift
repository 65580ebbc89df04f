import Foundation
import SearchAPI

// Searches answered from the FTS5 table while the derived index is built in the background.
extension SearchIndex {
    /// What a search answered from the FTS5 table says of itself (the response's `message`,
    /// Algolia's field for warnings about the query).
    static let textTableMessage = "Answered from the index's full-text table while its search index is being built: "
        + "the words as typed, the last as a prefix (no typos, plurals or synonyms), in the order the records were added, "
        + "without facet counts."

    /// A search answered from the FTS5 table, while the derived index is built on a background
    /// thread after the index was opened without a valid derived file (`LiveIndex.deriving`): so
    /// that a large index answers at once rather than after its derivation (13–20 s at a
    /// million products).
    ///
    /// The records that hold every query word as typed (the last one as a prefix, as
    /// `queryType` says), folded by the same tokenizer, in the searchable attributes: what the
    /// derived index matches with typo tolerance off and no plurals or synonyms. The ranking is
    /// simpler: the records in the order they were added. Hits are retrieved and highlighted as
    /// usual; facets are not counted. The response says so in its `message`.
    ///
    /// Nil when the search cannot be answered so, and waits for the derivation instead: filters,
    /// a geo area or excluded words (an answer without them would show records the query
    /// excludes, or a secured API key's filters hide); optional words, words removed when
    /// nothing matches, quoted phrases and exact words, `restrictSearchableAttributes` and
    /// `distinct` (what matches, or how many hits, would differ); Rules on the index (their
    /// consequences); or a text table that does not tokenize as the settings say (an upgrade
    /// changed the tokenizer).
    func searchFromTextTable(_ parameters: SearchParameters) throws(SearchError) -> SearchResponse? {
        let clock = ContinuousClock()
        let started = clock.now
        // The empty state of the stored settings, while the derivation runs.
        let configuration = live.state.configuration
        let request = try SearchRequest(parameters, configuration: configuration)
        guard request.filter == nil, request.geo == nil, request.excludedWords.isEmpty, request.wordRemoval == .none,
              request.distinct == 0, parameters.restrictSearchableAttributes == nil, live.rules.rules.isEmpty,
              !request.words.contains(where: { $0.isOptional || $0.isExact || $0.phrase != nil }) else { return nil }
        // Each word quoted: no user text reaches FTS5's syntax.
        let expression = request.words.isEmpty ? nil : request.words.map { word in
            "\"" + word.folded.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (word.isPrefix ? " *" : "")
        }.joined(separator: " AND ")
        let reachable = max(0, min(request.count, request.paginationLimitedTo - request.start))
        guard let (count, records) = try store.textSearch(expression, separators: configuration.separators,
                                                          offset: request.start, limit: reachable) else { return nil }
        let hits = HitBuilder(request: request, configuration: configuration, candidates: nil)
        var response = SearchResponse()
        response.hits = records.map { hits.hit(for: $0) }
        response.nbHits = count
        request.describePaging(&response, hitCount: count, parameters: parameters)
        if !request.facets.isEmpty {
            response.facets = []
            response.exhaustiveFacetsCount = false
        }
        response.exhaustiveTypo = false
        response.query = parameters.query
        response.params = parameters.urlEncoded
        response.index = name
        response.message = SearchIndex.textTableMessage
        if parameters.clickAnalytics == true { response.queryID = SearchPipeline.queryID() }
        response.processingTimeMS = (clock.now - started).wholeMilliseconds
        return response
    }
}
