import Foundation
import SearchAPI

/// The index derived from a store's records: loaded from its file beside the database or built
/// from the records, caught up with the writes committed since (the change log), finished and
/// stored after a write. What the store holds is read as plain values (`RecordStore`'s
/// `readCommitted`, `changes(since:)`); the derived file is this layer's (`SnapshotFile`).
struct DerivedIndex {
    let store: RecordStore


    /// The index as committed now: the stored derived file when it is valid (derived from the
    /// current settings, at a generation the change log covers), brought up to date with the
    /// writes committed since; else derived anew from the records. One process rebuilds at a
    /// time (a `flock` on `NAME.index.derived.lock`): the others wait, then read the file it
    /// stored. Read-only, the index is derived in memory and nothing is written beside the
    /// database.
    func currentState() throws(SearchError) -> IndexState {
        if let stored = try loadState() { return stored }
        guard !store.isReadOnly else { return IndexState(base: try buildSnapshot().snapshot) }
        let lock = RebuildLock(path: store.derivedPath + ".lock")
        defer { lock.unlock() }
        // Another process may have stored it while this one waited.
        if lock.waited, let stored = try loadState() { return stored }
        let (snapshot, _) = try buildSnapshot()
        // Storing prunes the change log, as a writer: this runs when the index opens, or as it
        // catches up under its owner's write lock, never within a write.
        store.claimWriter()
        defer { store.releaseWriter() }
        return IndexState(base: storeSnapshot(snapshot).snapshot)
    }

    /// Stores a merged base's derived file and returns it (mapped when stored), and whether it
    /// was stored; not when the index is read-only, nor when a newer derived file was stored
    /// meanwhile (a write that derived the index whole: its file must stay). Runs beside
    /// writes, so the change log is left as it is: the caller prunes it, as a writer
    /// (`pruneLogs`), once the file is stored.
    func storeMerged(_ snapshot: IndexSnapshot) -> (snapshot: IndexSnapshot, stored: Bool) {
        guard !store.isReadOnly else { return (snapshot, false) }
        if let logStart = try? store.logStart(), logStart > snapshot.generation { return (snapshot, false) }
        return storeSnapshot(snapshot, prunesLogs: false)
    }

    /// `state` brought up to date with the writes committed since its generation, reading only
    /// what they changed (the change log); the whole index again (`currentState`) when the log
    /// does not reach back that far, or the settings changed.
    /// `written`: the segment a write of this process built of its records (`Written.logged`),
    /// used when that write is the only one since `state`.
    func catchUp(_ state: IndexState, written: LiveIndex.WrittenSegment? = nil) throws(SearchError) -> IndexState {
        guard let changes = try store.changes(since: state.generation, settings: state.configuration.settings,
                                              knowing: written?.generation) else { return try currentState() }
        guard changes.generation != state.generation else { return state }
        guard let upserts = changes.upserts else {
            return state.applying(generation: changes.generation, removedRowIDs: changes.removedRowIDs, written: try written?.snapshot())
        }
        return state.applying(generation: changes.generation, removedRowIDs: changes.removedRowIDs, upserts: upserts)
    }

    /// How many times this process built the derived index of each database path from its
    /// records outside a write (for tests).
    static let rebuilds = LockedValue<[String: Int]>([:])

    /// The stored derived index brought up to date, if the file matches the current settings
    /// and was derived at a generation from which the change log is complete.
    func loadState() throws(SearchError) -> IndexState? {
        let (generation, settings, logStart) = try store.committedMetadata()
        let configuration = try IndexConfiguration(settings: settings)
        let oldest = logStart ?? generation
        guard let base = SnapshotFile.read(from: store.derivedPath, indexID: store.indexID, configuration: configuration,
                                           generations: oldest...max(oldest, generation)) else { return nil }
        return try catchUp(IndexState(base: base))
    }

    /// Builds the derived index from the records, settings and generation of one committed state,
    /// reading the records a batch at a time (the parsed records are not all held at once).
    func buildSnapshot() throws(SearchError) -> (snapshot: IndexSnapshot, generation: Int64) {
        var (generation, accumulator) = try store.readCommitted { generation, settings, records throws -> (Int64, SnapshotAccumulator) in
            var accumulator = SnapshotAccumulator(configuration: try IndexConfiguration(settings: settings), spillFrom: SnapshotAccumulator.spillFrom, spillBeside: store.derivedPath)
            try DerivedIndex.accumulate(records, into: &accumulator)
            return (generation, accumulator)
        }
        DerivedIndex.rebuilds.modify { $0[store.path, default: 0] += 1 }
        SnapshotAccumulator.returnFreedMemory()
        return (try accumulator.finish(generation: generation), generation)
    }

    /// Adds stored records to `accumulator`, a batch at a time: every record, or with
    /// `generation` only those written before it, and those in `known` (just written, by rowid,
    /// not parsed again); with `lastRowID`, only the rows up to it (`RecordScan.forEach`). With
    /// `texts`, each record's FTS5 text columns from the same tokenization are handed to it.
    static func accumulate(_ records: RecordStore.RecordScan, into accumulator: inout SnapshotAccumulator,
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
        // No ORDER BY: the order of documents is decided at the end.
        var batch: [SnapshotBuilder.Input] = []
        batch.reserveCapacity(RecordStore.batchSize)
        try records.forEach(before: generation, upTo: lastRowID, known: known) { record in
            batch.append(record)
            if batch.count == RecordStore.batchSize {
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
    /// up with it later (`LiveIndex.followCommittedWrites`).
    func finishCommitted(_ accumulator: consuming SnapshotAccumulator, generation: Int64,
                                 started: ContinuousClock.Instant) -> IndexSnapshot? {
        let (path, journal) = (store.path, store.journal)
        // The log folded into the database file (or, built aside without a journal, the file
        // synced before it is put in place) while the index is laid out.
        let checkpoint = BackgroundWork<Void> { RecordStore.foldLog(ofDatabaseAt: path, journal: journal) }
        // The derived file is begun now: its first part is written while the rest is laid out.
        let writing = store.isStillAtPath ? try? SnapshotFile.Writing(to: store.derivedPath) : nil
        var laidOut: IndexSnapshot?
        do {
            laidOut = try accumulator.finish(generation: generation, writing: writing)
        } catch {
            _ = consume accumulator
        }
        checkpoint.wait()
        guard let snapshot = laidOut ?? (try? buildSnapshot().snapshot) else { return nil }
        let stored = storeSnapshot(snapshot, continuing: laidOut != nil ? writing : nil).snapshot
        store.recordBuildTime(seconds: (ContinuousClock.now - started).components.seconds)
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
        guard store.isStillAtPath else { return (snapshot, false) }
        do {
            // The commits the snapshot was derived from reach the disk before the file does: with
            // `processCrash` durability (no fsync per commit) a power loss could otherwise keep a
            // derived file of a generation whose commit was lost, and a different write committed
            // later at that generation would be answered from it.
            RecordStore.syncFile(store.path + "-wal")
            let (size, checksum): (Int, UInt64)
            if let writing, writing.partsEncoded == 1 {
                writing.encode { snapshot.encodeTail(into: &$0) }
                (size, checksum) = try writing.finish(indexID: store.indexID, generation: snapshot.generation)
                store.derivedFilesWrittenInParts.modify { $0 += 1 }
            } else {
                (size, checksum) = try SnapshotFile.write(snapshot, indexID: store.indexID, to: store.derivedPath)
            }
            if prunesLogs { store.pruneLogs(upTo: snapshot.generation, hasReplicas: !snapshot.configuration.replicas.isEmpty) }
            guard size >= DerivedIndex.mapStoredFrom,
                  let mapped = SnapshotFile.read(from: store.derivedPath, indexID: store.indexID, configuration: snapshot.configuration,
                                                 generations: snapshot.generation...snapshot.generation, writtenChecksum: checksum)
            else { return (snapshot, true) }
            return (mapped, true)
        } catch {
            SnapshotFile.remove(at: store.derivedPath)
            return (snapshot, false)
        }
    }

    /// The size of a stored derived file from which the index searched is the mapped file
    /// rather than the arrays just built (below it, reading the file again costs more than the
    /// memory it gives back).
    static let mapStoredFrom = 1 << 20
}
