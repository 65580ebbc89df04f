import Foundation
import SearchAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The database file itself: a new one appears whole, and an existing one that is not an
/// index (empty, truncated, garbage, another program's database) is reported as damaged
/// instead of being opened as an empty index.
extension RecordStore {
    /// The rows `meta` starts with: the write counter, the creation date and `indexID`, a
    /// random id that ties the derived file to this database. Idempotent.
    static let metaRowsSQL = """
        INSERT OR IGNORE INTO meta (key, value) VALUES ('generation', '0'), ('createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
            ('indexID', lower(hex(randomblob(16))));
        """

    /// The change log, from which a process brings its in-memory index up to date with the
    /// writes committed since (its own and other processes'), reading only what changed: each
    /// record carries the generation that last wrote it, and `removed_records` the rowids
    /// deleted and when. `logStart` is the generation from which the log is complete (a clear
    /// moves it: it removes every record without logging each).
    static let changeLogSQL = """
        CREATE INDEX IF NOT EXISTS records_by_generation ON records (generation);
        CREATE TABLE IF NOT EXISTS removed_records (rowid INTEGER PRIMARY KEY, generation INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS removed_records_by_generation ON removed_records (generation);
        INSERT OR IGNORE INTO meta (key, value) SELECT 'logStart', value FROM meta WHERE key = 'generation';
        """

    /// The change log by objectID, from which replicas are brought up to date (their rowids are
    /// their own): the objectIDs deleted and when (a record saved again later is in `records`
    /// with a newer generation). `objectLogStart` is the generation from which it is complete
    /// (the version that added it started it then).
    static let objectLogSQL = """
        CREATE TABLE IF NOT EXISTS removed_objects (object_id TEXT PRIMARY KEY, generation INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS removed_objects_by_generation ON removed_objects (generation);
        INSERT OR IGNORE INTO meta (key, value) SELECT 'objectLogStart', value FROM meta WHERE key = 'generation';
        """

    /// A new index: WAL mode (stored in the file, so set once here, never on open), the tables
    /// every index has, and its first meta rows.
    static let schemaSQL = """
        PRAGMA journal_mode = WAL;
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS records (rowid INTEGER PRIMARY KEY, object_id TEXT NOT NULL UNIQUE, body TEXT NOT NULL,
            generation INTEGER NOT NULL DEFAULT 0);
        """ + metaRowsSQL + changeLogSQL + objectLogSQL

    /// Brings an index made by an older version up to date (WAL mode, meta rows it lacks, the
    /// change log: its records count as written at generation 0, and the log starts now; the
    /// log by objectID, which starts now too).
    /// Reads only, unless something is missing: opening an index writes nothing, so it never
    /// waits for (or blocks) another process's write.
    static func migrateIfNeeded(_ connection: SQLiteConnection) throws {
        let mode = try connection.statement("PRAGMA journal_mode")
        let isWAL = try mode.step() && mode.string(0).lowercased() == "wal"
        mode.reset()
        if !isWAL { try connection.execute("PRAGMA journal_mode = WAL") }
        let rows = try connection.statement("SELECT count(*) FROM meta WHERE key IN ('generation', 'createdAt', 'indexID')")
        let complete = try rows.step() && rows.int64(0) == 3
        rows.reset()
        if !complete { try connection.transaction { try connection.execute(metaRowsSQL) } }
        let log = try connection.statement("SELECT count(*) FROM meta WHERE key = 'logStart'")
        let hasLog = try log.step() && log.int64(0) == 1
        log.reset()
        if !hasLog {
            try connection.transaction {
                let column = try connection.statement("SELECT count(*) FROM pragma_table_info('records') WHERE name = 'generation'")
                let hasColumn = try column.step() && column.int64(0) == 1
                column.reset()
                if !hasColumn { try connection.execute("ALTER TABLE records ADD COLUMN generation INTEGER NOT NULL DEFAULT 0") }
                try connection.execute(changeLogSQL)
            }
        }
        let objectLog = try connection.statement("SELECT count(*) FROM meta WHERE key = 'objectLogStart'")
        let hasObjectLog = try objectLog.step() && objectLog.int64(0) == 1
        objectLog.reset()
        if !hasObjectLog { try connection.transaction { try connection.execute(objectLogSQL) } }
    }

    /// Makes sure the file at `path` is an index before SQLite opens it: creates a new one
    /// (with its schema, written aside and linked into place, so no other process ever sees a
    /// half-made file) when there is none, and checks an existing one. Returns whether it
    /// existed before.
    static func prepareDatabaseFile(at path: String) throws(SearchError) -> Bool {
        if FileManager.default.fileExists(atPath: path) {
            if let damage = damage(ofDatabaseAt: path) { throw damaged(path, damage) }
            return true
        }
        let temporary = TemporaryFile.path(besides: path)
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
        }
        do {
            // Closed at the end of the scope, which folds the write-ahead log into the file.
            try SQLiteConnection(path: temporary).execute(schemaSQL)
        } catch {
            throw storageError(error, action: "create the index at \(path)")
        }
        // link() does not replace: when another process created the index meanwhile, its file
        // stays. File systems without hard links get a rename when the name is still free.
        if link(temporary, path) != 0, errno != EEXIST, !FileManager.default.fileExists(atPath: path),
           rename(temporary, path) != 0 {
            throw SearchError(.internalError, "Could not create the index at \(path): \(String(cString: strerror(errno)))")
        }
        return false
    }

    /// What is wrong with the database file at `path`, from its first 100 bytes (SQLite's
    /// header) and its size; nil when it looks like a SQLite database.
    static func damage(ofDatabaseAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }  // SQLite reports it
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let size = (try? handle.seekToEnd()).map { Int($0) } ?? header.count
        if size == 0 { return "the file is empty (0 bytes)" }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            return "the file (\(size) bytes) does not start with SQLite's header; it is not a SQLite database"
        }
        func bigEndian(_ offset: Int, _ count: Int) -> Int { header[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = bigEndian(16, 2) == 1 ? 65536 : bigEndian(16, 2)
        let pageCount = bigEndian(28, 4)
        // The page count in the header is valid when the change counter matches the number next
        // to it. While a write-ahead log or shared memory file exists, the database may be in
        // the middle of a checkpoint: SQLite itself completes it from the log.
        let isOpenOrRecovering = FileManager.default.fileExists(atPath: path + "-wal") || FileManager.default.fileExists(atPath: path + "-shm")
        if !isOpenOrRecovering, pageCount > 0, bigEndian(24, 4) == bigEndian(92, 4), size < pageCount * pageSize {
            return "the file holds \(size) bytes, but its header says \(pageCount) pages of \(pageSize) bytes (\(pageCount * pageSize) bytes): it was cut short"
        }
        return nil
    }

    /// Checks that an existing database is an index (its tables are there) before anything is
    /// written into it.
    static func checkSchema(_ connection: SQLiteConnection, path: String) throws(SearchError) {
        do {
            let statement = try connection.statement("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'records')")
            defer { statement.reset() }
            guard try statement.step(), statement.int64(0) == 2 else {
                throw SearchError(.internalError, "The file \(path) is a SQLite database but not an index (it has no meta and records tables); move it away, or give the index another name")
            }
        } catch let error as SearchError {
            throw error
        } catch {
            throw storageError(error, action: "open the index at \(path)")
        }
    }

    static func damaged(_ path: String, _ damage: String) -> SearchError {
        SearchError(.internalError, "The index at \(path) is damaged: \(damage). Restore it from a backup, or delete it and import the records again")
    }

    /// SQLite's codes for a file that is not a database, or whose pages are inconsistent.
    static func isDamage(_ error: SQLiteError) -> Bool {
        let primary = error.code & 0xFF
        return primary == 11 /* SQLITE_CORRUPT */ || primary == 26 /* SQLITE_NOTADB */
    }
}

extension RecordStore {
    /// Switches the database at `path` (closed by every other connection) to the write-ahead
    /// log, as every index is, and syncs it; closing the connection leaves no log behind. False
    /// when that fails (the file is then not used).
    static func switchToWriteAheadLog(_ path: String) -> Bool {
        do {
            let connection = try SQLiteConnection(path: path, create: false)
            try connection.execute("PRAGMA synchronous = FULL")
            let mode = try connection.statement("PRAGMA journal_mode = WAL")
            guard try mode.step(), mode.string(0).lowercased() == "wal" else { return false }
            mode.reset()
        } catch {
            return false
        }
        // Closed: the log was folded into the file and removed; one left over would hold pages
        // the file lacks.
        return !FileManager.default.fileExists(atPath: path + "-wal")
    }
}
