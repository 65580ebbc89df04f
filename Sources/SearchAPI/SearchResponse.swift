/// The counts of one facet, in the order Algolia returns them (count descending, then value,
/// or by value with `sortFacetValuesBy: alpha`).
public struct FacetCounts: Sendable, Hashable {
    /// The faceted attribute.
    public var attribute: String
    /// Each value, and how many matching records have it.
    public var values: [(value: String, count: Int)]

    /// The counts of `attribute`'s values, in the order given.
    public init(attribute: String, values: [(value: String, count: Int)]) {
        self.attribute = attribute
        self.values = values
    }

    /// The count of `value`; nil when the value is not among those returned.
    public subscript(value: String) -> Int? { values.first { $0.value == value }?.count }

    public static func == (lhs: FacetCounts, rhs: FacetCounts) -> Bool {
        lhs.attribute == rhs.attribute && lhs.values.elementsEqual(rhs.values, by: { $0.value == $1.value && $0.count == $1.count })
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(attribute)
        for (value, count) in values { hasher.combine(value); hasher.combine(count) }
    }
}

/// `facets_stats` for one numeric facet.
public struct FacetStats: Sendable, Hashable, Codable {
    /// The smallest value among the matching records.
    public var min: Double
    /// The largest value among the matching records.
    public var max: Double
    /// The mean of the values among the matching records.
    public var avg: Double
    /// The sum of the values among the matching records.
    public var sum: Double
    /// The stats of one numeric facet.
    public init(min: Double, max: Double, avg: Double, sum: Double) {
        self.min = min; self.max = max; self.avg = avg; self.sum = sum
    }
}

/// Where an answer came from, when a service composes several (as the answers of Algolia's
/// Offline SDK said): the remote service (Algolia, or `offline-search serve`) or the local index.
public enum ResponseOrigin: String, Sendable, Hashable, CaseIterable {
    /// The remote service answered.
    case remote
    /// The local index answered.
    case local
}

/// One search's answer, in Algolia's shape (`hits`, `nbHits`, `page`, `nbPages`, …).
/// `jsonValue` writes it with Algolia's key order; `Codable` reads it back, from this engine
/// or from Algolia itself.
public struct SearchResponse: Sendable, Hashable {
    /// Each hit: the retrieved attributes, `objectID`, `_highlightResult`, `_snippetResult`.
    public var hits: [JSONValue] = []
    /// Algolia's `nbHits`: how many records match, over every page.
    public var nbHits: Int = 0
    /// Relevant sort (a virtual replica): how many of the `nbHits` matches were selected as
    /// relevant and sorted; the hits are those.
    public var nbSortedHits: Int?
    /// Relevant sort: the `relevancyStrictness` applied.
    public var appliedRelevancyStrictness: Int?
    /// Algolia's `page`: the page returned, from 0.
    public var page: Int = 0
    /// Algolia's `nbPages`: how many pages the matches fill, within `paginationLimitedTo`.
    public var nbPages: Int = 0
    /// Algolia's `hitsPerPage`: the page size applied.
    public var hitsPerPage: Int = 20
    /// Set when the request paged with `offset`/`length`.
    public var offset: Int?
    /// Set when the request paged with `offset`/`length`: the `length` applied.
    public var length: Int?
    /// Algolia's `facets`: the counts of each requested facet; nil when none was requested.
    public var facets: [FacetCounts]?
    /// Algolia's `facets_stats`: the min, max, average and sum of each requested numeric facet,
    /// by attribute.
    public var facetsStats: [String: FacetStats]?
    /// Algolia's `exhaustiveFacetsCount`: whether the facet counts are exact; nil when no facet
    /// was counted.
    public var exhaustiveFacetsCount: Bool?
    /// Algolia's `exhaustiveNbHits`: whether `nbHits` is exact rather than estimated.
    public var exhaustiveNbHits: Bool = true
    /// Algolia's `exhaustiveTypo`: whether every typo alternative was searched.
    public var exhaustiveTypo: Bool = true
    /// Algolia's `query`: the query text searched.
    public var query: String = ""
    /// Algolia's `params`: the search parameters URL-encoded, as `SearchParameters.urlEncoded`
    /// writes them.
    public var params: String = ""
    /// Algolia's `index`: the name of the index searched.
    public var index: String?
    /// Algolia's `queryID`, set when the search asked for `clickAnalytics`.
    public var queryID: String?
    /// With `aroundLatLng` and no `aroundRadius`: the radius the engine chose, in metres.
    public var automaticRadius: String?
    /// Algolia's `message`: a warning about how the query was answered (the local engine's, when
    /// it answered from its full-text table while its search index was being built).
    public var message: String?
    /// Algolia's `userData`: the `userData` of every Rule applied (a banner, a message), in the
    /// order the rules were applied; nil when none carried any.
    public var userData: [JSONValue]?
    /// Algolia's `appliedRules`: the objectIDs of the Rules applied (`[{"objectID": …}]`); nil
    /// when none was applied.
    public var appliedRules: [String]?
    /// Algolia's `renderingContent`: how a UI should show the results (`facetOrdering`,
    /// `redirect`), from the index's setting or a Rule's consequence; empty when neither sets it.
    public var renderingContent: JSONObject = JSONObject()
    /// Algolia's `processingTimeMS`: how long the search took, in milliseconds.
    public var processingTimeMS: Int = 0
    /// Which side answered, set by a service that composes a remote and a local one
    /// (`FallbackSearchService`); nil otherwise. Not part of Algolia's JSON.
    public var origin: ResponseOrigin?

    /// An empty response: no hits, page 0 of 0, 20 hits per page.
    public init() {}

    /// The counts of one facet, if it was requested.
    public func facet(_ attribute: String) -> FacetCounts? { facets?.first { $0.attribute == attribute } }

    /// The response in Algolia's JSON and key order, with `exhaustive` and `renderingContent`
    /// (empty when nothing sets it) as Algolia sends them (`origin` is left out).
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object.appendUnique("hits", .array(hits))
        object.appendUnique("nbHits", .int(Int64(nbHits)))
        if let nbSortedHits { object.appendUnique("nbSortedHits", .int(Int64(nbSortedHits))) }
        if let appliedRelevancyStrictness { object.appendUnique("appliedRelevancyStrictness", .int(Int64(appliedRelevancyStrictness))) }
        object.appendUnique("page", .int(Int64(page)))
        object.appendUnique("nbPages", .int(Int64(nbPages)))
        object.appendUnique("hitsPerPage", .int(Int64(hitsPerPage)))
        if let offset { object.appendUnique("offset", .int(Int64(offset))) }
        if let length { object.appendUnique("length", .int(Int64(length))) }
        if let facets {
            var facetsObject = JSONObject()
            for facet in facets {
                var counts = JSONObject()
                for (value, count) in facet.values { counts.appendUnique(value, .int(Int64(count))) }
                facetsObject.appendUnique(facet.attribute, .object(counts))
            }
            object.appendUnique("facets", .object(facetsObject))
        }
        if let facetsStats {
            var statsObject = JSONObject()
            for attribute in facetsStats.keys.sorted() {
                let stats = facetsStats[attribute]!
                statsObject.appendUnique(attribute, ["min": .number(stats.min), "max": .number(stats.max),
                                                     "avg": .number(stats.avg), "sum": .number(stats.sum)])
            }
            object.appendUnique("facets_stats", .object(statsObject))
        }
        if let exhaustiveFacetsCount { object.appendUnique("exhaustiveFacetsCount", .bool(exhaustiveFacetsCount)) }
        object.appendUnique("exhaustiveNbHits", .bool(exhaustiveNbHits))
        object.appendUnique("exhaustiveTypo", .bool(exhaustiveTypo))
        var exhaustive: JSONObject = ["nbHits": .bool(exhaustiveNbHits), "typo": .bool(exhaustiveTypo)]
        if let exhaustiveFacetsCount { exhaustive.appendUnique("facetsCount", .bool(exhaustiveFacetsCount)) }
        object.appendUnique("exhaustive", .object(exhaustive))
        object.appendUnique("query", .string(query))
        object.appendUnique("params", .string(params))
        if let index { object.appendUnique("index", .string(index)) }
        if let queryID { object.appendUnique("queryID", .string(queryID)) }
        if let automaticRadius { object.appendUnique("automaticRadius", .string(automaticRadius)) }
        if let message { object.appendUnique("message", .string(message)) }
        if let userData { object.appendUnique("userData", .array(userData)) }
        if let appliedRules {
            object.appendUnique("appliedRules", .array(appliedRules.map { ["objectID": .string($0)] }))
        }
        object.appendUnique("renderingContent", .object(renderingContent))
        object.appendUnique("processingTimeMS", .int(Int64(processingTimeMS)))
        return .object(object)
    }

    /// Reads a response in Algolia's JSON (this engine's, or Algolia's own).
    public init(json: JSONValue) throws(SearchError) {
        guard case .object(let object) = json else { throw SearchError(.invalidJSON, "search response: expected a JSON object") }
        func int(_ key: String) throws(SearchError) -> Int? {
            guard let value = object[key] else { return nil }
            guard let i = value.intValue else { throw SearchError(.invalidJSON, "search response: \(key) is not an integer") }
            return i
        }
        guard let nbHits = try int("nbHits") else { throw SearchError(.invalidJSON, "search response: nbHits is missing") }
        self.nbHits = nbHits
        hits = object["hits"]?.arrayValue ?? []
        nbSortedHits = try int("nbSortedHits")
        appliedRelevancyStrictness = try int("appliedRelevancyStrictness")
        page = try int("page") ?? 0
        nbPages = try int("nbPages") ?? 0
        hitsPerPage = try int("hitsPerPage") ?? 20
        offset = try int("offset")
        length = try int("length")
        processingTimeMS = try int("processingTimeMS") ?? 0
        query = object["query"]?.stringValue ?? ""
        params = object["params"]?.stringValue ?? ""
        index = object["index"]?.stringValue
        queryID = object["queryID"]?.stringValue
        automaticRadius = object["automaticRadius"]?.stringValue
        message = object["message"]?.stringValue
        userData = object["userData"]?.arrayValue
        appliedRules = object["appliedRules"]?.arrayValue?.compactMap { $0["objectID"]?.stringValue }
        renderingContent = object["renderingContent"]?.objectValue ?? JSONObject()
        exhaustiveNbHits = object["exhaustiveNbHits"]?.boolValue ?? true
        exhaustiveTypo = object["exhaustiveTypo"]?.boolValue ?? true
        exhaustiveFacetsCount = object["exhaustiveFacetsCount"]?.boolValue
        if let facetsObject = object["facets"]?.objectValue {
            facets = facetsObject.map { attribute, counts in
                FacetCounts(attribute: attribute,
                            values: (counts.objectValue ?? JSONObject()).map { (value: $0.key, count: $0.value.intValue ?? 0) })
            }
        }
        if let statsObject = object["facets_stats"]?.objectValue {
            var stats: [String: FacetStats] = [:]
            for (attribute, value) in statsObject {
                stats[attribute] = FacetStats(min: value["min"]?.doubleValue ?? 0, max: value["max"]?.doubleValue ?? 0,
                                              avg: value["avg"]?.doubleValue ?? 0, sum: value["sum"]?.doubleValue ?? 0)
            }
            facetsStats = stats
        }
    }
}

extension SearchResponse: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder))
    }
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

/// One value found by a facet-value search.
public struct FacetHit: Sendable, Hashable, Codable {
    /// The facet value found.
    public var value: String
    /// The value with the matched part wrapped in the highlight tags.
    public var highlighted: String
    /// How many matching records have the value.
    public var count: Int
    /// A value found, with its highlighted form and its count.
    public init(value: String, highlighted: String, count: Int) {
        self.value = value; self.highlighted = highlighted; self.count = count
    }
}

/// The answer to a facet-value search (`POST /1/indexes/{index}/facets/{facet}/query`).
public struct FacetValuesResponse: Sendable, Hashable, Codable {
    /// Algolia's `facetHits`: the values found.
    public var facetHits: [FacetHit]
    /// Algolia's `exhaustiveFacetsCount`: whether the counts are exact.
    public var exhaustiveFacetsCount: Bool
    /// Algolia's `processingTimeMS`: how long the search took, in milliseconds.
    public var processingTimeMS: Int
    /// Which side answered (see `SearchResponse.origin`); not part of Algolia's JSON.
    public var origin: ResponseOrigin?

    private enum CodingKeys: String, CodingKey { case facetHits, exhaustiveFacetsCount, processingTimeMS }

    /// An answer of `facetHits` (by default with exact counts and a processing time of 0).
    public init(facetHits: [FacetHit], exhaustiveFacetsCount: Bool = true, processingTimeMS: Int = 0) {
        self.facetHits = facetHits; self.exhaustiveFacetsCount = exhaustiveFacetsCount; self.processingTimeMS = processingTimeMS
    }

    /// Algolia's JSON: `{"facetHits": [...], "exhaustiveFacetsCount": ..., "processingTimeMS": ...}`
    /// (`origin` is left out).
    public var jsonValue: JSONValue {
        ["facetHits": .array(facetHits.map { ["value": .string($0.value), "highlighted": .string($0.highlighted), "count": .int(Int64($0.count))] }),
         "exhaustiveFacetsCount": .bool(exhaustiveFacetsCount),
         "processingTimeMS": .int(Int64(processingTimeMS))]
    }

    /// Reads an answer in Algolia's JSON (this engine's, or Algolia's own).
    public init(json: JSONValue) throws(SearchError) {
        guard case .object(let object) = json else { throw SearchError(.invalidJSON, "facet values response: expected a JSON object") }
        guard let hits = object["facetHits"]?.arrayValue else {
            throw SearchError(.invalidJSON, "facet values response: facetHits is missing or not an array")
        }
        var facetHits: [FacetHit] = []
        facetHits.reserveCapacity(hits.count)
        for (position, hit) in hits.enumerated() {
            guard let value = hit["value"]?.stringValue, let count = hit["count"]?.intValue else {
                throw SearchError(.invalidJSON, "facet values response: facetHits[\(position)]: expected {\"value\": string, \"highlighted\": string, \"count\": integer}, got \(hit.jsonString)")
            }
            facetHits.append(FacetHit(value: value, highlighted: hit["highlighted"]?.stringValue ?? value, count: count))
        }
        self.init(facetHits: facetHits,
                  exhaustiveFacetsCount: object["exhaustiveFacetsCount"]?.boolValue ?? true,
                  processingTimeMS: object["processingTimeMS"]?.intValue ?? 0)
    }
}

extension JSONValue {
    /// A number as Algolia writes it: integral values without a fraction.
    public static func number(_ value: Double) -> JSONValue {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return .int(Int64(value)) }
        return .double(value)
    }
}
