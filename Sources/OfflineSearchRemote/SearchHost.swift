import Foundation

/// One host of an Algolia application (or of `offline-search serve`), and the calls it takes.
///
/// ```swift
/// // offline-search serve on this machine:
/// let local = SearchHost(url: URL(string: "http://127.0.0.1:8108")!)
/// ```
public struct SearchHost: Sendable, Hashable, CustomStringConvertible {
    /// Which calls a host takes: Algolia's DSN host serves reads only, the main host writes only.
    public enum CallType: Sendable, Hashable {
        /// `read`: searches and other reads (all a DSN host takes); `write`: changes to records,
        /// settings, synonyms and indices.
        case read, write
    }

    /// Scheme, host and port (a path, if any, is ignored).
    public var url: URL
    /// The calls this host takes.
    public var accepts: Set<CallType>

    /// The host at `url`, taking reads and writes unless `accepts` says otherwise.
    public init(url: URL, accepts: Set<CallType> = [.read, .write]) {
        self.url = url
        self.accepts = accepts
    }

    /// `https://{name}` taking these calls.
    public init(name: String, accepts: Set<CallType> = [.read, .write]) {
        // A name that is no valid host (SearchClient checks application IDs) fails to connect.
        self.init(url: URL(string: "https://\(name)") ?? URL(string: "https://invalid.invalid")!, accepts: accepts)
    }

    public var description: String {
        var text = "\(url.scheme ?? "https")://\(url.host ?? "")"
        if let port = url.port { text += ":\(port)" }
        return text
    }

    /// Algolia's hosts for an application: `{appID}-dsn.algolia.net` for reads,
    /// `{appID}.algolia.net` for writes, then `{appID}-1/2/3.algolianet.com` (both) in
    /// shuffled order, so clients spread their retries.
    public static func algolia(appID: String) -> [SearchHost] {
        var generator = SystemRandomNumberGenerator()
        return algolia(appID: appID, using: &generator)
    }

    /// `algolia(appID:)` with the shuffle drawn from `generator`.
    public static func algolia(appID: String, using generator: inout some RandomNumberGenerator) -> [SearchHost] {
        [SearchHost(name: "\(appID)-dsn.algolia.net", accepts: [.read]), SearchHost(name: "\(appID).algolia.net", accepts: [.write])]
            + (1...3).map { SearchHost(name: "\(appID)-\($0).algolianet.com") }.shuffled(using: &generator)
    }
}
