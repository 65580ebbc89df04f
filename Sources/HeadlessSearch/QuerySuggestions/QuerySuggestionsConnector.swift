import SearchAPI

/// The query-suggestions screen of Algolia's guide, headless: one search box drives a
/// suggestions index and a results index together, in one multi-search per keystroke. The
/// empty query lists the most popular suggestions; choosing one sets the query, submits it
/// and hides the list.
///
/// ```swift
/// let screen = QuerySuggestionsConnector<Hit<Product>>(service: engine)
/// screen.suggestionsInteractor.onResultsUpdated.subscribe(with: list) { list, _ in list.reload() }
/// screen.search()                            // popular suggestions and first results
/// screen.searchBoxInteractor.query = "ip"    // both update
/// screen.select(screen.suggestionsInteractor.hit(atIndex: 0)!.object)   // query set, list hidden
/// ```
@MainActor
public final class QuerySuggestionsConnector<ResultRecord: Decodable> {
    /// The multi-searcher that searches both indices in one call.
    public let searcher: MultiSearcher
    /// The searcher of the suggestions index (`suggestionsCount` hits per page).
    public let suggestionsSearcher: HitsSearcher
    /// The searcher of the results index.
    public let resultsSearcher: HitsSearcher
    /// The search box; each change of its query searches both indices.
    public let searchBoxInteractor: SearchBoxInteractor
    /// The suggestions list: one page, shown on the empty query too.
    public let suggestionsInteractor: HitsInteractor<Hit<QuerySuggestion>>
    /// The results list.
    public let resultsInteractor: HitsInteractor<ResultRecord>

    /// Whether suggestions show the part not typed yet emphasised (default true).
    public var isHighlightingInverted = true

    /// Whether the suggestion list is shown: from the moment the user edits the query (or
    /// `beginEditing()`) until a query is submitted.
    public private(set) var isShowingSuggestions = false {
        didSet { if oldValue != isShowingSuggestions { onSuggestionsVisibilityChanged.fire(isShowingSuggestions) } }
    }

    /// Fired with `isShowingSuggestions` when it changes (the last kept as `lastValue`).
    public let onSuggestionsVisibilityChanged: Observer<Bool>

    private var connections: [any Connection] = []

    /// - Parameters:
    ///   - service: where the searches go.
    ///   - suggestionsIndexName: the Query Suggestions index.
    ///   - resultsIndexName: the results index.
    ///   - suggestionsCount: how many suggestions are listed.
    ///   - resultsInfiniteScrolling: the results list's infinite scrolling.
    ///   - filterState: filters of the results (not of the suggestions), if any.
    public init(service: any SearchService, suggestionsIndexName: String = "instantsearch_query_suggestions",
                resultsIndexName: String = "instant_search", suggestionsCount: Int = 10,
                resultsInfiniteScrolling: InfiniteScrolling = .on(withOffset: 10), filterState: FilterState? = nil) {
        searcher = MultiSearcher(service: service)
        var suggestionParameters = SearchParameters()
        suggestionParameters.hitsPerPage = suggestionsCount
        suggestionsSearcher = searcher.addHitsSearcher(indexName: suggestionsIndexName, parameters: suggestionParameters)
        resultsSearcher = searcher.addHitsSearcher(indexName: resultsIndexName)
        searchBoxInteractor = SearchBoxInteractor()
        suggestionsInteractor = HitsInteractor(infiniteScrolling: .off, showItemsOnEmptyQuery: true)
        resultsInteractor = HitsInteractor(infiniteScrolling: resultsInfiniteScrolling, showItemsOnEmptyQuery: true)
        onSuggestionsVisibilityChanged = Observer(retainLastData: true)

        connections.append(searchBoxInteractor.connectSearcher(searcher, searchTriggeringMode: .searchAsYouType))
        connections.append(suggestionsInteractor.connectSearcher(suggestionsSearcher))
        connections.append(resultsInteractor.connectSearcher(resultsSearcher))
        if let filterState { connections.append(resultsSearcher.connectFilterState(filterState)) }
        searchBoxInteractor.onQueryChanged.subscribe(with: self) { connector, _ in connector.isShowingSuggestions = true }
        searchBoxInteractor.onQuerySubmitted.subscribe(with: self) { connector, _ in connector.isShowingSuggestions = false }
    }

    /// Connects the search box view.
    public func connectSearchBoxController(_ controller: some SearchBoxController) {
        connections.append(searchBoxInteractor.connectController(controller))
    }

    /// Searches both indices with the current query.
    public func search() { searcher.search() }

    /// The user entered the search box: the suggestions for the current query are shown.
    public func beginEditing() { isShowingSuggestions = true }

    /// The user chose a suggestion: it becomes the query (searching both indices), is
    /// submitted, and the list is hidden.
    public func select(_ suggestion: QuerySuggestion) {
        searchBoxInteractor.query = suggestion.query
        searchBoxInteractor.submitQuery()
    }

    /// The suggestion at a row as the list shows it (see `isHighlightingInverted`).
    public func highlightedSuggestion(atIndex index: Int) -> HighlightedString? {
        suggestionsInteractor.hit(atIndex: index)?.object.displayedText(inverted: isHighlightingInverted)
    }
}
