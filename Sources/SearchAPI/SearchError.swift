/// The one error type every `SearchService` throws: Algolia's error body
/// (`{"message": ..., "status": ...}`) plus a kind for callers that branch on it.
///
/// Messages say what was wrong, where, and what was expected:
/// `hitsPerPage: expected an integer from 0 to 1000, got "abc"`.
public struct SearchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for callers that branch on it; each kind has its HTTP status.
    public enum Kind: String, Sendable, Hashable {
        /// A request parameter or setting has the wrong type or value (400).
        case invalidParameter
        /// The request body or an imported file is not valid JSON, or not the expected shape (400).
        case invalidJSON
        /// A filter expression could not be parsed or is not allowed (400).
        case invalidFilter
        /// The index does not exist (404).
        case indexNotFound
        /// The record does not exist (404).
        case objectNotFound
        /// The API key is wrong, or lacks the right for the operation (403).
        case forbidden
        /// Something failed below the API: storage, the file system (500).
        case internalError
        /// The service could not be reached: no network, offline, host down or timed out.
        /// No HTTP answer came; `status` is 503, what a gateway answers in its place.
        case unreachable
        /// The caller cancelled the request (a newer query superseded it). No answer is
        /// sent; `status` is 499, the "client closed request" code proxies log for it.
        case cancelled
    }

    /// What went wrong, by kind.
    public var kind: Kind
    /// Algolia's `message`: what was wrong, for a person to read.
    public var message: String
    /// The HTTP status Algolia answers with for this error.
    public var status: Int

    /// An error of `kind` with `message`; `status` defaults to the kind's (400, 403, 404, 499,
    /// 500 or 503).
    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status ?? SearchError.defaultStatus(for: kind)
    }

    /// An `invalidParameter` error (400) naming the parameter, what was expected and, when given,
    /// what came: `hitsPerPage: expected an integer from 0 to 1000, got "abc"`.
    public static func invalidParameter(_ name: String, expected: String, got value: String? = nil) -> SearchError {
        var message = "\(name): expected \(expected)"
        if let value { message += ", got \(value)" }
        return SearchError(.invalidParameter, message)
    }

    /// An `indexNotFound` error (404): `Index products does not exist`.
    public static func indexNotFound(_ name: String) -> SearchError {
        SearchError(.indexNotFound, "Index \(name) does not exist")
    }

    /// The error a service throws when the task running the request is cancelled.
    public static func cancelled(_ what: String = "the request") -> SearchError {
        SearchError(.cancelled, "\(what) was cancelled")
    }

    public var description: String { message }

    /// Algolia's error body: `{"message": ..., "status": ...}`.
    public var jsonValue: JSONValue { ["message": .string(message), "status": .int(Int64(status))] }

    static func defaultStatus(for kind: Kind) -> Int {
        switch kind {
        case .invalidParameter, .invalidJSON, .invalidFilter: 400
        case .forbidden: 403
        case .indexNotFound, .objectNotFound: 404
        case .internalError: 500
        case .unreachable: 503
        case .cancelled: 499
        }
    }
}
