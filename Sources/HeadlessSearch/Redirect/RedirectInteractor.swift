import Foundation
import SearchAPI

extension SearchResponse {
    /// Where a Rule sends the user instead of showing the results: Algolia's
    /// `renderingContent.redirect.url`. Nil when it is not set, or not a URL.
    ///
    /// ```swift
    /// searcher.onResults.subscribe(with: self) { screen, response in
    ///     if let url = response.redirectURL { screen.open(url) }
    /// }
    /// ```
    public var redirectURL: URL? {
        guard let text = renderingContent["redirect"]?["url"]?.stringValue, !text.isEmpty else { return nil }
        return URL(string: text)
    }
}

/// A redirect: the event of a search that a Rule answers with a page to go to rather than
/// results (Algolia's `renderingContent.redirect`, set by a Rule's redirect consequence).
/// InstantSearch iOS has no widget for it (apps read the response); this is that reading, as an
/// event, so a screen subscribes to it like to any other.
///
/// It is a small interactor of its own, connected to a searcher like the others, rather than
/// an event of `HitsSearcher`: a searcher publishes responses, and what a response means for
/// the screen is an interactor's business (as for stats or custom data); the searcher stays
/// the same for every widget, and a screen that does not redirect does not pay for it.
///
/// `onRedirect` fires at most once per search: for the first response of a search whose
/// redirect is set, not again for its further pages (infinite scrolling), and again for the
/// next search that redirects (the same query searched again included). It does not fire for a
/// response delivered before the connection.
///
/// ```swift
/// let redirect = RedirectInteractor()
/// redirect.connectSearcher(searcher)
/// redirect.onRedirect.subscribe(with: self) { screen, url in screen.open(url) }
/// ```
@MainActor
public final class RedirectInteractor {
    /// The redirect of the current search's first response; nil when it has none (or before
    /// the first response).
    public private(set) var url: URL?

    /// Fired with the URL when a search's first response redirects.
    public let onRedirect: Observer<URL>

    /// True from the start of a search until its first response is taken in.
    private var isAwaitingFirstResponse = true

    /// An interactor with no redirect, until it takes a response in.
    public init() {
        onRedirect = Observer()
    }

    /// A new search started: its first response decides the redirect.
    public func notifySearchStarted() {
        isAwaitingFirstResponse = true
    }

    /// Takes a response in: the first response of a search (the first ever, or the first after
    /// `notifySearchStarted()`) sets `url` and, when it redirects, fires `onRedirect`; a further
    /// page of the same search changes nothing.
    public func update(_ response: SearchResponse) {
        guard isAwaitingFirstResponse else { return }
        isAwaitingFirstResponse = false
        let redirect = response.redirectURL
        url = redirect
        if let redirect { onRedirect.fire(redirect) }
    }

    /// Follows `searcher`'s searches and responses.
    @discardableResult
    public func connectSearcher(_ searcher: HitsSearcher) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onSearch.subscribe(with: self) { interactor, _ in interactor.notifySearchStarted() }
            searcher.onResults.subscribe(with: self) { interactor, response in interactor.update(response) }
        }, disconnect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onSearch.cancelSubscription(for: self)
            searcher.onResults.cancelSubscription(for: self)
        })
    }
}
