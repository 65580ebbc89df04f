import ArgumentParser
import Foundation
import OfflineSearch
import SearchAPI

struct SuggestionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggestions",
        abstract: "Build a Query Suggestions index from search analytics, external indices and facet values.",
        subcommands: [Build.self]
    )

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Build (or rebuild) the suggestions index a configuration names.",
            discussion: """
                The configuration is Algolia's Query Suggestions configuration: indexName, \
                sourceIndices (indexName, minHits, minLetters, facets, generate, external, \
                replicas, analyticsTags), languages, exclude, allowSpecialCharacters. The new \
                suggestions replace the index in one write: it stays searchable meanwhile.
                """
        )

        @OptionGroup var data: DataOptions
        @Option(help: ArgumentHelp("The configuration: a JSON file.", valueName: "file")) var config: String
        @Flag(help: "Print the suggestions (Algolia's records) instead of writing the index.") var dryRun = false
        @Flag(help: "Print the build's report as JSON.") var json = false

        func run() throws {
            let configuration: QuerySuggestionsConfiguration
            do {
                configuration = try QuerySuggestionsConfiguration(json: try readJSONFile(config))
            } catch let error as SearchError {
                throw CommandFailure("\(config): \(error.message)")
            }
            let engine = try data.folder.engine(preparing: configuration.sourceIndices.map(\.indexName))
            let builder = QuerySuggestionsBuilder(engine: engine, configuration: configuration)
            let clock = ContinuousClock()
            let started = clock.now
            if dryRun {
                let (records, _) = try builder.suggestions()
                FileHandle.standardOutput.write(Data(GenerateCommand.arrayText(records.map(JSONValue.object)).utf8))
                return
            }
            let report = try builder.build()
            let seconds = (clock.now - started) / .seconds(1)
            if json {
                let leftOut = JSONObject(report.leftOut.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.int(Int64($0.value))) })
                Terminal.writeLine((["indexName": .string(configuration.indexName), "candidates": .int(Int64(report.candidates)),
                                     "suggestions": .int(Int64(report.suggestions)), "leftOut": .object(leftOut),
                                     "seconds": .double(seconds)] as JSONValue).jsonString)
            } else {
                let reasons = report.leftOut.sorted { $0.key < $1.key }.map { "\($0.value) by \($0.key)" }.joined(separator: ", ")
                Terminal.writeLine("wrote \(Terminal.count(report.suggestions, "suggestion")) to \(configuration.indexName) "
                                   + "from \(Terminal.count(report.candidates, "candidate")) in \(String(format: "%.1f", seconds)) s"
                                   + (reasons.isEmpty ? "" : " (left out: \(reasons))"))
            }
        }
    }
}
