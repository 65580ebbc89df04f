import OfflineSearch
import SearchAPI

/// Insights events in, Analytics API reports out: through the engine's `InsightsService` and
/// `SearchAnalyticsService`.
struct AnalyticsHandler: Sendable {
    let engine: SearchEngine

    /// `POST /1/events`: recorded whole, or refused whole (400) when one event is invalid.
    func sendEvents(_ operation: AlgoliaRequest) async throws -> AlgoliaAnswer {
        try await (engine as any InsightsService).sendEvents(try InsightsEvent.events(inBody: operation.body))
        return .ok(["status": 200, "message": "OK"])
    }

    /// `GET /2/...`: the report, for the index and period of the query string.
    func report(_ report: AnalyticsReportKind, _ operation: AlgoliaRequest) async throws -> AlgoliaAnswer {
        guard engine.analytics != nil else {
            throw SearchError(.forbidden, "This server records no analytics (its data folder is read-only)")
        }
        let request = try AnalyticsRequest(query: operation.query)
        let reports: any SearchAnalyticsService = engine
        switch report {
        case .topSearches: return .ok(try await reports.topSearches(request).jsonValue)
        case .searchesWithoutResults: return .ok(try await reports.searchesWithoutResults(request).jsonValue)
        case .searchCount: return .ok(try await reports.searchCount(request).jsonValue)
        case .topHits: return .ok(try await reports.topHits(request).jsonValue)
        case .topFilters(let attribute): return .ok(try await reports.topFilters(request, attribute: attribute).jsonValue)
        }
    }
}
