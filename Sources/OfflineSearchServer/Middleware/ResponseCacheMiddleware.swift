import Hummingbird
import NIOCore
import OfflineSearch
import SearchAPI

/// Answers a repeated search from the `ResponseCache` while the indices it read are
/// unchanged, and keeps the answers of the searches it lets through. Only searches,
/// multi-searches and facet-value searches: their answer is a function of the request, the
/// caller and the indices they name.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ResponseCacheMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let cache: ResponseCache
    let engine: SearchEngine

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard var operation = context.operation, operation.route.isCacheable else { return try await next(request, context) }
        let caller = operation.caller
        // The same caller sending the same search: the checks a handler makes (the ACL, a secured
        // key's restricted indices) passed for it before, so a kept answer can be sent at once.
        let key = ResponseCache.Key(method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
                                    body: operation.bodyBytes, caller: caller.access.cacheIdentity(apiKey: caller.apiKey))
        if let kept = cache.kept(for: key, currentVersion: contentVersion(of:)) {
            // Sent from memory, still searches the index answered.
            if let analytics = engine.analytics {
                SearchAnalytics.$fallbackUserToken.withValue(caller.user) {
                    for search in kept.searches {
                        analytics.recordSearch(indexName: search.indexName, parameters: search.parameters, nbHits: search.nbHits,
                                               objectIDs: search.objectIDs)
                    }
                }
            }
            return .algoliaJSON(.ok, kept.answer)
        }
        // Read before the search (and once the caller may read these indices): a write
        // committed meanwhile makes the kept answer a miss.
        try operation.authorize()
        let versions = contentVersions(operation)
        var context = context
        context.operation = operation
        let slot = AnswerSlot()
        context.answerSlot = slot
        let response = try await next(request, context)
        if let versions, let (answered, answer, encoded) = slot.value, answer.status == .ok, !answer.json.hasQueryID {
            cache.keep(encoded, for: key, versions: versions, searches: answeredSearches(answered, answer.json))
        }
        return response
    }

    /// The version of every index the operation names; nil when one has none (it does not
    /// exist, or a replica waits for its primary's write).
    private func contentVersions(_ operation: AlgoliaRequest) -> ResponseCache.Versions? {
        var versions: ResponseCache.Versions = []
        for name in Set(operation.indexNames).sorted() {
            guard let version = contentVersion(of: name) else { return nil }
            versions.append((name, version))
        }
        return versions
    }

    /// The version of one index now; nil when it has none.
    private func contentVersion(of name: String) -> SearchIndex.ContentVersion? {
        guard let index = try? engine.existingIndex(name) else { return nil }
        return try? index.contentVersion()
    }

    /// The hits searches of a search operation and their answer, counted again by the
    /// analytics each time the answer is sent from memory.
    private func answeredSearches(_ operation: AlgoliaRequest, _ answer: JSONValue) -> [AnsweredSearch] {
        func answered(_ name: String, _ parameters: SearchParameters, _ response: JSONValue?) -> AnsweredSearch? {
            guard let response, let nbHits = response["nbHits"]?.intValue else { return nil }
            let objectIDs = (response["hits"]?.arrayValue ?? []).prefix(20).compactMap { $0["objectID"]?.stringValue }
            return AnsweredSearch(indexName: name, parameters: parameters, nbHits: nbHits, objectIDs: objectIDs)
        }
        let body = operation.body
        switch operation.route {
        case .search(let name):
            guard let object = try? SearchHandler.searchObject(body, operation.query), let parameters = try? SearchParameters(json: object) else {
                return []
            }
            return answered(name, parameters, answer).map { [$0] } ?? []
        case .multiSearch:
            guard let multiSearch = try? MultiSearchBody(json: body), let results = answer["results"]?.arrayValue,
                  results.count == multiSearch.requests.count else { return [] }
            return zip(multiSearch.requests, results).compactMap { request, result in
                guard case .hits(let name, let parameters) = request else { return nil }
                return answered(name, parameters, result)
            }
        default:
            return []
        }
    }
}
