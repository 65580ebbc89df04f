import ArgumentParser
import Foundation
import OfflineSearch
import SearchAPI

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Answer JSON Lines of search requests from stdin: one Algolia answer per line, in order.",
        discussion: """
            Each input line is one request, answered on one output line (flushed as it goes):
              {"indexName": "...", ...search parameters}                          → a search response
              {"indexName": "...", "type": "facet", "facet": "...", "facetQuery": "..."}  → facet values
              {"requests": [...], "strategy": "none"}  (Algolia's multi-search body) → {"results": [...]}
            A line that fails, a blank line included, is answered with Algolia's error object \
            {"message": ..., "status": 4xx} and the command goes on: every line gets exactly one answer. \
            The exit status is 0 when every line was answered; with --strict it is 1 if any line failed.
            """
    )

    @OptionGroup var data: DataOptions
    @Option(help: ArgumentHelp("Import this records file first, into --index-name (replacing its records); for benchmarks.", valueName: "file"))
    var corpus: String?
    @Option(name: .customLong("index-name"), help: "The index --corpus is imported into.") var indexName = "products"
    @Option(help: ArgumentHelp("Settings JSON file for --corpus.", valueName: "file")) var settings: String?
    @Option(name: .customLong("open"), help: ArgumentHelp(
        "Open this index before reading the first line (repeatable), so that no answer's time, processingTimeNS included, is the index's opening.",
        valueName: "index"))
    var indexesToOpen: [String] = []
    @Flag(help: "Add processingTimeNS (the engine's own time for the request) to each answer.") var timing = false
    @Flag(help: "Exit with status 1 if any line was answered with an error.") var strict = false

    func run() throws {
        let folder = data.folder
        // A demo index named by --open is made first, unless --corpus is about to fill it.
        let engine = try folder.engine(preparing: indexesToOpen.filter { corpus == nil || $0 != indexName })
        // The process ends every burst of searches: count them now.
        defer { try? engine.analytics?.flush(settlingEverything: true) }
        if let corpus {
            // Settings and records in one transaction (the index derived once); a new index is
            // built aside, as `import` builds it.
            let settingsObject = try settings.map(readSettingsFile)
            _ = try engine.importRecords(into: indexName, from: URL(fileURLWithPath: corpus), replaceExisting: true, settings: settingsObject)
        }
        // An index is otherwise opened (mapped, its file checked) by the first line that names it.
        for name in indexesToOpen {
            guard engine.exists(name) else {
                throw CommandFailure("--open \(name): \(SearchError.indexNotFound(name).message) (status 404). "
                                     + "`offline-search list` shows the indices of \(folder.url.path).")
            }
            _ = try engine.existingIndex(name)
        }
        let clock = ContinuousClock()
        var failures = 0
        while let line = readLine(strippingNewline: true) {
            let started = clock.now
            var output: JSONValue
            do {
                output = try answer(line, engine: engine, folder: folder)
            } catch {
                failures += 1
                output = (error as? SearchError ?? SearchError(.internalError, "\(error)")).jsonValue
            }
            if timing, case .object(var object) = output {
                let elapsed = clock.now - started
                object["processingTimeNS"] = .int(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
                output = .object(object)
            }
            Terminal.writeLine(output)
        }
        if strict, failures > 0 {
            Terminal.note("\(Terminal.count(failures, "line")) answered with an error")
            throw ExitCode(1)
        }
    }

    /// One line's answer: a single request's response, or `{"results": [...]}` for a
    /// multi-search body.
    private func answer(_ line: String, engine: SearchEngine, folder: DataFolder) throws -> JSONValue {
        // Bytes, not Characters: a request line starts with `{`, so this stops at its first byte.
        guard line.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            throw SearchError(.invalidJSON, "empty line: expected a JSON object such as {\"indexName\": \"products\", \"query\": \"phone\"}")
        }
        let request: JSONValue
        do { request = try JSONValue(parsing: line) } catch {
            throw SearchError(.invalidJSON, "request: \(error)")
        }
        if request["requests"] != nil {
            let body = try MultiSearchBody(json: request)
            for name in Set(body.requests.map(\.indexName)) { try folder.prepareDemoIndex(name, in: engine) }
            let results = try engine.multiSearchSync(body.requests, strategy: body.strategy)
            return ["results": .array(results.map(\.jsonValue))]
        }
        let query = try MultiSearchQuery(json: request)
        try folder.prepareDemoIndex(query.indexName, in: engine)
        return try engine.multiSearchSync([query], strategy: .none)[0].jsonValue
    }
}
