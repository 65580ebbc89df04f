import SearchAPI

// The older InstantSearch names the guides use, kept so their code reads the same.

@available(*, deprecated, renamed: "SearchBoxInteractor")
public typealias QueryInputInteractor = SearchBoxInteractor

extension Hit {
    @available(*, deprecated, renamed: "highlightedString(forKey:)")
    public func hightlightedString(forKey key: String) -> HighlightedString? { highlightedString(forKey: key) }
}

extension FacetListInteractor {
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
        public let indexName: String
        let connect: @MainActor (HitsSearcher) -> Void

        public init<Record: Decodable>(indexName: String, hitsInteractor: HitsInteractor<Record>) {
            self.indexName = indexName
            connect = { [weak hitsInteractor] searcher in hitsInteractor?.connectSearcher(searcher) }
        }
    }

    public let searcher: MultiSearcher

    public init(service: any SearchService, indexModules: [IndexModule]) {
        searcher = MultiSearcher(service: service)
        for module in indexModules { module.connect(searcher.addHitsSearcher(indexName: module.indexName)) }
    }
}
