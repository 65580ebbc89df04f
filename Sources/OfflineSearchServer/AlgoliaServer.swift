import Foundation
import Hummingbird
import Logging
import OfflineSearch
import SearchAPI

/// Algolia's Search REST API on a local engine, for any Algolia client: point the client's
/// host at it. Run it from the CLI (`offline-search serve`), an app or a test.
///
/// ```swift
/// let engine = try SearchEngine(directory: URL(fileURLWithPath: "data"))
/// let server = AlgoliaServer(engine: engine, configuration: ServerConfiguration(port: 8108, adminKey: "secret"))
/// try await server.run()   // until SIGINT or SIGTERM
/// ```
@available(macOS 14, iOS 17, tvOS 17, *)
public struct AlgoliaServer: Sendable {
    /// The engine whose indices are served.
    public let engine: SearchEngine
    /// The address, the keys and the limits.
    public let configuration: ServerConfiguration
    /// Where the request log (one line per request) and start-up notes go.
    public let logger: Logger
    private let prepareIndex: (@Sendable (String) throws -> Void)?

    /// A server of `engine`'s indices; `run()` starts it.
    /// - Parameters:
    ///   - engine: the engine whose indices are served.
    ///   - configuration: the address, the keys and the limits.
    ///   - logger: where the request log goes.
    ///   - prepareIndex: called (off Swift concurrency's threads, one at a time) with each index name a request
    ///     names that does not exist yet; the CLI makes the bundled demo indices with it.
    public init(engine: SearchEngine, configuration: ServerConfiguration = ServerConfiguration(),
                logger: Logger = Logger(label: "offline-search.server"),
                prepareIndex: (@Sendable (String) throws -> Void)? = nil) {
        self.engine = engine
        self.configuration = configuration
        self.logger = logger
        self.prepareIndex = prepareIndex
    }

    /// The router alone, for tests that send requests in-process (`app.test(.router)`). Each
    /// call makes a new one, with a response cache of its own (`cache` replaces it; tests read
    /// its counts) and credentials checked at `now()`.
    ///
    /// A request passes, in order: the request log, CORS, Algolia's error body for whatever
    /// fails, (without keys) the local-only guard, the preflight answer, the dashboard's
    /// routes, then for the API: authentication, the route and body, the response cache, and
    /// the endpoint that hands the operation to the handler of its resource.
    public func router() -> Router<ServerRequestContext> {
        router(cache: configuration.responseCacheSize > 0 ? ResponseCache(capacity: configuration.responseCacheSize) : nil)
    }

    func router(cache: ResponseCache?, now: @escaping @Sendable () -> Date = { Date() }) -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.add(middleware: CORSMiddleware())
        router.add(middleware: AlgoliaErrorMiddleware())
        if configuration.isOpen { router.add(middleware: LocalOnlyMiddleware(configuration: configuration)) }
        router.add(middleware: PreflightMiddleware())
        if configuration.dashboard { Dashboard(configuration: configuration).addRoutes(to: router) }

        let authenticator = APIKeyAuthenticator(configuration: configuration)
        router.add(middleware: AuthenticationMiddleware(authenticator: authenticator, now: now))
        router.add(middleware: RouteMiddleware(maxBodySize: configuration.maxBodySize))
        if let cache { router.add(middleware: ResponseCacheMiddleware(cache: cache, engine: engine)) }
        let applicationID = configuration.applicationID
        let endpoint = AlgoliaEndpoint(engine: engine, prepareIndex: prepareIndex, rightsOfKey: { key in
            try? authenticator.access(applicationID: applicationID, apiKey: key, peer: nil)
        })
        // Every API path goes to the one endpoint, which `RouteMiddleware`'s route sends to its
        // resource's handler; a method no route takes falls to the router's "not found", where
        // `RouteMiddleware` answers 404 or 405 from the route table.
        for path: RouterPath in ["/1/**", "/2/**"] {
            for method: HTTPRequest.Method in [.get, .post, .put, .delete] {
                router.on(path, method: method, responder: endpoint)
            }
        }
        return router
    }

    /// The Hummingbird application; `onListening` gets the bound port (useful with port 0).
    /// - Throws: `ServerStartError` when a key is empty, or when no key is set and the host is not a
    ///   loopback address.
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) throws(ServerStartError) -> Application<RouterResponder<ServerRequestContext>> {
        try checkAddress()
        return Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                    serverName: "offline-search"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then stops accepting connections and finishes the
    /// requests (and writes) in flight.
    /// When it stops, the searches still in a burst are counted (the server's users' bursts end
    /// with it) and written to the analytics.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        defer { try? engine.analytics?.flush(settlingEverything: true) }
        try await application(onListening: onListening).runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// Without keys, anyone who reaches the port may read and change every index: only allowed on loopback.
    func checkAddress() throws(ServerStartError) {
        try configuration.check()
    }
}

/// Why the server would not start.
public struct ServerStartError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
