import SearchAPI

/// Where a hits interactor reports what the user did with its hits (InstantSearch's hits
/// tracker): an `InsightsService` (the remote client sends to Algolia's Insights API, the
/// local engine records beside its analytics), the user's token and the events' names.
///
/// A click or conversion carries the `queryID` of the search the hit came from when that
/// search asked for one (`clickAnalytics: true` in the searcher's parameters), and a click its
/// position in the results (from 1): Algolia's `clickedObjectIDsAfterSearch` and
/// `convertedObjectIDsAfterSearch`. Without a `queryID` they are plain `clickedObjectIDs` and
/// `convertedObjectIDs`, which the analytics cannot tie to a search.
///
/// ```swift
/// searcher.request.parameters.clickAnalytics = true
/// hits.insights = HitsInsights(service: engine, userToken: "user-42")
/// try await hits.trackClick(atIndex: 2)          // the third row
/// try await hits.trackConversion(atIndex: 2, eventName: "Product Added to Cart")
/// ```
public struct HitsInsights: Sendable {
    /// Where the events go.
    public var service: any InsightsService
    /// The user (1 to 129 characters of `a-zA-Z0-9_=/+-`).
    public var userToken: String
    /// The name of click events, unless a call names its own.
    public var clickEventName: String
    /// The name of conversion events, unless a call names its own.
    public var conversionEventName: String
    /// The name of view events, unless a call names its own.
    public var viewEventName: String

    /// Events for `userToken`, sent to `service`, with InstantSearch's default names.
    public init(service: any InsightsService, userToken: String, clickEventName: String = "Hit Clicked",
                conversionEventName: String = "Hit Converted", viewEventName: String = "Hits Viewed") {
        self.service = service
        self.userToken = userToken
        self.clickEventName = clickEventName
        self.conversionEventName = conversionEventName
        self.viewEventName = viewEventName
    }
}

extension HitsInteractor {
    /// Reports a click on the hit at a row (with its search's `queryID` and its position).
    /// - Throws: `invalidParameter` when no `insights` is set or the row holds no hit; the
    ///   service's error when it refuses the event.
    public func trackClick(atIndex index: Int, eventName: String? = nil) async throws(SearchError) {
        let (insights, source) = try eventContext(atIndex: index)
        try await insights.service.sendEvents([InsightsEvent(
            kind: .click, eventName: eventName ?? insights.clickEventName, indexName: source.indexName,
            userToken: insights.userToken, queryID: source.queryID, objectIDs: [source.objectID],
            positions: source.queryID == nil ? nil : [source.position])])
    }

    /// Reports a conversion on the hit at a row (with its search's `queryID`).
    public func trackConversion(atIndex index: Int, eventName: String? = nil) async throws(SearchError) {
        let (insights, source) = try eventContext(atIndex: index)
        try await insights.service.sendEvents([InsightsEvent(
            kind: .conversion, eventName: eventName ?? insights.conversionEventName, indexName: source.indexName,
            userToken: insights.userToken, queryID: source.queryID, objectIDs: [source.objectID])])
    }

    /// Reports that the user saw the hits at these rows (at most 20 per event).
    public func trackView(atIndices indices: [Int], eventName: String? = nil) async throws(SearchError) {
        guard let insights else { throw SearchError(.invalidParameter, "trackView: set the interactor's insights first") }
        let sources = indices.compactMap { eventSource(atIndex: $0) }
        guard let indexName = sources.first?.indexName else { return }
        var events: [InsightsEvent] = []
        for start in stride(from: 0, to: sources.count, by: 20) {
            events.append(.viewedObjectIDs(eventName: eventName ?? insights.viewEventName, indexName: indexName, userToken: insights.userToken,
                                           objectIDs: sources[start..<min(start + 20, sources.count)].map(\.objectID)))
        }
        try await insights.service.sendEvents(events)
    }

    private func eventContext(atIndex index: Int) throws(SearchError)
        -> (HitsInsights, (objectID: String, queryID: String?, indexName: String, position: Int)) {
        guard let insights else { throw SearchError(.invalidParameter, "trackClick/trackConversion: set the interactor's insights first") }
        guard let source = eventSource(atIndex: index), let indexName = source.indexName else {
            throw SearchError(.invalidParameter, "row \(index) holds no hit (its page is not loaded, or the row is past the end)")
        }
        return (insights, (source.objectID, source.queryID, indexName, source.position))
    }
}
