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
            """
    )

    @OptionGroup var data: DataOptions
    @Argument(help: "The index name.") var index: String
    @Option(help: ArgumentHelp("Settings to change, as a JSON object such as '{\"hitsPerPage\": 5}'; null resets one.", valueName: "json"))
    var set: String?
    @Flag(help: "Indent the JSON.") var pretty = false

    private(set) var patch: JSONObject?

    private enum CodingKeys: CodingKey { case data, index, set, pretty }

    mutating func validate() throws {
        patch = try set.map { try parseJSONObjectOption($0, option: "--set", example: "{\"hitsPerPage\": 5}") }
    }

    func run() throws {
        let engine = try data.folder.engine(preparing: [index])
        let existed = engine.exists(index)
        let target = patch == nil ? try engine.existingIndex(index) : try engine.index(index)
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
