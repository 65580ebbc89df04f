import ArgumentParser
import OfflineSearch
import SearchAPI

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Print an index's settings (Algolia's JSON, defaults filled in), or change some with --set.",
        discussion: """
            --set takes a JSON object of Algolia settings; null resets one to its default. Every \
            setting is checked first (its name, type and range), and nothing is stored when one is \
            wrong. Legacy names are read as their current ones (attributesToIndex → \
            searchableAttributes, attributesForFacetting → attributesForFaceting).

            The index must exist (a misspelt name is an error, status 404); --create makes it \
            when it does not, as Algolia's setSettings does.
            """
    )

    @OptionGroup var data: DataOptions
    @Argument(help: "The index name.") var index: String
    @Option(help: ArgumentHelp("Settings to change, as a JSON object such as '{\"hitsPerPage\": 5}'; null resets one.", valueName: "json"))
    var set: String?
    @Flag(help: "With --set: create the index when it does not exist (as Algolia's setSettings does), instead of failing.")
    var create = false
    @Flag(help: "Indent the JSON.") var pretty = false

    private(set) var patch: JSONObject?

    private enum CodingKeys: CodingKey { case data, index, set, create, pretty }

    mutating func validate() throws {
        patch = try set.map { try parseJSONObjectOption($0, option: "--set", example: "{\"hitsPerPage\": 5}") }
        if create && patch == nil { throw ValidationError("--create goes with --set.") }
    }

    func run() throws {
        let engine = try data.folder.engine(preparing: [index])
        let existed = engine.exists(index)
        // Only --create makes an index: a typo in a script's index name must not leave an empty one.
        guard create || engine.exists(index) else {
            let hint = patch == nil ? "" : "; --create makes it, as Algolia's setSettings would"
            throw CommandFailure("\(SearchError.indexNotFound(index).message) (status 404)\(hint). "
                                 + "`offline-search list` shows the indices of \(data.folder.url.path).")
        }
        let target = create ? try engine.index(index) : try engine.existingIndex(index)
        if let patch {
            do { try target.setSettings(patch) } catch {
                // A rejected change leaves nothing behind, not even the index it would have made.
                if !existed { try? engine.deleteIndex(index) }
                throw error
            }
        }
        let settings = JSONValue.object(target.settings.withDefaults)
        Terminal.writeLine(pretty ? settings.prettyJSONString : settings.jsonString)
    }
}
