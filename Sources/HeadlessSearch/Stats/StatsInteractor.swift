import SearchAPI

/// The figures of a search response a stats line shows. InstantSearch's `SearchStats`.
public struct SearchStats: Hashable, Sendable {
    /// Algolia's `nbHits`: how many records match.
    public let totalHitsCount: Int
    /// Algolia's `hitsPerPage`: hits per page.
    public let hitsPerPage: Int
    /// Algolia's `nbPages`: how many pages the matches fill.
    public let pagesCount: Int
    /// Algolia's `page`: the page shown, from 0.
    public let page: Int
    /// Algolia's `processingTimeMS`: how long the search took, in milliseconds.
    public let processingTimeMS: Int
    /// The query text searched.
    public let query: String

    /// Stats of these figures.
    public init(totalHitsCount: Int, hitsPerPage: Int, pagesCount: Int, page: Int, processingTimeMS: Int, query: String) {
        self.totalHitsCount = totalHitsCount
        self.hitsPerPage = hitsPerPage
        self.pagesCount = pagesCount
        self.page = page
        self.processingTimeMS = processingTimeMS
        self.query = query
    }

    /// The figures of `response`.
    public init(_ response: SearchResponse) {
        self.init(totalHitsCount: response.nbHits, hitsPerPage: response.hitsPerPage, pagesCount: response.nbPages,
                  page: response.page, processingTimeMS: response.processingTimeMS, query: response.query)
    }

    /// `template` with `{nbHits}`, `{processingTimeMS}`, `{hitsPerPage}`, `{nbPages}`, `{page}`
    /// and `{query}` replaced by these figures.
    public func render(_ template: String) -> String {
        let values: [String: String] = [
            "nbHits": String(totalHitsCount), "processingTimeMS": String(processingTimeMS), "hitsPerPage": String(hitsPerPage),
            "nbPages": String(pagesCount), "page": String(page), "query": query,
        ]
        // One pass, so a query containing "{page}" is shown as typed, not replaced.
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            if let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }
}

/// A stats line: "1,234 results", or a text of your own with the response's figures, and an
/// error text when the search fails. InstantSearch's `StatsInteractor` with the old widget's
/// `resultTemplate` and `errorText`.
///
/// ```swift
/// let stats = StatsInteractor(resultTemplate: "{nbHits} results in {processingTimeMS} ms", errorText: "Search failed")
/// stats.connectSearcher(searcher)
/// stats.onTextChanged.subscribe(with: label) { label, text in label.text = text }
/// ```
@MainActor
public final class StatsInteractor {
    /// The text of a successful search; default `"{nbHits} results"`.
    public var resultTemplate: String {
        didSet { updateText() }
    }

    /// The text shown when the search fails (nil: the error's message).
    public var errorText: String? {
        didSet { updateText() }
    }

    /// The figures of the last response (nil before the first, and after an error).
    public private(set) var item: SearchStats? {
        didSet { if oldValue != item { onItemChanged.fire(item) } }
    }

    /// The last error, until the next response.
    public private(set) var error: SearchError?

    /// The line to show.
    public private(set) var text: String? {
        didSet { if oldValue != text { onTextChanged.fire(text) } }
    }

    /// Fired with `item` when it changes (the last kept as `lastValue`).
    public let onItemChanged: Observer<SearchStats?>
    /// Fired with `text` when it changes (the last kept as `lastValue`).
    public let onTextChanged: Observer<String?>

    /// A stats line of `resultTemplate` (`"{nbHits} results"` by default) and `errorText`; no
    /// text until it takes a response or an error in.
    public init(resultTemplate: String = "{nbHits} results", errorText: String? = nil) {
        self.resultTemplate = resultTemplate
        self.errorText = errorText
        onItemChanged = Observer(retainLastData: true)
        onTextChanged = Observer(retainLastData: true)
    }

    /// Takes a response in.
    public func update(_ response: SearchResponse) {
        error = nil
        item = SearchStats(response)
        updateText()
    }

    /// Takes an error in.
    public func update(_ error: SearchError) {
        self.error = error
        item = nil
        updateText()
    }

    private func updateText() {
        if let error {
            text = errorText ?? error.message
        } else {
            text = item.map { $0.render(resultTemplate) }
        }
    }

    /// Takes `searcher`'s responses and errors.
    @discardableResult
    public func connectSearcher(_ searcher: HitsSearcher) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onResults.subscribePast(with: self) { interactor, response in interactor.update(response) }
            searcher.onError.subscribe(with: self) { interactor, error in interactor.update(error) }
        }, disconnect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onResults.cancelSubscription(for: self)
            searcher.onError.cancelSubscription(for: self)
        })
    }

    /// Shows the line in `controller`.
    @discardableResult
    public func connectController(_ controller: some StatsTextController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            self.onTextChanged.subscribe(with: controller) { controller, text in controller.setItem(text) }
            controller.setItem(self.text)
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            self.onTextChanged.cancelSubscription(for: controller)
        })
    }
}

/// What a stats label implements. InstantSearch's `StatsTextController`.
@MainActor
public protocol StatsTextController: AnyObject {
    /// Shows the line (nil: nothing to show).
    func setItem(_ item: String?)
}
