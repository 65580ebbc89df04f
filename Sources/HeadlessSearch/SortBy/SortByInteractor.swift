/// A sort-by menu: switches the searched index among an index and its sort replicas
/// (`products`, `products_price_asc`, `products_price_desc`). InstantSearch's
/// `SortByInteractor`.
///
/// ```swift
/// let sortBy = SortByInteractor(items: [0: "instant_search", 1: "instant_search_price_asc"], selected: 0)
/// sortBy.connectSearcher(searcher)
/// sortBy.computeSelected(selecting: 1)   // searches the replica, from page 0
/// ```
@MainActor
public final class SortByInteractor {
    /// The index names, by position in the menu.
    public var items: [Int: String] {
        didSet { if oldValue != items { onItemsChanged.fire(items) } }
    }

    /// The position selected.
    public var selected: Int? {
        didSet { if oldValue != selected { onSelectedChanged.fire(selected) } }
    }

    /// Fired with the index names when they change (the last kept as `lastValue`).
    public let onItemsChanged: Observer<[Int: String]>
    /// Fired with the position selected when it changes (the last kept as `lastValue`).
    public let onSelectedChanged: Observer<Int?>
    /// Fired with the position a user action selects (the searcher connection applies it).
    public let onSelectedComputed: Observer<Int?>

    /// A menu of `items`, the index names by position, with `selected` selected (none by
    /// default).
    public init(items: [Int: String], selected: Int? = nil) {
        self.items = items
        self.selected = selected
        onItemsChanged = Observer(retainLastData: true)
        onSelectedChanged = Observer(retainLastData: true)
        onSelectedComputed = Observer()
    }

    /// Convenience: the index names in menu order.
    public convenience init(indexNames: [String], selected: Int? = nil) {
        self.init(items: Dictionary(uniqueKeysWithValues: indexNames.enumerated().map { ($0.offset, $0.element) }), selected: selected)
    }

    /// Selects a position.
    public func computeSelected(selecting position: Int?) {
        selected = position
        onSelectedComputed.fire(position)
    }

    /// Searches the index selected in `searcher` (from page 0); the selection follows the
    /// searcher's index when it is one of the items.
    @discardableResult
    public func connectSearcher(_ searcher: some Searcher & IndexNameSettable) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            self.onSelectedComputed.subscribe(with: searcher) { [weak self] searcher, position in
                guard let self, let position, let indexName = self.items[position] else { return }
                searcher.setIndexName(indexName)
                searcher.search()
            }
            if let hits = searcher as? HitsSearcher {
                if let position = self.items.first(where: { $0.value == hits.indexName })?.key { self.selected = position }
                hits.onIndexChanged.subscribe(with: self) { interactor, indexName in
                    interactor.selected = interactor.items.first { $0.value == indexName }?.key
                }
            }
        }, disconnect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            self.onSelectedComputed.cancelSubscription(for: searcher)
            (searcher as? HitsSearcher)?.onIndexChanged.cancelSubscription(for: self)
        })
    }

    /// Shows the menu in `controller` and takes the user's choices.
    @discardableResult
    public func connectController(_ controller: some SelectableSegmentController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onClick = { [weak self] position in self?.computeSelected(selecting: position) }
            self.onItemsChanged.subscribe(with: controller) { controller, items in controller.setItems(items) }
            self.onSelectedChanged.subscribe(with: controller) { controller, selected in controller.setSelected(selected) }
            controller.setItems(self.items)
            controller.setSelected(self.selected)
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onClick = nil
            self.onItemsChanged.cancelSubscription(for: controller)
            self.onSelectedChanged.cancelSubscription(for: controller)
        })
    }
}

/// What a segmented control or a menu implements. InstantSearch's `SelectableSegmentController`.
@MainActor
public protocol SelectableSegmentController: AnyObject {
    /// Set by the connection: call it with the position the user chose.
    var onClick: ((Int) -> Void)? { get set }
    /// Shows the index names, by position in the menu.
    func setItems(_ items: [Int: String])
    /// Shows the position selected (nil: none).
    func setSelected(_ selected: Int?)
}
