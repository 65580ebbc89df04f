import Foundation
import SearchAPI

// Writing: what a change is, the steps of its transaction (records, the change log, settings,
// marks), the background checkpoints that fold the write-ahead log in, and pruning the log.
// The layer above runs the transaction (`LiveIndex.write`) and derives the index from it.
extension RecordStore {
    // MARK: Writing

    /// What a write changes; applied in one transaction (`LiveIndex.write`).
    struct Change {
        /// Remove every record first (`--replace`, `clear`).
        var clearFirst = false
        /// Records to add or replace, by objectID (each already has its string `objectID`).
        var upserts: [JSONObject] = []
        /// More records to add or replace, read a batch at a time while the write runs (an
        /// import too large to hold parsed at once): each call returns the next batch, nil after
        /// the last; throwing rejects the whole change. The index is derived anew.
        var upsertBatches: (() throws(SearchError) -> RecordBatch?)?
        /// About how many records `upsertBatches` gives in all, when the caller can tell (an
        /// import, from the bytes its first batch took): the index's largest columns are then
        /// made that size at once rather than grown by doubling, each growth a copy.
        var expectedBatchedRecords: Int?

        /// Records and, when already made (off the writer's thread), their stored JSON text.
        struct RecordBatch: Sendable {
            var records: [JSONObject]
            /// Each record's body as stored, or empty: the writer makes it.
            var bodies: [[UInt8]] = []
        }
        /// objectIDs to delete.
        var deletions: [String] = []
        /// Records to delete by rowid (delete by filter).
        var deletedRowIDs: [Int64] = []
        /// How the settings change, when they do: given the settings stored at the start of the
        /// write transaction (whatever any process committed last), the new ones. Throwing
        /// rejects the whole change. Read, modified and written under the database's write
        /// lock, so concurrent changes from several processes all land.
        var updateSettings: (@Sendable (IndexSettings) throws(SearchError) -> IndexSettings)?
        /// How the rules change, when they do: given the rules stored at the start of the write
        /// transaction, the new ones (as `updateSettings` does for the settings).
        var updateRules: (@Sendable ([JSONObject]) throws(SearchError) -> [JSONObject])?
        /// The generation the change was computed from (the rowids of a delete by filter): when
        /// another process committed since, nothing is written and `write` returns nil.
        var expectedGeneration: Int64?
        /// Derive the index anew after the write, however small (the caller's in-memory base is
        /// small next to the change: an import into an empty index).
        var deriveAnew = false
        /// A replica's write of what its primary changed: written only when the replica still
        /// holds `expected`, and it then holds `new`. Any other write of records removes the
        /// mark (the records are no longer exactly the primary's at that generation).
        var markUpdate: MarkUpdate?
        /// Remove the mark even though no record changes (a replica detached from its primary).
        var forgetsPrimaryMark = false

        struct MarkUpdate {
            var expected: PrimaryMark?
            var new: PrimaryMark
        }

        /// How many records the change saves or deletes by name (streamed ones not counted).
        var size: Int { upserts.count + deletions.count + deletedRowIDs.count }

        /// Whether the change writes records (or removes them).
        var writesRecords: Bool { clearFirst || size > 0 || upsertBatches != nil }
    }

    /// The error of a write to a read-only index.
    var readOnlyError: SearchError {
        let reason = accessMode == .immutable ? "its folder cannot be written" : "it was opened read-only"
        return SearchError(.internalError, "Cannot write to the index at \(path): \(reason); searching works, writing does not", status: 403)
    }

    // MARK: Within a write

    /// Starts a write: the writer is claimed until `endWrite` (its owner serializes writes;
    /// see `claimWriter`). Throws, claiming nothing, when the index is read-only or its file was
    /// deleted or replaced since it was opened (checked when the write's turn comes: a write
    /// queued behind another is checked then).
    func beginWrite() throws(SearchError) {
        guard writerConnection != nil else { throw readOnlyError }
        claimWriter()
        guard isStillAtPath else {
            releaseWriter()
            throw replacedError
        }
    }

    func endWrite() { releaseWriter() }

    /// Runs `body` in one transaction of the writer, between `beginWrite` and `endWrite`:
    /// committed when it returns, rolled back when it throws. Waits for another process's
    /// write up to `SQLiteConnection.busyTimeoutMilliseconds`, then fails.
    func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
        try writer.transaction(body)
    }

    /// Maps whatever a write threw to the error its caller reports.
    func writeError(_ error: any Error) -> SearchError {
        RecordStore.storageError(error, action: "write to the index at \(path)")
    }

    /// The generation last committed, read by the writer within its transaction.
    func writtenGeneration() throws -> Int64 { try RecordStore.readGeneration(writer) }

    /// The settings stored, read by the writer within its transaction (whatever any process
    /// committed last).
    func writtenSettings() throws -> IndexSettings { try RecordStore.readSettings(writer) }

    func writeSettings(_ settings: IndexSettings) throws {
        let statement = try writer.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('settings', ?)")
        try statement.bind(1, JSONValue.object(settings.values).jsonString)
        try statement.run()
    }

    /// Replaces a replica's mark of its primary with `new`, when it is still `expected`
    /// (false, nothing written, when it is not).
    func replacePrimaryMark(expected: PrimaryMark?, with new: PrimaryMark) throws -> Bool {
        guard try RecordStore.readPrimaryMark(writer) == expected else { return false }
        let statement = try writer.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('mirrorOf', ?)")
        try statement.bind(1, new.stored)
        try statement.run()
        return true
    }

    /// Removes a replica's mark of its primary (its records are no longer exactly the primary's).
    func forgetPrimaryMark() throws {
        // A prepared statement: this runs on every write of records.
        try writer.statement("DELETE FROM meta WHERE key = 'mirrorOf'").run()
    }

    /// Removes every record and their FTS5 rows. Not logged row by row: the change logs start
    /// again at `generation`.
    func removeAllRecords(generation: Int64) throws {
        try writer.execute("""
            DELETE FROM records; DELETE FROM removed_records; DELETE FROM removed_objects;
            INSERT INTO search_text (search_text) VALUES ('delete-all');
            INSERT OR REPLACE INTO meta (key, value) VALUES ('logStart', '\(generation)'), ('objectLogStart', '\(generation)');
            """)
    }

    /// Marks the write's generation as the one committed, and when.
    func stampGeneration(_ generation: Int64) throws {
        let bump = try writer.statement("""
            INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?), ('updatedAt', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            """)
        try bump.bind(1, String(generation))
        try bump.run()
    }

    /// The stored records as the writer sees them within its transaction (`RecordScan`).
    var writtenRecords: RecordScan { RecordScan(connection: writer) }

    /// Counts the records of a small write toward the next background checkpoint, and starts
    /// one when enough were written (`checkpointEvery`).
    func countTowardCheckpoint(_ records: Int) {
        recordsSinceCheckpoint += max(1, records)
        if recordsSinceCheckpoint >= RecordStore.checkpointEvery {
            recordsSinceCheckpoint = 0
            checkpointInBackground()
        }
    }

    /// Stores how long the last derivation of the index took (`lastBuildTimeS`). Best effort,
    /// after a commit, without waiting for another process's write.
    func recordBuildTime(seconds: Int64) {
        writer.withoutBusyWait {
            do {
                try writer.transaction {
                    let buildTime = try writer.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('lastBuildTimeS', ?)")
                    try buildTime.bind(1, String(seconds))
                    try buildTime.run()
                }
            } catch {
                bestEffortWriteFailed.value = true
            }
        }
    }

    /// Folds the write-ahead log into the database file after a large write (`TRUNCATE`), so
    /// readers find every page in the database and the files on disk do not hold the data
    /// twice; written without a journal, syncs the file instead. On its own connection, for
    /// another thread. Best effort, without waiting: another process's reader (a long rebuild)
    /// would otherwise hold the write for the whole busy timeout, and one holding an old
    /// snapshot only delays it to a later checkpoint. The file is not created: an index deleted
    /// meanwhile stays deleted.
    static func foldLog(ofDatabaseAt path: String, journal: Journal) {
        guard journal == .writeAheadLog else { return syncFile(path) }
        guard let connection = try? SQLiteConnection(path: path, create: false) else { return }
        connection.withoutBusyWait { try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// How many records small writes save or delete between two background checkpoints (about
    /// SQLite's automatic checkpoint of 1,000 pages, with a record, its FTS5 rows and the change
    /// log's index taking a few pages).
    static let checkpointEvery = 256

    /// Folds the write-ahead log into the database on a background thread. The writer does not
    /// checkpoint by itself (`wal_autocheckpoint = 0`): SQLite's automatic checkpoint, every
    /// 1,000 pages, made one write in about 60 pay for copying them (5–10 ms more at 100k records,
    /// see `Benchmarks/README.md`). PASSIVE: it never waits for a reader or a writer, and copies
    /// what it can; a later one, or the last connection to close, does the rest.
    func checkpointInBackground() {
        // Without a journal there is no log; and nothing may hold the file built aside open.
        guard journal == .writeAheadLog else { return }
        let start = checkpointState.modify { state -> Bool in
            if state.running { state.pending = true; return false }
            state.running = true
            return true
        }
        guard start else { return }
        Thread.detachNewThread { [self] in
            repeat {
                checkpointState.modify { $0.pending = false }
                if checkpointer == nil { checkpointer = try? SQLiteConnection(path: path, create: false) }
                if let connection = checkpointer {
                    connection.withoutBusyWait { try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)") }
                }
            } while checkpointState.modify { state -> Bool in
                if state.pending { return true }
                state.running = false
                return false
            }
        }
    }

    /// Once a derived file of generation `generation` is stored, the change log before it is
    /// needed by nobody who can use it: opening reads the file, then the log after it; a process
    /// whose index is older than the log's start reads the file too (`catchUp`). So the rowid log
    /// is pruned up to it, and so is the objectID log when the index has no replicas (a replica
    /// whose mark is older than that log's start gets every record again). Best effort, without
    /// waiting for another process's write; `removed_records` and `removed_objects` then hold
    /// the deletions since the last merge, not since the index was made. Called by the writer's
    /// user (within a write, or under the owner's write lock).
    func pruneLogs(upTo generation: Int64, hasReplicas: Bool) {
        guard writerConnection != nil else { return }
        writer.withoutBusyWait {
            do {
                try writer.transaction {
                    let stored = try RecordStore.readLogStart(writer) ?? 0
                    guard generation > stored else { return }
                    try writer.execute("""
                        DELETE FROM removed_records WHERE generation <= \(generation);
                        UPDATE meta SET value = '\(generation)' WHERE key = 'logStart';
                        """)
                    if !hasReplicas {
                        try writer.execute("""
                            DELETE FROM removed_objects WHERE generation <= \(generation);
                            UPDATE meta SET value = '\(generation)' WHERE key = 'objectLogStart' AND CAST(value AS INTEGER) < \(generation);
                            """)
                    }
                }
            } catch {
                bestEffortWriteFailed.value = true
            }
        }
    }

    /// fsync of a file by path (best effort: a missing file has nothing to sync).
    static func syncFile(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Deletes records by objectID and by rowid, logged at `generation`; their FTS5 rows too,
    /// made by `text`, unless the text table is being rebuilt (`text` nil).
    func applyDeletions(_ objectIDs: [String], rowIDs: [Int64], text: TextLayout?, generation: Int64) throws {
        guard !objectIDs.isEmpty || !rowIDs.isEmpty else { return }
        let byObjectID = try writer.statement("SELECT rowid, body, object_id FROM records WHERE object_id = ?")
        let byRowID = try writer.statement("SELECT rowid, body, object_id FROM records WHERE rowid = ?")
        let deleteRecord = try writer.statement("DELETE FROM records WHERE rowid = ?")
        let logRemoval = try writer.statement("INSERT OR REPLACE INTO removed_records (rowid, generation) VALUES (?, ?)")
        let logObjectRemoval = try writer.statement("INSERT OR REPLACE INTO removed_objects (object_id, generation) VALUES (?, ?)")
        let textWriter = try text.map { layout throws in try textTableWriter(levelCount: layout.levelCount) }
        func delete(found statement: SQLiteStatement) throws {
            guard try statement.step() else { return }
            let rowID = statement.int64(0)
            let objectID = statement.string(2)
            if let text, let textWriter, let old = try statement.withBytes(1, { try JSONValue(parsingUTF8: $0) }).objectValue {
                try textWriter.delete(rowID: rowID, text.columns(old), record: 0)
            }
            statement.reset()
            deleteRecord.reset()
            try deleteRecord.bind(1, rowID)
            try deleteRecord.run()
            logRemoval.reset()
            try logRemoval.bind(1, rowID)
            try logRemoval.bind(2, generation)
            try logRemoval.run()
            logObjectRemoval.reset()
            try logObjectRemoval.bind(1, objectID)
            try logObjectRemoval.bind(2, generation)
            try logObjectRemoval.run()
        }
        for objectID in objectIDs {
            byObjectID.reset()
            try byObjectID.bind(1, objectID)
            try delete(found: byObjectID)
        }
        for rowID in rowIDs {
            byRowID.reset()
            try byRowID.bind(1, rowID)
            try delete(found: byRowID)
        }
    }

    /// What `upsertRecords` wrote: the records by rowid, in order, and the records they replaced.
    struct WrittenRecords {
        var records: [Int64: JSONObject] = [:]
        var order: [Int64] = []
        var replaced: [Int64: JSONObject] = [:]
        /// Each record's rowid, by position in the records given (0: not stored).
        var rowIDs: [Int64] = []

        /// Each stored rowid's position in the records given: of a rowid given twice (an
        /// objectID repeated), the later record is the one stored.
        var positionsKept: [Int64: Int] {
            var kept: [Int64: Int] = [:]
            for (position, rowID) in rowIDs.enumerated() where rowID != 0 { kept[rowID] = position }
            return kept
        }
    }

    /// The largest rowid stored (0 for none): rows above it that a write adds are new.
    func largestRowID() throws -> Int64 {
        let statement = try writer.statement("SELECT coalesce(max(rowid), 0) FROM records")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// Adds or replaces records by objectID in the records table.
    /// `written.replaced` holds the records replaced among the rowids up to `existingUpTo`
    /// (default: the largest stored now; rows above it are new and have no FTS5 row to remove).
    /// `bodies`, when not empty, are the records' JSON text, made beforehand.
    func upsertRecords(_ records: [JSONObject], bodies: [[UInt8]] = [], keepOldRecords: Bool, generation: Int64,
                               existingUpTo: Int64? = nil) throws -> WrittenRecords {
        var written = WrittenRecords()
        guard !records.isEmpty else { return written }
        written.records.reserveCapacity(records.count)
        let largestRowID = try existingUpTo ?? self.largestRowID()
        let findOld = try writer.statement("SELECT rowid, body FROM records WHERE object_id = ?")
        // Without RETURNING (which makes SQLite gather the rows aside, per call): a new row's
        // rowid is the connection's last insert rowid, which changes with every insert; when it
        // did not change, the row was updated and keeps its rowid, read back by objectID.
        let upsert = try writer.statement("""
            INSERT INTO records (object_id, body, generation) VALUES (?, ?, ?)
            ON CONFLICT (object_id) DO UPDATE SET body = excluded.body, generation = excluded.generation
            """)
        let findRowID = try writer.statement("SELECT rowid FROM records WHERE object_id = ?")
        written.rowIDs = [Int64](repeating: 0, count: records.count)
        for (position, record) in records.enumerated() {
            guard let objectID = record["objectID"]?.stringValue else { continue }
            if keepOldRecords, largestRowID > 0 {
                // The replaced record's text, for removing its FTS5 row (kept from its first version
                // when the batch repeats an objectID: that is the row FTS5 holds).
                findOld.reset()
                try findOld.bind(1, objectID)
                if try findOld.step() {
                    let rowID = findOld.int64(0)
                    if rowID <= largestRowID, written.replaced[rowID] == nil,
                       let old = try findOld.withBytes(1, { try JSONValue(parsingUTF8: $0) }).objectValue {
                        written.replaced[rowID] = old
                    }
                }
                findOld.reset()
            }
            upsert.reset()
            try upsert.bind(1, objectID)
            try upsert.bind(2, text: bodies.isEmpty ? JSONValue.object(record).jsonBytes : bodies[position])
            try upsert.bind(3, generation)
            let lastBefore = writer.lastInsertRowID
            try upsert.run()
            var rowID = writer.lastInsertRowID
            if rowID == lastBefore {
                findRowID.reset()
                try findRowID.bind(1, objectID)
                guard try findRowID.step() else { throw SQLiteError(code: 0, message: "the record \(objectID) just stored is not there") }
                rowID = findRowID.int64(0)
                findRowID.reset()
            }
            written.rowIDs[position] = rowID
            if written.records.updateValue(record, forKey: rowID) == nil { written.order.append(rowID) }
        }
        return written
    }
}
