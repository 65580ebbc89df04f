import ArgumentParser
import OfflineSearch

@main
struct OfflineSearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline-search",
        abstract: "An offline, Algolia-compatible search engine: Algolia's search parameters and JSON answers on a local index.",
        discussion: """
            Records live in SQLite; searches run on an in-memory index derived from it.

            Data folder: every command takes --data DIR. Without it, the default folder is used:
              \(DataFolder.defaultLocation.path)
            (from $XDG_DATA_HOME, else $HOME). The demo indices of the InstantSearch guides \
            (\(DataFolder.demoIndexNames.joined(separator: ", "))) appear in the default folder the first \
            time a command names one. Delete the folder to reset it.
            """,
        version: SearchEngine.version,
        subcommands: [
            ImportCommand.self, SearchCommand.self, QueryCommand.self, SettingsCommand.self,
            ListCommand.self, GenerateCommand.self, TUICommand.self, ServeCommand.self, MirrorCommand.self, RulesCommand.self,
            AnalyticsCommand.self, SuggestionsCommand.self,
        ]
    )

    /// Checks the first word before ArgumentParser sees it: `offline-search suggest --help`
    /// would otherwise print the root help and exit 0, and a script would take the misspelt
    /// command for one that ran.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
        // `offline-search NAME …` and `offline-search help NAME`.
        let named = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        if let named, !named.hasPrefix("-"), !commands.contains(named) {
            exit(withError: ValidationError("Unknown command '\(named)'. The commands: \(commands.joined(separator: ", ")).\n"))
        }
        await main(arguments)
    }
}
