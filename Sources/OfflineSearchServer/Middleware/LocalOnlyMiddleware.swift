import Foundation
import Hummingbird

/// What a server without keys answers: only requests that name an address it binds (a page of
/// another site that reaches it by DNS rebinding gets 421) and that come from no web page or a
/// page of a loopback origin (`http://localhost:3000`, the dashboard itself): a page of another
/// site gets 403 for its requests, even those a browser sends without asking first (a form's
/// POST), so that no site the user visits can read or change the indices.
@available(macOS 14, iOS 17, tvOS 17, *)
struct LocalOnlyMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let configuration: ServerConfiguration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard configuration.isBoundHost(request.head.authority) else {
            throw ServerError(.misdirectedRequest, "This server answers only on the address it binds (\(configuration.host))")
        }
        if let origin = request.headers[.origin], !LocalOnlyMiddleware.isLoopbackOrigin(origin) {
            throw ServerError(.forbidden, "Without keys, this server answers only pages of loopback origins, not \(origin.prefix(100)); "
                              + "start it with --admin-key (and --search-key) to serve other sites")
        }
        return try await next(request, context)
    }

    /// `http(s)://localhost`, `127.x.x.x` or `[::1]`, with any port.
    static func isLoopbackOrigin(_ origin: String) -> Bool {
        guard let url = URL(string: origin), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              let host = url.host?.lowercased() else { return false }
        return host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }
}
