/// A filter of a `FilterState` and the group that holds it.
public struct FilterAndID: Hashable, Sendable {
    /// The filter in effect.
    public let filter: Filter
    /// The group of the filter state that holds the filter.
    public let id: FilterGroup.ID
    /// A label for the filter (`Apple`, `price ≥ 10`, `NOT refurbished`).
    public let text: String

    /// The filter of group `id`, labelled `text` (by default, as `label(_:)` labels it).
    public init(filter: Filter, id: FilterGroup.ID, text: String? = nil) {
        self.filter = filter
        self.id = id
        self.text = text ?? FilterAndID.label(filter)
    }

    /// The default label: the value for a facet or tag, the condition for a number.
    public static func label(_ filter: Filter) -> String {
        let body: String
        switch filter {
        case .facet(let facet): body = facet.value.description
        case .tag(let tag): body = tag.value
        case .numeric(let numeric):
            switch numeric.value {
            case .comparison(let op, let value): body = "\(numeric.attribute) \(op.rawValue) \(FilterSyntax.number(value))"
            case .range(let range):
                body = "\(numeric.attribute): \(FilterSyntax.number(range.lowerBound)) – \(FilterSyntax.number(range.upperBound))"
            }
        }
        return filter.isNegated ? "NOT " + body : body
    }
}

/// The filters in effect, for a list of removable chips. InstantSearch's
/// `CurrentFiltersInteractor`.
///
/// ```swift
/// let current = CurrentFiltersInteractor()
/// current.connectFilterState(filterState)
/// current.remove(item: current.items[0])   // removes the filter, searches
/// ```
@MainActor
public final class CurrentFiltersInteractor {
    /// The filters in effect, one item per filter of each group; setting a different list fires
    /// `onItemsChanged`.
    public var items: [FilterAndID] {
        didSet { if oldValue != items { onItemsChanged.fire(items) } }
    }

    /// Fired with the items when they change (the last kept as `lastValue`).
    public let onItemsChanged: Observer<[FilterAndID]>
    /// Fired with the filter a user action removes (the filter state connection applies it).
    public let onItemRemoved: Observer<FilterAndID>

    /// An interactor listing `items` (none by default) until it is connected to a filter state.
    public init(items: [FilterAndID] = []) {
        self.items = items
        onItemsChanged = Observer(retainLastData: true)
        onItemRemoved = Observer()
    }

    /// Removes a filter.
    public func remove(item: FilterAndID) {
        items.removeAll { $0 == item }
        onItemRemoved.fire(item)
    }

    /// Lists the filters of `filterState` (of the groups `groupIDs`, or all), and removes
    /// from it those the user removes.
    @discardableResult
    public func connectFilterState(_ filterState: FilterState, filterGroupIDs groupIDs: [FilterGroup.ID]? = nil) -> any Connection {
        func items(of filters: Filters) -> [FilterAndID] {
            filters.groups.filter { groupIDs?.contains($0.id) ?? true }
                .flatMap { group in group.filters.map { FilterAndID(filter: $0, id: group.id) } }
        }
        return ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.items = items(of: filterState.filters)
            filterState.onChange.subscribe(with: self) { interactor, filters in interactor.items = items(of: filters) }
            self.onItemRemoved.subscribe(with: filterState) { filterState, item in
                if case .hierarchical(let name) = item.id {
                    filterState[hierarchical: name].removeAll()
                } else {
                    filterState.filters.remove(item.filter, fromGroupWithID: item.id)
                }
                filterState.notifyChange()
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            filterState.onChange.cancelSubscription(for: self)
            self.onItemRemoved.cancelSubscription(for: filterState)
        })
    }

    /// Shows the filters in `controller` and removes those the user removes.
    @discardableResult
    public func connectController(_ controller: some CurrentFiltersController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onRemoveItem = { [weak self] item in self?.remove(item: item) }
            self.onItemsChanged.subscribe(with: controller) { controller, items in
                controller.setItems(items)
                controller.reload()
            }
            controller.setItems(self.items)
            controller.reload()
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onRemoveItem = nil
            self.onItemsChanged.cancelSubscription(for: controller)
        })
    }
}

/// What a list of current filters implements. InstantSearch's `CurrentFiltersController`.
@MainActor
public protocol CurrentFiltersController: AnyObject {
    /// Set by the connection: call it with the filter the user removes.
    var onRemoveItem: ((FilterAndID) -> Void)? { get set }
    /// Receives the filters to list, in order.
    func setItems(_ items: [FilterAndID])
    /// Redraws the list (called after `setItems(_:)`).
    func reload()
}
