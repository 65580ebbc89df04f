import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI
import SearchTestDoubles

/// The flows of the guides in `../shared/seeds/`, run on the local engine with the bundled
/// datasets: the line that builds the service is the only one that differs from the guides.
///
/// Each flow takes the service to use, so the same flow can run on the engine wrapped in a
/// test double (latency, out-of-order delivery) as well.
@MainActor
@Suite struct GuideFlowTests {
    struct Product: Decodable {
        let name: String
        let brand: String
        let categories: [String]
        let price: Double
    }

    struct Actor: Decodable { let name: String }
    struct Movie: Decodable { let title: String }

    /// A search box view, as a test drives one.
    final class TextField: SearchBoxController {
        var onQueryChanged: ((String?) -> Void)?
        var onQuerySubmitted: ((String?) -> Void)?
        private(set) var text: String?
        func setQuery(_ query: String?) { text = query }
        func type(_ text: String) {
            self.text = text
            onQueryChanged?(text)
        }
    }

    // MARK: The same flows over a slow, jittery network that delivers out of order

    /// The engine behind a network with 1–4 ms of latency where a third of the requests
    /// straggle 12 ms behind (so later responses overtake earlier ones), seeded.
    static func unreliableNetwork(_ engine: SearchEngine, seed: UInt64) -> SimulatedNetworkService {
        SimulatedNetworkService(wrapping: engine, conditions: NetworkConditions(
            latency: .milliseconds(1), jitter: .milliseconds(3), straggleRate: 0.35, straggleDelay: .milliseconds(12)), seed: seed)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theFlowsHoldOverAnUnreliableNetwork(seed: UInt64) async throws {
        let test = try TestEngine()
        for name in ["instant_search", "instantsearch_query_suggestions", "mobile_demo_actors", "mobile_demo_movies"] {
            try test.importBundled(name)
        }
        let network = Self.unreliableNetwork(test.engine, seed: seed)
        try await querySuggestionsFlow(service: network)
        try await actorsAndMoviesFlow(service: network)
        try await hitsAndCategoriesFlow(service: network)
        #expect(network.receivedRequestCount >= 9, "every search of the three flows went through the network")
    }

    // MARK: (1) Query suggestions with results

    @Test func querySuggestionsWithResults() async throws {
        let test = try TestEngine()
        try test.importBundled("instant_search")
        try test.importBundled("instantsearch_query_suggestions")
        try await querySuggestionsFlow(service: test.engine)
    }

    /// - Parameter suggestions: the records of the suggestions index searched (the bundled ones
    ///   unless given).
    func querySuggestionsFlow(service base: any SearchService, suggestions records: [JSONValue]? = nil) async throws {
        let service = RecordingSearchService(wrapping: base)
        let screen = QuerySuggestionsConnector<Hit<Product>>(service: service)
        let textField = TextField()
        screen.connectSearchBoxController(textField)
        let suggestionUpdates = EventLog(screen.suggestionsInteractor.onResultsUpdated)
        let resultUpdates = EventLog(screen.resultsInteractor.onResultsUpdated)
        let visibility = EventLog(screen.onSuggestionsVisibilityChanged)

        // The initial screen: results for the empty query; the list appears when editing starts,
        // with the most popular suggestions.
        screen.search()
        #expect(await eventually { suggestionUpdates.count == 1 && resultUpdates.count == 1 })
        #expect(screen.isShowingSuggestions == false)
        screen.beginEditing()
        #expect(screen.isShowingSuggestions == true)
        let suggestions = try records ?? BundledDatasets.recordValues("instantsearch_query_suggestions")
        let popularities = suggestions.compactMap { $0["popularity"]?.intValue }.sorted(by: >)
        let shown = (0..<screen.suggestionsInteractor.numberOfHits()).compactMap { screen.suggestionsInteractor.hit(atIndex: $0)?.object }
        #expect(shown.count == 10)
        #expect(shown.map(\.popularity) == Array(popularities.prefix(10)))
        #expect(screen.highlightedSuggestion(atIndex: 0)?.text == shown.first?.query)
        #expect(screen.highlightedSuggestion(atIndex: 0)?.taggedString.taggedRanges.isEmpty == true,
                "nothing typed, nothing matched: the plain query")
        #expect(screen.resultsInteractor.numberOfHits() > 0)

        // Each keystroke updates both lists, in one multi-search with both queries.
        var keystrokes = 0
        for text in ["i", "ip", "iph"] {
            textField.type(text)
            keystrokes += 1
            #expect(await eventually { suggestionUpdates.count == 1 + keystrokes && resultUpdates.count == 1 + keystrokes })
            #expect(screen.suggestionsInteractor.latestResponse?.query == text)
            #expect(screen.resultsInteractor.latestResponse?.query == text)
        }
        let calls = service.calls
        #expect(calls.count == 4)
        #expect(calls.allSatisfy { $0.map(\.indexName) == ["instantsearch_query_suggestions", "instant_search"] })
        let typed = try #require(screen.suggestionsInteractor.hit(atIndex: 0)?.object)
        #expect(typed.query.split(separator: " ").contains { $0.lowercased().hasPrefix("iph") })
        // Inverted highlighting: what was typed is plain, the rest is emphasised.
        let display = try #require(screen.highlightedSuggestion(atIndex: 0))
        #expect(display.text == typed.query)
        #expect(display.taggedString.untaggedSubstrings().contains { $0.lowercased() == "iph" })
        #expect(!display.taggedString.taggedSubstrings().isEmpty)

        // Choosing a suggestion sets the query, submits it, hides the list and updates the results.
        let chosen = try #require(screen.suggestionsInteractor.hit(atIndex: 1)?.object)
        screen.select(chosen)
        #expect(textField.text == chosen.query)
        #expect(screen.isShowingSuggestions == false)
        #expect(visibility.values == [true, false])
        #expect(await eventually { screen.resultsInteractor.latestResponse?.query == chosen.query })
        #expect(screen.resultsInteractor.numberOfHits() > 0)
        let firstResult = try #require(screen.resultsInteractor.hit(atIndex: 0))
        #expect(firstResult.highlightResult != nil)
    }

    // MARK: (2) One query across two indices

    @Test func oneQueryAcrossActorsAndMovies() async throws {
        let test = try TestEngine()
        try test.importBundled("mobile_demo_actors")
        try test.importBundled("mobile_demo_movies")
        try await actorsAndMoviesFlow(service: test.engine)
    }

    func actorsAndMoviesFlow(service base: any SearchService) async throws {
        let service = RecordingSearchService(wrapping: base)
        let searcher = MultiSearcher(service: service)
        let textField = TextField()
        let searchBox = SearchBoxConnector(searcher: searcher, controller: textField)
        let actorHits = HitsInteractor<Hit<Actor>>(infiniteScrolling: .off)
        let movieHits = HitsInteractor<Hit<Movie>>(infiniteScrolling: .off)
        actorHits.connectSearcher(searcher.addHitsSearcher(indexName: "mobile_demo_actors"))
        movieHits.connectSearcher(searcher.addHitsSearcher(indexName: "mobile_demo_movies"))
        let actorUpdates = EventLog(actorHits.onResultsUpdated)
        let movieUpdates = EventLog(movieHits.onResultsUpdated)
        searcher.search()
        #expect(await eventually { actorUpdates.count == 1 && movieUpdates.count == 1 })

        textField.type("sara")
        #expect(searchBox.interactor.query == "sara")
        #expect(await eventually { actorUpdates.count == 2 && movieUpdates.count == 2 })
        #expect(actorHits.numberOfHits() > 0)
        #expect(movieHits.numberOfHits() > 0)
        let actor = try #require(actorHits.hit(atIndex: 0))
        #expect(actor.object.name.lowercased().contains("sara"))
        // The guide's cell: the highlighted name.
        let name = try #require(actor.highlightedString(forKey: "name"))
        #expect(name.text == actor.object.name)
        #expect(name.taggedString.taggedSubstrings().map { $0.lowercased() } == ["sara"])
        // A movie matches through its cast.
        let movie = try #require(movieHits.hit(atIndex: 0))
        #expect(movie.highlightResult?["actors"]?.values?.contains { $0.matchLevel != .none } == true)
        let calls = service.calls
        #expect(calls.count == 2)
        #expect(calls.last?.map(\.indexName) == ["mobile_demo_actors", "mobile_demo_movies"])
    }

    // MARK: (3) Hits and facet values of one index, together

    @Test func hitsAndCategoriesSearchedTogether() async throws {
        let test = try TestEngine()
        try test.importBundled("instant_search")
        try await hitsAndCategoriesFlow(service: test.engine)
    }

    func hitsAndCategoriesFlow(service base: any SearchService) async throws {
        let service = RecordingSearchService(wrapping: base)
        let searcher = MultiSearcher(service: service)
        let textField = TextField()
        let searchBox = SearchBoxConnector(searcher: searcher, controller: textField)
        let categories = FacetListInteractor()
        let hits = HitsInteractor<Product>(infiniteScrolling: .off)
        categories.connectFacetSearcher(searcher.addFacetsSearcher(indexName: "instant_search", attribute: "categories"))
        hits.connectSearcher(searcher.addHitsSearcher(indexName: "instant_search"))
        let categoryUpdates = EventLog(categories.onItemsChanged)
        let hitUpdates = EventLog(hits.onResultsUpdated)
        let errors = EventLog(searcher.onError)
        searcher.search()
        #expect(await eventually { hitUpdates.count == 1 || errors.count > 0 })
        #expect(errors.count == 0, "\(errors.values)")

        textField.type("phone")
        #expect(searchBox.interactor.query == "phone")
        #expect(await eventually { hitUpdates.count == 2 || errors.count > 0 })
        #expect(errors.count == 0, "\(errors.values)")
        #expect(hits.numberOfHits() > 0)
        #expect(hits.hit(atIndex: 0).map { "\($0.name) \($0.categories)".lowercased().contains("phone") } == true)
        // The categories with a word starting with "phone", within the one typo a five-letter
        // word allows (as Algolia's search for facet values: "iPhone" is one typo away), counted
        // over every record (the facet query does not narrow the hits), the most frequent first.
        let records = try BundledDatasets.recordValues("instant_search")
        var expected: [String: Int] = [:]
        for record in records {
            for category in Set(record["categories"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            where category.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                .contains(where: { startsWithinOneTypo(Array($0.utf8), of: Array("phone".utf8)) }) {
                expected[category, default: 0] += 1
            }
        }
        let expectedTop = expected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(10)
        #expect(await eventually { categoryUpdates.last?.isEmpty == false })
        #expect(categories.items.map(\.value) == expectedTop.map(\.key))
        #expect(categories.items.map(\.count) == expectedTop.map(\.value))
        #expect(categories.items.first?.highlightedString.taggedString.taggedSubstrings().first?.lowercased() == "phone")
        let calls = service.calls
        #expect(calls.last?.count == 2, "the facet-value search and the hits search, in one request")
    }
}

/// Whether some prefix of `word` is at most one typo (a missing, extra, substituted or
/// transposed letter) from `query`: the brute force of a typo-tolerant prefix match.
private func startsWithinOneTypo(_ word: [UInt8], of query: [UInt8]) -> Bool {
    // d[i][j]: distance between word's first i bytes and query's first j.
    var d = [[Int]](repeating: Array(0...query.count), count: word.count + 1)
    for i in 0...word.count { d[i][0] = i }
    for i in stride(from: 1, through: word.count, by: 1) {
        for j in stride(from: 1, through: query.count, by: 1) {
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (word[i - 1] == query[j - 1] ? 0 : 1))
            if i > 1, j > 1, word[i - 1] == query[j - 2], word[i - 2] == query[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
        }
    }
    return d.contains { $0[query.count] <= 1 }
}
