import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OfflineSearch
import SearchAPI

/// One file of the dashboard, as shipped inside the binary.
struct DashboardAsset: Sendable {
    let contentType: String
    let text: String
}

/// The dashboard: a page at `/` and `/dashboard/…` that browses, searches and tunes the
/// indices through the same REST API as any client, with the key the person gives it.
///
/// - The page, its scripts and styles come from the binary (`DashboardAssets`, made from
///   `site/` by `make_assets.py`), with a Content-Security-Policy that allows nothing inline and
///   no other origin.
/// - `GET /dashboard/config.json` tells the page whether the server wants keys (then it asks
///   for one, kept in the browser session only) and the application ID to send.
/// - Only on the addresses the server binds: a request naming another host (a DNS rebinding
///   from another site) is refused, 421.
struct Dashboard: Sendable {
    let configuration: ServerConfiguration

    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Whether a path is the dashboard's (`/`, `/dashboard`, `/dashboard/…`).
    static func serves(_ path: String) -> Bool {
        path == "/" || path == "/dashboard" || path.hasPrefix("/dashboard/")
    }

    func response(to request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            return AlgoliaResponder.json(.methodNotAllowed, ["message": .string("Method \(request.method.rawValue) not allowed on \(request.uri.path)"),
                                                             "status": 405])
        }
        guard isBoundHost(request.head.authority) else {
            return AlgoliaResponder.json(.misdirectedRequest, [
                "message": .string("The dashboard is served only on the address the server binds (\(configuration.host))"), "status": 421,
            ])
        }
        let path = request.uri.path
        if path == "/dashboard/config.json" {
            var response = AlgoliaResponder.json(.ok, [
                "appID": .string(configuration.applicationID ?? "LOCAL"), "keysRequired": .bool(!configuration.isOpen),
                "version": .string(SearchEngine.version),
            ])
            addHeaders(to: &response)
            return response
        }
        let name = path.hasPrefix("/dashboard/assets/") ? String(path.dropFirst("/dashboard/assets/".count)) : "index.html"
        guard let asset = DashboardAssets.files[name], name != "index.html" || !path.hasPrefix("/dashboard/assets/") else {
            return AlgoliaResponder.json(.notFound, ["message": .string("Not found: \(path) is not a file of the dashboard"), "status": 404])
        }
        var response = Response(status: .ok, headers: [.contentType: asset.contentType],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: request.method == .head ? "" : asset.text)))
        addHeaders(to: &response)
        return response
    }

    private func addHeaders(to response: inout Response) {
        response.headers[.contentSecurityPolicy] = Dashboard.contentSecurityPolicy
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[.cacheControl] = "no-cache"
    }

    /// Whether the `Host` a request names is an address the server binds: any for a server bound
    /// to every interface; else its own host, and for a loopback server the loopback names.
    func isBoundHost(_ authority: String?) -> Bool {
        // No `Host` at all is no browser's request (a browser always names the host it reached).
        guard let authority, !authority.isEmpty else { return true }
        var host = authority.lowercased()
        if host.hasPrefix("[") {
            host = String(host.prefix { $0 != "]" }) + "]"
        } else if let colon = host.lastIndex(of: ":"), host.filter({ $0 == ":" }).count == 1 {
            host = String(host[..<colon])
        }
        let bound = configuration.host.lowercased()
        if bound == "0.0.0.0" || bound == "::" || bound == "[::]" { return true }
        var allowed: Set<String> = [bound, bound.hasPrefix("[") ? bound : "[\(bound)]"]
        if configuration.bindsLoopbackOnly { allowed.formUnion(["localhost", "127.0.0.1", "[::1]"]) }
        return allowed.contains(host)
    }
}

/// What a server without keys answers: only requests that name an address it binds (a page of
/// another site that reaches it by DNS rebinding gets 421) and that come from no web page or a
/// page of a loopback origin (`http://localhost:3000`, the dashboard itself): a page of another
/// site gets 403 for its requests, even those a browser sends without asking first (a form's
/// POST), so that no site the user visits can read or change the indices.
struct LocalOnlyGuard: Sendable {
    let configuration: ServerConfiguration

    func check(_ request: Request) throws(ServerError) {
        guard Dashboard(configuration: configuration).isBoundHost(request.head.authority) else {
            throw ServerError(.misdirectedRequest, "This server answers only on the address it binds (\(configuration.host))")
        }
        if let origin = request.headers[.origin], !LocalOnlyGuard.isLoopbackOrigin(origin) {
            throw ServerError(.forbidden, "Without keys, this server answers only pages of loopback origins, not \(origin.prefix(100)); "
                              + "start it with --admin-key (and --search-key) to serve other sites")
        }
    }

    /// `http(s)://localhost`, `127.x.x.x` or `[::1]`, with any port.
    static func isLoopbackOrigin(_ origin: String) -> Bool {
        guard let url = URL(string: origin), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              let host = url.host?.lowercased() else { return false }
        return host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }
}
