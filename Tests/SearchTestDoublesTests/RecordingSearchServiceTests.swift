import Clocks
import SearchAPI
import Testing
@testable import SearchTestDoubles

// The limit guards against a hang, not slowness: under `swift test`'s full parallel load on 2
// cores a test can wait minutes for a thread (one of these ran 470 s on CI without hanging).
@Suite(.timeLimit(.minutes(10)))
struct RecordingSearchServiceTests {
    @Test func recordsEveryRequestInTheOrderItWasSent() async throws {
        let recorder = RecordingSearchService(wrapping: EchoService())
        #expect(recorder.requests.isEmpty && recorder.lastRequest == nil)

        var facetParameters = SearchParameters(query: "phone")
        facetParameters.facetQuery = "app"
        let queries: [MultiSearchQuery] = [
            .hits(indexName: "products", parameters: SearchParameters(query: "phone")),
            .facetValues(indexName: "products", facet: "brand", parameters: facetParameters),
        ]
        _ = try await recorder.search("star")
        _ = try await recorder.searchForFacetValues(indexName: "products", facet: "brand", parameters: facetParameters)
        _ = try await recorder.multiSearch(queries, strategy: .stopIfEnoughMatches)

        #expect(recorder.requests == [
            .multiSearch([.hits(indexName: "movies", parameters: SearchParameters(query: "star"))], strategy: .none),
            .searchForFacetValues(indexName: "products", facet: "brand", parameters: facetParameters),
            .multiSearch(queries, strategy: .stopIfEnoughMatches),
        ])
        #expect(recorder.lastRequest == .multiSearch(queries, strategy: .stopIfEnoughMatches))
        #expect(recorder.requests.map(\.queryTexts) == [["star"], ["phone"], ["phone", "phone"]])

        recorder.clear()
        #expect(recorder.requests.isEmpty && recorder.lastRequest == nil)
        _ = try await recorder.search("after")
        #expect(recorder.requests.map(\.queryTexts) == [["after"]])
    }

    @Test func concurrentRequestsAreEachRecordedOnce() async throws {
        let recorder = RecordingSearchService(wrapping: EchoService())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<200 {
                group.addTask { _ = try await recorder.search("q\(number)") }
            }
            try await group.waitForAll()
        }
        let texts = recorder.requests.flatMap(\.queryTexts)
        #expect(texts.count == 200)
        #expect(Set(texts) == Set((0..<200).map { "q\($0)" }))
        #expect(recorder.exchanges.allSatisfy { if case .success? = $0.outcome { true } else { false } })
    }

    @Test func outcomesAreRecordedAndOnlyAnswersGoIntoTheFixture() async throws {
        let network = SimulatedNetworkService(wrapping: EchoService(), clock: ImmediateClock())
        let recorder = RecordingSearchService(wrapping: network)

        _ = try await recorder.search("good")
        network.setOffline(true)
        await #expect(throws: SearchError.simulatedOffline) { try await recorder.search("bad") }

        let exchanges = recorder.exchanges
        #expect(exchanges.count == 2)
        #expect(exchanges[1].outcome == .failure(.simulatedOffline))
        guard case .success(.multiSearch(let results))? = exchanges[0].outcome else {
            Issue.record("the first request should have an answer"); return
        }
        #expect(results.first?.searchResponse?.query == "good")
        #expect(recorder.fixture().entries.map(\.request.queryTexts) == [["good"]])
    }

    @Test func aRequestInFlightIsRecordedWhenSentAndItsOutcomeWhenDone() async throws {
        let clock = TestClock()
        let network = SimulatedNetworkService(wrapping: EchoService(), conditions: NetworkConditions(latency: .seconds(1)), clock: clock)
        let recorder = RecordingSearchService(wrapping: network)

        let request = Task { try await recorder.search("slow") }
        await network.waitForRequests(1)
        #expect(recorder.lastRequest?.queryTexts == ["slow"])
        #expect(recorder.exchanges.first?.outcome == nil)
        #expect(recorder.fixture().entries.isEmpty)

        await clock.advance(by: .seconds(1))
        _ = try await request.value
        #expect(recorder.exchanges.first?.outcome != nil)
        #expect(recorder.fixture().entries.count == 1)
    }
}
