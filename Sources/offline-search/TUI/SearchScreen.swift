#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import HeadlessSearch
import SearchAPI

/// The terminal demo: a view over the headless layer, which does all the searching. A search
/// box and a suggestions list drive one multi-search of the suggestions and results indices
/// (`QuerySuggestionsConnector`, as in the Query Suggestions guide); two refinement lists
/// (`FacetListConnector`, disjunctive) share a `FilterState` with the results searcher; a stats
/// line (`StatsInteractor`), a loading indicator (`LoadingInteractor`), and results that load
/// their next page when the selection nears the end (`HitsInteractor` infinite scrolling).
/// What the index's Rules add to the results shows above them: a banner from their custom data
/// (`QueryRuleCustomDataInteractor<RuleBanner>`), and a redirect (`RedirectInteractor`) that
/// Enter follows by ending the demo and printing its URL.
/// What a record shows, and which facets are listed, come from the indices' settings
/// (`RecordLayout`), so any index can be browsed.
///
/// Keys arrive on the main queue (a read source on standard input) and are handled on the main
/// actor, where the layer's events arrive too; every event schedules one redraw, which builds
/// the whole frame and writes it at once.
@MainActor
final class SearchScreen {
    enum Focus: Equatable {
        case searchBox, suggestions
        /// The refinement list of `facetLists[n]`.
        case facet(Int)
        case results
    }

    let terminal: RawTerminal
    let indexName: String
    let suggestionsIndexName: String
    let layout: RecordLayout
    /// The attribute of the suggestions' records that is the suggested query (`query` in a
    /// Query Suggestions index).
    let suggestionAttribute: String
    let screen: QuerySuggestionsConnector<Hit<JSONValue>>
    let filterState: FilterState
    let facetLists: [FacetListConnector]
    let stats = StatsInteractor()
    let loading = LoadingInteractor()
    /// The banner of the results' Rules (their `userData`), if one decodes as a banner.
    let banner = QueryRuleCustomDataInteractor<RuleBanner>()
    /// Where a Rule sends the results' query (`renderingContent.redirect`), if anywhere.
    let redirect = RedirectInteractor()
    /// The query the last redirect answered: the redirect line shows it, and both the line and
    /// Enter wait for the search box to hold it (a query typed since is not answered yet).
    private(set) var redirectQuery: String?

    private(set) var focus: Focus = .searchBox
    private var suggestionRow = 0
    private var facetRows: [String: Int] = [:]
    private var resultRow = 0
    private var resultsTop = 0
    private var lastError: String?
    private var redrawScheduled = false
    private var inputSource: (any DispatchSourceRead)?
    /// Rows of each list as last drawn (for moving a page at a time and clamping the cursor).
    private var visibleResults = 10
    private var visibleFacetValues: [String: Int] = [:]

    init(service: any SearchService, indexName: String, layout: RecordLayout, suggestionsIndexName: String,
         suggestionAttribute: String, terminal: RawTerminal) {
        self.terminal = terminal
        self.indexName = indexName
        self.layout = layout
        self.suggestionsIndexName = suggestionsIndexName
        self.suggestionAttribute = suggestionAttribute
        let filterState = FilterState()
        let screen = QuerySuggestionsConnector<Hit<JSONValue>>(
            service: service, suggestionsIndexName: suggestionsIndexName, resultsIndexName: indexName,
            suggestionsCount: 8, resultsInfiniteScrolling: .on(withOffset: 10), filterState: filterState)
        self.filterState = filterState
        self.screen = screen
        facetLists = layout.facets.map {
            FacetListConnector(searcher: screen.resultsSearcher, filterState: filterState, attribute: $0, operator: .or)
        }
        stats.connectSearcher(screen.resultsSearcher)
        loading.connectSearcher(screen.searcher)
        loading.connectSearcher(screen.resultsSearcher)
        banner.connectSearcher(screen.resultsSearcher)
        redirect.connectSearcher(screen.resultsSearcher)
        subscribe()
    }

    private func subscribe() {
        screen.suggestionsInteractor.onResultsUpdated.subscribe(with: self) { view, _ in
            view.suggestionRow = min(view.suggestionRow, max(view.screen.suggestionsInteractor.numberOfHits() - 1, 0))
            view.setNeedsRedraw()
        }
        screen.resultsInteractor.onNewSearch.subscribe(with: self) { view, _ in
            view.resultRow = 0
            view.resultsTop = 0
        }
        screen.resultsInteractor.onResultsUpdated.subscribe(with: self) { view, _ in
            view.lastError = nil
            view.setNeedsRedraw()
        }
        screen.resultsInteractor.onError.subscribe(with: self) { view, error in
            view.lastError = (error as? SearchError)?.message ?? String(describing: error)
            view.setNeedsRedraw()
        }
        screen.suggestionsInteractor.onError.subscribe(with: self) { view, error in
            // Suggestions are read from the raw hits (any attribute), so a record without `query`
            // that does not decode as a `QuerySuggestion` is no error here.
            if error is HitDecodingError { return }
            view.lastError = "suggestions: " + ((error as? SearchError)?.message ?? String(describing: error))
            view.setNeedsRedraw()
        }
        screen.onSuggestionsVisibilityChanged.subscribe(with: self) { view, isShowing in
            if !isShowing && view.focus == .suggestions { view.focus = .searchBox }
            view.setNeedsRedraw()
        }
        for list in facetLists {
            list.interactor.onItemsChanged.subscribe(with: self) { view, _ in view.setNeedsRedraw() }
            list.interactor.onSelectionsChanged.subscribe(with: self) { view, _ in view.setNeedsRedraw() }
        }
        stats.onTextChanged.subscribe(with: self) { view, _ in view.setNeedsRedraw() }
        loading.onItemChanged.subscribe(with: self) { view, _ in view.setNeedsRedraw() }
        banner.onItemChanged.subscribe(with: self) { view, _ in view.setNeedsRedraw() }
        // A response without a redirect clears `redirect.url` without an event: the results'
        // own update redraws then.
        redirect.onRedirect.subscribe(with: self) { view, _ in
            view.redirectQuery = view.screen.resultsSearcher.query ?? ""
            view.setNeedsRedraw()
        }
    }

    /// Starts reading keys and searches the empty query (popular suggestions, first results).
    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: 0, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readInput() }
        }
        source.resume()
        inputSource = source
        screen.beginEditing()
        screen.search()
        draw()
    }

    private func readInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(0, &buffer, buffer.count)
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            fail("cannot read the keyboard (errno \(errno))")
        }
        if count == 0 { fail("standard input was closed") }
        for key in Key.parse(Array(buffer[0..<count])) { handle(key) }
        setNeedsRedraw()
    }

    // MARK: Keys

    func handle(_ key: Key) {
        switch key {
        case .escape, .interrupt: quit()
        case .tab: moveFocus(by: 1)
        case .backTab: moveFocus(by: -1)
        case .clearLine: setQuery("")
        case .backspace:
            var query = screen.searchBoxInteractor.query ?? ""
            if !query.isEmpty { query.removeLast() }
            setQuery(query)
        case .character(" ") where focus != .searchBox && focus != .results:
            activate()
        case .character(let character):
            setQuery((screen.searchBoxInteractor.query ?? "") + String(character))
        case .enter:
            // On a redirect, Enter follows it wherever the focus is (Space still toggles or chooses).
            if let redirect = shownRedirect {
                follow(redirect.url)
            } else if focus == .searchBox {
                screen.searchBoxInteractor.submitQuery()
            } else {
                activate()
            }
        case .up: move(by: -1)
        case .down:
            if focus == .searchBox { moveFocus(by: 1) } else { move(by: 1) }
        case .pageUp: move(by: -max(visibleResults - 1, 1))
        case .pageDown: move(by: max(visibleResults - 1, 1))
        case .home: move(by: Int.min / 2)
        case .end: move(by: Int.max / 2)
        case .left, .right: break
        }
    }

    /// Typing goes to the search box wherever the focus was; the box searches on each change.
    private func setQuery(_ query: String) {
        focus = .searchBox
        screen.searchBoxInteractor.query = query
    }

    private var focusOrder: [Focus] {
        (screen.isShowingSuggestions ? [.searchBox, .suggestions] : [.searchBox]) + facetLists.indices.map { .facet($0) } + [.results]
    }

    private func moveFocus(by step: Int) {
        let order = focusOrder
        let current = order.firstIndex(of: focus) ?? 0
        focus = order[(current + step + order.count) % order.count]
    }

    private func move(by step: Int) {
        func clamp(_ value: Int, _ count: Int) -> Int { max(0, min(value, count - 1)) }
        switch focus {
        case .searchBox: break
        case .suggestions:
            let count = screen.suggestionsInteractor.numberOfHits()
            if suggestionRow + step < 0 { focus = .searchBox } else { suggestionRow = clamp(suggestionRow + step, count) }
        case .facet(let list):
            let attribute = facetLists[list].attribute
            let count = visibleFacetValues[attribute] ?? 0
            facetRows[attribute] = clamp((facetRows[attribute] ?? 0) &+ step, count)
        case .results:
            // Rows not loaded yet are not counted: the interactor loads them as rows near them are read.
            resultRow = clamp(resultRow &+ step, screen.resultsInteractor.numberOfHits())
        }
    }

    /// Space or Enter on a list: choose the suggestion, or toggle the refinement.
    private func activate() {
        switch focus {
        case .suggestions:
            guard let suggestion = suggestion(atRow: suggestionRow) else { return }
            // What `QuerySuggestionsConnector.select` does, for a suggestion of any attribute.
            screen.searchBoxInteractor.query = suggestion.text
            screen.searchBoxInteractor.submitQuery()
            focus = .results
        case .facet(let index):
            let list = facetLists[index]
            let attribute = list.attribute
            let items = list.interactor.selectableItems(with: presenter(for: attribute))
            let row = facetRows[attribute] ?? 0
            guard row < items.count else { return }
            let value = items[row].item.value
            list.interactor.computeSelections(selectingItemForKey: value)
            // Refined values are listed first: keep the cursor on the value just toggled.
            if let moved = list.interactor.selectableItems(with: presenter(for: attribute)).firstIndex(where: { $0.item.value == value }) {
                facetRows[attribute] = moved
            }
        case .searchBox, .results: break
        }
    }

    /// A suggestion's text and how the list shows it (inverted highlighting: the part not typed
    /// yet emphasised), read from the raw hit so that any attribute can be the suggestion.
    private func suggestion(atRow row: Int) -> (text: String, shown: HighlightedString)? {
        guard let hit = screen.suggestionsInteractor.rawHitAtIndex(row),
              let text = RecordLayout.text(of: hit[suggestionAttribute], attribute: suggestionAttribute) else { return nil }
        let highlight = hit["_highlightResult"]?[suggestionAttribute]
        guard let tagged = highlight?["value"]?.stringValue, highlight?["matchLevel"]?.stringValue != "none" else {
            return (text, HighlightedString(string: text))
        }
        let highlighted = HighlightedString(string: tagged)
        return (text, screen.isHighlightingInverted ? highlighted.inverted : highlighted)
    }

    private func presenter(for attribute: String) -> FacetListPresenter {
        FacetListPresenter(limit: max(visibleFacetValues[attribute] ?? 10, 1))
    }

    // MARK: Exits

    func quit() -> Never {
        terminal.restore()
        exit(0)
    }

    func fail(_ message: String) -> Never {
        terminal.restore()
        writeToStandardError("offline-search tui: \(message)\n")
        exit(1)
    }

    // MARK: Drawing

    func setNeedsRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.redrawScheduled = false
                self.draw()
            }
        }
    }

    func draw() {
        let (rows, columns) = RawTerminal.size()
        let lines = frame(rows: rows, columns: columns)
        var output = "\u{1B}[H"
        for (row, line) in lines.enumerated() {
            output += "\u{1B}[\(row + 1);1H" + line + "\u{1B}[K"
        }
        terminal.write(output)
    }

    /// The keys, as the help line lists them: each part is kept whole, and the line wraps
    /// between parts on a narrow terminal, so the last part (how to quit) always shows.
    static let helpParts = ["Tab focus", "↑↓ move", "Space/Enter toggle or choose", "Enter search", "Ctrl-U clear", "Esc quit"]

    /// The help parts laid out in lines of at most `width` columns.
    static func helpLines(width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for part in helpParts {
            let candidate = line.isEmpty ? " " + part : line + " · " + part
            if candidate.count > width && !line.isEmpty {
                lines.append(line)
                line = " " + part
            } else {
                line = candidate
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The whole screen, one string per row.
    func frame(rows: Int, columns: Int) -> [String] {
        let width = max(columns, 20)
        var lines: [String] = []

        // Title bar, with the loading indicator on the right.
        let title = StyledLine(" offline-search · \(indexName)", style: StyledLine.title)
        let indicator = loading.item ? " ⟳ searching… " : ""
        let titleWidth = width - indicator.count
        lines.append(title.render(width: max(titleWidth, 0), pad: true, fill: "44;37")
                     + StyledLine(indicator, style: "1;33;44").render(width: indicator.count))

        // Search box.
        var box = StyledLine(focus == .searchBox ? "▶ Search: " : "  Search: ", style: focus == .searchBox ? StyledLine.bold : StyledLine.dim)
        box.append(screen.searchBoxInteractor.query ?? "")
        box.append(" ", style: focus == .searchBox ? StyledLine.reverse : "")
        lines.append(box.render(width: width))

        // Stats line and refinements.
        var statsLine = StyledLine("  ")
        if let error = stats.error {
            statsLine.append("search failed: \(error.message)", style: StyledLine.error)
        } else if let item = stats.item {
            statsLine.append("\(Terminal.count(item.totalHitsCount, "result")) in \(item.processingTimeMS) ms", style: StyledLine.bold)
        } else {
            statsLine.append("searching…", style: StyledLine.dim)
        }
        let refined = filterState.filters.filtersString
        if let refined { statsLine.append("  ·  filters: \(refined)", style: StyledLine.dim) }
        if let lastError, stats.error == nil { statsLine.append("  ·  \(lastError)", style: StyledLine.error) }
        lines.append(statsLine.render(width: width))

        // What the Rules add, each on a line of its own above the results: a redirect, a banner.
        if let redirect = shownRedirect { lines.append(Self.redirectLine(query: redirect.query, url: redirect.url).render(width: width)) }
        if let item = banner.item { lines.append(Self.bannerLine(item).render(width: width)) }
        lines.append(StyledLine(String(repeating: "─", count: width), style: StyledLine.dim).render(width: width))

        // Body: suggestions and refinement lists on the left, results on the right. The left
        // column takes a third of a wide terminal, and 24 columns of an 80-column one.
        let help = Self.helpLines(width: width)
        let bodyRows = max(rows - lines.count - help.count, 1)
        let leftWidth = min(max(width * 3 / 10, 20), 40)
        let rightWidth = width - leftWidth - 3
        let left = leftColumn(rows: bodyRows, width: leftWidth)
        let right = resultsColumn(rows: bodyRows, width: rightWidth)
        for row in 0..<bodyRows {
            let l = row < left.count ? left[row] : StyledLine()
            let r = row < right.count ? right[row] : StyledLine()
            lines.append(l.render(width: leftWidth, pad: true) + StyledLine(" │ ", style: StyledLine.dim).render(width: 3) + r.render(width: rightWidth))
        }

        // Keys.
        for line in help { lines.append(StyledLine(line, style: StyledLine.dim).render(width: width)) }
        return Array(lines.prefix(rows))
    }

    private func header(_ text: String, focused: Bool) -> StyledLine {
        StyledLine(focused ? "▶ " + text : "  " + text, style: focused ? "1;36" : StyledLine.bold)
    }

    private func leftColumn(rows: Int, width: Int) -> [StyledLine] {
        var lines: [StyledLine] = []
        if screen.isShowingSuggestions {
            lines.append(header("Suggestions", focused: focus == .suggestions))
            let count = min(screen.suggestionsInteractor.numberOfHits(), 8)
            if count == 0 {
                let searched = screen.suggestionsInteractor.latestResponse != nil
                lines.append(StyledLine(searched ? "    (no suggestions)" : "    searching…", style: StyledLine.dim))
            }
            for row in 0..<count {
                let isCursor = focus == .suggestions && row == suggestionRow
                var line = StyledLine(isCursor ? "  › " : "    ", style: isCursor ? "1;36" : "")
                // Inverted highlighting: the part not typed yet is emphasised.
                if let suggestion = suggestion(atRow: row) {
                    line.append(suggestion.shown, tagged: StyledLine.highlight, plain: isCursor ? StyledLine.reverse : "")
                } else {
                    line.append("(no \(suggestionAttribute))", style: StyledLine.dim)
                }
                lines.append(line)
            }
            lines.append(StyledLine())
        }
        // The rest is shared by the refinement lists.
        guard !facetLists.isEmpty else { return Array(lines.prefix(rows)) }
        let remaining = max(rows - lines.count, 0)
        let perList = max(remaining / facetLists.count - 2, 1)
        for (index, list) in facetLists.enumerated() {
            let attribute = list.attribute
            let focused = focus == .facet(index)
            visibleFacetValues[attribute] = perList
            let items = list.interactor.selectableItems(with: presenter(for: attribute))
            let cursor = min(facetRows[attribute] ?? 0, max(items.count - 1, 0))
            facetRows[attribute] = cursor
            lines.append(header(RecordLayout.header(attribute), focused: focused))
            if items.isEmpty { lines.append(StyledLine("    (none)", style: StyledLine.dim)) }
            for (row, item) in items.enumerated() {
                let isCursor = focused && row == cursor
                var line = StyledLine(isCursor ? "  › " : "    ", style: isCursor ? "1;36" : "")
                line.append(item.isSelected ? "[x] " : "[ ] ", style: item.isSelected ? StyledLine.selected : "")
                // The count is kept whole; the value gives way, cut with an ellipsis.
                let count = " \(Terminal.grouped(item.item.count))"
                let name = StyledLine.fitted(item.item.value, width: width - line.count - count.count)
                line.append(name, style: isCursor ? StyledLine.reverse : (item.isSelected ? StyledLine.selected : ""))
                line.append(count, style: StyledLine.dim)
                lines.append(line)
            }
            lines.append(StyledLine())
        }
        return Array(lines.prefix(rows))
    }

    private func resultsColumn(rows: Int, width: Int) -> [StyledLine] {
        let hits = screen.resultsInteractor
        let loaded = hits.numberOfHits()
        let total = hits.latestResponse?.nbHits ?? 0
        var lines: [StyledLine] = []
        var heading = header("Results", focused: focus == .results)
        if loaded > 0 {
            heading.append("  \(resultRow + 1) of \(Terminal.grouped(total))", style: StyledLine.dim)
        }
        if !hits.pendingPages.isEmpty { heading.append("  loading more…", style: "33") }
        lines.append(heading)
        // Two lines a hit: the highlighted title, then the detail attributes and the price.
        visibleResults = max((rows - 1) / 2, 1)
        if resultRow < resultsTop { resultsTop = resultRow }
        if resultRow >= resultsTop + visibleResults { resultsTop = resultRow - visibleResults + 1 }
        if loaded == 0 {
            lines.append(StyledLine(hits.latestResponse == nil ? "    searching…" : "    No results.", style: StyledLine.dim))
        }
        for row in resultsTop..<min(resultsTop + visibleResults, loaded) {
            let isCursor = focus == .results && row == resultRow
            var first = StyledLine(isCursor ? "› " : "  ", style: "1;36")
            // Reading a row is what asks the interactor for the pages near it (infinite scrolling).
            guard let hit = hits.hit(atIndex: row) else {
                first.append("…", style: StyledLine.dim)
                lines.append(first)
                lines.append(StyledLine())
                continue
            }
            if let title = hit.highlightedString(forKey: layout.title) {
                first.append(title, tagged: StyledLine.highlight, plain: isCursor ? StyledLine.bold : "")
            } else {
                first.append(RecordLayout.text(of: hit.object[layout.title], attribute: layout.title) ?? hit.objectID,
                             style: isCursor ? StyledLine.bold : "")
            }
            lines.append(first)
            lines.append(detailLine(of: hit, width: width))
        }
        return Array(lines.prefix(rows))
    }

    /// The line under a title: the detail attributes (the first highlighted), each cut with
    /// an ellipsis when the line is short, and the price, which is never cut: on a narrow
    /// line the other parts give way to it.
    private func detailLine(of hit: Hit<JSONValue>, width: Int) -> StyledLine {
        let indent = "    ", separator = "  ·  "
        let price = hit.object["price"]?.doubleValue.map { "$" + formatPrice($0) }
        var parts: [(attribute: String, text: String)] = []
        for attribute in layout.details where attribute != "price" {
            if let text = RecordLayout.text(of: hit.object[attribute], attribute: attribute) { parts.append((attribute, text)) }
        }
        let reserved = indent.count + (price.map { $0.count + (parts.isEmpty ? 0 : separator.count) } ?? 0)
        var available = width - reserved
        var line = StyledLine(indent)
        for (position, part) in parts.enumerated() {
            let lead = position == 0 ? "" : separator
            // A later part shows only with room for a word of it, not a letter and an ellipsis.
            guard available >= lead.count + (position == 0 ? 2 : min(part.text.count, 8)) else { break }
            let text = StyledLine.fitted(part.text, width: available - lead.count)
            available -= lead.count + text.count
            if !lead.isEmpty { line.append(lead, style: StyledLine.dim) }
            if position == 0, text == part.text, let highlighted = hit.highlightedString(forKey: part.attribute),
               highlighted.taggedString.input.count < 200, !(hit.object[part.attribute]?.arrayValue != nil) {
                line.append(highlighted, tagged: "33", plain: "36")
            } else {
                line.append(text, style: position == 0 ? "36" : StyledLine.dim)
            }
        }
        if let price {
            if line.count > indent.count { line.append(separator, style: StyledLine.dim) }
            line.append(price, style: "32")
        }
        return line
    }

    private func formatPrice(_ price: Double) -> String {
        let cents = Int((price * 100).rounded())
        let fraction = cents % 100
        return Terminal.grouped(cents / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }
}

/// Writes to standard error without Foundation's buffering.
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}
