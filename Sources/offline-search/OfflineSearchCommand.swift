import ArgumentParser
import DatasetGenerator
import Foundation
import OfflineSearch
import SearchAPI

@main
struct OfflineSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline-search",
        abstract: "An offline, Algolia-compatible search engine over SQLite FTS5.",
        subcommands: [Import.self, Search.self, Query.self, Generate.self, Settings.self, List.self]
    )
}

/// `--data DIR`, shared by every command.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The data directory. Default: a per-user directory, filled with the bundled datasets on first use.", valueName: "dir"))
    var data: String?

    func engine() throws -> SearchEngine {
        if let data { return try SearchEngine(directory: URL(fileURLWithPath: data)) }
        let directory = DataOptions.defaultDirectory()
        let isNew = !FileManager.default.fileExists(atPath: directory.path)
        let engine = try SearchEngine(directory: directory)
        if isNew || engine.indexNames().isEmpty { try BundledDatasets.importAll(into: engine) }
        return engine
    }

    static func defaultDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("offline-search")
        }
        #if os(macOS)
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Application Support/offline-search")
        #else
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/offline-search")
        #endif
    }
}

/// The demo datasets in the repository's `Datasets/` folder.
enum BundledDatasets {
    static func directory() throws -> URL {
        var candidates: [URL] = []
        if let configured = ProcessInfo.processInfo.environment["OFFLINE_SEARCH_DATASETS"] {
            candidates.append(URL(fileURLWithPath: configured))
        }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent("Datasets"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Datasets"))
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("instant_search.json").path) {
            return candidate
        }
        throw CommandFailure("Cannot find the bundled Datasets folder; set OFFLINE_SEARCH_DATASETS or pass --data.")
    }

    static func importAll(into engine: SearchEngine) throws {
        let folder = try directory()
        let names = DatasetKind.allCases.map(DatasetGenerator.indexName(for:))
        let progress = ProgressBar(total: names.count, label: "Importing the bundled datasets")
        for (done, name) in names.enumerated() {
            progress.update(done, detail: name)
            try importDataset(name, from: folder, into: engine)
        }
        progress.finish(detail: "\(names.count) indices")
    }

    static func importDataset(_ name: String, from folder: URL, into engine: SearchEngine) throws {
        let index = try engine.index(name)
        let settingsURL = folder.appendingPathComponent("\(name).settings.json")
        if let object = try readJSON(settingsURL).objectValue { try index.setSettings(object) }
        try index.importFile(at: folder.appendingPathComponent("\(name).json"), replaceExisting: true)
    }
}

func readJSON(_ url: URL) throws -> JSONValue {
    let data: Data
    do { data = try Data(contentsOf: url) } catch { throw CommandFailure("Cannot read \(url.path): \(error.localizedDescription)") }
    do { return try JSONValue(parsingUTF8: Array(data)) } catch { throw CommandFailure("\(url.path): \(error)") }
}

func parseJSONObject(_ text: String, option: String) throws -> JSONObject {
    do {
        guard case .object(let object) = try JSONValue(parsing: text) else {
            throw ValidationError("\(option): expected a JSON object such as {\"hitsPerPage\": 5}")
        }
        return object
    } catch let error as JSONParseError {
        throw ValidationError("\(option): \(error)")
    }
}

/// A one-line progress bar on a terminal; silent when stderr is not a terminal.
final class ProgressBar {
    let total: Int
    let label: String
    let enabled = isatty(2) == 1

    init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    func update(_ done: Int, detail: String) {
        guard enabled else { return }
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(done)/\(total) \(detail)\u{1B}[K".utf8))
    }

    func finish(detail: String) {
        guard enabled else { return }
        update(total, detail: detail)
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

/// Writes to stdout and flushes, line by line.
func writeLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// A failure at run time (a file that cannot be read, a missing folder): printed as
/// `Error: <message>` without the usage text, which is for mistakes in the command line.
/// Engine errors (`SearchError`) print the same way.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Import records (a JSON array or JSON Lines) into an index.")

    @OptionGroup var options: DataOptions
    @Argument(help: "The index name.") var index: String
    @Argument(help: "A JSON array of records, or JSON Lines.") var file: String
    @Option(help: ArgumentHelp("A settings JSON file to apply first.", valueName: "file")) var settings: String?
    @Flag(help: "Replace every record of the index (others are removed).") var replace = false

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let engine = try options.engine()
        let target = try engine.index(index)
        if let settings, let object = try readJSON(URL(fileURLWithPath: settings)).objectValue {
            try target.setSettings(object)
        }
        let count = try target.importFile(at: URL(fileURLWithPath: file), replaceExisting: replace)
        let seconds = (clock.now - started) / .seconds(1)
        writeLine("Imported \(count) records into \(index) (\(target.recordCount) in total) in \(String(format: "%.2f", seconds)) s")
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Search an index; prints a readable listing, or Algolia's JSON with --json.")

    @OptionGroup var options: DataOptions
    @Argument(help: "The index name.") var index: String
    @Argument(help: "The query (empty: every record).") var query: String = ""
    @Option(help: "Algolia `filters`, e.g. 'brand:Apple AND price < 500'.") var filters: String?
    @Option(help: "Facets to count, comma-separated (or *).") var facets: String?
    @Option(help: "Page number, from 0.") var page: Int?
    @Option(name: .customLong("hits-per-page"), help: "Hits per page (0 to 1000).") var hitsPerPage: Int?
    @Option(help: ArgumentHelp("More Algolia search parameters as a JSON object.", valueName: "json")) var params: String?
    @Flag(help: "Print exactly Algolia's JSON response.") var json = false

    func run() throws {
        var object = try params.map { try parseJSONObject($0, option: "--params") } ?? JSONObject()
        object["query"] = .string(query)
        if let filters { object["filters"] = .string(filters) }
        if let facets { object["facets"] = .array(facets.split(separator: ",").map { .string(String($0)) }) }
        if let page { object["page"] = .int(Int64(page)) }
        if let hitsPerPage { object["hitsPerPage"] = .int(Int64(hitsPerPage)) }
        let parameters = try SearchParameters(json: object)
        let response = try options.engine().existingIndex(index).search(parameters)
        if json {
            writeLine(response.jsonValue.jsonString)
        } else {
            print(ReadableListing(response: response, color: isatty(1) == 1).text)
        }
    }
}

struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer JSON Lines of multi-search requests from stdin, one Algolia response per line.",
        discussion: """
            Each input line is one request: {"indexName": "...", ...search parameters}, or a facet-value \
            search {"indexName": "...", "type": "facet", "facet": "...", "facetQuery": "..."}. A failing line \
            gets {"message": ..., "status": 4xx} and the command goes on.
            """
    )

    @OptionGroup var options: DataOptions
    @Option(help: ArgumentHelp("Import this records file first, into --index-name (replacing its records); for benchmarks.", valueName: "file"))
    var corpus: String?
    @Option(name: .customLong("index-name"), help: "The index --corpus is imported into.") var indexName = "products"
    @Option(help: ArgumentHelp("Settings JSON file for --corpus.", valueName: "file")) var settings: String?
    @Flag(help: "Add processingTimeNS (the engine's own time for the request) to each response.") var timing = false

    func run() throws {
        let engine = try options.engine()
        if let corpus {
            let index = try engine.index(indexName)
            if let settings, let object = try readJSON(URL(fileURLWithPath: settings)).objectValue { try index.setSettings(object) }
            try index.importFile(at: URL(fileURLWithPath: corpus), replaceExisting: true)
        }
        let clock = ContinuousClock()
        while let line = readLine(strippingNewline: true) {
            if line.trimmingSpaces.isEmpty { continue }
            let started = clock.now
            var output: JSONValue
            do {
                let request: JSONValue
                do { request = try JSONValue(parsing: line) } catch {
                    throw SearchError(.invalidJSON, "request: \(error)")
                }
                let query = try MultiSearchQuery(json: request)
                output = try engine.multiSearchSync([query], strategy: .none)[0].jsonValue
            } catch let error as SearchError {
                output = error.jsonValue
            } catch {
                output = SearchError(.internalError, "\(error)").jsonValue
            }
            if timing, case .object(var object) = output {
                let elapsed = clock.now - started
                object["processingTimeNS"] = .int(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
                output = .object(object)
            }
            writeLine(output.jsonString)
        }
    }
}

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate deterministic demo records (a JSON array on stdout, or the bundled Datasets folder).")

    @Argument(help: "products, movies, actors or suggestions.") var kind: String?
    @Option(help: "How many records.") var count = 1000
    @Option(help: "The random seed: the same seed gives the same records.") var seed: UInt64 = 1
    @Option(help: ArgumentHelp("Write the records to this file instead of stdout.", valueName: "file")) var output: String?
    @Flag(help: "Also print the index's settings JSON (to stderr).") var settings = false
    @Option(name: .customLong("bundled"), help: ArgumentHelp("Write the four demo datasets (records and settings) into this folder.", valueName: "dir"))
    var bundled: String?

    func validate() throws {
        if bundled == nil, kind.flatMap(DatasetKind.init(rawValue:)) == nil {
            throw ValidationError("KIND must be one of: " + DatasetKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard count >= 0 else { throw ValidationError("--count must be 0 or more") }
    }

    func run() throws {
        let generator = DatasetGenerator(seed: seed)
        if let bundled {
            let folder = URL(fileURLWithPath: bundled)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for kind in DatasetKind.allCases {
                let name = DatasetGenerator.indexName(for: kind)
                // Suggestions are counted over exactly the bundled products, so their hit counts hold.
                let records = kind == .suggestions
                    ? generator.suggestions(count: BundledCounts.count(for: kind), catalogSize: BundledCounts.count(for: .products))
                    : generator.records(kind, count: BundledCounts.count(for: kind))
                try Data(Generate.arrayText(records).utf8).write(to: folder.appendingPathComponent("\(name).json"))
                try Data((DatasetGenerator.settings(for: kind).jsonString + "\n").utf8)
                    .write(to: folder.appendingPathComponent("\(name).settings.json"))
                writeLine("wrote \(records.count) records to \(name).json")
            }
            return
        }
        let kind = DatasetKind(rawValue: kind!)!
        let text = Generate.arrayText(generator.records(kind, count: count))
        if let output { try Data(text.utf8).write(to: URL(fileURLWithPath: output)) } else { FileHandle.standardOutput.write(Data(text.utf8)) }
        if settings { FileHandle.standardError.write(Data((DatasetGenerator.settings(for: kind).jsonString + "\n").utf8)) }
    }

    /// A JSON array with one record per line: readable diffs for the committed datasets.
    static func arrayText(_ records: [JSONValue]) -> String {
        "[\n" + records.map(\.jsonString).joined(separator: ",\n") + "\n]\n"
    }
}

/// How many records of each kind `Datasets/` holds.
enum BundledCounts {
    static func count(for kind: DatasetKind) -> Int {
        switch kind {
        case .products: 3000
        case .movies: 3000
        case .actors: 2000
        case .suggestions: 2000
        }
    }
}

struct Settings: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print an index's settings (Algolia's JSON), or change some with --set.")

    @OptionGroup var options: DataOptions
    @Argument(help: "The index name.") var index: String
    @Option(help: ArgumentHelp("Settings to change, as a JSON object; null resets one.", valueName: "json")) var set: String?

    func run() throws {
        let engine = try options.engine()
        let target = set == nil ? try engine.existingIndex(index) : try engine.index(index)
        if let set { try target.setSettings(try parseJSONObject(set, option: "--set")) }
        writeLine(JSONValue.object(target.settings.withDefaults).jsonString)
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the indices with their record counts.")

    @OptionGroup var options: DataOptions
    @Flag(help: "Print Algolia's list-indices JSON.") var json = false

    func run() throws {
        let engine = try options.engine()
        var items: [JSONValue] = []
        for name in engine.indexNames() {
            let count = try engine.existingIndex(name).recordCount
            if json {
                items.append(["name": .string(name), "entries": .int(Int64(count))])
            } else {
                writeLine("\(name)\t\(count) records")
            }
        }
        if json { writeLine(JSONValue.object(["items": .array(items), "nbPages": 1]).jsonString) }
    }
}
