import Foundation

/// Algolia's retry strategy: which hosts a call tries, in which order, with which timeout.
///
/// - A call tries the hosts that take its type (read or write) in their order, and moves to
///   the next one on a network error, a timeout or a 5xx answer; a 4xx answer is final.
/// - A host that failed (network error or 5xx) is set aside for `hostDownDelay` (2 minutes,
///   as Algolia's clients do): calls skip it until then. A host that timed out is still
///   tried, after the others, for as long. When every host is set aside, all are tried again.
/// - The timeout of a call's n-th attempt (n = 0, 1, …) is `(n + 1) ×` the base timeout, so
///   a slow network gets more time with each retry.
actor HostPool {
    private struct State {
        let host: SearchHost
        /// When the host failed or timed out last; nil when it is in good standing.
        var setAsideAt: Date?
        var timedOut = false
    }

    private var states: [State]
    private let hostDownDelay: TimeInterval
    private let now: @Sendable () -> Date

    init(hosts: [SearchHost], hostDownDelay: Duration, now: @escaping @Sendable () -> Date) {
        states = hosts.map { State(host: $0) }
        self.hostDownDelay = hostDownDelay.seconds
        self.now = now
    }

    /// The hosts a call of this type tries, in order.
    func hosts(for callType: SearchHost.CallType) -> [SearchHost] {
        let time = now()
        for i in states.indices {
            if let since = states[i].setAsideAt, time.timeIntervalSince(since) >= hostDownDelay {
                states[i].setAsideAt = nil
                states[i].timedOut = false
            }
        }
        let eligible = states.filter { $0.host.accepts.contains(callType) }
        let up = eligible.filter { $0.setAsideAt == nil }
        let timedOut = eligible.filter { $0.setAsideAt != nil && $0.timedOut }
        if up.isEmpty && timedOut.isEmpty { return eligible.map(\.host) }
        return (up + timedOut).map(\.host)
    }

    /// The host answered (2xx or 4xx): back in good standing.
    func succeeded(_ host: SearchHost) {
        update(host) { $0.setAsideAt = nil; $0.timedOut = false }
    }

    /// Network error or 5xx: set aside.
    func failed(_ host: SearchHost) {
        let time = now()
        update(host) { $0.setAsideAt = time; $0.timedOut = false }
    }

    /// No answer in time: tried after the others.
    func timedOut(_ host: SearchHost) {
        let time = now()
        update(host) { $0.setAsideAt = time; $0.timedOut = true }
    }

    private func update(_ host: SearchHost, _ change: (inout State) -> Void) {
        for i in states.indices where states[i].host == host { change(&states[i]) }
    }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
