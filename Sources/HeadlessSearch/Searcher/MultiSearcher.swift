import SearchAPI

/// Gathers several searchers into one `multiSearch` call and hands each its own result:
/// hits of several indices, or hits and facet values of one, searched together with one
/// query. InstantSearch's `MultiSearcher`.
///
/// Setting `query` sets it on every searcher added; `search()` starts a new search of every
/// one of them (superseding their requests in flight) and sends their queries, disjunctive
/// and hierarchical count queries included, as one request.
///
/// ```swift
/// let searcher = MultiSearcher(service: engine)
/// let actors = searcher.addHitsSearcher(indexName: "mobile_demo_actors")
/// let movies = searcher.addHitsSearcher(indexName: "mobile_demo_movies")
/// actorsInteractor.connectSearcher(actors)
/// moviesInteractor.connectSearcher(movies)
/// searcher.query = "kate"
/// searcher.search()
/// ```
@MainActor
public final class MultiSearcher: Searcher {
    /// The service the multi-searches go to, also used by the searchers that
    /// `addHitsSearcher` and `addFacetsSearcher` make.
    public let service: any SearchService

    /// `strategy` of the multi-search.
    public var strategy: MultiSearchStrategy

    /// The searchers gathered, in the order their queries are sent.
    public private(set) var components: [any MultiSearchComponent] = []

    /// The last query set (each searcher added keeps its own query, which this sets).
    public var query: String? {
        didSet {
            guard oldValue != query else { return }
            for component in components { component.setQuery(query) }
            onQueryChanged.fire(query)
        }
    }

    /// Every result of each multi-search that was still current, in query order.
    public let onResults: Observer<[MultiSearchResult]>
    /// The errors of multi-searches that were still current (each searcher gets them too).
    public let onError: Observer<SearchError>
    public var isLoading: Observer<Bool> { sequencer.isLoading }
    public let onQueryChanged: Observer<String?>
    public let onSearch: Observer<Void>

    private let sequencer = RequestSequencer()

    /// A multi-searcher on `service`, with `strategy` (`none` by default) and no searcher yet.
    public init(service: any SearchService, strategy: MultiSearchStrategy = .none) {
        self.service = service
        self.strategy = strategy
        onResults = Observer(retainLastData: true)
        onError = Observer()
        onQueryChanged = Observer()
        onSearch = Observer()
    }

    /// Adds a searcher to gather.
    @discardableResult
    public func addSearcher<S: MultiSearchComponent>(_ searcher: S) -> S {
        components.append(searcher)
        return searcher
    }

    /// Adds a hits searcher of `indexName`, on this searcher's service.
    @discardableResult
    public func addHitsSearcher(indexName: String, query: String? = nil, parameters: SearchParameters = SearchParameters()) -> HitsSearcher {
        addSearcher(HitsSearcher(service: service, indexName: indexName, query: query ?? self.query, parameters: parameters))
    }

    /// Adds a facet-value searcher of `attribute` in `indexName`, on this searcher's service.
    @discardableResult
    public func addFacetsSearcher(indexName: String, attribute: String, query: String? = nil,
                                  context: SearchParameters = SearchParameters()) -> FacetSearcher {
        addSearcher(FacetSearcher(service: service, indexName: indexName, facetName: attribute,
                                  query: query ?? self.query ?? "", context: context))
    }

    /// Sets `query`, and so the query of every searcher added.
    public func setQuery(_ query: String?) { self.query = query }

    /// Starts a new search of every searcher added and sends their queries as one multi-search.
    public func search() {
        let requests = components.map { $0.collect() }
        let ticket = sequencer.beginGeneration()
        onSearch.fire(())
        let queries = requests.flatMap(\.queries)
        let service = self.service
        let strategy = self.strategy
        let task = Task { [weak self] in
            let result = await service.run(queries, strategy: strategy)
            self?.complete(ticket, requests: requests, result: result)
        }
        sequencer.attach(task, to: ticket)
    }

    /// Cancels the multi-search in flight and every searcher's requests.
    public func cancel() {
        sequencer.revokeAll()
        for component in components { component.cancel() }
    }

    private func complete(_ ticket: RequestSequencer.Ticket, requests: [MultiSearchComponentRequest],
                          result: Result<[MultiSearchResult], SearchError>) {
        // A superseded multi-search: every searcher in it was superseded too (by the newer
        // multi-search's collect, or by its own search), so nobody is waiting for this.
        guard sequencer.finish(ticket) else { return }
        switch result {
        case .success(let results):
            var start = 0
            for request in requests {
                let end = start + request.queries.count
                request.complete(.success(Array(results[start..<end])))
                start = end
            }
            onResults.fire(results)
        case .failure(let error):
            for request in requests { request.complete(.failure(error)) }
            onError.fire(error)
        }
    }

    func settle() async { await sequencer.settle() }
    var finishedRequestCount: Int { sequencer.finishedCount }
}
