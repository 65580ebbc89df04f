import CSQLite
import Foundation

/// A failure reported by SQLite, with the statement that caused it.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var sql: String?
    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (in: \($0.prefix(120)))" } ?? "")
    }
}

/// SQLite's transient destructor: SQLite copies the bound bytes before the call returns.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection: the only type in the engine that calls the C API. Every result
/// code is checked and turned into `SQLiteError`.
///
/// Not thread-safe: a connection is used by one caller at a time (the store's write lock, or
/// a reader checked out of the pool).
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]

    /// How long a connection waits for another connection (in this process or another) that
    /// holds a lock it needs — a writer waiting for another writer to commit — before failing
    /// with `SQLITE_BUSY`: 5 seconds. Readers never wait for writers (WAL).
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Process-wide configuration, before the first connection: SQLite's memory statistics
    /// off (nothing reads them, and they cost a global mutex per allocation: 4 % of the
    /// writer's time in a 1M import). Where SQLite was used first by other code in the process
    /// (an app's own database), it stays as that code left it.
    private static let configured: Void = { _ = offline_search_sqlite3_disable_memory_statistics() }()

    /// Opens a connection. `immutable` (with `readOnly`) takes the file as unchanging: SQLite
    /// then needs no shared-memory file and takes no lock, which is what lets a database in a
    /// read-only folder (a bundle shipped inside an app) be read at all in WAL mode.
    /// - Parameter create: whether a missing file is created (read-write only); without it, a
    ///   file removed meanwhile (an index deleted) fails to open instead of coming back empty.
    init(path: String, readOnly: Bool = false, immutable: Bool = false, create: Bool = true) throws(SQLiteError) {
        _ = SQLiteConnection.configured
        var db: OpaquePointer?
        var flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))) | SQLITE_OPEN_NOMUTEX
        var name = path
        if readOnly && immutable {
            flags |= SQLITE_OPEN_URI
            name = "file:" + SQLiteConnection.uriEscaped(path) + "?immutable=1"
        }
        let code = sqlite3_open_v2(name, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: code, message: "\(message): \(path)")
        }
        handle = db
        sqlite3_busy_timeout(db, SQLiteConnection.busyTimeoutMilliseconds)
    }

    /// A path as the path of a `file:` URI: `%`, `?` and `#` (and anything not printable
    /// ASCII) percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%"), byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#") {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// Runs `body` without waiting on locks (for best-effort work such as a checkpoint, which
    /// would otherwise wait for other processes' readers).
    func withoutBusyWait<T>(_ body: () throws -> T) rethrows -> T {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, SQLiteConnection.busyTimeoutMilliseconds) }
        return try body()
    }

    /// Whether SQLite reports the database as busy (locked by another connection) or locked.
    static func isBusy(_ error: SQLiteError) -> Bool {
        let primary = error.code & 0xFF
        return primary == SQLITE_BUSY || primary == SQLITE_LOCKED
    }

    /// Whether SQLite refused a write because the connection or the file is read-only.
    static func isReadOnly(_ error: SQLiteError) -> Bool {
        error.code & 0xFF == SQLITE_READONLY
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows. Cached statements are reset first: a statement left on a
    /// row would keep a read open and make schema changes fail with "table is locked".
    func execute(_ sql: String) throws(SQLiteError) {
        resetStatements()
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(errorMessage)
            throw SQLiteError(code: code, message: message, sql: sql)
        }
    }

    /// The rowid of the last row this connection inserted (SQLite's `last_insert_rowid`): an
    /// upsert that updated an existing row leaves it as it was.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// A prepared statement, cached per SQL text and reset before reuse.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = cache[sql] {
            cached.reset()
            return cached
        }
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &pointer, nil)
        guard code == SQLITE_OK, let pointer else { throw error(code, sql: sql) }
        let statement = SQLiteStatement(pointer, connection: self, sql: sql)
        cache[sql] = statement
        return statement
    }

    /// Resets every cached statement, so none keeps a read snapshot open after its use.
    func resetStatements() {
        for statement in cache.values { statement.reset() }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            resetStatements()
            try execute("COMMIT")
            return result
        } catch {
            resetStatements()
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A read transaction: every read inside sees one committed state of the database.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        defer {
            resetStatements()
            try? execute("COMMIT")
        }
        return try body()
    }

    fileprivate func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

}

/// A prepared statement. Bind with 1-based indices, step, read columns with 0-based indices.
final class SQLiteStatement {
    private let pointer: OpaquePointer
    private unowned let connection: SQLiteConnection
    private let sql: String

    fileprivate init(_ pointer: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.pointer = pointer
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(pointer) }

    func reset() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    func bind(_ index: Int32, _ value: Int64) throws(SQLiteError) {
        try check(sqlite3_bind_int64(pointer, index, value))
    }

    /// Binds the whole string, by its UTF-8 length: a NUL inside it is text like any other
    /// character (a C string would end there, and `"a\0b"` would be stored as `"a"`).
    func bind(_ index: Int32, _ value: String) throws(SQLiteError) {
        var value = value
        try check(value.withUTF8 { bindText(index, $0) })
    }

    /// Binds the string, or SQL NULL for nil.
    func bind(_ index: Int32, _ value: String?) throws(SQLiteError) {
        if let value { try bind(index, value) } else { try check(sqlite3_bind_null(pointer, index)) }
    }

    func bind(_ index: Int32, text bytes: [UInt8]) throws(SQLiteError) {
        try check(bytes.withUnsafeBufferPointer { bindText(index, $0) })
    }

    /// Binds UTF-8 text, copied by SQLite (the buffer may go once this returns).
    func bind(_ index: Int32, text bytes: UnsafeBufferPointer<UInt8>) throws(SQLiteError) {
        try check(bindText(index, bytes))
    }

    /// Binds UTF-8 text, copied by SQLite; SQLite's result code.
    private func bindText(_ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        // An empty buffer may have no address, and a null pointer would bind SQL NULL.
        let start = UnsafeRawPointer(bytes.baseAddress) ?? UnsafeRawPointer(("" as StaticString).utf8Start)
        return sqlite3_bind_text64(pointer, index, start.assumingMemoryBound(to: CChar.self),
                                   sqlite3_uint64(bytes.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
    }

    /// Advances to the next row: true while there is one.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(pointer)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code, sql: sql)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(pointer, column) else { return "" }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's text, or nil when it is SQL NULL.
    func optionalString(_ column: Int32) -> String? {
        sqlite3_column_type(pointer, column) == SQLITE_NULL ? nil : string(column)
    }

    /// Calls `body` with the column's bytes, valid only during the call (no copy).
    func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let count = Int(sqlite3_column_bytes(pointer, column))
        if sqlite3_column_type(pointer, column) == SQLITE_BLOB {
            let raw = sqlite3_column_blob(pointer, column)
            return try body(UnsafeBufferPointer(start: raw?.assumingMemoryBound(to: UInt8.self), count: count))
        }
        let text = sqlite3_column_text(pointer, column)
        return try body(UnsafeBufferPointer(start: text, count: count))
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }
}
