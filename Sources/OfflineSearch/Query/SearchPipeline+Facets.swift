import SearchAPI

// Disjunctive faceting and the search for facet values, on the pipeline's stages.
extension SearchPipeline {
    /// The response to `parameters`, except that each facet in `disjunctiveFacets` is counted
    /// with the request's filters minus that facet's own refinements (`DisjunctiveFaceting`).
    /// Refined values that no longer match are listed with count 0, and refined values past
    /// `maxValuesPerFacet` after the top values with their counts. The counts run on the same
    /// state and context as the search, so they share its query and filter work. Nil as
    /// `search` is.
    func search(_ parameters: SearchParameters, disjunctiveFacets: [String],
                relevantSortStrictness strictness: Int?) throws(SearchError) -> SearchResponse? {
        guard var response = try search(parameters, relevantSortStrictness: strictness) else { return nil }
        guard var facets = response.facets else { return response }
        let requested = parameters.facets ?? []
        for attribute in disjunctiveFacets where requested.contains(attribute) || requested.contains("*") {
            // Absent from `facets` when no value matched with its refinements applied.
            let position = facets.firstIndex(where: { $0.attribute == attribute })
            let (otherFilters, refined) = try DisjunctiveFaceting.removingRefinements(of: attribute, from: parameters.facetFilters)
            var countQuery = parameters
            countQuery.facetFilters = otherFilters
            countQuery.facets = [attribute]
            countQuery.hitsPerPage = 0
            countQuery.page = 0
            countQuery.offset = nil
            countQuery.length = nil
            // Every value's count (up to Algolia's 1000), so refined values past the cut keep theirs.
            countQuery.maxValuesPerFacet = 1000
            // A search without hits reads no record, so it cannot find the store moved on.
            let all = try search(countQuery, relevantSortStrictness: strictness)?.facet(attribute)?.values ?? []
            let limit = parameters.maxValuesPerFacet ?? configuration.settings.maxValuesPerFacet ?? 100
            var values = Array(all.prefix(limit))
            for value in refined where !values.contains(where: { Tokenizer.facetKey($0.value) == Tokenizer.facetKey(value) }) {
                let known = all.first { Tokenizer.facetKey($0.value) == Tokenizer.facetKey(value) }
                values.append(known ?? (value: value, count: 0))
            }
            if let position {
                facets[position].values = values
            } else if !all.isEmpty {
                facets.append(FacetCounts(attribute: attribute, values: values))
            }
        }
        response.facets = facets
        return response
    }

    /// Searches the values of a `searchable()` facet: values with a word that starts with each
    /// word of `facetQuery`, or does so within the typos the request's typo tolerance allows (as
    /// a query word: `Peanutz` finds `Peanuts`), counted over the records that match the
    /// request's query and filters, most frequent first. `processingTimeMS` is left for the
    /// caller to set.
    func facetValues(facet: String, parameters: SearchParameters) throws(SearchError) -> FacetValuesResponse {
        guard let attribute = configuration.facet(facet), attribute.searchable, state.base.facetColumn(facet) != nil else {
            throw SearchError(.invalidParameter,
                              "Cannot search in `\(facet)` attribute, you need to add `searchable(\(facet))` to attributesForFaceting.")
        }
        let request = try SearchRequest(parameters, configuration: configuration)
        var matches = context.matching(request)
        try checkCancellation()
        // `facetingAfterDistinct` or `afterDistinct(facet)`: the values of the hits distinct keeps.
        if request.facetingAfterDistinct || attribute.afterDistinct, let path = distinctPath(request) {
            let ranking = ranking(request, relevantSortStrictness: nil)
            let kept = SegmentedSearch.distinctPage(matches, boosts: ranking.boosts, geo: ranking.geo, criteria: ranking.criteria, state: state,
                                                    groupPath: path, perGroup: request.distinct, start: 0, count: 0).kept
            matches = kept.map { SegmentMatch(documents: $0, candidates: nil) }
        }
        let counts = SegmentedSearch.valueCounts(facet, matches: matches, state: state)
        let separators = configuration.separators
        let facetWords = QueryWords.parse(parameters.facetQuery ?? "", queryType: .prefixAll, separators: separators)
        let valueWords = facetWords.isEmpty ? [] : counts.map { Tokenizer.words($0.value, separators: separators) }
        var highlighter = HighlightBuilder(words: facetWords, preTag: request.highlightPreTag, postTag: request.highlightPostTag,
                                           separators: separators)
        highlighter.variantTerms = SearchPipeline.typoVariants(of: facetWords, among: valueWords, policy: request.typoPolicy)
        var hits: [FacetHit] = []
        for (position, (value, count)) in counts.enumerated() {
            if !facetWords.isEmpty {
                let tokens = valueWords[position]
                guard facetWords.indices.allSatisfy({ i in
                    tokens.contains { $0.hasPrefix(facetWords[i].folded) || highlighter.variantTerms[i].contains($0) }
                }) else { continue }
            }
            let highlighted = highlighter.highlight(value)["value"]?.stringValue ?? value
            hits.append(FacetHit(value: value, highlighted: highlighted, count: count))
        }
        hits.sort { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
        let maxFacetHits = parameters.maxFacetHits ?? configuration.settings.int("maxFacetHits").map { min(max($0, 1), 100) } ?? 10
        return FacetValuesResponse(facetHits: Array(hits.prefix(maxFacetHits)), exhaustiveFacetsCount: true, processingTimeMS: 0)
    }

    /// For each facet query word, the words of the facet values that it matches only with
    /// typos, found as a query word's are (`TypoCandidates` over the values' own vocabulary,
    /// within `policy`'s typos for that word).
    /// - Complexity: O(w log w) for the w distinct words of the values, plus the typo walk.
    static func typoVariants(of words: [QueryWord], among valueWords: [[String]], policy: TypoPolicy) -> [Set<String>] {
        let limits = words.map { policy.maxTypos(for: $0) }
        guard limits.contains(where: { $0 > 0 }) else { return words.map { _ in [] } }
        let vocabulary = TermTable.build(Array(Set(valueWords.joined()))).0
        return words.indices.map { i in
            Set(TypoCandidates.find(words[i].folded, isPrefix: words[i].isPrefix, maxTypos: limits[i], in: vocabulary)
                .map { vocabulary.term($0.term) })
        }
    }
}
