import SearchAPI

/// A search's parameters merged with the index settings and Algolia's defaults: what the
/// pipeline actually runs. One place decides every default.
struct SearchRequest {
    let parameters: SearchParameters
    /// The query's words; `var` so that `removeWordsIfNoResults` can retry with some optional.
    var words: [QueryWord]
    let typoPolicy: TypoPolicy
    /// Where words may match: `restrictSearchableAttributes`, `disableTypoToleranceOnAttributes`,
    /// `exactOnSingleWordQuery`.
    let scope: MatchScope
    /// `removeWordsIfNoResults`.
    let wordRemoval: WordRemoval
    /// `advancedSyntax`: words whose records are left out (`-word`); several when they were
    /// written together around indexed separators (`-c#`), left out only side by side.
    let excludedWords: [[String]]
    /// `distinct`: how many hits to keep per value of `attributeForDistinct` (0: no grouping).
    let distinct: Int
    /// `minProximity` (1–7): two query words closer than this count as this far apart.
    let minProximity: Int
    /// How the attribute criterion picks a record's attribute: `attributeCriteriaComputedBy`,
    /// else `attributeCriteriaComputedByMinProximity: true` (`minProximity`), else `minProximity`
    /// when proximity ranks before attribute and `best` otherwise; `best` for one word (no pairs).
    let attributeStrategy: AttributeStrategy
    let filter: FilterExpression?
    /// `optionalFilters`, one group per AND-ed element, each filter with its score, then the
    /// scored groups of `filters` (`filterScoring`): records with a higher total rank higher
    /// (the `filters` criterion).
    let optionalFilters: [[ScoredFilter]]
    /// `sumOrFiltersScores`: an OR group of optional filters scores the sum of the filters a
    /// record matches (true) or the best of them (false, the default).
    let sumOrFiltersScores: Bool
    /// `aroundLatLng` and its radius, `insideBoundingBox`, `insidePolygon`: where records must
    /// be, and the center the `geo` criterion ranks by. `StateContext` replaces an automatic
    /// radius by the one it computes.
    var geo: GeoQuery?
    let facets: [String]
    /// `facetingAfterDistinct` (a search parameter only, as in Algolia): with `distinct`, facets
    /// are counted on the hits distinct keeps.
    let facetingAfterDistinct: Bool
    let maxValuesPerFacet: Int
    let sortFacetValuesBy: FacetSortOrder
    let hitsPerPage: Int
    let page: Int
    /// Positions of the hits to return in the ranked result.
    var start: Int
    var count: Int
    let paginationLimitedTo: Int
    let attributesToRetrieve: [String]
    let attributesToHighlight: [String]
    let attributesToSnippet: [(path: String, words: Int)]
    let highlightPreTag: String
    let highlightPostTag: String
    let snippetEllipsisText: String

    init(_ parameters: SearchParameters, configuration: IndexConfiguration) throws(SearchError) {
        let settings = configuration.settings
        self.parameters = parameters
        // Checked here too: parameters built in Swift do not go through the JSON reader.
        try SearchParameters.checkQueryLength(parameters.query)
        try SearchParameters.checkQueryLength(parameters.facetQuery ?? "", parameter: "facetQuery")
        func setting(_ name: String) -> JSONValue? { parameters.other[name] ?? settings.values[name] }
        var optionalWords: Set<String> = []
        if let value = setting("optionalWords") {
            for entry in try ParameterReader(name: "optionalWords", value: value).stringList() {
                optionalWords.formUnion(Tokenizer.words(entry, separators: configuration.separators))
            }
        }
        var advanced: QueryWords.AdvancedSyntax = []
        if let enabled = setting("advancedSyntax"), try ParameterReader(name: "advancedSyntax", value: enabled).bool() {
            advanced = [.exactPhrase, .excludeWords]
            if let features = setting("advancedSyntaxFeatures") {
                let names = try ParameterReader(name: "advancedSyntaxFeatures", value: features).stringList()
                advanced = []
                for name in names {
                    switch name {
                    case "exactPhrase": advanced.insert(.exactPhrase)
                    case "excludeWords": advanced.insert(.excludeWords)
                    default: throw .invalidParameter("advancedSyntaxFeatures", expected: "\"exactPhrase\" and/or \"excludeWords\"", got: "\"\(name)\"")
                    }
                }
            }
        }
        let parsed = QueryWords.parse(parameters.query, queryType: parameters.queryType ?? settings.queryType ?? .prefixLast,
                                      advancedSyntax: advanced, separators: configuration.separators)
        excludedWords = parsed.excluded
        // `true` means the query's languages (`queryLanguages`; every language the feature knows
        // when unset, as on Algolia): the plurals and the stop words of each language named.
        // The settings' own are read once (`IndexConfiguration`); a search that overrides any of
        // the three reads them again.
        let switches = parameters.other["ignorePlurals"] != nil || parameters.other["removeStopWords"] != nil
            || parameters.other["queryLanguages"] != nil
        let queryLanguages = try switches ? SearchRequest.effectiveQueryLanguages(
            try setting("queryLanguages").map { value throws(SearchError) in try ParameterReader(name: "queryLanguages", value: value).stringList() },
            ignorePlurals: setting("ignorePlurals"), removeStopWords: setting("removeStopWords")) : nil
        words = QueryWords.applyingLanguage(
            parsed.words,
            ignorePlurals: switches
                ? PluralRuleSet.forLanguages(try SearchRequest.languages(setting("ignorePlurals"), name: "ignorePlurals",
                                                                         queryLanguages: queryLanguages, known: Plurals.languages))
                : configuration.plurals,
            removeStopWords: switches
                ? try SearchRequest.languages(setting("removeStopWords"), name: "removeStopWords", queryLanguages: queryLanguages,
                                              known: StopWords.languages)
                : configuration.stopWordLanguages,
            synonyms: parameters.other["synonyms"] == .bool(false) ? SynonymTable() : configuration.synonyms,
            asExact: try setting("alternativesAsExact").map { value throws(SearchError) in try ExactAlternatives(value) } ?? .default)
            .map { word in
                var word = word
                word.isOptional = optionalWords.contains(word.folded)
                return word
            }
        let compounds = parameters.other["decompoundQuery"] != nil || parameters.other["queryLanguages"] != nil
            ? try SearchRequest.queryCompounds(decompoundQuery: setting("decompoundQuery"), queryLanguages: SearchRequest.effectiveQueryLanguages(
                try setting("queryLanguages").map { value throws(SearchError) in try ParameterReader(name: "queryLanguages", value: value).stringList() },
                ignorePlurals: setting("ignorePlurals"), removeStopWords: setting("removeStopWords")))
            : configuration.queryCompounds
        if let compounds { words = QueryWords.splittingCompounds(words, with: compounds) }
        switch setting("distinct") {
        case nil, .bool(false)?: distinct = 0
        case .bool(true)?: distinct = 1
        case let value?: distinct = try ParameterReader(name: "distinct", value: value).int(in: 0...4)
        }
        let strategy = try setting("attributeCriteriaComputedBy").map { value throws(SearchError) in
            try ParameterReader(name: "attributeCriteriaComputedBy", value: value).enumeration(AttributeStrategy.self)
        }
        let byMinProximity = try setting("attributeCriteriaComputedByMinProximity").map { value throws(SearchError) in
            try ParameterReader(name: "attributeCriteriaComputedByMinProximity", value: value).bool()
        }
        if words.count < 2 {
            attributeStrategy = .best
        } else if let strategy {
            attributeStrategy = strategy
        } else if byMinProximity == true || AttributeStrategy.proximityRanksBeforeAttribute(configuration.relevanceOrder) {
            attributeStrategy = .minProximity
        } else {
            attributeStrategy = .best
        }
        minProximity = try setting("minProximity").map { value throws(SearchError) in
            try ParameterReader(name: "minProximity", value: value).int(in: 1...7)
        } ?? 1
        if let removal = setting("removeWordsIfNoResults") {
            wordRemoval = try ParameterReader(name: "removeWordsIfNoResults", value: removal).enumeration(WordRemoval.self)
        } else {
            wordRemoval = .none
        }
        typoPolicy = try TypoPolicy(parameters, settings: settings, separators: configuration.separators)
        scope = try MatchScope(parameters, configuration: configuration)
        // `filters` read once: what it selects, and the scores written in it.
        var filters: (expression: FilterExpression?, scores: [FilterExpression: Int]) = (nil, [:])
        if let text = parameters.filters {
            do { filters = try FilterParser.parseScored(text) } catch { throw SearchError(.invalidFilter, error.description) }
        }
        filter = try SearchRequest.filterExpression(filters: filters.expression, parameters)
        optionalFilters = try SearchRequest.scoredOptionalFilters(parameters.optionalFilters)
            + SearchRequest.filterScoring(filters.expression, scores: filters.scores)
        sumOrFiltersScores = try setting("sumOrFiltersScores").map { value throws(SearchError) in
            try ParameterReader(name: "sumOrFiltersScores", value: value).bool()
        } ?? false
        geo = try GeoQuery(parameters)

        let declared = configuration.facetAttributes.filter { !$0.filterOnly }.map(\.path)
        var facets: [String] = []
        for facet in parameters.facets ?? [] {
            let names = facet == "*" ? declared : (declared.contains(facet) ? [facet] : [])
            for name in names where !facets.contains(name) { facets.append(name) }
        }
        self.facets = facets
        facetingAfterDistinct = try parameters.other["facetingAfterDistinct"].map { value throws(SearchError) in
            try ParameterReader(name: "facetingAfterDistinct", value: value).bool()
        } ?? false
        maxValuesPerFacet = parameters.maxValuesPerFacet ?? settings.maxValuesPerFacet ?? 100
        sortFacetValuesBy = parameters.sortFacetValuesBy ?? settings.sortFacetValuesBy ?? .count

        paginationLimitedTo = settings.paginationLimitedTo ?? 1000
        hitsPerPage = parameters.hitsPerPage ?? settings.hitsPerPage ?? 20
        if let offset = parameters.offset {
            let length = parameters.length ?? hitsPerPage
            page = hitsPerPage > 0 ? offset / max(hitsPerPage, 1) : 0
            start = offset
            count = max(0, min(length, paginationLimitedTo - offset))
        } else {
            if parameters.length != nil {
                throw SearchError(.invalidParameter, "length: expected together with offset; use offset and length, or page and hitsPerPage")
            }
            page = parameters.page ?? 0
            start = page * hitsPerPage
            count = max(0, min(hitsPerPage, paginationLimitedTo - start))
        }

        attributesToRetrieve = parameters.attributesToRetrieve ?? settings.attributesToRetrieve ?? ["*"]
        let defaultHighlight: [String] = configuration.searchable.map { attributes in
            var paths: [String] = []
            for attribute in attributes where !paths.contains(attribute.path) { paths.append(attribute.path) }
            return paths
        } ?? ["*"]
        attributesToHighlight = parameters.attributesToHighlight ?? settings.attributesToHighlight ?? defaultHighlight
        var snippets: [(String, Int)] = []
        for entry in parameters.attributesToSnippet ?? settings.attributesToSnippet ?? [] {
            if let colon = entry.lastIndex(of: ":") {
                let path = String(entry[..<colon])
                guard let words = Int(entry[entry.index(after: colon)...]), words >= 0 else {
                    throw SearchError(.invalidParameter, "attributesToSnippet: invalid entry \"\(entry)\"; expected attribute or attribute:numberOfWords")
                }
                snippets.append((path, words))
            } else {
                snippets.append((entry, 10))
            }
        }
        attributesToSnippet = snippets
        highlightPreTag = parameters.highlightPreTag ?? settings.highlightPreTag ?? "<em>"
        highlightPostTag = parameters.highlightPostTag ?? settings.highlightPostTag ?? "</em>"
        snippetEllipsisText = parameters.snippetEllipsisText ?? settings.snippetEllipsisText ?? "…"
    }

    /// `queryLanguages`, or when it is unset, as Algolia falls back: the languages that
    /// `ignorePlurals` or `removeStopWords` list (nil when neither lists any: every language).
    static func effectiveQueryLanguages(_ queryLanguages: [String]?, ignorePlurals: JSONValue?,
                                        removeStopWords: JSONValue?) throws(SearchError) -> [String]? {
        if let queryLanguages, !queryLanguages.isEmpty { return queryLanguages }
        var listed: [String] = []
        for (name, value) in [("ignorePlurals", ignorePlurals), ("removeStopWords", removeStopWords)] {
            if case .array = value {
                for language in try languages(value, name: name, queryLanguages: nil, known: []) where !listed.contains(language) {
                    listed.append(language)
                }
            }
        }
        return listed.isEmpty ? queryLanguages : listed
    }

    /// How `decompoundQuery` (default true) splits the query's compounds: in the languages of
    /// `queryLanguages` that decompound, none when it names none (Algolia: "as long as
    /// queryLanguages is set").
    static func queryCompounds(decompoundQuery: JSONValue?, queryLanguages: [String]?) throws(SearchError) -> CompoundSplitter? {
        let on = try decompoundQuery.map { value throws(SearchError) in try ParameterReader(name: "decompoundQuery", value: value).bool() } ?? true
        guard on, let queryLanguages else { return nil }
        return CompoundSplitter(languages: queryLanguages)
    }

    /// The languages `ignorePlurals` / `removeStopWords` name, as Algolia reads them: none for
    /// false, the listed codes for a list, and for true the query's languages (`queryLanguages`),
    /// or every language the feature knows (`known`) when those are unset.
    static func languages(_ value: JSONValue?, name: String, queryLanguages: [String]?, known: [String]) throws(SearchError) -> [String] {
        switch value {
        case nil, .bool(false)?, .string("false")?: return []
        case .bool(true)?, .string("true")?:
            guard let queryLanguages, !queryLanguages.isEmpty else { return known }
            return queryLanguages
        case .array(let languages)?: return languages.compactMap(\.stringValue)
        case .string(let text)?: return text.split(separator: ",").map { $0.trimmingSpaces }
        case let other?:
            throw .invalidParameter(name, expected: "true, false or a list of language codes such as [\"en\"]", got: other.jsonString)
        }
    }

    /// One list-form filter parameter (a string or nested arrays) as an expression.
    static func listExpression(_ list: FilterList?, parameter: String) throws(SearchError) -> FilterExpression? {
        do {
            switch list {
            case nil:
                return nil
            case .string(let text)?:
                return try FilterListParser.parseString(text, parameter: parameter)
            case .list(let items)?:
                return try FilterListParser.parse(items, parameter: parameter)
            }
        } catch {
            throw SearchError(.invalidFilter, error.description)
        }
    }

    /// `optionalFilters` (a string or nested arrays) with their scores.
    static func scoredOptionalFilters(_ list: FilterList?) throws(SearchError) -> [[ScoredFilter]] {
        do {
            switch list {
            case nil:
                return []
            case .string(let text)?:
                return try FilterListParser.scoredOptionalFilters(FilterListParser.splitStringForm(text, parameter: "optionalFilters"))
            case .list(let items)?:
                return try FilterListParser.scoredOptionalFilters(items)
            }
        } catch {
            throw SearchError(.invalidFilter, error.description)
        }
    }

    /// Filter scoring in `filters` (`(company:Google<score=3> OR company:Amazon<score=2>)`): when
    /// some filter has a score, each AND-ed element is one group for the `filters` criterion, its
    /// filters scored as written (1 without a score). Without any score, none: a plain filter
    /// selects and does not rank (every hit matches it anyway).
    static func filterScoring(_ expression: FilterExpression?, scores: [FilterExpression: Int]) -> [[ScoredFilter]] {
        guard let expression, !scores.isEmpty else { return [] }
        func scored(_ filter: FilterExpression) -> ScoredFilter {
            switch filter {
            case .not(let leaf): ScoredFilter(filter: filter, score: scores[leaf] ?? 1)
            default: ScoredFilter(filter: filter, score: scores[filter] ?? 1)
            }
        }
        let elements: [FilterExpression]
        if case .and(let children) = expression { elements = children } else { elements = [expression] }
        return elements.map { element in
            if case .or(let alternatives) = element { return alternatives.map(scored) }
            return [scored(element)]
        }
    }

    /// `filters` (parsed), `facetFilters`, `numericFilters` and `tagFilters`, combined with AND.
    static func filterExpression(filters: FilterExpression?, _ parameters: SearchParameters) throws(SearchError) -> FilterExpression? {
        var parts: [FilterExpression?] = [filters]
        for (name, list) in [("facetFilters", parameters.facetFilters), ("numericFilters", parameters.numericFilters),
                             ("tagFilters", parameters.tagFilters)] {
            parts.append(try listExpression(list, parameter: name))
        }
        return FilterExpression.allOf(parts)
    }
}

/// Which searchable levels a query may match in, with and without typos, and how `exact`
/// treats a one-word query. Part of the key under which candidates are shared.
struct MatchScope: Hashable, Sendable {
    enum SingleWordExact: String, Hashable, Sendable, CaseIterable {
        /// Exact only when the word is a whole attribute value (Algolia's default).
        case attribute
        /// Exact when the word is in the record as a whole word.
        case word
        /// The exact criterion does not apply to one-word queries.
        case none
    }

    /// Level bits (`PostingMask`) words may match in.
    var levels: UInt16 = PostingMask.levels
    /// Level bits where typo matches count.
    var typoLevels: UInt16 = PostingMask.levels
    var singleWordExact: SingleWordExact = .attribute

    init() {}

    /// `restrictSearchableAttributes` and `disableTypoToleranceOnAttributes` name attributes; they
    /// apply to the searchable levels those attributes are at (an attribute sharing a level with
    /// another, `"a,b"`, takes the other along). Names that are not searchable are ignored, and
    /// without `searchableAttributes` (one level for everything) neither applies.
    init(_ parameters: SearchParameters, configuration: IndexConfiguration) throws(SearchError) {
        func value(_ name: String) -> JSONValue? { parameters.other[name] ?? configuration.settings.values[name] }
        func levels(of names: [String]) -> [Int] {
            guard let searchable = configuration.searchable else { return [] }
            return searchable.filter { names.contains($0.path) }.map(\.level)
        }
        if let restricted = parameters.restrictSearchableAttributes, !restricted.isEmpty {
            let mask = PostingMask.mask(forLevels: levels(of: restricted))
            if mask != 0 { self.levels = mask }
        }
        if let disabled = value("disableTypoToleranceOnAttributes") {
            let names = try ParameterReader(name: "disableTypoToleranceOnAttributes", value: disabled).stringList()
            typoLevels = PostingMask.levels & ~PostingMask.mask(forLevels: levels(of: names))
        }
        if let rule = value("exactOnSingleWordQuery") {
            singleWordExact = try ParameterReader(name: "exactOnSingleWordQuery", value: rule).enumeration(SingleWordExact.self)
        }
    }
}

/// `attributeCriteriaComputedBy`'s values: which attribute the attribute criterion ranks a
/// record by, for a query of several words.
enum AttributeStrategy: String, CaseIterable, Sendable {
    /// The best searchable attribute (level, then position) any query word matched in.
    case best
    /// The best attribute holding a closest pair of query words (`best` when every pair is 8 or
    /// more apart).
    case minProximity
    /// Each query word's best attribute, summed over the words matched.
    case sum

    /// Whether `proximity` comes before `attribute` in a ranking order (both present).
    static func proximityRanksBeforeAttribute(_ order: [RankingCriterion]) -> Bool {
        guard let proximity = order.firstIndex(of: .proximity), let attribute = order.firstIndex(of: .attribute) else { return false }
        return proximity < attribute
    }
}

extension SearchRequest {
    /// A response's paging for `hitCount` hits: the page and its size, `offset` and `length`
    /// when the request paged by them, and `nbPages` up to `paginationLimitedTo`.
    func describePaging(_ response: inout SearchResponse, hitCount: Int, parameters: SearchParameters) {
        response.page = page
        response.hitsPerPage = hitsPerPage
        if parameters.offset != nil {
            response.offset = start
            response.length = count
        }
        if hitsPerPage > 0 {
            let pages = (hitCount + hitsPerPage - 1) / hitsPerPage
            let limit = (paginationLimitedTo + hitsPerPage - 1) / hitsPerPage
            response.nbPages = min(pages, limit)
        }
    }
}
