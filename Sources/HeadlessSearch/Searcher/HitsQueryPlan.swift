import SearchAPI

/// The queries one hits search sends, and how their answers merge into one response:
/// InstantSearch's disjunctive and hierarchical faceting, sent as one
/// multi-search so the local engine shares the query and filter work between them.
///
/// 1. The main query: the searcher's parameters, its hand-written `filters` ANDed with the
///    filter state's, and `facets` extended with the disjunctive and hierarchical attributes.
/// 2. For each attribute refined in an OR group, a count query: no hits, `facets` the attribute
///    alone, the filters without that attribute's own OR refinements (so its other values
///    keep their counts).
/// 3. For each selected level of each hierarchical group, a count query for that level with
///    the selection of the level above (so the siblings of the selection stay visible).
/// 4. For each bounds attribute (a range slider's) with numeric filters, a query for its
///    `facets_stats` without them, so the slider's bounds do not shrink to its selection.
///
/// The merge takes hits and the other facets from the main response, the counts of those
/// attributes from their queries, and lists refined values that no longer match with 0.
struct HitsQueryPlan: Sendable {
    struct CountQuery: Sendable {
        let attribute: String
        /// The refined values to keep listed (disjunctive facets only).
        let refinedValues: [String]
        /// True for a bounds query: it gives the attribute's `facets_stats`, not its counts.
        var isBounds = false
    }

    let indexName: String
    let page: Int
    let main: SearchParameters
    let countQueries: [CountQuery]
    let queries: [MultiSearchQuery]
    /// How many values a facet lists (`maxValuesPerFacet`, Algolia's default 100).
    let facetLimit: Int
    let keepSelectedEmptyFacets: Bool
    /// Facets of an earlier page of the same search, reused instead of being counted again.
    let reusedFacets: SearchResponse?

    /// Algolia's cap on `maxValuesPerFacet`: a count query asks every value, so refined values
    /// past the displayed limit keep their true count.
    static let allValues = 1000

    init(indexName: String, parameters: SearchParameters, filters: Filters?, page: Int,
         disjunctiveFaceting: Bool, keepSelectedEmptyFacets: Bool, boundsAttributes: [String] = [],
         reusingFacetsOf reused: SearchResponse? = nil) {
        self.indexName = indexName
        self.page = page
        self.keepSelectedEmptyFacets = keepSelectedEmptyFacets
        let manualFilters = parameters.filters
        var main = parameters
        main.page = page
        main.filters = FilterSyntax.and([manualFilters, filters?.filtersString])
        facetLimit = parameters.maxValuesPerFacet ?? 100

        // Page loads of a search whose facets are known ask for hits only.
        if let reused {
            main.facets = nil
            self.main = main
            reusedFacets = reused
            countQueries = []
            queries = [.hits(indexName: indexName, parameters: main)]
            return
        }
        reusedFacets = nil

        var counts: [CountQuery] = []
        var countParameters: [SearchParameters] = []
        var extraFacets: [String] = []
        func countQuery(_ attribute: String, filters: Filters, maxValues: Int?) -> SearchParameters {
            var query = main
            query.filters = FilterSyntax.and([manualFilters, filters.filtersString])
            query.facets = [attribute]
            query.hitsPerPage = 0
            query.page = 0
            query.offset = nil
            query.length = nil
            query.maxValuesPerFacet = maxValues
            query.getRankingInfo = nil
            query.clickAnalytics = false
            query.other["analytics"] = .bool(false)
            return query
        }
        if let filters {
            if disjunctiveFaceting {
                for attribute in filters.disjunctiveFacetAttributes {
                    extraFacets.append(attribute)
                    counts.append(CountQuery(attribute: attribute, refinedValues: filters.disjunctiveRefinements(of: attribute)))
                    countParameters.append(countQuery(attribute, filters: filters.removingDisjunctiveRefinements(of: attribute),
                                                      maxValues: HitsQueryPlan.allValues))
                }
            }
            for attribute in boundsAttributes where filters.hasNumericFilters(on: attribute) {
                extraFacets.append(attribute)
                counts.append(CountQuery(attribute: attribute, refinedValues: [], isBounds: true))
                countParameters.append(countQuery(attribute, filters: filters.removingNumericFilters(on: attribute), maxValues: nil))
            }
            for name in filters.hierarchicalAttributes.keys.sorted() {
                let attributes = filters.hierarchicalAttributes[name] ?? []
                extraFacets.append(contentsOf: attributes)
                let path = filters.hierarchicalFilters[name] ?? []
                // Levels above the deepest selection: counted with the selection of the level above.
                for level in 0..<min(path.count, attributes.count) {
                    let above = level == 0 ? nil : path[level - 1]
                    counts.append(CountQuery(attribute: attributes[level], refinedValues: []))
                    countParameters.append(countQuery(attributes[level],
                                                      filters: filters.replacingHierarchicalSelection(ofGroupNamed: name, with: above),
                                                      maxValues: parameters.maxValuesPerFacet))
                }
            }
        }
        if !extraFacets.isEmpty {
            var facets = main.facets ?? []
            for attribute in extraFacets where !facets.contains(attribute) { facets.append(attribute) }
            main.facets = facets
        }
        self.main = main
        countQueries = counts
        queries = [.hits(indexName: indexName, parameters: main)]
            + countParameters.map { .hits(indexName: indexName, parameters: $0) }
    }

    /// One response from the answers to `queries` (same count, same order).
    func merge(_ results: [MultiSearchResult]) -> Result<SearchResponse, SearchError> {
        guard results.count == queries.count, var response = results.first?.searchResponse else {
            return .failure(SearchError(.internalError, "the search service's answer does not match the \(queries.count) queries sent to \(indexName)"))
        }
        if let reusedFacets {
            response.facets = reusedFacets.facets
            response.facetsStats = reusedFacets.facetsStats
            response.exhaustiveFacetsCount = reusedFacets.exhaustiveFacetsCount
            return .success(response)
        }
        var facets = response.facets ?? []
        for (position, count) in countQueries.enumerated() {
            guard let answer = results[position + 1].searchResponse else {
                return .failure(SearchError(.internalError, "the search service answered a hits query on \(indexName) with facet values"))
            }
            if count.isBounds {
                var stats = response.facetsStats ?? [:]
                stats[count.attribute] = answer.facetsStats?[count.attribute]
                response.facetsStats = stats.isEmpty ? nil : stats
                continue
            }
            let all = answer.facet(count.attribute)?.values ?? []
            var values = Array(all.prefix(facetLimit))
            if keepSelectedEmptyFacets {
                for refined in count.refinedValues {
                    let key = refined.lowercased()
                    guard !values.contains(where: { $0.value.lowercased() == key }) else { continue }
                    values.append(all.first { $0.value.lowercased() == key } ?? (value: refined, count: 0))
                }
            }
            let counts = FacetCounts(attribute: count.attribute, values: values)
            if let existing = facets.firstIndex(where: { $0.attribute == count.attribute }) {
                facets[existing] = counts
            } else {
                facets.append(counts)
            }
            if let exhaustive = answer.exhaustiveFacetsCount {
                response.exhaustiveFacetsCount = (response.exhaustiveFacetsCount ?? true) && exhaustive
            }
        }
        if !countQueries.isEmpty || response.facets != nil { response.facets = facets }
        return .success(response)
    }
}
