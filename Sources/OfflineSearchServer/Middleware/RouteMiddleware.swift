import Hummingbird
import NIOCore
import SearchAPI

/// Reads an authenticated request into the operation it names (`AlgoliaRequest`): the route
/// from the table in `SearchAPI` that the remote client writes its paths with (a path Algolia
/// does not serve answers 404, a known path with another method 405, a malformed escape 400),
/// the URL's query parameters and the body, up to the server's limit (413 past it).
///
/// The table, not the router's trie, tells the routes apart: Algolia's paths read a name that
/// is also a word of the paths by its method (an objectID `settings`, a synonym `batch`, an
/// index `*`), which a trie that matches the path before the method cannot.
@available(macOS 14, iOS 17, tvOS 17, *)
struct RouteMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let maxBodySize: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let caller = context.caller else {
            throw ServerError(.internalServerError, "The route was read before the credentials were checked")
        }
        let segments = try AlgoliaRoute.decodedSegments(of: request.uri.path)
        let route = try AlgoliaRoute(method: request.method, segments: segments)
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBodySize)
        } catch is NIOTooManyBytesError {
            throw ServerError.bodyTooLarge(limit: maxBodySize)
        }
        let query = Dictionary(FormURLEncoding.decodePairs(request.uri.query ?? ""), uniquingKeysWith: { first, _ in first })
        var context = context
        context.operation = AlgoliaRequest(route: route, query: query, caller: caller, bodyBytes: Array(buffer.readableBytesView))
        return try await next(request, context)
    }
}
