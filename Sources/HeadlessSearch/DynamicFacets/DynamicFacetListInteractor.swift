import SearchAPI

/// Where a dynamic facet list keeps the facet filters of one attribute in a `FilterState`:
/// the group's name and how its values combine. InstantSearch's `FilterGroupDescriptor`.
///
/// ```swift
/// FilterGroupDescriptor(groupName: "brand", refinementOperator: .or)   // "brand":"A" OR "brand":"B", disjunctive counts
/// ```
public struct FilterGroupDescriptor: Hashable, Sendable {
    /// The name of the group.
    public var groupName: String
    /// Whether the values selected must all match (`and`) or any may (`or`, counted
    /// disjunctively by the searcher).
    public var refinementOperator: RefinementOperator

    /// The group named `groupName`, combining its values with `refinementOperator`.
    public init(groupName: String, refinementOperator: RefinementOperator) {
        self.groupName = groupName
        self.refinementOperator = refinementOperator
    }

    /// The group's ID: `.and(name:)`, or `.or(name:filterType: .facet)`.
    public var groupID: FilterGroup.ID {
        switch refinementOperator {
        case .and: .and(name: groupName)
        case .or: .or(name: groupName, filterType: .facet)
        }
    }
}

/// Facet lists whose order, and the order of whose values, the index or a Rule decides:
/// Algolia's `renderingContent.facetOrdering` (see `FacetOrdering`), read from each response,
/// with a selection per attribute. InstantSearch's `DynamicFacetListInteractor`.
///
/// - Connected to a `HitsSearcher`, `orderedFacets` follows each response: the facets it has
///   counts for, ordered by its `facetOrdering` (none without one, and none after an error).
///   It does not change the facets the searcher asks for: set them (`facets: ["*"]`, or the
///   attributes) in the searcher's parameters.
/// - Connected to a `FilterState`, the selections of each attribute are its facet filters in
///   the attribute's group (`filterGroupForAttribute`, by default an `and` group named after
///   the attribute), so selecting a value refines the searches of a searcher connected to it.
/// - Each attribute selects one value (`.single`, the default, as in InstantSearch) or several,
///   as `selectionModeForAttribute` says.
///
/// ```swift
/// searcher.request.parameters.facets = ["*"]
/// let facets = DynamicFacetListInteractor(selectionModeForAttribute: ["color": .multiple])
/// facets.connectSearcher(searcher)
/// facets.connectFilterState(filterState, filterGroupForAttribute: ["color": FilterGroupDescriptor(groupName: "color", refinementOperator: .or)])
/// searcher.connectFilterState(filterState)
/// facets.onFacetOrderChanged.subscribe(with: panel) { panel, orderedFacets in panel.show(orderedFacets) }
/// facets.toggleSelection(ofFacetValue: "red", for: "color")   // refines, searches
/// ```
@MainActor
public final class DynamicFacetListInteractor {
    /// The selected values, by attribute; an attribute with nothing selected is absent.
    public typealias SelectionsPerAttribute = [String: Set<String>]

    /// The facets to show, in order, each with its values in order.
    public var orderedFacets: [AttributedFacets] {
        didSet { if oldValue != orderedFacets { onFacetOrderChanged.fire(orderedFacets) } }
    }

    /// The selected values of each attribute.
    public var selections: SelectionsPerAttribute {
        didSet { if oldValue != selections { onSelectionsChanged.fire(selections) } }
    }

    /// How many values an attribute not in `selectionModeForAttribute` selects; `.single` by
    /// default, as in InstantSearch.
    public var defaultSelectionMode: SelectionMode
    /// How many values each attribute selects, where it differs from `defaultSelectionMode`.
    public var selectionModeForAttribute: [String: SelectionMode]

    /// Fired with `orderedFacets` when they change (the last kept as `lastValue`).
    public let onFacetOrderChanged: Observer<[AttributedFacets]>
    /// Fired with `selections` when they change (the last kept as `lastValue`).
    public let onSelectionsChanged: Observer<SelectionsPerAttribute>
    /// Fired with the selections a user action asks for, every attribute's (the filter-state
    /// connection applies them). An attribute whose last value was deselected is there with
    /// an empty set.
    public let onSelectionsComputed: Observer<SelectionsPerAttribute>

    /// A list of `orderedFacets` and `selections` (none by default) until it is connected.
    public init(orderedFacets: [AttributedFacets] = [], selections: SelectionsPerAttribute = [:],
                selectionModeForAttribute: [String: SelectionMode] = [:], defaultSelectionMode: SelectionMode = .single) {
        self.orderedFacets = orderedFacets
        self.selections = selections.filter { !$0.value.isEmpty }
        self.selectionModeForAttribute = selectionModeForAttribute
        self.defaultSelectionMode = defaultSelectionMode
        onFacetOrderChanged = Observer(retainLastData: true)
        onSelectionsChanged = Observer(retainLastData: true)
        onSelectionsComputed = Observer()
    }

    /// The selection mode of `attribute`: its own, or the default.
    public func selectionMode(for attribute: String) -> SelectionMode {
        selectionModeForAttribute[attribute] ?? defaultSelectionMode
    }

    /// Whether `facetValue` of `attribute` is selected.
    public func isSelected(facetValue: String, for attribute: String) -> Bool {
        selections[attribute]?.contains(facetValue) ?? false
    }

    /// Selects `facetValue` of `attribute`, or deselects it when selected; with single
    /// selection, the value replaces the one selected. Connected to a filter state, this
    /// refines it (and the searches of a searcher connected to it).
    public func toggleSelection(ofFacetValue facetValue: String, for attribute: String) {
        let current = selections[attribute] ?? []
        var next: Set<String>
        switch selectionMode(for: attribute) {
        case .single:
            next = current.contains(facetValue) ? [] : [facetValue]
        case .multiple:
            next = current
            if next.contains(facetValue) { next.remove(facetValue) } else { next.insert(facetValue) }
        }
        var computed = selections
        computed[attribute] = next
        selections = computed.filter { !$0.value.isEmpty }
        onSelectionsComputed.fire(computed)
    }

    /// Takes a response in: `orderedFacets` becomes its facets ordered by its
    /// `renderingContent.facetOrdering`, or none when it has no `facetOrdering`.
    public func update(_ response: SearchResponse) {
        guard let ordering = FacetOrdering(renderingContent: response.renderingContent) else {
            orderedFacets = []
            return
        }
        orderedFacets = ordering.orderedFacets(response.facets ?? [])
    }

    // MARK: Connections

    /// Follows `searcher`'s responses (the last one at once, if there is one); an error
    /// empties the list.
    @discardableResult
    public func connectSearcher(_ searcher: HitsSearcher) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onResults.subscribePast(with: self) { interactor, response in interactor.update(response) }
            searcher.onError.subscribe(with: self) { interactor, _ in interactor.orderedFacets = [] }
        }, disconnect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onResults.cancelSubscription(for: self)
            searcher.onError.cancelSubscription(for: self)
        })
    }

    /// Keeps the selections and the facet filters of `filterState` in step: each attribute's
    /// values in its group of `filterGroupForAttribute`, or, for an attribute not there, an
    /// `and` group named after it. The selections are read from the state when it changes and
    /// when the facets shown change (a facet that appears shows the values already refined).
    @discardableResult
    public func connectFilterState(_ filterState: FilterState,
                                   filterGroupForAttribute: [String: FilterGroupDescriptor] = [:]) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.readSelections(from: filterState.filters, groups: filterGroupForAttribute)
            filterState.onChange.subscribe(with: self) { interactor, filters in
                interactor.readSelections(from: filters, groups: filterGroupForAttribute)
            }
            self.onFacetOrderChanged.subscribe(with: filterState) { [weak self] filterState, _ in
                self?.readSelections(from: filterState.filters, groups: filterGroupForAttribute)
            }
            self.onSelectionsComputed.subscribe(with: filterState) { filterState, computed in
                DynamicFacetListInteractor.apply(computed, to: filterState, groups: filterGroupForAttribute)
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            filterState.onChange.cancelSubscription(for: self)
            self.onFacetOrderChanged.cancelSubscription(for: filterState)
            self.onSelectionsComputed.cancelSubscription(for: filterState)
        })
    }

    /// Shows the facets and the selections in `controller`, and toggles the value the user
    /// clicks.
    @discardableResult
    public func connectController(_ controller: some DynamicFacetListController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.didSelect = { [weak self] attribute, facet in
                self?.toggleSelection(ofFacetValue: facet.value, for: attribute)
            }
            self.onFacetOrderChanged.subscribe(with: controller) { controller, orderedFacets in
                controller.setOrderedFacets(orderedFacets)
            }
            self.onSelectionsChanged.subscribe(with: controller) { controller, selections in
                controller.setSelections(selections)
            }
            controller.setOrderedFacets(self.orderedFacets)
            controller.setSelections(self.selections)
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.didSelect = nil
            self.onFacetOrderChanged.cancelSubscription(for: controller)
            self.onSelectionsChanged.cancelSubscription(for: controller)
        })
    }

    // MARK: Filter state

    /// The group of `attribute`'s facet filters: its descriptor's, or an `and` group named
    /// after it.
    static func filterGroupID(for attribute: String, in groups: [String: FilterGroupDescriptor]) -> FilterGroup.ID {
        (groups[attribute] ?? FilterGroupDescriptor(groupName: attribute, refinementOperator: .and)).groupID
    }

    /// The values of `attribute` refined (not negated) in the group `groupID` of `filters`.
    static func refinedValues(of attribute: String, in filters: Filters, groupID: FilterGroup.ID) -> Set<String> {
        var values = Set<String>()
        for case .facet(let facet) in filters.filters(forGroupWithID: groupID) where facet.attribute == attribute && !facet.isNegated {
            values.insert(facet.value.description)
        }
        return values
    }

    /// Sets the selections from `filters`, for the attributes selected, shown, or given a group.
    private func readSelections(from filters: Filters, groups: [String: FilterGroupDescriptor]) {
        var attributes = Set(selections.keys)
        attributes.formUnion(orderedFacets.map { $0.attribute })
        attributes.formUnion(groups.keys)
        var read: SelectionsPerAttribute = [:]
        for attribute in attributes {
            let values = DynamicFacetListInteractor.refinedValues(
                of: attribute, in: filters, groupID: DynamicFacetListInteractor.filterGroupID(for: attribute, in: groups))
            if !values.isEmpty { read[attribute] = values }
        }
        selections = read
    }

    /// Makes each attribute's facet filters in `filterState` the values `computed` selects
    /// (removing those deselected, adding the new ones after those kept), then publishes the
    /// change.
    private static func apply(_ computed: SelectionsPerAttribute, to filterState: FilterState,
                              groups: [String: FilterGroupDescriptor]) {
        for attribute in computed.keys.sorted() {
            let selected = computed[attribute] ?? []
            let groupID = filterGroupID(for: attribute, in: groups)
            let refined = refinedValues(of: attribute, in: filterState.filters, groupID: groupID)
            filterState.filters.removeAll(fromGroupWithID: groupID) { filter in
                guard case .facet(let facet) = filter else { return false }
                return facet.attribute == attribute && !facet.isNegated && !selected.contains(facet.value.description)
            }
            for value in selected.subtracting(refined).sorted() {
                filterState.filters.add(Filter.Facet(attribute: attribute, stringValue: value), toGroupWithID: groupID)
            }
        }
        filterState.notifyChange()
    }
}

/// What a dynamic facets view implements: facet lists in the order given, each value with
/// whether it is selected. InstantSearch's `DynamicFacetListController`.
@MainActor
public protocol DynamicFacetListController: AnyObject {
    /// Set by the connection: call it with the attribute and the value the user clicked.
    var didSelect: ((String, Facet) -> Void)? { get set }
    /// The facets to show, in order, each with its values in order.
    func setOrderedFacets(_ orderedFacets: [AttributedFacets])
    /// The selected values, by attribute.
    func setSelections(_ selections: [String: Set<String>])
}

/// Dynamic facets, wired: the interactor connected to a searcher, to a filter state and, if
/// given, to a controller; the searcher connected to the filter state unless it already is.
/// InstantSearch's `DynamicFacetListConnector`.
///
/// ```swift
/// let facets = DynamicFacetListConnector(searcher: searcher, filterState: filterState,
///                                        selectionModeForAttribute: ["brand": .multiple],
///                                        filterGroupForAttribute: ["brand": FilterGroupDescriptor(groupName: "brand", refinementOperator: .or)])
/// ```
@MainActor
public final class DynamicFacetListConnector {
    /// The searcher whose responses order the facets.
    public let searcher: HitsSearcher
    /// The filter state the selections are kept in.
    public let filterState: FilterState
    /// The dynamic facets' state.
    public let interactor: DynamicFacetListInteractor
    /// The connections made, disconnected together by `disconnect()`.
    public private(set) var connections: [any Connection] = []

    /// Orders the facets of `searcher`'s responses, keeping the selections in `filterState`
    /// (`filterGroupForAttribute` as in `DynamicFacetListInteractor.connectFilterState`), and
    /// connects `searcher` to `filterState` unless it already is. Without `interactor`, one is
    /// made with `selectionModeForAttribute` and `defaultSelectionMode`.
    public init(searcher: HitsSearcher, filterState: FilterState,
                selectionModeForAttribute: [String: SelectionMode] = [:], defaultSelectionMode: SelectionMode = .single,
                filterGroupForAttribute: [String: FilterGroupDescriptor] = [:], interactor: DynamicFacetListInteractor? = nil) {
        self.searcher = searcher
        self.filterState = filterState
        self.interactor = interactor ?? DynamicFacetListInteractor(selectionModeForAttribute: selectionModeForAttribute,
                                                                   defaultSelectionMode: defaultSelectionMode)
        connections.append(self.interactor.connectSearcher(searcher))
        connections.append(self.interactor.connectFilterState(filterState, filterGroupForAttribute: filterGroupForAttribute))
        if searcher.filterState !== filterState { connections.append(searcher.connectFilterState(filterState)) }
    }

    /// Shows the facets in `controller` and toggles the value the user clicks.
    public func connectController(_ controller: some DynamicFacetListController) {
        connections.append(interactor.connectController(controller))
    }

    /// Disconnects every connection made.
    public func disconnect() { connections.forEach { $0.disconnect() } }
}
