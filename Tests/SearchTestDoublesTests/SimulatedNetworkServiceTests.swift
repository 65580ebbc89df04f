import Clocks
import Foundation
import SearchAPI
import Testing
@testable import SearchTestDoubles

// The limit guards against a hang. The failure test awaits 3,000 searches, each of which
// yields to the cooperative pool; under `swift test`'s full parallel load on 2 cores, the pool
// is busy with other suites' work, and on CI that test once took 177 s without hanging.
@Suite(.timeLimit(.minutes(10)))
struct SimulatedNetworkServiceTests {
    // MARK: Latency and jitter

    @Test func anAnswerWaitsUntilTheClockHasAdvancedByItsDelay() async throws {
        let clock = TestClock()
        let conditions = NetworkConditions(latency: .milliseconds(200), jitter: .milliseconds(100))
        let network = SimulatedNetworkService(wrapping: EchoService(), conditions: conditions, seed: 1, clock: clock)
        let delay = conditions.plan(forRequest: 0, seed: 1).delay
        #expect(delay > .milliseconds(200) && delay < .milliseconds(300))

        let finished = Protected(false)
        let request = Task {
            defer { finished.withLock { $0 = true } }
            return try await network.search("star")
        }
        await network.waitForRequests(1)
        await clock.advance(by: delay - .milliseconds(1))
        await yieldToOtherTasks()
        #expect(finished.withLock { $0 } == false)

        await clock.advance(by: .milliseconds(1))
        let response = try await request.value
        #expect(response.query == "star")
    }

    /// A `TestClock` advanced to the deadline after the service read the time and before its
    /// sleep began still ends the wait. A `TestClock` holds a sleep until exactly its current
    /// time until its next advance; `AdvancingBeforeSleep` makes that order certain. A watcher
    /// cancels the request if the clock ever holds a sleep, so the test fails instead of hanging
    /// (no wall-clock deadline: under the whole suite's load a task may wait minutes for a thread).
    @Test func anAdvanceBetweenReadingTheTimeAndSleepingStillEndsTheWait() async throws {
        let clock = TestClock()
        let racing = AdvancingBeforeSleep(base: clock, target: clock.now.advanced(by: .seconds(1)))
        let network = SimulatedNetworkService(wrapping: EchoService(), conditions: NetworkConditions(latency: .seconds(1)), clock: racing)
        let request = Task { try await network.search("slow") }
        let watcher = Task {
            while !Task.isCancelled {
                // Throws while a sleep is held: the request would never end.
                if (try? await clock.checkSuspension()) == nil { request.cancel(); return }
                await Task.yield()
            }
        }
        let result = await request.result
        watcher.cancel()
        #expect(try result.get().query == "slow")
    }

    @Test func delaysLieBetweenLatencyAndLatencyPlusJitterAndFollowTheSeed() {
        let conditions = NetworkConditions(latency: .milliseconds(100), jitter: .milliseconds(50))
        let delays = (0..<1000).map { conditions.plan(forRequest: $0, seed: 42).delay }
        #expect(delays.allSatisfy { $0 >= .milliseconds(100) && $0 < .milliseconds(150) })
        // Spread over the range, not stuck at one end.
        #expect(delays.min()! < .milliseconds(105) && delays.max()! > .milliseconds(145))
        #expect(delays == (0..<1000).map { conditions.plan(forRequest: $0, seed: 42).delay })
        #expect(delays != (0..<1000).map { conditions.plan(forRequest: $0, seed: 43).delay })
    }

    @Test func noLatencyNeedsNoClockAdvance() async throws {
        // An ideal network must not wait for a TestClock that nobody advances.
        let network = SimulatedNetworkService(wrapping: EchoService(), clock: TestClock())
        #expect(try await network.search("x").query == "x")
    }

    // MARK: Failures

    @Test func theSameSeedFailsTheSameRequestsAtTheChosenRate() async throws {
        let conditions = NetworkConditions(latency: .milliseconds(50), failureRate: 0.3,
                                           failures: [.simulatedServiceUnavailable, .simulatedUnreachable])
        func outcomes(seed: UInt64) async -> (errors: [SearchError?], passedThrough: Int) {
            let base = EchoService()
            let network = SimulatedNetworkService(wrapping: base, conditions: conditions, seed: seed, clock: ImmediateClock())
            var errors: [SearchError?] = []
            for number in 0..<1000 {
                do throws(SearchError) {
                    _ = try await network.search("q\(number)")
                    errors.append(nil)
                } catch {
                    errors.append(error)
                }
            }
            return (errors, base.callCount)
        }

        let first = await outcomes(seed: 7)
        let failures = first.errors.compactMap { $0 }
        #expect((250...350).contains(failures.count), "\(failures.count) failures in 1,000 at a rate of 0.3")
        #expect(Set(failures) == [.simulatedServiceUnavailable, .simulatedUnreachable])
        #expect(failures.first { $0 == .simulatedServiceUnavailable }?.status == 503)
        // A failed request never reaches the service.
        #expect(first.passedThrough == 1000 - failures.count)

        #expect(await outcomes(seed: 7).errors == first.errors)
        #expect(await outcomes(seed: 8).errors != first.errors)
    }

    @Test func changingTheJitterDoesNotChangeWhichRequestsFail() {
        let steady = NetworkConditions(failureRate: 0.5)
        let jittery = NetworkConditions(jitter: .seconds(1), failureRate: 0.5)
        let failed = { (conditions: NetworkConditions) in (0..<200).map { conditions.plan(forRequest: $0, seed: 3).failure != nil } }
        #expect(failed(steady) == failed(jittery))
    }

    @Test func withNoErrorsChosenAFailureIsA503() {
        let plan = NetworkConditions(failureRate: 1, failures: []).plan(forRequest: 0, seed: 0)
        #expect(plan.failure == .simulatedServiceUnavailable)
    }

    // MARK: Offline

    @Test func offlineRequestsFailAtOnceAndOnlineOnesGoThrough() async throws {
        let clock = TestClock()
        let base = EchoService()
        let network = SimulatedNetworkService(wrapping: base, conditions: NetworkConditions(latency: .seconds(1)), clock: clock)

        network.setOffline(true)
        #expect(network.isOffline)
        // Fails without the clock moving: this would hang if it waited for its delay.
        await #expect(throws: SearchError.simulatedOffline) { try await network.search("a") }
        #expect(SearchError.simulatedOffline.kind == .unreachable)

        network.setOffline(false)
        let request = Task { try await network.search("b") }
        await network.waitForRequests(2)
        await clock.advance(by: .seconds(1))
        #expect(try await request.value.query == "b")
        #expect(base.callCount == 1)
    }

    @Test func aRequestInFlightWhenTheNetworkGoesDownFails() async throws {
        let clock = TestClock()
        let base = EchoService()
        let network = SimulatedNetworkService(wrapping: base, conditions: NetworkConditions(latency: .seconds(1)), clock: clock)

        let request = Task { try await network.search("a") }
        await network.waitForRequests(1)
        network.setOffline(true)
        await clock.advance(by: .seconds(1))
        await #expect(throws: SearchError.simulatedOffline) { try await request.value }
        #expect(base.callCount == 0)
    }

    // MARK: Out of order

    @Test func aStragglerIsOvertakenByTheRequestSentAfterIt() async throws {
        let conditions = NetworkConditions(latency: .milliseconds(100), jitter: .milliseconds(20),
                                           straggleRate: 0.3, straggleDelay: .milliseconds(500))
        // The first seed whose first request straggles and whose second does not.
        let seed = try #require((UInt64(0)..<100).first {
            conditions.plan(forRequest: 0, seed: $0).isStraggler && !conditions.plan(forRequest: 1, seed: $0).isStraggler
        })
        let first = conditions.plan(forRequest: 0, seed: seed).delay
        let second = conditions.plan(forRequest: 1, seed: seed).delay
        #expect(first >= .milliseconds(600) && second < .milliseconds(120))

        let clock = TestClock()
        let network = SimulatedNetworkService(wrapping: EchoService(), conditions: conditions, seed: seed, clock: clock)
        let arrivals = Protected<[String]>([])
        let older = Task {
            let response = try await network.search("ip")
            arrivals.withLock { $0.append(response.query) }
        }
        await network.waitForRequests(1)
        let newer = Task {
            let response = try await network.search("iphone")
            arrivals.withLock { $0.append(response.query) }
        }
        await network.waitForRequests(2)

        await clock.advance(by: second)
        try await newer.value
        #expect(arrivals.withLock { $0 } == ["iphone"])
        await clock.advance(by: first - second)
        try await older.value
        #expect(arrivals.withLock { $0 } == ["iphone", "ip"])
    }

    @Test func stragglersAreRoughlyTheChosenShare() {
        let conditions = NetworkConditions(straggleRate: 0.2, straggleDelay: .seconds(1))
        let stragglers = (0..<1000).filter { conditions.plan(forRequest: $0, seed: 11).isStraggler }.count
        #expect((150...250).contains(stragglers))
    }

    // MARK: Cancellation

    @Test func aCancelledRequestStopsWaitingAndNeverReachesTheService() async throws {
        let clock = TestClock()
        let base = EchoService()
        let network = SimulatedNetworkService(wrapping: base, conditions: NetworkConditions(latency: .seconds(10)), clock: clock)

        let request = Task { try await network.search("a") }
        await network.waitForRequests(1)
        request.cancel()
        // The clock never moves: the request must give up on its own.
        let error = await #expect(throws: SearchError.self) { try await request.value }
        #expect(error?.kind == .cancelled)
        await clock.advance(by: .seconds(10))
        #expect(base.callCount == 0)
    }

    @Test func aRequestFromACancelledTaskFailsAtOnce() async throws {
        let base = EchoService()
        let network = SimulatedNetworkService(wrapping: base, conditions: NetworkConditions(latency: .seconds(10)), clock: TestClock())
        let request = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await network.search("a")
        }
        let error = await #expect(throws: SearchError.self) { try await request.value }
        #expect(error?.kind == .cancelled)
        #expect(base.callCount == 0)
    }

    @Test func waitingForRequestsEndsWhenTheWaiterIsCancelled() async {
        let network = SimulatedNetworkService(wrapping: EchoService())
        let waiter = Task { await network.waitForRequests(5) }
        waiter.cancel()
        await waiter.value
        #expect(network.receivedRequestCount == 0)
    }

    // MARK: Stacking

    @Test func wrappersStackAndChangedConditionsApplyToLaterRequests() async throws {
        let inner = RecordingSearchService(wrapping: EchoService())
        let network = SimulatedNetworkService(wrapping: inner, clock: ImmediateClock())
        let outer = RecordingSearchService(wrapping: network)

        _ = try await outer.search("a")
        network.conditions.failureRate = 1
        await #expect(throws: SearchError.simulatedServiceUnavailable) { try await outer.search("b") }

        // The outer recorder saw what was sent; the inner one what got through.
        #expect(outer.requests.map(\.queryTexts) == [["a"], ["b"]])
        #expect(inner.requests.map(\.queryTexts) == [["a"]])
    }
}

/// A clock that advances a `TestClock` to `target` when a sleep is asked of it, just before the
/// sleep begins: a test's `advance` that lands between the moment the sleeper read the time
/// and the moment its sleep began.
private struct AdvancingBeforeSleep: Clock {
    typealias Instant = TestClock<Duration>.Instant
    let base: TestClock<Duration>
    let target: Instant

    var now: Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        await base.advance(to: target)
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}
