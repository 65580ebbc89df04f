import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI
import SearchTestDoubles

/// Disjunctive and hierarchical faceting on the bundled `instant_search`, checked against a
/// brute-force count over its records; refinement-list ordering, limits and selection.
@MainActor
@Suite struct HeadlessFacetingTests {
    nonisolated static func strings(_ record: JSONValue, _ path: String) -> [String] {
        guard let value = record.value(atPath: path) else { return [] }
        if case .array(let elements) = value { return elements.compactMap(\.scalarText) }
        return value.scalarText.map { [$0] } ?? []
    }

    nonisolated static func tally(_ records: [JSONValue], _ attribute: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for record in records {
            for value in Set(strings(record, attribute)) { counts[value, default: 0] += 1 }
        }
        return counts
    }

    static func counts(_ response: SearchResponse?, _ attribute: String) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: response?.facet(attribute)?.values.map { ($0.value, $0.count) } ?? [])
    }

    @Test func disjunctiveCountsEqualABruteForceCount() async throws {
        let test = try TestEngine()
        try test.importBundled("instant_search")
        let records = try BundledDatasets.recordValues("instant_search")
        let recorder = RecordingSearchService(wrapping: test.engine)
        var parameters = SearchParameters()
        parameters.maxValuesPerFacet = 1000
        let searcher = HitsSearcher(service: recorder, indexName: "instant_search", parameters: parameters)
        let filterState = FilterState()
        let brands = FacetListConnector(searcher: searcher, filterState: filterState, attribute: "brand", operator: .or)
        let types = FacetListConnector(searcher: searcher, filterState: filterState, attribute: "type", operator: .or)
        let categories = FacetListConnector(searcher: searcher, filterState: filterState, attribute: "categories", operator: .and)
        let results = EventLog(searcher.onResults)

        // A refinement that matches nothing with the others ("Whirlpool" makes no cell phone case).
        let refinedBrands = ["Samsung", "Apple", "Whirlpool"]
        let refinedTypes = ["Cases", "Cell phones"]
        for brand in refinedBrands { brands.interactor.computeSelections(selectingItemForKey: brand) }
        for type in refinedTypes { types.interactor.computeSelections(selectingItemForKey: type) }
        categories.interactor.computeSelections(selectingItemForKey: "Cell Phones")
        filterState[and: "price"].add(Filter.Numeric(attribute: "price", operator: .lessThan, value: 800))
        filterState.notifyChange()
        #expect(await eventually { results.last.map { $0.facet("type") != nil } == true && searcher.isLoading.lastValue == false })

        let cheap = records.filter { ($0["price"]?.doubleValue ?? .infinity) < 800 && Self.strings($0, "categories").contains("Cell Phones") }
        let inBrands = cheap.filter { !Set(Self.strings($0, "brand")).isDisjoint(with: refinedBrands) }
        let inTypes = cheap.filter { !Set(Self.strings($0, "type")).isDisjoint(with: refinedTypes) }
        let all = inBrands.filter { !Set(Self.strings($0, "type")).isDisjoint(with: refinedTypes) }

        let response = try #require(results.last)
        #expect(response.nbHits == all.count)
        // Each OR list counted without its own refinements; refined values with no match at 0.
        var expectedBrands = Self.tally(inTypes, "brand")
        for brand in refinedBrands where expectedBrands[brand] == nil { expectedBrands[brand] = 0 }
        #expect(Self.counts(response, "brand") == expectedBrands)
        #expect(expectedBrands["Whirlpool"] == 0)
        var expectedTypes = Self.tally(inBrands, "type")
        for type in refinedTypes where expectedTypes[type] == nil { expectedTypes[type] = 0 }
        #expect(Self.counts(response, "type") == expectedTypes)
        // The AND list is counted with every filter.
        #expect(Self.counts(response, "categories") == Self.tally(all, "categories"))
        #expect(all.count > 0 && inBrands.count > all.count && inTypes.count > all.count, "the case is not degenerate")

        // One multi-search: the hits query and one count query per refined OR list.
        let calls = recorder.calls
        #expect(calls.last?.count == 3)

        // The lists show the counts, refined values first, the one without a match at 0.
        let brandItems = brands.interactor.selectableItems(with: FacetListPresenter(limit: 5))
        #expect(brandItems.prefix(3).allSatisfy { $0.isSelected })
        #expect(Set(brandItems.prefix(3).map(\.item.value)) == Set(refinedBrands))
        #expect(brandItems.first { $0.item.value == "Whirlpool" }?.item.count == 0)
        #expect(brandItems.count == 5)
    }

    @Test func hierarchicalCountsShowTheSiblingsOfEachSelectedLevel() async throws {
        let test = try TestEngine()
        try test.importBundled("instant_search")
        let records = try BundledDatasets.recordValues("instant_search")
        let recorder = RecordingSearchService(wrapping: test.engine)
        var parameters = SearchParameters()
        parameters.maxValuesPerFacet = 1000
        let searcher = HitsSearcher(service: recorder, indexName: "instant_search", parameters: parameters)
        let filterState = FilterState()
        let levels = ["hierarchicalCategories.lvl0", "hierarchicalCategories.lvl1", "hierarchicalCategories.lvl2"]
        let menu = HierarchicalConnector(searcher: searcher, filterState: filterState, hierarchicalAttributes: levels)
        let results = EventLog(searcher.onResults)

        menu.interactor.computeSelection(key: "Appliances > Refrigerators")
        #expect(menu.interactor.selections == ["Appliances", "Appliances > Refrigerators"])
        #expect(await eventually { results.count == 1 })
        let response = try #require(results.last)

        let inAppliances = records.filter { Self.strings($0, levels[0]) == ["Appliances"] }
        let inFridges = records.filter { Self.strings($0, levels[1]) == ["Appliances > Refrigerators"] }
        #expect(response.nbHits == inFridges.count)
        #expect(Self.counts(response, levels[0]) == Self.tally(records, levels[0]))
        #expect(Self.counts(response, levels[1]) == Self.tally(inAppliances, levels[1]))
        #expect(Self.counts(response, levels[2]) == Self.tally(inFridges, levels[2]))
        #expect(recorder.calls.last?.count == 3, "the hits query and the two levels above the selection, together")

        // The menu: every top value, the children of Appliances, the children of Refrigerators.
        let rows = menu.interactor.presentation()
        #expect(rows.filter { $0.level == 0 }.count == Self.tally(records, levels[0]).count)
        #expect(rows.filter { $0.level == 1 }.map(\.facet.value).allSatisfy { $0.hasPrefix("Appliances > ") })
        #expect(rows.filter { $0.level == 1 }.count == Self.tally(inAppliances, levels[1]).count)
        #expect(rows.filter { $0.level == 2 }.count == Self.tally(inFridges, levels[2]).count)
        #expect(rows.filter(\.isSelected).map(\.facet.value) == ["Appliances", "Appliances > Refrigerators"])
        let appliancesRow = try #require(rows.firstIndex { $0.facet.value == "Appliances" })
        #expect(rows[appliancesRow + 1].level == 1, "children follow their parent")

        // Selecting the deepest selected value goes back to its parent.
        menu.interactor.computeSelection(key: "Appliances > Refrigerators")
        #expect(menu.interactor.selections == ["Appliances"])
        #expect(filterState.filters.filtersString == #""hierarchicalCategories.lvl0":"Appliances""#)
        #expect(await eventually { results.count == 2 })
        #expect(results.last?.nbHits == inAppliances.count)
    }

    @Test func presenterSortsByAnySequenceOfCriteriaAndLimits() {
        let facets = [Facet(value: "b", count: 5), Facet(value: "A", count: 9), Facet(value: "c", count: 5), Facet(value: "d", count: 1)]
        func values(_ criteria: [String], limit: Int = 10, selected: Set<String> = []) -> [String] {
            let presenter = FacetListPresenter(sortBy: criteria.compactMap(FacetSortCriterion.init(rawValue:)), limit: limit)
            return presenter.transform(facets, selections: selected).map(\.item.value)
        }
        #expect(values(["count:desc", "name:asc"]) == ["A", "b", "c", "d"])
        #expect(values(["count:asc", "name:desc"]) == ["d", "c", "b", "A"])
        #expect(values(["name:desc"]) == ["d", "c", "b", "A"])
        #expect(values(["isRefined", "count:desc", "name:asc"], selected: ["d"]) == ["d", "A", "b", "c"])
        #expect(values(["isRefined", "name:asc"], limit: 2, selected: ["zz"]) == ["zz", "A"], "a refined value without a count is shown, at 0")
        #expect(FacetSortCriterion(rawValue: "popularity") == nil)
    }

    @Test func singleAndMultipleSelection() {
        let filterState = FilterState()
        let single = FacetListInteractor(selectionMode: .single)
        single.connectFilterState(filterState, attribute: "color", operator: .or)
        let changes = EventLog(filterState.onChange)
        single.computeSelections(selectingItemForKey: "red")
        single.computeSelections(selectingItemForKey: "blue")
        #expect(single.selections == ["blue"])
        #expect(filterState.filters.filtersString == #""color":"blue""#)
        single.computeSelections(selectingItemForKey: "blue")
        #expect(single.selections.isEmpty)
        #expect(filterState.filters.isEmpty)
        #expect(changes.count == 3)

        let multiple = FacetListInteractor(selectionMode: .multiple)
        multiple.connectFilterState(filterState, attribute: "size", operator: .and)
        multiple.computeSelections(selectingItemForKey: "M")
        multiple.computeSelections(selectingItemForKey: "L")
        #expect(multiple.selections == ["M", "L"])
        #expect(filterState.filters.filtersString == #""size":"L" AND "size":"M""#)
        // The filter state drives the selections too (a clear button, a current-filters chip).
        filterState.removeAll()
        filterState.notifyChange()
        #expect(multiple.selections.isEmpty)
    }

    @Test func aControllerShowsTheSelectableItemsAndSelectsOnClick() {
        final class List: FacetListController {
            var onClick: ((Facet) -> Void)?
            var items: [SelectableItem<Facet>] = []
            var reloads = 0
            func setSelectableItems(selectableItems: [SelectableItem<Facet>]) { items = selectableItems }
            func reload() { reloads += 1 }
        }
        let interactor = FacetListInteractor(facets: [Facet(value: "x", count: 2), Facet(value: "y", count: 3)])
        let list = List()
        interactor.connectController(list, with: FacetListPresenter(sortBy: [.count(order: .descending)]))
        #expect(list.items.map(\.item.value) == ["y", "x"])
        list.onClick?(Facet(value: "x", count: 2))
        #expect(list.items.first { $0.item.value == "x" }?.isSelected == true)
        #expect(list.reloads == 2)
    }
}
