import Foundation
import SearchAPI

/// The durable side of one index: a SQLite database holding the records, the settings, the
/// change log, replica marks and an FTS5 table of the searchable text (the source of truth).
/// The only code that knows the schema, and it knows nothing of what is derived from it: the
/// in-memory index (`LiveIndex`, in `Index/`) reads records and changes from here as plain
/// values (`StoredRecord`, `CommittedChanges`), and gives it a record's FTS5 text as columns
/// (`TextLayout`). The derived index's file lies beside the database, at `derivedPath`.
///
/// Writes go through one connection, one transaction each; the owner of the store serializes
/// them (`LiveIndex.writeLock`, the one lock of the write path), and a debug build checks that
/// no two overlap (`claimWriter`). Reads of record bodies go through a pool of read connections
/// (WAL lets them run beside a write).
final class RecordStore: @unchecked Sendable {
    // @unchecked: `writer` and `recordsSinceCheckpoint` are only touched by the one caller its
    // owner lets write at a time (checked by `claimWriter` in debug builds); the pool array only
    // under `poolLock`, the watch state only under `watchLock`, each pooled connection is used
    // by one caller at a time, and `checkpointer` only by the one checkpoint thread running. The extensions in other files
    // (RecordStore+Write, +TextTable, +Files, +Changes) keep to the same rules.
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
    let fileIdentity: FileIdentity?
    let writerConnection: SQLiteConnection?
    /// Whether a caller is using the writer (`claimWriter`).
    let writerInUse = LockedValue(false)
    let poolLock = NSLock()
    var pool: [SQLiteConnection] = []
    let watchLock = NSLock()
    var watcher: SQLiteConnection?
    var watchedDataVersion: Int64 = -1
    var watchedGeneration: Int64 = -1
    /// Whether a background checkpoint runs, and whether another was asked for meanwhile.
    let checkpointState = LockedValue((running: false, pending: false))
    /// Records written by small writes since the last background checkpoint (by the writer's user).
    var recordsSinceCheckpoint = 0
    /// The background checkpoint's own connection: only the checkpoint thread uses it, one at a
    /// time (`checkpointState.running`), and it captures the store until it is done.
    var checkpointer: SQLiteConnection?

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
        derivedPath = RecordStore.derivedPath(forDatabaseAt: path)
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
                let existed = try RecordStore.prepareDatabaseFile(at: path)
                identity = FileIdentity(path: path)
                let writer = try SQLiteConnection(path: path)
                if existed {
                    try RecordStore.checkSchema(writer, path: path)
                    try RecordStore.migrateIfNeeded(writer)
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
                if let damage = RecordStore.damage(ofDatabaseAt: path) { throw RecordStore.damaged(path, damage) }
                identity = FileIdentity(path: path)
                writerConnection = nil
            }
            let reader = try RecordStore.openReader(path: path, immutable: accessMode == .immutable)
            if writerConnection == nil { try RecordStore.checkSchema(reader, path: path) }
            let statement = try reader.statement("SELECT value FROM meta WHERE key = 'indexID'")
            indexID = try statement.step() ? statement.string(0) : ""
            reader.resetStatements()
            pool = [reader]
            // Opened now, as the reader is, so that a search never has to open the database: a
            // search through this index goes on answering if its folder is moved or removed
            // (the engine's lookups then answer not found, and writes are refused).
            watcher = try RecordStore.openReader(path: path, immutable: accessMode == .immutable)
            (watchedDataVersion, watchedGeneration) = try RecordStore.watch(watcher!, dataVersion: -1, generation: -1)
        } catch {
            throw RecordStore.storageError(error, action: "open the index at \(path)")
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

    /// The writer, for code that runs between `claimWriter` and `releaseWriter`, after `write`
    /// checked there is one.
    var writer: SQLiteConnection { writerConnection! }

    /// Marks the writer in use until `releaseWriter`. Writes are serialized by the store's
    /// owner, not here: two overlapping uses are that owner's bug (the second would join the
    /// first's transaction, or fail to begin its own), which a debug build stops at; the
    /// tests run debug builds.
    func claimWriter() {
        let wasFree = writerInUse.modify { inUse -> Bool in
            defer { inUse = true }
            return !inUse
        }
        assert(wasFree, "two writes to the index at \(path) overlap: its owner must serialize them")
    }

    func releaseWriter() { writerInUse.value = false }

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
        try withReader { connection in try RecordStore.readGeneration(connection) }
    }

    static func readGeneration(_ connection: SQLiteConnection) throws -> Int64 {
        try metaValue(connection, "generation").flatMap { Int64($0) } ?? 0
    }

    /// The value of a `meta` row, nil when there is none.
    static func metaValue(_ connection: SQLiteConnection, _ key: String) throws -> String? {
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
        try withReader { connection in try RecordStore.readSettings(connection) }
    }

    static func readSettings(_ connection: SQLiteConnection) throws -> IndexSettings {
        let statement = try connection.statement("SELECT value FROM meta WHERE key = 'settings'")
        guard try statement.step() else { return IndexSettings() }
        let text = statement.string(0)
        guard case .object(let object) = try JSONValue(parsing: text) else { return IndexSettings() }
        return IndexSettings(stored: object)
    }


    // MARK: Replicas

    /// Which state of its primary a replica holds: the primary's `indexID` and the generation
    /// of the primary's last write applied here (the replica's meta `mirrorOf`, written in the
    /// same transaction as the records it brings).
    struct PrimaryMark: Equatable, Sendable {
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

    /// The state of its primary this index holds as a replica (nil when it never synced one).
    func primaryMark() throws(SearchError) -> PrimaryMark? {
        try withReader { connection in try RecordStore.readPrimaryMark(connection) }
    }

    static func readPrimaryMark(_ connection: SQLiteConnection) throws -> PrimaryMark? {
        try metaValue(connection, "mirrorOf").flatMap(PrimaryMark.init(stored:))
    }

    /// Runs `body` with what a replica holding `mark` of this index lacks, as one change, and the
    /// mark it holds after it, inside the read transaction that reads it; nil (and `body` not
    /// run) when the replica is up to date. From the change log when it reaches back to `mark`
    /// (the records written since and the objectIDs deleted since: proportional to the change);
    /// else (another primary, a clear since, no mark) every record, replacing the replica's.
    /// More records than `streamingBeyond` are read a batch at a time while `body` writes
    /// them (`Change.upsertBatches`): copying a large primary holds a batch, not every record.
    func withChangeForReplica<T>(holding mark: PrimaryMark?, streamingBeyond limit: Int,
                                 _ body: (Change, PrimaryMark) throws(SearchError) -> T) throws(SearchError) -> T? {
        let indexID = self.indexID
        let path = self.path
        return try withReader { connection in
            try connection.readTransaction { () throws -> T? in
                let generation = try RecordStore.readGeneration(connection)
                let current = PrimaryMark(primaryID: indexID, generation: generation)
                if mark == current { return nil }
                let logStart = try RecordStore.metaValue(connection, "objectLogStart").flatMap { Int64($0) }
                /// The records written after `since` (every record without), in rowid order (the
                /// order of first insertion), a batch at a time.
                func batches(after since: Int64?) throws -> () throws(SearchError) -> Change.RecordBatch? {
                    let statement = try connection.statement("SELECT generation, body FROM records")
                    // Stepped again after its last row, SQLite would start the statement over.
                    var done = false
                    return { () throws(SearchError) -> Change.RecordBatch? in
                        do {
                            var batch = Change.RecordBatch(records: [])
                            while !done, batch.records.count < RecordStore.batchSize {
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
                            throw RecordStore.storageError(error, action: "read the index at \(path)")
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
                    if try counted.step(), counted.int64(0) > limit {
                        var change = Change(deletions: deletions)
                        change.upsertBatches = try batches(after: mark.generation)
                        return try body(change, current)
                    }
                    let upserts = try RecordStore.readRecords(connection, since: mark.generation).map(\.record)
                    return try body(Change(upserts: upserts, deletions: deletions), current)
                }
                var change = Change(clearFirst: true)
                change.upsertBatches = try batches(after: nil)
                return try body(change, current)
            }
        }
    }

    static func readLogStart(_ connection: SQLiteConnection) throws -> Int64? {
        try metaValue(connection, "logStart").flatMap { Int64($0) }
    }

    static func readRemovals(_ connection: SQLiteConnection, since generation: Int64) throws -> [Int64] {
        let statement = try connection.statement("SELECT rowid FROM removed_records WHERE generation > ?")
        try statement.bind(1, generation)
        var rowIDs: [Int64] = []
        while try statement.step() { rowIDs.append(statement.int64(0)) }
        return rowIDs
    }

    /// The records written after `generation`, in the order of their first insertion.
    static func readRecords(_ connection: SQLiteConnection, since generation: Int64) throws -> [StoredRecord] {
        let statement = try connection.statement("SELECT rowid, body FROM records WHERE generation > ?")
        try statement.bind(1, generation)
        var inputs: [StoredRecord] = []
        while try statement.step() {
            let value = try statement.withBytes(1) { try JSONValue(parsingUTF8: $0) }
            guard case .object(let object) = value else { continue }
            inputs.append(StoredRecord(rowID: statement.int64(0), record: object))
        }
        // Sorted here: `ORDER BY rowid` makes SQLite scan the whole table in rowid order rather
        // than read the generation index and sort (16 ms a write at 100k records).
        inputs.sort { $0.rowID < $1.rowID }
        return inputs
    }

    /// Every record with its rowid, in rowid order (copying an index; tests).
    func allRecords() throws(SearchError) -> [StoredRecord] {
        try withReader { connection in
            try connection.readTransaction { try RecordStore.readAllRecords(connection) }
        }
    }

    /// Every record with its rowid, in rowid order.
    static func readAllRecords(_ connection: SQLiteConnection) throws -> [StoredRecord] {
        let statement = try connection.statement("SELECT rowid, body FROM records ORDER BY rowid")
        var inputs: [StoredRecord] = []
        while try statement.step() {
            let value = try statement.withBytes(1) { try JSONValue(parsingUTF8: $0) }
            guard case .object(let object) = value else { continue }
            inputs.append(StoredRecord(rowID: statement.int64(0), record: object))
        }
        return inputs
    }

    /// How many records a batch holds when records are streamed (an import, a rebuild): the
    /// parsed records of one batch are what such a write holds at a time.
    static let batchSize = 8_192

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
                guard try RecordStore.readGeneration(connection) == generation else { return nil }
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

    func openReader() throws -> SQLiteConnection {
        try RecordStore.openReader(path: path, immutable: accessMode == .immutable)
    }

    static func openReader(path: String, immutable: Bool) throws -> SQLiteConnection {
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
            (watchedDataVersion, watchedGeneration) = try RecordStore.watch(watcher!, dataVersion: watchedDataVersion, generation: watchedGeneration)
            return watchedGeneration
        } catch {
            throw RecordStore.storageError(error, action: "read the index at \(path)")
        }
    }

    /// The data version and generation seen through `connection`: the generation is read
    /// again only when the data version moved.
    static func watch(_ connection: SQLiteConnection, dataVersion: Int64, generation: Int64) throws -> (Int64, Int64) {
        let pragma = try connection.statement("PRAGMA data_version")
        let version = try pragma.step() ? pragma.int64(0) : -1
        pragma.reset()
        guard version != dataVersion || generation < 0 else { return (dataVersion, generation) }
        defer { connection.resetStatements() }
        return (version, try readGeneration(connection))
    }

    /// Runs `body` with a pooled read connection.
    func withReader<T>(_ body: (SQLiteConnection) throws -> T) throws(SearchError) -> T {
        let connection: SQLiteConnection
        do {
            if let pooled = poolLock.withLock({ pool.popLast() }) {
                connection = pooled
            } else {
                connection = try openReader()
            }
        } catch {
            throw RecordStore.storageError(error, action: "read the index at \(path)")
        }
        defer {
            connection.resetStatements()
            poolLock.withLock { pool.append(connection) }
        }
        do {
            return try body(connection)
        } catch {
            throw RecordStore.storageError(error, action: "read the index at \(path)")
        }
    }
}
