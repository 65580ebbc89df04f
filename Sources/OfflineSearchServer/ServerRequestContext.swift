import Foundation
import Hummingbird
import NIOCore
import OfflineSearch
import SearchAPI

/// The request context: Hummingbird's, the caller's address (for `restrictSources`), and what
/// the middleware learn of an API request on its way in.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// Set by `AuthenticationMiddleware`: who is calling, with which rights.
    var caller: Caller?
    /// Set by `RouteMiddleware`: the operation, its parameters and its body.
    var operation: AlgoliaRequest?
    /// Set by `ResponseCacheMiddleware` for a search whose answer it may keep: where the
    /// endpoint leaves the answer it sends.
    var answerSlot: AnswerSlot?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Who sent a request, once its credentials are checked.
struct Caller: Sendable {
    /// The rights of the key (a secured key's restrictions included).
    let access: Access
    /// The API key the request was sent with (header or query string).
    let apiKey: String?
    /// Whom the analytics count a search for when it names no `userToken`: Algolia's
    /// `X-Algolia-UserToken` header, else the client's address.
    let user: String?
}

/// One operation of the API as the handlers see it: the route, the URL's query parameters,
/// the caller and the body.
struct AlgoliaRequest: Sendable {
    let route: AlgoliaRoute
    /// The URL's query parameters (the first of a repeated name).
    let query: [String: String]
    let caller: Caller
    /// The body as sent (the response cache's key).
    let bodyBytes: [UInt8]
    /// The body, read (`readBody()`) whatever its content type (`RequestBody`).
    private(set) var body: JSONValue = .object([:])
    /// Whether the caller's rights for this operation were checked already (by the response cache).
    var authorized = false

    init(route: AlgoliaRoute, query: [String: String], caller: Caller, bodyBytes: [UInt8]) {
        self.route = route
        self.query = query
        self.caller = caller
        self.bodyBytes = bodyBytes
    }

    var access: Access { caller.access }

    /// Whether `readBody()` has read `bodyBytes` into `body`.
    private(set) var bodyRead = false

    /// Reads `bodyBytes` into `body` (once).
    /// - Throws: `invalidJSON` (400) for a body that is neither JSON nor a form.
    mutating func readBody() throws(SearchError) {
        if bodyRead { return }
        body = try RequestBody.parse(bodyBytes)
        bodyRead = true
    }
}

/// What an operation answers: a status and Algolia's JSON.
struct AlgoliaAnswer: Sendable {
    var status: HTTPResponse.Status
    var json: JSONValue

    init(_ status: HTTPResponse.Status = .ok, _ json: JSONValue) {
        self.status = status
        self.json = json
    }

    static func ok(_ json: JSONValue) -> AlgoliaAnswer { AlgoliaAnswer(.ok, json) }
}

/// Where the endpoint leaves the answer it sends, for the response cache (which sees the
/// response's bytes only). Written once and read once, on the request's own task; the lock
/// keeps that honest for `Sendable`.
final class AnswerSlot: Sendable {
    /// The operation as answered (its body read), its answer and the answer's bytes.
    typealias Filled = (operation: AlgoliaRequest, answer: AlgoliaAnswer, encoded: ByteBuffer)
    private let stored = Stored()

    func fill(_ filled: Filled) { stored.set(filled) }
    var value: Filled? { stored.get() }

    private final class Stored: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Filled?
        func set(_ new: Filled) { lock.withLock { value = new } }
        func get() -> Filled? { lock.withLock { value } }
    }
}

extension Response {
    /// Algolia's JSON answer.
    static func algoliaJSON(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        algoliaJSON(status, ByteBuffer(string: value.jsonString))
    }

    /// Algolia's JSON answer, encoded already.
    static func algoliaJSON(_ status: HTTPResponse.Status, _ body: ByteBuffer) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=UTF-8"], body: ResponseBody(byteBuffer: body))
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
