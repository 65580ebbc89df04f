import Foundation
import SearchAPI

/// The durable side of one index: a SQLite database holding the records, the settings and an
/// FTS5 table of the searchable text (the source of truth), plus the derived index in a file
/// beside it (a cache of what the records determine). The only code that knows the schema.
///
/// Writes go through one connection under a lock and one transaction each; reads of record
/// bodies go through a pool of read connections (WAL lets them run beside a write).
final class IndexStore: @unchecked Sendable {
    // @unchecked: `writer` is only touched under `writeLock`; the pool array only under
    // `poolLock`, the watch state only under `watchLock`, each pooled connection is used
    // by one caller at a time, `recordsSinceCheckpoint` only under `writeLock`, and
    // `checkpointer` only by the one checkpoint thread running.
    let path: String
    /// The derived index beside the database (see `SnapshotFile`).
    let derivedPath: String
    /// The random id the database got at its creation: the derived file must carry it.
    let indexID: String
    /// How the files are opened.
    let accessMode: Access
    /// How writes reach the database file.
    let journal: Journal
    /// Whether a best-effort write (after a commit: pruning the log, the build time) failed.
    /// Without a journal a failed write may leave torn pages, so a database built aside with one
    /// is not put in place (`SearchEngine.importRecords(into:from:)`).
    let bestEffortWriteFailed = LockedValue(false)
    /// How many derived files this store finished from a first part written during the layout
    /// (`SnapshotAccumulator.finish(generation:writing:)`), rather than wrote whole.
    let derivedFilesWrittenInParts = LockedValue(0)
    /// The file the connections opened: another process (or engine) that deletes the index,
    /// or deletes it and makes it again, leaves this store on a file no longer at `path`.
    private let fileIdentity: FileIdentity?
    private let writerConnection: SQLiteConnection?
    private let writeLock = NSLock()
    private let poolLock = NSLock()
    private var pool: [SQLiteConnection] = []
    private let watchLock = NSLock()
    private var watcher: SQLiteConnection?
    private var watchedDataVersion: Int64 = -1
    private var watchedGeneration: Int64 = -1
    /// Whether a background checkpoint runs, and whether another was asked for meanwhile.
    private let checkpointState = LockedValue((running: false, pending: false))
    /// Records written by small writes since the last background checkpoint (under `writeLock`).
    private var recordsSinceCheckpoint = 0
    /// The background checkpoint's own connection: only the checkpoint thread uses it, one at a
    /// time (`checkpointState.running`), and it captures the store until it is done.
    private var checkpointer: SQLiteConnection?

    /// How an index's files are opened.
    enum Access: Sendable {
        /// Read and written (the default where the folder and the file are writable).
        case readWrite
        /// Read only, through SQLite's read-only connections: writes fail with a clear error,
        /// and the derived index is only read, never written beside the database. Other
        /// processes may still write: their commits are followed.
        case readOnly
        /// Read only, and the files taken as unchanging (SQLite's `immutable`): no shared-memory
        /// file, no lock. What a folder without write permission (a read-only file system, an
        /// app bundle) gets, since SQLite cannot open a WAL database there otherwise.
        case immutable
    }

    /// How writes reach the database file.
    enum Journal: Sendable {
        /// Through SQLite's write-ahead log: every commit atomic and durable, readers in other
        /// processes beside the writer. What every index in a data folder uses.
        case writeAheadLog
        /// Straight into the file, no journal at all (each page written once, not once into the
        /// log and again by a checkpoint). Only for a database no other connection can see,
        /// built aside and thrown away if anything fails: an import into a new index
        /// (`SearchEngine.importRecords(into:from:)`), which switches the file back to the
        /// write-ahead log before it puts it in place.
        case noneWhileBuiltAside
    }

    /// Opens the index at `path`, creating it when it does not exist (unless read-only).
    /// `readOnly` asks for read-only access; it is also what a folder or database file without
    /// write permission gets (`immutable` when the folder cannot be written).
    init(path: String, readOnly: Bool = false, durability: SearchEngine.Durability = .processCrash,
         journal: Journal = .writeAheadLog, immutableForTesting: Bool = false) throws(SearchError) {
        self.path = path
        self.journal = journal
        derivedPath = IndexStore.derivedPath(forDatabaseAt: path)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let exists = FileManager.default.fileExists(atPath: path)
        let folderWritable = access(folder, W_OK) == 0
        if immutableForTesting || (!folderWritable && !FileManager.default.fileExists(atPath: path + "-wal")) {
            accessMode = .immutable
        } else if readOnly || !folderWritable || (exists && access(path, W_OK) != 0) {
            accessMode = .readOnly
        } else {
            accessMode = .readWrite
        }
        // Read before the connections open: a file replaced while they open then differs from
        // it, and the engine opens the index again at its next lookup.
        var identity: FileIdentity?
        do {
            if accessMode == .readWrite {
                // Temporary files of a rebuild or a creation killed half-way.
                TemporaryFile.removeStale(of: derivedPath)
                TemporaryFile.removeStale(of: path)
                let existed = try IndexStore.prepareDatabaseFile(at: path)
                identity = FileIdentity(path: path)
                let writer = try SQLiteConnection(path: path)
                if existed {
                    try IndexStore.checkSchema(writer, path: path)
                    try IndexStore.migrateIfNeeded(writer)
                }
                switch journal {
                case .writeAheadLog:
                    try writer.execute(durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
                    // Checkpoints run off the write path (`checkpointInBackground`).
                    try writer.execute("PRAGMA wal_autocheckpoint = 0")
                case .noneWhileBuiltAside:
                    // Out of WAL mode while this is the file's only connection (the readers open
                    // below). With power-loss durability the file is synced at the commit.
                    try writer.execute("PRAGMA journal_mode = OFF")
                    try writer.execute(durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = OFF")
                }
                writerConnection = writer
            } else {
                guard exists else {
                    throw SearchError(.indexNotFound, "The index at \(path) does not exist, and it cannot be created: the data folder is read-only",
                                      status: 404)
                }
                if let damage = IndexStore.damage(ofDatabaseAt: path) { throw IndexStore.damaged(path, damage) }
                identity = FileIdentity(path: path)
                writerConnection = nil
            }
            let reader = try IndexStore.openReader(path: path, immutable: accessMode == .immutable)
            if writerConnection == nil { try IndexStore.checkSchema(reader, path: path) }
            let statement = try reader.statement("SELECT value FROM meta WHERE key = 'indexID'")
            indexID = try statement.step() ? statement.string(0) : ""
            reader.resetStatements()
            pool = [reader]
            // Opened now, as the reader is, so that a search never has to open the database: a
            // search through this index goes on answering if its folder is moved or removed
            // (the engine's lookups then answer not found, and writes are refused).
            watcher = try IndexStore.openReader(path: path, immutable: accessMode == .immutable)
            (watchedDataVersion, watchedGeneration) = try IndexStore.watch(watcher!, dataVersion: -1, generation: -1)
        } catch {
            throw IndexStore.storageError(error, action: "open the index at \(path)")
        }
        fileIdentity = identity
    }

    /// Where the derived file of the database at `path` is: `NAME.index.derived` beside
    /// `NAME.index.sqlite` (its lock file adds `.lock`).
    static func derivedPath(forDatabaseAt path: String) -> String {
        (path.hasSuffix(".sqlite") ? String(path.dropLast(".sqlite".count)) : path) + ".derived"
    }

    /// A file's device and inode.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// Whether the file at `path` is still the one this store opened: not once the index was
    /// deleted, or deleted and made again (by this engine, another one, another process), or
    /// its folder moved or removed. One `stat`. Takes the device and inode numbers as stable
    /// while a file is open, as local file systems keep them (SQLite's WAL mode needs a local
    /// file system anyway).
    var isStillAtPath: Bool {
        fileIdentity != nil && FileIdentity(path: path) == fileIdentity
    }

    /// The error of a write through a store whose file was deleted or replaced since it was
    /// opened: written, it would be lost with the unlinked file.
    var replacedError: SearchError {
        SearchError(.indexNotFound, "The index at \(path) was deleted (or deleted and made again, or its folder moved) since "
            + "it was opened; nothing was written. Open it again (SearchEngine.index) to write to the index there now",
                    status: 404)
    }

    deinit {
        // The readers close first: the last connection to close folds the write-ahead log into
        // the database and removes it, and a read-only one cannot.
        watchLock.withLock { watcher = nil }
        poolLock.withLock { pool.removeAll() }
        checkpointer = nil
    }

    var isReadOnly: Bool { accessMode != .readWrite }

    /// The writer, for code that runs under `writeLock` after `write` checked there is one.
    private var writer: SQLiteConnection { writerConnection! }

    static func storageError(_ error: any Error, action: String) -> SearchError {
        if let searchError = error as? SearchError { return searchError }
        if let sqliteError = error as? SQLiteError, isDamage(sqliteError) {
            return SearchError(.internalError, "Could not \(action): the database is damaged (\(sqliteError.message)). Restore it from a backup, or delete it and import the records again")
        }
        if let sqliteError = error as? SQLiteError, SQLiteConnection.isBusy(sqliteError) {
            let seconds = SQLiteConnection.busyTimeoutMilliseconds / 1000
            return SearchError(.internalError, "Could not \(action): another process kept it locked for more than \(seconds) s "
                + "(an import or a settings change still running?); nothing was changed. Try again when it is done", status: 503)
        }
        if let sqliteError = error as? SQLiteError, SQLiteConnection.isReadOnly(sqliteError) {
            return SearchError(.internalError, "Could not \(action): the database is read-only (\(sqliteError.message))", status: 403)
        }
        return SearchError(.internalError, "Could not \(action): \(error)")
    }

    // MARK: Reading

    func generation() throws(SearchError) -> Int64 {
        try withReader { connection in try IndexStore.readGeneration(connection) }
    }

    private static func readGeneration(_ connection: SQLiteConnection) throws -> Int64 {
        try metaValue(connection, "generation").flatMap { Int64($0) } ?? 0
    }

    /// The value of a `meta` row, nil when there is none.
    private static func metaValue(_ connection: SQLiteConnection, _ key: String) throws -> String? {
        let statement = try connection.statement("SELECT value FROM meta WHERE key = ?")
        try statement.bind(1, key)
        defer { statement.reset() }
        return try statement.step() ? statement.string(0) : nil
    }

    /// What list-indices reports of the stored index.
    struct Statistics {
        var createdAt: String
        var updatedAt: String
        /// The size of the record bodies, in bytes.
        var dataSize: Int
        /// The index's files on disk (database, write-ahead log, derived index), in bytes.
        var fileSize: Int
        var lastBuildTimeS: Int
    }

    func statistics() throws(SearchError) -> Statistics {
        let (meta, dataSize) = try withReader { connection in
            try connection.readTransaction {
                var meta: [String: String] = [:]
                let rows = try connection.statement("SELECT key, value FROM meta WHERE key IN ('createdAt', 'updatedAt', 'lastBuildTimeS')")
                while try rows.step() { meta[rows.string(0)] = rows.string(1) }
                let size = try connection.statement("SELECT coalesce(sum(length(CAST(body AS BLOB))), 0) FROM records")
                return (meta, try size.step() ? Int(size.string(0)) ?? 0 : 0)
            }
        }
        var fileSize = 0
        for file in [path, path + "-wal", derivedPath] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            fileSize += (attributes?[.size] as? NSNumber)?.intValue ?? 0
        }
        let createdAt = meta["createdAt"] ?? ""
        return Statistics(createdAt: createdAt, updatedAt: meta["updatedAt"] ?? createdAt, dataSize: dataSize,
                          fileSize: fileSize, lastBuildTimeS: meta["lastBuildTimeS"].flatMap { Int($0) } ?? 0)
    }

    func settings() throws(SearchError) -> IndexSettings {
        try withReader { connection in try IndexStore.readSettings(connection) }
    }

    private static func readSettings(_ connection: SQLiteConnection) throws -> IndexSettings {
        let statement = try connection.statement("SELECT value FROM meta WHERE key = 'settings'")
        guard try statement.step() else { return IndexSettings() }
        let text = statement.string(0)
        guard case .object(let object) = try JSONValue(parsing: text) else { return IndexSettings() }
        return IndexSettings(stored: object)
    }

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
        return IndexState(base: storeSnapshot(snapshot))
    }

    /// Stores a merged base's derived file and returns it (mapped when stored); not when the
    /// index is read-only, nor when a newer derived file was stored meanwhile (a write that
    /// derived the index whole: its file must stay).
    func storeMerged(_ snapshot: IndexSnapshot) -> IndexSnapshot {
        guard !isReadOnly else { return snapshot }
        let logStart = try? withReader { connection in try IndexStore.readLogStart(connection) }
        if let logStart, logStart > snapshot.generation { return snapshot }
        return storeSnapshot(snapshot)
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

    // MARK: Replicas

    /// Which state of its primary a replica holds: the primary's `indexID` and the generation
    /// of the primary's last write applied here (the replica's meta `mirrorOf`, written in the
    /// same transaction as the records it brings).
    struct MirrorMark: Equatable, Sendable {
        var primaryID: String
        var generation: Int64

        var stored: String { "\(primaryID):\(generation)" }

        init(primaryID: String, generation: Int64) {
            self.primaryID = primaryID
            self.generation = generation
        }

        init?(stored: String) {
            guard let colon = stored.lastIndex(of: ":"), let generation = Int64(stored[stored.index(after: colon)...]) else { return nil }
            self.init(primaryID: String(stored[..<colon]), generation: generation)
        }
    }

    /// The state of its primary this index holds as a replica (nil when it never mirrored one).
    func mirrorMark() throws(SearchError) -> MirrorMark? {
        try withReader { connection in try IndexStore.readMirrorMark(connection) }
    }

    private static func readMirrorMark(_ connection: SQLiteConnection) throws -> MirrorMark? {
        try metaValue(connection, "mirrorOf").flatMap(MirrorMark.init(stored:))
    }

    /// Runs `body` with what a replica holding `mark` of this index lacks, as one change, and the
    /// mark it holds after it, inside the read transaction that reads it; nil (and `body` not
    /// run) when the replica is up to date. From the change log when it reaches back to `mark`
    /// (the records written since and the objectIDs deleted since: proportional to the change);
    /// else (another primary, a clear since, no mark) every record, replacing the replica's.
    /// More records than `IndexState.deltaLimit` are read a batch at a time while `body` writes
    /// them (`Change.upsertBatches`): copying a large primary holds a batch, not every record.
    func withChangeForReplica<T>(holding mark: MirrorMark?, _ body: (Change, MirrorMark) throws(SearchError) -> T) throws(SearchError) -> T? {
        let indexID = self.indexID
        let path = self.path
        return try withReader { connection in
            try connection.readTransaction { () throws -> T? in
                let generation = try IndexStore.readGeneration(connection)
                let current = MirrorMark(primaryID: indexID, generation: generation)
                if mark == current { return nil }
                let logStart = try IndexStore.metaValue(connection, "objectLogStart").flatMap { Int64($0) }
                /// The records written after `since` (every record without), in rowid order (the
                /// order of first insertion), a batch at a time.
                func batches(after since: Int64?) throws -> () throws(SearchError) -> Change.RecordBatch? {
                    let statement = try connection.statement("SELECT generation, body FROM records")
                    // Stepped again after its last row, SQLite would start the statement over.
                    var done = false
                    return { () throws(SearchError) -> Change.RecordBatch? in
                        do {
                            var batch = Change.RecordBatch(records: [])
                            while !done, batch.records.count < IndexStore.batchSize {
                                guard try statement.step() else {
                                    done = true
                                    break
                                }
                                if let since, statement.int64(0) <= since { continue }
                                if let record = try statement.withBytes(1, { try JSONValue(parsingUTF8: $0) }).objectValue {
                                    batch.records.append(record)
                                }
                            }
                            return batch.records.isEmpty ? nil : batch
                        } catch {
                            throw IndexStore.storageError(error, action: "read the index at \(path)")
                        }
                    }
                }
                // The objectID log alone tells what a replica lacks (a clear moves its start too);
                // the rowid log may start later (`pruneLogs`).
                if let mark, mark.primaryID == indexID, mark.generation < generation, let logStart, logStart <= mark.generation {
                    let deleted = try connection.statement("SELECT object_id FROM removed_objects WHERE generation > ?")
                    try deleted.bind(1, mark.generation)
                    var deletions: [String] = []
                    while try deleted.step() { deletions.append(deleted.string(0)) }
                    let counted = try connection.statement("SELECT count(*) FROM records WHERE generation > ?")
                    try counted.bind(1, mark.generation)
                    if try counted.step(), counted.int64(0) > IndexState.deltaLimit {
                        var change = Change(deletions: deletions)
                        change.upsertBatches = try batches(after: mark.generation)
                        return try body(change, current)
                    }
                    let upserts = try IndexStore.readRecords(connection, since: mark.generation).map(\.record)
                    return try body(Change(upserts: upserts, deletions: deletions), current)
                }
                var change = Change(clearFirst: true)
                change.upsertBatches = try batches(after: nil)
                return try body(change, current)
            }
        }
    }

    private static func readLogStart(_ connection: SQLiteConnection) throws -> Int64? {
        try metaValue(connection, "logStart").flatMap { Int64($0) }
    }

    private static func readRemovals(_ connection: SQLiteConnection, since generation: Int64) throws -> [Int64] {
        let statement = try connection.statement("SELECT rowid FROM removed_records WHERE generation > ?")
        try statement.bind(1, generation)
        var rowIDs: [Int64] = []
        while try statement.step() { rowIDs.append(statement.int64(0)) }
        return rowIDs
    }

    /// The records written after `generation`, in the order of their first insertion.
    private static func readRecords(_ connection: SQLiteConnection, since generation: Int64) throws -> [SnapshotBuilder.Input] {
        let statement = try connection.statement("SELECT rowid, body FROM records WHERE generation > ?")
        try statement.bind(1, generation)
        var inputs: [SnapshotBuilder.Input] = []
        while try statement.step() {
            let value = try statement.withBytes(1) { try JSONValue(parsingUTF8: $0) }
            guard case .object(let object) = value else { continue }
            inputs.append(SnapshotBuilder.Input(rowID: statement.int64(0), record: object))
        }
        // Sorted here: `ORDER BY rowid` makes SQLite scan the whole table in rowid order rather
        // than read the generation index and sort (16 ms a write at 100k records).
        inputs.sort { $0.rowID < $1.rowID }
        return inputs
    }

    /// How many times this process built the derived index of each database path from its
    /// records outside a write (for tests).
    static let rebuilds = LockedValue<[String: Int]>([:])

    /// The stored derived index brought up to date, if the file matches the current settings
    /// and was derived at a generation from which the change log is complete.
    private func loadState() throws(SearchError) -> IndexState? {
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
    private func buildSnapshot() throws(SearchError) -> (snapshot: IndexSnapshot, generation: Int64) {
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

    /// Every record with its rowid, in rowid order (copying an index; tests).
    func allRecords() throws(SearchError) -> [SnapshotBuilder.Input] {
        try withReader { connection in
            try connection.readTransaction { try IndexStore.readAllRecords(connection) }
        }
    }

    /// Every record with its rowid, in rowid order.
    private static func readAllRecords(_ connection: SQLiteConnection) throws -> [SnapshotBuilder.Input] {
        let statement = try connection.statement("SELECT rowid, body FROM records ORDER BY rowid")
        var inputs: [SnapshotBuilder.Input] = []
        while try statement.step() {
            let value = try statement.withBytes(1) { try JSONValue(parsingUTF8: $0) }
            guard case .object(let object) = value else { continue }
            inputs.append(SnapshotBuilder.Input(rowID: statement.int64(0), record: object))
        }
        return inputs
    }

    /// How many records a batch holds when records are streamed (an import, a rebuild): the
    /// parsed records of one batch are what such a write holds at a time.
    static let batchSize = 8_192

    /// Adds stored records to `accumulator`, a batch at a time: every record, or with
    /// `generation` only those written before it, and those in `known` (just written, by rowid,
    /// not parsed again); with `lastRowID`, only the rows up to it. With `texts`, each record's
    /// FTS5 text columns from the same tokenization are handed to it.
    private static func accumulateStored(_ connection: SQLiteConnection, into accumulator: inout SnapshotAccumulator,
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

    /// The bodies the given rows had at `generation`, read in one transaction; nil when a write
    /// committed since changed or removed one of them (the caller retries on the new snapshot).
    /// A row whose stored generation is at most `generation` holds that body still: every
    /// write of a row stamps it with its own generation, and a row removed then made again with
    /// its rowid carries the later one. So writes to other records (another process saving in
    /// a loop) do not make a search start over.
    func records(rowIDs: [Int64], generation: Int64) throws(SearchError) -> [JSONObject]? {
        try withReader { connection in
            try connection.readTransaction {
                let statement = try connection.statement("SELECT body, generation FROM records WHERE rowid = ?")
                var result: [JSONObject] = []
                result.reserveCapacity(rowIDs.count)
                for rowID in rowIDs {
                    statement.reset()
                    try statement.bind(1, rowID)
                    guard try statement.step(), statement.int64(1) <= generation else { return nil }
                    let value = try statement.withBytes(0) { try JSONValue(parsingUTF8: $0) }
                    result.append(value.objectValue ?? JSONObject())
                }
                return result
            }
        }
    }

    func record(objectID: String) throws(SearchError) -> JSONObject? {
        try withReader { connection in
            let statement = try connection.statement("SELECT body FROM records WHERE object_id = ?")
            try statement.bind(1, objectID)
            guard try statement.step() else { return nil }
            return try statement.withBytes(0) { try JSONValue(parsingUTF8: $0) }.objectValue
        }
    }

    /// Records in objectID order after `objectID` (from the start when nil), read in one
    /// transaction that must still be at `generation` (nil when a write has committed since):
    /// those whose rowid `include` accepts, up to `limit`, and whether more of them follow.
    func records(after objectID: String?, generation: Int64, limit: Int,
                 include: (Int64) -> Bool) throws(SearchError) -> (records: [JSONObject], more: Bool)? {
        try withReader { connection in
            try connection.readTransaction {
                guard try IndexStore.readGeneration(connection) == generation else { return nil }
                let statement = try connection.statement(
                    "SELECT rowid, body FROM records WHERE object_id > ? ORDER BY object_id")
                try statement.bind(1, objectID ?? "")
                var result: [JSONObject] = []
                while try statement.step() {
                    guard include(statement.int64(0)) else { continue }
                    if result.count == limit { return (result, true) }
                    let value = try statement.withBytes(1) { try JSONValue(parsingUTF8: $0) }
                    result.append(value.objectValue ?? JSONObject())
                }
                return (result, false)
            }
        }
    }

    private func openReader() throws -> SQLiteConnection {
        try IndexStore.openReader(path: path, immutable: accessMode == .immutable)
    }

    private static func openReader(path: String, immutable: Bool) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, readOnly: true, immutable: immutable)
        // Reads through a memory map: no system call per page.
        try connection.execute("PRAGMA mmap_size = 1073741824")
        return connection
    }

    /// The generation last committed to the database by any process, cheaply: SQLite's
    /// `data_version` tells whether another connection committed since the last call, and
    /// only then is `meta` read. Called before each search, so readers follow other
    /// processes' writes.
    func committedGeneration() throws(SearchError) -> Int64 {
        watchLock.lock()
        defer { watchLock.unlock() }
        do {
            if watcher == nil { watcher = try openReader() }
            (watchedDataVersion, watchedGeneration) = try IndexStore.watch(watcher!, dataVersion: watchedDataVersion, generation: watchedGeneration)
            return watchedGeneration
        } catch {
            throw IndexStore.storageError(error, action: "read the index at \(path)")
        }
    }

    /// The data version and generation seen through `connection`: the generation is read
    /// again only when the data version moved.
    private static func watch(_ connection: SQLiteConnection, dataVersion: Int64, generation: Int64) throws -> (Int64, Int64) {
        let pragma = try connection.statement("PRAGMA data_version")
        let version = try pragma.step() ? pragma.int64(0) : -1
        pragma.reset()
        guard version != dataVersion || generation < 0 else { return (dataVersion, generation) }
        defer { connection.resetStatements() }
        return (version, try readGeneration(connection))
    }

    /// Runs `body` with a pooled read connection.
    private func withReader<T>(_ body: (SQLiteConnection) throws -> T) throws(SearchError) -> T {
        let connection: SQLiteConnection
        do {
            if let pooled = poolLock.withLock({ pool.popLast() }) {
                connection = pooled
            } else {
                connection = try openReader()
            }
        } catch {
            throw IndexStore.storageError(error, action: "read the index at \(path)")
        }
        defer {
            connection.resetStatements()
            poolLock.withLock { pool.append(connection) }
        }
        do {
            return try body(connection)
        } catch {
            throw IndexStore.storageError(error, action: "read the index at \(path)")
        }
    }

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
        writeLock.lock()
        defer { writeLock.unlock() }
        // Once the lock is held: a write queued behind another is checked when its turn comes.
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

    /// The index a committed write derived anew: laid out from what the write accumulated (3 to
    /// 4 s at 1M records) while another thread checkpoints the write-ahead log the write filled
    /// (2 to 3 s at 1M: every page copied into the database, which is then synced), then stored;
    /// the time the whole took is then `lastBuildTimeS`. The caller holds `writeLock`. Should the
    /// layout fail (its temporary file), the index is derived again from what is committed; nil
    /// when that fails too: the write is committed all the same, and the in-memory index catches
    /// up with it later (`SearchIndex.followCommittedWrites`).
    private func finishCommitted(_ accumulator: consuming SnapshotAccumulator, generation: Int64,
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
        let stored = storeSnapshot(snapshot, writeLockHeld: true, continuing: laidOut != nil ? writing : nil)
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

    /// How many records small writes save or delete between two background checkpoints (about
    /// SQLite's automatic checkpoint of 1,000 pages, with a record, its FTS5 rows and the change
    /// log's index taking a few pages).
    static let checkpointEvery = 256

    /// Folds the write-ahead log into the database on a background thread. The writer does not
    /// checkpoint by itself (`wal_autocheckpoint = 0`): SQLite's automatic checkpoint, every
    /// 1,000 pages, made one write in about 60 pay for copying them (5–10 ms more at 100k records,
    /// see `Benchmarks/README.md`). PASSIVE: it never waits for a reader or a writer, and copies
    /// what it can; a later one, or the last connection to close, does the rest.
    private func checkpointInBackground() {
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

    /// Writes the derived index file after a commit. Best effort: when it cannot be written,
    /// the stale file is removed and the next open rebuilds it from the records. With `writing`
    /// holding the snapshot's first part (`SnapshotAccumulator.finish`), the file is finished
    /// from it.
    ///
    /// - Returns: the snapshot to search: for a large index, the file just stored, mapped (its
    ///   large arrays are then pages of the file that the system can drop, not memory of this
    ///   process: a process that writes keeps the footprint of one that opened the file); else
    ///   `snapshot` itself.
    @discardableResult
    private func storeSnapshot(_ snapshot: IndexSnapshot, writeLockHeld: Bool = false,
                               continuing writing: SnapshotFile.Writing? = nil) -> IndexSnapshot {
        // The derived file beside a database deleted (or made again) meanwhile is another
        // index's business: neither written nor removed.
        guard isStillAtPath else { return snapshot }
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
            if writeLockHeld {
                pruneLogs(upTo: snapshot.generation, configuration: snapshot.configuration)
            } else {
                writeLock.withLock { pruneLogs(upTo: snapshot.generation, configuration: snapshot.configuration) }
            }
            guard size >= IndexStore.mapStoredFrom,
                  let mapped = SnapshotFile.read(from: derivedPath, indexID: indexID, configuration: snapshot.configuration,
                                                 generations: snapshot.generation...snapshot.generation, writtenChecksum: checksum)
            else { return snapshot }
            return mapped
        } catch {
            SnapshotFile.remove(at: derivedPath)
            return snapshot
        }
    }

    /// Once a derived file of generation `generation` is stored, the change log before it is
    /// needed by nobody who can use it: opening reads the file, then the log after it; a process
    /// whose index is older than the log's start reads the file too (`catchUp`). So the rowid log
    /// is pruned up to it, and so is the objectID log when the index has no replicas (a replica
    /// whose mark is older than that log's start gets every record again). Best effort, without
    /// waiting for another process's write; `removed_records` and `removed_objects` then hold
    /// the deletions since the last merge, not since the index was made. The caller holds
    /// `writeLock`.
    private func pruneLogs(upTo generation: Int64, configuration: IndexConfiguration) {
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

    /// The size of a stored derived file from which the index searched is the mapped file
    /// rather than the arrays just built (below it, reading the file again costs more than the
    /// memory it gives back).
    static let mapStoredFrom = 1 << 20

    // MARK: FTS5

    /// The FTS5 table holds each record's searchable text, folded by the engine's tokenizer,
    /// one column per searchable level. It is the durable, SQL-queryable form of what the
    /// in-memory index serves.
    private func ensureTextTable(levelCount: Int, separators: IndexedSeparators, recreate: Bool) throws {
        if recreate { try writer.execute("DROP TABLE IF EXISTS search_text") }
        let exists = try writer.statement("SELECT 1 FROM sqlite_master WHERE name = 'search_text'")
        defer { exists.reset() }
        if try recreate || !exists.step() {
            // A new table is filled by this version of the tokenizer.
            try writer.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('tokenizerVersion', '\(Tokenizer.version)')")
        }
        let columns = (0..<levelCount).map { "level\($0)" }.joined(separator: ", ")
        // Contentless and detail=none: the records table holds the text and the engine ranks from
        // its own index, so FTS5 keeps only which records hold each word — a third of the write cost.
        try writer.execute("""
            CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5(\(columns), \(IndexStore.tokenizeOption(separators)), \
            content = '', detail = none, columnsize = 0)
            """)
        // FTS5 merges its segments as writes add them: by default four of a level at a time,
        // which made one commit in about four of a batch of 1,000 records at 1M take 18 ms more.
        // Sixteen at a time (its largest) rewrites each entry fewer times, and merging a level
        // whole inside one commit only past 64 segments (16 by default) leaves the merges to
        // FTS5's bit-by-bit work across writes. A large write (an import) gathers 16 MiB of
        // terms (1 MiB by default) before it writes them as a segment: fewer segments, fewer
        // merges (an import of 1M products, about 0.4 s less); a commit writes what it gathered
        // whatever its size. The table is read only to check the index against it. Stored in
        // the table, set by a write, never at open.
        let stored = try writer.statement("SELECT k, v FROM search_text_config WHERE k IN ('automerge', 'crisismerge', 'hashsize')")
        defer { stored.reset() }
        var values: [String: Int64] = [:]
        while try stored.step() { values[stored.string(0)] = stored.int64(1) }
        for (option, value) in IndexStore.textMergeOptions where values[option] != value {
            try writer.execute("INSERT INTO search_text (search_text, rank) VALUES ('\(option)', \(value))")
        }
    }

    /// How FTS5 merges the text table's segments: sixteen of a level at a time, bit by bit
    /// across writes (`automerge`), a level whole in one commit only past 64 (`crisismerge`);
    /// and how many bytes of terms a write gathers in memory before it writes a segment
    /// (`hashsize`).
    static let textMergeOptions: KeyValuePairs<String, Int64> = ["automerge": 16, "crisismerge": 64, "hashsize": 16 << 20]

    /// FTS5's `tokenize` option for text folded by the engine's tokenizer: words joined by single
    /// spaces. The ascii tokenizer splits on spaces and ASCII punctuation and keeps letters,
    /// digits and every non-ASCII character, so it finds exactly the engine's words once the
    /// indexed ASCII separators are `tokenchars` (`"ascii tokenchars '#+'"`: a quote is doubled
    /// inside the inner '…' and again inside the outer "…").
    static func tokenizeOption(_ separators: IndexedSeparators) -> String {
        let characters = separators.asciiCharacters
        guard !characters.isEmpty else { return "tokenize = 'ascii'" }
        let arguments = "ascii tokenchars '" + characters.replacingOccurrences(of: "'", with: "''") + "'"
        return "tokenize = \"" + arguments.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether the text table, if there is one, was declared with the tokenizer `separators` need
    /// and filled by this version of the tokenizer (`Tokenizer.version`).
    private func textTableTokenizes(with separators: IndexedSeparators) throws -> Bool {
        let statement = try writer.statement("SELECT sql FROM sqlite_master WHERE name = 'search_text'")
        defer { statement.reset() }
        guard try statement.step() else { return true }
        let version = try writer.statement("SELECT value FROM meta WHERE key = 'tokenizerVersion'")
        defer { version.reset() }
        let filledBy = try version.step() ? version.string(0) : "1"
        return statement.string(0).contains(IndexStore.tokenizeOption(separators) + ", ") && filledBy == String(Tokenizer.version)
    }

    private func textColumns(_ record: JSONObject, configuration: IndexConfiguration) -> TextColumns {
        var columns = [[UInt8]](repeating: [], count: configuration.levelCount)
        SearchableText.forEach(in: record, configuration: configuration) { attribute, text in
            Tokenizer.appendFoldedWords(of: text, separators: configuration.separators, to: &columns[attribute.level])
        }
        return TextColumns(record: columns)
    }

    /// A contentless FTS5 table forgets a row through its 'delete' command, given the row's
    /// old text.
    private func deleteText(rowID: Int64, _ oldRecord: JSONObject, configuration: IndexConfiguration) throws {
        try runText(IndexStore.textSQL(levelCount: configuration.levelCount, delete: true), rowID: rowID, oldRecord, configuration)
    }

    private func runText(_ sql: String, rowID: Int64, _ record: JSONObject, _ configuration: IndexConfiguration) throws {
        try IndexStore.runText(try writer.statement(sql), rowID: rowID, texts: textColumns(record, configuration: configuration), record: 0)
    }

    /// Runs an FTS5 statement (`textSQL`) for the row `rowID` with record `record`'s columns of `texts`.
    private static func runText(_ statement: SQLiteStatement, rowID: Int64, texts: TextColumns, record: Int) throws {
        statement.reset()
        try statement.bind(1, rowID)
        try texts.forEachColumn(ofRecord: record) { (level, column) throws(SQLiteError) in
            try statement.bind(Int32(level + 2), text: column)
        }
        try statement.run()
    }

    static func textSQL(levelCount: Int, delete: Bool) -> String {
        let columns = (0..<levelCount).map { "level\($0)" }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: levelCount + 1).joined(separator: ", ")
        return delete
            ? "INSERT INTO search_text (search_text, rowid, \(columns)) VALUES ('delete', \(placeholders))"
            : "INSERT INTO search_text (rowid, \(columns)) VALUES (\(placeholders))"
    }

    /// Empties the text table and fills it again from every stored record, a batch at a time.
    private func refillText(configuration: IndexConfiguration) throws {
        try writer.execute("INSERT INTO search_text (search_text) VALUES ('delete-all')")
        let insert = try writer.statement(IndexStore.textSQL(levelCount: configuration.levelCount, delete: false))
        let statement = try writer.statement("SELECT rowid, body FROM records")
        while try statement.step() {
            let rowID = statement.int64(0)
            guard let record = try statement.withBytes(1, { try JSONValue(parsingUTF8: $0) }).objectValue else { continue }
            try IndexStore.runText(insert, rowID: rowID, texts: textColumns(record, configuration: configuration), record: 0)
        }
    }

    /// What `streamUpserts` leaves: the streamed records accumulated, and whether the text
    /// table must be filled again (an objectID came twice in the stream, in different batches:
    /// its first text row is stored, and a contentless table can remove it only given that text).
    private struct StreamedRecords {
        var accumulator: SnapshotAccumulator
        var textsNeedRefill: Bool
        /// The largest rowid before the stream: every row past it was stored by the stream.
        var storedBefore: Int64
    }

    /// Writes streamed records a batch at a time: each batch's records into the table on this
    /// thread, while the batch before is tokenized once, on a second thread, into both the
    /// index's per-record data and its FTS5 text, which this thread then stores. One batch of
    /// parsed records (two, in flight) is held at a time.
    private func streamUpserts(_ next: () throws(SearchError) -> Change.RecordBatch?, expecting expectedCount: Int?, keepOldRecords: Bool,
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
    private func applyDeletions(_ objectIDs: [String], rowIDs: [Int64], textConfiguration: IndexConfiguration?,
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
    private func largestRowID() throws -> Int64 {
        let statement = try writer.statement("SELECT coalesce(max(rowid), 0) FROM records")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// Adds or replaces records by objectID in the records table.
    /// `written.replaced` holds the records replaced among the rowids up to `existingUpTo`
    /// (default: the largest stored now; rows above it are new and have no FTS5 row to remove).
    /// `bodies`, when not empty, are the records' JSON text, made beforehand.
    private func upsertRecords(_ records: [JSONObject], bodies: [[UInt8]] = [], keepOldRecords: Bool, generation: Int64,
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

    /// A logged write's records tokenized into a segment of their own and their FTS5 text:
    /// on another thread while the writer stores them when there are many, a chunk at a time so
    /// that the writer stores the FTS5 text of each chunk while the next is tokenized (their
    /// rowids are given once they are stored); else on the writer's thread.
    fileprivate final class SegmentWork {
        private let owned: WorkerOwned<SnapshotAccumulator>
        /// The positions of each chunk, in order.
        let chunks: [Range<Int>]
        private let work: ChunkedBackgroundWork<TextColumns>?
        private var inlineTexts: TextColumns?
        /// From this many records on, they are tokenized on another thread.
        static let backgroundFrom = 64
        /// How many chunks a write tokenized on another thread is cut into.
        static let chunkCount = 4

        init?(_ records: [JSONObject], configuration: IndexConfiguration) {
            guard !records.isEmpty else { return nil }
            // Numbered by position until the rowids are known.
            let inputs = records.enumerated().map { SnapshotBuilder.Input(rowID: Int64($0.offset), record: $0.element) }
            let owned = WorkerOwned(SnapshotAccumulator(configuration: configuration))
            self.owned = owned
            if records.count >= SegmentWork.backgroundFrom {
                let size = (records.count + SegmentWork.chunkCount - 1) / SegmentWork.chunkCount
                let chunks = stride(from: 0, to: records.count, by: size).map { $0..<min($0 + size, records.count) }
                self.chunks = chunks
                work = ChunkedBackgroundWork(count: chunks.count) { chunk in owned.value.add(Array(inputs[chunks[chunk]]), texts: true) }
            } else {
                chunks = [0..<records.count]
                work = nil
                inlineTexts = owned.value.add(inputs, texts: true)
            }
        }

        /// The FTS5 text columns of the records of chunk `chunk` (`chunks`), once tokenized.
        func tokens(ofChunk chunk: Int) -> TextColumns {
            inlineTexts ?? work!.result(chunk)
        }

        /// Waits until every record is tokenized (the worker is then done with the accumulator).
        func waitForTokens() {
            for chunk in chunks.indices { _ = tokens(ofChunk: chunk) }
        }

        /// The segment of the records, given their rowids by position (0: not stored) and the
        /// position kept of each rowid (`WrittenRecords.positionsKept`): laid out on another
        /// thread, while the writer stores their FTS5 text and commits, when they were tokenized
        /// on one; else when first asked for.
        func layOut(rowIDs: [Int64], kept: [Int64: Int], generation: Int64) -> WrittenSegment {
            // The tokens first: once they are in, the worker is done with the accumulator, and
            // the layout below is its only user.
            waitForTokens()
            let owned = owned
            let layout: @Sendable () throws(SearchError) -> IndexSnapshot = { () throws(SearchError) -> IndexSnapshot in
                var accumulator = owned.take(leaving: SnapshotAccumulator(configuration: owned.value.configuration))
                accumulator.assignRowIDs(rowIDs)
                for (position, rowID) in rowIDs.enumerated() where kept[rowID] != position { accumulator.supersede(inputAt: position) }
                return try accumulator.finish(generation: generation)
            }
            guard work != nil else { return WrittenSegment(layout: layout, generation: generation) }
            return WrittenSegment(background: BackgroundWork { Result { () throws(SearchError) in try layout() } }, generation: generation)
        }
    }

    /// The FTS5 rows of written records (a replaced record's old row removed first), from the
    /// tokenization of `work`, a chunk at a time as it is tokenized; returns their segment, laid
    /// out meanwhile on another thread once the last chunk is tokenized (it never lengthens the
    /// time the database's write lock is held), or for a few records when first asked for,
    /// after the commit.
    private func writeText(_ written: WrittenRecords, _ work: SegmentWork, configuration: IndexConfiguration,
                           generation: Int64) throws -> WrittenSegment {
        let kept = written.positionsKept
        let insert = try writer.statement(IndexStore.textSQL(levelCount: configuration.levelCount, delete: false))
        var segment: WrittenSegment?
        for (chunk, positions) in work.chunks.enumerated() {
            let texts = work.tokens(ofChunk: chunk)
            if chunk == work.chunks.count - 1 {
                segment = work.layOut(rowIDs: written.rowIDs, kept: kept, generation: generation)
            }
            // Each stored record at the position kept of its rowid (a repeated objectID's last).
            for position in positions {
                let rowID = written.rowIDs[position]
                guard rowID != 0, kept[rowID] == position else { continue }
                if let old = written.replaced[rowID] { try deleteText(rowID: rowID, old, configuration: configuration) }
                try IndexStore.runText(insert, rowID: rowID, texts: texts, record: position - positions.lowerBound)
            }
        }
        return segment!
    }

    /// The segment of a logged write's records (`Written.logged`), from the write's own
    /// tokenization (`SegmentWork.layOut`).
    final class WrittenSegment {
        let generation: Int64
        /// Lays the segment out when first asked for (a few records), or waits for it.
        private let layout: () throws(SearchError) -> IndexSnapshot
        /// The layout on another thread, if any.
        private let background: BackgroundWork<Result<IndexSnapshot, SearchError>>?
        private var laidOut: IndexSnapshot?

        fileprivate init(layout: @escaping () throws(SearchError) -> IndexSnapshot, generation: Int64) {
            self.layout = layout
            background = nil
            self.generation = generation
        }

        fileprivate init(background: BackgroundWork<Result<IndexSnapshot, SearchError>>, generation: Int64) {
            self.layout = { () throws(SearchError) in try background.wait().get() }
            self.background = background
            self.generation = generation
        }

        /// A segment never asked for (its write failed to commit, or the records were read back
        /// from the change log instead) waits for its layout: nothing goes on working after the
        /// write gave up on it.
        deinit { _ = background?.wait() }

        func snapshot() throws(SearchError) -> IndexSnapshot {
            if let laidOut { return laidOut }
            let snapshot = try layout()
            laidOut = snapshot
            return snapshot
        }
    }

    /// Runs FTS5's integrity check of the text table (its segments consistent with each other);
    /// throws when it finds damage. For checking the write path.
    func checkTextIntegrity() throws(SearchError) {
        guard writerConnection != nil else { throw readOnlyError }
        writeLock.lock()
        defer { writeLock.unlock() }
        do {
            try writer.execute("INSERT INTO search_text (search_text) VALUES ('integrity-check')")
        } catch {
            throw IndexStore.storageError(error, action: "check the text table of the index at \(path)")
        }
    }

    /// Searches the FTS5 table directly: the objectIDs whose text matches every word
    /// (the last as a prefix). For checking the in-memory index against its durable source.
    func ftsMatch(words: [String], lastIsPrefix: Bool) throws(SearchError) -> Set<String> {
        try withReader { connection in
            guard !words.isEmpty else { return [] }
            // Each word is quoted as an FTS5 string: no user text reaches FTS5 syntax.
            let expression = words.enumerated().map { index, word in
                "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (lastIsPrefix && index == words.count - 1 ? " *" : "")
            }.joined(separator: " AND ")
            let statement = try connection.statement("""
                SELECT records.object_id FROM search_text JOIN records ON records.rowid = search_text.rowid
                WHERE search_text MATCH ?
                """)
            try statement.bind(1, expression)
            var result = Set<String>()
            while try statement.step() { result.insert(statement.string(0)) }
            return result
        }
    }
}
