import Foundation
import SearchAPI

/// How a `SearchClient` reaches its application: credentials, hosts, timeouts.
///
/// ```swift
/// // offline-search serve on this machine instead of Algolia:
/// var configuration = SearchClientConfiguration(appID: "APP", apiKey: "KEY")
/// configuration.hosts = [SearchHost(url: URL(string: "http://127.0.0.1:8108")!)]
/// let client = SearchClient(configuration: configuration)
/// ```
public struct SearchClientConfiguration: Sendable {
    /// Sent as `x-algolia-application-id`.
    public var appID: String
    /// Sent as `x-algolia-api-key`.
    public var apiKey: String
    /// The hosts, in the order calls try them (`SearchHost.algolia(appID:)` by default).
    public var hosts: [SearchHost]
    /// The timeout of a read's first attempt (searches, browse, settings); later attempts wait longer.
    public var readTimeout: Duration = .seconds(5)
    /// The timeout of a write's first attempt.
    public var writeTimeout: Duration = .seconds(30)
    /// How long a host that failed is set aside (Algolia's clients: 2 minutes).
    public var hostDownDelay: Duration = .seconds(120)
    /// The time source of `hostDownDelay`: tests move it instead of sleeping.
    public var now: @Sendable () -> Date = { Date() }
    /// Told of every attempt (host, timeout, outcome), for logs and tests.
    public var onAttempt: (@Sendable (RequestAttempt) -> Void)?
    /// Extra headers sent with every request.
    public var headers: [String: String] = [:]

    /// The configuration of application `appID` with `apiKey`, on `hosts` (by default Algolia's
    /// hosts for the application), with the default timeouts and no extra headers.
    public init(appID: String, apiKey: String, hosts: [SearchHost]? = nil) {
        self.appID = appID
        self.apiKey = apiKey
        self.hosts = hosts ?? SearchHost.algolia(appID: appID)
        insightsHosts = hosts ?? [SearchHost(name: "insights.algolia.io")]
    }

    /// Where `sendEvents` sends Insights events: Algolia's Insights API
    /// (`insights.algolia.io`; `insights.de.algolia.io` for an application in Europe) with
    /// Algolia's hosts, else the same hosts as the searches (a local `offline-search serve`
    /// takes both).
    public var insightsHosts: [SearchHost]
}

/// One attempt of a call on one host, as `SearchClientConfiguration.onAttempt` reports it.
public struct RequestAttempt: Sendable, Hashable {
    /// How the attempt ended, and so whether the next host is tried.
    public enum Outcome: Sendable, Hashable {
        /// An answer (2xx or 4xx): the call ends.
        case answered(status: Int)
        /// A 5xx answer: the next host is tried.
        case serverError(status: Int)
        /// The connection failed: the next host is tried.
        case networkError(String)
        /// No answer in time: the next host is tried.
        case timedOut
    }

    /// The host tried.
    public var host: SearchHost
    /// The HTTP method (`GET`, `POST`, `PUT`, `DELETE`).
    public var method: String
    /// The percent-encoded path (`/1/indexes/products/query`), without the query string.
    public var path: String
    /// The timeout this attempt had: the base read or write timeout, times its attempt number
    /// (from 1).
    public var timeout: Duration
    /// How the attempt ended.
    public var outcome: Outcome

    /// A report of one attempt.
    public init(host: SearchHost, method: String, path: String, timeout: Duration, outcome: Outcome) {
        self.host = host
        self.method = method
        self.path = path
        self.timeout = timeout
        self.outcome = outcome
    }

    /// Whether the call moves on to the next host after this attempt.
    public var isRetryable: Bool {
        if case .answered = outcome { return false }
        return true
    }
}
