import SearchAPI

/// A record of a Query Suggestions index (`instantsearch_query_suggestions`): a popular query,
/// how popular it is, and its highlighted form. InstantSearch's `QuerySuggestion`.
///
/// ```swift
/// let suggestions = HitsInteractor<QuerySuggestion>(infiniteScrolling: .off)
/// suggestions.hit(atIndex: 0)?.displayedText()   // "iphone" with "hone" emphasised after typing "ip"
/// ```
public struct QuerySuggestion: Decodable, Hashable, Sendable {
    /// The record's `objectID`, when the hit has one.
    public let objectID: String?
    /// The suggested query.
    public let query: String
    /// How popular the query is (the index's `popularity`: how often it was searched); 0 when
    /// absent.
    public let popularity: Int
    /// `_highlightResult.query`: the query with the part matching what was typed tagged.
    public let highlighted: HighlightedString?
    /// How much of `query` matched what was typed (`_highlightResult.query.matchLevel`).
    public let matchLevel: MatchLevel?

    /// A suggestion of `query`; by default of popularity 0, without highlighting.
    public init(objectID: String? = nil, query: String, popularity: Int = 0, highlighted: HighlightedString? = nil,
                matchLevel: MatchLevel? = nil) {
        self.objectID = objectID
        self.query = query
        self.popularity = popularity
        self.highlighted = highlighted
        self.matchLevel = matchLevel
    }

    private enum CodingKeys: String, CodingKey {
        case objectID, query, popularity
        case highlightResult = "_highlightResult"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        objectID = try container.decodeIfPresent(String.self, forKey: .objectID)
        query = try container.decode(String.self, forKey: .query)
        popularity = try container.decodeIfPresent(Int.self, forKey: .popularity) ?? 0
        let highlight = try container.decodeIfPresent(TreeModel<HighlightResult>.self, forKey: .highlightResult)?["query"]?.value
        highlighted = highlight?.value
        matchLevel = highlight?.matchLevel
    }

    /// What a suggestion list shows. Inverted (the default), the part the user has not typed
    /// yet is tagged; when nothing matched (`matchLevel` none, such as on the empty query) the
    /// plain query, untagged.
    public func displayedText(inverted: Bool = true) -> HighlightedString {
        guard let highlighted, matchLevel != MatchLevel.none else { return HighlightedString(string: query) }
        return inverted ? highlighted.inverted : highlighted
    }
}
