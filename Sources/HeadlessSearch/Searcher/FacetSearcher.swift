import SearchAPI

/// Searches the values of one facet (Algolia's search for facet values), in the context of a
/// query and filters: the values of `categories` that start with what the user typed, counted
/// over the records that match. InstantSearch's `FacetSearcher`. The attribute must be
/// declared `searchable(attribute)` in the index's `attributesForFaceting`.
///
/// Its `query` is the facet query (the text looked for in the values); the hits query and
/// filters that give the context are in `request.context`.
///
/// ```swift
/// let searcher = FacetSearcher(service: engine, indexName: "instant_search", facetName: "brand")
/// searcher.onResults.subscribe(with: self) { screen, response in screen.show(response.facetHits) }
/// searcher.query = "sam"
/// searcher.search()
/// ```
@MainActor
public final class FacetSearcher: Searcher, IndexNameSettable, FiltersSettable, MultiSearchComponent {
    /// What a facet-value search asks: the index, the facet, the facet query and its context.
    public struct Request: Hashable, Sendable {
        /// The index whose facet is searched.
        public var indexName: String
        /// The facet attribute whose values are searched.
        public var attribute: String
        /// The text looked for in the values (`facetQuery`).
        public var facetQuery: String
        /// The search the values are counted in: query text, filters, other parameters.
        public var context: SearchParameters

        /// A request for the values of `attribute` in `indexName` that match `facetQuery` (every
        /// value by default), counted in `context`.
        public init(indexName: String, attribute: String, facetQuery: String = "", context: SearchParameters = SearchParameters()) {
            self.indexName = indexName
            self.attribute = attribute
            self.facetQuery = facetQuery
            self.context = context
        }
    }

    /// The service the searches go to.
    public let service: any SearchService

    /// The current request (sent by the next `search()`).
    public var request: Request {
        didSet {
            guard oldValue != request else { return }
            if oldValue.facetQuery != request.facetQuery { onQueryChanged.fire(request.facetQuery) }
            if oldValue.indexName != request.indexName { onIndexChanged.fire(request.indexName) }
        }
    }

    /// The facet query: the text looked for in the facet's values.
    public var query: String? {
        get { request.facetQuery }
        set { request.facetQuery = newValue ?? "" }
    }

    /// The index whose facet is searched (`request.indexName`); setting a different one fires
    /// `onIndexChanged`.
    public var indexName: String {
        get { request.indexName }
        set { request.indexName = newValue }
    }

    /// The facet attribute searched.
    public var facetName: String {
        get { request.attribute }
        set { request.attribute = newValue }
    }

    /// The filter state connected with `connectFilterState(_:)`, if any.
    public private(set) var filterState: FilterState?

    /// The responses of the requests that were still current (the last kept as `lastValue`).
    public let onResults: Observer<FacetValuesResponse>
    /// The errors of the requests that were still current.
    public let onError: Observer<SearchError>
    public var isLoading: Observer<Bool> { sequencer.isLoading }
    public let onQueryChanged: Observer<String?>
    /// Fired with the new index name when it changes.
    public let onIndexChanged: Observer<String>
    public let onSearch: Observer<Void>

    private let sequencer = RequestSequencer()

    /// - Parameters:
    ///   - service: where the searches go.
    ///   - indexName: the index whose facet is searched.
    ///   - facetName: the facet attribute (declared `searchable(...)` in `attributesForFaceting`).
    ///   - query: the initial facet query.
    ///   - context: the search the values are counted in.
    public init(service: any SearchService, indexName: String, facetName: String, query: String = "",
                context: SearchParameters = SearchParameters()) {
        self.service = service
        request = Request(indexName: indexName, attribute: facetName, facetQuery: query, context: context)
        onResults = Observer(retainLastData: true)
        onError = Observer()
        onQueryChanged = Observer()
        onIndexChanged = Observer()
        onSearch = Observer()
    }

    private func beginSearch() -> (RequestSequencer.Ticket, MultiSearchQuery) {
        let ticket = sequencer.beginGeneration()
        var parameters = request.context
        parameters.facetQuery = request.facetQuery
        parameters.filters = FilterSyntax.and([request.context.filters, filterState?.filters.filtersString])
        onSearch.fire(())
        return (ticket, .facetValues(indexName: request.indexName, facet: request.attribute, parameters: parameters))
    }

    public func search() {
        let (ticket, query) = beginSearch()
        let service = self.service
        let task = Task { [weak self] in
            let result = await service.run([query])
            self?.complete(ticket, result: result)
        }
        sequencer.attach(task, to: ticket)
    }

    public func cancel() {
        sequencer.revokeAll()
    }

    private func complete(_ ticket: RequestSequencer.Ticket, result: Result<[MultiSearchResult], SearchError>) {
        guard sequencer.finish(ticket) else { return }
        switch result {
        case .success(let results):
            guard results.count == 1, case .facetValues(let response) = results[0] else {
                onError.fire(SearchError(.internalError, "the search service answered a facet-value search on \(request.attribute) with hits"))
                return
            }
            onResults.fire(response)
        case .failure(let error):
            onError.fire(error)
        }
    }

    func settle() async { await sequencer.settle() }
    var finishedRequestCount: Int { sequencer.finishedCount }

    // MARK: MultiSearchComponent

    public func collect() -> MultiSearchComponentRequest {
        let (ticket, query) = beginSearch()
        return MultiSearchComponentRequest(queries: [query]) { [weak self] result in
            self?.complete(ticket, result: result)
        }
    }

    public func setQuery(_ query: String?) { self.query = query }
    /// Sets the index whose facet is searched (`indexName`).
    public func setIndexName(_ indexName: String) { self.indexName = indexName }
    /// Sets the hand-written `filters` of the context (ANDed with a connected filter state's).
    public func setFilters(_ filters: String?) { request.context.filters = filters }

    /// Counts the values with `filterState`'s filters too; each change searches again.
    @discardableResult
    public func connectFilterState(_ filterState: FilterState) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.filterState = filterState
            filterState.onChange.subscribe(with: self) { searcher, _ in searcher.search() }
        }, disconnect: { [weak self, weak filterState] in
            guard let self else { return }
            filterState?.onChange.cancelSubscription(for: self)
            if self.filterState === filterState { self.filterState = nil }
        })
    }
}
