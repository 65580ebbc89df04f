import SearchAPI

/// Puts a simulated network in front of any `SearchService`: latency with jitter, a share of
/// failed requests, going offline and back, and requests overtaking each other. Every random
/// choice follows from `seed` (see `NetworkConditions.plan(forRequest:seed:)`) and every wait
/// goes through `clock`, so a test passes swift-clocks' `TestClock` and moves time by hand, or
/// `ImmediateClock` to skip the waits, and runs in milliseconds.
///
/// ```swift
/// let clock = TestClock()
/// let network = SimulatedNetworkService(
///     wrapping: engine,
///     conditions: NetworkConditions(latency: .milliseconds(200), jitter: .milliseconds(100)),
///     seed: 7, clock: clock)
/// let searcher = HitsSearcher(service: network, indexName: "instant_search")   // the one-line swap
///
/// searcher.search()
/// await network.waitForRequests(1)          // the request has been sent
/// await clock.advance(by: .milliseconds(300))  // …and now it has been answered
/// ```
///
/// A request first waits its delay, then fails or reaches the wrapped service; so a request
/// cancelled while it waits never reaches it. Wrap a `RecordingSearchService` to see what got
/// through, or wrap this in one to see what was sent.
public final class SimulatedNetworkService: SearchService {
    private let base: any SearchService
    private let seed: UInt64
    private let clock: any Clock<Duration>
    private let state: Protected<State>

    private struct State {
        var conditions: NetworkConditions
        var isOffline = false
        /// Requests numbered so far; the next one gets this number.
        var nextRequestNumber = 0
        /// Requests that have drawn their plan and started waiting (or failed at once).
        var receivedCount = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiterID = 0
    }

    private enum Waiter {
        case registering(count: Int)
        case cancelled
        case waiting(count: Int, CheckedContinuation<Void, Never>)
    }

    /// - Parameters:
    ///   - base: the service that answers the requests that get through.
    ///   - conditions: latency, jitter, failures and stragglers; change them any time with `conditions`.
    ///   - seed: the seed of every random draw; the same seed gives the same delays and failures.
    ///   - clock: what the delays are measured on (`ContinuousClock()` by default).
    public init(wrapping base: any SearchService, conditions: NetworkConditions = .ideal, seed: UInt64 = 0,
                clock: any Clock<Duration> = ContinuousClock()) {
        self.base = base
        self.seed = seed
        self.clock = clock
        state = Protected(State(conditions: conditions))
    }

    /// The conditions requests meet from now on (requests already waiting keep their plan).
    ///
    /// ```swift
    /// network.conditions.failureRate = 1   // every request from now on fails
    /// ```
    public var conditions: NetworkConditions {
        get { state.withLock { $0.conditions } }
        set { state.withLock { $0.conditions = newValue } }
    }

    /// Whether the network is down (see `setOffline(_:)`).
    public var isOffline: Bool { state.withLock { $0.isOffline } }

    /// Takes the network down or brings it back. While offline every new request fails at once
    /// with `SearchError.simulatedOffline`, and a request already waiting fails with it when its
    /// delay ends, as a dropped connection does.
    ///
    /// ```swift
    /// network.setOffline(true)    // the UI shows its offline state
    /// network.setOffline(false)   // the next search goes through
    /// ```
    public func setOffline(_ offline: Bool) {
        state.withLock { $0.isOffline = offline }
    }

    /// How many requests the service has received since it was created, offline ones included.
    public var receivedRequestCount: Int { state.withLock { $0.receivedCount } }

    /// Suspends until the service has received `count` requests in all since it was created
    /// (returns at once if it already has, or when the waiting task is cancelled). A request
    /// counts as received once its delay is measured from the clock's current time, so a test
    /// that waits for it and then advances a `TestClock` never races it.
    ///
    /// ```swift
    /// searcher.search()
    /// await network.waitForRequests(1)
    /// await clock.advance(by: .seconds(1))
    /// ```
    public func waitForRequests(_ count: Int) async {
        let id: Int = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            state.waiters[state.nextWaiterID] = .registering(count: count)
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow: Bool = state.withLock { state in
                    if case .cancelled? = state.waiters[id] { state.waiters[id] = nil; return true }
                    if state.receivedCount >= count { state.waiters[id] = nil; return true }
                    state.waiters[id] = .waiting(count: count, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
                switch state.waiters[id] {
                case .registering?: state.waiters[id] = .cancelled; return nil
                case .waiting(_, let continuation)?: state.waiters[id] = nil; return continuation
                case .cancelled?, nil: return nil
                }
            }
            continuation?.resume()
        }
    }

    // MARK: SearchService

    public func multiSearch(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult] {
        guard case .multiSearch(let results) = try await perform(.multiSearch(queries, strategy: strategy)) else {
            throw SearchError(.internalError, "SimulatedNetworkService: a multi-search got another kind of answer")
        }
        return results
    }

    public func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse {
        guard case .searchForFacetValues(let response) = try await perform(.searchForFacetValues(indexName: indexName, facet: facet, parameters: parameters)) else {
            throw SearchError(.internalError, "SimulatedNetworkService: a facet-value search got another kind of answer")
        }
        return response
    }

    // MARK: The simulation

    private func perform(_ request: ServiceRequest) async throws(SearchError) -> ServiceResponse {
        let (plan, offline) = state.withLock { state in
            defer { state.nextRequestNumber += 1 }
            return (state.conditions.plan(forRequest: state.nextRequestNumber, seed: seed), state.isOffline)
        }
        // The deadline is fixed before the request counts as received: a test that waits for
        // it and advances a TestClock before the wait below has begun still ends it on time.
        let wait = plan.delay > .zero && !offline ? Self.waitUntil(plan.delay, from: clock) : nil
        received()
        if Task.isCancelled { throw .cancelled() }
        if offline { throw .simulatedOffline }
        if let wait {
            do { try await wait() } catch { throw .cancelled() }
        }
        if Task.isCancelled { throw .cancelled() }
        if isOffline { throw .simulatedOffline }
        if let failure = plan.failure { throw failure }

        let response = try await request.send(to: base)
        if Task.isCancelled { throw .cancelled() }
        return response
    }

    /// The wait for `delay` from the clock's current time: the deadline is fixed now, when the
    /// request arrives, not when the wait begins. A deadline the clock has already reached ends
    /// the wait at once.
    ///
    /// The sleep ends one attosecond before the deadline, which no real clock can tell apart. A
    /// `TestClock` holds a sleep until exactly its current time until its next advance: a test
    /// that advanced it to the deadline after the check below and before the sleep began would
    /// otherwise leave the request waiting for good. With the earlier end, a sleep that begins
    /// before such an advance is ended by it, and one that begins after finds its end passed.
    private static func waitUntil<C: Clock<Duration>>(_ delay: Duration, from clock: C) -> @Sendable () async throws -> Void {
        let wakeUp = clock.now.advanced(by: delay).advanced(by: .zero - Duration(secondsComponent: 0, attosecondsComponent: 1))
        return {
            guard clock.now < wakeUp else { return try Task.checkCancellation() }
            try await clock.sleep(until: wakeUp, tolerance: nil)
        }
    }

    private func received() {
        let ready: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.receivedCount += 1
            var ready: [CheckedContinuation<Void, Never>] = []
            for (id, waiter) in state.waiters {
                if case .waiting(let count, let continuation) = waiter, state.receivedCount >= count {
                    ready.append(continuation)
                    state.waiters[id] = nil
                }
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
