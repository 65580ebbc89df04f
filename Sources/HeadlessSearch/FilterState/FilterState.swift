/// The filters of a search screen, shared by the widgets that refine it and the searchers it
/// filters: groups of facet, numeric and tag filters, ANDed together, each group AND, OR or
/// hierarchical. As in InstantSearch, changes are batched: mutate, then call `notifyChange()`
/// to publish them (the interactors' filter-state connections do both).
///
/// Its `filters` string is Algolia's strict grammar (see `FilterSyntax`). A searcher connected
/// to it ANDs it with the `filters` set by hand in the searcher's parameters.
///
/// ```swift
/// let filterState = FilterState()
/// filterState[or: "brand"].add(Filter.Facet(attribute: "brand", stringValue: "Apple"))
/// filterState[and: "price"].add(Filter.Numeric(attribute: "price", range: 100...500))
/// filterState.notifyChange()
/// searcher.connectFilterState(filterState)
/// ```
@MainActor
public final class FilterState {
    /// The filters, as a value.
    public var filters: Filters

    /// Fired by `notifyChange()` with the filters.
    public let onChange: Observer<Filters>

    /// A filter state holding `filters` (none by default); nothing is published until
    /// `notifyChange()`.
    public init(_ filters: Filters = Filters()) {
        self.filters = filters
        onChange = Observer(retainLastData: true)
    }

    /// A copy of another filter state's filters (not of its subscriptions).
    public convenience init(_ filterState: FilterState) {
        self.init(filterState.filters)
    }

    /// Publishes the current filters to `onChange`.
    public func notifyChange() {
        onChange.fire(filters)
    }

    /// The conjunctive group with this name.
    public subscript(and groupName: String) -> AndGroupAccessor {
        AndGroupAccessor(filterState: self, groupID: .and(name: groupName))
    }

    /// The disjunctive group of `F` filters with this name (the type is inferred:
    /// `let brands: OrGroupAccessor<Filter.Facet> = filterState[or: "brand"]`).
    public subscript<F: FilterType>(or groupName: String) -> OrGroupAccessor<F> {
        OrGroupAccessor(filterState: self, groupID: .or(name: groupName, filterType: F.kind))
    }

    /// The disjunctive group of `F` filters with this name, the type given.
    public subscript<F: FilterType>(or groupName: String, type type: F.Type) -> OrGroupAccessor<F> {
        OrGroupAccessor(filterState: self, groupID: .or(name: groupName, filterType: F.kind))
    }

    /// The disjunctive group of facet filters with this name.
    public subscript(or groupName: String) -> OrGroupAccessor<Filter.Facet> {
        OrGroupAccessor(filterState: self, groupID: .or(name: groupName, filterType: .facet))
    }

    /// The hierarchical group with this name.
    public subscript(hierarchical groupName: String) -> HierarchicalGroupAccessor {
        HierarchicalGroupAccessor(filterState: self, groupName: groupName)
    }

    /// True when some group holds `filter`.
    public func contains(_ filter: some FilterType) -> Bool { filters.contains(filter.filter) }

    /// Removes every filter.
    public func removeAll() { filters.removeAll() }

    /// Removes every filter of these groups.
    public func removeAll(fromGroupsWithIDs ids: [FilterGroup.ID]) {
        for id in ids { filters.removeAll(fromGroupWithID: id) }
    }

    /// Removes every filter except those of these groups.
    public func removeAllExcept(_ ids: [FilterGroup.ID]) {
        for id in filters.groupIDs where !ids.contains(id) { filters.removeAll(fromGroupWithID: id) }
    }
}

/// A conjunctive group of a `FilterState`: `filterState[and: "name"]`.
@MainActor
public struct AndGroupAccessor {
    let filterState: FilterState
    /// The group's ID, `.and(name:)`.
    public let groupID: FilterGroup.ID

    /// The group's filters, in insertion order.
    public var filters: [Filter] { filterState.filters.filters(forGroupWithID: groupID) }
    /// Whether the group holds no filter.
    public var isEmpty: Bool { filters.isEmpty }

    /// Adds filters to the group (one it holds already is not added again); publish them with
    /// `notifyChange()`.
    public func add(_ filters: any FilterType...) {
        for filter in filters { filterState.filters.add(filter.filter, toGroupWithID: groupID) }
    }
    /// Adds a sequence of filters to the group (one it holds already is not added again);
    /// publish them with `notifyChange()`.
    public func add<S: Sequence>(_ filters: S) where S.Element: FilterType {
        for filter in filters { filterState.filters.add(filter.filter, toGroupWithID: groupID) }
    }
    /// Removes a filter from the group.
    /// - Returns: true when the group held it.
    @discardableResult
    public func remove(_ filter: some FilterType) -> Bool {
        filterState.filters.remove(filter.filter, fromGroupWithID: groupID)
    }
    /// Whether the group holds `filter`.
    public func contains(_ filter: some FilterType) -> Bool {
        filterState.filters.contains(filter.filter, inGroupWithID: groupID)
    }
    /// Adds the filter when the group does not hold it, removes it when it does.
    public func toggle(_ filter: some FilterType) {
        filterState.filters.toggle(filter.filter, inGroupWithID: groupID)
    }
    /// Removes every filter of the group, or those on `attribute`.
    public func removeAll(for attribute: String? = nil) {
        filterState.filters.removeAll(fromGroupWithID: groupID) { attribute == nil || $0.attribute == attribute }
    }
}

/// A disjunctive group of `F` filters of a `FilterState`: `filterState[or: "name"]`.
@MainActor
public struct OrGroupAccessor<F: FilterType> {
    let filterState: FilterState
    /// The group's ID, `.or(name:filterType:)` with the kind of `F`.
    public let groupID: FilterGroup.ID

    /// The group's filters, in insertion order.
    public var filters: [F] { filterState.filters.filters(forGroupWithID: groupID).compactMap(F.init) }
    /// Whether the group holds no filter.
    public var isEmpty: Bool { filters.isEmpty }

    /// Adds filters to the group (one it holds already is not added again); publish them with
    /// `notifyChange()`.
    public func add(_ filters: F...) { add(filters) }
    /// Adds a sequence of filters to the group (one it holds already is not added again);
    /// publish them with `notifyChange()`.
    public func add<S: Sequence>(_ filters: S) where S.Element == F {
        for filter in filters { filterState.filters.add(filter.filter, toGroupWithID: groupID) }
    }
    /// Removes a filter from the group.
    /// - Returns: true when the group held it.
    @discardableResult
    public func remove(_ filter: F) -> Bool {
        filterState.filters.remove(filter.filter, fromGroupWithID: groupID)
    }
    /// Whether the group holds `filter`.
    public func contains(_ filter: F) -> Bool {
        filterState.filters.contains(filter.filter, inGroupWithID: groupID)
    }
    /// Adds the filter when the group does not hold it, removes it when it does.
    public func toggle(_ filter: F) {
        filterState.filters.toggle(filter.filter, inGroupWithID: groupID)
    }
    /// Removes every filter of the group, or those on `attribute`.
    public func removeAll(for attribute: String? = nil) {
        filterState.filters.removeAll(fromGroupWithID: groupID) { attribute == nil || $0.attribute == attribute }
    }
}

/// A hierarchical group of a `FilterState`: `filterState[hierarchical: "name"]`. It holds the
/// levels' attributes and the selected path; the filter sent is the deepest selected level's,
/// and a searcher connected to the filter state asks the counts of every level above it in
/// the same multi-search.
@MainActor
public struct HierarchicalGroupAccessor {
    let filterState: FilterState
    /// The group's name.
    public let groupName: String

    /// The group's ID, `.hierarchical(name:)`.
    public var groupID: FilterGroup.ID { .hierarchical(name: groupName) }

    /// The levels' attributes, from the top; empty until set.
    public var hierarchicalAttributes: [String] { filterState.filters.hierarchicalAttributes[groupName] ?? [] }
    /// The selected path, one facet filter per level from the top; empty when nothing is
    /// selected.
    public var hierarchicalFilters: [Filter.Facet] { filterState.filters.hierarchicalFilters[groupName] ?? [] }

    /// Sets the levels' attributes, from the top (`hierarchicalCategories.lvl0`, `.lvl1`, ...).
    public func set(_ hierarchicalAttributes: [String]) {
        filterState.filters.setHierarchicalAttributes(hierarchicalAttributes, forGroupNamed: groupName)
    }

    /// Sets the selected path, one filter per level from the top (empty: nothing selected).
    public func set(_ hierarchicalFilters: [Filter.Facet]) {
        filterState.filters.setHierarchicalFilters(hierarchicalFilters, forGroupNamed: groupName)
    }

    /// Whether nothing is selected.
    public var isEmpty: Bool { hierarchicalFilters.isEmpty }

    /// Clears the selected path; the levels' attributes stay.
    public func removeAll() { set([Filter.Facet]()) }
}
