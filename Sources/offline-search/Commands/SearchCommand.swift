import ArgumentParser
import OfflineSearch
import SearchAPI

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search an index: a readable listing, or Algolia's JSON answer with --json.",
        discussion: """
            Pages count from 0, as in Algolia. The options override the same parameters in --params, \
            and QUERY overrides its "query" when given. A query that starts with "-" (an advanced-syntax \
            exclusion, with advancedSyntax) goes after "--", options before it:
              offline-search search products --params '{"advancedSyntax": true}' -- -case
            """
    )

    @OptionGroup var data: DataOptions
    @Argument(help: "The index name.") var index: String
    @Argument(help: "The query (default: the --params query, else empty: every record).") var query: String?
    @Option(help: "Algolia `filters`, e.g. 'brand:Apple AND price < 500'.") var filters: String?
    @Option(help: "Facets to count, comma-separated (or *).") var facets: String?
    @Option(help: "The page, from 0.") var page: Int?
    @Option(name: .customLong("hits-per-page"), help: "Hits per page (0 to 1000).") var hitsPerPage: Int?
    @Option(name: .customLong("around-lat-lng"), help: ArgumentHelp("Search around a point: Algolia's `aroundLatLng`, e.g. '48.8566, 2.3522' (the listing shows each hit's distance).", valueName: "lat, lng"))
    var aroundLatLng: String?
    @Option(name: .customLong("around-radius"), help: ArgumentHelp("With --around-lat-lng: the radius in metres, or all (default: automatic).", valueName: "metres"))
    var aroundRadius: String?
    @Option(name: .customLong("inside-bounding-box"), help: ArgumentHelp("Only records inside a rectangle: Algolia's `insideBoundingBox`, 'lat1,lng1,lat2,lng2'.", valueName: "box"))
    var insideBoundingBox: String?
    @Option(help: ArgumentHelp("More Algolia search parameters, as a JSON object such as '{\"typoTolerance\": false}'.", valueName: "json"))
    var params: String?
    @OptionGroup var output: JSONOutputOptions

    /// The request: --params, then the options, then QUERY.
    private(set) var parameters = SearchParameters()

    private enum CodingKeys: CodingKey {
        case data, index, query, filters, facets, page, hitsPerPage, aroundLatLng, aroundRadius, insideBoundingBox, params, output
    }

    mutating func validate() throws {
        var object = try params.map { try parseJSONObjectOption($0, option: "--params", example: "{\"hitsPerPage\": 5}") } ?? JSONObject()
        if let query { object["query"] = .string(query) }
        if let filters { object["filters"] = .string(filters) }
        if let facets { object["facets"] = .array(facets.split(separator: ",").map { .string(String($0).trimmingSpaces) }) }
        if let page { object["page"] = .int(Int64(page)) }
        if let hitsPerPage { object["hitsPerPage"] = .int(Int64(hitsPerPage)) }
        if let aroundLatLng {
            object["aroundLatLng"] = .string(aroundLatLng)
            // The readable listing shows each hit's distance, from its ranking info.
            if !output.wantsJSON, object["getRankingInfo"] == nil { object["getRankingInfo"] = true }
        }
        if let aroundRadius { object["aroundRadius"] = Int64(aroundRadius).map(JSONValue.int) ?? .string(aroundRadius) }
        if let insideBoundingBox { object["insideBoundingBox"] = .string(insideBoundingBox) }
        do {
            parameters = try SearchParameters(json: object)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let folder = data.folder
        let engine = try folder.engine(preparing: [index])
        // The process ends the search's burst: count it now.
        defer { try? engine.analytics?.flush(settlingEverything: true) }
        let response = try engine.existingIndex(index).search(parameters)
        if output.wantsJSON {
            output.print(response.jsonValue)
        } else {
            Terminal.writeLine(ReadableListing(response: response, color: Terminal.standardOutputIsTerminal).text)
        }
    }
}
