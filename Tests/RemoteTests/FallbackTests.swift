import Foundation
import HeadlessSearch
import OfflineSearch
import OfflineSearchMirror
import OfflineSearchRemote
import SearchAPI
import Testing

/// The fallback service on a live server and its mirror: each strategy answers from the side
/// it should, when the server is up, stopped, and back, and says which side answered.
@Suite struct FallbackTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        let strategy: FallbackStrategy
        /// The origin of the answer while the server is up, stopped (nil: an error), and back.
        let up: ResponseOrigin
        let stopped: ResponseOrigin?
        var testDescription: String { "\(strategy)" }
    }

    static let expectations = [
        Expectation(strategy: .onlineOnly, up: .remote, stopped: nil),
        Expectation(strategy: .offlineOnly, up: .local, stopped: .local),
        Expectation(strategy: .fallbackOnFailure, up: .remote, stopped: .local),
        Expectation(strategy: .fallbackOnTimeout(.seconds(120)), up: .remote, stopped: .local),
    ]

    /// A server on a source engine and a mirror of its `products` in another folder.
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func mirrored() async throws -> MirrorScene {
        let scene = try await MirrorScene(products: 30)
        try await IndexMirror(source: scene.client, target: scene.mirror).mirror(indexName: "products")
        return scene
    }

    static func query(_ service: FallbackSearchService) async throws(SearchError) -> (ResponseOrigin?, FacetValuesResponse, SearchResponse) {
        var parameters = SearchParameters(query: "phone")
        parameters.facets = ["brand"]
        let results = try await service.multiSearch([
            .hits(indexName: "products", parameters: parameters),
            .facetValues(indexName: "products", facet: "brand", parameters: SearchParameters()),
        ], strategy: .none)
        guard case .hits(let hits) = results[0], case .facetValues(let facets) = results[1] else {
            throw SearchError(.internalError, "unexpected result kinds")
        }
        #expect(hits.origin == facets.origin, "one answer, one side")
        return (hits.origin, facets, hits)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(arguments: expectations)
    func eachStrategyAnswersFromTheRightSide(_ expectation: Expectation) async throws {
        let setup = try await Self.mirrored()
        let service = FallbackSearchService(remote: setup.client, local: setup.mirror, strategy: expectation.strategy)

        let (upOrigin, upFacets, upHits) = try await Self.query(service)
        #expect(upOrigin == expectation.up)
        #expect(upHits.nbHits > 0)

        await setup.server.stop()
        do {
            let (origin, facets, hits) = try await Self.query(service)
            #expect(origin == expectation.stopped)
            #expect(hits.hits == upHits.hits && facets.facetHits == upFacets.facetHits, "the mirror answers as the server did")
            let single = try await service.searchForFacetValues(indexName: "products", facet: "brand", parameters: SearchParameters())
            #expect(single.origin == expectation.stopped)
        } catch {
            #expect(expectation.stopped == nil, "\(error)")
            #expect(error.kind == .unreachable)
        }

        try await setup.server.start()
        let (backOrigin, _, _) = try await Self.query(service)
        #expect(backOrigin == expectation.up)
        await setup.server.stop()
    }

    @Test func aHungRemoteLosesTheRaceToTheLocalIndexAfterTheDelay() async throws {
        let folder = TemporaryDirectory()
        let local = try Fixture.engine(in: folder, products: 10)
        let hanging = try HangingServer()
        var configuration = SearchClientConfiguration(appID: "APP", apiKey: "key", hosts: [SearchHost.loopback(hanging.port)])
        // Far beyond the bound below: an answer within it proves the remote call was cancelled,
        // not waited out, even on a machine the whole suite keeps busy (this search once took
        // over 300 s on CI, waiting for a thread).
        configuration.readTimeout = .seconds(1800)
        let log = AttemptLog()
        configuration.onAttempt = log.record
        let service = FallbackSearchService(remote: SearchClient(configuration: configuration), local: local,
                                            strategy: .fallbackOnTimeout(.milliseconds(150)))
        let started = ContinuousClock.now
        let response = try await service.search(indexName: "products", parameters: SearchParameters(query: "phone"))
        let elapsed = ContinuousClock.now - started
        #expect(response.origin == .local)
        #expect(response.nbHits > 0)
        #expect(elapsed >= .milliseconds(150) && elapsed < .seconds(1200), "the local search starts after the delay; the remote is cancelled")
        #expect(log.all.isEmpty, "the remote call was cancelled, not timed out")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aRefusalIsNotAFailureToFallBackOn() async throws {
        let setup = try await Self.mirrored()
        let port = await setup.server.port
        let wrongKey = Fixture.client(port: port, key: "wrong")
        for strategy in [FallbackStrategy.fallbackOnFailure, .fallbackOnTimeout(.seconds(120))] {
            let service = FallbackSearchService(remote: wrongKey, local: setup.mirror, strategy: strategy)
            await #expect(throws: SearchError(.forbidden, "Invalid Application-ID or API key")) {
                try await service.search(indexName: "products", parameters: SearchParameters())
            }
        }
        await setup.server.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @MainActor
    @Test func aSearcherShowsWhereItsResultsCameFrom() async throws {
        let setup = try await Self.mirrored()
        let service = FallbackSearchService(remote: setup.client, local: setup.mirror, strategy: .fallbackOnFailure)
        let searcher = HitsSearcher(service: service, indexName: "products", query: "case")
        searcher.search()
        #expect(await eventually { searcher.onResults.lastValue?.origin == .remote })
        await setup.server.stop()
        searcher.query = "cable"
        searcher.search()
        #expect(await eventually { searcher.onResults.lastValue?.origin == .local })
        #expect(searcher.onResults.lastValue?.query == "cable")
    }
}

/// Waits (up to 60 s, on the main actor: the whole suite can keep it waiting) until the condition holds.
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<6000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
