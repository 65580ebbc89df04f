/// An activity indicator: spins exactly while one of the connected searchers has a request
/// in flight whose response can still be delivered. InstantSearch's `LoadingInteractor`.
///
/// ```swift
/// let loading = LoadingInteractor()
/// loading.connectSearcher(searcher)
/// loading.connectController(spinner)
/// ```
@MainActor
public final class LoadingInteractor {
    /// True while loading.
    public private(set) var item: Bool = false {
        didSet { if oldValue != item { onItemChanged.fire(item) } }
    }

    /// Fired with the loading state when it changes (the last kept as `lastValue`).
    public let onItemChanged: Observer<Bool>

    /// The loading state of each searcher connected.
    private var states: [ObjectIdentifier: Bool] = [:]

    /// An indicator that is not loading, until it is connected to a searcher.
    public init() {
        onItemChanged = Observer(retainLastData: true)
    }

    /// Follows `searcher`'s loading state (with several searchers, loading while any is).
    @discardableResult
    public func connectSearcher(_ searcher: some Searcher) -> any Connection {
        let key = ObjectIdentifier(searcher)
        return ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.isLoading.subscribePast(with: self) { interactor, isLoading in
                interactor.states[key] = isLoading
                interactor.item = interactor.states.values.contains(true)
            }
        }, disconnect: { [weak self, weak searcher] in
            guard let self else { return }
            searcher?.isLoading.cancelSubscription(for: self)
            self.states[key] = nil
            self.item = self.states.values.contains(true)
        })
    }

    /// Shows the state in `controller`.
    @discardableResult
    public func connectController(_ controller: some LoadingController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            self.onItemChanged.subscribe(with: controller) { controller, item in controller.setItem(item) }
            controller.setItem(self.item)
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            self.onItemChanged.cancelSubscription(for: controller)
        })
    }
}

/// What an activity indicator implements. InstantSearch's `LoadingController`.
@MainActor
public protocol LoadingController: AnyObject {
    /// Shows whether a search is loading.
    func setItem(_ item: Bool)
}
