import Hummingbird

/// Cross-origin calls, as Algolia allows them: any origin may call (the keys are the
/// protection), so every answer names the caller's origin; a preflight (`OPTIONS`) is answered
/// for every method and the headers it asks for, once the middleware inside let it through
/// (a server without keys refuses pages of other sites first).
@available(macOS 14, iOS 17, tvOS 17, *)
struct CORSMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = request.headers[.origin] ?? "*"
        response.headers[.vary] = "Origin"
        if request.method == .options {
            response.headers[.accessControlAllowMethods] = "GET, POST, PUT, DELETE, OPTIONS"
            response.headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders]
                ?? "content-type, x-algolia-application-id, x-algolia-api-key, x-algolia-agent, x-algolia-usertoken"
            response.headers[.accessControlMaxAge] = "86400"
        }
        return response
    }
}

/// Answers a preflight (`OPTIONS`) with 204 before any credentials are asked for: a browser
/// sends none with it. `CORSMiddleware` adds what it allows.
@available(macOS 14, iOS 17, tvOS 17, *)
struct PreflightMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options { return Response(status: .noContent) }
        return try await next(request, context)
    }
}
