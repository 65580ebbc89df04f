import Foundation
import OfflineSearch
import OfflineSearchRemote
import SearchAPI
import Testing

/// Algolia's retry strategy against tiny servers on 127.0.0.1 that refuse, hang, and answer
/// 4xx and 5xx: which hosts are tried, in which order, with which timeouts.
@Suite struct HostStrategyTests {
    static let okBody = #"{"results":[{"hits":[],"nbHits":0,"page":0,"nbPages":0,"hitsPerPage":20,"processingTimeMS":1,"query":"","params":""}]}"#
    /// The base timeout where a host hangs: each call waits that long for it.
    static let hangingBase = Duration.seconds(4)
    /// The base timeout elsewhere: long, so a loaded machine (the whole suite in parallel on two
    /// cores) does not turn a slow answer into a timeout.
    static let base = Duration.seconds(60)

    func client(_ hosts: [SearchHost], base: Duration = base, time: ManualTime = ManualTime(), log: AttemptLog) -> SearchClient {
        var configuration = SearchClientConfiguration(appID: "APP", apiKey: "key", hosts: hosts)
        configuration.readTimeout = base
        configuration.writeTimeout = base * 2
        configuration.now = time.now
        configuration.onAttempt = log.record
        return SearchClient(configuration: configuration)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aReadMovesOnAfterATimeoutARefusalAndA5xxWithGrowingTimeouts() async throws {
        let refused = SearchHost.loopback(try ClosedPort.make())
        let hanging = try HangingServer()
        let failing = StatusServer(status: 503, body: #"{"message":"overloaded","status":503}"#)
        let good = StatusServer(status: 200, body: Self.okBody)
        let hung = SearchHost.loopback(hanging.port)
        let unavailable = SearchHost.loopback(try await failing.start())
        let healthy = SearchHost.loopback(try await good.start())
        let log = AttemptLog()
        let time = ManualTime()
        let base = Self.hangingBase
        let client = client([hung, refused, unavailable, healthy], base: base, time: time, log: log)

        let started = ContinuousClock.now
        let results = try await client.multiSearch([.hits(indexName: "products", parameters: SearchParameters())], strategy: .none)
        #expect(results.count == 1)
        #expect(log.all.map(\.host) == [hung, refused, unavailable, healthy])
        #expect(log.all.map(\.timeout) == [base, base * 2, base * 3, base * 4], "each retry waits longer")
        #expect(log.all[0].outcome == .timedOut)
        if case .networkError = log.all[1].outcome {} else { Issue.record("a refused connection is a network error: \(log.all[1].outcome)") }
        #expect(log.all[2].outcome == .serverError(status: 503))
        #expect(log.all[3].outcome == .answered(status: 200))
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= base && elapsed < .seconds(60), "the hung host is given up on after its timeout")
        #expect(await failing.requestCount == 1)
        #expect(await good.requestCount == 1)

        // The refused and failing hosts are set aside; the one that timed out is tried after the good one.
        log.clear()
        _ = try await client.multiSearch([.hits(indexName: "products", parameters: SearchParameters())], strategy: .none)
        #expect(log.all.map(\.host) == [healthy])
        #expect(await failing.requestCount == 1)

        // Two minutes later, every host is back in its place.
        time.advance(by: 121)
        log.clear()
        _ = try await client.multiSearch([.hits(indexName: "products", parameters: SearchParameters())], strategy: .none)
        #expect(log.all.map(\.host) == [hung, refused, unavailable, healthy])
        #expect(await failing.requestCount == 2)
        #expect(await good.requestCount == 3)
        await failing.stop()
        await good.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(arguments: [400, 403, 404])
    func a4xxIsFinal(status: Int) async throws {
        let refusing = StatusServer(status: status, body: #"{"message":"Invalid Application-ID or API key","status":\#(status)}"#)
        let good = StatusServer(status: 200, body: Self.okBody)
        let log = AttemptLog()
        let client = client([SearchHost.loopback(try await refusing.start()), SearchHost.loopback(try await good.start())], log: log)
        do {
            _ = try await client.multiSearch([.hits(indexName: "products", parameters: SearchParameters())], strategy: .none)
            Issue.record("a \(status) answer was not an error")
        } catch {
            #expect(error.status == status)
            #expect(error.message == "Invalid Application-ID or API key")
        }
        #expect(log.all.count == 1)
        #expect(await good.requestCount == 0, "the next host is not tried after a 4xx")
        await refusing.stop()
        await good.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func readsAndWritesGoToTheHostsThatTakeThem() async throws {
        let reads = StatusServer(status: 200, body: Self.okBody)
        let writes = StatusServer(status: 200, body: #"{"taskID":7,"objectIDs":["a"]}"#)
        let log = AttemptLog()
        let readHost = SearchHost.loopback(try await reads.start(), accepts: [.read])
        let writeHost = SearchHost.loopback(try await writes.start(), accepts: [.write])
        let client = client([readHost, writeHost], log: log)
        _ = try await client.multiSearch([.hits(indexName: "products", parameters: SearchParameters())], strategy: .none)
        let written = try await client.saveObjects(indexName: "products", objects: [["objectID": "a"]])
        #expect(written == WriteResponse(taskID: 7, objectIDs: ["a"]))
        #expect(log.all.map(\.host) == [readHost, writeHost])
        #expect(log.all.map(\.timeout) == [Self.base, Self.base * 2], "a write has the write timeout")
        #expect(await reads.requestCount == 1)
        #expect(await writes.requestCount == 1)

        // A client with no host for writes says so rather than trying a read host.
        let readOnly = self.client([readHost], log: log)
        await #expect(throws: SearchError(.unreachable, "POST /1/indexes/products/batch: no host of the client takes writes")) {
            try await readOnly.saveObjects(indexName: "products", objects: [["objectID": "a"]])
        }
        await reads.stop()
        await writes.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func noHostAnsweringIsUnreachableAndNamesEachHost() async throws {
        let failing = StatusServer(status: 500, body: "{}")
        let refused = SearchHost.loopback(try ClosedPort.make())
        let broken = SearchHost.loopback(try await failing.start())
        let log = AttemptLog()
        let client = client([refused, broken], log: log)
        do {
            _ = try await client.searchSingleIndex(indexName: "products")
            Issue.record("no host answered, yet no error")
        } catch {
            #expect(error.kind == .unreachable)
            #expect(error.message.contains(refused.description) && error.message.contains("\(broken) answered 500"))
        }
        // Every host set aside: all are tried again rather than none.
        log.clear()
        _ = try? await client.searchSingleIndex(indexName: "products")
        #expect(log.all.map(\.host) == [refused, broken])
        await failing.stop()
    }

    @Test func aCancelledCallStopsWaitingForAHungHost() async throws {
        let hanging = try HangingServer()
        var configuration = SearchClientConfiguration(appID: "APP", apiKey: "key", hosts: [SearchHost.loopback(hanging.port)])
        configuration.readTimeout = .seconds(120)
        let log = AttemptLog()
        configuration.onAttempt = log.record
        let client = SearchClient(configuration: configuration)
        let call = Task { try await client.searchSingleIndex(indexName: "products") }
        try await Task.sleep(for: .milliseconds(100))
        call.cancel()
        let result = await call.result
        // Cancelled, not timed out: no attempt ran its course, and the error is the
        // cancellation's (a call that waited for the host would end, 120 s later, `unreachable`).
        // No bound on the elapsed time: on 2 cores, in the whole suite, this task can wait a long
        // time for a thread while other suites hold the pool's.
        #expect(throws: SearchError.cancelled("the request to /1/indexes/products/query")) { try result.get() }
        #expect(log.all.isEmpty)
    }

    @Test func algoliasHostsAreTheDSNForReadsTheMainHostForWritesThenThreeShuffled() throws {
        var generator = SystemRandomNumberGenerator()
        let hosts = SearchHost.algolia(appID: "LATENCY", using: &generator)
        #expect(hosts[0] == SearchHost(name: "LATENCY-dsn.algolia.net", accepts: [.read]))
        #expect(hosts[1] == SearchHost(name: "LATENCY.algolia.net", accepts: [.write]))
        #expect(Set(hosts.dropFirst(2).map(\.description)) == ["https://LATENCY-1.algolianet.com", "https://LATENCY-2.algolianet.com",
                                                               "https://LATENCY-3.algolianet.com"])
        #expect(hosts.dropFirst(2).allSatisfy { $0.accepts == [.read, .write] })
        let orders = Set((0..<40).map { _ in SearchHost.algolia(appID: "LATENCY").dropFirst(2).map(\.description) })
        #expect(orders.count > 1, "the fallback hosts are shuffled")
        #expect(SearchClient(configuration: SearchClientConfiguration(appID: "LATENCY", apiKey: "k")).configuration.hosts.count == 5)
        #expect(throws: SearchError.self) { try SearchClient(appID: "bad app/id", apiKey: "k") }
    }
}
