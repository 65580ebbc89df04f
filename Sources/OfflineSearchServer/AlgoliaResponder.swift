import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OfflineSearch
import SearchAPI

/// The request context: Hummingbird's, plus the caller's address (for `restrictSources`).
@available(macOS 14, iOS 17, tvOS 17, *)
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Answers every request: CORS (preflight included), credentials, the route, the body, the
/// operation, and Algolia's error body for whatever fails. Logs one line per request.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct AlgoliaResponder: HTTPResponder {
    public typealias Context = ServerRequestContext

    let api: AlgoliaAPI
    let authenticator: APIKeyAuthenticator
    let maxBodySize: Int
    let logger: Logger
    /// Repeated searches answered from memory while the indices they read are unchanged; nil: off.
    let cache: ResponseCache?
    /// The time credentials are checked at (`validUntil`); tests set it.
    var now: @Sendable () -> Date = { Date() }
    /// The dashboard at `/` and `/dashboard/…`; nil: not served (`--no-dashboard`).
    var dashboard: Dashboard?
    /// For a server without keys: who may send it requests at all (nil: anyone with a key).
    var localOnly: LocalOnlyGuard?

    static let applicationIDName = "x-algolia-application-id"
    static let apiKeyName = "x-algolia-api-key"
    static let credentialNames: Set<String> = [applicationIDName, apiKeyName, "x-algolia-agent"]
    /// Algolia's header naming the user a search is for (its analytics).
    static let userTokenField = HTTPField.Name("X-Algolia-UserToken")!

    public func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await answer(request, context: context)
        } catch let error as any AlgoliaHTTPError {
            response = AlgoliaResponder.json(error.httpStatus, error.body)
        } catch {
            let message = "Internal error: \(error)"
            response = AlgoliaResponder.json(.internalServerError, ["message": .string(message), "status": 500])
        }
        addCORSHeaders(to: &response, for: request)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("\(request.method.rawValue) \(AlgoliaResponder.loggedPath(request.uri.path)) \(response.status.code) \(String(format: "%.1f", milliseconds))ms")
        return response
    }

    /// The path as the request log shows it: an API key in `/1/keys/{key}` is not written.
    static func loggedPath(_ path: String) -> String {
        path.hasPrefix("/1/keys/") ? "/1/keys/…" : path
    }

    private func answer(_ request: Request, context: Context) async throws -> Response {
        if let localOnly { try localOnly.check(request) }
        if request.method == .options { return Response(status: .noContent) }
        if let dashboard, Dashboard.serves(request.uri.path) { return dashboard.response(to: request) }
        let query = Dictionary(FormURLEncoding.decodePairs(request.uri.query ?? ""), uniquingKeysWith: { first, _ in first })
        let segments = try AlgoliaRoute.decodedSegments(of: request.uri.path)
        let credential = { (name: String) -> String? in
            if let field = HTTPField.Name(name), let value = request.headers[field] { return value }
            return query.first { $0.key.lowercased() == name }?.value
        }
        let access = try authenticator.access(applicationID: credential(AlgoliaResponder.applicationIDName),
                                              apiKey: credential(AlgoliaResponder.apiKeyName),
                                              peer: context.remoteAddress?.ipAddress, now: now())
        let route = try AlgoliaRoute(method: request.method, segments: segments)
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBodySize)
        } catch is NIOTooManyBytesError {
            throw ServerError.bodyTooLarge(limit: maxBodySize)
        }
        let bytes = Array(buffer.readableBytesView)
        // The same caller sending the same search: the checks `handle` makes (the ACL, a secured
        // key's restricted indices) passed for it before, so a kept answer can be sent at once.
        let cacheKey = cache != nil && route.isCacheable
            ? ResponseCache.Key(method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
                                body: bytes, caller: access.cacheIdentity(apiKey: credential(AlgoliaResponder.apiKeyName)))
            : nil
        // Whom the analytics count a search for when it names no `userToken`: Algolia's header,
        // else the client's address.
        let user = request.headers[AlgoliaResponder.userTokenField] ?? context.remoteAddress?.ipAddress
        if let cache, let cacheKey, let kept = cache.kept(for: cacheKey, currentVersion: { api.contentVersion(of: $0) }) {
            // Sent from memory, still a search the index answered.
            if let analytics = api.engine.analytics {
                SearchAnalytics.$fallbackUserToken.withValue(user) {
                    for search in kept.searches {
                        analytics.recordSearch(indexName: search.indexName, parameters: search.parameters, nbHits: search.nbHits,
                                               objectIDs: search.objectIDs)
                    }
                }
            }
            return AlgoliaResponder.json(.ok, kept.answer)
        }
        let input = AlgoliaAPI.Input(route: route, query: query, body: try RequestBody.parse(bytes), access: access,
                                     apiKey: credential(AlgoliaResponder.apiKeyName))
        // Read before the search (and once the caller may read these indices): a write
        // committed meanwhile makes the kept answer a miss.
        var versions: ResponseCache.Versions?
        if cacheKey != nil {
            try api.authorize(input)
            versions = api.contentVersions(input)
        }
        let (status, answer) = try await SearchAnalytics.$fallbackUserToken.withValue(user) {
            try await api.handle(input, authorized: cacheKey != nil)
        }
        let encoded = ByteBuffer(string: answer.jsonString)
        if let cache, let cacheKey, let versions, status == .ok, !answer.hasQueryID {
            cache.keep(encoded, for: cacheKey, versions: versions, searches: api.answeredSearches(input, answer))
        }
        return AlgoliaResponder.json(status, encoded)
    }

    static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        json(status, ByteBuffer(string: value.jsonString))
    }

    static func json(_ status: HTTPResponse.Status, _ body: ByteBuffer) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=UTF-8"],
                 body: ResponseBody(byteBuffer: body))
    }

    /// Any origin may call (the keys are the protection); a preflight is answered for every
    /// method and the headers it asks for.
    private func addCORSHeaders(to response: inout Response, for request: Request) {
        response.headers[.accessControlAllowOrigin] = request.headers[.origin] ?? "*"
        response.headers[.vary] = "Origin"
        if request.method == .options {
            response.headers[.accessControlAllowMethods] = "GET, POST, PUT, DELETE, OPTIONS"
            response.headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders]
                ?? "content-type, x-algolia-application-id, x-algolia-api-key, x-algolia-agent, x-algolia-usertoken"
            response.headers[.accessControlMaxAge] = "86400"
        }
    }
}

/// Reads a request body whatever its content type: browsers send JSON as `text/plain` or
/// `application/x-www-form-urlencoded` (to avoid a preflight), and a real form body
/// (`a=1&b=[...]`) is read as an object whose values are JSON when they parse as JSON.
enum RequestBody {
    static func parse(_ bytes: [UInt8]) throws(SearchError) -> JSONValue {
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        guard let first else { return .object([:]) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            do { return try JSONValue(parsingUTF8: bytes) } catch {
                throw SearchError(.invalidJSON, "Invalid JSON in the request body: \(error.description)")
            }
        }
        guard let text = String(bytes: bytes, encoding: .utf8), text.contains("=") else {
            throw SearchError(.invalidJSON, "Invalid JSON in the request body: expected a JSON object")
        }
        var object = JSONObject()
        for (key, value) in FormURLEncoding.decodePairs(text) {
            object[key] = (value.first == "[" || value.first == "{") ? ((try? JSONValue(parsingUTF8: Array(value.utf8))) ?? .string(value)) : .string(value)
        }
        return .object(object)
    }
}
