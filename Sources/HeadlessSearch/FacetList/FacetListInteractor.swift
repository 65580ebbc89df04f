import SearchAPI

/// Whether one value or several can be selected.
public enum SelectionMode: Sendable, Hashable {
    /// One value at most: selecting a value replaces the one selected.
    case single
    /// Any number of values (the default).
    case multiple
}

/// How the values refined in a list combine: all must match (`and`), or any (`or`, with
/// disjunctive counts: each value counted as if the list's own refinements were absent).
public enum RefinementOperator: Sendable, Hashable {
    /// Every refined value must match.
    case and
    /// Any refined value may match; the values are counted as if the list's own refinements
    /// were absent (disjunctive faceting).
    case or
}

/// A refinement list: the values of one facet with their counts, and which are selected.
/// InstantSearch's `FacetListInteractor`.
///
/// Connected to a `HitsSearcher` it shows the facet's counts of each search (disjunctive for
/// an `or` list); to a `FacetSearcher`, the values found by a facet-value search; to a
/// `FilterState`, its selections are the facet filters of its group.
///
/// ```swift
/// let brands = FacetListInteractor(selectionMode: .multiple)
/// brands.connectSearcher(searcher, attribute: "brand")
/// brands.connectFilterState(filterState, attribute: "brand", operator: .or)
/// brands.connectController(brandList, with: FacetListPresenter(sortBy: [.isRefined, .count(order: .descending)], limit: 5))
/// brands.computeSelections(selectingItemForKey: "Apple")   // refines, searches
/// ```
@MainActor
public final class FacetListInteractor {
    /// The values, as the searcher or facet searcher gave them.
    public var items: [Facet] {
        didSet { if oldValue != items { onItemsChanged.fire(items) } }
    }

    /// The selected values.
    public var selections: Set<String> {
        didSet { if oldValue != selections { onSelectionsChanged.fire(selections) } }
    }

    /// Whether one value or several can be selected; applies from the next selection.
    public var selectionMode: SelectionMode

    /// Fired with the values when they change (the last kept as `lastValue`).
    public let onItemsChanged: Observer<[Facet]>
    /// Fired with the selected values when they change (the last kept as `lastValue`).
    public let onSelectionsChanged: Observer<Set<String>>
    /// Fired with the selections a user action asks for (the filter state connection applies them).
    public let onSelectionsComputed: Observer<Set<String>>

    /// A list of `facets` (none by default), with nothing selected, until it is connected.
    public init(facets: [Facet] = [], selectionMode: SelectionMode = .multiple) {
        items = facets
        selections = []
        self.selectionMode = selectionMode
        onItemsChanged = Observer(retainLastData: true)
        onSelectionsChanged = Observer(retainLastData: true)
        onSelectionsComputed = Observer()
    }

    /// Selects the value, or deselects it when selected; with single selection, the value
    /// replaces the one selected.
    public func computeSelections(selectingItemForKey key: String) {
        var next = selections
        switch selectionMode {
        case .single:
            next = selections.contains(key) ? [] : [key]
        case .multiple:
            if next.contains(key) { next.remove(key) } else { next.insert(key) }
        }
        selections = next
        onSelectionsComputed.fire(next)
    }

    // MARK: Connections

    /// Shows the counts of `attribute` from each of `searcher`'s responses, and asks the
    /// searcher for them (adds the attribute to its `facets`).
    @discardableResult
    public func connectSearcher(_ searcher: HitsSearcher, attribute: String) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.requestFacet(attribute)
            searcher.onResults.subscribePast(with: self) { interactor, response in
                interactor.items = response.facetValues(attribute) ?? []
            }
        }, disconnect: { [weak self, weak searcher] in
            guard let self else { return }
            searcher?.onResults.cancelSubscription(for: self)
        })
    }

    /// Shows the values `searcher` finds (a facet-value search).
    @discardableResult
    public func connectFacetSearcher(_ searcher: FacetSearcher) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onResults.subscribePast(with: self) { interactor, response in
                interactor.items = response.facetHits.map(Facet.init)
            }
        }, disconnect: { [weak self, weak searcher] in
            guard let self else { return }
            searcher?.onResults.cancelSubscription(for: self)
        })
    }

    /// Keeps the selections and the facet filters on `attribute` in one group of `filterState`
    /// in step: an `and` group or an `or` group (named `groupName`, the attribute by default).
    @discardableResult
    public func connectFilterState(_ filterState: FilterState, attribute: String, operator: RefinementOperator = .or,
                                   groupName: String? = nil) -> any Connection {
        let groupID: FilterGroup.ID = switch `operator` {
        case .and: .and(name: groupName ?? attribute)
        case .or: .or(name: groupName ?? attribute, filterType: .facet)
        }
        func selected(in filters: Filters) -> Set<String> {
            var values = Set<String>()
            for case .facet(let facet) in filters.filters(forGroupWithID: groupID) where facet.attribute == attribute && !facet.isNegated {
                values.insert(facet.value.description)
            }
            return values
        }
        return ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.selections = selected(in: filterState.filters)
            filterState.onChange.subscribe(with: self) { interactor, filters in
                interactor.selections = selected(in: filters)
            }
            self.onSelectionsComputed.subscribe(with: filterState) { filterState, selections in
                filterState.filters.removeAll(fromGroupWithID: groupID) { $0.kind == .facet && $0.attribute == attribute }
                for value in selections.sorted() {
                    filterState.filters.add(Filter.Facet(attribute: attribute, stringValue: value), toGroupWithID: groupID)
                }
                filterState.notifyChange()
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            filterState.onChange.cancelSubscription(for: self)
            self.onSelectionsComputed.cancelSubscription(for: filterState)
        })
    }

    /// Shows the values in `controller`, ordered and limited by `presenter`, and selects the
    /// value the user clicks.
    @discardableResult
    public func connectController(_ controller: some FacetListController, with presenter: FacetListPresenter = FacetListPresenter()) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onClick = { [weak self] facet in self?.computeSelections(selectingItemForKey: facet.value) }
            let refresh: @MainActor (FacetListInteractor, any FacetListController) -> Void = { interactor, controller in
                controller.setSelectableItems(selectableItems: presenter.transform(interactor.items, selections: interactor.selections))
                controller.reload()
            }
            self.onItemsChanged.subscribe(with: controller) { [weak self] controller, _ in
                if let self { refresh(self, controller) }
            }
            self.onSelectionsChanged.subscribe(with: controller) { [weak self] controller, _ in
                if let self { refresh(self, controller) }
            }
            refresh(self, controller)
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onClick = nil
            self.onItemsChanged.cancelSubscription(for: controller)
            self.onSelectionsChanged.cancelSubscription(for: controller)
        })
    }

    /// The values as `presenter` shows them, each with whether it is selected.
    public func selectableItems(with presenter: FacetListPresenter = FacetListPresenter()) -> [SelectableItem<Facet>] {
        presenter.transform(items, selections: selections)
    }
}

/// What a refinement list view implements. InstantSearch's `FacetListController`.
@MainActor
public protocol FacetListController: AnyObject {
    /// Set by the connection: call it with the value the user clicked.
    var onClick: ((Facet) -> Void)? { get set }
    /// The values to show, in order, each with whether it is selected.
    func setSelectableItems(selectableItems: [SelectableItem<Facet>])
    /// Redraws the list (called after `setSelectableItems(selectableItems:)`).
    func reload()
}

/// A refinement list, wired: its interactor connected to a searcher (or a facet searcher), a
/// filter state and, if given, a controller. InstantSearch's `FacetListConnector`.
///
/// ```swift
/// let brands = FacetListConnector(searcher: searcher, filterState: filterState, attribute: "brand", operator: .or)
/// ```
@MainActor
public final class FacetListConnector {
    /// The filter state the selections are kept in.
    public let filterState: FilterState
    /// The facet attribute listed.
    public let attribute: String
    /// The refinement list's state.
    public let interactor: FacetListInteractor
    /// The connections made, disconnected together by `disconnect()`.
    public private(set) var connections: [any Connection] = []

    /// Lists the counts of `attribute` from `searcher`'s responses, keeping the selections in
    /// `filterState` (`operator` and `groupName` as in `FacetListInteractor.connectFilterState`),
    /// and connects `searcher` to `filterState` unless it already is. Without `interactor`, one is
    /// made with `selectionMode`.
    public init(searcher: HitsSearcher, filterState: FilterState, attribute: String, selectionMode: SelectionMode = .multiple,
                operator: RefinementOperator = .or, groupName: String? = nil, interactor: FacetListInteractor? = nil) {
        self.filterState = filterState
        self.attribute = attribute
        self.interactor = interactor ?? FacetListInteractor(selectionMode: selectionMode)
        connections.append(self.interactor.connectSearcher(searcher, attribute: attribute))
        connections.append(self.interactor.connectFilterState(filterState, attribute: attribute, operator: `operator`, groupName: groupName))
        if searcher.filterState !== filterState { connections.append(searcher.connectFilterState(filterState)) }
    }

    /// Lists the values `facetSearcher` finds, keeping the selections in `filterState`
    /// (`operator` and `groupName` as in `FacetListInteractor.connectFilterState`). Without
    /// `interactor`, one is made with `selectionMode`.
    public init(facetSearcher: FacetSearcher, filterState: FilterState, attribute: String, selectionMode: SelectionMode = .multiple,
                operator: RefinementOperator = .or, groupName: String? = nil, interactor: FacetListInteractor? = nil) {
        self.filterState = filterState
        self.attribute = attribute
        self.interactor = interactor ?? FacetListInteractor(selectionMode: selectionMode)
        connections.append(self.interactor.connectFacetSearcher(facetSearcher))
        connections.append(self.interactor.connectFilterState(filterState, attribute: attribute, operator: `operator`, groupName: groupName))
    }

    /// Shows the values in `controller`, ordered and limited by `presenter`, and selects the
    /// value the user clicks.
    public func connectController(_ controller: some FacetListController, with presenter: FacetListPresenter = FacetListPresenter()) {
        connections.append(interactor.connectController(controller, with: presenter))
    }

    /// Disconnects every connection made.
    public func disconnect() { connections.forEach { $0.disconnect() } }
}
