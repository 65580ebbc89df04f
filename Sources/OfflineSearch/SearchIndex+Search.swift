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
    func search(_ parameters: SearchParameters, sharing context: inout StateContext?) throws(SearchError) -> SearchResponse {
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<3 {
            try followCommittedWrites()
            let state = current.value
            if context?.state !== state { context = StateContext(state: state) }
            if var response = try search(parameters, context: context!) {
                let elapsed = clock.now - started
                response.processingTimeMS = Int(elapsed.components.seconds * 1000) + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
                return response
            }
            // A write committed after this snapshot was taken: retry on the snapshot of what is
            // committed now (`followCommittedWrites` waits for a write of this process in flight).
            context = nil
        }
        throw SearchError(.internalError, "Index \(name) kept changing during the search; try again")
    }

    /// InstantSearch's disjunctive faceting in one call: the response to `parameters`, except
    /// that each facet in `disjunctiveFacets` is counted with the request's filters minus that
    /// facet's own refinements (the `facetFilters` OR-groups made only of `attribute:value`
    /// for it), so the UI can offer the other values of an OR-refined facet. Refined values that
    /// no longer match are listed with count 0, and refined values past `maxValuesPerFacet` are
    /// listed after the top values with their counts (so the UI can always show them checked). Shares the query and filter work between the
    /// counts, so the whole costs little more than one search.
    ///
    /// ```swift
    /// var parameters = SearchParameters(query: "phone")
    /// parameters.facets = ["brand", "categories"]
    /// parameters.facetFilters = .list([.anyOf(["brand:Apple", "brand:Samsung"]), .single("categories:Phones")])
    /// let response = try index.search(parameters, disjunctiveFacets: ["brand"])
    /// ```
    public func search(_ parameters: SearchParameters, disjunctiveFacets: [String]) throws(SearchError) -> SearchResponse {
        var context: StateContext?
        var response = try search(parameters, sharing: &context)
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
            let all = try search(countQuery, sharing: &context).facet(attribute)?.values ?? []
            let limit = parameters.maxValuesPerFacet ?? settings.maxValuesPerFacet ?? 100
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

    /// The search on one state; nil when the store has moved past it.
    func search(_ parameters: SearchParameters, context: StateContext) throws(SearchError) -> SearchResponse? {
        let state = context.state
        let configuration = state.configuration
        var request = try SearchRequest(parameters, configuration: configuration)
        var automaticRadius: Double?
        if let geo = request.geo, geo.center != nil, case .automatic = geo.radius {
            request.geo = context.resolved(geo)
            if case .metres(let radius)? = request.geo?.radius { automaticRadius = radius }
        }
        var matches = context.matching(request)
        if matches.allSatisfy({ $0.documents.isEmpty }) {
            // removeWordsIfNoResults: retry with more and more words optional.
            for words in request.wordRemoval.fallbacks(for: request.words) {
                request.words = words
                matches = context.matching(request)
                if !matches.allSatisfy({ $0.documents.isEmpty }) { break }
            }
        }
        var nbHits = matches.reduce(0) { $0 + $1.documents.count }
        if Task.isCancelled { throw .cancelled("the search") }
        let single = matches.count == 1

        var response = SearchResponse()
        func countFacets(_ attributes: [String], over matches: [SegmentMatch]) {
            guard !attributes.isEmpty else { return }
            let counted = matches.count == 1
                ? FacetCounter(snapshot: state.base).facets(attributes, over: matches[0].documents, documentCount: matches[0].documents.count,
                                                            maxValues: request.maxValuesPerFacet, sort: request.sortFacetValuesBy)
                : SegmentedSearch.facets(attributes, matches: matches, state: state, maxValues: request.maxValuesPerFacet,
                                         sort: request.sortFacetValuesBy)
            // In the order of the request's facets, whichever were counted first.
            let all = (response.facets ?? []) + counted.facets
            response.facets = request.facets.compactMap { attribute in all.first { $0.attribute == attribute } }
            for (attribute, stats) in counted.stats { response.facetsStats = (response.facetsStats ?? [:]).merging([attribute: stats]) { $1 } }
            response.exhaustiveFacetsCount = true
        }
        // Every segment has the same facet columns (the same settings).
        let distinctPath = request.distinct > 0 ? configuration.attributeForDistinct.flatMap { state.base.facetColumn($0)?.path } : nil
        // `facetingAfterDistinct` (every facet) or `afterDistinct(attribute)`: counted on the hits
        // distinct keeps, once they are known.
        let afterDistinct = distinctPath == nil ? [] : request.facets.filter { attribute in
            request.facetingAfterDistinct || configuration.facet(attribute)?.afterDistinct == true
        }
        countFacets(request.facets.filter { !afterDistinct.contains($0) }, over: matches)
        if Task.isCancelled { throw .cancelled("the search") }

        let (boosts, geo) = context.rankingInputs(request)
        // A virtual replica's relevant sort: only the most relevant matches, then in sort order.
        var ranked = matches
        var criteria = configuration.relevanceOrder
        let strictness = try relevantSortStrictness(parameters, settings: configuration.settings)
        if let strictness {
            let selected = SegmentedSearch.relevantSelection(matches, boosts: boosts, geo: geo, criteria: criteria, strictness: strictness)
            for index in ranked.indices { ranked[index].documents = selected[index] }
            criteria = []
            nbHits = ranked.reduce(0) { $0 + $1.documents.count }
        }
        var docs: [(segment: Int, document: Int)]
        if let path = distinctPath, single, let groups = state.base.facetColumn(path) {
            // Facets are counted before distinct (Algolia's default); nbHits after it.
            let (page, total, kept) = RelevanceRanker.distinctPage(of: ranked[0].documents, candidates: ranked[0].candidates, boosts: boosts[0],
                                                                   geo: geo[0], criteria: criteria, sortRuns: state.base.sortRuns,
                                                                   groups: groups, perGroup: request.distinct, start: request.start, count: request.count)
            (docs, nbHits) = (page.map { (0, $0) }, total)
            countFacets(afterDistinct, over: [SegmentMatch(documents: kept, candidates: nil)])
        } else if let path = distinctPath, !single {
            let kept: [DocumentSet]
            (docs, nbHits, kept) = SegmentedSearch.distinctPage(ranked, boosts: boosts, geo: geo, criteria: criteria, state: state, groupPath: path,
                                                                perGroup: request.distinct, start: request.start, count: request.count)
            countFacets(afterDistinct, over: kept.map { SegmentMatch(documents: $0, candidates: nil) })
        } else if single {
            // A sort replica (`ranking` led by asc/desc): the sort first, relevance within equal values.
            docs = RelevanceRanker.page(of: ranked[0].documents, candidates: ranked[0].candidates, boosts: boosts[0], geo: geo[0],
                                        criteria: criteria, sortRuns: state.base.sortRuns,
                                        start: request.start, count: request.count).map { (0, $0) }
        } else {
            docs = SegmentedSearch.page(ranked, boosts: boosts, geo: geo, criteria: criteria, state: state, start: request.start, count: request.count)
        }
        var records: [JSONObject] = []
        if !docs.isEmpty {
            guard let fetched = try store.records(rowIDs: docs.map { state.rowID(segment: $0.segment, document: $0.document) },
                                                  generation: state.generation) else {
                return nil
            }
            records = fetched
        }
        let builders = matches.map { HitBuilder(request: request, configuration: configuration, candidates: $0.candidates) }
        response.hits = zip(records, docs).map { record, doc in builders[doc.segment].hit(for: record) }
        if parameters.getRankingInfo == true {
            for (position, doc) in docs.enumerated() {
                guard case .object(var hit) = response.hits[position] else { continue }
                hit["_rankingInfo"] = RankingInfo.json(for: doc.document, candidates: matches[doc.segment].candidates,
                                                       boosts: boosts[doc.segment], geo: geo[doc.segment],
                                                       userScore: state.documentCount - state.ordinal(segment: doc.segment, document: doc.document))
                response.hits[position] = .object(hit)
            }
        }
        if let strictness {
            // Relevant sort: the hits are the relevant ones (`nbSortedHits`); `nbHits` counts every match.
            response.nbSortedHits = nbHits
            response.appliedRelevancyStrictness = strictness
            if distinctPath == nil { response.nbHits = matches.reduce(0) { $0 + $1.documents.count } } else { response.nbHits = nbHits }
        } else {
            response.nbHits = nbHits
        }
        response.page = request.page
        response.hitsPerPage = request.hitsPerPage
        if parameters.offset != nil {
            response.offset = request.start
            response.length = request.count
        }
        if request.hitsPerPage > 0 {
            let pages = (nbHits + request.hitsPerPage - 1) / request.hitsPerPage
            let limit = (request.paginationLimitedTo + request.hitsPerPage - 1) / request.hitsPerPage
            response.nbPages = min(pages, limit)
        }
        response.query = parameters.query
        response.params = parameters.urlEncoded
        response.automaticRadius = automaticRadius.map { String(Int($0)) }
        response.index = name
        if parameters.clickAnalytics == true { response.queryID = SearchIndex.queryID() }
        return response
    }

    /// `relevancyStrictness` (0–100, by default 100) when this index is a virtual replica (its
    /// primary lists it as `virtual(name)`): its sorts are relevant sorts. Nil otherwise. The
    /// primary's settings as last committed, by any process (as this process last read them
    /// when the primary cannot be read now: the replica's search still answers).
    func relevantSortStrictness(_ parameters: SearchParameters, settings: IndexSettings) throws(SearchError) -> Int? {
        guard let primaryName = settings.string("primary"), let primary = directory?.existing(primaryName) else { return nil }
        try? primary.followCommittedWrites()
        guard primary.current.value.configuration.virtualReplicas.contains(name) else { return nil }
        return try (parameters.other["relevancyStrictness"] ?? settings.values["relevancyStrictness"]).map { value throws(SearchError) in
            try ParameterReader(name: "relevancyStrictness", value: value).int(in: 0...100)
        } ?? 100
    }

    static func queryID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
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
        try followCommittedWrites()
        let state = current.value
        if context?.state !== state { context = StateContext(state: state) }
        let configuration = state.configuration
        guard let attribute = configuration.facet(facet), attribute.searchable, state.base.facetColumn(facet) != nil else {
            throw SearchError(.invalidParameter,
                              "Cannot search in `\(facet)` attribute, you need to add `searchable(\(facet))` to attributesForFaceting.")
        }
        let request = try SearchRequest(parameters, configuration: configuration)
        var matches = context!.matching(request)
        if Task.isCancelled { throw .cancelled("the search") }
        // `facetingAfterDistinct` or `afterDistinct(facet)`: the values of the hits distinct keeps.
        if request.distinct > 0, request.facetingAfterDistinct || attribute.afterDistinct,
           let path = configuration.attributeForDistinct.flatMap({ state.base.facetColumn($0)?.path }) {
            let (boosts, geo) = context!.rankingInputs(request)
            let kept = SegmentedSearch.distinctPage(matches, boosts: boosts, geo: geo, criteria: configuration.relevanceOrder, state: state,
                                                    groupPath: path, perGroup: request.distinct, start: 0, count: 0).kept
            matches = kept.map { SegmentMatch(documents: $0, candidates: nil) }
        }
        let counts = SegmentedSearch.valueCounts(facet, matches: matches, state: state)
        let separators = configuration.separators
        let facetWords = QueryWords.parse(parameters.facetQuery ?? "", queryType: .prefixAll, separators: separators)
        let valueWords = facetWords.isEmpty ? [] : counts.map { Tokenizer.words($0.value, separators: separators) }
        var highlighter = HighlightBuilder(words: facetWords, preTag: request.highlightPreTag, postTag: request.highlightPostTag,
                                           separators: separators)
        highlighter.variantTerms = SearchIndex.typoVariants(of: facetWords, among: valueWords, policy: request.typoPolicy)
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
        let elapsed = clock.now - started
        let maxFacetHits = parameters.maxFacetHits ?? configuration.settings.int("maxFacetHits").map { min(max($0, 1), 100) } ?? 10
        return FacetValuesResponse(facetHits: Array(hits.prefix(maxFacetHits)), exhaustiveFacetsCount: true,
                                   processingTimeMS: Int(elapsed.components.attoseconds / 1_000_000_000_000_000))
    }
}

extension SearchIndex {
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

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
