/// HeadlessSearch: the UI-free half of a search screen, modelled on InstantSearch iOS
/// (7.x / 8.x names), on the `SearchService` protocol alone.
///
/// - *Searchers* (`HitsSearcher`, `FacetSearcher`, `MultiSearcher`) own the request and call a
///   `SearchService`: the local engine, a remote Algolia client, or a test double. The latest
///   request wins, strictly; superseded requests are cancelled.
/// - *Interactors* (`SearchBoxInteractor`, `HitsInteractor`, `FacetListInteractor`,
///   `HierarchicalInteractor`, `FilterToggleInteractor`, `NumberInteractor`,
///   `NumberRangeInteractor`, `CurrentFiltersInteractor`, `ClearFiltersInteractor`,
///   `StatsInteractor`, `LoadingInteractor`, `SortByInteractor`, and for what Rules add to a
///   response `QueryRuleCustomDataInteractor`, `DynamicFacetListInteractor` and
///   `RedirectInteractor`) hold UI state and publish events (`Observer`, or `AsyncStream`
///   through `Observer.values()`), on the main actor.
/// - *Controllers* are the protocols views implement (`SearchBoxController`, `HitsController`,
///   `FacetListController`, ...); *connections* wire the pieces (`connectSearcher`,
///   `connectController`, `connectFilterState`); *connectors* bundle a widget.
/// - `FilterState` holds the filters and writes Algolia's strict `filters` grammar.
///
/// Construction is the only line that differs from Algolia's guides:
///
/// ```swift
/// let engine = try SearchEngine(directory: dataDirectory)          // or a remote client
/// let searcher = HitsSearcher(service: engine, indexName: "instant_search")
/// let searchBox = SearchBoxConnector(searcher: searcher, controller: searchField)
/// let hits = HitsInteractor<Hit<Product>>()
/// hits.connectSearcher(searcher)
/// hits.connectController(resultsList)
/// searcher.search()
/// ```
public enum HeadlessSearch {}
