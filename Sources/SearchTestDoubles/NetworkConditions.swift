import SearchAPI

/// How a `SimulatedNetworkService` treats requests: latency with jitter, a share of failures,
/// and stragglers that let later requests overtake earlier ones.
///
/// ```swift
/// let mobile = NetworkConditions(latency: .milliseconds(300), jitter: .milliseconds(200),
///                                failureRate: 0.05, failures: [.simulatedServiceUnavailable])
/// ```
public struct NetworkConditions: Sendable, Hashable {
    /// The delay every request takes at least.
    public var latency: Duration
    /// The most a request's delay adds to `latency`; each request adds a uniform random share
    /// of it, so with jitter alone a later request can already finish first.
    public var jitter: Duration
    /// The share of requests (`0...1`) that fail, after their delay, with one of `failures`.
    public var failureRate: Double
    /// The errors failing requests throw, one drawn at random for each (when empty,
    /// `SearchError.simulatedServiceUnavailable`).
    public var failures: [SearchError]
    /// The share of requests (`0...1`) held back by `straggleDelay` on top of their delay: the
    /// requests sent after one of them overtake it. This is the out-of-order knob.
    public var straggleRate: Double
    /// The extra delay of a straggler.
    public var straggleDelay: Duration

    /// Conditions with these knobs; by default none: no delay, no failure, no straggler (as
    /// `ideal`). The rates must be in `0...1` and the delays not negative.
    public init(latency: Duration = .zero, jitter: Duration = .zero,
                failureRate: Double = 0, failures: [SearchError] = [.simulatedServiceUnavailable],
                straggleRate: Double = 0, straggleDelay: Duration = .zero) {
        precondition((0...1).contains(failureRate), "failureRate must be in 0...1")
        precondition((0...1).contains(straggleRate), "straggleRate must be in 0...1")
        precondition(latency >= .zero && jitter >= .zero && straggleDelay >= .zero, "delays cannot be negative")
        self.latency = latency
        self.jitter = jitter
        self.failureRate = failureRate
        self.failures = failures
        self.straggleRate = straggleRate
        self.straggleDelay = straggleDelay
    }

    /// No delay, no failure: the wrapped service as it is.
    public static let ideal = NetworkConditions()

    /// What happens to one request.
    public struct Plan: Sendable, Hashable {
        /// How long the request waits before it reaches the service (or fails).
        public var delay: Duration
        /// The error it fails with, or nil when it goes through.
        public var failure: SearchError?
        /// Whether `delay` includes `straggleDelay`.
        public var isStraggler: Bool
    }

    /// What happens to the `requestNumber`-th request (from 0) of a service seeded with `seed`.
    /// A pure function: the same seed, number and conditions give the same plan, so a test can
    /// look up which seed delays or fails the request it cares about.
    ///
    /// ```swift
    /// let plan = conditions.plan(forRequest: 0, seed: 42)
    /// plan.delay      // e.g. 340 ms
    /// plan.failure    // nil, or one of conditions.failures
    /// ```
    public func plan(forRequest requestNumber: Int, seed: UInt64) -> Plan {
        var random = SplitMix64(seed: seed, stream: UInt64(truncatingIfNeeded: requestNumber))
        // Every draw is made whatever the conditions, so changing one knob (say jitter) does
        // not change which requests another knob (say failureRate) picks.
        let jitterShare = random.unit()
        let failureRoll = random.unit()
        let failureChoice = random.next()
        let straggleRoll = random.unit()

        let isStraggler = straggleRoll < straggleRate
        var delay = latency + jitter * jitterShare
        if isStraggler { delay += straggleDelay }
        let choices = failures.isEmpty ? [SearchError.simulatedServiceUnavailable] : failures
        let failure = failureRoll < failureRate ? choices[Int(failureChoice % UInt64(choices.count))] : nil
        return Plan(delay: delay, failure: failure, isStraggler: isStraggler)
    }
}

extension SearchError {
    /// A `503 Service Unavailable` answer, as a loaded or restarting server gives.
    ///
    /// ```swift
    /// NetworkConditions(failureRate: 0.1, failures: [.simulatedServiceUnavailable])
    /// ```
    public static let simulatedServiceUnavailable = SearchError(
        .internalError, "Service Unavailable (simulated by SimulatedNetworkService)", status: 503)

    /// The host could not be reached (DNS failure, timeout, connection refused).
    public static let simulatedUnreachable = SearchError(
        .unreachable, "The search service could not be reached (simulated by SimulatedNetworkService)")

    /// What every request throws while a `SimulatedNetworkService` is offline.
    public static let simulatedOffline = SearchError(
        .unreachable, "The network is offline (simulated by SimulatedNetworkService.setOffline)")
}
