import SearchAPI

/// A record as the database holds it: its rowid (which the derived index keys its documents
/// on, and the change log names) and its body.
struct StoredRecord: Sendable {
    var rowID: Int64
    var record: JSONObject
}
