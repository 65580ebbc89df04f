import ArgumentParser
import Dispatch
import OfflineSearch
import SearchAPI

struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "The terminal demo: search as you type, with suggestions, refinements, infinite scrolling and the Rules' banners and redirects.",
        discussion: """
            Built on the HeadlessSearch layer, as an app's screen would be. Keys: type to search, \
            Backspace, Ctrl-U clears; Tab / Shift-Tab move between the search box, suggestions, \
            the refinement lists (the index's first two facets) and results; ↑ ↓ PgUp PgDn move; Space or Enter toggles a refinement; \
            Enter on a suggestion searches it; Esc or Ctrl-C quits. Needs a terminal: use `search` \
            or `query` in scripts.

            The index's Rules show above the results: a banner when a Rule's custom data (userData) \
            has a title (and a subtitle, a link), as the TV week rule of instant_search does for \
            "tv"; and a line naming the page a Rule redirects the query to (renderingContent \
            redirect, as instant_search's rule for "appliances"). On a redirect, Enter ends the \
            demo and prints the URL on standard output, exit status 0, for the shell to open; \
            otherwise Enter does as above.
            """
    )

    @OptionGroup var data: DataOptions
    @Argument(help: "The index of results.") var index: String = "instant_search"
    @Option(help: ArgumentHelp("The Query Suggestions index.", valueName: "index"))
    var suggestions: String = "instantsearch_query_suggestions"

    func run() async throws {
        if let reason = RawTerminal.unavailableReason() {
            Terminal.note("offline-search tui needs a terminal: \(reason); use `search` or `query` for scripts.")
            throw ExitCode(1)
        }
        let engine = try data.folder.engine(preparing: [index, suggestions], answersWhileDeriving: true)
        defer { try? engine.analytics?.flush(settlingEverything: true) }
        // What a record shows, and which facets are listed, come from each index's settings.
        let layout = try Self.layout(of: engine.existingIndex(index))
        let suggestionAttribute = try Self.layout(of: engine.existingIndex(suggestions)).title

        let terminal = RawTerminal()
        try terminal.enter()
        let (index, suggestions) = (self.index, self.suggestions)
        await MainActor.run {
            let screen = SearchScreen(service: engine, indexName: index, layout: layout, suggestionsIndexName: suggestions,
                                      suggestionAttribute: suggestionAttribute, terminal: terminal)
            terminal.handleSignals { screen.setNeedsRedraw() }
            TUIRuntime.screen = screen
            screen.start()
        }
        // The main queue runs the keys, the signals and the layer's main-actor events from here on;
        // the screen exits the process (restoring the terminal) when the user quits.
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }
}

extension TUICommand {
    /// What the demo shows of an index: from its settings, and one of its records for an index
    /// without `searchableAttributes`.
    static func layout(of index: SearchIndex) throws -> RecordLayout {
        var first = SearchParameters()
        first.hitsPerPage = 1
        let sample = try index.search(first).hits.first?.objectValue.map { hit in JSONObject(hit.filter { !$0.key.hasPrefix("_") }) }
        return RecordLayout(settings: index.settings, sample: sample)
    }
}

/// Keeps the screen alive while the main queue runs.
@MainActor enum TUIRuntime {
    static var screen: SearchScreen?
}
