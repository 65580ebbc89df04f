import Foundation
import SearchAPI

// The FTS5 table of the records' searchable text: made, kept in step with each write, checked.
extension RecordStore {
    // MARK: FTS5

    /// The FTS5 table holds each record's searchable text, folded by the engine's tokenizer,
    /// one column per searchable level. It is the durable, SQL-queryable form of what the
    /// in-memory index serves.
    func ensureTextTable(levelCount: Int, separators: TokenizerRules, recreate: Bool) throws {
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
            CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5(\(columns), \(RecordStore.tokenizeOption(separators)), \
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
        for (option, value) in RecordStore.textMergeOptions where values[option] != value {
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
    static func tokenizeOption(_ separators: TokenizerRules) -> String {
        let characters = separators.asciiCharacters
        guard !characters.isEmpty else { return "tokenize = 'ascii'" }
        let arguments = "ascii tokenchars '" + characters.replacingOccurrences(of: "'", with: "''") + "'"
        return "tokenize = \"" + arguments.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether the text table, if there is one, was declared with the tokenizer `separators` need
    /// and filled by this version of the tokenizer (`Tokenizer.version`).
    func textTableTokenizes(with separators: TokenizerRules) throws -> Bool {
        let statement = try writer.statement("SELECT sql FROM sqlite_master WHERE name = 'search_text'")
        defer { statement.reset() }
        guard try statement.step() else { return true }
        let version = try writer.statement("SELECT value FROM meta WHERE key = 'tokenizerVersion'")
        defer { version.reset() }
        let filledBy = try version.step() ? version.string(0) : "1"
        return statement.string(0).contains(RecordStore.tokenizeOption(separators) + ", ") && filledBy == String(Tokenizer.version)
    }

    /// How the layer above makes a record's FTS5 text: one column per searchable level, each
    /// the words of that level's attributes folded by the engine's tokenizer and joined by
    /// single spaces (`SearchableText`), split as `separators` say.
    struct TextLayout {
        var levelCount: Int
        var separators: TokenizerRules
        /// One record's columns (as record 0 of the value returned).
        var columns: (JSONObject) -> TextColumns
    }

    /// Writes rows of the FTS5 table, within a write: prepared once for a write's many rows.
    struct TextTableWriter {
        fileprivate let insertStatement: SQLiteStatement
        fileprivate let deleteStatement: SQLiteStatement

        /// Adds the row `rowID` with record `record`'s columns of `texts`.
        func insert(rowID: Int64, _ texts: TextColumns, record: Int) throws {
            try RecordStore.runText(insertStatement, rowID: rowID, texts: texts, record: record)
        }

        /// A contentless FTS5 table forgets a row through its 'delete' command, given the row's
        /// old text (record `record`'s columns of `texts`).
        func delete(rowID: Int64, _ texts: TextColumns, record: Int) throws {
            try RecordStore.runText(deleteStatement, rowID: rowID, texts: texts, record: record)
        }
    }

    /// The FTS5 rows' writer of a table of `levelCount` columns.
    func textTableWriter(levelCount: Int) throws -> TextTableWriter {
        TextTableWriter(insertStatement: try writer.statement(RecordStore.textSQL(levelCount: levelCount, delete: false)),
                        deleteStatement: try writer.statement(RecordStore.textSQL(levelCount: levelCount, delete: true)))
    }

    /// Runs an FTS5 statement (`textSQL`) for the row `rowID` with record `record`'s columns of `texts`.
    static func runText(_ statement: SQLiteStatement, rowID: Int64, texts: TextColumns, record: Int) throws {
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
    func refillText(_ layout: TextLayout) throws {
        try writer.execute("INSERT INTO search_text (search_text) VALUES ('delete-all')")
        let text = try textTableWriter(levelCount: layout.levelCount)
        let statement = try writer.statement("SELECT rowid, body FROM records")
        while try statement.step() {
            let rowID = statement.int64(0)
            guard let record = try statement.withBytes(1, { try JSONValue(parsingUTF8: $0) }).objectValue else { continue }
            try text.insert(rowID: rowID, layout.columns(record), record: 0)
        }
    }

    /// Runs FTS5's integrity check of the text table (its segments consistent with each other);
    /// throws when it finds damage. For checking the write path.
    func checkTextIntegrity() throws(SearchError) {
        guard writerConnection != nil else { throw readOnlyError }
        claimWriter()
        defer { releaseWriter() }
        do {
            try writer.execute("INSERT INTO search_text (search_text) VALUES ('integrity-check')")
        } catch {
            throw RecordStore.storageError(error, action: "check the text table of the index at \(path)")
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

    /// A page of the records whose FTS5 text matches `expression` (an FTS5 query of quoted words
    /// that the layer above makes), in rowid order, and how many match; nil when the text table
    /// cannot answer for `separators` (there is none, or it was declared for other separators or
    /// filled by another version of the tokenizer).
    /// Without an expression (an empty query), every record.
    func textSearch(_ expression: String?, separators: TokenizerRules, offset: Int, limit: Int) throws(SearchError) -> (count: Int, records: [JSONObject])? {
        try withReader { connection in
            try connection.readTransaction {
                let declared = try connection.statement("SELECT sql FROM sqlite_master WHERE name = 'search_text'")
                guard try declared.step(), declared.string(0).contains(RecordStore.tokenizeOption(separators) + ", ") else { return nil }
                let version = try connection.statement("SELECT value FROM meta WHERE key = 'tokenizerVersion'")
                guard (try version.step() ? version.string(0) : "1") == String(Tokenizer.version) else { return nil }
                let count = try connection.statement(expression == nil ? "SELECT count(*) FROM records"
                                                     : "SELECT count(*) FROM search_text WHERE search_text MATCH ?1")
                let page = try connection.statement(expression == nil ? "SELECT body FROM records ORDER BY rowid LIMIT ?2 OFFSET ?3" : """
                    SELECT records.body FROM search_text JOIN records ON records.rowid = search_text.rowid
                    WHERE search_text MATCH ?1 ORDER BY search_text.rowid LIMIT ?2 OFFSET ?3
                    """)
                if let expression {
                    try count.bind(1, expression)
                    try page.bind(1, expression)
                }
                let total = try count.step() ? Int(count.int64(0)) : 0
                try page.bind(2, Int64(limit))
                try page.bind(3, Int64(offset))
                var records: [JSONObject] = []
                while try page.step() {
                    records.append(try page.withBytes(0) { try JSONValue(parsingUTF8: $0) }.objectValue ?? JSONObject())
                }
                return (total, records)
            }
        }
    }

    /// The largest committed rowid of the records (about how many there are, without counting
    /// them), read as a reader.
    func largestCommittedRowID() throws(SearchError) -> Int64 {
        try withReader { connection in
            let statement = try connection.statement("SELECT coalesce(max(rowid), 0) FROM records")
            return try statement.step() ? statement.int64(0) : 0
        }
    }
}
