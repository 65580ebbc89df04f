import Foundation
import SearchAPI
import Testing

/// Runs the built `offline-search` binary, as scripts do.
struct CLI {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("offline-search"),
            Bundle.main.bundleURL.appendingPathComponent("offline-search"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("offline-search"),
            repository.appendingPathComponent(".build/debug/offline-search"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    @discardableResult
    static func run(_ arguments: [String], stdin: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["OFFLINE_SEARCH_DATASETS"] = repository.appendingPathComponent("Datasets").path
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

final class DataDirectory {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-cli-\(UUID().uuidString)").path
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

let sharedDatasets = CLI.repository.deletingLastPathComponent().appendingPathComponent("shared/datasets")

@Suite(.serialized) struct CLITests {
    /// The real products imported with their settings, once per test that needs them.
    func productsDirectory() throws -> DataDirectory {
        let data = DataDirectory()
        let result = try CLI.run(["import", "--data", data.path, "instant_search",
                                  sharedDatasets.appendingPathComponent("products.json").path,
                                  "--settings", sharedDatasets.appendingPathComponent("products.settings.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Imported 3291 records"))
        return data
    }

    @Test func searchAnswersTheTypicalQueriesOverRealProducts() throws {
        let data = try productsDirectory()
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

        let readable = try CLI.run(["search", "--data", data.path, "instant_search", "samsung gal", "--facets", "brand"])
        #expect(readable.stdout.contains("hits, page 1 of"))
        #expect(readable.stdout.contains("[Samsung]"))
        #expect(readable.stdout.contains("brand:"))
    }

    @Test func queryAnswersEveryLineInOrderAndReportsErrorsInline() throws {
        let data = try productsDirectory()
        let input = """
            {"indexName":"instant_search","query":"iphone","hitsPerPage":2}
            not json
            {"indexName":"missing","query":"x"}
            {"indexName":"instant_search","hitsPerPage":"lots"}
            {"indexName":"instant_search","filters":"brand:Apple AND"}
            [1,2]
            {"indexName":"instant_search","type":"facet","facet":"brand","facetQuery":"sam"}
            {"indexName":"instant_search","query":"","hitsPerPage":0,"facets":"brand"}
            """
        let result = try CLI.run(["query", "--data", data.path], stdin: input)
        #expect(result.status == 0)
        let lines = try result.lines.map { try JSONValue(parsing: $0) }
        try #require(lines.count == 8)
        #expect(try SearchResponse(json: lines[0]).hits.count == 2)
        #expect(lines[1]["status"] == 400)
        #expect(lines[2]["status"] == 404)
        #expect(lines[2]["message"]?.stringValue == "Index missing does not exist")
        #expect(lines[3]["status"] == 400)
        #expect(lines[3]["message"]?.stringValue?.contains("hitsPerPage") == true)
        #expect(lines[4]["status"] == 400)
        #expect(lines[4]["message"]?.stringValue?.contains("filters") == true)
        #expect(lines[5]["status"] == 400)
        // brand is not searchable() in these settings: Algolia's message.
        #expect(lines[6]["message"]?.stringValue == "Cannot search in `brand` attribute, you need to add `searchable(brand)` to attributesForFaceting.")
        let facetOnly = try SearchResponse(json: lines[7])
        #expect(facetOnly.hits.isEmpty && facetOnly.nbHits == 3291 && facetOnly.facet("brand") != nil)
    }

    @Test func importOfInvalidJSONNamesLineAndColumnAndKeepsNothing() throws {
        let data = DataDirectory()
        let good = FileManager.default.temporaryDirectory.appendingPathComponent("good-\(UUID()).json")
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: good); try? FileManager.default.removeItem(at: bad) }
        try Data(#"[{"objectID":"1","name":"kept"}]"#.utf8).write(to: good)
        try Data("[\n{\"objectID\":\"2\",\"name\":\"new\"},\n{\"objectID\":\"3\" \"name\":\"broken\"}\n]".utf8).write(to: bad)
        #expect(try CLI.run(["import", "--data", data.path, "things", good.path]).status == 0)
        let failed = try CLI.run(["import", "--data", data.path, "things", bad.path])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("line 3, column 17"), "\(failed.stderr)")
        let listing = try CLI.run(["list", "--data", data.path])
        #expect(listing.stdout.contains("things\t1 records"))
    }

    @Test func settingsAreShownWithDefaultsAndChanged() throws {
        let data = DataDirectory()
        let set = try CLI.run(["settings", "--data", data.path, "things", "--set", #"{"attributesToIndex":["name"],"hitsPerPage":7}"#])
        #expect(set.status == 0, "\(set.stderr)")
        let settings = try JSONValue(parsing: set.stdout)
        #expect(settings["searchableAttributes"] == ["name"])
        #expect(settings["hitsPerPage"] == 7)
        #expect(settings["paginationLimitedTo"] == 1000)
        let bad = try CLI.run(["settings", "--data", data.path, "things", "--set", #"{"hitsPerPage":"many"}"#])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("hitsPerPage"))
        let missing = try CLI.run(["settings", "--data", data.path, "nothing"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("Index nothing does not exist"))
    }

    @Test func generateIsDeterministic() throws {
        let first = try CLI.run(["generate", "products", "--count", "50", "--seed", "7"])
        let second = try CLI.run(["generate", "products", "--count", "50", "--seed", "7"])
        let other = try CLI.run(["generate", "products", "--count", "50", "--seed", "8"])
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout != other.stdout)
        #expect(try JSONValue(parsing: first.stdout).arrayValue?.count == 50)
        #expect(try CLI.run(["generate", "nonsense"]).status != 0)
    }

    @Test func bundledDatasetsAreImportedOnFirstUse() throws {
        let home = DataDirectory()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["list"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = home.path
        environment["OFFLINE_SEARCH_DATASETS"] = CLI.repository.appendingPathComponent("Datasets").path
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for name in ["instant_search", "instantsearch_query_suggestions", "mobile_demo_actors", "mobile_demo_movies"] {
            #expect(text.contains(name), "\(text)")
        }
    }
}
