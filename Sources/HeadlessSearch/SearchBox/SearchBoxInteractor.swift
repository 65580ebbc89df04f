/// When a search box searches: on each keystroke, or when the query is submitted.
public enum SearchTriggeringMode: Sendable, Hashable {
    /// A search on every change of the query (the default).
    case searchAsYouType
    /// A search only when the query is submitted (the return key).
    case searchOnSubmit
}

/// The state of a search box: the query text, and the events of its changes and submissions.
/// InstantSearch's `SearchBoxInteractor`.
///
/// ```swift
/// let searchBox = SearchBoxInteractor()
/// searchBox.connectSearcher(searcher, searchTriggeringMode: .searchAsYouType)
/// searchBox.connectController(textFieldController)
/// searchBox.query = "iphone"     // searches
/// searchBox.submitQuery()        // fires onQuerySubmitted
/// ```
@MainActor
public final class SearchBoxInteractor {
    /// The query text; setting a different value fires `onQueryChanged`.
    public var query: String? {
        didSet {
            if oldValue != query { onQueryChanged.fire(query) }
        }
    }

    /// Fired with the query when it changes.
    public let onQueryChanged: Observer<String?>
    /// Fired with the query when it is submitted.
    public let onQuerySubmitted: Observer<String?>

    /// A search box holding `query` (none by default); setting it here fires nothing.
    public init(query: String? = nil) {
        self.query = query
        onQueryChanged = Observer()
        onQuerySubmitted = Observer()
    }

    /// Submits the current query.
    public func submitQuery() {
        onQuerySubmitted.fire(query)
    }

    /// Searches `searcher` with this box's query: on each change (`.searchAsYouType`) or on
    /// each submission (`.searchOnSubmit`). The searcher gets the current query at once.
    @discardableResult
    public func connectSearcher(_ searcher: some Searcher, searchTriggeringMode: SearchTriggeringMode = .searchAsYouType) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            if let query = self.query { searcher.query = query }
            let event = searchTriggeringMode == .searchAsYouType ? self.onQueryChanged : self.onQuerySubmitted
            event.subscribe(with: searcher) { searcher, query in
                searcher.query = query
                searcher.search()
            }
        }, disconnect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            self.onQueryChanged.cancelSubscription(for: searcher)
            self.onQuerySubmitted.cancelSubscription(for: searcher)
        })
    }

    /// Shows this box's query in `controller`, and takes the changes and submissions the user
    /// makes in it.
    @discardableResult
    public func connectController(_ controller: some SearchBoxController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onQueryChanged = { [weak self] query in self?.query = query }
            controller.onQuerySubmitted = { [weak self] query in
                guard let self else { return }
                self.query = query
                self.submitQuery()
            }
            self.onQueryChanged.subscribe(with: controller) { controller, query in controller.setQuery(query) }
            controller.setQuery(self.query)
        }, disconnect: { [weak self, weak controller] in
            guard let controller else { return }
            controller.onQueryChanged = nil
            controller.onQuerySubmitted = nil
            self?.onQueryChanged.cancelSubscription(for: controller)
        })
    }
}

/// What a search box view implements (a text field, a search bar, a terminal line editor).
/// InstantSearch's `SearchBoxController`.
///
/// ```swift
/// final class TerminalSearchBox: SearchBoxController {
///     var onQueryChanged: ((String?) -> Void)?
///     var onQuerySubmitted: ((String?) -> Void)?
///     func setQuery(_ query: String?) { line = query ?? "" }
///     func userTyped(_ text: String) { onQueryChanged?(text) }
/// }
/// ```
@MainActor
public protocol SearchBoxController: AnyObject {
    /// Set by the connection: call it when the user changes the query.
    var onQueryChanged: ((String?) -> Void)? { get set }
    /// Set by the connection: call it when the user submits the query.
    var onQuerySubmitted: ((String?) -> Void)? { get set }
    /// Shows a query set from elsewhere (a suggestion chosen, a query restored).
    func setQuery(_ query: String?)
}

/// A search box, wired: its interactor connected to a searcher and, if given, a controller.
/// InstantSearch's `SearchBoxConnector`.
///
/// ```swift
/// let searchBox = SearchBoxConnector(searcher: searcher, searchTriggeringMode: .searchAsYouType, controller: textField)
/// ```
@MainActor
public final class SearchBoxConnector {
    /// The searcher the query goes to.
    public let searcher: any Searcher
    /// The search box's state.
    public let interactor: SearchBoxInteractor
    /// The connection of the interactor to the searcher.
    public let searcherConnection: any Connection
    /// The connection of the controller connected last, if any.
    public private(set) var controllerConnection: (any Connection)?

    /// Connects `interactor` (a new one by default) to `searcher`, searching on each change of
    /// the query or on each submission, as `searchTriggeringMode` says.
    public init(searcher: some Searcher, interactor: SearchBoxInteractor = SearchBoxInteractor(),
                searchTriggeringMode: SearchTriggeringMode = .searchAsYouType) {
        self.searcher = searcher
        self.interactor = interactor
        searcherConnection = interactor.connectSearcher(searcher, searchTriggeringMode: searchTriggeringMode)
    }

    /// As `init(searcher:interactor:searchTriggeringMode:)`, and connects `controller`.
    public convenience init(searcher: some Searcher, interactor: SearchBoxInteractor = SearchBoxInteractor(),
                            searchTriggeringMode: SearchTriggeringMode = .searchAsYouType, controller: some SearchBoxController) {
        self.init(searcher: searcher, interactor: interactor, searchTriggeringMode: searchTriggeringMode)
        connectController(controller)
    }

    /// Connects a controller (replacing the one connected before).
    public func connectController(_ controller: some SearchBoxController) {
        controllerConnection?.disconnect()
        controllerConnection = interactor.connectController(controller)
    }

    /// Disconnects the searcher and the controller.
    public func disconnect() {
        searcherConnection.disconnect()
        controllerConnection?.disconnect()
    }
}
