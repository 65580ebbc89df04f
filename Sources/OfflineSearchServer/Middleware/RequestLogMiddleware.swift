import Hummingbird
import Logging

/// The request log: one line per request, with its method, path, status and time, whatever
/// answered it (an error included: the middleware inside turn errors into answers).
@available(macOS 14, iOS 17, tvOS 17, *)
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("\(request.method.rawValue) \(RequestLogMiddleware.loggedPath(request.uri.path)) \(response.status.code) \(RequestLogMiddleware.tenths(milliseconds))ms")
        return response
    }

    /// A duration with one decimal (`12.3`), written without Foundation's `String(format:)`,
    /// which cost more than the rest of the line under load.
    static func tenths(_ value: Double) -> String {
        let tenths = value.isFinite ? Int((max(value, 0) * 10).rounded()) : 0
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The path as the request log shows it: an API key in `/1/keys/{key}` is not written.
    static func loggedPath(_ path: String) -> String {
        path.hasPrefix("/1/keys/") ? "/1/keys/…" : path
    }
}
