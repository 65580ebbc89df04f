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

/// A small shop: three iPhones, a Galaxy, two Samsung TVs.
enum AnalyticsFixture {
    static let products: [JSONValue] = [
        ["objectID": "1", "name": "iPhone 12", "brand": "Apple", "categories": ["Phones"]],
        ["objectID": "2", "name": "iPhone 13", "brand": "Apple", "categories": ["Phones"]],
        ["objectID": "3", "name": "iPhone 13 case", "brand": "Apple", "categories": ["Accessories"]],
        ["objectID": "4", "name": "Galaxy S21", "brand": "Samsung", "categories": ["Phones"]],
        ["objectID": "5", "name": "Samsung TV 55", "brand": "Samsung", "categories": ["TVs"]],
        ["objectID": "6", "name": "Samsung TV 65", "brand": "Samsung", "categories": ["TVs"]],
    ]
}

@Suite struct SearchAnalyticsTests {
    private static let products = AnalyticsFixture.products + [
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
        if !user.isEmpty { object["userToken"] = .string(user) }
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
        #expect(hits.first { $0.hit == "6" }?.count == 3, "shown for tv, tv s and samsung")
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

    @Test func aQueryTheUserStayedOnCountsWhenErasedAndATypoDoesNot() throws {
        let clock = ScriptedClock()
        let (folder, engine) = try engine(clock)
        _ = folder
        // Typed, looked at for 5 s, erased and changed: both count.
        for (at, text) in [(0.0, "iphone"), (5, "iphon"), (5.5, "ipho"), (6, "iph"), (6.5, "ip"), (7, "ipa"), (7.5, "ipad")] {
            try search(engine, text, user: "a", at: at, clock: clock)
        }
        // A typo erased at once: only what the user went on to type counts.
        for (at, text) in [(100.0, "galx"), (100.5, "gal"), (101, "gala"), (101.5, "galaxy")] {
            try search(engine, text, user: "b", at: at, clock: clock)
        }
        // A box cleared after a look, then another query: both count.
        for (at, text) in [(200.0, "samsung tv"), (205, ""), (206, "c"), (206.5, "case")] {
            try search(engine, text, user: "c", at: at, clock: clock)
        }
        // Two users without a userToken, told apart by the server's fallback: each counts.
        SearchAnalytics.$fallbackUserToken.withValue("10.0.0.1") { _ = try? search(engine, "iphone 13", user: "", at: 300, clock: clock) }
        SearchAnalytics.$fallbackUserToken.withValue("10.0.0.2") { _ = try? search(engine, "iphone 12", user: "", at: 300.5, clock: clock) }
        // A params string's analytics=false and analyticsTags as the JSON forms.
        clock.set(301)
        let index = try engine.existingIndex("products")
        _ = try index.search(SearchParameters(urlEncoded: "query=tv&analytics=false&userToken=d"))
        _ = try index.search(SearchParameters(urlEncoded: "query=galaxy%20s21&analyticsTags=mobile,ios&userToken=e"))
        let analytics = try #require(engine.analytics)
        try analytics.flush(settlingEverything: true)
        let day = Period.day(Int64(clock.now.timeIntervalSince1970 * 1000))
        let request = AnalyticsRequest(indexName: "products", startDate: day, endDate: day, limit: 100)
        let counted = Dictionary(uniqueKeysWithValues: try analytics.topSearches(request).searches.map { ($0.search, $0.count) })
        #expect(counted == ["iphone": 1, "ipad": 1, "galaxy": 1, "samsung tv": 1, "case": 1, "iphone 13": 1, "iphone 12": 1,
                            "galaxy s21": 1])
        var tagged = request
        tagged.tags = "mobile AND ios"
        #expect(try analytics.topSearches(tagged).searches.map(\.search) == ["galaxy s21"])
    }

    @Test func eventsAndLogsOutOfRangeAreRefusedAndWeightsCount() throws {
        let clock = ScriptedClock()
        let (folder, engine) = try engine(clock)
        _ = folder
        clock.set(0)
        let now = Int64(clock.now.timeIntervalSince1970 * 1000)
        let old = InsightsEvent.viewedObjectIDs(eventName: "Viewed", indexName: "products", userToken: "a", objectIDs: ["1"],
                                                timestamp: now - 31 * 86_400_000)
        #expect(throws: SearchError.self) { try engine.recordEvents([old]) }
        let seconds = InsightsEvent.viewedObjectIDs(eventName: "Viewed", indexName: "products", userToken: "a", objectIDs: ["1"],
                                                    timestamp: now / 1000)
        #expect(throws: SearchError.self) { try engine.recordEvents([seconds]) }
        let huge: JSONValue = ["events": [["eventType": "click", "eventName": "c", "index": "products", "userToken": "a",
                                           "queryID": "0123456789abcdef0123456789abcdef", "objectIDs": ["1", "2"],
                                           "positions": [.int(Int64.max), .int(Int64.max)]]]]
        #expect(throws: SearchError.self) { try InsightsEvent.events(inBody: huge) }
        #expect(throws: SearchError.self) { try engine.replaySearchLog([["query": "tv", "count": .int(Int64.max)]], into: "products") }
        // A log's count is one stored search that weighs it.
        #expect(try engine.replaySearchLog([["query": "tv", "count": 250_000], ["query": "iphone"]], into: "products") == 250_001)
        let day = Period.day(now)
        let report = try #require(engine.analytics).topSearches(AnalyticsRequest(indexName: "products", startDate: day, endDate: day))
        #expect(report.searches.map(\.count) == [250_000, 1])
        #expect(try #require(engine.analytics).store.searches(of: "products", from: 0, to: .max).count == 2)
        // A negative page from the Swift API is an empty page, not a crash.
        #expect(try #require(engine.analytics).topSearches(AnalyticsRequest(indexName: "products", limit: -1, offset: -5)).searches.isEmpty)
    }

    @Test func storageIsBoundedByCountAndRetention() throws {
        let clock = ScriptedClock()
        let folder = TemporaryDirectory()
        let engine = try SearchEngine(directory: folder.url, analytics: SearchAnalytics.Configuration(
            retention: .seconds(86_400), maximumSearches: 3, now: { clock.now }))
        try engine.index("products").saveObjects(AnalyticsFixture.products)
        let analytics = try #require(engine.analytics)
        clock.set(0)
        try engine.replaySearchLog(["iphone", "galaxy", "samsung", "tv", "case"].map { ["query": .string($0)] }, into: "products")
        #expect(try analytics.store.searches(of: "products", from: 0, to: .max).map(\.query) == ["samsung", "tv", "case"])
        // Two days on (and past the ten minutes between prunings): the day-old searches go.
        clock.set(2 * 86_400)
        try engine.replaySearchLog([["query": "iphone"]], into: "products")
        #expect(try analytics.store.searches(of: "products", from: 0, to: .max).map(\.query) == ["iphone"])
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

    @Test func asciiQueriesAreNormalizedAsByUnicodesRules() {
        // Every ASCII byte alone and beside letters and spaces, then random ASCII queries
        // heavy in whitespace and capitals (the byte path against `normalizeCharacters`).
        let bytes = (0..<128).map { UInt8($0) }
        var queries = bytes.map { String(decoding: [$0], as: UTF8.self) }
        queries += bytes.map { String(decoding: [0x41, $0, 0x20, $0, 0x7A], as: UTF8.self) }
        var generator = SplitMix64(state: 28)
        let alphabet: [UInt8] = Array(0x09...0x0D) + [0x20, 0x20, 0x41, 0x5A, 0x61, 0x7A, 0x4D, 0x6D, 0x30, 0x2D, 0x5B, 0x60, 0x40, 0x7F, 0x00]
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...12, using: &generator)
            queries.append(String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self))
        }
        queries += ["\r\n", " a\r\nb ", "\u{0B}\u{0C}x", "ÉCRAN  Plat"]
        for query in queries {
            #expect(SearchAnalytics.normalize(query) == SearchAnalytics.normalizeCharacters(query), "\(Array(query.utf8))")
        }
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
