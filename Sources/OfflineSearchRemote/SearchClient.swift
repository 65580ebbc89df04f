import Foundation
import SearchAPI

/// A client of Algolia's Search REST API, on URLSession, behind the same protocols as the
/// local engine: code written against `SearchService` runs on Algolia, on
/// `offline-search serve`, or on the engine in-process, and the line that builds the service
/// is the only one that changes. Its names follow Algolia's Swift API client (v9), so code
/// moved from that client reads the same.
///
/// ```swift
/// let client = try SearchClient(appID: "YourApplicationID", apiKey: "YourSearchOnlyAPIKey")
/// let response = try await client.searchSingleIndex(indexName: "products", searchParams: SearchParameters(query: "phone"))
/// ```
///
/// Hosts are tried with Algolia's retry strategy (see `SearchHost.algolia(appID:)` and
/// `SearchClientConfiguration`): a network error, a timeout or a 5xx answer moves to the next
/// host, a 4xx answer is final.
public final class SearchClient: Sendable {
    /// The version sent in `x-algolia-agent`.
    public static let version = "0.7.0"

    /// The credentials, hosts and timeouts the client was made with.
    public let configuration: SearchClientConfiguration
    let hosts: HostPool
    /// The hosts of the Insights API.
    let insightsHosts: HostPool
    let transport = HTTPTransport()

    /// A client of the Algolia application `appID` on Algolia's hosts.
    /// - Throws: `invalidParameter` for an empty application ID or API key, or an application
    ///   ID that is not letters, digits, `-` and `_`.
    public convenience init(appID: String, apiKey: String) throws(SearchError) {
        guard !appID.isEmpty, appID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw .invalidParameter("appID", expected: "an application ID such as \"latency\" (letters and digits)", got: "\"\(appID)\"")
        }
        guard !apiKey.isEmpty else { throw .invalidParameter("apiKey", expected: "an API key") }
        self.init(configuration: SearchClientConfiguration(appID: appID, apiKey: apiKey))
    }

    /// A client that reaches its application as `configuration` says (hosts, timeouts,
    /// headers); unlike `init(appID:apiKey:)`, it checks nothing.
    public init(configuration: SearchClientConfiguration) {
        self.configuration = configuration
        hosts = HostPool(hosts: configuration.hosts, hostDownDelay: configuration.hostDownDelay, now: configuration.now)
        insightsHosts = HostPool(hosts: configuration.insightsHosts, hostDownDelay: configuration.hostDownDelay, now: configuration.now)
    }

    deinit {
        transport.session.finishTasksAndInvalidate()
    }

    // MARK: Searching

    /// Searches one index (`POST /1/indexes/{index}/query`).
    public func searchSingleIndex(indexName: String, searchParams: SearchParameters = SearchParameters()) async throws(SearchError) -> SearchResponse {
        try SearchResponse(json: try await call(.search(index: indexName), body: .object(searchParams.jsonObject)))
    }

    /// Runs several queries, hits or facet values, on one or several indices
    /// (`POST /1/indexes/*/queries`).
    public func search(searchMethodParams: SearchMethodParams) async throws(SearchError) -> SearchResponses {
        let json = try await call(.multiSearch, body: searchMethodParams.jsonValue)
        guard let results = json["results"]?.arrayValue else {
            throw SearchError(.invalidJSON, "multi-search answer: results is missing or not an array")
        }
        var decoded: [MultiSearchResult] = []
        for result in results { decoded.append(try MultiSearchResult(json: result)) }
        return SearchResponses(results: decoded)
    }

    /// Searches the values of a `searchable()` facet (`POST /1/indexes/{index}/facets/{facet}/query`).
    public func searchForFacetValues(indexName: String, facetName: String,
                                     searchForFacetValuesRequest: SearchParameters = SearchParameters()) async throws(SearchError) -> FacetValuesResponse {
        try FacetValuesResponse(json: try await call(.searchFacetValues(index: indexName, facet: facetName),
                                                     body: .object(searchForFacetValuesRequest.jsonObject)))
    }

    // MARK: Records

    /// One record (`GET /1/indexes/{index}/{objectID}`); `objectNotFound` when there is none.
    public func getObject(indexName: String, objectID: String, attributesToRetrieve: [String]? = nil) async throws(SearchError) -> JSONObject {
        let query = attributesToRetrieve.map { [("attributesToRetrieve", $0.joined(separator: ","))] } ?? []
        let json = try await call(.getObject(index: indexName, objectID: objectID), query: query)
        guard let record = json.objectValue else { throw SearchError(.invalidJSON, "get object answer: expected a record object") }
        return record
    }

    /// Several records (`POST /1/indexes/*/objects`), nil for those that do not exist.
    public func getObjects(requests: [(indexName: String, objectID: String)], attributesToRetrieve: [String]? = nil) async throws(SearchError) -> [JSONObject?] {
        let body: JSONValue = ["requests": .array(requests.map { request in
            var object: JSONObject = ["indexName": .string(request.indexName), "objectID": .string(request.objectID)]
            if let attributesToRetrieve { object["attributesToRetrieve"] = .array(attributesToRetrieve.map { .string($0) }) }
            return .object(object)
        })]
        let json = try await call(.getObjects, body: body)
        guard let results = json["results"]?.arrayValue else { throw SearchError(.invalidJSON, "get objects answer: results is missing") }
        return results.map(\.objectValue)
    }

    /// Adds or replaces one record (`PUT /1/indexes/{index}/{objectID}`).
    public func addOrUpdateObject(indexName: String, objectID: String, body: JSONObject) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.putObject(index: indexName, objectID: objectID), body: .object(body)), "add or update object")
    }

    /// Adds one record (`POST /1/indexes/{index}`), with a generated objectID if it has none.
    public func saveObject(indexName: String, body: JSONObject) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.saveObject(index: indexName), body: .object(body)), "save object")
    }

    /// Changes some attributes of one record (`POST /1/indexes/{index}/{objectID}/partial`):
    /// each is a new value or an operation such as `{"_operation": "Increment", "value": 1}`.
    public func partialUpdateObject(indexName: String, objectID: String, attributesToUpdate: JSONObject,
                                    createIfNotExists: Bool = true) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.partialUpdate(index: indexName, objectID: objectID),
                                     query: [("createIfNotExists", createIfNotExists ? "true" : "false")],
                                     body: .object(attributesToUpdate)), "partial update")
    }

    /// Deletes one record (`DELETE /1/indexes/{index}/{objectID}`).
    public func deleteObject(indexName: String, objectID: String) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.deleteObject(index: indexName, objectID: objectID)), "delete object")
    }

    /// Deletes the records matching filters (`POST /1/indexes/{index}/deleteByQuery`).
    public func deleteBy(indexName: String, deleteByParams: SearchParameters) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.deleteBy(index: indexName), body: .object(deleteByParams.jsonObject)), "delete by")
    }

    /// Removes every record (`POST /1/indexes/{index}/clear`); settings stay.
    public func clearObjects(indexName: String) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.clear(index: indexName)), "clear")
    }

    // MARK: Indices

    /// Every index of the application (`GET /1/indexes`).
    public func listIndices() async throws(SearchError) -> ListIndicesResponse {
        let json = try await call(.listIndices)
        do {
            return try JSONDecoder().decode(ListIndicesResponse.self, from: Data(json.jsonString.utf8))
        } catch {
            throw SearchError(.invalidJSON, "list indices answer: \(error)")
        }
    }

    /// One synonym (`GET /1/indexes/{index}/synonyms/{objectID}`).
    public func getSynonym(indexName: String, objectID: String) async throws(SearchError) -> JSONObject {
        let json = try await call(.getSynonym(index: indexName, objectID: objectID))
        guard let synonym = json.objectValue else { throw SearchError(.invalidJSON, "get synonym answer: expected an object") }
        return synonym
    }

    /// Adds or replaces one synonym (`PUT /1/indexes/{index}/synonyms/{objectID}`).
    public func saveSynonym(indexName: String, objectID: String, synonymHit: JSONObject, forwardToReplicas: Bool = false) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.putSynonym(index: indexName, objectID: objectID),
                                     query: [("forwardToReplicas", String(forwardToReplicas))], body: .object(synonymHit)), "save synonym")
    }

    /// Writes to several indices in one call (`POST /1/indexes/*/batch`).
    /// - Returns: the task of each index written, and the objectIDs, in order.
    public func multipleBatch(requests: [(indexName: String, operation: BatchOperation)]) async throws(SearchError) -> (taskID: [String: Int64], objectIDs: [String]) {
        let body: JSONValue = ["requests": .array(requests.map { request in
            guard case .object(var object) = request.operation.jsonValue else { return request.operation.jsonValue }
            object["indexName"] = .string(request.indexName)
            return .object(object)
        })]
        let json = try await call(.multiBatch, body: body)
        guard let tasks = json["taskID"]?.objectValue else {
            throw SearchError(.invalidJSON, "multiple batch answer: taskID is not an object of index names, got \(json.jsonString.prefix(120))")
        }
        var taskIDs: [String: Int64] = [:]
        for (name, value) in tasks { taskIDs[name] = value.intValue.map(Int64.init) ?? 0 }
        return (taskIDs, json["objectIDs"]?.arrayValue?.compactMap(\.scalarText) ?? [])
    }

    /// Deletes one synonym (`DELETE /1/indexes/{index}/synonyms/{objectID}`).
    public func deleteSynonym(indexName: String, objectID: String, forwardToReplicas: Bool = false) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.deleteSynonym(index: indexName, objectID: objectID),
                                     query: [("forwardToReplicas", String(forwardToReplicas))]), "delete synonym")
    }

    /// Removes every synonym (`POST /1/indexes/{index}/synonyms/clear`).
    public func clearSynonyms(indexName: String, forwardToReplicas: Bool = false) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.clearSynonyms(index: indexName),
                                     query: [("forwardToReplicas", String(forwardToReplicas))]), "clear synonyms")
    }

    /// `taskID` and `objectIDs` (or `objectID`) of a write's answer.
    func writeResponse(_ json: JSONValue, _ what: String) throws(SearchError) -> WriteResponse {
        guard let taskID = json["taskID"]?.intValue else {
            throw SearchError(.invalidJSON, "\(what) answer: taskID is missing or not an integer, got \(json.jsonString.prefix(120))")
        }
        let objectIDs = json["objectIDs"]?.arrayValue?.compactMap(\.scalarText) ?? json["objectID"]?.scalarText.map { [$0] } ?? []
        return WriteResponse(taskID: Int64(taskID), objectIDs: objectIDs)
    }
}

/// The body of a multi-search: the queries and Algolia's `strategy` (the name Algolia's Swift
/// client gives `MultiSearchBody`).
public typealias SearchMethodParams = MultiSearchBody

/// The answer of a multi-search: one result per query, in order.
public struct SearchResponses: Sendable, Hashable {
    /// One answer per query, in the order of the requests.
    public var results: [MultiSearchResult]

    /// The answer of a multi-search of these results.
    public init(results: [MultiSearchResult]) {
        self.results = results
    }
}

// MARK: The protocols

extension SearchClient: SearchService, BrowsingService, IndexSettingsReader, IndexWritingService {
    public func multiSearch(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult] {
        try await search(searchMethodParams: SearchMethodParams(requests: queries, strategy: strategy)).results
    }

    public func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse {
        try await searchForFacetValues(indexName: indexName, facetName: facet, searchForFacetValuesRequest: parameters)
    }

    /// One page of a browse (`POST /1/indexes/{index}/browse`); needs the `browse` ACL.
    public func browse(indexName: String, parameters: SearchParameters, cursor: String?) async throws(SearchError) -> BrowseResponse {
        var body = cursor == nil ? parameters.jsonObject : JSONObject()
        if let cursor { body["cursor"] = .string(cursor) }
        return try BrowseResponse(json: try await call(.browse(index: indexName), body: .object(body)))
    }

    public func getSettings(indexName: String) async throws(SearchError) -> JSONObject {
        let json = try await call(.getSettings(index: indexName))
        guard let settings = json.objectValue else { throw SearchError(.invalidJSON, "settings answer: expected an object") }
        return settings
    }

    public func searchSynonyms(indexName: String, query: String, page: Int, hitsPerPage: Int) async throws(SearchError) -> SynonymsPage {
        let body: JSONValue = ["query": .string(query), "page": .int(Int64(page)), "hitsPerPage": .int(Int64(hitsPerPage))]
        let json = try await call(.searchSynonyms(index: indexName), body: body)
        guard let hits = json["hits"]?.arrayValue, let nbHits = json["nbHits"]?.intValue else {
            throw SearchError(.invalidJSON, "synonym search answer: expected hits and nbHits, got \(json.jsonString.prefix(120))")
        }
        return SynonymsPage(hits: hits.compactMap(\.objectValue), nbHits: nbHits)
    }

    public func batch(indexName: String, operations: [BatchOperation]) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.batch(index: indexName),
                                     body: ["requests": .array(operations.map(\.jsonValue))]), "batch")
    }

    public func setSettings(indexName: String, indexSettings: JSONObject, forwardToReplicas: Bool = false) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.setSettings(index: indexName), query: [("forwardToReplicas", String(forwardToReplicas))],
                                     body: .object(indexSettings)), "set settings")
    }

    public func saveSynonyms(indexName: String, synonymHit: [JSONObject], forwardToReplicas: Bool = false,
                             replaceExistingSynonyms: Bool = false) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.saveSynonyms(index: indexName),
                                     query: [("forwardToReplicas", String(forwardToReplicas)),
                                             ("replaceExistingSynonyms", String(replaceExistingSynonyms))],
                                     body: .array(synonymHit.map(JSONValue.object))), "save synonyms")
    }

    public func operationIndex(indexName: String, operationIndexParams: OperationIndexParams) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.operation(index: indexName), body: operationIndexParams.jsonValue), "operation")
    }

    public func deleteIndex(indexName: String) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.deleteIndex(index: indexName)), "delete index")
    }

    /// Polls `GET /1/indexes/{index}/task/{taskID}` until the task is published, waiting a
    /// little longer between polls (up to 1 s), for `maxRetries` polls at most.
    public func waitForTask(indexName: String, taskID: Int64) async throws(SearchError) {
        try await waitForTask(indexName: indexName, taskID: taskID, maxRetries: 50)
    }

    /// Polls `GET /1/indexes/{index}/task/{taskID}` until the task is published, waiting twice
    /// as long between polls each time (from 100 ms, up to 1 s).
    /// - Throws: `internalError` when the task is not published after `maxRetries` polls (at
    ///   least 1), `cancelled` when the waiting task is cancelled.
    public func waitForTask(indexName: String, taskID: Int64, maxRetries: Int) async throws(SearchError) {
        var delay = Duration.milliseconds(100)
        for _ in 0..<max(1, maxRetries) {
            let json = try await call(.task(index: indexName, taskID: String(taskID)))
            if json["status"]?.stringValue == "published" { return }
            do { try await Task.sleep(for: delay) } catch { throw .cancelled("waiting for task \(taskID)") }
            delay = min(delay * 2, .seconds(1))
        }
        throw SearchError(.internalError, "task \(taskID) of index \(indexName) was not published after \(maxRetries) checks")
    }
}

// MARK: Rules

extension SearchClient: IndexRulesService {
    public func getRule(indexName: String, objectID: String) async throws(SearchError) -> JSONObject {
        let json = try await call(.getRule(index: indexName, objectID: objectID))
        guard let rule = json.objectValue else { throw SearchError(.invalidJSON, "get rule answer: expected an object") }
        return rule
    }

    public func saveRules(indexName: String, rules: [JSONObject], forwardToReplicas: Bool = false,
                          clearExistingRules: Bool = false) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.saveRules(index: indexName),
                                     query: [("forwardToReplicas", String(forwardToReplicas)),
                                             ("clearExistingRules", String(clearExistingRules))],
                                     body: .array(rules.map(JSONValue.object))), "save rules")
    }

    /// Saves one rule (`PUT /1/indexes/{index}/rules/{objectID}`).
    public func saveRule(indexName: String, objectID: String, rule: JSONObject,
                         forwardToReplicas: Bool = false) async throws(SearchError) -> WriteResponse {
        var rule = rule
        if rule["objectID"] == nil { rule["objectID"] = .string(objectID) }
        return try writeResponse(await call(.putRule(index: indexName, objectID: objectID),
                                            query: [("forwardToReplicas", String(forwardToReplicas))], body: .object(rule)), "save rule")
    }

    public func deleteRule(indexName: String, objectID: String, forwardToReplicas: Bool = false) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.deleteRule(index: indexName, objectID: objectID),
                                     query: [("forwardToReplicas", String(forwardToReplicas))]), "delete rule")
    }

    public func clearRules(indexName: String, forwardToReplicas: Bool = false) async throws(SearchError) -> WriteResponse {
        try writeResponse(await call(.clearRules(index: indexName), query: [("forwardToReplicas", String(forwardToReplicas))]),
                          "clear rules")
    }

    public func searchRules(indexName: String, searchRulesParams: SearchRulesParams) async throws(SearchError) -> RulesPage {
        try RulesPage(json: try await call(.searchRules(index: indexName), body: searchRulesParams.jsonValue))
    }
}
