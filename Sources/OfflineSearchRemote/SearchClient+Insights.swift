import SearchAPI

extension SearchClient: InsightsService {
    /// Sends events to Algolia's Insights API (`POST /1/events` on `insightsHosts`), at most
    /// 1,000 per call as the API takes them.
    public func sendEvents(_ events: [InsightsEvent]) async throws(SearchError) {
        for start in stride(from: 0, to: events.count, by: 1000) {
            _ = try await call(.sendEvents, body: InsightsEvent.body(Array(events[start..<min(start + 1000, events.count)])))
        }
    }
}
