/// An index's settings in Algolia's JSON, kept whole: settings this engine does not implement
/// yet are stored and returned, not dropped. Legacy names are read as their current ones
/// (`attributesToIndex` → `searchableAttributes`, `numericAttributesToIndex` →
/// `numericAttributesForFiltering`, `slaves` → `replicas`), and the settings the engine reads
/// are validated when set, so a bad value fails at `setSettings` time with the setting's name.
///
/// ```swift
/// let settings = try IndexSettings(json: ["searchableAttributes": ["name", "unordered(description)"],
///                                         "customRanking": ["desc(popularity)"]])
/// ```
public struct IndexSettings: Sendable, Hashable {
    /// The settings as set, under their current names, in the order they were first set.
    public private(set) var values: JSONObject = JSONObject()

    /// Settings with nothing set: each setting has Algolia's default.
    public init() {}

    /// Reads settings sent by a user: every key is checked (`SettingsSchema`), and a wrong
    /// one throws, naming it.
    public init(json object: JSONObject) throws(SearchError) {
        self = try IndexSettings().applying(object)
    }

    /// Settings read back from storage, where they were checked when set: legacy names are
    /// read as current ones, nothing is rejected (a setting this version no longer knows is
    /// kept as it was).
    public init(stored object: JSONObject) {
        for (key, value) in object where !value.isNull {
            values[SettingsSchema.currentName(key)] = value
        }
    }

    /// These settings with `patch` applied: a key replaces the setting, `null` resets it to its
    /// default. The whole patch is checked first (names, types, ranges; see `SettingsSchema`),
    /// so a rejected patch changes nothing.
    public func applying(_ patch: JSONObject) throws(SearchError) -> IndexSettings {
        var result = self
        for (rawKey, value) in patch {
            let key = SettingsSchema.currentName(rawKey)
            try SettingsSchema.validate(key, value, as: rawKey)
            if value.isNull { result.values[key] = nil } else { result.values[key] = value }
        }
        return result
    }

    /// Whether these are the same settings down to the bytes of every string
    /// (`JSONValue.isIdentical(to:)`): whether a write changes the settings, and whether a
    /// configuration made from one applies to the other. `==` would take `";"` and its
    /// canonically equivalent Greek question mark for one `separatorsToIndex`.
    package func isIdentical(to other: IndexSettings) -> Bool {
        values.isIdentical(to: other.values)
    }

    // MARK: Typed reads (nil when unset)

    /// The setting `key` as a list of strings (elements that are not strings left out); nil
    /// when it is unset or not an array.
    public func stringList(_ key: String) -> [String]? {
        values[key]?.arrayValue?.compactMap(\.stringValue)
    }
    /// The setting `key` as an integer (a whole number, or a string holding one); nil when it
    /// is unset or not an integer.
    public func int(_ key: String) -> Int? {
        guard let value = values[key] else { return nil }
        return try? ParameterReader(name: key, value: value).int(in: Int.min...Int.max)
    }
    /// The setting `key` when it is a string; nil otherwise.
    public func string(_ key: String) -> String? { values[key]?.stringValue }

    /// Algolia's `searchableAttributes`: the attributes searched, most important first
    /// (`unordered(name)` ignores the position of a match within one).
    public var searchableAttributes: [String]? { stringList("searchableAttributes") }
    /// Algolia's `attributesForFaceting`: the attributes that can be facets and facet filters
    /// (`searchable(name)`, `filterOnly(name)`).
    public var attributesForFaceting: [String]? { stringList("attributesForFaceting") }
    /// Algolia's `customRanking`: the tie-breaking attributes, each `asc(name)` or `desc(name)`.
    public var customRanking: [String]? { stringList("customRanking") }
    /// Algolia's `ranking`: the ranking criteria in order (`typo`, `geo`, `words`, …, `custom`).
    public var ranking: [String]? { stringList("ranking") }
    /// Algolia's `attributesToRetrieve`: the attributes a hit returns (`*` for all).
    public var attributesToRetrieve: [String]? { stringList("attributesToRetrieve") }
    /// Algolia's `unretrievableAttributes`: attributes never returned in hits.
    public var unretrievableAttributes: [String]? { stringList("unretrievableAttributes") }
    /// Algolia's `attributesToHighlight`: the attributes given a `_highlightResult`.
    public var attributesToHighlight: [String]? { stringList("attributesToHighlight") }
    /// Algolia's `attributesToSnippet`: the attributes given a `_snippetResult`, as `name:words`.
    public var attributesToSnippet: [String]? { stringList("attributesToSnippet") }
    /// Algolia's `hitsPerPage`: hits per page when a search does not say (default 20).
    public var hitsPerPage: Int? { int("hitsPerPage") }
    /// Algolia's `maxValuesPerFacet`: facet values returned per facet (default 100).
    public var maxValuesPerFacet: Int? { int("maxValuesPerFacet") }
    /// Algolia's `paginationLimitedTo`: how many hits paging can reach (default 1000).
    public var paginationLimitedTo: Int? { int("paginationLimitedTo") }
    /// Algolia's `highlightPreTag`: the text before a highlighted match (default `<em>`).
    public var highlightPreTag: String? { string("highlightPreTag") }
    /// Algolia's `highlightPostTag`: the text after a highlighted match (default `</em>`).
    public var highlightPostTag: String? { string("highlightPostTag") }
    /// Algolia's `snippetEllipsisText`: the text that marks a cut in a snippet (default `…`).
    public var snippetEllipsisText: String? { string("snippetEllipsisText") }
    /// Algolia's `queryType`: which query words match as prefixes (default `prefixLast`).
    public var queryType: QueryType? { string("queryType").flatMap(QueryType.init(rawValue:)) }
    /// Algolia's `sortFacetValuesBy`: facet values by count or by value (default `count`).
    public var sortFacetValuesBy: FacetSortOrder? { string("sortFacetValuesBy").flatMap(FacetSortOrder.init(rawValue:)) }

    /// Algolia's defaults for the settings GET returns even when never set.
    public static let defaults: JSONObject = [
        "minWordSizefor1Typo": 4,
        "minWordSizefor2Typos": 8,
        "hitsPerPage": 20,
        "maxValuesPerFacet": 100,
        "searchableAttributes": nil,
        "attributesToRetrieve": nil,
        "ignorePlurals": false,
        "removeStopWords": false,
        "maxFacetHits": 10,
        "attributesToHighlight": nil,
        "paginationLimitedTo": 1000,
        "attributesToSnippet": nil,
        "exactOnSingleWordQuery": "attribute",
        "ranking": ["typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"],
        "customRanking": nil,
        "separatorsToIndex": "",
        "removeWordsIfNoResults": "none",
        "queryType": "prefixLast",
        "highlightPreTag": "<em>",
        "highlightPostTag": "</em>",
        "snippetEllipsisText": "…",
        "alternativesAsExact": ["ignorePlurals", "singleWordSynonym"],
        "attributesForFaceting": [],
        "unretrievableAttributes": nil,
        "typoTolerance": true,
        "allowTyposOnNumericTokens": true,
        "advancedSyntax": false,
        "distinct": 0,
        "replicas": [],
        "sortFacetValuesBy": "count",
    ]

    /// What GET settings answers: every default filled in, then the settings as set.
    /// Unset list settings that Algolia returns as `null` stay `null`.
    public var withDefaults: JSONObject {
        var result = IndexSettings.defaults
        for (key, value) in values { result[key] = value }
        return result
    }
}
