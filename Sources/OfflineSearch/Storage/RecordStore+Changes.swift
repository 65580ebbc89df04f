import Foundation
import SearchAPI

// Reading what was committed, for the layer that derives the index from it: one committed
// state's records, a batch at a time; what the writes since a generation changed (the change
// log); the metadata that says whether a derived file is still valid.
extension RecordStore {
    /// The stored records, read on one connection within its transaction (one committed state,
    /// or the writer's own within a write).
    struct RecordScan {
        fileprivate let connection: SQLiteConnection

        init(connection: SQLiteConnection) {
            self.connection = connection
        }

        /// Calls `body` with each stored record, in the order SQLite scans the table (rowid
        /// order: what it does fastest, where a range of the generation index would read each
        /// row by a lookup): every record, or with `before` only those written before that
        /// generation and those in `known` (just written, by rowid: not parsed again); with
        /// `upTo`, only the rows up to that rowid.
        func forEach(before generation: Int64? = nil, upTo lastRowID: Int64? = nil, known: [Int64: JSONObject] = [:],
                     _ body: (StoredRecord) throws -> Void) throws {
            let statement = try connection.statement(lastRowID == nil ? "SELECT rowid, generation, body FROM records"
                                                                      : "SELECT rowid, generation, body FROM records WHERE rowid <= ?")
            if let lastRowID { try statement.bind(1, lastRowID) }
            while try statement.step() {
                let rowID = statement.int64(0)
                if let record = known[rowID] {
                    try body(StoredRecord(rowID: rowID, record: record))
                } else {
                    if let generation, statement.int64(1) >= generation { continue }
                    let value = try statement.withBytes(2) { try JSONValue(parsingUTF8: $0) }
                    guard case .object(let object) = value else { continue }
                    try body(StoredRecord(rowID: rowID, record: object))
                }
            }
        }
    }

    /// Runs `body` within one read transaction with the generation and settings committed, and
    /// the records of that state (`RecordScan`).
    func readCommitted<T>(_ body: (_ generation: Int64, _ settings: IndexSettings, _ records: RecordScan) throws -> T) throws(SearchError) -> T {
        try withReader { connection in
            try connection.readTransaction {
                try body(try RecordStore.readGeneration(connection), try RecordStore.readSettings(connection), RecordScan(connection: connection))
            }
        }
    }

    /// What says whether a derived file is valid, read in one transaction: the generation and
    /// settings committed, and where the change log starts (nil for an index never logged).
    func committedMetadata() throws(SearchError) -> (generation: Int64, settings: IndexSettings, logStart: Int64?) {
        try withReader { connection in
            try connection.readTransaction {
                (try RecordStore.readGeneration(connection), try RecordStore.readSettings(connection), try RecordStore.readLogStart(connection))
            }
        }
    }

    /// The first generation the rowid change log covers (nil for an index never logged).
    func logStart() throws(SearchError) -> Int64? {
        try withReader { connection in try RecordStore.readLogStart(connection) }
    }

    /// What the writes committed after a generation changed.
    struct CommittedChanges {
        /// The generation committed now.
        var generation: Int64
        /// The rows removed since (deleted, or replaced by a row of another rowid).
        var removedRowIDs: [Int64]
        /// The records written since, in rowid order (the order of first insertion); nil when
        /// not read (`changes(since:settings:knowing:)`).
        var upserts: [StoredRecord]?
    }

    /// What the writes committed after `generation` changed, read in one transaction from the
    /// change log; nil when the log does not reach back that far or the settings are no longer
    /// `settings` (whatever was derived at `generation` must be derived anew). The records
    /// written are not read when the caller holds them: `knowing` is the generation of a write
    /// it made, and that write is the only one since.
    func changes(since generation: Int64, settings: IndexSettings, knowing known: Int64? = nil) throws(SearchError) -> CommittedChanges? {
        try withReader { connection in
            try connection.readTransaction { () -> CommittedChanges? in
                let committed = try RecordStore.readGeneration(connection)
                guard committed != generation else { return CommittedChanges(generation: committed, removedRowIDs: [], upserts: []) }
                guard let logStart = try RecordStore.readLogStart(connection), logStart <= generation,
                      try RecordStore.readSettings(connection).isIdentical(to: settings) else { return nil }
                let removed = try RecordStore.readRemovals(connection, since: generation)
                if let known, known == committed, committed == generation + 1 {
                    return CommittedChanges(generation: committed, removedRowIDs: removed, upserts: nil)
                }
                return CommittedChanges(generation: committed, removedRowIDs: removed,
                                        upserts: try RecordStore.readRecords(connection, since: generation))
            }
        }
    }
}
