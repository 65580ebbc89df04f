import OfflineSearch
import SearchAPI

/// An index's synonyms: save (a batch, or one by objectID), read, search, delete, clear; each
/// write forwarded to the replicas with `forwardToReplicas`.
struct SynonymsHandler: Sendable {
    let engine: SearchEngine
    /// The task ID and timestamps of its writes' answers.
    let receipt: WriteReceipt

    /// `POST /1/indexes/{indexName}/synonyms/search`.
    func search(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        let request = try operation.bodyObject()
        let types = try request["type"].map { value throws(SearchError) in
            try ParameterReader(name: "type", value: value).stringList()
        } ?? []
        let page = try request["page"].map { value throws(SearchError) in try ParameterReader(name: "page", value: value).int(in: 0...Int(Int32.max)) } ?? 0
        let hitsPerPage = try request["hitsPerPage"].map { value throws(SearchError) in
            try ParameterReader(name: "hitsPerPage", value: value).int(in: 1...1000)
        } ?? 100
        let found = try engine.existingIndex(name).searchSynonyms(query: request["query"]?.stringValue ?? "", types: types,
                                                                 page: page, hitsPerPage: hitsPerPage)
        return .ok(["hits": .array(found.hits.map(JSONValue.object)), "nbHits": .int(Int64(found.nbHits))])
    }

    /// `GET /1/indexes/{indexName}/synonyms/{objectID}`.
    func get(_ name: String, _ objectID: String) throws -> AlgoliaAnswer {
        guard let synonym = try engine.existingIndex(name).synonym(objectID) else {
            throw SearchError(.objectNotFound, "Synonym set does not exist")
        }
        return .ok(.object(synonym))
    }

    /// `POST /1/indexes/{indexName}/synonyms/batch` (`replaceExistingSynonyms`).
    func save(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        guard case .array(let synonyms) = operation.body else {
            throw SearchError(.invalidJSON, "body: expected an array of synonym objects, each with an objectID")
        }
        for synonym in synonyms where synonym["objectID"] == nil {
            throw SearchError.invalidParameter("objectID", expected: "an objectID in every synonym", got: synonym.jsonString)
        }
        try engine.write(to: name) { index throws(SearchError) in
            try index.saveSynonyms(synonyms, replaceExisting: operation.flag("replaceExistingSynonyms"),
                                   forwardToReplicas: operation.flag("forwardToReplicas"))
        }
        return receipt.updated()
    }

    /// `PUT /1/indexes/{indexName}/synonyms/{objectID}`.
    func put(_ name: String, _ objectID: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        var synonym = try operation.bodyObject()
        synonym["objectID"] = .string(objectID)
        try engine.write(to: name) { index throws(SearchError) in try index.saveSynonyms([.object(synonym)], forwardToReplicas: operation.flag("forwardToReplicas")) }
        return .ok(["taskID": receipt.taskID, "updatedAt": receipt.now, "id": .string(objectID)])
    }

    /// `DELETE /1/indexes/{indexName}/synonyms/{objectID}`: a missing one is no error.
    func delete(_ name: String, _ objectID: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        try engine.write(to: name, creating: false) { index throws(SearchError) in try index.deleteSynonym(objectID, forwardToReplicas: operation.flag("forwardToReplicas")) }
        return receipt.deleted()
    }

    /// `POST /1/indexes/{indexName}/synonyms/clear`.
    func clear(_ name: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        try engine.write(to: name, creating: false) { index throws(SearchError) in try index.clearSynonyms(forwardToReplicas: operation.flag("forwardToReplicas")) }
        return receipt.updated()
    }
}
