import Foundation
import SearchAPI

/// A counted search, as the analytics keep it.
struct CountedSearch: Sendable, Hashable {
    var indexName: String
    /// Milliseconds since 1970.
    var at: Int64
    /// The query as typed.
    var query: String
    /// Lowercased, trimmed, runs of spaces made one: what the reports group by.
    var normalized: String
    var nbHits: Int
    var userToken: String
    /// Set when the search asked for `clickAnalytics`.
    var queryID: String?
    var tags: [String]
    /// The request's `filters`, `facetFilters` and `numericFilters`, as a JSON object's text
    /// (read into filters only when a report asks).
    var filters: String?
    /// The objectIDs of the first page of hits.
    var hits: [String]
    /// How many searches this one stands for (a replayed log's `count`; 1 for a search answered).
    var weight = 1
}

/// An Insights event as stored: with the time it happened (its timestamp, or when received).
struct StoredEvent: Sendable, Hashable {
    var event: InsightsEvent
    var at: Int64
}

/// The analytics database of a data folder (`analytics.sqlite` beside the indices): the
/// counted searches and the Insights events of every index, kept for a retention period and
/// up to a number of searches. Only `SearchAnalytics` writes it, in batches, off the search's
/// path; other processes on the folder (the CLI beside a server) read and write it too.
final class AnalyticsStore: @unchecked Sendable {
    // @unchecked: `connection` is only used while holding `lock`.
    private let lock = NSLock()
    private var connection: SQLiteConnection?
    let path: String

    init(path: String) { self.path = path }

    static let schema = """
        CREATE TABLE IF NOT EXISTS searches(
            id INTEGER PRIMARY KEY, index_name TEXT NOT NULL, at INTEGER NOT NULL, query TEXT NOT NULL,
            normalized TEXT NOT NULL, nb_hits INTEGER NOT NULL, user_token TEXT NOT NULL, query_id TEXT,
            tags TEXT NOT NULL, filters TEXT, hits TEXT NOT NULL, weight INTEGER NOT NULL DEFAULT 1);
        CREATE INDEX IF NOT EXISTS searches_by_index ON searches(index_name, at);
        CREATE INDEX IF NOT EXISTS searches_by_time ON searches(at);
        CREATE TABLE IF NOT EXISTS events(
            id INTEGER PRIMARY KEY, index_name TEXT NOT NULL, at INTEGER NOT NULL, event TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS events_by_index ON events(index_name, at);
        CREATE INDEX IF NOT EXISTS events_by_time ON events(at);
        """

    private func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws(SearchError) -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            if connection == nil {
                let opened = try SQLiteConnection(path: path)
                try opened.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
                try opened.execute(AnalyticsStore.schema)
                try AnalyticsStore.addWeightColumn(opened)
                connection = opened
            }
            return try body(connection!)
        } catch let error as SearchError {
            throw error
        } catch {
            connection = nil
            throw SearchError(.internalError, "The search analytics at \(path) cannot be used: \(error)")
        }
    }

    /// Appends searches and events in one transaction.
    func append(searches: [CountedSearch], events: [StoredEvent]) throws(SearchError) {
        guard !searches.isEmpty || !events.isEmpty else { return }
        try withConnection { db in
            try db.transaction {
                let insertSearch = try db.statement("""
                    INSERT INTO searches(index_name, at, query, normalized, nb_hits, user_token, query_id, tags, filters, hits, weight)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for search in searches {
                    insertSearch.reset()
                    try insertSearch.bind(1, search.indexName)
                    try insertSearch.bind(2, search.at)
                    try insertSearch.bind(3, search.query)
                    try insertSearch.bind(4, search.normalized)
                    try insertSearch.bind(5, Int64(search.nbHits))
                    try insertSearch.bind(6, search.userToken)
                    try insertSearch.bind(7, search.queryID)
                    try insertSearch.bind(8, JSONValue.array(search.tags.map { .string($0) }).jsonString)
                    try insertSearch.bind(9, search.filters)
                    try insertSearch.bind(10, JSONValue.array(search.hits.map { .string($0) }).jsonString)
                    try insertSearch.bind(11, Int64(search.weight))
                    try insertSearch.run()
                }
                let insertEvent = try db.statement("INSERT INTO events(index_name, at, event) VALUES (?, ?, ?)")
                for stored in events {
                    insertEvent.reset()
                    try insertEvent.bind(1, stored.event.indexName)
                    try insertEvent.bind(2, stored.at)
                    try insertEvent.bind(3, stored.event.jsonValue.jsonString)
                    try insertEvent.run()
                }
            }
        }
    }

    /// Removes what is older than `before` (milliseconds) or dated more than a day ahead, then
    /// the oldest searches past `maximumSearches`, and the oldest events past as many.
    func prune(before: Int64, after: Int64, maximumSearches: Int) throws(SearchError) {
        try withConnection { db in
            try db.transaction {
                for table in ["searches", "events"] {
                    let old = try db.statement("DELETE FROM \(table) WHERE at < ? OR at > ?")
                    try old.bind(1, before)
                    try old.bind(2, after)
                    try old.run()
                    let excess = try db.statement("""
                        DELETE FROM \(table) WHERE id <= (SELECT id FROM \(table) ORDER BY id DESC LIMIT 1 OFFSET ?)
                        """)
                    try excess.bind(1, Int64(maximumSearches))
                    try excess.run()
                }
            }
        }
    }

    /// The counted searches of an index from `start` to before `end` (milliseconds), oldest first.
    func searches(of indexName: String, from start: Int64, to end: Int64) throws(SearchError) -> [CountedSearch] {
        try withConnection { db in
            try db.readTransaction {
                let select = try db.statement("""
                    SELECT at, query, normalized, nb_hits, user_token, query_id, tags, filters, hits, weight FROM searches
                    WHERE index_name = ? AND at >= ? AND at < ? ORDER BY at, id
                    """)
                try select.bind(1, indexName)
                try select.bind(2, start)
                try select.bind(3, end)
                var result: [CountedSearch] = []
                while try select.step() {
                    result.append(CountedSearch(
                        indexName: indexName, at: select.int64(0), query: select.string(1), normalized: select.string(2),
                        nbHits: Int(select.int64(3)), userToken: select.string(4), queryID: select.optionalString(5),
                        tags: AnalyticsStore.strings(select.string(6)), filters: select.optionalString(7),
                        hits: AnalyticsStore.strings(select.string(8)), weight: Int(max(1, select.int64(9)))))
                }
                return result
            }
        }
    }

    /// The events about an index from `start` to before `end` (milliseconds), oldest first.
    func events(of indexName: String, from start: Int64, to end: Int64) throws(SearchError) -> [StoredEvent] {
        try withConnection { db in
            try db.readTransaction {
                let select = try db.statement("SELECT at, event FROM events WHERE index_name = ? AND at >= ? AND at < ? ORDER BY at, id")
                try select.bind(1, indexName)
                try select.bind(2, start)
                try select.bind(3, end)
                var result: [StoredEvent] = []
                while try select.step() {
                    if let json = try? JSONValue(parsing: select.string(1)), let event = try? InsightsEvent(json: json) {
                        result.append(StoredEvent(event: event, at: select.int64(0)))
                    }
                }
                return result
            }
        }
    }

    /// `weight` came after the first databases were made: added where missing.
    private static func addWeightColumn(_ db: SQLiteConnection) throws {
        let columns = try db.statement("PRAGMA table_info(searches)")
        var names: [String] = []
        while try columns.step() { names.append(columns.string(1)) }
        columns.reset()
        if !names.contains("weight") { try db.execute("ALTER TABLE searches ADD COLUMN weight INTEGER NOT NULL DEFAULT 1") }
    }

    private static func strings(_ text: String) -> [String] {
        ((try? JSONValue(parsing: text))?.arrayValue ?? []).compactMap(\.stringValue)
    }
}
