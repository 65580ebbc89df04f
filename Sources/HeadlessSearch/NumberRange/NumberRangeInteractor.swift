import SearchAPI

/// A range the user picks for a numeric attribute (a two-thumb slider: `price:100 TO 500`),
/// with the attribute's bounds from `facets_stats`. InstantSearch's `NumberRangeInteractor`.
///
/// Connected to a searcher, its attribute becomes one of the searcher's `boundsAttributes`:
/// the bounds are computed without the range's own filter, so they do not shrink to it.
///
/// ```swift
/// let price = NumberRangeInteractor()
/// price.connectSearcher(searcher, attribute: "price")
/// price.connectFilterState(filterState, attribute: "price")
/// price.computeNumberRange(numberRange: 100...500)
/// ```
@MainActor
public final class NumberRangeInteractor {
    /// The range selected (nil: no filter).
    public var item: ClosedRange<Double>? {
        didSet { if oldValue != item { onItemChanged.fire(item) } }
    }

    /// The lowest and highest values the attribute takes (from `facets_stats`).
    public var bounds: ClosedRange<Double>? {
        didSet { if oldValue != bounds { onBoundsChanged.fire(bounds) } }
    }

    /// Fired with the range when it changes (the last kept as `lastValue`).
    public let onItemChanged: Observer<ClosedRange<Double>?>
    /// Fired with the bounds when they change (the last kept as `lastValue`).
    public let onBoundsChanged: Observer<ClosedRange<Double>?>
    /// Fired with the range a user action asks for (the filter state connection applies it).
    public let onNumberRangeComputed: Observer<ClosedRange<Double>?>

    /// An interactor holding `item` (nil by default), without bounds until it is connected to a
    /// searcher.
    public init(item: ClosedRange<Double>? = nil) {
        self.item = item
        onItemChanged = Observer(retainLastData: true)
        onBoundsChanged = Observer(retainLastData: true)
        onNumberRangeComputed = Observer()
    }

    /// Sets the range, clamped to the bounds when known (nil removes the filter).
    public func computeNumberRange(numberRange: ClosedRange<Double>?) {
        var range = numberRange
        if let numberRange, let bounds {
            let lower = min(max(numberRange.lowerBound, bounds.lowerBound), bounds.upperBound)
            let upper = max(min(numberRange.upperBound, bounds.upperBound), lower)
            range = lower...upper
        }
        item = range
        onNumberRangeComputed.fire(range)
    }

    /// Takes the bounds from the `facets_stats` of `attribute` in `searcher`'s responses
    /// (asking for them, computed without this range's own filter).
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

    /// Keeps the range and the filter `attribute:lower TO upper` of the AND group `groupName`
    /// (the attribute by default) of `filterState` in step.
    @discardableResult
    public func connectFilterState(_ filterState: FilterState, attribute: String, groupName: String? = nil) -> any Connection {
        let groupID = FilterGroup.ID.and(name: groupName ?? attribute)
        func isOurs(_ filter: Filter) -> Bool {
            guard case .numeric(let numeric) = filter, numeric.attribute == attribute, case .range = numeric.value else { return false }
            return true
        }
        func current(in filters: Filters) -> ClosedRange<Double>? {
            for case .numeric(let numeric) in filters.filters(forGroupWithID: groupID) where numeric.attribute == attribute {
                if case .range(let range) = numeric.value { return range }
            }
            return nil
        }
        return ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.item = current(in: filterState.filters)
            filterState.onChange.subscribe(with: self) { interactor, filters in interactor.item = current(in: filters) }
            self.onNumberRangeComputed.subscribe(with: filterState) { filterState, range in
                filterState.filters.removeAll(fromGroupWithID: groupID, where: isOurs)
                if let range { filterState.filters.add(Filter.Numeric(attribute: attribute, range: range), toGroupWithID: groupID) }
                filterState.notifyChange()
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            filterState.onChange.cancelSubscription(for: self)
            self.onNumberRangeComputed.cancelSubscription(for: filterState)
        })
    }

    /// Shows the range and bounds in `controller` and takes the ranges the user picks.
    @discardableResult
    public func connectController(_ controller: some NumberRangeController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onRangeChanged = { [weak self] range in self?.computeNumberRange(numberRange: range) }
            self.onItemChanged.subscribe(with: controller) { controller, item in controller.setItem(item) }
            self.onBoundsChanged.subscribe(with: controller) { controller, bounds in controller.setBounds(bounds) }
            controller.setItem(self.item)
            controller.setBounds(self.bounds)
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onRangeChanged = nil
            self.onItemChanged.cancelSubscription(for: controller)
            self.onBoundsChanged.cancelSubscription(for: controller)
        })
    }
}

/// What a range input implements (a two-thumb slider, two text fields).
@MainActor
public protocol NumberRangeController: AnyObject {
    /// Set by the connection: call it with the range the user picked.
    var onRangeChanged: ((ClosedRange<Double>?) -> Void)? { get set }
    /// Shows the range selected (nil: none).
    func setItem(_ item: ClosedRange<Double>?)
    /// Shows the attribute's bounds (nil: not known).
    func setBounds(_ bounds: ClosedRange<Double>?)
}
