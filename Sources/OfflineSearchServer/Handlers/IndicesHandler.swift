import OfflineSearch
import SearchAPI

/// Indices as a whole: the list, settings, copy and move, deletion, and tasks (a local write
/// is published when it is answered).
struct IndicesHandler: Sendable {
    let engine: SearchEngine
    /// The task ID and timestamps of its writes' answers.
    let receipt: WriteReceipt

    /// `GET /1/indexes`.
    func list() throws -> AlgoliaAnswer {
        .ok(try engine.listIndices().jsonValue)
    }

    /// `GET /1/indexes/{indexName}/settings`: every setting, defaults filled in.
    func getSettings(_ name: String) async throws -> AlgoliaAnswer {
        .ok(.object(try await (engine as any IndexSettingsReader).getSettings(indexName: name)))
    }

    /// `GET /1/indexes/{indexName}/task/{taskID}` and `GET /1/task/{taskID}`.
    func task() -> AlgoliaAnswer {
        .ok(["status": "published", "pendingTask": false])
    }

    /// `PUT /1/indexes/{indexName}/settings` (`forwardToReplicas`).
    func setSettings(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let patch = try operation.bodyObject()
        try engine.write(to: name) { index throws(SearchError) in try index.setSettings(patch, forwardToReplicas: operation.flag("forwardToReplicas")) }
        return receipt.updated()
    }

    /// `DELETE /1/indexes/{indexName}`: a missing index is no error.
    func delete(_ name: String) throws -> AlgoliaAnswer {
        try engine.deleteIndex(name)
        return receipt.deleted()
    }

    /// `POST /1/indexes/{indexName}/operation`: copy or move, whole or a `scope`.
    func copyOrMove(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let request = try operation.bodyObject()
        guard let destination = request["destination"]?.stringValue, !destination.isEmpty else {
            throw SearchError.invalidParameter("destination", expected: "the name of the destination index")
        }
        var scope: [OperationScope]?
        if let value = request["scope"] {
            var parts: [OperationScope] = []
            for part in try ParameterReader(name: "scope", value: value).stringList() {
                guard let known = OperationScope(rawValue: part) else {
                    throw SearchError.invalidParameter("scope", expected: "settings, synonyms or rules", got: "\"\(part)\"")
                }
                parts.append(known)
            }
            scope = parts
        }
        guard let kind = request["operation"]?.stringValue.flatMap(IndexOperation.init(rawValue:)) else {
            throw SearchError.invalidParameter("operation", expected: "\"copy\" or \"move\"", got: request["operation"]?.jsonString ?? "nothing")
        }
        try engine.applyOperation(kind, from: name, to: destination, scope: scope)
        return receipt.updated()
    }
}
