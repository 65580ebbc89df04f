import Foundation
import Hummingbird
import NIOCore
import OfflineSearch
import SearchAPI

/// The API's endpoint on the router: the operation `RouteMiddleware` read goes to the handler
/// of its resource, and its answer goes out as JSON (and to the response cache's slot).
///
/// Searches run on the caller's task, in parallel. Writes run on threads of their own (off Swift
/// concurrency's few, so that a long write never holds one that searches need), side by side:
/// the engine orders them, each index's writes by its one write lock, and the operations on
/// whole indices (delete, copy, move) among themselves.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AlgoliaEndpoint: HTTPResponder {
    typealias Context = ServerRequestContext

    let search: SearchHandler
    let records: RecordsHandler
    let indices: IndicesHandler
    let synonyms: SynonymsHandler
    let rules: RulesHandler
    let analytics: AnalyticsHandler
    let keys: KeysHandler
    let engine: SearchEngine
    /// Called (off Swift concurrency's threads, one at a time) with each index name a request
    /// names that does not exist yet.
    let prepareIndex: (@Sendable (String) throws -> Void)?
    /// Makes `prepareIndex` run one at a time: two requests naming the same missing index make
    /// it once.
    private let preparing = NSLock()

    init(engine: SearchEngine, prepareIndex: (@Sendable (String) throws -> Void)?, rightsOfKey: @escaping @Sendable (String) -> Access?) {
        let receipt = WriteReceipt(tasks: TaskClock())
        self.engine = engine
        self.prepareIndex = prepareIndex
        search = SearchHandler(engine: engine)
        records = RecordsHandler(engine: engine, receipt: receipt)
        indices = IndicesHandler(engine: engine, receipt: receipt)
        synonyms = SynonymsHandler(engine: engine, receipt: receipt)
        rules = RulesHandler(engine: engine, receipt: receipt)
        analytics = AnalyticsHandler(engine: engine)
        keys = KeysHandler(rightsOfKey: rightsOfKey)
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        guard var operation = context.operation else {
            throw ServerError(.internalServerError, "The endpoint was reached without a route")
        }
        try operation.authorize()
        if let prepareIndex {
            for name in Set(operation.indexNames) where !engine.exists(name) {
                try await offConcurrency { [engine, preparing] in
                    try preparing.withLock { if !engine.exists(name) { try prepareIndex(name) } }
                }
            }
        }
        // Whom the analytics count a search for when it names no `userToken`.
        let answer = try await SearchAnalytics.$fallbackUserToken.withValue(operation.caller.user) { [operation] in
            if operation.route.writes {
                return try await offConcurrency { try self.write(operation) }
            }
            if let answer = try await readThroughProtocols(operation) { return answer }
            if mayWait(operation) {
                return try await offConcurrency { try self.read(operation) }
            }
            return try read(operation)
        }
        let encoded = ByteBuffer(bytes: answer.json.jsonBytes)
        context.answerSlot?.fill((operation, answer, encoded))
        return .algoliaJSON(answer.status, encoded)
    }

    /// Runs blocking work (a write) on a thread of Dispatch's, not on Swift concurrency's.
    private func offConcurrency<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Whether a read may block for long: listing the indices and browsing (which wait for an
    /// index's search index being built in the background), a report (it reads the analytics
    /// database), and any read of an index whose search index is being built (a search with
    /// filters waits for it). Those run off Swift concurrency's threads, which searches need.
    private func mayWait(_ operation: AlgoliaRequest) -> Bool {
        switch operation.route {
        case .listIndices, .browse, .analytics: return true
        default: return operation.indexNames.contains { name in engine.mayWaitForSearchIndex(name) }
        }
    }

    /// The reads that never block for long, through the engine's `SearchAPI` protocols (async,
    /// as a remote service's are): events, settings, the search of Rules. Nil for the others.
    private func readThroughProtocols(_ operation: AlgoliaRequest) async throws -> AlgoliaAnswer? {
        switch operation.route {
        case .sendEvents: try await analytics.sendEvents(operation)
        case .getSettings(let name): try await indices.getSettings(name)
        case .searchRules(let name): try await rules.search(name, operation)
        default: nil
        }
    }

    /// An operation that reads, without suspension: on the caller's task, or off Swift
    /// concurrency's threads when it may wait (`mayWait`). The engine's synchronous forms, so
    /// that what blocks never holds a thread of Swift concurrency's.
    private func read(_ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        switch operation.route {
        case .multiSearch: try search.multiSearch(operation)
        case .search(let name): try search.search(name, operation)
        case .searchFacetValues(let name, let facet): try search.searchFacetValues(name, facet, operation)
        case .browse(let name): try search.browse(name, operation)
        case .getObjects: try records.getObjects(operation)
        case .getObject(let name, let objectID): try records.getObject(name, objectID, operation)
        case .listIndices: try indices.list()
        case .task, .appTask: indices.task()
        case .searchSynonyms(let name): try synonyms.search(name, operation)
        case .getSynonym(let name, let objectID): try synonyms.get(name, objectID)
        case .getRule(let name, let objectID): try rules.get(name, objectID)
        case .analytics(let report): try analytics.report(report, operation)
        case .getAPIKey(let key): try keys.describe(key, operation)
        case .sendEvents, .getSettings, .searchRules:
            throw ServerError(.internalServerError, "\(operation.route.template) is read through the engine's protocols")
        default: throw ServerError(.internalServerError, "\(operation.route.template) writes: it runs off Swift concurrency\'s threads")
        }
    }

    /// An operation that writes (`AlgoliaRoute.writes`), off Swift concurrency's threads.
    private func write(_ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        switch operation.route {
        case .saveObject(let name): try records.save(name, operation)
        case .putObject(let name, let objectID): try records.put(name, objectID, operation)
        case .deleteObject(let name, let objectID): try records.delete(name, objectID)
        case .partialUpdate(let name, let objectID): try records.partialUpdate(name, objectID, operation)
        case .batch(let name): try records.batch(name, operation)
        case .multiBatch: try records.multiBatch(operation)
        case .deleteBy(let name): try records.deleteBy(name, operation)
        case .clear(let name): try records.clear(name)
        case .deleteIndex(let name): try indices.delete(name)
        case .setSettings(let name): try indices.setSettings(name, operation)
        case .operation(let name): try indices.copyOrMove(name, operation)
        case .saveSynonyms(let name): try synonyms.save(name, operation)
        case .putSynonym(let name, let objectID): try synonyms.put(name, objectID, operation)
        case .deleteSynonym(let name, let objectID): try synonyms.delete(name, objectID, operation)
        case .clearSynonyms(let name): try synonyms.clear(name, operation)
        case .saveRules(let name): try rules.save(name, operation)
        case .putRule(let name, let objectID): try rules.put(name, objectID, operation)
        case .deleteRule(let name, let objectID): try rules.delete(name, objectID, operation)
        case .clearRules(let name): try rules.clear(name, operation)
        default: throw ServerError(.internalServerError, "\(operation.route.template) is not a write")
        }
    }
}

/// The task ID and timestamps of a write's answer.
struct WriteReceipt {
    let tasks: TaskClock

    var taskID: JSONValue { .int(tasks.next()) }
    var now: JSONValue { .string(TaskClock.timestamp()) }

    /// `{"taskID", "updatedAt"}`.
    func updated() -> AlgoliaAnswer { .ok(["taskID": taskID, "updatedAt": now]) }

    /// `{"taskID", "deletedAt"}`.
    func deleted() -> AlgoliaAnswer { .ok(["taskID": taskID, "deletedAt": now]) }
}
