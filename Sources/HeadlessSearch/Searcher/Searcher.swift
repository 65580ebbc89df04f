import SearchAPI

/// What every searcher offers: it owns a request, sends it to a `SearchService` on
/// `search()`, and publishes the outcome on the main actor. InstantSearch's `Searcher`.
///
/// Latest request wins, strictly: a response to a request that a newer one superseded is
/// dropped, whether it arrives before or after the newer one, and the superseded request's
/// task is cancelled (the local engine then stops working on it).
@MainActor
public protocol Searcher: AnyObject {
    /// The query text. Setting a different one resets the page to 0 and fires `onQueryChanged`.
    var query: String? { get set }
    /// True exactly while a request whose response can still be delivered is in flight.
    /// `isLoading.lastValue` is the current state.
    var isLoading: Observer<Bool> { get }
    /// Fired with the new query text when it changes.
    var onQueryChanged: Observer<String?> { get }
    /// Fired when a new search starts (not for the next page of the same search).
    var onSearch: Observer<Void> { get }
    /// Sends the current request; supersedes every request in flight.
    func search()
    /// Cancels every request in flight; none of their responses will be delivered.
    func cancel()
}

/// A searcher whose index can change (a sort-by widget switches between replicas).
@MainActor
public protocol IndexNameSettable: AnyObject {
    /// Sets the index searched.
    func setIndexName(_ indexName: String)
}

/// A searcher whose hand-written `filters` parameter can be set.
@MainActor
public protocol FiltersSettable: AnyObject {
    /// Sets the hand-written `filters` parameter (nil: none).
    func setFilters(_ filters: String?)
}

/// A searcher that loads further pages of its current search (infinite scrolling).
@MainActor
public protocol PageLoadable: AnyObject {
    /// Loads one page of the current search, alongside the pages in flight.
    func loadPage(atIndex pageIndex: Int)
}

/// A searcher that a `MultiSearcher` can gather into its single `multiSearch` call.
/// InstantSearch's `MultiSearchComponent`.
@MainActor
public protocol MultiSearchComponent: AnyObject {
    /// Starts a new search of this component (superseding its requests in flight) and returns
    /// its queries, and what to do with their results (exactly as many, in order) or error.
    func collect() -> MultiSearchComponentRequest
    /// Cancels every request of this component in flight.
    func cancel()
    /// Sets the query text (`MultiSearcher.query` forwards it to every component).
    func setQuery(_ query: String?)
}

/// The part of a multi-search one component contributes, and how it takes its results.
public struct MultiSearchComponentRequest {
    /// The component's queries, sent in this order within the multi-search.
    public let queries: [MultiSearchQuery]
    let complete: @MainActor (Result<[MultiSearchResult], SearchError>) -> Void
}

extension SearchService {
    /// Runs `queries` as one multi-search and checks the answer has one result per query.
    func run(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy = .none) async -> Result<[MultiSearchResult], SearchError> {
        do {
            let results = try await multiSearch(queries, strategy: strategy)
            guard results.count == queries.count else {
                return .failure(SearchError(.internalError,
                                            "the search service answered \(results.count) results to \(queries.count) queries"))
            }
            return .success(results)
        } catch {
            return .failure(error)
        }
    }
}
