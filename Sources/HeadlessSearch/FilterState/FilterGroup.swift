/// How the filters of one group of a `FilterState` combine, and the group's name.
public enum FilterGroup {
    /// A group's identity: its kind and its name. Two groups with the same name and different
    /// kinds are different groups.
    public enum ID: Hashable, Sendable, CustomStringConvertible {
        /// Filters ANDed together (and with the other groups).
        case and(name: String)
        /// Filters ORed together; Algolia only ORs filters of one type, hence the `filterType`.
        case or(name: String, filterType: Filter.Kind)
        /// The selected level of a hierarchical facet (see `FilterState[hierarchical:]`).
        case hierarchical(name: String)

        /// The group's name, whatever its kind.
        public var name: String {
            switch self {
            case .and(let name), .or(let name, _), .hierarchical(let name): name
            }
        }

        /// True for an OR group (its filters are alternatives).
        public var isDisjunctive: Bool {
            if case .or = self { return true }
            return false
        }

        public var description: String {
            switch self {
            case .and(let name): "and<\(name)>"
            case .or(let name, _): "or<\(name)>"
            case .hierarchical(let name): "hierarchical<\(name)>"
            }
        }
    }
}

/// The content of a `FilterState`, as a value: groups of filters in the order they were
/// created, and the hierarchical facets' attributes and selected paths. `filtersString` is the
/// `filters` parameter it stands for.
///
/// ```swift
/// var filters = Filters()
/// filters.add(Filter.Facet(attribute: "brand", stringValue: "Apple"), toGroupWithID: .or(name: "brand", filterType: .facet))
/// filters.add(Filter.Numeric(attribute: "price", operator: .lessThan, value: 500), toGroupWithID: .and(name: "price"))
/// filters.filtersString   // "\"brand\":\"Apple\" AND \"price\" < 500"
/// ```
public struct Filters: Hashable, Sendable {
    /// One group and its filters, in insertion order, without duplicates.
    public struct Group: Hashable, Sendable {
        /// The group's kind and name.
        public let id: FilterGroup.ID
        /// The group's filters, in insertion order, without duplicates.
        public internal(set) var filters: [Filter]
    }

    /// The non-empty groups, in the order they were created.
    public private(set) var groups: [Group] = []
    /// For each hierarchical group name: the attributes of its levels (`lvl0`, `lvl1`, ...).
    public private(set) var hierarchicalAttributes: [String: [String]] = [:]
    /// For each hierarchical group name: the selected path, one facet filter per level.
    public private(set) var hierarchicalFilters: [String: [Filter.Facet]] = [:]

    /// No filter, no hierarchical facet.
    public init() {}

    /// Whether no group holds a filter (hierarchical attributes set without a selection do not
    /// count).
    public var isEmpty: Bool { groups.isEmpty }

    /// Every filter of every group, in order.
    public var allFilters: [Filter] { groups.flatMap(\.filters) }

    /// The IDs of the groups that hold filters, in the order the groups were created.
    public var groupIDs: [FilterGroup.ID] { groups.map(\.id) }

    /// The filters of one group (empty when the group does not exist).
    public func filters(forGroupWithID id: FilterGroup.ID) -> [Filter] {
        groups.first { $0.id == id }?.filters ?? []
    }

    /// Whether the group `id` holds `filter`.
    public func contains(_ filter: Filter, inGroupWithID id: FilterGroup.ID) -> Bool {
        filters(forGroupWithID: id).contains(filter)
    }

    /// True when some group holds `filter`.
    public func contains(_ filter: Filter) -> Bool {
        groups.contains { $0.filters.contains(filter) }
    }

    /// Adds a filter to a group (created if needed); a filter already there is not added twice.
    /// A filter of another type than an OR group's is refused (Algolia cannot OR them).
    /// - Returns: false when the filter was refused.
    @discardableResult
    public mutating func add(_ filter: Filter, toGroupWithID id: FilterGroup.ID) -> Bool {
        if case .or(_, let kind) = id, filter.kind != kind { return false }
        if let position = groups.firstIndex(where: { $0.id == id }) {
            if !groups[position].filters.contains(filter) { groups[position].filters.append(filter) }
        } else {
            groups.append(Group(id: id, filters: [filter]))
        }
        return true
    }

    /// Adds a filter of any type to a group, as the overload taking a `Filter` does: once, and
    /// not to an OR group of another type.
    /// - Returns: false when the filter was refused.
    @discardableResult
    public mutating func add(_ filter: some FilterType, toGroupWithID id: FilterGroup.ID) -> Bool {
        add(filter.filter, toGroupWithID: id)
    }

    /// Removes a filter from a group; a group left empty is removed.
    /// - Returns: true when the filter was there.
    @discardableResult
    public mutating func remove(_ filter: Filter, fromGroupWithID id: FilterGroup.ID) -> Bool {
        guard let position = groups.firstIndex(where: { $0.id == id }),
              let index = groups[position].filters.firstIndex(of: filter) else { return false }
        groups[position].filters.remove(at: index)
        if groups[position].filters.isEmpty { groups.remove(at: position) }
        return true
    }

    /// Removes a filter from every group that holds it.
    @discardableResult
    public mutating func remove(_ filter: Filter) -> Bool {
        var removed = false
        for id in groupIDs { removed = remove(filter, fromGroupWithID: id) || removed }
        return removed
    }

    /// Removes the filters of a group that satisfy `predicate`.
    public mutating func removeAll(fromGroupWithID id: FilterGroup.ID, where predicate: (Filter) -> Bool = { _ in true }) {
        guard let position = groups.firstIndex(where: { $0.id == id }) else { return }
        groups[position].filters.removeAll(where: predicate)
        if groups[position].filters.isEmpty { groups.remove(at: position) }
        if case .hierarchical(let name) = id, groups.allSatisfy({ $0.id != id }) { hierarchicalFilters[name] = nil }
    }

    /// Removes every filter on `attribute` from a group.
    public mutating func removeAll(for attribute: String, fromGroupWithID id: FilterGroup.ID) {
        removeAll(fromGroupWithID: id) { $0.attribute == attribute }
    }

    /// Removes every filter of every group.
    public mutating func removeAll() {
        groups.removeAll()
        hierarchicalFilters.removeAll()
    }

    /// Adds the filter when it is absent from the group, removes it when present.
    public mutating func toggle(_ filter: Filter, inGroupWithID id: FilterGroup.ID) {
        if !remove(filter, fromGroupWithID: id) { add(filter, toGroupWithID: id) }
    }

    /// Sets the levels of a hierarchical group.
    public mutating func setHierarchicalAttributes(_ attributes: [String], forGroupNamed name: String) {
        hierarchicalAttributes[name] = attributes
    }

    /// Sets the selected path of a hierarchical group (one facet filter per level, from the
    /// top); the group's filter, the one sent, becomes the deepest level's.
    public mutating func setHierarchicalFilters(_ path: [Filter.Facet], forGroupNamed name: String) {
        let id = FilterGroup.ID.hierarchical(name: name)
        removeAll(fromGroupWithID: id)
        hierarchicalFilters[name] = path.isEmpty ? nil : path
        if let deepest = path.last { add(deepest, toGroupWithID: id) }
    }

    // MARK: Serialization

    /// The `filters` parameter these groups stand for: AND groups' filters and hierarchical
    /// selections as conjuncts, each OR group as one parenthesized alternative; nil when
    /// empty. See `FilterSyntax` for the quoting and why nothing else is parenthesized.
    public var filtersString: String? {
        var conjuncts: [String] = []
        for group in groups {
            switch group.id {
            case .and, .hierarchical:
                conjuncts.append(contentsOf: group.filters.map(FilterSyntax.render))
            case .or:
                if group.filters.count == 1 {
                    conjuncts.append(FilterSyntax.render(group.filters[0]))
                } else {
                    conjuncts.append("(" + group.filters.map(FilterSyntax.render).joined(separator: " OR ") + ")")
                }
            }
        }
        return conjuncts.isEmpty ? nil : conjuncts.joined(separator: " AND ")
    }

    // MARK: Disjunctive and hierarchical faceting

    /// Attributes with a facet filter in an OR group: their counts must be computed as if their
    /// own refinements were absent (disjunctive faceting), in order of first appearance.
    public var disjunctiveFacetAttributes: [String] {
        var seen = Set<String>()
        var result: [String] = []
        for group in groups where group.id.isDisjunctive {
            for case .facet(let facet) in group.filters where seen.insert(facet.attribute).inserted {
                result.append(facet.attribute)
            }
        }
        return result
    }

    /// The values of `attribute` refined (not negated) in OR groups.
    public func disjunctiveRefinements(of attribute: String) -> [String] {
        var result: [String] = []
        for group in groups where group.id.isDisjunctive {
            for case .facet(let facet) in group.filters where facet.attribute == attribute && !facet.isNegated {
                let text = facet.value.description
                if !result.contains(text) { result.append(text) }
            }
        }
        return result
    }

    /// These filters without the facet filters on `attribute` of the OR groups: the filters
    /// to count `attribute` with, in disjunctive faceting.
    public func removingDisjunctiveRefinements(of attribute: String) -> Filters {
        var copy = self
        for group in groups where group.id.isDisjunctive {
            copy.removeAll(fromGroupWithID: group.id) { $0.kind == .facet && $0.attribute == attribute }
        }
        return copy
    }

    /// True when some group holds a numeric filter on `attribute`.
    public func hasNumericFilters(on attribute: String) -> Bool {
        allFilters.contains { $0.kind == .numeric && $0.attribute == attribute }
    }

    /// These filters without the numeric filters on `attribute`: the filters to compute a
    /// range slider's bounds with, so they do not shrink to the range selected.
    public func removingNumericFilters(on attribute: String) -> Filters {
        var copy = self
        for group in groups {
            copy.removeAll(fromGroupWithID: group.id) { $0.kind == .numeric && $0.attribute == attribute }
        }
        return copy
    }

    /// These filters with a hierarchical group's selection replaced by `filter` (nil: none).
    func replacingHierarchicalSelection(ofGroupNamed name: String, with filter: Filter.Facet?) -> Filters {
        var copy = self
        let id = FilterGroup.ID.hierarchical(name: name)
        guard let position = copy.groups.firstIndex(where: { $0.id == id }) else { return copy }
        if let filter {
            copy.groups[position].filters = [filter.filter]
        } else {
            copy.groups.remove(at: position)
        }
        return copy
    }
}

extension Filters: CustomStringConvertible {
    public var description: String { filtersString ?? "" }
}
