import SearchAPI

/// One value of a facet and its count; from a facet-value search, also its highlighted form.
/// InstantSearch's `Facet`.
public struct Facet: Hashable, Sendable, CustomStringConvertible {
    /// The facet value, as the service sent it.
    public let value: String
    /// How many matching records have the value.
    public let count: Int
    /// The value with the part matching the facet query tagged (facet-value search only).
    public let highlighted: String?

    /// A value with its count and, from a facet-value search, its highlighted form.
    public init(value: String, count: Int, highlighted: String? = nil) {
        self.value = value
        self.count = count
        self.highlighted = highlighted
    }

    init(_ hit: FacetHit) {
        self.init(value: hit.value, count: hit.count, highlighted: hit.highlighted)
    }

    /// The highlighted value (the value itself when there is no highlighting).
    public var highlightedString: HighlightedString { HighlightedString(string: highlighted ?? value) }

    public var description: String { "\(value) (\(count))" }
}

extension SearchResponse {
    /// The values of one facet in this response, in the response's order.
    public func facetValues(_ attribute: String) -> [Facet]? {
        facet(attribute)?.values.map { Facet(value: $0.value, count: $0.count) }
    }
}

/// The order of a refinement list: criteria applied one after the other until two values
/// differ. InstantSearch's `FacetSortCriterion`; the old widgets' `sortBy` strings
/// (`isRefined`, `count:asc`, `count:desc`, `name:asc`, `name:desc`) are accepted too.
///
/// ```swift
/// let order: [FacetSortCriterion] = [.isRefined, .count(order: .descending), .alphabetical(order: .ascending)]
/// let same = ["isRefined", "count:desc", "name:asc"].compactMap(FacetSortCriterion.init(rawValue:))
/// ```
public enum FacetSortCriterion: Hashable, Sendable {
    /// The direction of a criterion.
    public enum Order: Hashable, Sendable {
        /// Lowest count first, or alphabetical order (A to Z).
        case ascending
        /// Highest count first, or reverse alphabetical order (Z to A).
        case descending
    }

    /// Refined values first.
    case isRefined
    /// By count.
    case count(order: Order)
    /// By value, compared case-insensitively.
    case alphabetical(order: Order)

    /// `isRefined`, `count:asc`, `count:desc`, `name:asc` or `name:desc`.
    public init?(rawValue: String) {
        switch rawValue {
        case "isRefined": self = .isRefined
        case "count:asc": self = .count(order: .ascending)
        case "count:desc", "count": self = .count(order: .descending)
        case "name:asc", "name", "alpha": self = .alphabetical(order: .ascending)
        case "name:desc": self = .alphabetical(order: .descending)
        default: return nil
        }
    }

    /// Whether `lhs` comes before `rhs` (nil: they tie on this criterion).
    func precedes(_ lhs: (facet: Facet, isSelected: Bool), _ rhs: (facet: Facet, isSelected: Bool)) -> Bool? {
        switch self {
        case .isRefined:
            return lhs.isSelected == rhs.isSelected ? nil : lhs.isSelected
        case .count(let order):
            guard lhs.facet.count != rhs.facet.count else { return nil }
            return order == .ascending ? lhs.facet.count < rhs.facet.count : lhs.facet.count > rhs.facet.count
        case .alphabetical(let order):
            let left = lhs.facet.value.lowercased()
            let right = rhs.facet.value.lowercased()
            guard left != right else { return nil }
            return order == .ascending ? left < right : left > right
        }
    }
}

/// How a refinement list shows its values: order and number. InstantSearch's
/// `FacetListPresenter`.
public struct FacetListPresenter: Sendable, Hashable {
    /// The criteria of the order, each deciding the ties of those before it; values tied on
    /// every criterion keep the order the service gave.
    public var sortBy: [FacetSortCriterion]
    /// The most values shown (refined values first when `isRefined` leads the order).
    public var limit: Int
    /// Whether refined values absent from the counts are shown, with a count of 0.
    public var showsRefinedWithoutCount: Bool

    /// Defaults as InstantSearch: refined first, then count descending, then name; 10 values.
    public init(sortBy: [FacetSortCriterion] = [.isRefined, .count(order: .descending), .alphabetical(order: .ascending)],
                limit: Int = 10, showsRefinedWithoutCount: Bool = true) {
        self.sortBy = sortBy
        self.limit = limit
        self.showsRefinedWithoutCount = showsRefinedWithoutCount
    }

    /// The values to show, each with whether it is selected.
    public func transform(_ facets: [Facet], selections: Set<String>) -> [SelectableItem<Facet>] {
        var items = facets.map { (facet: $0, isSelected: selections.contains($0.value)) }
        if showsRefinedWithoutCount {
            let present = Set(facets.map(\.value))
            for value in selections.sorted() where !present.contains(value) {
                items.append((Facet(value: value, count: 0), true))
            }
        }
        let ordered = FacetSortCriterion.sorted(items, by: sortBy)
        return ordered.prefix(max(limit, 0)).map { SelectableItem(item: $0.facet, isSelected: $0.isSelected) }
    }
}

extension FacetSortCriterion {
    /// `items` in the order of `criteria`, each deciding the ties of those before it; items tied
    /// on every criterion keep the order they came in (the service's), whatever the sort's
    /// stability. The one sort of facet values: refinement lists and dynamic facets use it.
    /// - Complexity: O(*n* log *n*) comparisons of up to `criteria.count` criteria.
    static func sorted(_ items: [(facet: Facet, isSelected: Bool)], by criteria: [FacetSortCriterion]) -> [(facet: Facet, isSelected: Bool)] {
        let ordered = items.enumerated().sorted { lhs, rhs in
            for criterion in criteria {
                if let before = criterion.precedes(lhs.element, rhs.element) { return before }
            }
            return lhs.offset < rhs.offset
        }
        return ordered.map { $0.element }
    }

    /// `facets` in the order of `criteria` (none counts as selected), ties in the order they came in.
    static func sorted(_ facets: [Facet], by criteria: [FacetSortCriterion]) -> [Facet] {
        let items: [(facet: Facet, isSelected: Bool)] = facets.map { (facet: $0, isSelected: false) }
        return sorted(items, by: criteria).map { $0.facet }
    }
}

/// An item of a list and whether it is selected.
public struct SelectableItem<Item: Hashable & Sendable>: Hashable, Sendable {
    /// The value of the row (a `Facet` in a refinement list).
    public let item: Item
    /// Whether the value is selected.
    public let isSelected: Bool

    /// A row of `item`, selected or not.
    public init(item: Item, isSelected: Bool) {
        self.item = item
        self.isSelected = isSelected
    }
}
