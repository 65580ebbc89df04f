import OfflineSearch
import SearchAPI

/// An index's Rules: save (a batch, or one by objectID), read, search, delete, clear; each
/// write forwarded to the replicas with `forwardToReplicas`.
struct RulesHandler: Sendable {
    let engine: SearchEngine
    /// The task ID and timestamps of its writes' answers.
    let receipt: WriteReceipt

    /// `POST /1/indexes/{indexName}/rules/search`, through the engine's `IndexRulesService`.
    func search(_ name: String, _ operation: AlgoliaRequest) async throws -> AlgoliaAnswer {
        let parameters = try SearchRulesParams(json: .object(try operation.bodyObject()))
        return .ok(try await (engine as any IndexRulesService).searchRules(indexName: name, searchRulesParams: parameters).jsonValue)
    }

    /// `GET /1/indexes/{indexName}/rules/{objectID}`.
    func get(_ name: String, _ objectID: String) throws -> AlgoliaAnswer {
        guard let rule = try engine.existingIndex(name).rule(objectID) else {
            throw SearchError(.objectNotFound, "ObjectID does not exist")
        }
        return .ok(.object(rule))
    }

    /// `POST /1/indexes/{indexName}/rules/batch` (`clearExistingRules`).
    func save(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        guard case .array(let rules) = operation.body else {
            throw SearchError(.invalidJSON, "body: expected an array of rule objects, each with an objectID")
        }
        var objects: [JSONObject] = []
        for (position, rule) in rules.enumerated() {
            guard let object = rule.objectValue else {
                throw SearchError.invalidParameter("rules[\(position)]", expected: "a rule object", got: rule.jsonString)
            }
            objects.append(object)
        }
        try engine.write(to: name) { index throws(SearchError) in
            try index.saveRules(objects, clearExisting: operation.flag("clearExistingRules"), forwardToReplicas: operation.flag("forwardToReplicas"))
        }
        return receipt.updated()
    }

    /// `PUT /1/indexes/{indexName}/rules/{objectID}`: the body's objectID, if any, must be the path's.
    func put(_ name: String, _ objectID: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        var rule = try operation.bodyObject()
        if rule["objectID"] == nil { rule["objectID"] = .string(objectID) }
        guard rule["objectID"]?.scalarText == objectID else {
            throw SearchError.invalidParameter("objectID", expected: "the objectID of the path (\(objectID))", got: rule["objectID"]?.jsonString)
        }
        try engine.write(to: name) { index throws(SearchError) in try index.saveRule(rule, forwardToReplicas: operation.flag("forwardToReplicas")) }
        return .ok(["taskID": receipt.taskID, "updatedAt": receipt.now, "id": .string(objectID)])
    }

    /// `DELETE /1/indexes/{indexName}/rules/{objectID}`: 404 for a missing one. Algolia
    /// answers it with `updatedAt` (the clients' `UpdatedAtResponse`).
    func delete(_ name: String, _ objectID: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let deleted = try engine.write(to: name, creating: false) { index throws(SearchError) in
            try index.deleteRule(objectID, forwardToReplicas: operation.flag("forwardToReplicas"))
        }
        guard deleted == true else {
            throw SearchError(.objectNotFound, "ObjectID does not exist")
        }
        return receipt.updated()
    }

    /// `POST /1/indexes/{indexName}/rules/clear`.
    func clear(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        try engine.write(to: name, creating: false) { index throws(SearchError) in try index.clearRules(forwardToReplicas: operation.flag("forwardToReplicas")) }
        return receipt.updated()
    }
}
