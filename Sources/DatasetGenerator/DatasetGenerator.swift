import SearchAPI

/// The four demo indices of Algolia's InstantSearch guides, a geo demo index (places
/// with `_geoloc`) and a multilingual one (products in eight languages).
public enum DatasetKind: String, CaseIterable, Sendable {
    case products, movies, actors, suggestions, places, multilingual
}

/// Deterministic generator of realistic demo records.
///
/// Everything comes from word lists in this module combined by a seeded SplitMix64
/// generator (pure Swift, no platform randomness or libm), so the same seed gives the same
/// bytes on every platform.
///
/// - Products, movies and actors: record `i` depends only on the seed and `i`, so
///   `records(kind, count: n)` is a prefix of `records(kind, count: m)` for `n < m`.
/// - Movie casts are drawn from the same people as the actors index (person `j` is actor
///   record `j`), biased towards low `j`, so most cast members of a movie are also in an
///   actors index of a few thousand records.
/// - Suggestions are computed over a product catalog of
///   `max(2 * count, 2000)` products (`records(.products, count:)` of that size):
///   queries are phrases taken from product names, brands and categories, and
///   `exact_nb_hits` and the facet counts are exact for that catalog. Because the catalog
///   grows with `count`, the prefix property holds for suggestion counts up to 1,000 (one
///   2,000-product catalog); use `suggestions(count:catalogSize:)` to fix the catalog, for
///   example to the number of products actually loaded, and keep the prefix property for
///   any count.
public struct DatasetGenerator: Sendable {
    public let seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    /// `count` records of the kind. Same seed and count give byte-identical output.
    public func records(_ kind: DatasetKind, count: Int) -> [JSONValue] {
        let count = max(0, count)
        switch kind {
        case .products:
            return generate(count) { ProductGenerator.json(ProductGenerator.product(seed: seed, index: $0), index: $0) }
        case .movies:
            return generate(count) { MovieGenerator.movie(seed: seed, index: $0) }
        case .actors:
            return generate(count) { PeopleGenerator.actor(seed: seed, index: $0) }
        case .suggestions:
            return suggestions(count: count, catalogSize: DatasetGenerator.suggestionCatalogSize(for: count))
        case .places:
            return generate(count) { PlaceGenerator.place(seed: seed, index: $0) }
        case .multilingual:
            return generate(count) { MultilingualGenerator.product(seed: seed, index: $0) }
        }
    }

    /// Query suggestions whose hit and facet counts are exact over the first `catalogSize`
    /// records of `records(.products, count:)`. Fewer than `count` records come back only
    /// when the catalog has too few distinct phrases (a catalog of at least `count / 4`
    /// products is always plenty).
    public func suggestions(count: Int, catalogSize: Int) -> [JSONValue] {
        SuggestionGenerator.suggestions(seed: seed, count: max(0, count), catalogSize: max(1, catalogSize))
    }

    /// The product catalog `records(.suggestions, count:)` derives its queries from.
    public static func suggestionCatalogSize(for count: Int) -> Int { max(count * 2, 2000) }

    /// Record `i` depends only on the seed and `i`.
    private func generate(_ count: Int, _ make: (Int) -> JSONValue) -> [JSONValue] {
        guard count > 0 else { return [] }
        var result: [JSONValue] = []
        result.reserveCapacity(count)
        for i in 0..<count { result.append(make(i)) }
        return result
    }

    /// Algolia settings for the demo index of that kind.
    public static func settings(for kind: DatasetKind) -> JSONValue {
        switch kind {
        case .products:
            return [
                "searchableAttributes": ["brand", "name", "categories", "unordered(description)"],
                "attributesForFaceting": [
                    "searchable(brand)", "searchable(categories)", "hierarchicalCategories.lvl0", "hierarchicalCategories.lvl1",
                    "hierarchicalCategories.lvl2", "type", "price_range", "free_shipping", "rating", "price",
                ],
                "customRanking": ["desc(popularity)"],
                "attributesToSnippet": ["description:10"],
                "minWordSizefor1Typo": 3,
                "minWordSizefor2Typos": 7,
                "ignorePlurals": true,
            ]
        case .movies:
            return [
                "searchableAttributes": ["unordered(title)", "unordered(actors)", "genre", "unordered(year)"],
                "attributesForFaceting": ["genre", "year", "rating", "searchable(actors)"],
                "customRanking": ["desc(score)", "desc(year)"],
                "optionalWords": ["the"],
                "typoTolerance": "min",
            ]
        case .actors:
            return [
                "searchableAttributes": ["name"],
                "customRanking": ["desc(rating)"],
            ]
        case .suggestions:
            return [
                "searchableAttributes": ["query"],
                "customRanking": ["desc(popularity)"],
                "attributesForFaceting": [],
            ]
        case .places:
            return [
                "searchableAttributes": ["name", "category", "unordered(address)", "district", "city", "country"],
                "attributesForFaceting": ["category", "searchable(city)", "country", "open_24h", "price_level", "rating"],
                "customRanking": ["desc(reviews)", "desc(rating)"],
            ]
        case .multilingual:
            // The languages named, as Algolia advises: plurals and stop words of these only.
            let languages: JSONValue = .array(MultilingualGenerator.languages.map { .string($0.code) })
            return [
                "searchableAttributes": ["name", "category", "brand", "unordered(description)"],
                "attributesForFaceting": ["language", "searchable(brand)", "category"],
                "customRanking": ["desc(popularity)"],
                "queryLanguages": languages,
                "indexLanguages": languages,
                "ignorePlurals": true,
                "removeStopWords": true,
                "decompoundedAttributes": ["de": ["name", "description"]],
            ]
        }
    }

    /// The index name used by the InstantSearch guides.
    public static func indexName(for kind: DatasetKind) -> String {
        switch kind {
        case .products: return "instant_search"
        case .suggestions: return "instantsearch_query_suggestions"
        case .actors: return "mobile_demo_actors"
        case .movies: return "mobile_demo_movies"
        case .places: return "geo_demo_places"
        case .multilingual: return "multilingual_demo"
        }
    }
}
