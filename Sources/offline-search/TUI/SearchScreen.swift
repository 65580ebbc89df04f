#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import HeadlessSearch
import SearchAPI

/// A product as the results list shows it (every field optional, so any index can be browsed).
struct ProductRecord: Decodable {
    let name: String?
    let brand: String?
    let categories: [String]?
    let price: Double?
}

/// The terminal demo: a view over the headless layer, which does all the searching. A search
/// box and a suggestions list drive one multi-search of the suggestions and results indices
/// (`QuerySuggestionsConnector`, as in the Query Suggestions guide); two refinement lists
/// (`FacetListConnector`, disjunctive) share a `FilterState` with the results searcher; a stats
/// line (`StatsInteractor`), a loading indicator (`LoadingInteractor`), and results that load
/// their next page when the selection nears the end (`HitsInteractor` infinite scrolling).
///
/// Keys arrive on the main queue (a read source on standard input) and are handled on the main
/// actor, where the layer's events arrive too; every event schedules one redraw, which builds
/// the whole frame and writes it at once.
@MainActor
final class SearchScreen {
    enum Focus: CaseIterable { case searchBox, suggestions, brand, categories, results }

    static let facetAttributes = ["brand", "categories"]

    let terminal: RawTerminal
    let indexName: String
    let suggestionsIndexName: String
    let screen: QuerySuggestionsConnector<Hit<ProductRecord>>
    let filterState: FilterState
    let facetLists: [FacetListConnector]
    let stats = StatsInteractor()
    let loading = LoadingInteractor()

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

    init(service: any SearchService, indexName: String, suggestionsIndexName: String, terminal: RawTerminal) {
        self.terminal = terminal
        self.indexName = indexName
        self.suggestionsIndexName = suggestionsIndexName
        let filterState = FilterState()
        let screen = QuerySuggestionsConnector<Hit<ProductRecord>>(
            service: service, suggestionsIndexName: suggestionsIndexName, resultsIndexName: indexName,
            suggestionsCount: 8, resultsInfiniteScrolling: .on(withOffset: 10), filterState: filterState)
        self.filterState = filterState
        self.screen = screen
        facetLists = Self.facetAttributes.map {
            FacetListConnector(searcher: screen.resultsSearcher, filterState: filterState, attribute: $0, operator: .or)
        }
        stats.connectSearcher(screen.resultsSearcher)
        loading.connectSearcher(screen.searcher)
        loading.connectSearcher(screen.resultsSearcher)
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
        case .character(" ") where focus == .brand || focus == .categories || focus == .suggestions:
            activate()
        case .character(let character):
            setQuery((screen.searchBoxInteractor.query ?? "") + String(character))
        case .enter:
            if focus == .searchBox { screen.searchBoxInteractor.submitQuery() } else { activate() }
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
        Focus.allCases.filter { $0 != .suggestions || screen.isShowingSuggestions }
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
        case .brand, .categories:
            let attribute = focus == .brand ? "brand" : "categories"
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
            guard let suggestion = screen.suggestionsInteractor.hit(atIndex: suggestionRow)?.object else { return }
            screen.select(suggestion)
            focus = .results
        case .brand, .categories:
            let attribute = focus == .brand ? "brand" : "categories"
            guard let list = facetLists.first(where: { $0.attribute == attribute }) else { return }
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
        lines.append(StyledLine(String(repeating: "─", count: width), style: StyledLine.dim).render(width: width))

        // Body: suggestions and refinement lists on the left, results on the right.
        let bodyRows = max(rows - lines.count - 1, 1)
        let leftWidth = min(max(width / 3, 20), 40)
        let rightWidth = width - leftWidth - 3
        let left = leftColumn(rows: bodyRows, width: leftWidth)
        let right = resultsColumn(rows: bodyRows, width: rightWidth)
        for row in 0..<bodyRows {
            let l = row < left.count ? left[row] : StyledLine()
            let r = row < right.count ? right[row] : StyledLine()
            lines.append(l.render(width: leftWidth, pad: true) + StyledLine(" │ ", style: StyledLine.dim).render(width: 3) + r.render(width: rightWidth))
        }

        // Keys.
        let help = "Tab focus · ↑↓ move · Space/Enter toggle or choose · Enter search · Ctrl-U clear · Esc quit"
        lines.append(StyledLine(" " + help, style: StyledLine.dim).render(width: width))
        return Array(lines.prefix(rows))
    }

    private func header(_ text: String, focused: Bool) -> StyledLine {
        StyledLine(focused ? "▶ " + text : "  " + text, style: focused ? "1;36" : StyledLine.bold)
    }

    private func leftColumn(rows: Int, width: Int) -> [StyledLine] {
        var lines: [StyledLine] = []
        if screen.isShowingSuggestions {
            lines.append(header("Suggestions", focused: focus == .suggestions))
            let count = screen.suggestionsInteractor.numberOfHits()
            if count == 0 { lines.append(StyledLine("    (none)", style: StyledLine.dim)) }
            for row in 0..<min(count, 8) {
                let isCursor = focus == .suggestions && row == suggestionRow
                var line = StyledLine(isCursor ? "  › " : "    ", style: isCursor ? "1;36" : "")
                // Inverted highlighting: the part not typed yet is emphasised.
                if let text = screen.highlightedSuggestion(atIndex: row) {
                    line.append(text, tagged: StyledLine.highlight, plain: isCursor ? StyledLine.reverse : "")
                }
                lines.append(line)
            }
            lines.append(StyledLine())
        }
        // The rest is shared by the two refinement lists.
        let remaining = max(rows - lines.count, 0)
        let perList = max(remaining / facetLists.count - 2, 1)
        for list in facetLists {
            let attribute = list.attribute
            let focused = (focus == .brand && attribute == "brand") || (focus == .categories && attribute == "categories")
            visibleFacetValues[attribute] = perList
            let items = list.interactor.selectableItems(with: presenter(for: attribute))
            let cursor = min(facetRows[attribute] ?? 0, max(items.count - 1, 0))
            facetRows[attribute] = cursor
            lines.append(header(attribute == "brand" ? "Brand" : "Categories", focused: focused))
            if items.isEmpty { lines.append(StyledLine("    (none)", style: StyledLine.dim)) }
            for (row, item) in items.enumerated() {
                let isCursor = focused && row == cursor
                var line = StyledLine(isCursor ? "  › " : "    ", style: isCursor ? "1;36" : "")
                line.append(item.isSelected ? "[x] " : "[ ] ", style: item.isSelected ? StyledLine.selected : "")
                let count = " \(Terminal.grouped(item.item.count))"
                let name = String(item.item.value.prefix(max(width - line.count - count.count, 1)))
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
        // Two lines a hit: the highlighted name, then brand, category and price.
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
            if let name = hit.highlightedString(forKey: "name") {
                first.append(name, tagged: StyledLine.highlight, plain: isCursor ? StyledLine.bold : "")
            } else {
                first.append(hit.object.name ?? hit.objectID, style: isCursor ? StyledLine.bold : "")
            }
            var second = StyledLine("    ")
            if let brand = hit.highlightedString(forKey: "brand") {
                second.append(brand, tagged: "33", plain: "36")
            } else if let brand = hit.object.brand {
                second.append(brand, style: "36")
            }
            if let category = hit.object.categories?.last { second.append("  ·  " + category, style: StyledLine.dim) }
            if let price = hit.object.price { second.append("  ·  $" + formatPrice(price), style: "32") }
            lines.append(first)
            lines.append(second)
        }
        return Array(lines.prefix(rows))
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
