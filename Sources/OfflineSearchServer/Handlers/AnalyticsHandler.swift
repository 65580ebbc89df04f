import OfflineSearch
import SearchAPI

/// Insights events in, through the engine's `InsightsService`; Analytics API reports out, from
/// the engine's analytics (synchronous: a report over a large period reads for a while, and
/// the endpoint runs it off Swift concurrency's threads).
struct AnalyticsHandler: Sendable {
    let engine: SearchEngine

    /// `POST /1/events`: recorded whole, or refused whole (400) when one event is invalid.
    func sendEvents(_ operation: AlgoliaRequest) async throws -> AlgoliaAnswer {
        try await (engine as any InsightsService).sendEvents(try InsightsEvent.events(inBody: operation.body))
        return .ok(["status": 200, "message": "OK"])
    }

    /// `GET /2/...`: the report, for the index and period of the query string.
    func report(_ report: AnalyticsReportKind, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        guard let analytics = engine.analytics else {
            throw SearchError(.forbidden, "This server records no analytics (its data folder is read-only)")
        }
        let request = try AnalyticsRequest(query: operation.query)
        switch report {
        case .topSearches: return .ok(try analytics.topSearches(request).jsonValue)
        case .searchesWithoutResults: return .ok(try analytics.searchesWithoutResults(request).jsonValue)
        case .searchCount: return .ok(try analytics.searchCount(request).jsonValue)
        case .topHits: return .ok(try analytics.topHits(request).jsonValue)
        case .topFilters(let attribute): return .ok(try analytics.topFilters(request, attribute: attribute).jsonValue)
        }
    }
}
