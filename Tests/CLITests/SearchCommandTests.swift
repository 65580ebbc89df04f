import Foundation
import SearchAPI
import Testing

@Suite(.serialized) struct SearchCommandTests {
    @Test(.needsSharedDatasets) func answersTheTypicalQueriesOverRealProducts() throws {
        let data = try importedProducts()
        for (query, expectedWord) in [("iphone", "iphone"), ("samsung gal", "gal"), ("\"case\"", "case")] {
            let result = try CLI.run(["search", "--data", data.path, "instant_search", query, "--facets", "brand,categories",
                                      "--hits-per-page", "5", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let response = try SearchResponse(json: JSONValue(parsing: result.stdout))
            #expect(response.nbHits > 20, "\(query)")
            #expect(response.hits.count == 5)
            let firstName = try #require(response.hits.first?["_highlightResult"]?["name"]?["value"]?.stringValue)
            #expect(firstName.lowercased().contains("<em>\(expectedWord)"), "\(query): \(firstName)")
            #expect((response.facet("brand")?.values.count ?? 0) > 1)
            #expect((response.facet("categories")?.values.first?.count ?? 0) > 0)
        }
        let all = try CLI.run(["search", "--data", data.path, "instant_search", "", "--facets", "brand", "--json",
                               "--params", #"{"maxValuesPerFacet": 1000}"#])
        let response = try SearchResponse(json: JSONValue(parsing: all.stdout))
        #expect(response.nbHits == 3291)
        #expect(response.facet("brand")?.values.map(\.count).reduce(0, +) == 3291)
    }

    @Test(.needsSharedDatasets) func theParamsQueryIsUsedUnlessAQueryIsGiven() throws {
        let data = try importedProducts()
        let fromParams = try CLI.run(["search", "--data", data.path, "instant_search", "--params", #"{"query":"ipad"}"#, "--json"])
        #expect(fromParams.status == 0, "\(fromParams.stderr)")
        let viaParams = try SearchResponse(json: JSONValue(parsing: fromParams.stdout))
        #expect(viaParams.query == "ipad")
        #expect(viaParams.nbHits > 0 && viaParams.nbHits < 3291)
        let overridden = try CLI.run(["search", "--data", data.path, "instant_search", "kindle", "--params", #"{"query":"ipad"}"#, "--json"])
        #expect(try SearchResponse(json: JSONValue(parsing: overridden.stdout)).query == "kindle")
    }

    @Test func theListingShowsATitleEachMatchOnceAndTheOtherAttributes() throws {
        let data = DataDirectory()
        let records = try TemporaryFile(#"""
            [{"objectID":"1","name":"Galaxy Tab","description":"A galaxy of apps on a tablet with a long battery life and a bright screen","price":329,"brand":"Samsung"},
             {"objectID":"2","name":"Plain thing","price":5}]
            """#)
        #expect(try CLI.run(["settings", "--data", data.path, "shop", "--create", "--set",
                             #"{"searchableAttributes":["name","description"],"attributesToSnippet":["description:4"]}"#]).status == 0)
        #expect(try CLI.run(["import", "--data", data.path, "shop", records.path]).status == 0)
        let result = try CLI.run(["search", "--data", data.path, "shop", "galaxy"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.lines
        #expect(lines.first?.hasPrefix("1 hit, ") == true && lines.first?.hasSuffix(": hit 1, page 0 of the only page") == true, "\(lines)")
        #expect(lines.contains("1. [Galaxy] Tab  [1]"), "\(lines)")
        // The description once, as its snippet.
        #expect(lines.filter { $0.contains("description:") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.contains("description:") && $0.contains("[galaxy]") }, "\(lines)")
        // Retrieved attributes that did not match, compactly.
        #expect(lines.contains { $0.contains("price: 329") && $0.contains("brand: Samsung") }, "\(lines)")
        // A hit with no highlight is not a bare objectID.
        let plain = try CLI.run(["search", "--data", data.path, "shop", "plain"])
        #expect(plain.lines.contains("1. [Plain] thing  [2]"), "\(plain.lines)")
        #expect(plain.lines.contains { $0.contains("price: 5") }, "\(plain.lines)")
    }

    @Test func pagesCountFromZeroAndAPagePastTheEndIsSaid() throws {
        let data = try importedBundledProducts()
        let second = try CLI.run(["search", "--data", data.path, "instant_search", "case", "--page", "1", "--hits-per-page", "10"])
        #expect(second.status == 0)
        let summary = try #require(second.lines.first)
        #expect(summary.contains("hits 11–20, page 1 of pages 0–"), "\(summary)")
        #expect(second.lines.contains { $0.hasPrefix("11. ") })
        let past = try CLI.run(["search", "--data", data.path, "instant_search", "case", "--page", "900", "--hits-per-page", "10"])
        #expect(past.lines.first?.contains("page 900 is past the last page (pages 0–") == true, "\(past.lines)")
    }

    @Test func mistakesShowTheSubcommandsUsage() throws {
        let data = try importedBundledProducts()
        let badJSON = try CLI.run(["search", "--data", data.path, "instant_search", "--params", #"{"query": "x""#])
        #expect(badJSON.status != 0)
        #expect(badJSON.stderr.contains("--params: Invalid JSON at line 1, column 14"), "\(badJSON.stderr)")
        #expect(badJSON.stderr.contains("Usage: offline-search search"), "\(badJSON.stderr)")
        let unknown = try CLI.run(["search", "--data", data.path, "instant_search", "--params", #"{"hitsPerPge": 2}"#])
        #expect(unknown.stderr.contains("Unknown parameter: hitsPerPge"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("Usage: offline-search search"))
        let spaced = try CLI.run(["search", "--data", data.path, "instant_search", "--filters", "hierarchical categories:Phones"])
        #expect(spaced.status != 0)
        #expect(spaced.stderr.contains(#"must be quoted, such as "hierarchical categories":Phones"#), "\(spaced.stderr)")
    }

    @Test func aQueryStartingWithADashGoesAfterTheDoubleDash() throws {
        let data = try importedBundledProducts()
        let result = try CLI.run(["search", "--data", data.path, "instant_search", "--json", "--params", #"{"advancedSyntax":true}"#,
                                  "--", "-case"])
        #expect(result.status == 0, "\(result.stderr)")
        let response = try SearchResponse(json: JSONValue(parsing: result.stdout))
        #expect(response.query == "-case")
        #expect(response.nbHits > 0 && response.nbHits < 3000)
        #expect(try CLI.run(["search", "--help"]).stdout.contains("--"))
    }

    @Test func prettyJSONIsTheSameAnswer() throws {
        let data = try importedBundledProducts()
        let compact = try CLI.run(["search", "--data", data.path, "instant_search", "ipad", "--json"])
        let pretty = try CLI.run(["search", "--data", data.path, "instant_search", "ipad", "--pretty"])
        #expect(pretty.lines.count > 20)
        var a = try JSONValue(parsing: compact.stdout), b = try JSONValue(parsing: pretty.stdout)
        a = Self.withoutTiming(a); b = Self.withoutTiming(b)
        #expect(a == b)
    }

    static func withoutTiming(_ value: JSONValue) -> JSONValue {
        guard case .object(var object) = value else { return value }
        object["processingTimeMS"] = nil
        object["queryID"] = nil
        return .object(object)
    }
}
