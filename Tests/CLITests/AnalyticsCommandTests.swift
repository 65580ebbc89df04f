import Foundation
import SearchAPI
import Testing

/// `offline-search analytics` and `offline-search suggestions build` on the bundled products,
/// as a script uses them.
@Suite struct AnalyticsCommandTests {
    static var datasets: URL { CLI.repository.appendingPathComponent("Datasets") }

    @Test func searchesFromTheCLIAreCountedAndReadBack() throws {
        let data = try importedBundledProducts()
        // Each `search` is a process of its own: its burst ends with it.
        for query in ["iphone", "iphone", "samsung tv", "qqqzzz"] {
            #expect(try CLI.run(["search", "--data", data.path, "instant_search", query, "--json"]).status == 0)
        }
        let top = try CLI.run(["analytics", "--data", data.path, "instant_search", "--json"])
        #expect(top.status == 0, "\(top.stderr)")
        let searches = try JSONValue(parsing: top.stdout)["searches"]?.arrayValue ?? []
        #expect(searches.map { $0["search"]?.stringValue ?? "" } == ["iphone", "qqqzzz", "samsung tv"])
        #expect(searches.first?["count"] == 2)
        #expect(searches.first?["clickThroughRate"] == .null, "no search asked for clickAnalytics")

        let table = try CLI.run(["analytics", "--data", data.path, "instant_search"])
        #expect(table.lines.first?.contains("click-through") == true)
        #expect(table.lines.dropFirst().first?.hasSuffix("iphone") == true, "\(table.stdout)")

        let noResults = try CLI.run(["analytics", "--data", data.path, "instant_search", "--no-results", "--json"])
        #expect(try JSONValue(parsing: noResults.stdout) == ["searches": [["search": "qqqzzz", "count": 1, "withFilterCount": 0]]])
        let count = try CLI.run(["analytics", "--data", data.path, "instant_search", "--count", "--json"])
        #expect(try JSONValue(parsing: count.stdout)["count"] == 4)
        // A period before the searches has none.
        let old = try CLI.run(["analytics", "--data", data.path, "instant_search", "--since", "2020-01-01", "--until", "2020-01-31", "--json"])
        #expect(try JSONValue(parsing: old.stdout) == ["searches": []])

        // Mistakes are refused with what was expected.
        let badDate = try CLI.run(["analytics", "--data", data.path, "instant_search", "--since", "yesterday"])
        #expect(badDate.status != 0 && badDate.stderr.contains("YYYY-MM-DD"), "\(badDate.stderr)")
        #expect(try CLI.run(["analytics", "--data", data.path, "instant_search", "--count", "--hits"]).status != 0)
        let missing = try CLI.run(["analytics", "--data", data.path, "nothing"])
        #expect(missing.status != 0 && missing.stderr.contains("404"))
    }

    @Test func suggestionsAreBuiltFromAReplayedLogAndAConfiguration() throws {
        let data = try importedBundledProducts()
        let log = try TemporaryFile(#"[{"query": "iPhone", "count": 30}, {"query": "samsung tv", "count": 12}, {"query": "qqqzzz", "count": 99}]"#)
        let replayed = try CLI.run(["analytics", "--data", data.path, "instant_search", "--replay", log.path, "--json"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr.contains("counted 141 searches"))
        let config = try TemporaryFile(#"""
            {"indexName": "suggestions", "sourceIndices": [{"indexName": "instant_search", "minHits": 5,
             "facets": [{"attribute": "categories", "amount": 3}]}]}
            """#)
        let built = try CLI.run(["suggestions", "build", "--data", data.path, "--config", config.path, "--json"])
        #expect(built.status == 0, "\(built.stderr)")
        let report = try JSONValue(parsing: built.stdout)
        #expect(report["suggestions"] == 2)
        #expect(report["leftOut"] == ["minHits": 1])
        let found = try CLI.run(["search", "--data", data.path, "suggestions", "", "--json"])
        let hits = try JSONValue(parsing: found.stdout)["hits"]?.arrayValue ?? []
        #expect(hits.map { $0["query"]?.stringValue ?? "" } == ["iphone", "samsung tv"])
        #expect(hits.first?["popularity"] == 30)
        #expect(hits.first?["instant_search"]?["facets"]?["exact_matches"]?["categories"]?.arrayValue?.count == 3)

        let wrong = try TemporaryFile(#"{"indexName": "suggestions", "sourceIndices": [{"indexName": "instant_search", "minHits": -1}]}"#)
        let refused = try CLI.run(["suggestions", "build", "--data", data.path, "--config", wrong.path])
        #expect(refused.status != 0 && refused.stderr.contains("sourceIndices[0].minHits"), "\(refused.stderr)")
    }
}
