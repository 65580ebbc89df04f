import Foundation
import Hummingbird
import OfflineSearch
import SearchAPI

/// The Search API's operations on the engine: one request in (route, query parameters, JSON
/// body, access), one Algolia answer out. Searches run on the caller's task, in parallel;
/// writes run one at a time on the server's writer thread, so a long write never holds a
/// thread searches need.
final class AlgoliaAPI: Sendable {
    let engine: SearchEngine
    private let prepareIndex: (@Sendable (String) throws -> Void)?
    private let tasks = TaskClock()
    private let writer = DispatchQueue(label: "offline-search.server.writes")
    /// The rights of an API key, as the server's authenticator reads it (nil: not a key of the
    /// server), for `GET /1/keys/{key}`.
    private let rightsOfKey: @Sendable (String) -> Access?
    /// When the server started: the `createdAt` of its keys.
    private let started = Int64(Date().timeIntervalSince1970)

    init(engine: SearchEngine, prepareIndex: (@Sendable (String) throws -> Void)?,
         rightsOfKey: @escaping @Sendable (String) -> Access? = { _ in nil }) {
        self.engine = engine
        self.prepareIndex = prepareIndex
        self.rightsOfKey = rightsOfKey
    }

    struct Input {
        let route: AlgoliaRoute
        let query: [String: String]
        let body: JSONValue
        let access: Access
        /// The API key the request was sent with.
        var apiKey: String? = nil
    }

    /// - Parameter authorized: whether `authorize(input)` already passed.
    func handle(_ input: Input, authorized: Bool = false) async throws -> (HTTPResponse.Status, JSONValue) {
        if !authorized { try authorize(input) }
        let names = indexNames(input)
        if prepareIndex != nil {
            for name in Set(names) where !engine.exists(name) { try await onWriter { try self.prepareIndex?(name) } }
        }
        if input.route.writes {
            return try await onWriter { try self.perform(input) }
        }
        return try perform(input)
    }

    /// Whether the caller may do this: the ACL of its key, and a secured key's restricted
    /// indices. Nothing is opened before it passes.
    func authorize(_ input: Input) throws(ServerError) {
        guard input.access.allows(input.route.acl) else { throw ServerError.methodNotAllowedWithKey }
        if case .secured(let restrictions) = input.access {
            for name in indexNames(input) where !restrictions.allowsIndex(name) { throw ServerError.indexNotAllowed }
        }
    }

    /// Runs a write on the writer thread.
    private func onWriter<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writer.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// The version of every index `input` names, for the response cache; nil when one has none
    /// (it does not exist, or a replica waits for its primary's write).
    func contentVersions(_ input: Input) -> ResponseCache.Versions? {
        var versions: ResponseCache.Versions = []
        for name in Set(indexNames(input)).sorted() {
            guard let version = contentVersion(of: name) else { return nil }
            versions.append((name, version))
        }
        return versions
    }

    /// The version of one index now; nil when it has none.
    func contentVersion(of name: String) -> SearchIndex.ContentVersion? {
        guard let index = try? engine.existingIndex(name) else { return nil }
        return try? index.contentVersion()
    }

    /// Every index a request names: in its path, or in the `requests` of a `*` route.
    private func indexNames(_ input: Input) -> [String] {
        if let index = input.route.index { return [index] }
        switch input.route {
        case .multiSearch, .getObjects, .multiBatch:
            return (input.body["requests"]?.arrayValue ?? []).compactMap { $0["indexName"]?.stringValue }
        default:
            return []
        }
    }

    /// The hits searches of a search request and their answer, for the response cache.
    func answeredSearches(_ input: Input, _ answer: JSONValue) -> [AnsweredSearch] {
        func answered(_ name: String, _ parameters: SearchParameters, _ response: JSONValue?) -> AnsweredSearch? {
            guard let response, let nbHits = response["nbHits"]?.intValue else { return nil }
            let objectIDs = (response["hits"]?.arrayValue ?? []).prefix(20).compactMap { $0["objectID"]?.stringValue }
            return AnsweredSearch(indexName: name, parameters: parameters, nbHits: nbHits, objectIDs: objectIDs)
        }
        switch input.route {
        case .search(let name):
            guard let object = try? searchObject(input.body, input.query), let parameters = try? SearchParameters(json: object) else { return [] }
            return answered(name, parameters, answer).map { [$0] } ?? []
        case .multiSearch:
            guard let body = try? MultiSearchBody(json: input.body), let results = answer["results"]?.arrayValue,
                  results.count == body.requests.count else { return [] }
            return zip(body.requests, results).compactMap { request, result in
                guard case .hits(let name, let parameters) = request else { return nil }
                return answered(name, parameters, result)
            }
        default:
            return []
        }
    }

    /// `GET /1/keys/{key}`'s answer, in Algolia's shape: the key's ACL (the admin key holds
    /// every right this server has), and a secured key's restrictions.
    private func describe(_ key: String, _ rights: Access) -> JSONValue {
        let acl: [String]
        var indexes: [String] = []
        var validity: Int64 = 0
        var parameters = ""
        switch rights {
        case .admin:
            acl = ["search", "browse", "addObject", "deleteObject", "deleteIndex", "settings", "editSettings", "analytics", "listIndexes"]
        case .search:
            acl = ["search"]
        case .secured(let restrictions):
            acl = ["search"]
            indexes = restrictions.restrictIndices ?? []
            validity = restrictions.validUntil.map { max(0, $0 - Int64(Date().timeIntervalSince1970)) } ?? 0
            parameters = restrictions.searchParameters.map { key, value in
                FormURLEncoding.encode(key) + "=" + FormURLEncoding.encode(value.scalarText ?? value.jsonString)
            }.joined(separator: "&")
        }
        return ["value": .string(key), "createdAt": .int(started), "acl": .array(acl.map { .string($0) }),
                "description": .string(rights == .admin ? "admin" : "search"), "indexes": .array(indexes.map { .string($0) }),
                "maxHitsPerQuery": 0, "maxQueriesPerIPPerHour": 0, "queryParameters": .string(parameters),
                "referers": [], "validity": .int(validity)]
    }

    // MARK: Operations

    private func perform(_ input: Input) throws -> (HTTPResponse.Status, JSONValue) {
        let body = input.body
        let query = input.query
        switch input.route {
        case .listIndices:
            return (.ok, try engine.listIndices().jsonValue)

        case .sendEvents:
            try engine.recordEvents(try InsightsEvent.events(inBody: body))
            return (.ok, ["status": 200, "message": "OK"])

        case .getAPIKey(let key):
            // The admin key reads any key; another key only itself (as Algolia's).
            guard input.access == .admin || key == input.apiKey else { throw ServerError.methodNotAllowedWithKey }
            // The caller's own key: its rights as checked for this request (a secured key's
            // `restrictSources` included, which a second check without the address would refuse).
            guard let rights = key == input.apiKey ? input.access : rightsOfKey(key) else {
                throw SearchError(.objectNotFound, "Key does not exist")
            }
            return (.ok, describe(key, rights))

        case .analytics(let report):
            guard let analytics = engine.analytics else {
                throw SearchError(.forbidden, "This server records no analytics (its data folder is read-only)")
            }
            let request = try AnalyticsRequest(query: query)
            switch report {
            case .topSearches: return (.ok, try analytics.topSearches(request).jsonValue)
            case .searchesWithoutResults: return (.ok, try analytics.searchesWithoutResults(request).jsonValue)
            case .searchCount: return (.ok, try analytics.searchCount(request).jsonValue)
            case .topHits: return (.ok, try analytics.topHits(request).jsonValue)
            case .topFilters(let attribute): return (.ok, try analytics.topFilters(request, attribute: attribute).jsonValue)
            }

        case .multiSearch:
            let multiSearch = try MultiSearchBody(json: body)
            var queries: [MultiSearchQuery] = []
            for request in multiSearch.requests {
                switch request {
                case .hits(let name, let parameters):
                    queries.append(.hits(indexName: name, parameters: try restricted(parameters, input.access)))
                case .facetValues(let name, let facet, let parameters):
                    queries.append(.facetValues(indexName: name, facet: facet, parameters: try restricted(parameters, input.access)))
                }
            }
            let results = try engine.multiSearchSync(queries, strategy: multiSearch.strategy)
            return (.ok, ["results": .array(results.map(\.jsonValue))])

        case .search(let name):
            let parameters = try restricted(try SearchParameters(json: searchObject(body, query)), input.access)
            return (.ok, try engine.existingIndex(name).search(parameters).jsonValue)

        case .searchFacetValues(let name, let facet):
            let parameters = try restricted(try SearchParameters(json: try object(body)), input.access)
            return (.ok, try engine.existingIndex(name).searchForFacetValues(facet: facet, parameters: parameters).jsonValue)

        case .browse(let name):
            var object = try searchObject(body, query)
            let cursor = object["cursor"]?.stringValue
            object["cursor"] = nil
            let parameters = try restricted(try SearchParameters(json: object), input.access)
            return (.ok, try engine.existingIndex(name).browse(parameters, cursor: cursor).jsonValue)

        case .getObjects:
            let requests = try list(body, "requests", expected: "an array such as [{\"indexName\": \"products\", \"objectID\": \"1\"}]")
            var results: [JSONValue] = []
            for request in requests {
                guard let name = request["indexName"]?.stringValue, let objectID = request["objectID"]?.scalarText else {
                    throw SearchError.invalidParameter("requests", expected: "objects with indexName and objectID", got: request.jsonString)
                }
                let attributes = try request["attributesToRetrieve"].map { value throws(SearchError) in
                    try ParameterReader(name: "attributesToRetrieve", value: value).stringList()
                }
                let record = try engine.existingIndex(name).object(objectID, attributesToRetrieve: attributes,
                                                                   includeUnretrievable: input.access == .admin)
                results.append(record.map(JSONValue.object) ?? .null)
            }
            return (.ok, ["results": .array(results)])

        case .getObject(let name, let objectID):
            let attributes = query["attributesToRetrieve"].map(FormURLEncoding.list)
            guard let record = try engine.existingIndex(name).object(objectID, attributesToRetrieve: attributes,
                                                                      includeUnretrievable: input.access == .admin) else {
                throw SearchError(.objectNotFound, "ObjectID does not exist")
            }
            return (.ok, .object(record))

        case .saveObject(let name):
            let record = try object(body)
            let objectID = try engine.index(name).saveObjects([.object(record)])[0]
            return (.created, ["createdAt": now(), "taskID": task(), "objectID": .string(objectID)])

        case .putObject(let name, let objectID):
            var record = try object(body)
            record["objectID"] = .string(objectID)
            try engine.index(name).saveObjects([.object(record)])
            return (.ok, ["taskID": task(), "updatedAt": now(), "objectID": .string(objectID)])

        case .deleteObject(let name, let objectID):
            if engine.exists(name) { try engine.index(name).deleteObjects([objectID]) }
            return (.ok, ["taskID": task(), "deletedAt": now()])

        case .partialUpdate(let name, let objectID):
            var update = try object(body)
            update["objectID"] = .string(objectID)
            let create = query["createIfNotExists"].map { $0 != "false" } ?? true
            try engine.index(name).partialUpdateObjects([.object(update)], createIfNotExists: create)
            return (.ok, ["taskID": task(), "updatedAt": now(), "objectID": .string(objectID)])

        case .batch(let name):
            let requests = try list(body, "requests", expected: "an array of {\"action\": ..., \"body\": ...}")
            var operations: [(indexName: String, operation: BatchOperation)] = []
            for (position, request) in requests.enumerated() {
                operations.append((name, try BatchOperation(json: request, position: position)))
            }
            let objectIDs = try engine.applyBatch(operations)
            return (.ok, ["taskID": task(), "objectIDs": .array(objectIDs.map { .string($0) })])

        case .multiBatch:
            let requests = try list(body, "requests", expected: "an array of {\"action\": ..., \"indexName\": ..., \"body\": ...}")
            var operations: [(indexName: String, operation: BatchOperation)] = []
            var taskIDs = JSONObject()
            for (position, request) in requests.enumerated() {
                guard let name = request["indexName"]?.stringValue, !name.isEmpty else {
                    throw SearchError.invalidParameter("requests", expected: "an indexName in every request", got: request.jsonString)
                }
                operations.append((name, try BatchOperation(json: request, position: position)))
                if taskIDs[name] == nil { taskIDs[name] = task() }
            }
            let objectIDs = try engine.applyBatch(operations)
            return (.ok, ["taskID": .object(taskIDs), "objectIDs": .array(objectIDs.map { .string($0) })])

        case .deleteBy(let name):
            try engine.existingIndex(name).deleteBy(try SearchParameters(json: try object(body)))
            return (.ok, ["taskID": task(), "updatedAt": now()])

        case .clear(let name):
            if engine.exists(name) { try engine.index(name).clearObjects() }
            return (.ok, ["taskID": task(), "updatedAt": now()])

        case .deleteIndex(let name):
            try engine.deleteIndex(name)
            return (.ok, ["taskID": task(), "deletedAt": now()])

        case .getSettings(let name):
            return (.ok, .object(try engine.existingIndex(name).settings.withDefaults))

        case .setSettings(let name):
            try engine.index(name).setSettings(try object(body), forwardToReplicas: flag(query, "forwardToReplicas"))
            return (.ok, ["taskID": task(), "updatedAt": now()])

        case .operation(let name):
            let request = try object(body)
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
            guard let operation = request["operation"]?.stringValue.flatMap(IndexOperation.init(rawValue:)) else {
                throw SearchError.invalidParameter("operation", expected: "\"copy\" or \"move\"", got: request["operation"]?.jsonString ?? "nothing")
            }
            try engine.applyOperation(operation, from: name, to: destination, scope: scope)
            return (.ok, ["taskID": task(), "updatedAt": now()])

        case .task, .appTask:
            return (.ok, ["status": "published", "pendingTask": false])

        case .saveSynonyms(let name):
            guard case .array(let synonyms) = body else {
                throw SearchError(.invalidJSON, "body: expected an array of synonym objects, each with an objectID")
            }
            for synonym in synonyms where synonym["objectID"] == nil {
                throw SearchError.invalidParameter("objectID", expected: "an objectID in every synonym", got: synonym.jsonString)
            }
            try engine.index(name).saveSynonyms(synonyms, replaceExisting: flag(query, "replaceExistingSynonyms"),
                                                forwardToReplicas: flag(query, "forwardToReplicas"))
            return (.ok, ["taskID": task(), "updatedAt": now()])

        case .putSynonym(let name, let objectID):
            var synonym = try object(body)
            synonym["objectID"] = .string(objectID)
            try engine.index(name).saveSynonyms([.object(synonym)], forwardToReplicas: flag(query, "forwardToReplicas"))
            return (.ok, ["taskID": task(), "updatedAt": now(), "id": .string(objectID)])

        case .getSynonym(let name, let objectID):
            guard let synonym = try engine.existingIndex(name).synonym(objectID) else {
                throw SearchError(.objectNotFound, "Synonym set does not exist")
            }
            return (.ok, .object(synonym))

        case .deleteSynonym(let name, let objectID):
            if engine.exists(name) { try engine.index(name).deleteSynonym(objectID, forwardToReplicas: flag(query, "forwardToReplicas")) }
            return (.ok, ["taskID": task(), "deletedAt": now()])

        case .clearSynonyms(let name):
            if engine.exists(name) { try engine.index(name).clearSynonyms(forwardToReplicas: flag(query, "forwardToReplicas")) }
            return (.ok, ["taskID": task(), "updatedAt": now()])

        case .searchSynonyms(let name):
            let request = try object(body)
            let types = try request["type"].map { value throws(SearchError) in
                try ParameterReader(name: "type", value: value).stringList()
            } ?? []
            let page = try request["page"].map { value throws(SearchError) in try ParameterReader(name: "page", value: value).int(in: 0...Int(Int32.max)) } ?? 0
            let hitsPerPage = try request["hitsPerPage"].map { value throws(SearchError) in
                try ParameterReader(name: "hitsPerPage", value: value).int(in: 1...1000)
            } ?? 100
            let found = try engine.existingIndex(name).searchSynonyms(query: request["query"]?.stringValue ?? "", types: types,
                                                                     page: page, hitsPerPage: hitsPerPage)
            return (.ok, ["hits": .array(found.hits.map(JSONValue.object)), "nbHits": .int(Int64(found.nbHits))])

        case .searchRules(let name):
            let parameters = try SearchRulesParams(json: .object(try object(body)))
            return (.ok, try engine.existingIndex(name).searchRules(parameters).jsonValue)

        case .saveRules(let name):
            guard case .array(let rules) = body else {
                throw SearchError(.invalidJSON, "body: expected an array of rule objects, each with an objectID")
            }
            var objects: [JSONObject] = []
            for (position, rule) in rules.enumerated() {
                guard let object = rule.objectValue else {
                    throw SearchError.invalidParameter("rules[\(position)]", expected: "a rule object", got: rule.jsonString)
                }
                objects.append(object)
            }
            try engine.index(name).saveRules(objects, clearExisting: flag(query, "clearExistingRules"),
                                             forwardToReplicas: flag(query, "forwardToReplicas"))
            return (.ok, ["taskID": task(), "updatedAt": now()])

        case .putRule(let name, let objectID):
            var rule = try object(body)
            if rule["objectID"] == nil { rule["objectID"] = .string(objectID) }
            guard rule["objectID"]?.scalarText == objectID else {
                throw SearchError.invalidParameter("objectID", expected: "the objectID of the path (\(objectID))", got: rule["objectID"]?.jsonString)
            }
            try engine.index(name).saveRule(rule, forwardToReplicas: flag(query, "forwardToReplicas"))
            return (.ok, ["taskID": task(), "updatedAt": now(), "id": .string(objectID)])

        case .getRule(let name, let objectID):
            guard let rule = try engine.existingIndex(name).rule(objectID) else {
                throw SearchError(.objectNotFound, "ObjectID does not exist")
            }
            return (.ok, .object(rule))

        case .deleteRule(let name, let objectID):
            guard engine.exists(name), try engine.index(name).deleteRule(objectID, forwardToReplicas: flag(query, "forwardToReplicas")) else {
                throw SearchError(.objectNotFound, "ObjectID does not exist")
            }
            // Algolia answers a rule's deletion with `updatedAt` (the clients' UpdatedAtResponse).
            return (.ok, ["taskID": task(), "updatedAt": now()])

        case .clearRules(let name):
            if engine.exists(name) { try engine.index(name).clearRules(forwardToReplicas: flag(query, "forwardToReplicas")) }
            return (.ok, ["taskID": task(), "updatedAt": now()])
        }
    }

    // MARK: Reading requests

    private func task() -> JSONValue { .int(tasks.next()) }
    private func now() -> JSONValue { .string(TaskClock.timestamp()) }

    private func flag(_ query: [String: String], _ name: String) -> Bool { query[name] == "true" }

    private func object(_ body: JSONValue) throws(SearchError) -> JSONObject {
        guard case .object(let object) = body else {
            throw SearchError(.invalidJSON, "body: expected a JSON object, got \(body.jsonString.prefix(60))")
        }
        return object
    }

    private func list(_ body: JSONValue, _ key: String, expected: String) throws(SearchError) -> [JSONValue] {
        guard case .array(let items)? = try object(body)[key] else { throw .invalidParameter(key, expected: expected) }
        return items
    }

    /// Search parameters from the body, or from the URL's query parameters (a GET).
    private func searchObject(_ body: JSONValue, _ query: [String: String]) throws(SearchError) -> JSONObject {
        var object = try self.object(body)
        for (key, value) in query where !AlgoliaResponder.credentialNames.contains(key.lowercased()) && object[key] == nil {
            object[key] = .string(value)
        }
        return object
    }

    /// A secured API key's restrictions applied to a query.
    private func restricted(_ parameters: SearchParameters, _ access: Access) throws(SearchError) -> SearchParameters {
        guard case .secured(let restrictions) = access else { return parameters }
        return try restrictions.restrict(parameters)
    }
}
