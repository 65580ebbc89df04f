import Hummingbird
import NIOCore
import SearchAPI

/// An error that answers as Algolia does: `{"message": ..., "status": ...}` with this status.
/// Every error a handler throws is mapped through it; anything else is a 500.
public protocol AlgoliaHTTPError: Error {
    var httpStatus: HTTPResponse.Status { get }
    var message: String { get }
}

extension AlgoliaHTTPError {
    /// Algolia's error body.
    var body: JSONValue { ["message": .string(message), "status": .int(Int64(httpStatus.code))] }
}

extension SearchError: AlgoliaHTTPError {
    public var httpStatus: HTTPResponse.Status { HTTPResponse.Status(code: status) }
}

/// Errors of the HTTP layer itself: credentials, routes, bodies.
public struct ServerError: AlgoliaHTTPError, Sendable, Equatable {
    public var httpStatus: HTTPResponse.Status
    public var message: String

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.httpStatus = status
        self.message = message
    }

    /// Algolia's answer to an unknown application ID or API key.
    public static let invalidCredentials = ServerError(.forbidden, "Invalid Application-ID or API key")
    /// Algolia's answer when the key lacks the ACL for the operation.
    public static let methodNotAllowedWithKey = ServerError(.forbidden, "Method not allowed with this API key")
    /// Algolia's answer when a key's `restrictIndices` leaves the index out.
    public static let indexNotAllowed = ServerError(.forbidden, "Index not allowed with this API key")

    static func bodyTooLarge(limit: Int) -> ServerError {
        ServerError(.contentTooLarge, "The request body is larger than the server's limit of \(limit) bytes")
    }
}

extension NIOTooManyBytesError: AlgoliaHTTPError {
    public var message: String { "The request body is too large" }
    public var httpStatus: HTTPResponse.Status { .contentTooLarge }
}
