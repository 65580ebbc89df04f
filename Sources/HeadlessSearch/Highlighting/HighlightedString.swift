/// A highlighted value from `_highlightResult` or `_snippetResult`, or a facet value's
/// `highlighted`: the text, with the parts that match the query tagged. InstantSearch's
/// `HighlightedString`.
///
/// The tags are Algolia's defaults (`<em>`, `</em>`) unless the search set
/// `highlightPreTag` / `highlightPostTag`; pass the same ones here.
///
/// ```swift
/// let name = HighlightedString(string: "<em>Iph</em>one 15")
/// name.taggedString.output                   // "Iphone 15"
/// name.taggedString.taggedSubstrings()       // ["Iph"]
/// name.inverted.taggedString.taggedSubstrings()   // ["one 15"]: what a suggestion list emphasises
/// ```
public struct HighlightedString: Hashable, Sendable {
    /// Algolia's default tags.
    public static let preDefaultTag = "<em>"
    /// Algolia's default post-tag, `</em>`.
    public static let postDefaultTag = "</em>"

    /// The text parsed: without its tags, with the ranges of the highlighted parts.
    public let taggedString: TaggedString

    /// Parses `string`, whose highlighted parts are wrapped in `preTag` and `postTag` (Algolia's
    /// `<em>` and `</em>` by default).
    public init(string: String, preTag: String = HighlightedString.preDefaultTag, postTag: String = HighlightedString.postDefaultTag) {
        taggedString = TaggedString(string: string, preTag: preTag, postTag: postTag)
    }

    /// The highlighted string of text already parsed.
    public init(taggedString: TaggedString) {
        self.taggedString = taggedString
    }

    /// The text without the tags.
    public var text: String { taggedString.output }

    /// The highlighted parts and the others swapped: a suggestion list shows the part of each
    /// suggestion the user has not typed yet emphasised.
    public var inverted: HighlightedString { HighlightedString(taggedString: taggedString.inverted) }
}

extension HighlightedString: Decodable {
    /// Decodes a JSON string with the default tags.
    public init(from decoder: any Decoder) throws {
        self.init(string: try decoder.singleValueContainer().decode(String.self))
    }
}

/// How much of an attribute matched the query (`matchLevel`).
public enum MatchLevel: String, Hashable, Sendable, Decodable {
    /// No query word matched.
    case none
    /// Some of the query words matched.
    case partial
    /// Every query word matched.
    case full
}

/// One entry of `_highlightResult`: the highlighted value and how it matched.
public struct HighlightResult: Hashable, Sendable, Decodable {
    /// The attribute's value, with the parts that match the query tagged.
    public let value: HighlightedString
    /// How much of the query matched (`none` when the response did not say).
    public let matchLevel: MatchLevel
    /// The query words that matched (empty when the response did not say).
    public let matchedWords: [String]
    /// Whether the whole value is highlighted; nil when the response did not say.
    public let fullyHighlighted: Bool?

    /// An entry with these values; by default no matched words, and `fullyHighlighted` absent.
    public init(value: HighlightedString, matchLevel: MatchLevel, matchedWords: [String] = [], fullyHighlighted: Bool? = nil) {
        self.value = value
        self.matchLevel = matchLevel
        self.matchedWords = matchedWords
        self.fullyHighlighted = fullyHighlighted
    }

    private enum CodingKeys: String, CodingKey { case value, matchLevel, matchedWords, fullyHighlighted }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(HighlightedString.self, forKey: .value)
        matchLevel = try container.decodeIfPresent(MatchLevel.self, forKey: .matchLevel) ?? .none
        matchedWords = try container.decodeIfPresent([String].self, forKey: .matchedWords) ?? []
        fullyHighlighted = try container.decodeIfPresent(Bool.self, forKey: .fullyHighlighted)
    }
}

/// One entry of `_snippetResult`: the snippet and how it matched.
public struct SnippetResult: Hashable, Sendable, Decodable {
    /// The snippet: the part of the value around the matches, the matches tagged.
    public let value: HighlightedString
    /// How much of the query matched (`none` when the response did not say).
    public let matchLevel: MatchLevel

    private enum CodingKeys: String, CodingKey { case value, matchLevel }

    /// An entry with these values.
    public init(value: HighlightedString, matchLevel: MatchLevel) {
        self.value = value
        self.matchLevel = matchLevel
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(HighlightedString.self, forKey: .value)
        matchLevel = try container.decodeIfPresent(MatchLevel.self, forKey: .matchLevel) ?? .none
    }
}

/// The shape of `_highlightResult` and `_snippetResult`: they mirror the record, so a string
/// attribute has one result, an array attribute an array of them, an object a dictionary.
public indirect enum TreeModel<Leaf: Hashable & Sendable & Decodable>: Hashable, Sendable, Decodable {
    /// The result of a string, number or boolean attribute.
    case value(Leaf)
    /// The results of an array attribute, one per element.
    case array([TreeModel<Leaf>])
    /// The results of an object attribute, by key.
    case dictionary([String: TreeModel<Leaf>])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let array = try? container.decode([TreeModel<Leaf>].self) {
            self = .array(array)
        } else if let leaf = try? container.decode(Leaf.self) {
            self = .value(leaf)
        } else {
            self = .dictionary(try container.decode([String: TreeModel<Leaf>].self))
        }
    }

    /// The subtree at a key of a dictionary (nil otherwise).
    public subscript(key: String) -> TreeModel<Leaf>? {
        if case .dictionary(let children) = self { return children[key] }
        return nil
    }

    /// The leaf, when this is one.
    public var value: Leaf? {
        if case .value(let leaf) = self { return leaf }
        return nil
    }

    /// The leaves of an array (nil otherwise).
    public var values: [Leaf]? {
        if case .array(let elements) = self { return elements.compactMap(\.value) }
        return nil
    }

    /// The subtree at a dotted path (`author.name`).
    public func value(atPath path: String) -> TreeModel<Leaf>? {
        var node: TreeModel<Leaf>? = self
        for key in path.split(separator: ".") { node = node?[String(key)] }
        return node
    }
}
