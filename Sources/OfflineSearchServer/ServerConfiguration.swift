import Foundation

/// How `AlgoliaServer` listens and whom it lets in.
///
/// ```swift
/// var configuration = ServerConfiguration(host: "0.0.0.0", port: 8108)
/// configuration.adminKey = "admin-secret"
/// configuration.searchKey = "search-only"
/// ```
public struct ServerConfiguration: Sendable {
    /// The address to bind: `127.0.0.1` by default. Without keys, only a loopback address is allowed.
    public var host: String
    /// The port; 0 picks a free one (see `AlgoliaServer.run(onListening:)`).
    public var port: Int
    /// The application ID clients must send (`x-algolia-application-id`); nil accepts any.
    public var applicationID: String?
    /// The key with every right (Algolia's admin API key).
    public var adminKey: String?
    /// The key with Algolia's `search` ACL only: search, multi-search, facet-value search, get objects.
    /// Secured API keys derived from it (or from the admin key) are accepted, with their restrictions.
    public var searchKey: String?
    /// Larger request bodies are refused with 413.
    public var maxBodySize: Int
    /// The most memory, in bytes, the response cache holds: repeated searches are answered from
    /// it while no write has changed the indices they read. 0 turns it off.
    public var responseCacheSize: Int
    /// Whether the dashboard is served at `/` and `/dashboard/…` (a page that uses the same REST
    /// API with the key a person gives it).
    public var dashboard: Bool

    public init(host: String = "127.0.0.1", port: Int = 8108, applicationID: String? = nil,
                adminKey: String? = nil, searchKey: String? = nil, maxBodySize: Int = 100 * 1024 * 1024,
                responseCacheSize: Int = 64 * 1024 * 1024, dashboard: Bool = true) {
        self.dashboard = dashboard
        self.host = host
        self.port = port
        self.applicationID = applicationID
        self.adminKey = adminKey
        self.searchKey = searchKey
        self.maxBodySize = maxBodySize
        self.responseCacheSize = responseCacheSize
    }

    /// No key configured: any credentials are accepted (loopback only).
    public var isOpen: Bool { adminKey == nil && searchKey == nil }

    /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`, `localhost`).
    public var bindsLoopbackOnly: Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Refuses what would start a server no client can use safely: an empty key (almost always
    /// an unset shell variable), or no key on an address beyond loopback.
    /// - Throws: `ServerStartError`, saying what to change.
    public func check() throws(ServerStartError) {
        // An empty key is almost always an unset shell variable (`--admin-key "$ADMIN_KEY"`): no
        // client could send it, so the server would answer every request 403.
        for (option, key) in [("--admin-key", adminKey), ("--search-key", searchKey)]
        where key?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ServerStartError(message: """
                Refusing to serve with an empty \(option) (an unset variable?): no client could send it, so every \
                request would be refused. Give the key, or leave the option out to serve without keys on loopback.
                """)
        }
        guard isOpen, !bindsLoopbackOnly else { return }
        throw ServerStartError(message: """
            Refusing to serve on \(host) without keys: anyone who can reach it could read, change and \
            delete every index. Set an admin key (--admin-key, and --search-key for front ends), or bind to 127.0.0.1.
            """)
    }
}

extension ServerConfiguration {
    /// Whether the `Host` a request names (its authority, `localhost:8108`) is an address the
    /// server binds: any for a server bound to every interface; else its own host, and for a
    /// loopback server the loopback names. A request naming another host reached the server by
    /// a DNS rebinding of another site's name. No `Host` at all is no browser's request.
    ///
    /// Compared in place, as it is asked for every request without keys, with the case of ASCII
    /// letters ignored: host names are ASCII (an internationalized one travels as punycode).
    func isBoundHost(_ authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return true }
        var name = authority.utf8[...]
        if name.first == UInt8(ascii: "[") {
            guard let close = name.firstIndex(of: UInt8(ascii: "]")) else { return false }
            name = name[...close]
        } else if let colon = name.lastIndex(of: UInt8(ascii: ":")), !name[..<colon].contains(UInt8(ascii: ":")) {
            name = name[..<colon]
        }
        let bound = host.utf8[...]
        let same = ServerConfiguration.sameASCII
        if ServerConfiguration.everyInterface.contains(where: { same(bound, $0) }) || same(name, bound) { return true }
        if bound.first != UInt8(ascii: "["), name.count == bound.count + 2, name.first == UInt8(ascii: "["),
           name.last == UInt8(ascii: "]"), same(name.dropFirst().dropLast(), bound) { return true }
        return bindsLoopbackOnly && ServerConfiguration.loopbackNames.contains { same(name, $0) }
    }

    private static let everyInterface = ["0.0.0.0", "::", "[::]"].map { $0.utf8[...] }
    private static let loopbackNames = ["localhost", "127.0.0.1", "[::1]"].map { $0.utf8[...] }

    /// Whether two ASCII byte strings are the same but for the case of their letters.
    private static func sameASCII(_ a: Substring.UTF8View, _ b: Substring.UTF8View) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(x | 0x20))
        }
    }
}
