import Hummingbird

/// Whatever fails answers as Algolia does, `{"message", "status"}` with the error's status:
/// the errors of the API (`AlgoliaHTTPError`), Hummingbird's own (a path no route takes), and
/// anything else as a 500 that says what went wrong.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AlgoliaErrorMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any AlgoliaHTTPError {
            return .algoliaJSON(error.httpStatus, error.body)
        } catch let error as HTTPError {
            let message = error.body ?? (error.status == .notFound
                ? "Not found: \(request.uri.path) is not an endpoint of the Search API" : error.status.reasonPhrase)
            return .algoliaJSON(error.status, ["message": .string(message), "status": .int(Int64(error.status.code))])
        } catch {
            return .algoliaJSON(.internalServerError, ["message": .string("Internal error: \(error)"), "status": 500])
        }
    }
}
