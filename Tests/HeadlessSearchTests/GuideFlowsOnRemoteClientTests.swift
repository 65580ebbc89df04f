import Foundation
import HummingbirdTesting
import OfflineSearchRemote
import OfflineSearchServer
import Testing

extension GuideFlowTests {
    /// The same flows through the remote client, against `offline-search serve` on loopback:
    /// the one line that builds the service is the swap from the engine to Algolia.
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func theFlowsRunOnTheRemoteClientAgainstALocalServer() async throws {
        let test = try TestEngine()
        for name in ["instant_search", "instantsearch_query_suggestions", "mobile_demo_actors", "mobile_demo_movies"] {
            try test.importBundled(name)
        }
        let server = AlgoliaServer(engine: test.engine, configuration: ServerConfiguration(port: 0, adminKey: "admin", searchKey: "search"))
        try await server.application().test(.live) { client in
            let port = try #require(client.port)
            var configuration = SearchClientConfiguration(appID: "APP", apiKey: "search",
                                                          hosts: [SearchHost(url: URL(string: "http://127.0.0.1:\(port)")!)])
            // Room for a loaded machine (the whole suite in parallel): a slow answer is not a failure here.
            configuration.readTimeout = .seconds(60)
            let service = SearchClient(configuration: configuration)
            try await querySuggestionsFlow(service: service)
            try await actorsAndMoviesFlow(service: service)
            try await hitsAndCategoriesFlow(service: service)
        }
    }
}
