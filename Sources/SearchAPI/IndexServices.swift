// The protocols beyond searching that a mirror and an admin screen need, with Algolia's names:
// browsing every record, reading settings and synonyms, writing. The local engine implements
// them, and so does the remote client, so a mirror copies from any source into any target.
//
// ```swift
// func copy(from source: some BrowsingService, to target: some IndexWritingService) async throws(SearchError) {
//     try await source.browseObjects(indexName: "products") { page throws(SearchError) in
//         _ = try await target.saveObjects(indexName: "products_copy", objects: page.hits)
//     }
// }
// ```

// MARK: Browsing

/// One page of a browse (`POST /1/indexes/{index}/browse`): a search response over the
/// records, and the cursor of the next page (nil on the last).
public struct BrowseResponse: Sendable, Hashable {
    /// The page as a search response: its `hits` are this page's records.
    public var response: SearchResponse
    /// Opaque: pass it back to `browse(indexName:parameters:cursor:)` for the next page.
    public var cursor: String?

    /// A page of `response`, with the cursor of the next page (nil on the last).
    public init(response: SearchResponse, cursor: String?) {
        self.response = response
        self.cursor = cursor
    }

    /// The records of this page (`response.hits`).
    public var hits: [JSONValue] { response.hits }

    /// Algolia's answer: the search response plus `cursor` (absent on the last page).
    public var jsonValue: JSONValue {
        guard case .object(var object) = response.jsonValue else { return response.jsonValue }
        if let cursor { object["cursor"] = .string(cursor) }
        return .object(object)
    }

    /// Reads a browse answer in Algolia's JSON: a search response plus `cursor`. Throws
    /// `SearchError` (`invalidJSON`) when it is not a search response.
    public init(json: JSONValue) throws(SearchError) {
        response = try SearchResponse(json: json)
        cursor = json["cursor"]?.stringValue
    }
}

/// Reads every record of an index, page by page, as Algolia's browse does: each record
/// exactly once, not capped by `paginationLimitedTo`.
public protocol BrowsingService: Sendable {
    /// One page: the first without a cursor, then each with the cursor of the one before
    /// (the cursor carries the parameters; those passed with it are ignored).
    func browse(indexName: String, parameters: SearchParameters, cursor: String?) async throws(SearchError) -> BrowseResponse
}

extension BrowsingService {
    /// Algolia's `browseObjects` helper: browses every page, handing each to `aggregator`.
    /// - Returns: how many records were browsed.
    @discardableResult
    public func browseObjects(indexName: String, parameters: SearchParameters = SearchParameters(),
                              aggregator: (BrowseResponse) async throws(SearchError) -> Void) async throws(SearchError) -> Int {
        var cursor: String?
        var count = 0
        repeat {
            let page = try await browse(indexName: indexName, parameters: parameters, cursor: cursor)
            count += page.hits.count
            try await aggregator(page)
            cursor = page.cursor
        } while cursor != nil
        return count
    }
}

// MARK: Settings and synonyms

/// A page of synonyms (`POST /1/indexes/{index}/synonyms/search`).
public struct SynonymsPage: Sendable, Hashable {
    /// Algolia's synonym objects (`{"objectID", "type", "synonyms", ...}`).
    public var hits: [JSONObject]
    /// Algolia's `nbHits`: how many synonyms match the query, over every page.
    public var nbHits: Int

    /// A page of `hits`, out of `nbHits` matching synonyms.
    public init(hits: [JSONObject], nbHits: Int) {
        self.hits = hits
        self.nbHits = nbHits
    }
}

/// Reads an index's settings and synonyms.
public protocol IndexSettingsReader: Sendable {
    /// `GET /1/indexes/{index}/settings`: the settings in Algolia's JSON. A missing index is
    /// `SearchError.indexNotFound`.
    func getSettings(indexName: String) async throws(SearchError) -> JSONObject

    /// `POST /1/indexes/{index}/synonyms/search`: the synonyms containing every word of
    /// `query`, a page of `hitsPerPage` in objectID order.
    func searchSynonyms(indexName: String, query: String, page: Int, hitsPerPage: Int) async throws(SearchError) -> SynonymsPage
}

extension IndexSettingsReader {
    /// Algolia's `browseSynonyms` helper: every synonym of the index.
    public func browseSynonyms(indexName: String) async throws(SearchError) -> [JSONObject] {
        var all: [JSONObject] = []
        var page = 0
        while true {
            let found = try await searchSynonyms(indexName: indexName, query: "", page: page, hitsPerPage: 1000)
            all += found.hits
            if found.hits.isEmpty || all.count >= found.nbHits { return all }
            page += 1
        }
    }
}

// MARK: Writing

/// One request of a batch (`POST /1/indexes/{index}/batch`), as Algolia's `action`s.
public enum BatchOperation: Sendable, Hashable {
    /// `addObject`: adds the record (replacing one with the same objectID; one is generated if absent).
    case addObject(JSONValue)
    /// `updateObject`: adds or replaces the record with this objectID (the body must have one).
    case updateObject(JSONValue)
    /// `partialUpdateObject` (creates a missing record) or `partialUpdateObjectNoCreate`.
    case partialUpdateObject(JSONValue, createIfNotExists: Bool)
    /// `deleteObject`: deletes the record with this objectID.
    case deleteObject(objectID: String)
    /// `clear`: removes every record; settings stay.
    case clear
    /// `delete`: deletes the index.
    case delete

    /// The actions a batch accepts, as a list for error messages.
    public static let actionNames = "addObject, updateObject, partialUpdateObject, partialUpdateObjectNoCreate, deleteObject, delete or clear"

    /// `{"action": ..., "body": ...}`
    public var jsonValue: JSONValue {
        switch self {
        case .addObject(let body): ["action": "addObject", "body": body]
        case .updateObject(let body): ["action": "updateObject", "body": body]
        case .partialUpdateObject(let body, let create):
            ["action": .string(create ? "partialUpdateObject" : "partialUpdateObjectNoCreate"), "body": body]
        case .deleteObject(let objectID): ["action": "deleteObject", "body": ["objectID": .string(objectID)]]
        case .clear: ["action": "clear", "body": [:]]
        case .delete: ["action": "delete", "body": [:]]
        }
    }

    /// Reads one element of a batch's `requests`; `position` names it in errors.
    public init(json request: JSONValue, position: Int) throws(SearchError) {
        let body = request["body"] ?? .object([:])
        switch request["action"]?.stringValue ?? "" {
        case "addObject": self = .addObject(body)
        case "updateObject":
            guard body["objectID"] != nil else {
                throw .invalidParameter("requests[\(position)].body.objectID", expected: "an objectID for updateObject")
            }
            self = .updateObject(body)
        case "partialUpdateObject": self = .partialUpdateObject(body, createIfNotExists: true)
        case "partialUpdateObjectNoCreate": self = .partialUpdateObject(body, createIfNotExists: false)
        case "deleteObject":
            guard let objectID = body["objectID"]?.scalarText else {
                throw .invalidParameter("requests[\(position)].body.objectID", expected: "an objectID for deleteObject")
            }
            self = .deleteObject(objectID: objectID)
        case "delete": self = .delete
        case "clear": self = .clear
        default:
            throw .invalidParameter("requests[\(position)].action", expected: BatchOperation.actionNames,
                                    got: request["action"]?.jsonString ?? "nothing")
        }
    }
}

/// What a write answers: the task to wait for, and the objectIDs it wrote (in order).
public struct WriteResponse: Sendable, Hashable {
    /// Algolia's `taskID`, for `waitForTask`.
    public var taskID: Int64
    /// The objectIDs of the records the write added, updated or deleted, in the order of its
    /// operations; empty for writes without records (settings, synonyms, index operations).
    public var objectIDs: [String]

    /// The answer to a write: its `taskID`, and the objectIDs it wrote (none by default).
    public init(taskID: Int64, objectIDs: [String] = []) {
        self.taskID = taskID
        self.objectIDs = objectIDs
    }
}

/// `operation` of `operationIndex`.
public enum IndexOperation: String, Sendable, Hashable, CaseIterable {
    /// `copy` copies the index over the destination; `move` renames it over the destination.
    case copy, move
}

/// `scope` of `operationIndex`: what a copy takes (without one, everything).
public enum OperationScope: String, Sendable, Hashable, CaseIterable {
    /// The settings, the synonyms or the rules of the source index.
    case settings, synonyms, rules
}

/// The body of `operationIndex`: copy or move the index over `destination`, with a `scope`
/// to copy only some parts (settings, synonyms, rules) and keep the destination's records.
public struct OperationIndexParams: Sendable, Hashable {
    /// Whether the index is copied or moved.
    public var operation: IndexOperation
    /// The name of the index written over: replaced whole, or only in `scope`'s parts.
    public var destination: String
    /// For a copy, the parts to copy (the destination keeps its records); nil copies everything.
    public var scope: [OperationScope]?

    /// A copy or move over `destination`; without `scope`, of everything.
    public init(operation: IndexOperation, destination: String, scope: [OperationScope]? = nil) {
        self.operation = operation
        self.destination = destination
        self.scope = scope
    }

    /// Algolia's body: `{"operation": ..., "destination": ..., "scope": [...]}`, `scope` only
    /// when set.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["operation": .string(operation.rawValue), "destination": .string(destination)]
        if let scope { object["scope"] = .array(scope.map { .string($0.rawValue) }) }
        return .object(object)
    }
}

/// Writes records, settings and synonyms, and copies or moves indices. A write is applied
/// when `waitForTask` returns for its task (at once on the local engine).
public protocol IndexWritingService: Sendable {
    /// `POST /1/indexes/{index}/batch`: the operations, in order.
    func batch(indexName: String, operations: [BatchOperation]) async throws(SearchError) -> WriteResponse

    /// `PUT /1/indexes/{index}/settings`: a partial settings object (`null` resets one).
    func setSettings(indexName: String, indexSettings: JSONObject, forwardToReplicas: Bool) async throws(SearchError) -> WriteResponse

    /// `POST /1/indexes/{index}/synonyms/batch`: synonym objects, each with an objectID;
    /// with `replaceExistingSynonyms`, every other synonym is removed.
    func saveSynonyms(indexName: String, synonymHit: [JSONObject], forwardToReplicas: Bool,
                      replaceExistingSynonyms: Bool) async throws(SearchError) -> WriteResponse

    /// `POST /1/indexes/{index}/operation`: copies or moves the index over the destination.
    func operationIndex(indexName: String, operationIndexParams: OperationIndexParams) async throws(SearchError) -> WriteResponse

    /// `DELETE /1/indexes/{index}`; a missing index is not an error.
    func deleteIndex(indexName: String) async throws(SearchError) -> WriteResponse

    /// Returns when the task is published (`GET /1/indexes/{index}/task/{taskID}`).
    func waitForTask(indexName: String, taskID: Int64) async throws(SearchError)
}

extension IndexWritingService {
    /// Algolia's `saveObjects`: adds or replaces the records (one batch of `addObject`).
    public func saveObjects(indexName: String, objects: [JSONValue]) async throws(SearchError) -> WriteResponse {
        try await batch(indexName: indexName, operations: objects.map(BatchOperation.addObject))
    }

    /// Algolia's `partialUpdateObject`: each attribute replaces the record's, or is an
    /// operation such as `{"_operation": "Increment", "value": 1}`.
    public func partialUpdateObject(indexName: String, objectID: String, attributesToUpdate: JSONObject,
                                    createIfNotExists: Bool = true) async throws(SearchError) -> WriteResponse {
        var body = attributesToUpdate
        body["objectID"] = .string(objectID)
        return try await batch(indexName: indexName, operations: [.partialUpdateObject(.object(body), createIfNotExists: createIfNotExists)])
    }

    /// Algolia's `deleteObjects`.
    public func deleteObjects(indexName: String, objectIDs: [String]) async throws(SearchError) -> WriteResponse {
        try await batch(indexName: indexName, operations: objectIDs.map { .deleteObject(objectID: $0) })
    }

    /// Algolia's `clearObjects`: removes every record; settings and synonyms stay.
    public func clearObjects(indexName: String) async throws(SearchError) -> WriteResponse {
        try await batch(indexName: indexName, operations: [.clear])
    }
}
