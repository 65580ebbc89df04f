import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI
import SearchTestDoubles

/// Infinite scrolling, new searches replacing pages, empty queries, and hits that do not decode.
@MainActor
@Suite struct HitsInteractorTests {
    struct Product: Decodable, Equatable {
        let name: String
        let price: Double
    }

    /// 95 products (10 pages of 10, the last with 5), named by their rank (custom ranking).
    static func catalogue(count: Int = 95) -> [JSONValue] {
        (0..<count).map { (i: Int) -> JSONValue in
            var record = JSONObject()
            record["objectID"] = .string("p\(i)")
            record["name"] = .string("item \(i)")
            record["price"] = .int(Int64(i))
            record["color"] = .string(i % 2 == 0 ? "red" : "blue")
            record["rank"] = .int(Int64(1000 - i))
            return .object(record)
        }
    }

    static let settings: JSONObject = ["searchableAttributes": ["name"], "attributesForFaceting": ["color"],
                                       "customRanking": ["desc(rank)"]]

    static func pagedSearcher(_ service: any SearchService) -> HitsSearcher {
        var parameters = SearchParameters()
        parameters.hitsPerPage = 10
        return HitsSearcher(service: service, indexName: "products", parameters: parameters)
    }

    @Test func infiniteScrollingAsksExactlyForTheMissingPagesWithinTheOffset() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let recorder = RecordingSearchService(wrapping: test.engine)
        let searcher = Self.pagedSearcher(recorder)
        let hits = HitsInteractor<Product>(infiniteScrolling: .on(withOffset: 5))
        hits.connectSearcher(searcher)
        let updates = EventLog(hits.onResultsUpdated)

        searcher.search()
        #expect(await eventually { updates.count == 1 })
        #expect(hits.numberOfHits() == 10)
        #expect(hits.hit(atIndex: 0) == Product(name: "item 0", price: 0))
        _ = hits.hit(atIndex: 4)                 // rows 0...9: page 0 only, loaded
        #expect(recorder.pagesAsked == [0])
        _ = hits.hit(atIndex: 5)                 // rows 0...10: page 1
        #expect(hits.pendingPages == [1])
        _ = hits.hit(atIndex: 9)                 // page 1 is pending: not asked again
        _ = hits.hit(atIndex: 6)
        #expect(await eventually { updates.count == 2 })
        #expect(hits.numberOfHits() == 20)
        #expect(hits.hit(atIndex: 19) == Product(name: "item 19", price: 19))   // rows 14...24: page 2
        #expect(await eventually { updates.count == 3 })
        #expect(recorder.pagesAsked == [0, 1, 2])

        // A larger offset asks every missing page in reach at once, each once, never past the end.
        hits.settings.infiniteScrolling = .on(withOffset: 100)
        _ = hits.hit(atIndex: 29)
        #expect(hits.pendingPages == Set(3...9))
        _ = hits.hit(atIndex: 28)
        #expect(await eventually { hits.numberOfHits() == 95 })
        #expect(recorder.pagesAsked.sorted() == Array(0...9))
        #expect(hits.hit(atIndex: 94) == Product(name: "item 94", price: 94))
        #expect(hits.hit(atIndex: 95) == nil)
        // Page loads ask for hits only: the facets of the search are reused.
        let pageLoads = recorder.calls.dropFirst()
        #expect(pageLoads.allSatisfy { $0.count == 1 })
    }

    @Test func infiniteScrollingOffLoadsNothing() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let recorder = RecordingSearchService(wrapping: test.engine)
        let searcher = Self.pagedSearcher(recorder)
        let hits = HitsInteractor<Product>(infiniteScrolling: .off)
        hits.connectSearcher(searcher)
        let updates = EventLog(hits.onResultsUpdated)
        searcher.search()
        #expect(await eventually { updates.count == 1 })
        #expect(hits.numberOfHits() == 10)
        _ = hits.hit(atIndex: 9)
        #expect(hits.hit(atIndex: 10) == nil)
        #expect(recorder.pagesAsked == [0])
    }

    @Test func pagesOfAnOlderSearchNeverSurviveAFilterChange() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let gate = GatedService(test.engine, propagatesCancellation: false)
        let searcher = Self.pagedSearcher(gate)
        let filterState = FilterState()
        searcher.connectFilterState(filterState)
        let hits = HitsInteractor<Product>(infiniteScrolling: .on(withOffset: 3))
        hits.connectSearcher(searcher)
        let updates = EventLog(hits.onResultsUpdated)
        let newSearches = EventLog(hits.onNewSearch)

        searcher.search()
        await gate.release(0)
        #expect(await eventually { updates.count == 1 })
        _ = hits.hit(atIndex: 8)            // asks page 1 (request 1), held at the gate
        #expect(hits.pendingPages == [1])
        #expect(await gate.waitForRequests(2))

        filterState[and: "color"].add(Filter.Facet(attribute: "color", stringValue: "blue"))
        filterState.notifyChange()           // request 2: a new search
        #expect(await gate.waitForRequests(3))
        // Until the new search answers, no page is asked from rows of the old one.
        _ = hits.hit(atIndex: 9)
        #expect(hits.pendingPages.isEmpty)

        await gate.release(2)
        #expect(await eventually { updates.count == 2 })
        #expect(newSearches.count == 2)
        await gate.release(1)               // the old page 1 comes back late
        await searcher.settle()
        #expect(updates.count == 2)
        #expect(hits.numberOfHits() == 10)
        #expect((0..<10).compactMap { hits.hit(atIndex: $0)?.price }.allSatisfy { Int($0) % 2 == 1 })
        #expect(await gate.waitForRequests(4), "rows near the end of the new page 0 ask page 1 of the new search")
        await gate.release(3)
        #expect(await eventually { hits.numberOfHits() == 20 })
        #expect((0..<20).compactMap { hits.hit(atIndex: $0)?.price }.count == 20)
        #expect((0..<20).compactMap { hits.hit(atIndex: $0)?.price }.allSatisfy { Int($0) % 2 == 1 })
    }

    @Test func aFailedPageCanBeAskedAgain() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let searcher = Self.pagedSearcher(test.engine)
        let hits = HitsInteractor<Product>(infiniteScrolling: .on(withOffset: 5))
        hits.connectSearcher(searcher)
        let updates = EventLog(hits.onResultsUpdated)
        let errors = EventLog(hits.onError)
        searcher.search()
        #expect(await eventually { updates.count == 1 })
        try test.engine.deleteIndex("products")        // the next page fails
        _ = hits.hit(atIndex: 9)
        #expect(await eventually { errors.count == 1 })
        #expect(hits.pendingPages.isEmpty)
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        _ = hits.hit(atIndex: 9)
        #expect(await eventually { updates.count == 2 })
        #expect(hits.numberOfHits() == 20)
    }

    @Test func showItemsOnEmptyQuery() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let searcher = Self.pagedSearcher(test.engine)
        let hidden = HitsInteractor<Product>(infiniteScrolling: .off, showItemsOnEmptyQuery: false)
        let shown = HitsInteractor<Product>(infiniteScrolling: .off, showItemsOnEmptyQuery: true)
        hidden.connectSearcher(searcher)
        shown.connectSearcher(searcher)
        let updates = EventLog(hidden.onResultsUpdated)
        searcher.search()
        #expect(await eventually { updates.count == 1 })
        #expect(hidden.numberOfHits() == 0)
        #expect(hidden.hit(atIndex: 0) == nil)
        #expect(shown.numberOfHits() == 10)
        searcher.query = "item"
        searcher.search()
        #expect(await eventually { updates.count == 2 })
        #expect(hidden.numberOfHits() == 10)
    }

    @Test func aHitThatDoesNotDecodeIsAnErrorNamingTheField() async throws {
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: [
            ["objectID": "good", "name": "item good", "price": 5, "rank": 3],
            ["objectID": "bad", "name": "item bad", "price": "cheap", "rank": 2],
            ["objectID": "missing", "name": "item missing", "rank": 1],
        ])
        let searcher = HitsSearcher(service: test.engine, indexName: "products")
        let hits = HitsInteractor<Hit<Product>>(infiniteScrolling: .off)
        hits.connectSearcher(searcher)
        let errors = EventLog(hits.onError)
        let updates = EventLog(hits.onResultsUpdated)
        searcher.search()
        #expect(await eventually { updates.count == 1 })
        #expect(hits.numberOfHits() == 3)
        #expect(hits.hit(atIndex: 0)?.object == Product(name: "item good", price: 5))
        #expect(hits.hit(atIndex: 0)?.objectID == "good")
        #expect(hits.hit(atIndex: 1) == nil)
        #expect(hits.hit(atIndex: 2) == nil)
        #expect(hits.rawHitAtIndex(1)?["objectID"] == "bad")
        let decoding = errors.values.compactMap { $0 as? HitDecodingError }
        #expect(decoding.map(\.field) == ["price", "price"])
        #expect(decoding.map(\.objectID) == ["bad", "missing"])
        #expect(decoding.first?.description.contains("field `price`") == true)
        #expect(decoding.last?.reason == "missing")
    }

    @Test func aControllerIsReloadedAndScrolledToTheTopOnANewSearch() async throws {
        final class List: HitsController {
            var hitsSource: HitsInteractor<Product>?
            var reloads = 0
            var scrolls = 0
            func reload() { reloads += 1 }
            func scrollToTop() { scrolls += 1 }
        }
        let test = try TestEngine()
        try test.index("products", settings: Self.settings, records: Self.catalogue())
        let searcher = Self.pagedSearcher(test.engine)
        let hits = HitsInteractor<Product>()
        hits.connectSearcher(searcher)
        let list = List()
        hits.connectController(list)
        #expect(list.hitsSource === hits)
        #expect(list.reloads == 1)
        searcher.search()
        #expect(await eventually { list.reloads == 2 })
        #expect(list.scrolls == 1)
        _ = hits.hit(atIndex: 9)
        #expect(await eventually { list.reloads == 3 })
        #expect(list.scrolls == 1, "a further page does not scroll")
    }
}
