import OfflineSearch
import SearchAPI

/// Records: read one or several, save, replace, update in part, delete, batches on one index
/// or several, delete by filters, clear.
struct RecordsHandler: Sendable {
    let engine: SearchEngine
    /// The task ID and timestamps of its writes' answers.
    let receipt: WriteReceipt

    // MARK: Reads

    /// `POST /1/indexes/*/objects`: records of several indices, null for a missing one.
    func getObjects(_ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let requests = try operation.list("requests", expected: "an array such as [{\"indexName\": \"products\", \"objectID\": \"1\"}]")
        var results: [JSONValue] = []
        for request in requests {
            guard let name = request["indexName"]?.stringValue, let objectID = request["objectID"]?.scalarText else {
                throw SearchError.invalidParameter("requests", expected: "objects with indexName and objectID", got: request.jsonString)
            }
            let attributes = try request["attributesToRetrieve"].map { value throws(SearchError) in
                try ParameterReader(name: "attributesToRetrieve", value: value).stringList()
            }
            let record = try engine.existingIndex(name).object(objectID, attributesToRetrieve: attributes,
                                                               includeUnretrievable: operation.access == .admin)
            results.append(record.map(JSONValue.object) ?? .null)
        }
        return .ok(["results": .array(results)])
    }

    /// `GET /1/indexes/{indexName}/{objectID}`.
    func getObject(_ name: String, _ objectID: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let attributes = operation.query["attributesToRetrieve"].map(FormURLEncoding.list)
        guard let record = try engine.existingIndex(name).object(objectID, attributesToRetrieve: attributes,
                                                                  includeUnretrievable: operation.access == .admin) else {
            throw SearchError(.objectNotFound, "ObjectID does not exist")
        }
        return .ok(.object(record))
    }

    // MARK: Writes

    /// `POST /1/indexes/{indexName}`: a record saved, its objectID made when it has none.
    func save(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let record = try operation.bodyObject()
        let objectIDs = try engine.write(to: name) { index throws(SearchError) in try index.saveObjects([.object(record)]) }
        let objectID = objectIDs?.first ?? ""
        return AlgoliaAnswer(.created, ["createdAt": receipt.now, "taskID": receipt.taskID, "objectID": .string(objectID)])
    }

    /// `PUT /1/indexes/{indexName}/{objectID}`: the record replaced.
    func put(_ name: String, _ objectID: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        var record = try operation.bodyObject()
        record["objectID"] = .string(objectID)
        try engine.write(to: name) { index throws(SearchError) in try index.saveObjects([.object(record)]) }
        return .ok(["taskID": receipt.taskID, "updatedAt": receipt.now, "objectID": .string(objectID)])
    }

    /// `DELETE /1/indexes/{indexName}/{objectID}`: a missing index or record is no error.
    func delete(_ name: String, _ objectID: String) throws -> AlgoliaAnswer {
        try engine.write(to: name, creating: false) { index throws(SearchError) in try index.deleteObjects([objectID]) }
        return receipt.deleted()
    }

    /// `POST /1/indexes/{indexName}/{objectID}/partial` (`createIfNotExists`, true by default).
    func partialUpdate(_ name: String, _ objectID: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        var update = try operation.bodyObject()
        update["objectID"] = .string(objectID)
        let create = operation.query["createIfNotExists"].map { $0 != "false" } ?? true
        try engine.write(to: name) { index throws(SearchError) in try index.partialUpdateObjects([.object(update)], createIfNotExists: create) }
        return .ok(["taskID": receipt.taskID, "updatedAt": receipt.now, "objectID": .string(objectID)])
    }

    /// `POST /1/indexes/{indexName}/batch`: one transaction.
    func batch(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let requests = try operation.list("requests", expected: "an array of {\"action\": ..., \"body\": ...}")
        var operations: [(indexName: String, operation: BatchOperation)] = []
        for (position, request) in requests.enumerated() {
            operations.append((name, try BatchOperation(json: request, position: position)))
        }
        let objectIDs = try engine.applyBatch(operations)
        return .ok(["taskID": receipt.taskID, "objectIDs": .array(objectIDs.map { .string($0) })])
    }

    /// `POST /1/indexes/*/batch`: operations on several indices, a task per index.
    func multiBatch(_ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let requests = try operation.list("requests", expected: "an array of {\"action\": ..., \"indexName\": ..., \"body\": ...}")
        var operations: [(indexName: String, operation: BatchOperation)] = []
        var taskIDs = JSONObject()
        for (position, request) in requests.enumerated() {
            guard let name = request["indexName"]?.stringValue, !name.isEmpty else {
                throw SearchError.invalidParameter("requests", expected: "an indexName in every request", got: request.jsonString)
            }
            operations.append((name, try BatchOperation(json: request, position: position)))
            if taskIDs[name] == nil { taskIDs[name] = receipt.taskID }
        }
        let objectIDs = try engine.applyBatch(operations)
        return .ok(["taskID": .object(taskIDs), "objectIDs": .array(objectIDs.map { .string($0) })])
    }

    /// `POST /1/indexes/{indexName}/deleteByQuery`: the records the filters match.
    func deleteBy(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let parameters = try SearchParameters(json: try operation.bodyObject())
        guard try engine.write(to: name, creating: false, { index throws(SearchError) in try index.deleteBy(parameters) }) != nil else {
            throw SearchError.indexNotFound(name)
        }
        return receipt.updated()
    }

    /// `POST /1/indexes/{indexName}/clear`: every record; settings, synonyms and rules stay.
    func clear(_ name: String) throws -> AlgoliaAnswer {
        try engine.write(to: name, creating: false) { index throws(SearchError) in try index.clearObjects() }
        return receipt.updated()
    }
}
