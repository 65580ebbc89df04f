import Foundation
import Hummingbird
import Logging
import OfflineSearch
import OfflineSearchRemote
import OfflineSearchServer
import SearchAPI
import ServiceLifecycle
import Testing
@_exported import OfflineSearchTestSupport

enum Fixture {
    static let appID = "TESTAPP"
    static let adminKey = "admin-key"
    static let searchKey = "search-key"

    /// Servers stopped by cancellation log their shutdown as errors: only critical messages here.
    static var quietLogger: Logger {
        var logger = Logger(label: "remote-tests")
        logger.logLevel = .critical
        return logger
    }

    static let productSettings: JSONObject = [
        "searchableAttributes": ["name", "brand", "unordered(description)"],
        "attributesForFaceting": ["searchable(brand)", "category", "price"],
        "customRanking": ["desc(popularity)"],
    ]

    static let synonyms: [JSONObject] = [
        ["objectID": "phone", "type": "synonym", "synonyms": ["phone", "mobile"]],
        ["objectID": "tv", "type": "oneWaySynonym", "input": "tv", "synonyms": ["television"]],
    ]

    /// `count` products over a few brands, categories and prices, deterministic. Each has its own
    /// popularity (the custom ranking), so no two tie: a mirror inserts records in browse
    /// order, and records tied on every criterion come in insertion order.
    static func products(_ count: Int) -> [JSONValue] {
        let brands = ["Acme", "Zeta", "Nova", "Orbit"]
        let kinds = ["phone", "case", "charger", "television", "cable"]
        let colors = ["red", "blue", "green", "black", "white", "silver"]
        return (0..<count).map { i in
            let kind = kinds[i % kinds.count]
            return [
                "objectID": .string("p\(i)"),
                "name": .string("\(colors[i % colors.count]) \(kind) \(i)"),
                "brand": .string(brands[(i / 3) % brands.count]),
                "category": .string(kind == "phone" || kind == "television" ? "devices" : "accessories"),
                "description": .string("A \(colors[(i + 2) % colors.count]) \(kind) made by \(brands[(i / 3) % brands.count])."),
                "price": .int(Int64(5 + (i * 7) % 90)),
                "popularity": .int(Int64((i * 7919) % 1009)), // distinct below 1,009 records: no ties
            ]
        }
    }

    /// An engine in `folder` with a `products` index of `count` records, its settings and synonyms.
    static func engine(in folder: TemporaryDirectory, products count: Int = 60) throws -> SearchEngine {
        let engine = try SearchEngine(directory: folder.url)
        let index = try engine.index("products")
        try index.setSettings(productSettings)
        try index.saveSynonyms(synonyms.map(JSONValue.object))
        try index.saveObjects(products(count))
        return engine
    }

    /// A client of a server on this loopback port, with a minute to answer: in the whole suite
    /// (every suite in parallel on two cores, the engine's searches holding the cooperative
    /// threads) the in-process server can wait seconds for a thread.
    static func client(port: Int, key: String = adminKey) -> SearchClient {
        var configuration = SearchClientConfiguration(appID: appID, apiKey: key, hosts: [SearchHost.loopback(port)])
        configuration.readTimeout = .seconds(60)
        configuration.writeTimeout = .seconds(60)
        return SearchClient(configuration: configuration)
    }
}

extension SearchHost {
    static func loopback(_ port: Int, accepts: Set<CallType> = [.read, .write]) -> SearchHost {
        SearchHost(url: URL(string: "http://127.0.0.1:\(port)")!, accepts: accepts)
    }
}

/// `offline-search serve` started in-process on 127.0.0.1, stopped and started again on the
/// same port when a test needs the remote to go away and come back.
@available(macOS 14, iOS 17, tvOS 17, *)
actor LiveServer {
    let engine: SearchEngine
    private(set) var port = 0
    private var running: RunningService?

    init(engine: SearchEngine) {
        self.engine = engine
    }

    /// Starts (on a free port the first time, on the same one after) and returns the port.
    @discardableResult
    func start() async throws -> Int {
        precondition(running == nil, "the server is already running")
        let configuration = ServerConfiguration(port: port, applicationID: Fixture.appID, adminKey: Fixture.adminKey,
                                                searchKey: Fixture.searchKey)
        let server = AlgoliaServer(engine: engine, configuration: configuration, logger: Fixture.quietLogger)
        (running, port) = try await RunningService.start { onListening in try server.application(onListening: onListening) }
        return port
    }

    /// Stops accepting connections, finishes the requests in flight, and waits until the server is down.
    func stop() async {
        await running?.stop()
        running = nil
    }
}

/// An engine with a `products` index, served on loopback, and a client of it with the admin key.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ServedIndex {
    let folder = TemporaryDirectory()
    let engine: SearchEngine
    let server: LiveServer
    let client: SearchClient

    init(products: Int = 60) async throws {
        engine = try Fixture.engine(in: folder, products: products)
        server = LiveServer(engine: engine)
        client = Fixture.client(port: try await server.start())
    }
}

/// A served index and an empty engine in a folder of its own, to mirror it into.
@available(macOS 14, iOS 17, tvOS 17, *)
struct MirrorScene {
    let served: ServedIndex
    let mirrorFolder = TemporaryDirectory()
    let mirror: SearchEngine
    var source: SearchEngine { served.engine }
    var server: LiveServer { served.server }
    var client: SearchClient { served.client }

    init(products: Int) async throws {
        served = try await ServedIndex(products: products)
        mirror = try SearchEngine(directory: mirrorFolder.url)
    }
}

extension SearchParameters {
    /// Parameters for `query`, changed by `change`: a row of a table of requests.
    static func query(_ query: String, _ change: (inout SearchParameters) -> Void = { _ in }) -> SearchParameters {
        var parameters = SearchParameters(query: query)
        change(&parameters)
        return parameters
    }
}

/// A tiny loopback server that answers every request with one status and JSON body, and
/// counts what it receives.
@available(macOS 14, iOS 17, tvOS 17, *)
actor StatusServer {
    let status: Int
    let body: String
    private(set) var port = 0
    private var running: RunningService?
    private let counter = RequestCounter()

    init(status: Int, body: String) {
        self.status = status
        self.body = body
    }

    var requestCount: Int { get async { await counter.count } }

    func start() async throws -> Int {
        let router = Router()
        let status = status, body = body, counter = counter
        for method in [HTTPRequest.Method.get, .post, .put, .delete] {
            router.on("**", method: method) { _, _ -> Response in
                await counter.increment()
                return Response(status: .init(code: status), headers: [.contentType: "application/json"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
            }
        }
        (running, port) = try await RunningService.start { onListening in
            Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: Fixture.quietLogger)
        }
        return port
    }

    func stop() async {
        await running?.stop()
    }
}

/// A service (a Hummingbird application) run in its own service group, stopped with a graceful
/// shutdown: cancelling a server while a connection opens can trap in NIO.
struct RunningService: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(_ service: some Service) {
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: Fixture.quietLogger))
        self.group = group
        task = Task { try await group.run() }
    }

    /// Runs the server `make` builds (it calls the closure it is given with the bound port)
    /// and returns once it listens.
    static func start(_ make: (@escaping @Sendable (Int) async -> Void) throws -> some Service) async throws -> (RunningService, Int) {
        let (ports, listening) = AsyncStream<Int>.makeStream()
        let running = RunningService(try make { port in listening.yield(port) })
        for await port in ports { return (running, port) }
        await running.stop()
        throw POSIXError(.EADDRNOTAVAIL)
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

actor RequestCounter {
    private(set) var count = 0
    func increment() { count += 1 }
}

/// A loopback socket that accepts connections into its backlog and never answers: a hung host.
final class HangingServer: Sendable {
    let port: Int
    private let socket: Int32

    init() throws {
        let (socket, port) = try LoopbackSocket.bound()
        guard listen(socket, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        self.socket = socket
        self.port = port
    }

    deinit { close(socket) }
}

/// A loopback port nothing listens on: connections are refused at once.
enum ClosedPort {
    /// A loopback port where connections are refused: bound, never listening, and kept bound for
    /// the rest of the test run (a port closed again could be taken by a server another test
    /// starts meanwhile, which then answers instead of refusing).
    static func make() throws -> Int {
        let (_, port) = try LoopbackSocket.bound()
        return port
    }
}

enum LoopbackSocket {
    /// A TCP socket bound to 127.0.0.1 on a free port.
    static func bound() throws -> (Int32, Int) {
        #if canImport(Glibc)
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Foundation.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { close(socket); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// A clock the tests move by hand (the client's `now`).
final class ManualTime: Sendable {
    private let offset = Locked(0.0)
    private let start = Date()

    var now: @Sendable () -> Date { { [self] in start.addingTimeInterval(offset.withLock { $0 }) } }
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}

/// Every attempt a client reports.
final class AttemptLog: Sendable {
    private let attempts = Locked<[RequestAttempt]>([])
    var all: [RequestAttempt] { attempts.withLock { $0 } }
    var record: @Sendable (RequestAttempt) -> Void { { [self] attempt in attempts.withLock { $0.append(attempt) } } }
    func clear() { attempts.withLock { $0.removeAll() } }
}

/// A value behind a lock, for the tests' shared logs.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`, under `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

extension SearchResponse {
    /// The response as JSON text without its timing, to compare two answers.
    var comparable: String {
        var copy = self
        copy.processingTimeMS = 0
        return copy.jsonValue.jsonString
    }
}

extension FacetValuesResponse {
    var comparable: String {
        var copy = self
        copy.processingTimeMS = 0
        return copy.jsonValue.jsonString
    }
}

extension MultiSearchResult {
    var comparable: String {
        switch self {
        case .hits(let response): response.comparable
        case .facetValues(let response): response.comparable
        }
    }
}
