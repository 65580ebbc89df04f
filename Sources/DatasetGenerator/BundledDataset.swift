import SearchAPI

/// One of the demo indices (the four of the InstantSearch guides, the geo demo index and the
/// multilingual one),
/// exactly as the repository's `Datasets/` folder holds it: the same records and settings, generated in-process from
/// seed 1, so a program can produce them without the folder (the CLI makes a demo index
/// appear in its default data folder the first time a command names it).
///
/// ```swift
/// if let demo = BundledDataset.named("instant_search") {
///     let records = demo.records()      // 3,000 products
///     let settings = demo.settings      // Algolia settings JSON
/// }
/// ```
public struct BundledDataset: Sendable, Hashable {
    public let kind: DatasetKind

    /// The seed `Datasets/` is generated with.
    public static let seed: UInt64 = 1

    /// The demo indices: the guides' four in their order of appearance, then the places and the
    /// multilingual products.
    public static let all: [BundledDataset] = [.products, .suggestions, .actors, .movies, .places, .multilingual]
        .map(BundledDataset.init(kind:))

    public init(kind: DatasetKind) { self.kind = kind }

    /// The demo index with this name (`instant_search`, `instantsearch_query_suggestions`,
    /// `mobile_demo_actors`, `mobile_demo_movies`, `geo_demo_places`, `multilingual_demo`), or nil.
    public static func named(_ indexName: String) -> BundledDataset? {
        all.first { $0.indexName == indexName }
    }

    /// The index name the InstantSearch guides use.
    public var indexName: String { DatasetGenerator.indexName(for: kind) }

    /// How many records the index holds.
    public var count: Int {
        switch kind {
        case .products: 3000
        case .movies: 3000
        case .actors: 2000
        case .suggestions: 2000
        case .places: 5000
        case .multilingual: 1200
        }
    }

    /// The records, as in `Datasets/NAME.json`, except for the suggestions: `Datasets/` holds
    /// what the Query Suggestions builder makes from `instant_search` and `searchLog()`
    /// (`offline-search generate --bundled`); this returns the generator's own suggestions, the
    /// popular searches that log is made from, counted over exactly the bundled products.
    /// - Complexity: O(count); about a second for the products on a laptop-class core.
    public func records() -> [JSONValue] {
        let generator = DatasetGenerator(seed: BundledDataset.seed)
        if kind == .suggestions {
            return generator.suggestions(count: count, catalogSize: BundledDataset(kind: .products).count)
        }
        return generator.records(kind, count: count)
    }

    /// For the suggestions: the search log of `instant_search` the bundled suggestions are built
    /// from (`Datasets/instant_search.searches.json`): entries of search parameters with `count`,
    /// as `SearchEngine.replaySearchLog` reads them. Empty for the other indices.
    public func searchLog() -> [JSONValue] {
        guard kind == .suggestions else { return [] }
        return SuggestionGenerator.searchLog(seed: BundledDataset.seed, count: count, catalogSize: BundledDataset(kind: .products).count)
    }

    /// For the suggestions: the Query Suggestions configuration they are built with
    /// (`Datasets/instantsearch_query_suggestions.config.json`); nil for the other indices.
    public var suggestionsConfiguration: JSONValue? {
        guard kind == .suggestions else { return nil }
        let facets: [JSONValue] = SuggestionGenerator.facetKeys.map { ["attribute": .string($0), "amount": 5] }
        return [
            "indexName": .string(indexName),
            "sourceIndices": [["indexName": "instant_search", "minHits": 5, "minLetters": 3, "facets": .array(facets)]],
            "languages": ["en"],
        ]
    }

    /// The settings, as in `Datasets/NAME.settings.json`.
    public var settings: JSONValue { DatasetGenerator.settings(for: kind) }

    /// The Rules, as in `Datasets/NAME.rules.json` (none for the indices other than
    /// `instant_search`), made for `records` (this dataset's `records()`). On the products,
    /// four rules the guides' flows can show, one per kind of merchandising:
    ///
    /// - `promote-iphone`: a query containing "iphone" pins the first Apple phone first;
    /// - `tv-week-banner`: a query containing "tv" carries a banner in `userData`
    ///   (`{"title", "subtitle", "link"}`) and a facet ordering (brand first);
    /// - `appliances-redirect`: the query "appliances" redirects
    ///   (`renderingContent.redirect.url`) to a category page;
    /// - `brand-filter`: a query that is a brand's name exactly filters on that brand.
    public func rules(for records: [JSONValue]) -> [JSONValue] {
        guard kind == .products else { return [] }
        var rules: [JSONValue] = []
        let phone = records.first { $0["brand"]?.stringValue == "Apple" && $0["categories"]?.arrayValue?.first?.stringValue == "Cell Phones"
            && ($0["name"]?.stringValue ?? "").lowercased().contains("iphone") }
        if let objectID = phone?["objectID"]?.stringValue {
            rules.append(["objectID": "promote-iphone", "description": "Pin an Apple iPhone first for any search about the iPhone",
                          "conditions": [["pattern": "iphone", "anchoring": "contains", "alternatives": true]],
                          "consequence": ["promote": [["objectID": .string(objectID), "position": 0]]]])
        }
        rules.append(["objectID": "tv-week-banner", "description": "A banner, and brands first, for TV searches",
                      "conditions": [["pattern": "tv", "anchoring": "contains", "alternatives": true]],
                      "consequence": ["userData": ["title": "TV week", "subtitle": "Free shipping on every TV until Sunday",
                                                   "link": "https://example.com/tv-week"],
                                      "params": ["renderingContent": ["facetOrdering": ["facets": ["order": ["brand", "price_range", "*"]]]]]]])
        rules.append(["objectID": "appliances-redirect", "description": "The query \"appliances\" opens the Appliances category page",
                      "conditions": [["pattern": "appliances", "anchoring": "is"]],
                      "consequence": ["params": ["renderingContent": ["redirect": ["url": "https://example.com/category/appliances"]]]]])
        rules.append(["objectID": "brand-filter", "description": "A query that is a brand's name shows that brand's products only",
                      "conditions": [["pattern": "{facet:brand}", "anchoring": "is"]],
                      "consequence": ["params": ["automaticFacetFilters": [["facet": "brand"]]]]])
        return rules
    }
}
