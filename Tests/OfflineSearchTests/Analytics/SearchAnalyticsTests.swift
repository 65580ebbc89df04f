import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// A clock a test moves by hand.
private final class ScriptedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: TimeInterval = 1_795_000_000  // 2026-11-18, a day away from midnight
    var now: Date { lock.withLock { Date(timeIntervalSince1970: seconds) } }
    func set(_ offset: TimeInterval) { lock.withLock { seconds = 1_795_000_000 + offset } }
}

@Suite struct SearchAnalyticsTests {
    private static let products: [JSONValue] = [
        ["objectID": "1", "name": "iPhone 12", "brand": "Apple", "categories": ["Phones"]],
        ["objectID": "2", "name": "iPhone 13", "brand": "Apple", "categories": ["Phones"]],
        ["objectID": "3", "name": "iPhone 13 case", "brand": "Apple", "categories": ["Accessories"]],
        ["objectID": "4", "name": "Galaxy S21", "brand": "Samsung", "categories": ["Phones"]],
        ["objectID": "5", "name": "Samsung TV 55", "brand": "Samsung", "categories": ["TVs"]],
        ["objectID": "6", "name": "Samsung TV 65", "brand": "Samsung", "categories": ["TVs"]],
        ["objectID": "7", "name": "Laptop stand", "brand": "Acme", "categories": ["Accessories"]],
    ]
    private static let settings: JSONObject = ["searchableAttributes": ["name", "brand", "categories"],
                                               "attributesForFaceting": ["brand", "categories"]]

    private func engine(_ clock: ScriptedClock) throws -> (TemporaryDirectory, SearchEngine) {
        let folder = TemporaryDirectory()
        let engine = try SearchEngine(directory: folder.url, analytics: SearchAnalytics.Configuration(now: { clock.now }))
        let index = try engine.index("products")
        try index.setSettings(Self.settings)
        try index.saveObjects(Self.products)
        return (folder, engine)
    }

    @discardableResult
    private func search(_ engine: SearchEngine, _ query: String, user: String, at offset: TimeInterval, clock: ScriptedClock,
                        _ extra: JSONObject = [:]) throws -> SearchResponse {
        clock.set(offset)
        var object = extra
        object["query"] = .string(query)
        object["userToken"] = .string(user)
        return try engine.existingIndex("products").search(SearchParameters(json: object))
    }

    @Test func keystrokeBurstsPausesAndClicksCountTheQueriesUsersSettledOn() throws {
        let clock = ScriptedClock()
        let (folder, engine) = try engine(clock)
        _ = folder
        // user-1 types "iphone", then, in the same burst, an unrelated query: "iphone" counts.
        for (i, text) in ["i", "ip", "iph", "ipho", "iphone"].enumerated() { try search(engine, text, user: "user-1", at: Double(i), clock: clock) }
        for (i, text) in ["s", "sa", "samsung"].enumerated() { try search(engine, text, user: "user-1", at: 5 + Double(i), clock: clock) }
        // user-2 searches "tv", clicks its third hit, then types on: "tv" counts at the click.
        let tv = try search(engine, "tv", user: "user-2", at: 10, clock: clock, ["clickAnalytics": true])
        try search(engine, "tv s", user: "user-2", at: 11, clock: clock, ["clickAnalytics": true])
        clock.set(12)
        try engine.recordEvents([.clickedObjectIDsAfterSearch(eventName: "Hit Clicked", indexName: "products", userToken: "user-2",
                                                              queryID: try #require(tv.queryID), objectIDs: ["6"], positions: [3])])
        // user-3 pauses longer than the window between related queries: both count.
        try search(engine, "lapt", user: "user-3", at: 20, clock: clock)
        try search(engine, "laptop", user: "user-3", at: 60, clock: clock)
        // Not counted: analytics false.
        try search(engine, "galaxy", user: "user-4", at: 61, clock: clock, ["analytics": false])
        // A search without results, with a filter, by user-5 then an unrelated one.
        try search(engine, "nokia", user: "user-5", at: 62, clock: clock, ["facetFilters": ["brand:Nokia"]])
        try search(engine, "apple", user: "user-5", at: 63, clock: clock, ["facetFilters": ["brand:Apple"], "numericFilters": ["price<100"]])

        let analytics = try #require(engine.analytics)
        let day = Period.day(Int64(clock.now.timeIntervalSince1970 * 1000))
        var request = AnalyticsRequest(indexName: "products", startDate: day, endDate: day, clickAnalytics: true, limit: 100)

        // Before the end of the bursts still going (user-3's and user-5's last queries, within
        // 30 s of the clock): only those that ended, by an unrelated query, a click or a pause.
        let early = try analytics.topSearches(request).searches
        #expect(Set(early.map(\.search)) == ["iphone", "samsung", "tv", "tv s", "lapt", "nokia"])

        try analytics.flush(settlingEverything: true)
        let searches = try analytics.topSearches(request).searches
        #expect(Dictionary(uniqueKeysWithValues: searches.map { ($0.search, $0.count) })
                == ["iphone": 1, "samsung": 1, "tv": 1, "tv s": 1, "lapt": 1, "laptop": 1, "nokia": 1, "apple": 1])
        let tvItem = try #require(searches.first { $0.search == "tv" })
        #expect(tvItem.clickAnalytics?.trackedSearchCount == 1)
        #expect(tvItem.clickAnalytics?.clickCount == 1)
        #expect(tvItem.clickAnalytics?.clickThroughRate == 1)
        #expect(tvItem.clickAnalytics?.averageClickPosition == 3)
        #expect(tvItem.clickAnalytics?.clickPositions[2].clickCount == 1)
        #expect(searches.first { $0.search == "tv s" }?.clickAnalytics?.clickThroughRate == 0)
        #expect(searches.first { $0.search == "iphone" }?.clickAnalytics?.clickThroughRate == nil, "no queryID: not tracked")
        #expect(searches.first { $0.search == "iphone" }?.nbHits == 4, "three iPhones, and Phones with a typo")

        let noResults = try analytics.searchesWithoutResults(request).searches
        #expect(noResults == [NoResultSearchesReport.Item(search: "apple", count: 1, withFilterCount: 1),
                              NoResultSearchesReport.Item(search: "nokia", count: 1, withFilterCount: 1)])

        let count = try analytics.searchCount(request)
        #expect(count.count == 8)
        #expect(count.dates.map(\.date) == [day])

        let attributes = try analytics.topFilters(request).items
        #expect(attributes.map(\.attribute) == ["brand", "price"])
        #expect(attributes.map(\.count) == [2, 1])
        let brands = try analytics.topFilters(request, attribute: "brand").items
        #expect(brands.map { "\($0.operator ?? "")\($0.value ?? ""):\($0.count)" } == [":Apple:1", ":Nokia:1"])

        let hits = try analytics.topHits(request).hits
        #expect(hits.first { $0.hit == "6" }?.count == 3, "shown for tv, tv s and none else")
        #expect(hits.first { $0.hit == "6" }?.clickAnalytics?.clickCount == 1)

        // Tags, paging, the default period.
        request.limit = 2
        #expect(try analytics.topSearches(request).searches.count == 2)
        request.offset = 7
        #expect(try analytics.topSearches(request).searches.count == 1)
        request.tags = "mobile"
        #expect(try analytics.topSearches(request).searches.isEmpty)
        #expect(try analytics.searchCount(AnalyticsRequest(indexName: "products")).dates.count == 8)
    }

    @Test func theCountedSearchesAreKeptInTheDataFolder() throws {
        let clock = ScriptedClock()
        let (folder, engine) = try engine(clock)
        try search(engine, "iphone", user: "a", at: 0, clock: clock, ["analyticsTags": ["mobile"]])
        try engine.analytics?.flush(settlingEverything: true)
        let reopened = try SearchEngine(directory: folder.url, analytics: SearchAnalytics.Configuration(now: { clock.now }))
        let day = Period.day(Int64(clock.now.timeIntervalSince1970 * 1000))
        let request = AnalyticsRequest(indexName: "products", startDate: day, endDate: day, tags: "mobile OR tablet")
        #expect(try reopened.analytics?.topSearches(request).searches.map(\.search) == ["iphone"])
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("analytics.sqlite").path))
        #expect(reopened.indexNames() == ["products"], "the analytics file is not an index")
    }

    @Test func burstsRelateQueriesThatExtendOrCorrectEachOther() {
        #expect(SearchAnalytics.areRelated("iph", "iphone"))
        #expect(SearchAnalytics.areRelated("iphone", "ip"))
        #expect(SearchAnalytics.areRelated("iphpne", "iphone"))
        #expect(SearchAnalytics.areRelated("samsung galaxy", "samsung galxy"))
        #expect(!SearchAnalytics.areRelated("iphone", "samsung"))
        #expect(!SearchAnalytics.areRelated("tv", "pc"))
        #expect(SearchAnalytics.normalize("  iPhone   Case ") == "iphone case")
    }

    @Test func invalidEventsAndRequestsAreRefusedWithTheirPlace() throws {
        let body: JSONValue = ["events": [["eventType": "click", "eventName": "Hit Clicked", "index": "products", "userToken": "u 1",
                                           "objectIDs": ["1"]]]]
        #expect(throws: SearchError.self) { try InsightsEvent.events(inBody: body) }
        do {
            _ = try InsightsEvent.events(inBody: body)
        } catch {
            #expect(error.message.contains("events[0].userToken"))
        }
        #expect(throws: SearchError.self) { try AnalyticsRequest(query: ["index": "p", "startDate": "2026-13-01"]) }
        #expect(throws: SearchError.self) { try AnalyticsRequest(query: ["startDate": "2026-11-01"]) }
        #expect(throws: SearchError.self) { try AnalyticsRequest(query: ["index": "p", "limit": "0"]) }
        #expect(Period.day(0) == "1970-01-01")
        #expect(Period.dayNumber("2026-11-27") == 20_784)
        #expect(Period.day(20_784 * 86_400_000 + 86_399_999) == "2026-11-27")
        #expect(Period.dayNumber("2000-03-01") == 11_017)
    }
}
