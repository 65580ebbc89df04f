import ArgumentParser
import Foundation
import OfflineSearch
import SearchAPI

struct AnalyticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Print an index's search analytics: top searches, searches without results, counts, top hits or filters.",
        discussion: """
            The searches an index answered in this data folder (by `search`, `query`, `serve` or \
            the library), counted as Algolia's analytics count them: of a burst of keystrokes, \
            the query the user settled on. Insights events sent to `serve` (`POST /1/events`) \
            add click-through and conversion rates.

            The period is whole days (UTC): --since and --until as YYYY-MM-DD, by default the \
            last 8 days as in Algolia's Analytics API. --json prints the Analytics API's JSON.

            --replay FILE counts a search log first: a JSON array of search parameters with \
            `count` ({"query": "iphone", "count": 12}), each searched once for its hits.
            """
    )

    @OptionGroup var data: DataOptions
    @Argument(help: "The index name.") var index: String
    @Flag(name: .customLong("no-results"), help: "The searches that found nothing.") var noResults = false
    @Flag(help: "How many searches, per day.") var count = false
    @Flag(help: "The records most often on the first page.") var hits = false
    @Flag(help: "The attributes filtered on most (with --attribute, that attribute's values).") var filters = false
    @Option(help: ArgumentHelp("With --filters: the values of this attribute.", valueName: "attribute")) var attribute: String?
    @Option(help: ArgumentHelp("The first day, YYYY-MM-DD.", valueName: "date")) var since: String?
    @Option(help: ArgumentHelp("The last day, YYYY-MM-DD (default: today).", valueName: "date")) var until: String?
    @Option(help: ArgumentHelp("Only searches with these analyticsTags (\"mobile AND ios\").", valueName: "tags")) var tags: String?
    @Option(help: "How many items (1 to 1000).") var limit = 10
    @Option(help: ArgumentHelp("Count this search log first (a JSON array of {\"query\", \"count\", …}).", valueName: "file"))
    var replay: String?
    @Flag(help: "Print the Analytics API's JSON.") var json = false
    @Flag(help: "Indent the JSON.") var pretty = false

    mutating func validate() throws {
        if [noResults, count, hits, filters].filter({ $0 }).count > 1 {
            throw ValidationError("Choose one of --no-results, --count, --hits and --filters.")
        }
        if attribute != nil && !filters { throw ValidationError("--attribute goes with --filters.") }
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
    }

    func run() throws {
        let engine = try data.folder.engine(preparing: [index])
        guard engine.exists(index) else {
            throw CommandFailure("\(SearchError.indexNotFound(index).message) (status 404). "
                                 + "`offline-search list` shows the indices of \(data.folder.url.path).")
        }
        if let replay {
            guard let entries = try readJSONFile(replay).arrayValue else {
                throw CommandFailure("\(replay): expected a JSON array of searches such as [{\"query\": \"iphone\", \"count\": 12}]")
            }
            let counted = try engine.replaySearchLog(entries, into: index)
            Terminal.note("counted \(Terminal.count(counted, "search", "searches")) from \(replay)")
        }
        guard let analytics = engine.analytics else { throw CommandFailure("The data folder \(data.folder.url.path) is read-only: it has no analytics.") }
        var query = ["index": index, "limit": String(limit), "clickAnalytics": "true"]
        if let since { query["startDate"] = since }
        if let until { query["endDate"] = until }
        if let tags { query["tags"] = tags }
        let request: AnalyticsRequest
        do {
            request = try AnalyticsRequest(query: query)
        } catch {
            // The API's names are this command's options here.
            throw CommandFailure(error.message.replacingOccurrences(of: "startDate", with: "--since")
                .replacingOccurrences(of: "endDate", with: "--until"))
        }
        let output: JSONValue
        var table: [[String]] = []
        if noResults {
            let report = try analytics.searchesWithoutResults(request)
            output = report.jsonValue
            table = [["count", "with filters", "search"]] + report.searches.map { [String($0.count), String($0.withFilterCount), $0.search] }
        } else if count {
            let report = try analytics.searchCount(request)
            output = report.jsonValue
            table = [["count", "date"]] + report.dates.map { [String($0.count), $0.date] } + [[String(report.count), "in all"]]
        } else if hits {
            let report = try analytics.topHits(request)
            output = report.jsonValue
            table = [["count", "clicks", "objectID"]] + report.hits.map { [String($0.count), String($0.clickAnalytics?.clickCount ?? 0), $0.hit] }
        } else if filters {
            let report = try analytics.topFilters(request, attribute: attribute)
            output = report.jsonValue
            table = [["count", "filter"]] + report.items.map { [String($0.count), $0.attribute + ($0.operator ?? "") + ($0.value ?? "")] }
        } else {
            let report = try analytics.topSearches(request)
            output = report.jsonValue
            table = [["count", "nbHits", "click-through", "search"]] + report.searches.map { item in
                [String(item.count), String(item.nbHits),
                 item.clickAnalytics?.clickThroughRate.map { String(format: "%.0f%%", $0 * 100) } ?? "-", item.search]
            }
        }
        if json || pretty {
            Terminal.writeLine(pretty ? output.prettyJSONString : output.jsonString)
            return
        }
        let widths = (0..<(table.first?.count ?? 0)).map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            Terminal.writeLine(row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  "))
        }
    }
}
