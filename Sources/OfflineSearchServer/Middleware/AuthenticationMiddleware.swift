import Foundation
import HTTPTypes
import Hummingbird
import SearchAPI

/// Checks a request's credentials, as Algolia reads them: `X-Algolia-Application-Id` and
/// `X-Algolia-API-Key`, as headers or in the query string (a browser's GET). The admin key,
/// the search key, or a secured API key derived from one (its `validUntil` and
/// `restrictSources` checked here, against the clock and the client's address); on a server
/// without keys any credentials. Anything else is refused, 403, before the request is routed.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let authenticator: APIKeyAuthenticator
    /// The time credentials are checked at (`validUntil`); tests set it.
    let now: @Sendable () -> Date

    static let applicationIDName = "x-algolia-application-id"
    static let apiKeyName = "x-algolia-api-key"
    /// The query parameters that are credentials, not search parameters.
    static let credentialNames: Set<String> = [applicationIDName, apiKeyName, "x-algolia-agent"]
    /// Algolia's header naming the user a search is for (its analytics).
    static let userTokenField = HTTPField.Name("X-Algolia-UserToken")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let query = request.uri.query ?? ""
        let credential = { (name: String) -> String? in
            if let field = HTTPField.Name(name), let value = request.headers[field] { return value }
            return FormURLEncoding.decodePairs(query).first { $0.0.lowercased() == name }?.1
        }
        let apiKey = credential(AuthenticationMiddleware.apiKeyName)
        let access = try authenticator.access(applicationID: credential(AuthenticationMiddleware.applicationIDName), apiKey: apiKey,
                                              peer: context.remoteAddress?.ipAddress, now: now())
        var context = context
        context.caller = Caller(access: access, apiKey: apiKey,
                                user: request.headers[AuthenticationMiddleware.userTokenField] ?? context.remoteAddress?.ipAddress)
        return try await next(request, context)
    }
}
