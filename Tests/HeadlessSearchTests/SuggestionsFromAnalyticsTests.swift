import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI

/// Query Suggestions made as Algolia's service makes them, from the searches an index
/// answered, and the hits interactor's Insights hooks feeding those analytics.
@MainActor
@Suite struct SuggestionsFromAnalyticsTests {
    /// `../shared/datasets`, beside the repository (CI has it; a user's clone does not).
    nonisolated static let sharedDatasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/datasets")
    nonisolated static var hasSharedDatasets: Bool {
        FileManager.default.fileExists(atPath: sharedDatasets.appendingPathComponent("query_suggestions.json").path)
    }

    private static func read(_ file: String) throws -> JSONValue {
        try JSONValue(parsingUTF8: Array(try Data(contentsOf: sharedDatasets.appendingPathComponent(file))))
    }

    @Test(.enabled(if: hasSharedDatasets, "needs ../shared/datasets (the real products and suggestions; CI has it, a clone does not)"))
    func theGuidesSuggestionsFlowRunsOnSuggestionsBuiltFromTheRealProductsAndAReplayedLog() async throws {
        let test = try TestEngine()
        let products = try test.engine.index("instant_search")
        try products.setSettings(try Self.read("products.settings.json").objectValue ?? [:])
        _ = try products.importFile(at: Self.sharedDatasets.appendingPathComponent("products.json"), replaceExisting: true)
        // The log: each real suggestion searched as often as its popularity says.
        let log = (try Self.read("query_suggestions.json").arrayValue ?? []).compactMap { record -> JSONValue? in
            guard let query = record["query"], let popularity = record["popularity"]?.intValue else { return nil }
            return ["query": query, "count": .int(Int64(max(1, popularity)))]
        }
        #expect(log.count > 2000)
        try test.engine.replaySearchLog(log, into: "instant_search")
        let configuration = try QuerySuggestionsConfiguration(json: [
            "indexName": "instantsearch_query_suggestions",
            "sourceIndices": [["indexName": "instant_search", "minHits": 5,
                               "facets": [["attribute": "categories", "amount": 5], ["attribute": "hierarchicalCategories.lvl1", "amount": 5]]]],
            "languages": ["en"],
        ])
        let report = try QuerySuggestionsBuilder(engine: test.engine, configuration: configuration).build()
        // The real suggestions were made over Algolia's whole catalog; these 3,291 products hold
        // enough hits for a part of them only.
        #expect(report.suggestions > 300)
        #expect(report.leftOut["minHits", default: 0] > 1000)
        let suggestions = try test.engine.existingIndex("instantsearch_query_suggestions").browse(SearchParameters()).response.hits
        for suggestion in suggestions.prefix(200) {
            #expect((suggestion["instant_search"]?["exact_nb_hits"]?.intValue ?? 0) >= 5)
            #expect((suggestion["query"]?.stringValue?.count ?? 0) >= 4)
        }
        // The most popular logged query that finds five products leads (the first ones, as
        // "cooktop" with a popularity of 1,214, find none of these products).
        var leader: String?
        for entry in log.sorted(by: { ($0["count"]?.intValue ?? 0) > ($1["count"]?.intValue ?? 0) }) {
            var parameters = SearchParameters(query: entry["query"]?.stringValue ?? "")
            parameters.other["typoTolerance"] = false
            parameters.other["analytics"] = false
            if try products.search(parameters).nbHits >= 5 {
                leader = parameters.query
                break
            }
        }
        let top = try test.engine.existingIndex("instantsearch_query_suggestions").search(SearchParameters()).hits.first
        #expect(top?["query"]?.stringValue == leader)
        try await GuideFlowTests().querySuggestionsFlow(service: test.engine, suggestions: suggestions)
    }

    @Test func aHitsInteractorReportsClicksAndConversionsThatTheAnalyticsCount() async throws {
        // The clock stands still: the second page comes within the aggregation window of the
        // first, however long a loaded machine takes between them.
        let searchedAt = Date()
        let test = try TestEngine(analytics: SearchAnalytics.Configuration(now: { searchedAt }))
        try test.index("products", records: (1...30).map { ["objectID": .string("p\($0)"), "name": .string("phone model \($0)")] })
        let searcher = HitsSearcher(service: test.engine, indexName: "products")
        searcher.request.parameters.clickAnalytics = true
        searcher.request.parameters.hitsPerPage = 10
        searcher.request.parameters.other["userToken"] = "user-7"
        struct Phone: Decodable { let name: String }
        let hits = HitsInteractor<Hit<Phone>>(infiniteScrolling: .on(withOffset: 2))
        hits.connectSearcher(searcher)
        let updates = EventLog(hits.onResultsUpdated)
        searcher.query = "phone"
        searcher.search()
        #expect(await eventually { updates.count == 1 })
        await #expect(throws: SearchError.self) { try await hits.trackClick(atIndex: 0) }  // no insights yet
        hits.insights = HitsInsights(service: test.engine, userToken: "user-7")
        _ = hits.hit(atIndex: 9)  // loads the second page
        #expect(await eventually { updates.count == 2 })
        try await hits.trackClick(atIndex: 12)
        try await hits.trackConversion(atIndex: 12)
        try await hits.trackView(atIndices: Array(0..<12))
        await #expect(throws: SearchError.self) { try await hits.trackClick(atIndex: 500) }

        let analytics = try #require(test.engine.analytics)
        try analytics.flush(settlingEverything: true)
        let report = try analytics.topSearches(AnalyticsRequest(indexName: "products", clickAnalytics: true))
        let phone = try #require(report.searches.first { $0.search == "phone" })
        #expect(phone.count == 1, "the page load is not a second search: the click counted the search it came from")
        #expect(phone.clickAnalytics?.clickCount == 1)
        #expect(phone.clickAnalytics?.averageClickPosition == 13, "positions count from 1 across pages")
        #expect(phone.clickAnalytics?.conversionCount == 1)
    }
}
