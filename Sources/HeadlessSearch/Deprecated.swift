import SearchAPI

// The older InstantSearch names the guides use, kept so their code reads the same.

/// The older InstantSearch name of `SearchBoxInteractor`.
@available(*, deprecated, renamed: "SearchBoxInteractor")
public typealias QueryInputInteractor = SearchBoxInteractor

extension Hit {
    /// `highlightedString(forKey:)` under the misspelled name older InstantSearch code uses.
    @available(*, deprecated, renamed: "highlightedString(forKey:)")
    public func hightlightedString(forKey key: String) -> HighlightedString? { highlightedString(forKey: key) }
}

extension FacetListInteractor {
    /// The older InstantSearch name of `onItemsChanged`: fired with the values when they change.
    @available(*, deprecated, renamed: "onItemsChanged")
    public var onResultsUpdated: Observer<[Facet]> { onItemsChanged }
}

/// Several indices searched with one query, each with its hits interactor: the older
/// InstantSearch connector of the query-suggestions guide. Use a `MultiSearcher` with
/// `addHitsSearcher(indexName:)` instead.
@available(*, deprecated, message: "Use MultiSearcher.addHitsSearcher(indexName:) and HitsInteractor.connectSearcher(_:)")
@MainActor
public final class MultiIndexHitsConnector {
    /// An index and the hits interactor that shows its results.
    public struct IndexModule {
        /// The index whose hits this module shows.
        public let indexName: String
        let connect: @MainActor (HitsSearcher) -> Void

        /// A module showing the hits of `indexName` in `hitsInteractor` (held weakly).
        public init<Record: Decodable>(indexName: String, hitsInteractor: HitsInteractor<Record>) {
            self.indexName = indexName
            connect = { [weak hitsInteractor] searcher in hitsInteractor?.connectSearcher(searcher) }
        }
    }

    /// The searcher that searches every module's index with one query, in one multi-search.
    public let searcher: MultiSearcher

    /// A `MultiSearcher` on `service` with a hits searcher for each module's index, each module's
    /// hits interactor connected to its searcher.
    public init(service: any SearchService, indexModules: [IndexModule]) {
        searcher = MultiSearcher(service: service)
        for module in indexModules { module.connect(searcher.addHitsSearcher(indexName: module.indexName)) }
    }
}
