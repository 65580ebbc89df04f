import ArgumentParser
import Foundation
import OfflineSearch
import SearchAPI

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import records (a JSON array or JSON Lines) into an index.",
        discussion: """
            The import is one transaction: invalid JSON is reported with its line and column and \
            nothing is kept. Records with the objectID of an existing record replace it; a record \
            without objectID gets a generated one, so importing such a file twice adds its records \
            twice (use --replace, or give each record an objectID).
            """
    )

    @OptionGroup var data: DataOptions
    @Argument(help: "The index name (created if it does not exist).") var index: String
    @Argument(help: "A JSON array of records, or JSON Lines; - reads standard input.") var file: String
    @Option(help: ArgumentHelp("A settings JSON file, committed with the records in one transaction.", valueName: "file")) var settings: String?
    @Option(help: ArgumentHelp("A JSON file of Rules (one rule or an array), committed with the records in one transaction; with --replace, only they remain.",
                               valueName: "file")) var rules: String?
    @Flag(help: "Replace every record of the index (others are removed).") var replace = false

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        // The settings file is read and checked before anything is written. The records are read
        // a batch at a time inside the import's one transaction (memory bounded by a batch, not
        // by the file): a file that cannot be parsed rolls it back, and a new index is not made,
        // so the data folder is left as it was.
        let settingsObject = try settings.map(readSettingsFile)
        let ruleObjects = try rules.map(readRulesFile)
        let standardInput = file == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : nil
        let engine = try data.folder.engine()
        // The settings and the records are committed together (one transaction). A new index
        // is built aside and appears whole once imported.
        let (target, report) = if let standardInput {
            try engine.importRecords(into: index, utf8: standardInput, source: "standard input", replaceExisting: replace,
                                     settings: settingsObject, rules: ruleObjects)
        } else {
            try engine.importRecords(into: index, from: URL(fileURLWithPath: file), replaceExisting: replace,
                                     settings: settingsObject, rules: ruleObjects)
        }
        // A merge the import started (its delta outgrew the limit) is finished before the process
        // ends, so its derived file is stored and the next command opens without replaying the delta.
        target.waitForMerge()
        let seconds = (clock.now - started) / .seconds(1)
        Terminal.writeLine("Imported \(Terminal.count(report.recordCount, "record")) into \(index) "
            + "(\(Terminal.count(target.recordCount, "record")) in total) in \(String(format: "%.2f", seconds)) s")
        if report.generatedObjectIDs > 0, !replace {
            Terminal.note("Note: \(Terminal.count(report.generatedObjectIDs, "record")) had no objectID and got a generated one; "
                + "importing the same file again would add them again. Use --replace, or give each record an objectID.")
        }
    }
}
