import ArgumentParser
import DatasetGenerator
import Foundation
import SearchAPI

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate deterministic demo records (a JSON array on stdout), or the bundled Datasets folder with --bundled.",
        discussion: "The records are synthetic: realistic names and values drawn from word lists by a seeded generator."
    )

    @Argument(help: "products, movies, actors, suggestions, places or multilingual.") var kind: String?
    @Option(help: "How many records.") var count = 1000
    @Option(help: "The random seed: the same seed gives the same records.") var seed: UInt64 = 1
    @Option(help: ArgumentHelp("Write the records to this file instead of stdout.", valueName: "file")) var output: String?
    @Flag(help: "Also print the index's settings JSON (to stderr).") var settings = false
    @Option(name: .customLong("bundled"), help: ArgumentHelp("Write the six demo datasets (records and settings, seed 1; the suggestions built from a search log) into this folder.", valueName: "dir"))
    var bundled: String?

    func validate() throws {
        if bundled == nil, kind.flatMap(DatasetKind.init(rawValue:)) == nil {
            throw ValidationError("KIND must be one of: " + DatasetKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard count >= 0 else { throw ValidationError("--count must be 0 or more") }
    }

    func run() throws {
        if let bundled {
            let folder = URL(fileURLWithPath: bundled)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for dataset in BundledDataset.all {
                let records = dataset.kind == .suggestions ? try BundledSuggestions.records() : dataset.records()
                if let configuration = dataset.suggestionsConfiguration {
                    try Data((configuration.prettyJSONString + "\n").utf8)
                        .write(to: folder.appendingPathComponent("\(dataset.indexName).config.json"))
                    try Data(GenerateCommand.arrayText(dataset.searchLog()).utf8)
                        .write(to: folder.appendingPathComponent("instant_search.searches.json"))
                }
                try Data(GenerateCommand.arrayText(records).utf8).write(to: folder.appendingPathComponent("\(dataset.indexName).json"))
                try Data((dataset.settings.jsonString + "\n").utf8)
                    .write(to: folder.appendingPathComponent("\(dataset.indexName).settings.json"))
                let rules = dataset.rules(for: records)
                if !rules.isEmpty {
                    try Data(GenerateCommand.arrayText(rules).utf8).write(to: folder.appendingPathComponent("\(dataset.indexName).rules.json"))
                }
                Terminal.writeLine("wrote \(Terminal.count(records.count, "record")) to \(dataset.indexName).json")
            }
            return
        }
        guard let kind = kind.flatMap(DatasetKind.init(rawValue:)) else { return }
        let generator = DatasetGenerator(seed: seed)
        let text = GenerateCommand.arrayText(generator.records(kind, count: count))
        if let output { try Data(text.utf8).write(to: URL(fileURLWithPath: output)) } else { FileHandle.standardOutput.write(Data(text.utf8)) }
        if settings { Terminal.note(DatasetGenerator.settings(for: kind).jsonString) }
    }

    /// A JSON array with one record per line: readable diffs for the committed datasets.
    static func arrayText(_ records: [JSONValue]) -> String {
        "[\n" + records.map(\.jsonString).joined(separator: ",\n") + "\n]\n"
    }
}
