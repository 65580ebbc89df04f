import SearchAPI

/// Whether a hits list loads the next pages as the user scrolls.
public enum InfiniteScrolling: Sendable, Hashable {
    /// Loads the pages missing within `offset` rows of each row shown.
    case on(withOffset: Int)
    /// Shows the current page only.
    case off
}

/// The hits of a search, as rows: decoded records, pages loaded as the rows near them are
/// shown. InstantSearch's `HitsInteractor`.
///
/// - `numberOfHits()` and `hit(atIndex:)` are what a list view needs; asking for a row whose
///   page is missing (with infinite scrolling on) loads the missing pages within `offset` rows,
///   each page once while it is pending.
/// - A new search (new query, filters, index) replaces every page when its first page arrives:
///   pages of an older search never mix with the new ones.
/// - A hit that does not decode as `Record` is an error event (`HitDecodingError`, naming the
///   hit and the field) and an empty row, not a crash.
///
/// ```swift
/// let hits = HitsInteractor<Hit<Product>>(infiniteScrolling: .on(withOffset: 10))
/// hits.connectSearcher(searcher)
/// hits.onResultsUpdated.subscribe(with: self) { screen, _ in screen.reload() }
/// hits.numberOfHits()
/// hits.hit(atIndex: 3)?.object.name
/// ```
@MainActor
public final class HitsInteractor<Record: Decodable>: HitsSource {
    /// How the rows load and when they are shown.
    public struct Settings: Sendable, Hashable {
        /// Whether further pages load as the rows near them are shown (within 5 rows by default).
        public var infiniteScrolling: InfiniteScrolling
        /// Whether hits are shown when the query is empty.
        public var showItemsOnEmptyQuery: Bool

        /// Settings of infinite scrolling within 5 rows and hits shown on the empty query, unless
        /// given.
        public init(infiniteScrolling: InfiniteScrolling = .on(withOffset: 5), showItemsOnEmptyQuery: Bool = true) {
            self.infiniteScrolling = infiniteScrolling
            self.showItemsOnEmptyQuery = showItemsOnEmptyQuery
        }
    }

    /// How the rows load and when they are shown; `numberOfHits()` and `hit(atIndex:)` read
    /// them on each call.
    public var settings: Settings

    /// Fired with each response taken in (a new search's first page, or a further page).
    public let onResultsUpdated: Observer<SearchResponse>
    /// Fired for search errors (`SearchError`) and records that do not decode (`HitDecodingError`).
    public let onError: Observer<any Error>
    /// Fired when a new search's first page replaced the rows (a list scrolls to the top).
    public let onNewSearch: Observer<Void>

    /// The last response taken in.
    public private(set) var latestResponse: SearchResponse?

    /// The pages loaded, by page number.
    private var pages: [Int: [Record?]] = [:]
    private var hitsPerPage = 20
    private var nbHits = 0
    private var nbPages = 0
    private var query = ""
    /// Pages asked for and not yet answered.
    public private(set) var pendingPages: Set<Int> = []
    /// True from the start of a new search until its first page arrives.
    private var awaitingNewSearch = false

    private weak var pageLoader: (any PageLoadable)?

    /// An interactor with no rows until it takes a response in (from a connected searcher, or
    /// `update(_:)`).
    public init(settings: Settings = Settings()) {
        self.settings = settings
        onResultsUpdated = Observer(retainLastData: true)
        onError = Observer()
        onNewSearch = Observer()
    }

    /// An interactor with these settings (see `Settings`) and no rows yet.
    public convenience init(infiniteScrolling: InfiniteScrolling = .on(withOffset: 5), showItemsOnEmptyQuery: Bool = true) {
        self.init(settings: Settings(infiniteScrolling: infiniteScrolling, showItemsOnEmptyQuery: showItemsOnEmptyQuery))
    }

    // MARK: HitsSource

    /// The number of rows: with infinite scrolling, up to the end of the last page loaded
    /// (rows of pages not loaded yet count, and show as nil); without, the current page's hits.
    public func numberOfHits() -> Int {
        guard latestResponse != nil, settings.showItemsOnEmptyQuery || !query.isEmpty else { return 0 }
        switch settings.infiniteScrolling {
        case .off:
            return latestResponse.flatMap { pages[$0.page]?.count } ?? 0
        case .on:
            guard let last = pages.keys.max() else { return 0 }
            return last * hitsPerPage + (pages[last]?.count ?? 0)
        }
    }

    /// The record at a row, nil when its page is not loaded or it did not decode. With
    /// infinite scrolling on, loads the pages missing within `offset` rows of this one.
    public func hit(atIndex index: Int) -> Record? {
        guard index >= 0, index < numberOfHits() else { return nil }
        switch settings.infiniteScrolling {
        case .off:
            guard let page = latestResponse?.page else { return nil }
            return pages[page]?[index] ?? nil
        case .on(let offset):
            loadMissingPages(around: index, offset: offset)
            let page = index / hitsPerPage
            let position = index % hitsPerPage
            guard let hits = pages[page], position < hits.count else { return nil }
            return hits[position]
        }
    }

    /// The raw hit at a row (as the service sent it), nil when its page is not loaded.
    public func rawHitAtIndex(_ index: Int) -> JSONValue? {
        guard hitsPerPage > 0 else { return nil }
        let page: Int
        let position: Int
        switch settings.infiniteScrolling {
        case .off:
            guard let current = latestResponse?.page else { return nil }
            (page, position) = (current, index)
        case .on:
            (page, position) = (index / hitsPerPage, index % hitsPerPage)
        }
        guard let response = rawPages[page], position >= 0, position < response.count else { return nil }
        return response[position]
    }

    private var rawPages: [Int: [JSONValue]] = [:]
    /// The `queryID` and index of the response each page came in (for Insights events).
    private var pageSources: [Int: (queryID: String?, indexName: String?)] = [:]

    /// Where `trackClick(atIndex:)` and the other Insights hooks send their events; nil sends none.
    public var insights: HitsInsights?

    /// The row's hit with what an Insights event needs: its objectID, the `queryID` and index
    /// of its search, and its position in the results (from 1).
    func eventSource(atIndex index: Int) -> (objectID: String, queryID: String?, indexName: String?, position: Int)? {
        guard let objectID = rawHitAtIndex(index)?["objectID"]?.scalarText else { return nil }
        let page: Int
        let position: Int
        switch settings.infiniteScrolling {
        case .off:
            guard let current = latestResponse?.page else { return nil }
            (page, position) = (current, current * hitsPerPage + index + 1)
        case .on:
            (page, position) = (index / hitsPerPage, index + 1)
        }
        let source = pageSources[page]
        return (objectID, source?.queryID, source?.indexName ?? latestResponse?.index, position)
    }

    /// The pages within `offset` rows of `index` that are neither loaded nor pending.
    func missingPages(around index: Int, offset: Int) -> [Int] {
        guard hitsPerPage > 0, nbHits > 0 else { return [] }
        let lowest = max(0, index - offset)
        let highest = min(nbHits - 1, index + offset)
        guard lowest <= highest else { return [] }
        let pageRange = (lowest / hitsPerPage)...(highest / hitsPerPage)
        return pageRange.filter { $0 < nbPages && pages[$0] == nil && !pendingPages.contains($0) }
    }

    private func loadMissingPages(around index: Int, offset: Int) {
        guard !awaitingNewSearch, let pageLoader else { return }
        for page in missingPages(around: index, offset: offset) {
            pendingPages.insert(page)
            pageLoader.loadPage(atIndex: page)
        }
    }

    // MARK: Taking results in

    /// A new search started: its first page will replace every page (none is asked meanwhile).
    public func notifySearchStarted() {
        awaitingNewSearch = true
        pendingPages.removeAll()
    }

    /// Takes a response in: the first response of a new search replaces every page, a further
    /// page is added.
    public func update(_ response: SearchResponse) {
        if awaitingNewSearch || latestResponse == nil {
            pages.removeAll()
            rawPages.removeAll()
            pageSources.removeAll()
            pendingPages.removeAll()
        }
        let isNewSearch = awaitingNewSearch
        awaitingNewSearch = false
        pendingPages.remove(response.page)
        hitsPerPage = max(response.hitsPerPage, 1)
        nbHits = response.nbHits
        nbPages = response.nbPages
        query = response.query
        var records: [Record?] = []
        records.reserveCapacity(response.hits.count)
        var failures: [HitDecodingError] = []
        for (position, hit) in response.hits.enumerated() {
            switch HitDecoder.decode(hit, as: Record.self, position: response.page * hitsPerPage + position) {
            case .success(let record): records.append(record)
            case .failure(let error):
                records.append(nil)
                failures.append(error)
            }
        }
        pages[response.page] = records
        rawPages[response.page] = response.hits
        pageSources[response.page] = (response.queryID, response.index)
        latestResponse = response
        for failure in failures { onError.fire(failure) }
        if isNewSearch { onNewSearch.fire(()) }
        onResultsUpdated.fire(response)
    }

    /// A page's request failed: it may be asked again.
    func pageFailed(_ page: Int) {
        pendingPages.remove(page)
    }

    // MARK: Connections

    /// Takes `searcher`'s results, and loads its further pages for infinite scrolling.
    @discardableResult
    public func connectSearcher(_ searcher: HitsSearcher) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            self.pageLoader = searcher
            searcher.onSearch.subscribe(with: self) { interactor, _ in interactor.notifySearchStarted() }
            searcher.onResults.subscribe(with: self) { interactor, response in interactor.update(response) }
            searcher.onError.subscribe(with: self) { interactor, error in interactor.onError.fire(error) }
            searcher.onPageFailed.subscribe(with: self) { interactor, page in interactor.pageFailed(page) }
        }, disconnect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            if self.pageLoader === searcher { self.pageLoader = nil }
            searcher.onSearch.cancelSubscription(for: self)
            searcher.onResults.cancelSubscription(for: self)
            searcher.onError.cancelSubscription(for: self)
            searcher.onPageFailed.cancelSubscription(for: self)
        })
    }

    /// Gives `controller` this interactor as its source, reloads it on each update, and
    /// scrolls it to the top on each new search.
    @discardableResult
    public func connectController<Controller: HitsController>(_ controller: Controller) -> any Connection
        where Controller.DataSource == HitsInteractor<Record> {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.hitsSource = self
            self.onNewSearch.subscribe(with: controller) { controller, _ in controller.scrollToTop() }
            self.onResultsUpdated.subscribe(with: controller) { controller, _ in controller.reload() }
            controller.reload()
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            if controller.hitsSource === self { controller.hitsSource = nil }
            self.onNewSearch.cancelSubscription(for: controller)
            self.onResultsUpdated.cancelSubscription(for: controller)
        })
    }
}

/// Rows of records, as a list view reads them.
@MainActor
public protocol HitsSource: AnyObject {
    /// The type of a row's record.
    associatedtype Record
    /// The number of rows.
    func numberOfHits() -> Int
    /// The record at a row; nil when it is not available (not loaded, or not decoded).
    func hit(atIndex index: Int) -> Record?
}

/// What a hits list view implements. InstantSearch's `HitsController`.
///
/// ```swift
/// final class ResultsList: HitsController {
///     var hitsSource: HitsInteractor<Hit<Product>>?
///     func reload() { redraw(rows: (0..<(hitsSource?.numberOfHits() ?? 0)).map { hitsSource?.hit(atIndex: $0) }) }
///     func scrollToTop() { firstVisibleRow = 0 }
/// }
/// ```
@MainActor
public protocol HitsController: AnyObject {
    /// The source of the rows (a `HitsInteractor`).
    associatedtype DataSource: HitsSource
    /// Set by the connection: the source the rows are read from.
    var hitsSource: DataSource? { get set }
    /// Redraws the rows.
    func reload()
    /// Scrolls back to the first row (a new search started).
    func scrollToTop()
}

/// A hits list, wired: a hits interactor connected to a searcher and, if given, a controller.
/// InstantSearch's `HitsConnector`.
@MainActor
public final class HitsConnector<Record: Decodable> {
    /// The searcher whose results are listed.
    public let searcher: HitsSearcher
    /// The hits list's state.
    public let interactor: HitsInteractor<Record>
    /// The connection of the interactor to the searcher.
    public let searcherConnection: any Connection
    /// The connections of the controllers connected, in order.
    public private(set) var controllerConnections: [any Connection] = []

    /// Connects `interactor` (a new one by default) to `searcher`, and `searcher` to
    /// `filterState` when one is given.
    public init(searcher: HitsSearcher, interactor: HitsInteractor<Record> = HitsInteractor<Record>(), filterState: FilterState? = nil) {
        self.searcher = searcher
        self.interactor = interactor
        searcherConnection = interactor.connectSearcher(searcher)
        if let filterState { searcher.connectFilterState(filterState) }
    }

    /// Makes the interactor the source of `controller`, which is reloaded on each update and
    /// scrolled to the top on each new search.
    public func connectController<Controller: HitsController>(_ controller: Controller)
        where Controller.DataSource == HitsInteractor<Record> {
        controllerConnections.append(interactor.connectController(controller))
    }
}
