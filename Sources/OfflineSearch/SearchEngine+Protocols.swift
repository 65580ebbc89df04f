import SearchAPI

/// The engine behind the protocols a mirror and an admin screen use, on its public API: a
/// mirror copies into it (or out of it) as it does with a remote service. A local write is
/// applied when the call returns, so every task is published at once (`taskID` 0).
extension SearchEngine: BrowsingService, IndexSettingsReader, IndexWritingService, IndexRulesService {
    // MARK: BrowsingService

    public func browse(indexName: String, parameters: SearchParameters, cursor: String?) async throws(SearchError) -> BrowseResponse {
        let page = try existingIndex(indexName).browse(parameters, cursor: cursor)
        return BrowseResponse(response: page.response, cursor: page.cursor)
    }

    // MARK: IndexSettingsReader

    /// Every setting with its default filled in, as `GET /1/indexes/{index}/settings` answers.
    public func getSettings(indexName: String) async throws(SearchError) -> JSONObject {
        try existingIndex(indexName).settings.withDefaults
    }

    public func searchSynonyms(indexName: String, query: String, page: Int, hitsPerPage: Int) async throws(SearchError) -> SynonymsPage {
        let found = try existingIndex(indexName).searchSynonyms(query: query, page: page, hitsPerPage: hitsPerPage)
        return SynonymsPage(hits: found.hits, nbHits: found.nbHits)
    }

    // MARK: IndexRulesService

    public func getRule(indexName: String, objectID: String) async throws(SearchError) -> JSONObject {
        guard let rule = try existingIndex(indexName).rule(objectID) else {
            throw SearchError(.objectNotFound, "Rule \(objectID) does not exist in index \(indexName)")
        }
        return rule
    }

    public func saveRules(indexName: String, rules: [JSONObject], forwardToReplicas: Bool,
                          clearExistingRules: Bool) async throws(SearchError) -> WriteResponse {
        try write(to: indexName) { index throws(SearchError) in
            try index.saveRules(rules, clearExisting: clearExistingRules, forwardToReplicas: forwardToReplicas)
        }
        return WriteResponse(taskID: 0)
    }

    public func deleteRule(indexName: String, objectID: String, forwardToReplicas: Bool) async throws(SearchError) -> WriteResponse {
        guard try existingIndex(indexName).deleteRule(objectID, forwardToReplicas: forwardToReplicas) else {
            throw SearchError(.objectNotFound, "Rule \(objectID) does not exist in index \(indexName)")
        }
        return WriteResponse(taskID: 0)
    }

    public func clearRules(indexName: String, forwardToReplicas: Bool) async throws(SearchError) -> WriteResponse {
        try write(to: indexName, creating: false) { index throws(SearchError) in try index.clearRules(forwardToReplicas: forwardToReplicas) }
        return WriteResponse(taskID: 0)
    }

    public func searchRules(indexName: String, searchRulesParams: SearchRulesParams) async throws(SearchError) -> RulesPage {
        try existingIndex(indexName).searchRules(searchRulesParams)
    }

    // MARK: IndexWritingService

    public func batch(indexName: String, operations: [BatchOperation]) async throws(SearchError) -> WriteResponse {
        WriteResponse(taskID: 0, objectIDs: try applyBatch(operations.map { (indexName, $0) }))
    }

    public func setSettings(indexName: String, indexSettings: JSONObject, forwardToReplicas: Bool) async throws(SearchError) -> WriteResponse {
        try write(to: indexName) { index throws(SearchError) in try index.setSettings(indexSettings, forwardToReplicas: forwardToReplicas) }
        return WriteResponse(taskID: 0)
    }

    public func saveSynonyms(indexName: String, synonymHit: [JSONObject], forwardToReplicas: Bool,
                             replaceExistingSynonyms: Bool) async throws(SearchError) -> WriteResponse {
        try write(to: indexName) { index throws(SearchError) in
            try index.saveSynonyms(synonymHit.map(JSONValue.object), replaceExisting: replaceExistingSynonyms,
                                   forwardToReplicas: forwardToReplicas)
        }
        return WriteResponse(taskID: 0)
    }

    public func operationIndex(indexName: String, operationIndexParams: OperationIndexParams) async throws(SearchError) -> WriteResponse {
        try applyOperation(operationIndexParams.operation, from: indexName, to: operationIndexParams.destination,
                           scope: operationIndexParams.scope)
        return WriteResponse(taskID: 0)
    }

    public func deleteIndex(indexName: String) async throws(SearchError) -> WriteResponse {
        try deleteIndex(indexName)
        return WriteResponse(taskID: 0)
    }

    /// Returns at once: a local write is published when it returns.
    public func waitForTask(indexName: String, taskID: Int64) async throws(SearchError) {}

    // MARK: Synchronous forms (the server's writer thread)

    /// Applies the operations of a batch (or a multi-index batch) in order. Consecutive
    /// operations on one index are one write (`SearchIndex.batch`: one transaction).
    /// - Returns: the objectIDs of the operations that name one, in order.
    public func applyBatch(_ operations: [(indexName: String, operation: BatchOperation)]) throws(SearchError) -> [String] {
        var objectIDs: [String] = []
        var start = 0
        while start < operations.count {
            let name = operations[start].indexName
            guard operations[start].operation != .delete else {
                try deleteIndex(name)
                start += 1
                continue
            }
            // Consecutive operations on one index: one write (one transaction).
            var end = start + 1
            while end < operations.count, operations[end].indexName == name, operations[end].operation != .delete { end += 1 }
            let group = operations[start..<end].map(\.operation)
            // Deletes and clears alone do not create a missing index.
            let writes = group.contains {
                switch $0 {
                case .addObject, .updateObject, .partialUpdateObject: true
                default: false
                }
            }
            if let written = try write(to: name, creating: writes, { index throws(SearchError) in try index.batch(group) }) {
                objectIDs += written
            } else {
                objectIDs += group.compactMap { if case .deleteObject(let id) = $0 { id } else { nil } }
            }
            start = end
        }
        return objectIDs
    }

    /// Copies or moves an index (Algolia's `operationIndex`). Copying parts (`scope`) of an
    /// index that does not exist leaves an empty destination (`replaceAllObjects` on a new
    /// index starts so).
    public func applyOperation(_ operation: IndexOperation, from source: String, to destination: String,
                               scope: [OperationScope]?) throws(SearchError) {
        let parts = scope.map { Set($0.compactMap { IndexCopyScope(rawValue: $0.rawValue) }) }
        switch operation {
        case .copy:
            if parts != nil, !exists(source) {
                _ = try index(destination)
            } else {
                try copyIndex(source, to: destination, scope: parts)
            }
        case .move:
            try moveIndex(source, to: destination, scope: parts)
        }
    }
}

