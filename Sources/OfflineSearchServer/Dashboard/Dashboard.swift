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

    /// The dashboard's paths (`/`, `/dashboard`, `/dashboard/…`) on the router, for every
    /// method (those it does not serve answer 405), ahead of the API's authentication: the page
    /// needs no key, its requests to the API do.
    @available(macOS 14, iOS 17, tvOS 17, *)
    func addRoutes(to router: Router<ServerRequestContext>) {
        for path: RouterPath in ["/", "/dashboard", "/dashboard/**"] {
            for method: HTTPRequest.Method in [.get, .head, .post, .put, .delete, .patch] {
                router.on(path, method: method) { request, _ in self.response(to: request) }
            }
        }
    }

    func response(to request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            return Response.algoliaJSON(.methodNotAllowed, ["message": .string("Method \(request.method.rawValue) not allowed on \(request.uri.path)"),
                                                             "status": 405])
        }
        guard configuration.isBoundHost(request.head.authority) else {
            return Response.algoliaJSON(.misdirectedRequest, [
                "message": .string("The dashboard is served only on the address the server binds (\(configuration.host))"), "status": 421,
            ])
        }
        let path = request.uri.path
        if path == "/dashboard/config.json" {
            var response = Response.algoliaJSON(.ok, [
                "appID": .string(configuration.applicationID ?? "LOCAL"), "keysRequired": .bool(!configuration.isOpen),
                "version": .string(SearchEngine.version),
            ])
            addHeaders(to: &response)
            return response
        }
        let name = path.hasPrefix("/dashboard/assets/") ? String(path.dropFirst("/dashboard/assets/".count)) : "index.html"
        guard let asset = DashboardAssets.files[name], name != "index.html" || !path.hasPrefix("/dashboard/assets/") else {
            return Response.algoliaJSON(.notFound, ["message": .string("Not found: \(path) is not a file of the dashboard"), "status": 404])
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
}
