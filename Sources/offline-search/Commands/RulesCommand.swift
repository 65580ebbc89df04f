import ArgumentParser
import OfflineSearch
import SearchAPI

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Print an index's Rules (Algolia's JSON), save some with --set, remove them with --clear, or search them.",
        discussion: """
            --set takes a JSON file holding one rule object or an array of them, as Algolia's \
            saveRules does: each replaces the rule with its objectID. Every rule is checked first \
            (its fields, their types, the objectID), and nothing is stored when one is wrong. \
            --clear removes every rule; with --set, the file's rules replace all of them in one \
            write (Algolia's clearExistingRules).

            --search prints the rules containing the words of a query (in their objectID, \
            description, patterns or consequences), as Algolia's searchRules does. Without an \
            option, every rule is printed.

            The index must exist (a misspelt name is an error, status 404).
            """
    )

    @OptionGroup var data: DataOptions
    @Argument(help: "The index name.") var index: String
    @Option(help: ArgumentHelp("Rules to save: a JSON file of one rule or an array of rules.", valueName: "file"))
    var set: String?
    @Flag(help: "Remove every rule (with --set: every rule the file does not hold).") var clear = false
    @Option(help: ArgumentHelp("Print the rules matching this query (searchRules).", valueName: "query"))
    var search: String?
    @Flag(help: "Indent the JSON.") var pretty = false

    mutating func validate() throws {
        if search != nil && (set != nil || clear) { throw ValidationError("--search reads rules; it does not go with --set or --clear.") }
    }

    func run() throws {
        let engine = try data.folder.engine(preparing: [index])
        guard engine.exists(index) else {
            throw CommandFailure("\(SearchError.indexNotFound(index).message) (status 404). "
                                 + "`offline-search list` shows the indices of \(data.folder.url.path).")
        }
        let target = try engine.existingIndex(index)
        if let set {
            try target.saveRules(try readRulesFile(set), clearExisting: clear)
        } else if clear {
            try target.clearRules()
        }
        let output: JSONValue
        if let search {
            output = try target.searchRules(SearchRulesParams(query: search, hitsPerPage: 1000)).jsonValue
        } else {
            output = .array(target.rules.map(JSONValue.object))
        }
        Terminal.writeLine(pretty ? output.prettyJSONString : output.jsonString)
    }
}
