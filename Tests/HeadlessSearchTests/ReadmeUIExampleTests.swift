import Foundation
import HeadlessSearch
import OfflineSearch
import SearchAPI
import Testing

// README example begins
@MainActor final class ActorsAndMovies {
    struct Actor: Decodable { let name: String }
    struct Movie: Decodable { let title: String }

    let engine: SearchEngine                      // or any SearchService: a remote client, a test double
    let searcher: MultiSearcher
    let actors = HitsInteractor<Hit<Actor>>(infiniteScrolling: .off)
    let movies = HitsInteractor<Hit<Movie>>()     // infinite scrolling: pages asked for as the list scrolls

    init(engine: SearchEngine) {
        self.engine = engine
        searcher = MultiSearcher(service: engine)  // the guide: MultiSearcher(appID:apiKey:)
        actors.connectSearcher(searcher.addHitsSearcher(indexName: "mobile_demo_actors"))
        movies.connectSearcher(searcher.addHitsSearcher(indexName: "mobile_demo_movies"))
        actors.onResultsUpdated.subscribe(with: self) { screen, _ in
            print(screen.actors.hit(atIndex: 0)?.highlightedString(forKey: "name")?.taggedString.input ?? "")
        }
    }

    func type(_ text: String) {                   // what a search box's controller calls
        searcher.query = text
        searcher.search()                         // one multi-search for both indices; latest query wins
    }
}
// README example ends

/// The README's "Build a search UI" example, compiled here as it stands there and run on the
/// bundled actors and movies.
@MainActor
@Suite struct ReadmeUIExampleTests {
    @Test func theExampleFindsActorsAndMovies() async throws {
        let test = try TestEngine()
        try test.importBundled("mobile_demo_actors")
        try test.importBundled("mobile_demo_movies")
        let screen = ActorsAndMovies(engine: test.engine)
        screen.type("sara")
        #expect(await eventually { screen.actors.numberOfHits() > 0 && screen.movies.numberOfHits() > 0 })
        #expect(screen.actors.hit(atIndex: 0)?.object.name.lowercased().contains("sara") == true)
    }

    @Test func theReadmeHoldsExactlyThisCode() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let section = try #require(readme.range(of: "## Build a search UI"))
        let blockStart = try #require(readme.range(of: "```swift\nimport HeadlessSearch\nimport OfflineSearch\n", range: section.upperBound..<readme.endIndex))
        let blockEnd = try #require(readme.range(of: "\n```", range: blockStart.upperBound..<readme.endIndex))
        let begin = try #require(test.range(of: "// README example begins\n"))
        let end = try #require(test.range(of: "\n// README example ends"))
        #expect(readme[blockStart.upperBound..<blockEnd.lowerBound].drop { $0 == "\n" } == test[begin.upperBound..<end.lowerBound],
                "README.md's UI example and ReadmeUIExampleTests differ: change both")
    }
}
