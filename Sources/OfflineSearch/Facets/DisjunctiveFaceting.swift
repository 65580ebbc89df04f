import SearchAPI

/// How InstantSearch marks a disjunctive facet's refinements in `facetFilters`: a nested
/// array (an OR-group, even of one value) made only of positive `attribute:value` filters for
/// that facet. A bare `attribute:value` element is a conjunctive refinement and stays.
enum DisjunctiveFaceting {
    /// `facetFilters` without `attribute`'s refinement groups, and the refined values.
    static func removingRefinements(of attribute: String, from facetFilters: FilterList?) throws(SearchError) -> (FilterList?, [String]) {
        guard let facetFilters else { return (nil, []) }
        let items: [FilterListItem]
        switch facetFilters {
        case .list(let list): items = list
        case .string(let text):
            do {
                items = try FilterListParser.splitStringForm(text, parameter: "facetFilters")
            } catch {
                throw SearchError(.invalidFilter, error.description)
            }
        }
        var kept: [FilterListItem] = []
        var refined: [String] = []
        for item in items {
            guard case .anyOf(let elements) = item else {
                kept.append(item)
                continue
            }
            let values = elements.compactMap { refinedValue(of: attribute, in: $0) }
            if !elements.isEmpty, values.count == elements.count {
                refined.append(contentsOf: values)
            } else {
                kept.append(item)
            }
        }
        return (kept.isEmpty ? nil : .list(kept), refined)
    }

    /// `value` for a positive `attribute:value` element, nil for anything else.
    private static func refinedValue(of attribute: String, in element: String) -> String? {
        let prefix = attribute + ":"
        guard element.hasPrefix(prefix) else { return nil }
        var value = String(element.dropFirst(prefix.count))
        if value.hasPrefix("-") { return nil }  // an exclusion is conjunctive
        if value.hasPrefix("\\-") { value.removeFirst() }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        return value
    }
}
