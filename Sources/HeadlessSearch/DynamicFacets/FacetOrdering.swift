import SearchAPI

/// One facet as a dynamic facet list shows it: the attribute and its values with their
/// counts, in display order. InstantSearch's `AttributedFacets`.
public struct AttributedFacets: Hashable, Sendable {
    /// The facet attribute (`brand`).
    public let attribute: String
    /// The attribute's values with their counts, in the order to show them.
    public let facets: [Facet]

    /// The values `facets` (none by default) of `attribute`, in this order.
    public init(attribute: String, facets: [Facet] = []) {
        self.attribute = attribute
        self.facets = facets
    }
}

/// The order in which a screen shows its facets and their values, as the merchandiser set it:
/// Algolia's `renderingContent.facetOrdering`, from the index's `renderingContent` setting or a
/// Rule's consequence. A `DynamicFacetListInteractor` reads it from each response.
///
/// - The facets: those of `facetOrder` (Algolia's `facetOrdering.facets.order`), in that
///   order; `"*"` stands for the facets of the response the list does not name, in the
///   response's order. A facet the response has no counts for is left out, and so is one the
///   order does not name when there is no `"*"`.
/// - The values of a facet with an entry in `values` (`facetOrdering.values.<attribute>`): its
///   `order` first (pinned values), then the others sorted by `sortRemainingBy`; values in
///   `hide` are left out wherever they are. A facet without an entry keeps the response's order.
///
/// ```swift
/// // {"facetOrdering": {"facets": {"order": ["brand", "*"]},
/// //                    "values": {"brand": {"order": ["Apple"], "sortRemainingBy": "alpha"}}}}
/// if let ordering = FacetOrdering(renderingContent: response.renderingContent) {
///     let facets = ordering.orderedFacets(response.facets ?? [])
/// }
/// ```
public struct FacetOrdering: Hashable, Sendable {
    /// How the values a facet's `order` does not pin are shown: Algolia's `sortRemainingBy`.
    public enum SortRemainingBy: String, Hashable, Sendable {
        /// By count, highest first; equal counts alphabetically (Algolia's default).
        case count
        /// Alphabetically (case-insensitive), A to Z.
        case alpha
        /// Not shown: only the pinned values are.
        case hidden
    }

    /// The order of one facet's values: Algolia's `facetOrdering.values.<attribute>`.
    public struct ValuesOrder: Hashable, Sendable {
        /// The values shown first, in this order (Algolia's `order`).
        public var order: [String]
        /// How the other values are shown; nil: by count (Algolia's default).
        public var sortRemainingBy: SortRemainingBy?
        /// The values never shown, pinned or not (Algolia's `hide`).
        public var hide: [String]

        /// An order of `order`'s values first, then the others by `sortRemainingBy` (by count
        /// when nil), without those of `hide`.
        public init(order: [String] = [], sortRemainingBy: SortRemainingBy? = nil, hide: [String] = []) {
            self.order = order
            self.sortRemainingBy = sortRemainingBy
            self.hide = hide
        }

        /// `facets` in this order: the pinned values present, then the others, without the
        /// hidden ones.
        /// - Complexity: O(*n* · (*p* + *h*) + *n* log *n*) for *n* values, *p* pinned and
        ///   *h* hidden.
        public func ordered(_ facets: [Facet]) -> [Facet] {
            let shown = facets.filter { !hide.contains($0.value) }
            var pinned: [Facet] = []
            var pinnedValues = Set<String>()
            for value in order where !pinnedValues.contains(value) {
                guard let facet = shown.first(where: { $0.value == value }) else { continue }
                pinned.append(facet)
                pinnedValues.insert(value)
            }
            let remaining = shown.filter { !pinnedValues.contains($0.value) }
            switch sortRemainingBy ?? .count {
            case .hidden:
                return pinned
            case .count:
                return pinned + FacetSortCriterion.sorted(remaining, by: [.count(order: .descending), .alphabetical(order: .ascending)])
            case .alpha:
                return pinned + FacetSortCriterion.sorted(remaining, by: [.alphabetical(order: .ascending)])
            }
        }
    }

    /// The facets' order (Algolia's `facetOrdering.facets.order`); `"*"` stands for the
    /// facets it does not name.
    public var facetOrder: [String]
    /// The order of each facet's values, by attribute (Algolia's `facetOrdering.values`).
    public var values: [String: ValuesOrder]

    /// An ordering of the facets `facetOrder` names and of their values by `values`.
    public init(facetOrder: [String] = [], values: [String: ValuesOrder] = [:]) {
        self.facetOrder = facetOrder
        self.values = values
    }

    /// The `facetOrdering` of a response's or an index's `renderingContent`; nil when it has
    /// none. Entries of the wrong JSON type are ignored, as is an unknown `sortRemainingBy`
    /// (which then sorts by count).
    public init?(renderingContent: JSONObject) {
        guard case .object(let ordering)? = renderingContent["facetOrdering"] else { return nil }
        var values: [String: ValuesOrder] = [:]
        if case .object(let rules)? = ordering["values"] {
            for (attribute, rule) in rules {
                values[attribute] = ValuesOrder(
                    order: FacetOrdering.strings(rule["order"]),
                    sortRemainingBy: rule["sortRemainingBy"]?.stringValue.flatMap(SortRemainingBy.init(rawValue:)),
                    hide: FacetOrdering.strings(rule["hide"]))
            }
        }
        self.init(facetOrder: FacetOrdering.strings(ordering["facets"]?["order"]), values: values)
    }

    /// The strings of a JSON array (nil or another type: none).
    private static func strings(_ value: JSONValue?) -> [String] {
        value?.arrayValue?.compactMap { $0.stringValue } ?? []
    }

    /// The facets of `facets` (a response's counts) to show, in order, each with its values in
    /// order.
    /// - Complexity: O(*f* · *a*) to order *f* facets named by *a* entries, plus ordering each
    ///   facet's values (see `ValuesOrder.ordered(_:)`).
    public func orderedFacets(_ facets: [FacetCounts]) -> [AttributedFacets] {
        let available = facets.map { $0.attribute }
        let named = Set(facetOrder)
        var attributes: [String] = []
        var placed = Set<String>()
        for entry in facetOrder {
            if entry == "*" {
                for attribute in available where !named.contains(attribute) && placed.insert(attribute).inserted {
                    attributes.append(attribute)
                }
            } else if available.contains(entry), placed.insert(entry).inserted {
                attributes.append(entry)
            }
        }
        return attributes.map { attribute -> AttributedFacets in
            let counts = facets.first { $0.attribute == attribute }?.values ?? []
            let facetValues = counts.map { Facet(value: $0.value, count: $0.count) }
            return AttributedFacets(attribute: attribute, facets: values[attribute]?.ordered(facetValues) ?? facetValues)
        }
    }
}
