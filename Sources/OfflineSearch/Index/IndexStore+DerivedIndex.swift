import Foundation
import SearchAPI

// The derived index of a store: loaded from its file or built from the records, caught up with
// the writes committed since, finished and stored after a write.
extension IndexStore {
    /// The index as committed now: the stored derived file when it is valid (derived from the
    /// current settings, at a generation the change log covers), brought up to date with the
    /// writes committed since; else derived anew from the records. One process rebuilds at a
    /// time (a `flock` on `NAME.index.derived.lock`): the others wait, then read the file it
    /// stored. Read-only, the index is derived in memory and nothing is written beside the
    /// database.
    func currentState() throws(SearchError) -> IndexState {
        if let stored = try loadState() { return stored }
        guard !isReadOnly else { return IndexState(base: try buildSnapshot().snapshot) }
        let lock = RebuildLock(path: derivedPath + ".lock")
        defer { lock.unlock() }
        // Another process may have stored it while this one waited.
        if lock.waited, let stored = try loadState() { return stored }
        let (snapshot, _) = try buildSnapshot()
        // Storing prunes the change log, as a writer: this runs when the index opens, or as it
        // catches up under its owner's write lock, never within a write.
        claimWriter()
        defer { releaseWriter() }
        return IndexState(base: storeSnapshot(snapshot).snapshot)
    }

    /// Stores a merged base's derived file and returns it (mapped when stored), and whether it
    /// was stored; not when the index is read-only, nor when a newer derived file was stored
    /// meanwhile (a write that derived the index whole: its file must stay). Runs beside
    /// writes, so the change log is left as it is: the caller prunes it, as a writer
    /// (`pruneLogs`), once the file is stored.
    func storeMerged(_ snapshot: IndexSnapshot) -> (snapshot: IndexSnapshot, stored: Bool) {
        guard !isReadOnly else { return (snapshot, false) }
        let logStart = try? withReader { connection in try IndexStore.readLogStart(connection) }
        if let logStart, logStart > snapshot.generation { return (snapshot, false) }
        return storeSnapshot(snapshot, prunesLogs: false)
    }

    /// `state` brought up to date with the writes committed since its generation, reading only
    /// what they changed (the change log); the whole index again (`currentState`) when the log
    /// does not reach back that far, or the settings changed.
    /// `written`: the segment a write of this process built of its records (`Written.logged`),
    /// used when that write is the only one since `state`.
    func catchUp(_ state: IndexState, written: WrittenSegment? = nil) throws(SearchError) -> IndexState {
        let changes = try withReader { connection in
            try connection.readTransaction { () -> (Int64, [Int64], [SnapshotBuilder.Input]?)? in
                let generation = try IndexStore.readGeneration(connection)
                guard generation != state.generation else { return (generation, [], []) }
                guard let logStart = try IndexStore.readLogStart(connection), logStart <= state.generation,
                      try IndexStore.readSettings(connection) == state.configuration.settings else { return nil }
                let removed = try IndexStore.readRemovals(connection, since: state.generation)
                if let written, written.generation == generation, generation == state.generation + 1 { return (generation, removed, nil) }
                return (generation, removed, try IndexStore.readRecords(connection, since: state.generation))
            }
        }
        guard let (generation, removed, upserts) = changes else { return try currentState() }
        guard generation != state.generation else { return state }
        guard let upserts else { return state.applying(generation: generation, removedRowIDs: removed, written: try written?.snapshot()) }
        return state.applying(generation: generation, removedRowIDs: removed, upserts: upserts)
    }

    /// How many times this process built the derived index of each database path from its
    /// records outside a write (for tests).
    static let rebuilds = LockedValue<[String: Int]>([:])

    /// The stored derived index brought up to date, if the file matches the current settings
    /// and was derived at a generation from which the change log is complete.
    func loadState() throws(SearchError) -> IndexState? {
        let (generation, settings, logStart) = try withReader { connection in
            try connection.readTransaction {
                (try IndexStore.readGeneration(connection), try IndexStore.readSettings(connection), try IndexStore.readLogStart(connection))
            }
        }
        let configuration = try IndexConfiguration(settings: settings)
        let oldest = logStart ?? generation
        guard let base = SnapshotFile.read(from: derivedPath, indexID: indexID, configuration: configuration,
                                           generations: oldest...max(oldest, generation)) else { return nil }
        return try catchUp(IndexState(base: base))
    }

    /// Builds the derived index from the records, settings and generation of one committed state,
    /// reading the records a batch at a time (the parsed records are not all held at once).
    func buildSnapshot() throws(SearchError) -> (snapshot: IndexSnapshot, generation: Int64) {
        var (generation, accumulator) = try withReader { connection in
            try connection.readTransaction { () throws -> (Int64, SnapshotAccumulator) in
                let generation = try IndexStore.readGeneration(connection)
                var accumulator = SnapshotAccumulator(configuration: try IndexConfiguration(settings: try IndexStore.readSettings(connection)), spillFrom: SnapshotAccumulator.spillFrom, spillBeside: derivedPath)
                try IndexStore.accumulateStored(connection, into: &accumulator)
                return (generation, accumulator)
            }
        }
        IndexStore.rebuilds.modify { $0[path, default: 0] += 1 }
        SnapshotAccumulator.returnFreedMemory()
        return (try accumulator.finish(generation: generation), generation)
    }

    /// Adds stored records to `accumulator`, a batch at a time: every record, or with
    /// `generation` only those written before it, and those in `known` (just written, by rowid,
    /// not parsed again); with `lastRowID`, only the rows up to it. With `texts`, each record's
    /// FTS5 text columns from the same tokenization are handed to it.
    static func accumulateStored(_ connection: SQLiteConnection, into accumulator: inout SnapshotAccumulator,
                                         before generation: Int64? = nil, upTo lastRowID: Int64? = nil,
                                         known: [Int64: JSONObject] = [:],
                                         texts: ((Int64, TextColumns, Int) throws -> Void)? = nil) throws {
        // Each batch is tokenized on another thread while this one reads (parses) the next and
        // hands the texts of the one before to `texts`.
        let accumulation = BackgroundAccumulation<[Int64]>(taking: &accumulator, texts: texts != nil)
        func store(_ tokenized: (texts: TextColumns, tag: [Int64])?) throws {
            guard let tokenized, let texts else { return }
            for (record, rowID) in tokenized.tag.enumerated() { try texts(rowID, tokenized.texts, record) }
        }
        // No ORDER BY: the order of documents is decided at the end. A scan in rowid order (the
        // whole table, or a range of rowids) is what SQLite does fastest: a range of the
        // generation index would read each row by a lookup.
        let statement = try connection.statement(lastRowID == nil ? "SELECT rowid, generation, body FROM records"
                                                                  : "SELECT rowid, generation, body FROM records WHERE rowid <= ?")
        if let lastRowID { try statement.bind(1, lastRowID) }
        var batch: [SnapshotBuilder.Input] = []
        batch.reserveCapacity(batchSize)
        while try statement.step() {
            let rowID = statement.int64(0)
            if let record = known[rowID] {
                batch.append(SnapshotBuilder.Input(rowID: rowID, record: record))
            } else {
                if let generation, statement.int64(1) >= generation { continue }
                let value = try statement.withBytes(2) { try JSONValue(parsingUTF8: $0) }
                guard case .object(let object) = value else { continue }
                batch.append(SnapshotBuilder.Input(rowID: rowID, record: object))
            }
            if batch.count == batchSize {
                try store(accumulation.add(batch, tag: batch.map(\.rowID)))
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try store(accumulation.add(batch, tag: batch.map(\.rowID))) }
        try store(accumulation.waitForBatchInFlight())
        accumulator = accumulation.take()
    }

    /// The index a committed write derived anew: laid out from what the write accumulated (3 to
    /// 4 s at 1M records) while another thread checkpoints the write-ahead log the write filled
    /// (2 to 3 s at 1M: every page copied into the database, which is then synced), then stored;
    /// the time the whole took is then `lastBuildTimeS`. Runs within the write. Should the
    /// layout fail (its temporary file), the index is derived again from what is committed; nil
    /// when that fails too: the write is committed all the same, and the in-memory index catches
    /// up with it later (`SearchIndex.followCommittedWrites`).
    func finishCommitted(_ accumulator: consuming SnapshotAccumulator, generation: Int64,
                                 started: ContinuousClock.Instant) -> IndexSnapshot? {
        let path = self.path
        // The checkpoint moves the log into the database file, so readers find every page in the
        // (memory-mapped) database and the files on disk do not hold the data twice. Best effort,
        // without waiting: another process's reader (a long rebuild) would otherwise hold this
        // write for the whole busy timeout, and one holding an old snapshot only delays it to a
        // later checkpoint. The file is not created: an index deleted meanwhile stays deleted.
        let journal = self.journal
        let checkpoint = BackgroundWork<Void> {
            // Written without a journal (built aside): no log to fold, but the pages to sync
            // before the file is put in place, as a checkpoint would sync them.
            guard journal == .writeAheadLog else { return IndexStore.syncFile(path) }
            guard let connection = try? SQLiteConnection(path: path, create: false) else { return }
            connection.withoutBusyWait { try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        // The derived file is begun now: its first part is written while the rest is laid out.
        let writing = isStillAtPath ? try? SnapshotFile.Writing(to: derivedPath) : nil
        var laidOut: IndexSnapshot?
        do {
            laidOut = try accumulator.finish(generation: generation, writing: writing)
        } catch {
            _ = consume accumulator
        }
        checkpoint.wait()
        guard let snapshot = laidOut ?? (try? buildSnapshot().snapshot) else { return nil }
        let stored = storeSnapshot(snapshot, continuing: laidOut != nil ? writing : nil).snapshot
        writer.withoutBusyWait {
            do {
                try writer.transaction {
                    let buildTime = try writer.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('lastBuildTimeS', ?)")
                    try buildTime.bind(1, String((ContinuousClock.now - started).components.seconds))
                    try buildTime.run()
                }
            } catch {
                bestEffortWriteFailed.value = true
            }
        }
        return stored
    }

    /// Writes the derived index file after a commit. Best effort: when it cannot be written,
    /// the stale file is removed and the next open rebuilds it from the records. With `writing`
    /// holding the snapshot's first part (`SnapshotAccumulator.finish`), the file is finished
    /// from it.
    ///
    /// `prunesLogs`: whether the change log before the snapshot is then pruned (`pruneLogs`),
    /// which only the writer's user may do: within a write, when opening, or catching up
    /// under the owner's write lock.
    ///
    /// - Returns: the snapshot to search: for a large index, the file just stored, mapped (its
    ///   large arrays are then pages of the file that the system can drop, not memory of this
    ///   process: a process that writes keeps the footprint of one that opened the file); else
    ///   `snapshot` itself. And whether the file was stored.
    func storeSnapshot(_ snapshot: IndexSnapshot, prunesLogs: Bool = true,
                       continuing writing: SnapshotFile.Writing? = nil) -> (snapshot: IndexSnapshot, stored: Bool) {
        // The derived file beside a database deleted (or made again) meanwhile is another
        // index's business: neither written nor removed.
        guard isStillAtPath else { return (snapshot, false) }
        do {
            // The commits the snapshot was derived from reach the disk before the file does: with
            // `processCrash` durability (no fsync per commit) a power loss could otherwise keep a
            // derived file of a generation whose commit was lost, and a different write committed
            // later at that generation would be answered from it.
            IndexStore.syncFile(path + "-wal")
            let (size, checksum): (Int, UInt64)
            if let writing, writing.partsEncoded == 1 {
                writing.encode { snapshot.encodeTail(into: &$0) }
                (size, checksum) = try writing.finish(indexID: indexID, generation: snapshot.generation)
                derivedFilesWrittenInParts.modify { $0 += 1 }
            } else {
                (size, checksum) = try SnapshotFile.write(snapshot, indexID: indexID, to: derivedPath)
            }
            if prunesLogs { pruneLogs(upTo: snapshot.generation, configuration: snapshot.configuration) }
            guard size >= IndexStore.mapStoredFrom,
                  let mapped = SnapshotFile.read(from: derivedPath, indexID: indexID, configuration: snapshot.configuration,
                                                 generations: snapshot.generation...snapshot.generation, writtenChecksum: checksum)
            else { return (snapshot, true) }
            return (mapped, true)
        } catch {
            SnapshotFile.remove(at: derivedPath)
            return (snapshot, false)
        }
    }

    /// The size of a stored derived file from which the index searched is the mapped file
    /// rather than the arrays just built (below it, reading the file again costs more than the
    /// memory it gives back).
    static let mapStoredFrom = 1 << 20
}
