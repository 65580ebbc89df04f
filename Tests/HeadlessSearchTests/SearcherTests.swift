import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI
import SearchTestDoubles

/// Latest request wins, loading state, cancellation reaching the engine, page resets, and one
/// multi-search per search.
@MainActor
@Suite struct SearcherTests {
    /// 60 phones and laptops, enough for a few pages.
    static func catalogue() -> [JSONValue] {
        (0..<60).map { i in
            ["objectID": .string("p\(i)"), "name": .string(i % 2 == 0 ? "phone \(i)" : "laptop \(i)"),
             "brand": .string(["Apple", "Samsung", "Sony"][i % 3]), "price": .int(Int64(10 * i))]
        }
    }

    static let settings: JSONObject = ["searchableAttributes": ["name"], "attributesForFaceting": ["searchable(brand)"]]

    @Test(arguments: [true, false])
    func aSlowOlderResponseNeverOverwritesANewerOne(newerArrivesFirst: Bool) async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        // The stale answer is computed in full (not cancelled), as a remote service would send it.
        let gate = GatedService(test.engine, propagatesCancellation: false)
        let searcher = HitsSearcher(service: gate, indexName: "products")
        let results = EventLog(searcher.onResults)
        let errors = EventLog(searcher.onError)

        searcher.query = "phone"
        searcher.search()
        searcher.query = "laptop"
        searcher.search()
        #expect(await gate.waitForRequests(2))

        if newerArrivesFirst {
            await gate.release(1)
            #expect(await eventually { results.count == 1 })
            await gate.release(0)
            await searcher.settle()
        } else {
            await gate.release(0)
            // The older answer has come back and been handled before the newer one is released.
            #expect(await eventually { searcher.finishedRequestCount == 1 })
            #expect(results.count == 0)
            #expect(searcher.isLoading.lastValue == true)
            await gate.release(1)
            await searcher.settle()
        }
        #expect(await gate.outcome(0).map { if case .answered = $0 { true } else { false } } == true)
        #expect(results.values.map(\.query) == ["laptop"])
        #expect(results.last?.hits.allSatisfy { $0["name"]?.stringValue?.hasPrefix("laptop") == true } == true)
        #expect(errors.count == 0)
        #expect(searcher.isLoading.lastValue == false)
    }

    @Test func aSupersededSearchIsCancelledAndTheEngineStops() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let gate = GatedService(test.engine, propagatesCancellation: true)
        let searcher = HitsSearcher(service: gate, indexName: "products", query: "phone")
        let results = EventLog(searcher.onResults)
        let errors = EventLog(searcher.onError)
        searcher.search()
        searcher.query = "laptop"
        searcher.search()
        #expect(await gate.waitForRequests(2))
        await gate.release(0)
        // The first search's task was cancelled: the engine noticed and threw .cancelled.
        let outcome = await gate.waitForOutcome(0)
        guard case .failed(let error)? = outcome else {
            Issue.record("the superseded search ran to the end: \(String(describing: outcome))")
            return
        }
        #expect(error.kind == .cancelled)
        await gate.release(1)
        await searcher.settle()
        #expect(results.values.map(\.query) == ["laptop"])
        #expect(errors.count == 0, "a cancelled, superseded search reports no error")
    }

    @Test func theEngineThrowsCancelledForACancelledTask() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let engine = test.engine
        let (started, resume) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            for await _ in started { break }
            do {
                let results = try await engine.multiSearch([.hits(indexName: "products", parameters: SearchParameters(query: "phone"))],
                                                           strategy: .none)
                return Result<[MultiSearchResult], SearchError>.success(results)
            } catch let error as SearchError {
                return .failure(error)
            } catch {
                return .failure(SearchError(.internalError, "\(error)"))
            }
        }
        task.cancel()
        resume.yield()
        let result: Result<[MultiSearchResult], SearchError> = await task.value
        guard case .failure(let error) = result else {
            Issue.record("a cancelled task's search finished")
            return
        }
        #expect(error.kind == .cancelled)
        #expect(error.status == 499)
    }

    @Test func isLoadingIsTrueExactlyWhileADeliverableRequestIsInFlight() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let gate = GatedService(test.engine, propagatesCancellation: false)
        let searcher = HitsSearcher(service: gate, indexName: "products")
        let loading = EventLog(searcher.isLoading)
        #expect(searcher.isLoading.lastValue == false)
        searcher.search()
        #expect(searcher.isLoading.lastValue == true)
        searcher.query = "phone"
        searcher.search()
        // Superseding keeps loading on, without a flicker.
        #expect(loading.values == [true])
        #expect(await gate.waitForRequests(2))
        await gate.release(0)
        #expect(await eventually { searcher.finishedRequestCount == 1 })
        #expect(searcher.isLoading.lastValue == true, "the stale answer does not end the loading")
        await gate.release(1)
        #expect(await eventually { searcher.isLoading.lastValue == false })
        #expect(loading.values == [true, false])

        // cancel() ends the loading at once; the answer that comes later is dropped.
        let results = EventLog(searcher.onResults)
        searcher.search()
        #expect(searcher.isLoading.lastValue == true)
        searcher.cancel()
        #expect(searcher.isLoading.lastValue == false)
        #expect(await gate.waitForRequests(3))
        await gate.release(2)
        await searcher.settle()
        #expect(results.count == 0)
        #expect(loading.values == [true, false, true, false])
    }

    @Test func anErrorOfTheCurrentRequestIsDelivered() async throws {
        let test = try TestEngine()
        let searcher = HitsSearcher(service: test.engine, indexName: "missing_index")
        let errors = EventLog(searcher.onError)
        searcher.search()
        #expect(await eventually { errors.count == 1 })
        #expect(errors.last?.kind == .indexNotFound)
        #expect(searcher.isLoading.lastValue == false)
    }

    @Test func aNewQueryIndexOrFilterResetsThePage() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        try test.index("other", settings: Self.settings, records: Self.catalogue())
        let recorder = RecordingSearchService(wrapping: test.engine)
        let searcher = HitsSearcher(service: recorder, indexName: "products")
        let queries = EventLog(searcher.onQueryChanged)
        let indices = EventLog(searcher.onIndexChanged)
        searcher.request.parameters.page = 2
        searcher.query = "phone"
        #expect(searcher.request.parameters.page == 0)
        #expect(queries.values == ["phone"])
        searcher.request.parameters.page = 2
        searcher.indexName = "other"
        #expect(searcher.request.parameters.page == 0)
        #expect(indices.values == ["other"])
        searcher.request.parameters.page = 2
        searcher.setFilters("brand:Apple")
        #expect(searcher.request.parameters.page == 0)

        let filterState = FilterState()
        searcher.connectFilterState(filterState)
        searcher.request.parameters.page = 3
        let results = EventLog(searcher.onResults)
        filterState[and: "brand"].add(Filter.Facet(attribute: "brand", stringValue: "Sony"))
        filterState.notifyChange()
        #expect(searcher.request.parameters.page == 0)
        #expect(await eventually { results.count == 1 })
        #expect(results.last?.page == 0)
        // The hand-written filters are ANDed with the state's, not dropped.
        guard case .hits(_, let sent)? = recorder.calls.last?.first else {
            Issue.record("no hits query sent")
            return
        }
        #expect(sent.filters == #"brand:Apple AND "brand":"Sony""#)
        #expect(sent.page == 0)
        #expect(results.last?.nbHits == 0)
    }

    @Test func aMultiSearcherSendsOneRequestAndHandsEachSearcherItsResult() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let recorder = RecordingSearchService(wrapping: test.engine)
        let multi = MultiSearcher(service: recorder)
        let hits = multi.addHitsSearcher(indexName: "products")
        let brands = multi.addFacetsSearcher(indexName: "products", attribute: "brand")
        let filterState = FilterState()
        filterState[or: "brand"].add(Filter.Facet(attribute: "brand", stringValue: "Sony"))
        hits.connectFilterState(filterState)
        let hitsResults = EventLog(hits.onResults)
        let facetResults = EventLog(brands.onResults)
        let queries = EventLog(multi.onQueryChanged)

        multi.query = "phone"
        #expect(hits.query == "phone")
        #expect(brands.query == "phone", "the query reaches the facet searcher as its facet query")
        #expect(queries.values == ["phone"])
        multi.search()
        #expect(hits.isLoading.lastValue == true)
        #expect(brands.isLoading.lastValue == true)
        #expect(await eventually { hitsResults.count == 1 && facetResults.count == 1 })
        let calls = recorder.calls
        // Hits, brand's disjunctive count, facet values: one call.
        #expect(calls.count == 1)
        #expect(calls.first?.count == 3)
        #expect(hitsResults.last?.hits.allSatisfy { $0["brand"]?.stringValue == "Sony" } == true)
        // Disjunctive: the other brands keep their counts.
        #expect(hitsResults.last?.facet("brand")?.values.count == 3)
        #expect(facetResults.last?.facetHits.isEmpty == true, "no brand value starts with \"phone\"")
        #expect(hits.isLoading.lastValue == false)
    }

    @Test func aSearcherOfAMultiSearcherThatSearchesAloneDropsItsPartOfTheOlderMultiSearch() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let gate = GatedService(test.engine, propagatesCancellation: false)
        let multi = MultiSearcher(service: gate)
        let phones = multi.addHitsSearcher(indexName: "products", query: "phone")
        let laptops = multi.addHitsSearcher(indexName: "products", query: "laptop")
        let phoneResults = EventLog(phones.onResults)
        let laptopResults = EventLog(laptops.onResults)
        multi.search()
        phones.query = "phone 1"
        phones.search()
        #expect(await gate.waitForRequests(2))
        await gate.release(1)
        #expect(await eventually { phoneResults.count == 1 })
        await gate.release(0)
        await multi.settle()
        await phones.settle()
        #expect(phoneResults.values.map(\.query) == ["phone 1"])
        #expect(laptopResults.values.map(\.query) == ["laptop"])
    }
}
