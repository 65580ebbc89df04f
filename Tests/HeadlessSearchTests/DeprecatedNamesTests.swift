import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI

/// The older names the guides use still work. (The test is deprecated itself, so using the
/// deprecated names in it raises no warning.)
@MainActor
@Suite struct DeprecatedNamesTests {
    struct Actor: Decodable { let name: String }

    @available(*, deprecated)
    @Test func theQuerySuggestionsGuidesOlderNamesSearchEveryIndex() async throws {
        let test = try TestEngine()
        try test.index("a", settings: ["searchableAttributes": ["name"]], records: [["objectID": "1", "name": "Sara Herrera"]])
        try test.index("b", settings: ["searchableAttributes": ["name"]],
                       records: [["objectID": "2", "name": "Sara Obrien"], ["objectID": "3", "name": "Paz"]])
        let first = HitsInteractor<Hit<Actor>>(infiniteScrolling: .off)
        let second = HitsInteractor<Hit<Actor>>(infiniteScrolling: .off)
        let connector = MultiIndexHitsConnector(service: test.engine, indexModules: [
            .init(indexName: "a", hitsInteractor: first),
            .init(indexName: "b", hitsInteractor: second),
        ])
        let queryInput: QueryInputInteractor = .init()
        queryInput.connectSearcher(connector.searcher)
        queryInput.query = "sara"
        #expect(await eventually { first.numberOfHits() == 1 && second.numberOfHits() == 1 })
        #expect(second.hit(atIndex: 0)?.hightlightedString(forKey: "name")?.taggedString.taggedSubstrings() == ["Sara"])
        #expect(connector.searcher.query == "sara")
    }
}
