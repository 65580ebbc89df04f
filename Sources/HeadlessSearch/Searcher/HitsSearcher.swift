import SearchAPI

/// Searches one index for hits: owns the request (index name and `SearchParameters`), sends it
/// to a `SearchService` (the local engine, a remote Algolia client, a test double) and
/// publishes results, errors and the loading state on the main actor. InstantSearch's
/// `HitsSearcher`, with the service chosen in one line.
///
/// - Latest request wins, strictly: a response to a superseded request is never delivered, in
///   whichever order the responses arrive, and the superseded request's task is cancelled.
/// - A new query, index, or `filters` resets the page to 0, and so does a filter state change;
///   pages of an older search are never delivered after a newer search starts.
/// - Connected to a `FilterState`, it ANDs the state's filters with a `filters` string set by
///   hand in `request.parameters` (never dropping it), and computes disjunctive and
///   hierarchical facet counts with extra queries sent in the same multi-search.
///
/// ```swift
/// let engine = try SearchEngine(directory: dataDirectory)
/// let searcher = HitsSearcher(service: engine, indexName: "instant_search")
/// searcher.onResults.subscribe(with: self) { screen, response in screen.show(response) }
/// searcher.query = "iphone"
/// searcher.search()
/// ```
@MainActor
public final class HitsSearcher: Searcher, IndexNameSettable, FiltersSettable, PageLoadable, MultiSearchComponent {
    /// What a hits search asks: an index and the search parameters.
    public struct Request: Hashable, Sendable {
        /// The index searched.
        public var indexName: String
        /// The search parameters (`query`, `filters` set by hand, `hitsPerPage`, ...).
        public var parameters: SearchParameters

        /// A request for `indexName` with `parameters` (none set by default).
        public init(indexName: String, parameters: SearchParameters = SearchParameters()) {
            self.indexName = indexName
            self.parameters = parameters
        }

        /// The request without its page: requests equal here are pages of one search.
        var withoutPage: Request {
            var copy = self
            copy.parameters.page = nil
            return copy
        }
    }

    /// The service the searches go to.
    public let service: any SearchService

    /// The current request. Changing anything but the page resets the page to 0, and no
    /// further page of the search in flight is loaded until the next `search()` (which
    /// supersedes that search).
    public var request: Request {
        didSet { requestDidChange(from: oldValue) }
    }

    /// The query text (`request.parameters.query`).
    public var query: String? {
        get { request.parameters.query }
        set { request.parameters.query = newValue ?? "" }
    }

    /// The index searched (`request.indexName`).
    public var indexName: String {
        get { request.indexName }
        set { request.indexName = newValue }
    }

    /// The filter state connected with `connectFilterState(_:)`, if any.
    public private(set) var filterState: FilterState?

    /// Whether attributes refined in OR groups are counted as if their refinements were absent
    /// (one extra query each, in the same multi-search). Default true.
    public var isDisjunctiveFacetingEnabled = true {
        didSet { if oldValue != isDisjunctiveFacetingEnabled { invalidatePages() } }
    }

    /// Whether refined values of a disjunctive facet that no longer match are listed with a
    /// count of 0. Default true.
    public var keepSelectedEmptyFacets = true {
        didSet { if oldValue != keepSelectedEmptyFacets { invalidatePages() } }
    }

    /// Attributes whose `facets_stats` are computed without their own numeric filters (one
    /// extra query each when filtered, in the same multi-search), so that a range slider's
    /// bounds stay those of the other filters. `NumberRangeInteractor.connectSearcher` adds its
    /// attribute.
    public var boundsAttributes: [String] = [] {
        didSet { if oldValue != boundsAttributes { invalidatePages() } }
    }

    /// The responses, on the main actor (the last one is kept: `onResults.lastValue`).
    public let onResults: Observer<SearchResponse>
    /// The errors of requests that were still current.
    public let onError: Observer<SearchError>
    /// True exactly while a request that can still be delivered is in flight.
    public var isLoading: Observer<Bool> { sequencer.isLoading }
    /// Fired with the new query text when it changes.
    public let onQueryChanged: Observer<String?>
    /// Fired with the new index name when it changes.
    public let onIndexChanged: Observer<String>
    /// Fired with the new request when it changes.
    public let onRequestChanged: Observer<Request>
    /// Fired when a new search starts (not for a further page of it).
    public let onSearch: Observer<Void>
    /// The page whose request failed (for the hits interactor, so it can ask it again).
    let onPageFailed: Observer<Int>

    private let sequencer = RequestSequencer()
    /// What the current search asked, for its page loads.
    private var generationRequest: Request?
    private var generationFilters: Filters?
    /// The first response of the current search (its facets serve its page loads).
    private var generationResponse: SearchResponse?

    /// - Parameters:
    ///   - service: where the searches go: `SearchEngine`, a remote client, a test double.
    ///   - indexName: the index to search.
    ///   - query: the query text (overrides `parameters.query` when given).
    ///   - parameters: the other search parameters.
    public init(service: any SearchService, indexName: String, query: String? = nil, parameters: SearchParameters = SearchParameters()) {
        self.service = service
        var parameters = parameters
        if let query { parameters.query = query }
        request = Request(indexName: indexName, parameters: parameters)
        onResults = Observer(retainLastData: true)
        onError = Observer()
        onQueryChanged = Observer()
        onIndexChanged = Observer()
        onRequestChanged = Observer()
        onSearch = Observer()
        onPageFailed = Observer()
    }

    private func requestDidChange(from old: Request) {
        guard old != request else { return }
        if old.withoutPage != request.withoutPage {
            if (request.parameters.page ?? 0) != 0 { request.parameters.page = 0 }
            invalidatePages()
        }
        onRequestChanged.fire(request)
        if old.parameters.query != request.parameters.query { onQueryChanged.fire(request.parameters.query) }
        if old.indexName != request.indexName { onIndexChanged.fire(request.indexName) }
    }

    /// The current search no longer answers the request: load no further page of it. (Its
    /// requests in flight stay deliverable until `search()` supersedes them: they answer the
    /// last request sent.)
    private func invalidatePages() {
        generationRequest = nil
        generationFilters = nil
        generationResponse = nil
    }

    // MARK: Searching

    /// Sends the current request (with the connected filter state's filters), superseding
    /// every request in flight.
    public func search() {
        let (ticket, plan) = beginSearch()
        start(plan, ticket: ticket)
    }

    private func beginSearch() -> (RequestSequencer.Ticket, HitsQueryPlan) {
        let ticket = sequencer.beginGeneration()
        generationRequest = request
        generationFilters = filterState?.filters
        generationResponse = nil
        let plan = makePlan(page: request.parameters.page ?? 0)
        onSearch.fire(())
        return (ticket, plan)
    }

    /// Loads another page of the current search, alongside the pages in flight (used by
    /// infinite scrolling). Does nothing before the first `search()` or after the request
    /// changed and before the next `search()`.
    public func loadPage(atIndex pageIndex: Int) {
        guard generationRequest != nil, pageIndex >= 0 else { return }
        let ticket = sequencer.beginPage()
        start(makePlan(page: pageIndex, reuseFacets: true), ticket: ticket)
    }

    /// Cancels every request in flight; none of their responses will be delivered.
    public func cancel() {
        sequencer.revokeAll()
    }

    private func makePlan(page: Int, reuseFacets: Bool = false) -> HitsQueryPlan {
        let request = generationRequest ?? request
        return HitsQueryPlan(indexName: request.indexName, parameters: request.parameters, filters: generationFilters, page: page,
                             disjunctiveFaceting: isDisjunctiveFacetingEnabled, keepSelectedEmptyFacets: keepSelectedEmptyFacets,
                             boundsAttributes: boundsAttributes, reusingFacetsOf: reuseFacets ? generationResponse : nil)
    }

    private func start(_ plan: HitsQueryPlan, ticket: RequestSequencer.Ticket) {
        let service = self.service
        let queries = plan.queries
        let task = Task { [weak self] in
            let result = await service.run(queries)
            self?.complete(ticket, plan: plan, result: result)
        }
        sequencer.attach(task, to: ticket)
    }

    private func complete(_ ticket: RequestSequencer.Ticket, plan: HitsQueryPlan, result: Result<[MultiSearchResult], SearchError>) {
        guard sequencer.finish(ticket) else { return }
        switch result.flatMap(plan.merge) {
        case .success(let response):
            if generationResponse == nil, ticket.generation == sequencer.generation, plan.reusedFacets == nil {
                generationResponse = response
            }
            onResults.fire(response)
        case .failure(let error):
            onPageFailed.fire(plan.page)
            onError.fire(error)
        }
    }

    /// Waits until every request started so far has come back (tests).
    func settle() async { await sequencer.settle() }
    /// How many requests came back, delivered or dropped (tests).
    var finishedRequestCount: Int { sequencer.finishedCount }

    // MARK: MultiSearchComponent

    public func collect() -> MultiSearchComponentRequest {
        let (ticket, plan) = beginSearch()
        return MultiSearchComponentRequest(queries: plan.queries) { [weak self] result in
            self?.complete(ticket, plan: plan, result: result)
        }
    }

    public func setQuery(_ query: String?) { self.query = query }

    // MARK: Settable

    /// Sets the index searched (`indexName`); the page goes back to 0.
    public func setIndexName(_ indexName: String) { self.indexName = indexName }

    /// Sets the hand-written `filters` (ANDed with a connected filter state's).
    public func setFilters(_ filters: String?) { request.parameters.filters = filters }

    // MARK: Filter state

    /// Filters the searches with `filterState`: each change resets the page to 0 and searches
    /// again. The state's filters are ANDed with `request.parameters.filters`.
    @discardableResult
    public func connectFilterState(_ filterState: FilterState) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.filterState = filterState
            filterState.onChange.subscribe(with: self) { searcher, _ in
                searcher.request.parameters.page = 0
                searcher.search()
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self else { return }
            filterState?.onChange.cancelSubscription(for: self)
            if self.filterState === filterState { self.filterState = nil }
        })
    }
}

extension HitsSearcher {
    /// Adds `attribute` to the facets the searches ask for.
    func requestFacet(_ attribute: String) {
        var facets = request.parameters.facets ?? []
        guard !facets.contains(attribute), !facets.contains("*") else { return }
        facets.append(attribute)
        request.parameters.facets = facets
    }
}
