/// A switch for one filter: on, the `valueOn` filter applies; off, the `valueOff` filter
/// applies, if there is one ("free shipping" on or off; "admins" versus "users").
/// InstantSearch's `FilterToggleInteractor`, with the old widgets' `valueOn` / `valueOff`.
///
/// ```swift
/// let freeShipping = FilterToggleInteractor(valueOn: .facet(Filter.Facet(attribute: "free_shipping", boolValue: true)))
/// freeShipping.connectFilterState(filterState)
/// freeShipping.computeIsSelected(true)   // filters, searches
/// ```
@MainActor
public final class FilterToggleInteractor {
    /// The filter applied when the switch is on.
    public let valueOn: Filter
    /// The filter applied when the switch is off (none by default).
    public let valueOff: Filter?

    /// Whether the switch is on; setting a different value fires `onSelectedChanged`.
    public var isSelected: Bool {
        didSet { if oldValue != isSelected { onSelectedChanged.fire(isSelected) } }
    }

    /// Fired with the state when it changes (the last kept as `lastValue`).
    public let onSelectedChanged: Observer<Bool>
    /// Fired with the state a user action asks for (the filter state connection applies it).
    public let onSelectedComputed: Observer<Bool>

    /// A switch between `valueOn` and `valueOff` (no filter when off, by default), off unless
    /// `isSelected`.
    public init(valueOn: Filter, valueOff: Filter? = nil, isSelected: Bool = false) {
        self.valueOn = valueOn
        self.valueOff = valueOff
        self.isSelected = isSelected
        onSelectedChanged = Observer(retainLastData: true)
        onSelectedComputed = Observer()
    }

    /// A switch for one filter of any type, with no filter when off.
    public convenience init(filter: some FilterType, isSelected: Bool = false) {
        self.init(valueOn: filter.filter, isSelected: isSelected)
    }

    /// Switches on or off.
    public func computeIsSelected(_ selected: Bool) {
        isSelected = selected
        onSelectedComputed.fire(selected)
    }

    /// Switches to the other state.
    public func toggle() { computeIsSelected(!isSelected) }

    /// Keeps the switch and the filters of the AND group `groupName` (the filter's attribute by
    /// default) in step.
    @discardableResult
    public func connectFilterState(_ filterState: FilterState, groupName: String? = nil) -> any Connection {
        let groupID = FilterGroup.ID.and(name: groupName ?? valueOn.attribute)
        let on = valueOn
        let off = valueOff
        return ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            // The switch's state wins at connection: its filter is put in place.
            filterState.filters.remove(self.isSelected ? (off ?? on) : on, fromGroupWithID: groupID)
            if self.isSelected { filterState.filters.add(on, toGroupWithID: groupID) } else if let off { filterState.filters.add(off, toGroupWithID: groupID) }
            filterState.onChange.subscribe(with: self) { interactor, filters in
                interactor.isSelected = filters.contains(on, inGroupWithID: groupID)
            }
            self.onSelectedComputed.subscribe(with: filterState) { filterState, selected in
                filterState.filters.remove(selected ? (off ?? on) : on, fromGroupWithID: groupID)
                if selected { filterState.filters.add(on, toGroupWithID: groupID) } else if let off { filterState.filters.add(off, toGroupWithID: groupID) }
                filterState.notifyChange()
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            filterState.onChange.cancelSubscription(for: self)
            self.onSelectedComputed.cancelSubscription(for: filterState)
        })
    }

    /// Shows the state in `controller` and takes the user's switches.
    @discardableResult
    public func connectController(_ controller: some SelectableController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onClick = { [weak self] selected in self?.computeIsSelected(selected) }
            self.onSelectedChanged.subscribe(with: controller) { controller, selected in controller.setSelected(selected) }
            controller.setSelected(self.isSelected)
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onClick = nil
            self.onSelectedChanged.cancelSubscription(for: controller)
        })
    }
}

/// What a switch or a checkbox implements. InstantSearch's `SelectableController`.
@MainActor
public protocol SelectableController: AnyObject {
    /// Set by the connection: call it with the state the user chose.
    var onClick: ((Bool) -> Void)? { get set }
    /// Shows the switch on or off.
    func setSelected(_ isSelected: Bool)
}
