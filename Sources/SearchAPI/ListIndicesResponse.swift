/// One index in Algolia's list-indices answer (`GET /1/indexes`), as the official clients'
/// `FetchedIndex` model reads it.
public struct FetchedIndex: Sendable, Hashable, Codable {
    /// The index's name.
    public var name: String
    /// When the index was created, ISO 8601 (`2026-11-23T17:50:56.123Z`).
    public var createdAt: String
    /// When its records or settings last changed, ISO 8601.
    public var updatedAt: String
    /// The number of records.
    public var entries: Int
    /// The size of the records, in bytes.
    public var dataSize: Int
    /// The size of the index's files on disk, in bytes.
    public var fileSize: Int
    /// How long the last write took to build the index, in whole seconds.
    public var lastBuildTimeS: Int
    /// Writes waiting to be applied: always 0 here (a local write is applied when the call returns).
    public var numberOfPendingTasks: Int
    /// Whether writes to the index are waiting to be applied: always false from the local engine.
    public var pendingTask: Bool
    /// For a replica: its primary index.
    public var primary: String?
    /// For a primary: its replicas, as set (`virtual(name)` for a virtual one).
    public var replicas: [String]?
    /// Whether this is a virtual replica.
    public var virtual: Bool?

    /// An index entry; by default no pending task, and `primary`, `replicas` and `virtual` absent.
    public init(name: String, createdAt: String, updatedAt: String, entries: Int, dataSize: Int, fileSize: Int,
                lastBuildTimeS: Int, numberOfPendingTasks: Int = 0, pendingTask: Bool = false,
                primary: String? = nil, replicas: [String]? = nil, virtual: Bool? = nil) {
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.entries = entries
        self.dataSize = dataSize
        self.fileSize = fileSize
        self.lastBuildTimeS = lastBuildTimeS
        self.numberOfPendingTasks = numberOfPendingTasks
        self.pendingTask = pendingTask
        self.primary = primary
        self.replicas = replicas
        self.virtual = virtual
    }

    /// Algolia's JSON, keys in the order Algolia writes them; absent optionals are left out.
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "name": .string(name), "createdAt": .string(createdAt), "updatedAt": .string(updatedAt),
            "entries": .int(Int64(entries)), "dataSize": .int(Int64(dataSize)), "fileSize": .int(Int64(fileSize)),
            "lastBuildTimeS": .int(Int64(lastBuildTimeS)), "numberOfPendingTasks": .int(Int64(numberOfPendingTasks)),
            "pendingTask": .bool(pendingTask),
        ]
        if let primary { object["primary"] = .string(primary) }
        if let replicas { object["replicas"] = .array(replicas.map { .string($0) }) }
        if let virtual { object["virtual"] = .bool(virtual) }
        return .object(object)
    }
}

/// Algolia's list-indices answer: `{"items": [...], "nbPages": N}`.
///
/// ```swift
/// for index in try engine.listIndices().items { print(index.name, index.entries) }
/// ```
public struct ListIndicesResponse: Sendable, Hashable, Codable {
    /// One entry per index.
    public var items: [FetchedIndex]
    /// Pages of items: 1 here (every index on one page).
    public var nbPages: Int

    /// A list of `items` on `nbPages` pages (1 by default).
    public init(items: [FetchedIndex], nbPages: Int = 1) {
        self.items = items
        self.nbPages = nbPages
    }

    /// Algolia's JSON: `{"items": [...], "nbPages": N}`.
    public var jsonValue: JSONValue {
        ["items": .array(items.map(\.jsonValue)), "nbPages": .int(Int64(nbPages))]
    }
}
