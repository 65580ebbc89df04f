import ArgumentParser
import OfflineSearch
import SearchAPI

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the indices of the data folder with their record counts (--json: Algolia's list-indices answer)."
    )

    @OptionGroup var data: DataOptions
    @OptionGroup var output: JSONOutputOptions

    func run() throws {
        let folder = data.folder
        let listing = try folder.engine().listIndices()
        if output.wantsJSON {
            output.print(listing.jsonValue)
            return
        }
        if listing.items.isEmpty {
            Terminal.writeLine("No indices in \(folder.url.path).")
            if folder.isDefault {
                Terminal.writeLine("The demo indices (\(DataFolder.demoIndexNames.joined(separator: ", "))) appear when a command "
                    + "names one, e.g.: offline-search search instant_search phone")
            } else {
                Terminal.writeLine("Add one with: offline-search import --data \(folder.url.path) INDEX FILE")
            }
            return
        }
        let width = listing.items.map(\.name.count).max() ?? 0
        for item in listing.items {
            var line = item.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Terminal.count(item.entries, "record")
            if let primary = item.primary { line += " (replica of \(primary))" }
            Terminal.writeLine(line)
        }
    }
}
