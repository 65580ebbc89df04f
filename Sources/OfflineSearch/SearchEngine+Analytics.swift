import Foundation
import SearchAPI

/// The engine as Algolia's Insights API (events are kept with the analytics) and Analytics
/// API (reports of the searches it answered).
extension SearchEngine: InsightsService, SearchAnalyticsService {
    // MARK: InsightsService

    /// Records the events (validated as the Insights API validates them when they were read
    /// from JSON); a click or conversion on a search counts that search (see ``SearchAnalytics``).
    public func sendEvents(_ events: [InsightsEvent]) async throws(SearchError) {
        try recordEvents(events)
    }

    /// `sendEvents` without suspension, for callers outside Swift concurrency.
    public func recordEvents(_ events: [InsightsEvent]) throws(SearchError) {
        try requireAnalytics().record(events)
    }

    // MARK: SearchAnalyticsService

    public func topSearches(_ request: AnalyticsRequest) async throws(SearchError) -> TopSearchesReport {
        try requireAnalytics().topSearches(request)
    }

    public func searchesWithoutResults(_ request: AnalyticsRequest) async throws(SearchError) -> NoResultSearchesReport {
        try requireAnalytics().searchesWithoutResults(request)
    }

    public func searchCount(_ request: AnalyticsRequest) async throws(SearchError) -> SearchCountReport {
        try requireAnalytics().searchCount(request)
    }

    public func topHits(_ request: AnalyticsRequest) async throws(SearchError) -> TopHitsReport {
        try requireAnalytics().topHits(request)
    }

    public func topFilters(_ request: AnalyticsRequest, attribute: String?) async throws(SearchError) -> TopFiltersReport {
        try requireAnalytics().topFilters(request, attribute: attribute)
    }

    // MARK: Search logs

    /// Replays a search log into the analytics of an index, as searches users settled on:
    /// each entry is a search's parameters (`query`, filters, `analyticsTags`, `userToken`…)
    /// with `count`, how many times it was searched (1 when absent). Each entry is searched
    /// once for its hits. Returns how many searches were counted.
    ///
    /// ```swift
    /// try engine.replaySearchLog([["query": "iphone", "count": 42], ["query": "tv"]], into: "instant_search")
    /// ```
    @discardableResult
    public func replaySearchLog(_ entries: [JSONValue], into indexName: String) throws(SearchError) -> Int {
        let analytics = try requireAnalytics()
        let index = try existingIndex(indexName)
        var counted = 0
        for (i, entry) in entries.enumerated() {
            guard var object = entry.objectValue else {
                throw SearchError(.invalidJSON, "search log entry \(i): expected an object such as {\"query\": \"iphone\", \"count\": 12}")
            }
            let count = object["count"].map(\.intValue) ?? 1
            guard let count, (0...1_000_000_000).contains(count) else {
                throw SearchError(.invalidParameter, "search log entry \(i): count: expected an integer from 0 to 1,000,000,000")
            }
            object["count"] = nil
            var parameters: SearchParameters
            do {
                parameters = try SearchParameters(json: object)
            } catch {
                throw SearchError(error.kind, "search log entry \(i): \(error.message)")
            }
            let countedParameters = parameters
            parameters.other["analytics"] = .bool(false)
            parameters.clickAnalytics = nil
            let response = try index.search(parameters)
            analytics.recordSettled(countedParameters, response: response, indexName: indexName, times: count)
            counted += count
        }
        try analytics.flush()
        return counted
    }

    private func requireAnalytics() throws(SearchError) -> SearchAnalytics {
        guard let analytics else {
            throw SearchError(.forbidden, readOnly ? "The data folder is open read-only: it records no analytics and no events"
                                                 : "This engine was opened without analytics (analytics: nil)")
        }
        return analytics
    }
}
