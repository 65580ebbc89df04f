import SearchAPI

/// One search over one index state, in stages, each a method of its own:
///
///     parameters → request → matches → facets → ranked page → records → hits → response
///
/// - `request`: the parameters read against the settings (`SearchRequest`: query words,
///   filters, typo policy, paging), an automatic geo radius resolved.
/// - `matches`: per segment, the documents that match the words and the filters, with their
///   candidates for ranking; words made optional one by one when nothing matches
///   (`removeWordsIfNoResults`).
/// - `facets`: value counts over the matches (or, after `distinct`, over the hits it keeps).
/// - `rankedPage`: the matches ranked across segments, `distinct` and a virtual replica's
///   relevant sort applied, cut to the page.
/// - `records` and `hits`: the page's stored records, turned into hits (retrieved attributes,
///   highlights, snippets, `_rankingInfo`).
/// - `describe`: `nbHits`, paging and the echoed parameters.
///
/// Every stage sees all the state's segments; an index of one segment is the case N = 1, and
/// the few places where that case has a faster path (`SegmentedSearch`) take it themselves.
/// A feature that changes one stage (a Rule that rewrites the query or promotes a hit, a
/// language's words, an analytics hook on the response) enters that stage's method and leaves
/// the others as they are. Disjunctive faceting and the search for facet values run on the
/// same stages.
///
/// Not thread-safe: one pipeline, like its `StateContext`, serves one caller.
struct SearchPipeline {
    let context: StateContext
    /// The index's name, echoed in the response.
    let indexName: String
    /// The index's Rules (`RuleStage`).
    let rules: RuleBook
    /// Reads stored records by rowid as of a generation; nil when the store has moved past it.
    let fetchRecords: (_ rowIDs: [Int64], _ generation: Int64) throws(SearchError) -> [JSONObject]?
    /// The rowids of the records with these objectIDs (a rule's promoted and hidden records).
    let findRecords: (_ objectIDs: [String]) throws(SearchError) -> [String: Int64]

    var state: IndexState { context.state }
    var configuration: IndexConfiguration { context.state.configuration }

    /// What the `matches` stage found.
    struct Matched {
        /// The request as matched (with the words that `removeWordsIfNoResults` kept).
        var request: SearchRequest
        var matches: [SegmentMatch]
        /// The radius an automatic `aroundRadius` stood for, in metres.
        var automaticRadius: Double?

        var count: Int { matches.reduce(0) { $0 + $1.documents.count } }
    }

    /// What ranks the matches beyond their words, per segment, and by which criteria.
    struct Ranking {
        var boosts: [[FilterBoost]]
        var geo: [GeoRanking?]
        var criteria: [RankingCriterion]
    }

    /// What the `rankedPage` stage leaves.
    struct RankedPage {
        /// The page's documents, by segment.
        var documents: [(segment: Int, document: Int)]
        /// How many hits there are in all (after `distinct`, within a relevant sort).
        var hitCount: Int
        /// The documents `distinct` kept, per segment (nil without `distinct`).
        var keptByDistinct: [DocumentSet]?
        /// The page's hits a rule promoted, by their place in `documents`: whether each matched
        /// the query too.
        var promoted: [Int: Bool] = [:]
    }

    // MARK: A search

    /// The response to `parameters`; nil when the store moved past the state before the page's
    /// records were read (the caller retries on the newer state). `strictness`: the
    /// `relevancyStrictness` of a virtual replica's relevant sort, nil for an ordinary index.
    func search(_ parameters: SearchParameters, relevantSortStrictness strictness: Int?) throws(SearchError) -> SearchResponse? {
        let rules = try applyRules(parameters)
        var matched = try matches(try request(rules?.parameters ?? parameters))
        let promotions = try rules.map { applied throws(SearchError) in try place(applied, in: &matched) } ?? []
        try checkCancellation()
        let request = matched.request
        var response = SearchResponse()
        // Facets are counted before distinct (Algolia's default), except those that
        // `facetingAfterDistinct` or `afterDistinct(attribute)` count on the hits distinct keeps.
        let afterDistinct = distinctPath(request) == nil ? [] : request.facets.filter { attribute in
            request.facetingAfterDistinct || configuration.facet(attribute)?.afterDistinct == true
        }
        addFacets(request.facets.filter { !afterDistinct.contains($0) }, over: matched.matches, request: request, to: &response)
        try checkCancellation()
        let ranking = ranking(request, relevantSortStrictness: strictness)
        let page = rankedPage(matched, ranking: ranking, relevantSortStrictness: strictness, promotions: promotions)
        if let kept = page.keptByDistinct {
            addFacets(afterDistinct, over: kept.map { SegmentMatch(documents: $0, candidates: nil) }, request: request, to: &response)
        }
        guard let records = try records(page.documents) else { return nil }
        response.hits = hits(records, page: page.documents, matched: matched, ranking: ranking,
                             withRankingInfo: matched.request.parameters.getRankingInfo == true, promoted: page.promoted)
        describe(&response, parameters: parameters, matched: matched, page: page, relevantSortStrictness: strictness)
        describe(&response, rules: rules)
        return response
    }

    /// Stage 1: the parameters read against the index's settings, an automatic radius resolved.
    func request(_ parameters: SearchParameters) throws(SearchError) -> (request: SearchRequest, automaticRadius: Double?) {
        var request = try SearchRequest(parameters, configuration: configuration)
        var automaticRadius: Double?
        if let geo = request.geo, geo.center != nil, case .automatic = geo.radius {
            request.geo = context.resolved(geo)
            if case .metres(let radius)? = request.geo?.radius { automaticRadius = radius }
        }
        return (request, automaticRadius)
    }

    /// Stage 2: the documents matching the words and filters, per segment. When none match,
    /// `removeWordsIfNoResults` makes more and more words optional until some do.
    func matches(_ prepared: (request: SearchRequest, automaticRadius: Double?)) throws(SearchError) -> Matched {
        var request = prepared.request
        var matches = context.matching(request)
        if matches.allSatisfy({ $0.documents.isEmpty }) {
            for words in request.wordRemoval.fallbacks(for: request.words) {
                request.words = words
                matches = context.matching(request)
                if !matches.allSatisfy({ $0.documents.isEmpty }) { break }
            }
        }
        return Matched(request: request, matches: matches, automaticRadius: prepared.automaticRadius)
    }

    /// Stage 3: `attributes`' value counts over `matches`, added to the response's `facets` (in
    /// the order of the request's facets, whichever were counted first) and `facets_stats`.
    func addFacets(_ attributes: [String], over matches: [SegmentMatch], request: SearchRequest, to response: inout SearchResponse) {
        guard !attributes.isEmpty else { return }
        let counted = SegmentedSearch.facets(attributes, matches: matches, state: state, maxValues: request.maxValuesPerFacet,
                                             sort: request.sortFacetValuesBy)
        let all = (response.facets ?? []) + counted.facets
        response.facets = request.facets.compactMap { attribute in all.first { $0.attribute == attribute } }
        for (attribute, stats) in counted.stats { response.facetsStats = (response.facetsStats ?? [:]).merging([attribute: stats]) { $1 } }
        response.exhaustiveFacetsCount = true
    }

    /// What ranks beyond the words: the optional filters' boosts, the geo distances, and the
    /// criteria (none past the relevance selection of a relevant sort, which ranks by sort alone).
    func ranking(_ request: SearchRequest, relevantSortStrictness strictness: Int?) -> Ranking {
        let (boosts, geo) = context.rankingInputs(request)
        return Ranking(boosts: boosts, geo: geo, criteria: strictness == nil ? configuration.relevanceOrder : [])
    }

    /// The facet path `distinct` groups by, when the request asks for distinct and the index
    /// has an `attributeForDistinct` it counts (every segment has the same facet columns).
    func distinctPath(_ request: SearchRequest) -> String? {
        request.distinct > 0 ? configuration.attributeForDistinct.flatMap { state.base.facetColumn($0)?.path } : nil
    }

    /// Stage 4: the matches ranked, then cut to the request's page. A virtual replica's
    /// relevant sort first keeps only the most relevant matches (`relevantSelection`), ranked
    /// then in sort order; `distinct` keeps the best `distinct` hits of each group.
    func rankedPage(_ matched: Matched, ranking: Ranking, relevantSortStrictness strictness: Int?) -> RankedPage {
        let request = matched.request
        var ranked = matched.matches
        if let strictness {
            let selected = SegmentedSearch.relevantSelection(ranked, boosts: ranking.boosts, geo: ranking.geo,
                                                             criteria: configuration.relevanceOrder, strictness: strictness)
            for index in ranked.indices { ranked[index].documents = selected[index] }
        }
        if let path = distinctPath(request) {
            let (documents, total, kept) = SegmentedSearch.distinctPage(ranked, boosts: ranking.boosts, geo: ranking.geo,
                                                                        criteria: ranking.criteria, state: state, groupPath: path,
                                                                        perGroup: request.distinct, start: request.start, count: request.count)
            return RankedPage(documents: documents, hitCount: total, keptByDistinct: kept)
        }
        // A sort replica (`ranking` led by asc/desc): the sort first, relevance within equal values.
        let documents = SegmentedSearch.page(ranked, boosts: ranking.boosts, geo: ranking.geo, criteria: ranking.criteria, state: state,
                                             start: request.start, count: request.count)
        return RankedPage(documents: documents, hitCount: ranked.reduce(0) { $0 + $1.documents.count }, keptByDistinct: nil)
    }

    /// Stage 5: the page's stored records, as of the state's generation; nil when the store has
    /// moved past it. The records the state's searches read lately are read back from it
    /// (`IndexState.storedRecords`), the others from the store.
    func records(_ page: [(segment: Int, document: Int)]) throws(SearchError) -> [JSONObject]? {
        guard !page.isEmpty else { return [] }
        let rowIDs = page.map { state.rowID(segment: $0.segment, document: $0.document) }
        var records = rowIDs.map { state.storedRecords[$0] }
        let missing = records.indices.filter { records[$0] == nil }
        guard !missing.isEmpty else { return records.map { $0! } }
        guard let read = try fetchRecords(missing.map { rowIDs[$0] }, state.generation) else { return nil }
        for (position, record) in zip(missing, read) {
            records[position] = record
            state.storedRecords.store(record, bytes: JSONValue.object(record).approximateByteCount, for: rowIDs[position])
        }
        return records.map { $0! }
    }

    /// Stage 6: the records as hits: retrieved attributes, highlights and snippets of the words
    /// each segment matched, and `_rankingInfo` when asked for.
    /// A promoted hit's `_rankingInfo` has `promoted: true` (and, when it did not match the
    /// query, no word counts).
    func hits(_ records: [JSONObject], page: [(segment: Int, document: Int)], matched: Matched, ranking: Ranking,
              withRankingInfo: Bool, promoted: [Int: Bool] = [:]) -> [JSONValue] {
        // No hits, no highlighters: each builds a lookup of the query's words and variants.
        guard !records.isEmpty else { return [] }
        let builders = matched.matches.map { HitBuilder(request: matched.request, configuration: configuration, candidates: $0.candidates) }
        return zip(records, page).enumerated().map { place, entry in
            let (record, position) = entry
            guard withRankingInfo else { return builders[position.segment].hit(for: record) }
            let matchedQuery = promoted[place] ?? true
            var rankingInfo = RankingInfo.json(for: position.document,
                                               candidates: matchedQuery ? matched.matches[position.segment].candidates : nil,
                                               boosts: ranking.boosts[position.segment], geo: ranking.geo[position.segment],
                                               userScore: state.documentCount - state.ordinal(segment: position.segment, document: position.document))
            if promoted[place] != nil, case .object(var info) = rankingInfo {
                info["promoted"] = true
                rankingInfo = .object(info)
            }
            return builders[position.segment].hit(for: record, rankingInfo: rankingInfo)
        }
    }

    /// Stage 7: the response's counts, paging and echoed parameters.
    func describe(_ response: inout SearchResponse, parameters: SearchParameters, matched: Matched, page: RankedPage,
                  relevantSortStrictness strictness: Int?) {
        let request = matched.request
        if let strictness {
            // Relevant sort: the hits are the relevant ones (`nbSortedHits`); `nbHits` counts
            // every match (the hits distinct keeps, with distinct).
            response.nbSortedHits = page.hitCount
            response.appliedRelevancyStrictness = strictness
            response.nbHits = page.keptByDistinct == nil ? matched.count : page.hitCount
        } else {
            response.nbHits = page.hitCount
        }
        request.describePaging(&response, hitCount: page.hitCount, parameters: parameters)
        response.query = parameters.query
        response.params = parameters.urlEncoded
        response.automaticRadius = matched.automaticRadius.map { String(Int($0)) }
        response.index = indexName
        if parameters.clickAnalytics == true { response.queryID = SearchPipeline.queryID() }
    }

    func checkCancellation() throws(SearchError) {
        if Task.isCancelled { throw .cancelled("the search") }
    }

    /// A new `queryID`: 32 hexadecimal digits, as Algolia's.
    static func queryID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
    }
}

private extension JSONValue {
    /// About how many bytes the value holds in memory (what a cache of records weighs).
    var approximateByteCount: Int {
        switch self {
        case .string(let string): 32 + string.utf8.count
        case .array(let elements): 32 + elements.reduce(0) { $0 + $1.approximateByteCount }
        case .object(let object): 32 + object.reduce(0) { $0 + 32 + $1.key.utf8.count + $1.value.approximateByteCount }
        case .int, .double, .bool, .null: 16
        }
    }
}
