import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI
import SearchTestDoubles

/// The smaller widgets: search box modes, stats, loading, sort-by, numbers and ranges,
/// toggles, current filters and clear filters.
@MainActor
@Suite struct WidgetTests {
    static func catalogue() -> [JSONValue] {
        (0..<40).map { (i: Int) -> JSONValue in
            var record = JSONObject()
            record["objectID"] = .string("p\(i)")
            record["name"] = .string("item \(i)")
            record["price"] = .int(Int64(5 * i + 10))
            record["free_shipping"] = .bool(i % 4 == 0)
            record["brand"] = .string(i % 2 == 0 ? "Acme" : "Globex")
            return .object(record)
        }
    }

    static let settings: JSONObject = ["searchableAttributes": ["name"], "attributesForFaceting": ["brand", "free_shipping", "price"]]

    final class Box: SearchBoxController {
        var onQueryChanged: ((String?) -> Void)?
        var onQuerySubmitted: ((String?) -> Void)?
        var shown: String?
        func setQuery(_ query: String?) { shown = query }
    }

    @Test(arguments: [SearchTriggeringMode.searchAsYouType, .searchOnSubmit])
    func searchBoxTriggeringModes(_ mode: SearchTriggeringMode) async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let recorder = RecordingSearchService(wrapping: test.engine)
        let searcher = HitsSearcher(service: recorder, indexName: "products")
        let box = Box()
        let connector = SearchBoxConnector(searcher: searcher, searchTriggeringMode: mode, controller: box)
        let results = EventLog(searcher.onResults)
        let submitted = EventLog(connector.interactor.onQuerySubmitted)
        box.onQueryChanged?("it")
        box.onQueryChanged?("ite")
        #expect(connector.interactor.query == "ite")
        box.onQuerySubmitted?("item")
        #expect(submitted.values == ["item"])
        #expect(await eventually { results.last?.query == "item" })
        await searcher.settle()
        let sent = recorder.calls.compactMap { call -> String? in
            if case .hits(_, let parameters)? = call.first { return parameters.query }
            return nil
        }
        #expect(sent == (mode == .searchAsYouType ? ["it", "ite", "item"] : ["item"]))
        // A query set from elsewhere shows in the box.
        connector.interactor.query = "other"
        #expect(box.shown == "other")
    }

    @Test func statsTemplateAndErrorText() async throws {
        let stats = StatsInteractor()
        var response = SearchResponse()
        response.nbHits = 1234
        response.processingTimeMS = 3
        response.hitsPerPage = 20
        response.nbPages = 62
        response.page = 1
        response.query = "tv {page}"
        stats.update(response)
        #expect(stats.text == "1234 results")
        stats.resultTemplate = "{nbHits} hits in {processingTimeMS} ms, {hitsPerPage}/page, page {page} of {nbPages} for \"{query}\" {unknown}"
        #expect(stats.text == "1234 hits in 3 ms, 20/page, page 1 of 62 for \"tv {page}\" {unknown}")
        stats.update(SearchError(.indexNotFound, "Index x does not exist"))
        #expect(stats.text == "Index x does not exist")
        stats.errorText = "Search is unavailable"
        #expect(stats.text == "Search is unavailable")
        #expect(stats.item == nil)

        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let searcher = HitsSearcher(service: test.engine, indexName: "products", query: "item")
        let live = StatsInteractor(resultTemplate: "{nbHits} for {query}")
        live.connectSearcher(searcher)
        searcher.search()
        #expect(await eventually { live.text == "40 for item" })
    }

    @Test func loadingFollowsEverySearcherConnected() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let gate = GatedService(test.engine)
        let first = HitsSearcher(service: gate, indexName: "products")
        let second = HitsSearcher(service: gate, indexName: "products")
        let loading = LoadingInteractor()
        loading.connectSearcher(first)
        loading.connectSearcher(second)
        let states = EventLog(loading.onItemChanged)
        first.search()
        second.search()
        #expect(loading.item == true)
        #expect(await gate.waitForRequests(2))
        await gate.release(0)
        await first.settle()
        #expect(loading.item == true, "the second searcher is still loading")
        await gate.release(1)
        await second.settle()
        #expect(loading.item == false)
        #expect(states.values == [true, false])
    }

    @Test func sortBySwitchesAmongReplicasFromPageZero() async throws {
        let test = try TestEngine()
        let primary = try test.index("products", settings: Self.settings, records: Self.catalogue())
        try primary.setSettings(["replicas": ["products_price_desc"]])
        try test.engine.index("products_price_desc").setSettings(["ranking": ["desc(price)", "typo", "words", "attribute", "exact", "custom"]])
        var parameters = SearchParameters()
        parameters.hitsPerPage = 5
        let searcher = HitsSearcher(service: test.engine, indexName: "products", parameters: parameters)
        let sortBy = SortByInteractor(indexNames: ["products", "products_price_desc"])
        sortBy.connectSearcher(searcher)
        #expect(sortBy.selected == 0)
        let results = EventLog(searcher.onResults)
        searcher.request.parameters.page = 3
        sortBy.computeSelected(selecting: 1)
        #expect(searcher.indexName == "products_price_desc")
        #expect(searcher.request.parameters.page == 0)
        #expect(await eventually { results.count == 1 })
        let prices = results.last?.hits.compactMap { $0["price"]?.doubleValue } ?? []
        #expect(prices == [205, 200, 195, 190, 185])
        searcher.indexName = "products"
        #expect(sortBy.selected == 0, "the menu follows the searcher")
    }

    @Test func aRangeSlidersBoundsDoNotShrinkToItsSelection() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let recorder = RecordingSearchService(wrapping: test.engine)
        let searcher = HitsSearcher(service: recorder, indexName: "products")
        let filterState = FilterState()
        searcher.connectFilterState(filterState)
        let price = NumberRangeInteractor()
        price.connectSearcher(searcher, attribute: "price")
        price.connectFilterState(filterState, attribute: "price")
        let results = EventLog(searcher.onResults)
        searcher.search()
        #expect(await eventually { results.count == 1 })
        #expect(price.bounds == 10...205)
        price.computeNumberRange(numberRange: 0...60)
        #expect(price.item == 10...60, "clamped to the bounds")
        #expect(filterState.filters.filtersString == #""price":10 TO 60"#)
        #expect(await eventually { results.count == 2 })
        #expect(results.last?.nbHits == 11)
        #expect(price.bounds == 10...205, "the bounds come from a query without the range's own filter")
        #expect(recorder.calls.last?.count == 2)
        price.computeNumberRange(numberRange: nil)
        #expect(filterState.filters.isEmpty)
    }

    @Test func aNumberFiltersWithItsOperator() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let searcher = HitsSearcher(service: test.engine, indexName: "products")
        let filterState = FilterState()
        searcher.connectFilterState(filterState)
        let maxPrice = NumberInteractor()
        maxPrice.connectSearcher(searcher, attribute: "price")
        maxPrice.connectFilterState(filterState, attribute: "price", operator: .lessThanOrEqual)
        let results = EventLog(searcher.onResults)
        searcher.search()
        #expect(await eventually { results.count == 1 })
        #expect(maxPrice.bounds == 10...205)
        maxPrice.computeNumber(number: 30)
        #expect(filterState.filters.filtersString == #""price" <= 30"#)
        #expect(await eventually { results.count == 2 })
        #expect(results.last?.nbHits == 5)
        maxPrice.computeNumber(number: 1000)
        #expect(maxPrice.item == 205, "clamped to the bounds")
    }

    @Test func aToggleSwitchesBetweenValueOnAndValueOff() {
        let filterState = FilterState()
        let on = Filter.facet(.init(attribute: "free_shipping", boolValue: true))
        let off = Filter.facet(.init(attribute: "free_shipping", boolValue: false))
        let toggle = FilterToggleInteractor(valueOn: on, valueOff: off)
        toggle.connectFilterState(filterState)
        #expect(filterState.filters.filtersString == #""free_shipping":false"#)
        toggle.toggle()
        #expect(toggle.isSelected)
        #expect(filterState.filters.filtersString == #""free_shipping":true"#)
        toggle.toggle()
        #expect(filterState.filters.filtersString == #""free_shipping":false"#)
        // The state drives the switch too.
        filterState.filters.remove(off)
        filterState.filters.add(on, toGroupWithID: .and(name: "free_shipping"))
        filterState.notifyChange()
        #expect(toggle.isSelected)
    }

    @Test func currentFiltersListAndRemove() {
        let filterState = FilterState()
        filterState[or: "brand"].add(Filter.Facet(attribute: "brand", stringValue: "Acme"))
        filterState[and: "price"].add(Filter.Numeric(attribute: "price", range: 10...20))
        filterState[and: "tags"].add(Filter.Tag(value: "sale", isNegated: true))
        let current = CurrentFiltersInteractor()
        current.connectFilterState(filterState)
        #expect(current.items.map(\.text) == ["Acme", "price: 10 – 20", "NOT sale"])
        let onlyBrand = CurrentFiltersInteractor()
        onlyBrand.connectFilterState(filterState, filterGroupIDs: [.or(name: "brand", filterType: .facet)])
        #expect(onlyBrand.items.map(\.text) == ["Acme"])
        current.remove(item: current.items[1])
        #expect(filterState.filters.filtersString == #""brand":"Acme" AND NOT "_tags":"sale""#)
        #expect(current.items.map(\.text) == ["Acme", "NOT sale"])
    }

    @Test func clearFiltersAllSpecifiedOrExcept() {
        func state() -> FilterState {
            let filterState = FilterState()
            filterState[or: "brand"].add(Filter.Facet(attribute: "brand", stringValue: "Acme"))
            filterState[and: "price"].add(Filter.Numeric(attribute: "price", operator: .lessThan, value: 20))
            return filterState
        }
        let all = state()
        let clearAll = ClearFiltersInteractor()
        clearAll.connectFilterState(all)
        clearAll.trigger()
        #expect(all.filters.isEmpty)

        let some = state()
        let clearBrand = ClearFiltersInteractor()
        clearBrand.connectFilterState(some, filterGroupIDs: [.or(name: "brand", filterType: .facet)], clearMode: .specified)
        clearBrand.trigger()
        #expect(some.filters.filtersString == #""price" < 20"#)

        let others = state()
        let keepBrand = ClearFiltersInteractor()
        keepBrand.connectFilterState(others, filterGroupIDs: [.or(name: "brand", filterType: .facet)], clearMode: .except)
        let changes = EventLog(others.onChange)
        keepBrand.trigger()
        #expect(others.filters.filtersString == #""brand":"Acme""#)
        #expect(changes.count == 1)
    }

    @Test func observersEndWithTheirOwnerAndStreamValues() async {
        let observer = Observer<Int>(retainLastData: true)
        final class Owner {}
        var owner: Owner? = Owner()
        var received: [Int] = []
        observer.subscribe(with: owner!) { _, value in received.append(value) }
        observer.fire(1)
        owner = nil
        observer.fire(2)
        #expect(received == [1])
        #expect(observer.subscriptionsCount == 0)
        let stream = observer.values()
        observer.fire(3)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 2, "the last value first")
        #expect(await iterator.next() == 3)
    }
}
