import SearchAPI

// The index's Rules: stored whole in `meta` (`rules`, a JSON array in objectID order), with the
// generation of the write that last changed them (`rulesGeneration`), so a reader reloads them
// only when they changed. Written by the steps of a write (`writeRules`), in its transaction.
extension RecordStore {
    /// The rules as last committed, with the generation that wrote them (0: never written).
    func rules() throws(SearchError) -> (generation: Int64, rules: [JSONObject]) {
        try withReader { connection in try RecordStore.readRules(connection) }
    }

    /// The generation that last changed the rules, as committed (0: never written).
    func rulesGeneration() throws(SearchError) -> Int64 {
        try withReader { connection in try RecordStore.metaValue(connection, "rulesGeneration").flatMap { Int64($0) } ?? 0 }
    }

    /// The rules stored, read by the writer within its transaction.
    func writtenRules() throws -> [JSONObject] { try RecordStore.readRules(writer).rules }

    /// The rules stored and the generation that wrote them, read by the writer within its transaction.
    func writtenRulesAndGeneration() throws -> (generation: Int64, rules: [JSONObject]) { try RecordStore.readRules(writer) }

    /// The generation that last changed the rules, read by the writer within its transaction.
    func writtenRulesGeneration() throws -> Int64 {
        try RecordStore.metaValue(writer, "rulesGeneration").flatMap { Int64($0) } ?? 0
    }

    /// Stores `rules` (in the order given) as changed by the write of `generation`.
    func writeRules(_ rules: [JSONObject], generation: Int64) throws {
        let statement = try writer.statement("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
        try statement.bind(1, "rules")
        try statement.bind(2, JSONValue.array(rules.map(JSONValue.object)).jsonString)
        try statement.run()
        statement.reset()
        try statement.bind(1, "rulesGeneration")
        try statement.bind(2, String(generation))
        try statement.run()
    }

    static func readRules(_ connection: SQLiteConnection) throws -> (generation: Int64, rules: [JSONObject]) {
        let generation = try metaValue(connection, "rulesGeneration").flatMap { Int64($0) } ?? 0
        guard let text = try metaValue(connection, "rules") else { return (generation, []) }
        let rules = (try JSONValue(parsing: text).arrayValue ?? []).compactMap(\.objectValue)
        return (generation, rules)
    }
}

extension RecordStore {
    /// The rowids of the records with these objectIDs (those stored; the others left out), for
    /// the records a rule promotes or hides.
    func rowIDs(objectIDs: [String]) throws(SearchError) -> [String: Int64] {
        guard !objectIDs.isEmpty else { return [:] }
        return try withReader { connection in
            try connection.readTransaction {
                let statement = try connection.statement("SELECT rowid FROM records WHERE object_id = ?")
                var found: [String: Int64] = [:]
                for objectID in objectIDs {
                    statement.reset()
                    try statement.bind(1, objectID)
                    if try statement.step() { found[objectID] = statement.int64(0) }
                }
                return found
            }
        }
    }
}
