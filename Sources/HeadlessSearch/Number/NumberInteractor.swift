import SearchAPI

/// A number the user picks for a numeric filter (`price <= 500`, `rating >= 4`): a stepper,
/// a slider, a text field. InstantSearch's `NumberInteractor`, with the old widgets' operators
/// (`<`, `<=`, `==`, `!=`, `>=`, `>`).
///
/// ```swift
/// let maxPrice = NumberInteractor()
/// maxPrice.connectSearcher(searcher, attribute: "price")        // bounds from facets_stats
/// maxPrice.connectFilterState(filterState, attribute: "price", operator: .lessThanOrEqual)
/// maxPrice.computeNumber(number: 500)                             // filters, searches
/// ```
@MainActor
public final class NumberInteractor {
    /// The number (nil: no filter).
    public var item: Double? {
        didSet { if oldValue != item { onItemChanged.fire(item) } }
    }

    /// The lowest and highest values the attribute takes (from `facets_stats`).
    public var bounds: ClosedRange<Double>? {
        didSet { if oldValue != bounds { onBoundsChanged.fire(bounds) } }
    }

    /// Fired with the number when it changes (the last kept as `lastValue`).
    public let onItemChanged: Observer<Double?>
    /// Fired with the bounds when they change (the last kept as `lastValue`).
    public let onBoundsChanged: Observer<ClosedRange<Double>?>
    /// Fired with the number a user action asks for (the filter state connection applies it).
    public let onNumberComputed: Observer<Double?>

    /// An interactor holding `item` (nil by default), without bounds until it is connected to a
    /// searcher.
    public init(item: Double? = nil) {
        self.item = item
        onItemChanged = Observer(retainLastData: true)
        onBoundsChanged = Observer(retainLastData: true)
        onNumberComputed = Observer()
    }

    /// Sets the number, clamped to the bounds when known (nil removes the filter).
    public func computeNumber(number: Double?) {
        var value = number
        if let number, let bounds { value = min(max(number, bounds.lowerBound), bounds.upperBound) }
        item = value
        onNumberComputed.fire(value)
    }

    /// Takes the bounds from the `facets_stats` of `attribute` in `searcher`'s responses
    /// (asking for them, computed without the numeric filters on the attribute, so they do not
    /// shrink to the number chosen).
    @discardableResult
    public func connectSearcher(_ searcher: HitsSearcher, attribute: String) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.requestFacet(attribute)
            if !searcher.boundsAttributes.contains(attribute) { searcher.boundsAttributes.append(attribute) }
            searcher.onResults.subscribePast(with: self) { interactor, response in
                interactor.bounds = response.facetsStats?[attribute].map { $0.min...$0.max }
            }
        }, disconnect: { [weak self, weak searcher] in
            guard let self else { return }
            searcher?.onResults.cancelSubscription(for: self)
        })
    }

    /// Keeps the number and the filter `attribute operator number` of the AND group
    /// `groupName` (the attribute by default) of `filterState` in step.
    @discardableResult
    public func connectFilterState(_ filterState: FilterState, attribute: String, operator: Filter.Numeric.Operator,
                                   groupName: String? = nil) -> any Connection {
        let groupID = FilterGroup.ID.and(name: groupName ?? attribute)
        func isOurs(_ filter: Filter) -> Bool {
            guard case .numeric(let numeric) = filter, numeric.attribute == attribute,
                  case .comparison(let op, _) = numeric.value else { return false }
            return op == `operator`
        }
        func current(in filters: Filters) -> Double? {
            for case .numeric(let numeric) in filters.filters(forGroupWithID: groupID) where isOurs(.numeric(numeric)) {
                if case .comparison(_, let value) = numeric.value { return value }
            }
            return nil
        }
        return ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.item = current(in: filterState.filters)
            filterState.onChange.subscribe(with: self) { interactor, filters in interactor.item = current(in: filters) }
            self.onNumberComputed.subscribe(with: filterState) { filterState, number in
                filterState.filters.removeAll(fromGroupWithID: groupID, where: isOurs)
                if let number {
                    filterState.filters.add(Filter.Numeric(attribute: attribute, operator: `operator`, value: number), toGroupWithID: groupID)
                }
                filterState.notifyChange()
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            filterState.onChange.cancelSubscription(for: self)
            self.onNumberComputed.cancelSubscription(for: filterState)
        })
    }

    /// Shows the number and bounds in `controller` and takes the numbers the user enters.
    @discardableResult
    public func connectController(_ controller: some NumberController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onNumberChanged = { [weak self] number in self?.computeNumber(number: number) }
            self.onItemChanged.subscribe(with: controller) { controller, item in controller.setItem(item) }
            self.onBoundsChanged.subscribe(with: controller) { controller, bounds in controller.setBounds(bounds) }
            controller.setItem(self.item)
            controller.setBounds(self.bounds)
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onNumberChanged = nil
            self.onItemChanged.cancelSubscription(for: controller)
            self.onBoundsChanged.cancelSubscription(for: controller)
        })
    }
}

/// What a number input implements (a stepper, a slider, a text field).
@MainActor
public protocol NumberController: AnyObject {
    /// Set by the connection: call it with the number the user entered.
    var onNumberChanged: ((Double?) -> Void)? { get set }
    /// Shows the number (nil: none).
    func setItem(_ item: Double?)
    /// Shows the attribute's bounds (nil: not known).
    func setBounds(_ bounds: ClosedRange<Double>?)
}
