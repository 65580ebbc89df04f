import Foundation
import SearchAPI

/// The search analytics of a data folder: which searches its indices answered, counted as
/// Algolia's analytics count them, and the Insights events sent about them.
///
/// **What counts as a search.** Search-as-you-type sends a query per keystroke; the analytics
/// count the query a user settled on. Queries of one user (`userToken`, else the fallback a
/// server gives, ``fallbackUserToken``: the `X-Algolia-UserToken` header or the client's
/// address; else `anonymous`) on one index form a *burst* while each comes within
/// `aggregationWindow` (30 s, Algolia's documented window) of the previous one:
///
/// - a query that extends the previous one (typing on) replaces it;
/// - a query that does not, after the previous one stayed `settleDelay` (3 s) on screen, counts
///   the previous one: the user had settled on it before erasing or changing it;
/// - a query that does not, sooner, replaces it when the two are related (one shortens the
///   other, or they are one edit apart, two from 8 characters: erasing, fixing a typo), and
///   counts it otherwise (an unrelated query starts a burst of its own);
/// - a burst's last query counts after a pause longer than the window, or when the process (or
///   the engine) ends;
/// - a click or a conversion on a query (by its `queryID`) counts that query at once, even one
///   the user then typed past.
///
/// Recording costs a search a lock and a few comparisons; the counted searches are written to
/// `analytics.sqlite` in batches by a background flush (about every second) and before
/// every report. A request with `analytics: false` is not recorded.
public final class SearchAnalytics: Sendable {
    /// How the analytics count and keep searches.
    public struct Configuration: Sendable {
        /// The pause that ends a burst of related queries (Algolia's: 30 s).
        public var aggregationWindow: Duration
        /// How long a query stays before the next one for the user to have settled on it.
        public var settleDelay: Duration
        /// How long searches and events are kept (Algolia's analytics: 90 days).
        public var retention: Duration
        /// At most this many searches (and as many events) are kept, the oldest removed first.
        public var maximumSearches: Int
        /// The clock the searches and events are dated by (a test's scripted clock).
        public var now: @Sendable () -> Date

        /// Algolia's rules: a 30-second window, 90 days kept, at most a million searches.
        public init(aggregationWindow: Duration = .seconds(30), settleDelay: Duration = .seconds(3),
                    retention: Duration = .seconds(90 * 86_400), maximumSearches: Int = 1_000_000,
                    now: @escaping @Sendable () -> Date = { Date() }) {
            self.aggregationWindow = aggregationWindow
            self.settleDelay = settleDelay
            self.retention = retention
            self.maximumSearches = maximumSearches
            self.now = now
        }
    }

    fileprivate struct State {
        /// The last query of each user's current burst, by index and user.
        var pending: [String: CountedSearch] = [:]
        /// Queries typed past within a burst that carry a `queryID`, kept so that a click on
        /// one counts it; the oldest dropped past 10,000.
        var superseded: [String: CountedSearch] = [:]
        var supersededOrder: [String] = []
        /// Counted searches and received events not yet written.
        var settled: [CountedSearch] = []
        var events: [StoredEvent] = []
        var flushScheduled = false
        var lastPrune: Int64 = 0
    }

    public let configuration: Configuration
    let store: AnalyticsStore
    private let state = LockedValue(State())
    /// Held while a flush takes what was counted and writes it, so that a report that flushes
    /// first never reads while another flush's batch is on its way.
    private let flushLock = NSLock()

    /// The user a search is counted for when its parameters name no `userToken`: a server sets
    /// the request's `X-Algolia-UserToken` header, else the client's address, around the search.
    @TaskLocal public static var fallbackUserToken: String?

    init(store: AnalyticsStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
    }

    deinit {
        // The process (or the engine) ends: every burst ends with it.
        try? flush(settlingEverything: true)
    }

    private var nowMilliseconds: Int64 { Int64((configuration.now().timeIntervalSince1970 * 1000).rounded()) }
    private var windowMilliseconds: Int64 { SearchAnalytics.milliseconds(configuration.aggregationWindow) }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    // MARK: Recording

    /// Records a search an index answered (unless its parameters say `analytics: false`).
    func record(_ parameters: SearchParameters, response: SearchResponse, indexName: String) {
        if let search = countedSearch(parameters, response: response, indexName: indexName) { record(search) }
    }

    /// Records a hits search answered without running it again (a server's response cache
    /// sending a kept answer): what it asked, how many records it found, its first page.
    public func recordSearch(indexName: String, parameters: SearchParameters, nbHits: Int, objectIDs: [String]) {
        var response = SearchResponse()
        response.nbHits = nbHits
        response.hits = objectIDs.map { ["objectID": .string($0)] }
        record(parameters, response: response, indexName: indexName)
    }

    /// Counts a search `times` times at once, as searches users settled on (a replayed log): one
    /// stored row that weighs `times`.
    func recordSettled(_ parameters: SearchParameters, response: SearchResponse, indexName: String, times: Int) {
        guard times > 0, var search = countedSearch(parameters, response: response, indexName: indexName) else { return }
        search.weight = times
        state.modify { $0.settled.append(search) }
    }

    private func countedSearch(_ parameters: SearchParameters, response: SearchResponse, indexName: String) -> CountedSearch? {
        // From a JSON body or a `params` string (`analytics=false`, `analyticsTags=a,b`) alike.
        if let value = parameters.other["analytics"], (try? ParameterReader(name: "analytics", value: value).bool()) == false { return nil }
        let query = parameters.query
        let user = parameters.other["userToken"]?.scalarText ?? SearchAnalytics.fallbackUserToken ?? "anonymous"
        var search = CountedSearch(indexName: indexName, at: nowMilliseconds, query: query,
                                   normalized: SearchAnalytics.normalize(query), nbHits: response.nbHits,
                                   userToken: user, queryID: response.queryID, tags: [], filters: nil, hits: [])
        if let value = parameters.other["analyticsTags"] {
            search.tags = (try? ParameterReader(name: "analyticsTags", value: value).stringList()) ?? []
        }
        var filters: JSONObject = [:]
        if let text = parameters.filters, !text.isEmpty { filters.appendUnique("filters", .string(text)) }
        if let list = parameters.facetFilters { filters.appendUnique("facetFilters", list.jsonValue) }
        if let list = parameters.numericFilters { filters.appendUnique("numericFilters", list.jsonValue) }
        if !filters.isEmpty { search.filters = JSONValue.object(filters).jsonString }
        search.hits = response.hits.prefix(20).compactMap { $0["objectID"]?.stringValue }
        return search
    }

    /// Adds a search to its user's burst, counting the burst's last query when this one ends it.
    func record(_ search: CountedSearch) {
        let key = search.indexName + "\u{1}" + search.userToken
        let window = windowMilliseconds
        let settle = SearchAnalytics.milliseconds(configuration.settleDelay)
        let schedule = state.modify { state -> Bool in
            if let previous = state.pending[key] {
                let gap = search.at - previous.at
                let supersedes = gap <= window && (search.normalized.hasPrefix(previous.normalized)
                    || (gap < settle && SearchAnalytics.areRelated(previous.normalized, search.normalized)))
                if supersedes {
                    if let queryID = previous.queryID { state.supersede(previous, queryID: queryID) }
                } else {
                    state.settled.append(previous)
                }
            }
            state.pending[key] = search
            return state.scheduleFlush()
        }
        if schedule { scheduleFlush() }
    }

    /// Records Insights events: a click or conversion on a search (its `queryID`) not yet
    /// counted counts it now. An event dated more than 30 days back or an hour ahead (a
    /// timestamp in seconds, not milliseconds) is refused, and then none of them is kept.
    func record(_ events: [InsightsEvent]) throws(SearchError) {
        let now = nowMilliseconds
        for (i, event) in events.enumerated() {
            if let timestamp = event.timestamp, timestamp < now - 30 * 86_400_000 || timestamp > now + 3_600_000 {
                throw SearchError(.invalidParameter, "events[\(i)].timestamp: \(timestamp) is not within the last 30 days "
                                  + "(milliseconds since 1970, such as \(now))")
            }
        }
        let schedule = state.modify { state -> Bool in
            for event in events {
                state.events.append(StoredEvent(event: event, at: event.timestamp ?? now))
                guard event.kind != .view, let queryID = event.queryID else { continue }
                if let (key, pending) = state.pending.first(where: { $0.value.queryID == queryID && $0.value.indexName == event.indexName }) {
                    state.pending[key] = nil
                    state.settled.append(pending)
                } else if let earlier = state.superseded.removeValue(forKey: queryID) {
                    state.settled.append(earlier)
                }
            }
            return state.scheduleFlush()
        }
        if schedule { scheduleFlush() }
    }

    private func scheduleFlush(after delay: DispatchTimeInterval = .seconds(1)) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            do {
                try self.flush(settlingEverything: false)
            } catch {
                // The database is busy or unwritable for now: what was counted stays in memory,
                // and the next flush tries again.
                if self.state.modify({ $0.scheduleFlush() }) { self.scheduleFlush(after: .seconds(5)) }
            }
        }
    }

    /// Writes what was counted to the database: the bursts that ended, and with
    /// `settlingEverything` the ones still going (as at the end of the process); also prunes
    /// what is past the retention period, at most every ten minutes.
    public func flush(settlingEverything: Bool = false) throws(SearchError) {
        flushLock.lock()
        defer { flushLock.unlock() }
        let now = nowMilliseconds
        let window = windowMilliseconds
        let (searches, events, prune, stillPending) = state.modify { state in
            for (key, search) in state.pending where settlingEverything || now - search.at > window {
                state.settled.append(search)
                state.pending[key] = nil
            }
            let taken = (state.settled, state.events)
            state.settled.removeAll()
            state.events.removeAll()
            state.flushScheduled = false
            let prune = now - state.lastPrune > 600_000
            if prune { state.lastPrune = now }
            return (taken.0, taken.1, prune, !state.pending.isEmpty)
        }
        do {
            try store.append(searches: searches, events: events)
        } catch {
            // Put them back for the next flush rather than lose them.
            state.modify { state in
                state.settled.insert(contentsOf: searches, at: 0)
                state.events.insert(contentsOf: events, at: 0)
            }
            throw error
        }
        if prune {
            let (seconds, _) = configuration.retention.components
            try store.prune(before: now - seconds * 1000, after: now + 86_400_000, maximumSearches: configuration.maximumSearches)
        }
        // A burst still going is counted once its pause is over.
        if stillPending, state.modify({ $0.scheduleFlush() }) {
            scheduleFlush(after: .milliseconds(Int(min(window, 3_600_000)) + 100))
        }
    }

    // MARK: Rules

    /// The query as the reports group it: lowercased, trimmed, runs of whitespace made one space.
    /// Every search is counted, so an ASCII query (most are) is read byte by byte: the same
    /// result as `normalizeCharacters` (checked against it in the tests), without splitting it
    /// into `Character`s, which cost about 1 % of a keystroke log.
    static func normalize(_ query: String) -> String {
        guard query.utf8.isASCII else { return normalizeCharacters(query) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(query.utf8.count)
        var spacePending = false
        for byte in query.utf8 {
            // ASCII's whitespace as `Character.isWhitespace` has it: tab to carriage return, space.
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                spacePending = !bytes.isEmpty
                continue
            }
            if spacePending {
                bytes.append(0x20)
                spacePending = false
            }
            bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `normalize` by Unicode's rules, for any query.
    static func normalizeCharacters(_ query: String) -> String {
        query.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether two queries of a user belong to one burst: one extends the other (typing,
    /// erasing), or they are at most one edit apart (two for queries of 8 characters or more).
    static func areRelated(_ a: String, _ b: String) -> Bool {
        if a.hasPrefix(b) || b.hasPrefix(a) { return true }
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        let limit = min(x.count, y.count) >= 8 ? 2 : 1
        guard abs(x.count - y.count) <= limit else { return false }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            var rowMinimum = i
            for j in 1..<(y.count + 1) {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                rowMinimum = Swift.min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return false }
            previous = current
        }
        return previous[y.count] <= limit
    }
}

extension SearchAnalytics.State {
    fileprivate mutating func supersede(_ search: CountedSearch, queryID: String) {
        superseded[queryID] = search
        supersededOrder.append(queryID)
        let limit = 10_000
        if supersededOrder.count > 2 * limit {
            let dropped = supersededOrder.prefix(supersededOrder.count - limit)
            for id in dropped { superseded[id] = nil }
            supersededOrder.removeFirst(dropped.count)
        }
    }

    /// Marks a flush as scheduled; true when none was.
    fileprivate mutating func scheduleFlush() -> Bool {
        if flushScheduled { return false }
        flushScheduled = true
        return true
    }
}
