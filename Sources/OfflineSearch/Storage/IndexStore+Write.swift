import Foundation
import SearchAPI

// Writing: a change committed in one transaction (records, the change log, settings), the
// background checkpoints that fold the write-ahead log in, and pruning the log.
extension IndexStore {
    // MARK: Writing

    /// What a write changes; applied in one transaction by `write`.
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
        /// The generation the change was computed from (the rowids of a delete by filter): when
        /// another process committed since, nothing is written and `write` returns nil.
        var expectedGeneration: Int64?
        /// Derive the index anew after the write, however small (the caller's in-memory base is
        /// small next to the change: an import into an empty index).
        var deriveAnew = false
        /// A replica's write of what its primary changed: written only when the replica still
        /// holds `expected`, and it then holds `new`. Any other write of records removes the
        /// mark (the records are no longer exactly the primary's at that generation).
        var mirror: Mirror?
        /// Remove the mark even though no record changes (a replica detached from its primary).
        var forgetsMirror = false

        struct Mirror {
            var expected: MirrorMark?
            var new: MirrorMark
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

    /// What a committed write left for the in-memory index.
    enum Written {
        /// The index was derived anew from every record (a clear, new settings, a large write).
        case rebuilt(IndexSnapshot)
        /// The records changed are in the change log, at this generation; `written` is the
        /// segment of the records added or replaced, tokenized by the write (nil when it wrote
        /// none): `catchUp` takes it rather than reading them back.
        case logged(generation: Int64, written: WrittenSegment?)
    }

    /// Applies a change in one transaction. A small write is logged (its records carry the new
    /// generation; deletions go to `removed_records`) and the caller catches up with it; a
    /// clear, a settings change or a large write also derives the index anew and stores it.
    /// When anything throws, nothing of the change is kept. Waits for another process's write
    /// up to `SQLiteConnection.busyTimeoutMilliseconds`, then fails.
    func write(_ change: Change) throws(SearchError) -> Written {
        guard let written = try writeIfCurrent(change) else {
            throw SearchError(.internalError, "The index at \(path) changed while the write was prepared; try again")
        }
        return written
    }

    /// `write`, or nil (nothing written) when the stored generation is not the change's
    /// `expectedGeneration`.
    func writeIfCurrent(_ change: Change) throws(SearchError) -> Written? {
        let started = ContinuousClock.now
        guard writerConnection != nil else { throw readOnlyError }
        claimWriter()
        defer { releaseWriter() }
        // When its turn comes: a write queued behind another is checked then.
        guard isStillAtPath else { throw replacedError }
        // Held until the new derived file is stored, when free: a process that sees this commit
        // before the file is there waits for it instead of rebuilding it too. Never waited for
        // (a long rebuild elsewhere must not hold up writes).
        let derivedLock = RebuildLock(path: derivedPath + ".lock", wait: false)
        defer { derivedLock.unlock() }
        // A write that derives the index anew: what it accumulated, to lay out once committed.
        var accumulated: (SnapshotAccumulator, Int64)?
        do {
            do {
                let written = try writer.transaction { () -> Written? in
                    let stored = try IndexStore.readGeneration(writer)
                    if let expected = change.expectedGeneration, stored != expected { return nil }
                    let generation = stored + 1
                    let previous = try IndexStore.readSettings(writer)
                    let settings = try change.updateSettings?(previous) ?? previous
                    let configuration = try IndexConfiguration(settings: settings)
                    let previousConfiguration = try IndexConfiguration(settings: previous)
                    // A new tokenizer (`separatorsToIndex`) also needs a new table; comparing with the
                    // table's declaration catches an index whose setting was stored before it applied.
                    let tokenizerMatches = try textTableTokenizes(with: configuration.separators)
                    let rebuildText = previousConfiguration.levelCount != configuration.levelCount
                        || previous.searchableAttributes != settings.searchableAttributes
                        || previousConfiguration.separators != configuration.separators
                        || !tokenizerMatches
                    let rebuild = change.deriveAnew || change.clearFirst || settings != previous || rebuildText
                        || change.size > IndexState.deltaLimit   // as a merge would right after it
                        || change.upsertBatches != nil
                    if let mirror = change.mirror {
                        guard try IndexStore.readMirrorMark(writer) == mirror.expected else { return nil }
                        let statement = try writer.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('mirrorOf', ?)")
                        try statement.bind(1, mirror.new.stored)
                        try statement.run()
                    } else if change.forgetsMirror || change.writesRecords {
                        // A prepared statement: this runs on every write of records.
                        try writer.statement("DELETE FROM meta WHERE key = 'mirrorOf'").run()
                    }
                    if change.updateSettings != nil {
                        let statement = try writer.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('settings', ?)")
                        try statement.bind(1, JSONValue.object(settings.values).jsonString)
                        try statement.run()
                    }
                    try ensureTextTable(levelCount: configuration.levelCount, separators: configuration.separators, recreate: rebuildText)
                    if change.clearFirst {
                        // Not logged row by row: the log starts again after the clear.
                        try writer.execute("""
                            DELETE FROM records; DELETE FROM removed_records; DELETE FROM removed_objects;
                            INSERT INTO search_text (search_text) VALUES ('delete-all');
                            INSERT OR REPLACE INTO meta (key, value) VALUES ('logStart', '\(generation)'), ('objectLogStart', '\(generation)');
                            """)
                    }
                    // With the text table recreated, there are no old FTS5 rows to remove.
                    let textConfiguration = rebuildText ? nil : configuration
                    try applyDeletions(change.deletions, rowIDs: change.deletedRowIDs, textConfiguration: textConfiguration,
                                       generation: generation)
                    var streamed = try change.upsertBatches.map { next throws in
                        try streamUpserts(next, expecting: change.expectedBatchedRecords, keepOldRecords: textConfiguration != nil,
                                          configuration: configuration, generation: generation)
                    }
                    // A logged write's records are tokenized once, for their segment and their FTS5
                    // text; many of them on another thread while they are stored.
                    let segmentWork = rebuild ? nil : SegmentWork(change.upserts, configuration: configuration)
                    defer { segmentWork?.waitForTokens() }
                    let written = try upsertRecords(change.upserts, keepOldRecords: textConfiguration != nil, generation: generation)
                    let bump = try writer.statement("""
                        INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?), ('updatedAt', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                        """)
                    try bump.bind(1, String(generation))
                    try bump.run()
                    guard rebuild else {
                        let segment = try segmentWork.map { work throws in
                            try writeText(written, work, configuration: configuration, generation: generation)
                        }
                        return .logged(generation: generation, written: segment)
                    }
                    // The records not streamed (every record when none was) go through the same
                    // accumulator, a batch at a time; their text too when the text table is new.
                    // Moved out of `streamed`: held twice, the builder's per-record data could not be
                    // released as `finish` lays the index out.
                    var accumulator = streamed?.accumulator ?? SnapshotAccumulator(configuration: configuration, spillFrom: SnapshotAccumulator.spillFrom, spillBeside: derivedPath)
                    let textsNeedRefill = streamed?.textsNeedRefill == true
                    let wasStreamed = streamed != nil
                    // The rows past it are the stream's (already accumulated) or `written`'s: not
                    // read again (an import into a new index reads none).
                    let storedUpTo = streamed.map { max($0.storedBefore, written.order.max() ?? 0) }
                    streamed = nil
                    // The FTS5 text, from the same tokenization: every record's into a new table,
                    // else the written records' (a replaced record's old row removed first).
                    let insert = try writer.statement(IndexStore.textSQL(levelCount: configuration.levelCount, delete: false))
                    let storeText = { [self] (rowID: Int64, texts: TextColumns, record: Int) throws in
                        if !rebuildText {
                            guard written.records[rowID] != nil else { return }
                            if let old = written.replaced[rowID] { try deleteText(rowID: rowID, old, configuration: configuration) }
                        }
                        try IndexStore.runText(insert, rowID: rowID, texts: texts, record: record)
                    }
                    try IndexStore.accumulateStored(writer, into: &accumulator, before: wasStreamed ? generation : nil, upTo: storedUpTo,
                                                    known: written.records,
                                                    texts: rebuildText || !written.records.isEmpty ? storeText : nil)
                    if textsNeedRefill { try refillText(configuration: configuration) }
                    SnapshotAccumulator.returnFreedMemory()
                    // Laid out once committed (below), while the log is checkpointed: this
                    // result only says the transaction committed, and is replaced there.
                    accumulated = (accumulator, generation)
                    return .logged(generation: generation, written: nil)
                }
                guard let written else { return nil }
                if let (accumulator, generation) = accumulated.take() {
                    // Committed: whatever happens now, the write is not reported as failed.
                    guard let snapshot = finishCommitted(consume accumulator, generation: generation, started: started) else {
                        return .logged(generation: generation, written: nil)
                    }
                    return .rebuilt(snapshot)
                } else {
                    recordsSinceCheckpoint += max(1, change.size)
                    if recordsSinceCheckpoint >= IndexStore.checkpointEvery {
                        recordsSinceCheckpoint = 0
                        checkpointInBackground()
                    }
                }
                return written
            } catch {
                throw IndexStore.storageError(error, action: "write to the index at \(path)")
            }
        }
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
    func pruneLogs(upTo generation: Int64, configuration: IndexConfiguration) {
        guard writerConnection != nil else { return }
        writer.withoutBusyWait {
            do {
                try writer.transaction {
                    let stored = try IndexStore.readLogStart(writer) ?? 0
                    guard generation > stored else { return }
                    try writer.execute("""
                        DELETE FROM removed_records WHERE generation <= \(generation);
                        UPDATE meta SET value = '\(generation)' WHERE key = 'logStart';
                        """)
                    if configuration.replicas.isEmpty {
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

    /// What `streamUpserts` leaves: the streamed records accumulated, and whether the text
    /// table must be filled again (an objectID came twice in the stream, in different batches:
    /// its first text row is stored, and a contentless table can remove it only given that text).
    struct StreamedRecords {
        var accumulator: SnapshotAccumulator
        var textsNeedRefill: Bool
        /// The largest rowid before the stream: every row past it was stored by the stream.
        var storedBefore: Int64
    }

    /// Writes streamed records a batch at a time: each batch's records into the table on this
    /// thread, while the batch before is tokenized once, on a second thread, into both the
    /// index's per-record data and its FTS5 text, which this thread then stores. One batch of
    /// parsed records (two, in flight) is held at a time.
    func streamUpserts(_ next: () throws(SearchError) -> Change.RecordBatch?, expecting expectedCount: Int?, keepOldRecords: Bool,
                               configuration: IndexConfiguration, generation: Int64) throws -> StreamedRecords {
        var accumulator = SnapshotAccumulator(configuration: configuration, spillFrom: SnapshotAccumulator.spillFrom, spillBeside: derivedPath)
        accumulator.expectedInputs = expectedCount
        let accumulation = BackgroundAccumulation<WrittenRecords>(taking: &accumulator, texts: true)
        let existingUpTo = try largestRowID()
        let insert = try writer.statement(IndexStore.textSQL(levelCount: configuration.levelCount, delete: false))
        /// Each streamed rowid's position in the accumulator.
        var positions: [Int64: Int] = [:]
        var added = 0
        var superseded: [Int] = []
        var textsNeedRefill = false

        /// Stores a batch's texts, tokenized on the other thread.
        func store(_ tokenized: (texts: TextColumns, tag: WrittenRecords)?) throws {
            guard let (texts, written) = tokenized, !textsNeedRefill else { return }
            for (record, rowID) in written.order.enumerated() {
                if let old = written.replaced[rowID] { try deleteText(rowID: rowID, old, configuration: configuration) }
                try IndexStore.runText(insert, rowID: rowID, texts: texts, record: record)
            }
        }

        while let batch = try next() {
            let written = try upsertRecords(batch.records, bodies: batch.bodies, keepOldRecords: keepOldRecords,
                                            generation: generation, existingUpTo: existingUpTo)
            let inputs = written.order.map { SnapshotBuilder.Input(rowID: $0, record: written.records[$0]!) }
            for (offset, rowID) in written.order.enumerated() {
                if let previous = positions.updateValue(added + offset, forKey: rowID) {
                    superseded.append(previous)
                    textsNeedRefill = true
                }
            }
            added += inputs.count
            // This batch is tokenized on the other thread while the texts of the one before are
            // stored on this one.
            try store(accumulation.add(inputs, tag: written))
        }
        try store(accumulation.waitForBatchInFlight())
        accumulator = accumulation.take()
        for position in superseded { accumulator.supersede(inputAt: position) }
        return StreamedRecords(accumulator: accumulator, textsNeedRefill: textsNeedRefill, storedBefore: existingUpTo)
    }

    /// Deletes records by objectID and by rowid; their FTS5 rows too, unless the text table is
    /// being rebuilt (`textConfiguration` nil).
    func applyDeletions(_ objectIDs: [String], rowIDs: [Int64], textConfiguration: IndexConfiguration?,
                                generation: Int64) throws {
        guard !objectIDs.isEmpty || !rowIDs.isEmpty else { return }
        let byObjectID = try writer.statement("SELECT rowid, body, object_id FROM records WHERE object_id = ?")
        let byRowID = try writer.statement("SELECT rowid, body, object_id FROM records WHERE rowid = ?")
        let deleteRecord = try writer.statement("DELETE FROM records WHERE rowid = ?")
        let logRemoval = try writer.statement("INSERT OR REPLACE INTO removed_records (rowid, generation) VALUES (?, ?)")
        let logObjectRemoval = try writer.statement("INSERT OR REPLACE INTO removed_objects (object_id, generation) VALUES (?, ?)")
        func delete(found statement: SQLiteStatement) throws {
            guard try statement.step() else { return }
            let rowID = statement.int64(0)
            let objectID = statement.string(2)
            if let textConfiguration, let old = try statement.withBytes(1, { try JSONValue(parsingUTF8: $0) }).objectValue {
                try deleteText(rowID: rowID, old, configuration: textConfiguration)
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
