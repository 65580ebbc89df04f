#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HeadlessSearch

/// The Rule custom data the demo shows: a banner, `{"title": …, "subtitle": …, "link": …}` in
/// a Rule's `userData` (the shape of `instant_search`'s "TV week" rule). Custom data of another
/// shape is not a banner, and shows nothing.
struct RuleBanner: Decodable, Equatable {
    var title: String
    var subtitle: String?
    /// Shown as written (not checked as a URL): the terminal cannot follow it anyway.
    var link: String?
}

extension SearchScreen {
    /// The redirect of the results shown, while the search box still holds the query it
    /// answered; nil when there is none, and while a query typed since has no answer yet.
    var shownRedirect: (query: String, url: URL)? {
        guard let url = redirect.url, let query = redirectQuery, query == (screen.searchBoxInteractor.query ?? "") else {
            return nil
        }
        return (query, url)
    }

    /// `★ TV week — Free shipping on every TV until Sunday (https://example.com/tv-week)`,
    /// the title emphasised as the matches are.
    static func bannerLine(_ banner: RuleBanner) -> StyledLine {
        var line = StyledLine("  ")
        line.append("★ " + banner.title, style: StyledLine.highlight)
        if let subtitle = banner.subtitle, !subtitle.isEmpty { line.append(" — " + subtitle, style: StyledLine.bold) }
        if let link = banner.link, !link.isEmpty { line.append(" (\(link))", style: StyledLine.dim) }
        return line
    }

    /// `↪ "appliances" goes to https://example.com/category/appliances — Enter opens it`.
    static func redirectLine(query: String, url: URL) -> StyledLine {
        var line = StyledLine("  ")
        line.append("↪ ", style: StyledLine.highlight)
        line.append("\"\(query)\"", style: StyledLine.bold)
        line.append(" goes to ")
        line.append(url.absoluteString, style: StyledLine.highlight)
        line.append(" — Enter opens it", style: StyledLine.dim)
        return line
    }

    /// Enter on a redirect: the demo ends, the terminal put back, and the URL is printed on
    /// standard output for the shell to open (a terminal program has no portable way to open a
    /// browser). Status 0.
    func follow(_ url: URL) -> Never {
        terminal.restore()
        Terminal.writeLine(url.absoluteString)
        exit(0)
    }
}
