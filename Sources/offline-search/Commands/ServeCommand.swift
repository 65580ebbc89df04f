import ArgumentParser
import Foundation
import Logging
import OfflineSearch
import OfflineSearchServer

/// `offline-search serve`: Algolia's Search REST API on the data folder, for any Algolia client.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Algolia's Search REST API on the data folder, for any Algolia client (Ctrl-C stops).",
        discussion: """
            Point an official client at it with a custom host, e.g. in Python:
              SearchClientSync("ID", "KEY", SearchConfig("ID", "KEY", hosts=[Host("127.0.0.1", port=8108, scheme="http")]))

            Without keys, any credentials are accepted and only a loopback address may be bound. With \
            --admin-key, that key may do anything; --search-key has Algolia's search ACL (search, multi-search, \
            facet-value search, get objects), and secured API keys generated from either are accepted with \
            their restrictions. Without --data, the demo indices appear the first time a request names one.
            """
    )

    @OptionGroup var data: DataOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 picks a free one).") var port = 8108
    @Option(name: .customLong("app-id"), help: "The application ID clients must send (default: any).") var appID: String?
    @Option(name: .customLong("admin-key"), help: "The admin API key (every right).") var adminKey: String?
    @Option(name: .customLong("search-key"), help: "The search-only API key (and parent of secured API keys).") var searchKey: String?
    @Option(name: .customLong("response-cache"),
            help: "MiB of memory for answers to repeated searches, kept while no write changes the indices they read (0: off).")
    var responseCacheMiB = 64
    @Option(name: .customLong("search-cache"),
            help: ArgumentHelp("MiB of memory each index keeps of what searches worked out (words matched, facet counts, records read), for the next keystrokes (0: none; default: by the index's size, about 81 up to 200,000 records, 350 at a million).",
                               valueName: "MiB"))
    var searchCacheMiB: Int?
    @Flag(name: .customLong("no-dashboard"), help: "Do not serve the dashboard (the web page at / and /dashboard).")
    var noDashboard = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
        guard (0...65536).contains(responseCacheMiB) else {
            throw ValidationError("--response-cache must be from 0 (off) to 65536 MiB, got \(responseCacheMiB)")
        }
        if let searchCacheMiB, !(0...65536).contains(searchCacheMiB) {
            throw ValidationError("--search-cache must be from 0 (off) to 65536 MiB, got \(searchCacheMiB)")
        }
        // Before the data folder is opened (or made): a refused start leaves nothing behind.
        do { try ServerConfiguration(host: host, port: port, adminKey: adminKey, searchKey: searchKey).check() } catch {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, *) else {
            throw ValidationError("serve needs macOS 14 or later (Hummingbird 2)")
        }
        try await serve()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private func serve() async throws {
        let folder = data.folder
        let engine = try folder.engine(answersWhileDeriving: true, searchCacheSize: searchCacheMiB.map { $0 * 1024 * 1024 })
        let configuration = ServerConfiguration(host: host, port: port, applicationID: appID, adminKey: adminKey, searchKey: searchKey,
                                                responseCacheSize: responseCacheMiB * 1024 * 1024, dashboard: !noDashboard)
        let prepare: @Sendable (String) throws -> Void = { name in try folder.prepareDemoIndex(name, in: engine) }
        // Request logs go to stderr with the notes; stdout stays free for scripts. Metadata set
        // per request is written only with a line (`DeferredMetadataLogHandler`).
        LoggingSystem.bootstrap { label in DeferredMetadataLogHandler(StreamLogHandler.standardError(label: label)) }
        var logger = Logger(label: "offline-search")
        logger.logLevel = .info
        let server = AlgoliaServer(engine: engine, configuration: configuration, logger: logger,
                                   prepareIndex: folder.isDefault ? prepare : nil)
        do {
            try await server.run { port in
                let access = configuration.isOpen ? "no keys: any credentials accepted" : "keys required"
                Terminal.note("Serving \(folder.url.path) on http://\(configuration.host):\(port) (\(access)); Ctrl-C stops.")
                if configuration.dashboard { Terminal.note("Dashboard: http://\(configuration.host):\(port)/dashboard") }
            }
        } catch let error as ServerStartError {
            throw ValidationError(error.message)
        }
    }
}
