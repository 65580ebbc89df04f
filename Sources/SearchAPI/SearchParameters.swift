/// `queryType`: which query words match as prefixes.
public enum QueryType: String, Sendable, Hashable, CaseIterable {
    /// Only the last word is a prefix (Algolia's default).
    case prefixLast
    /// Every word is a prefix.
    case prefixAll
    /// No word is a prefix.
    case prefixNone
}

/// `sortFacetValuesBy`.
public enum FacetSortOrder: String, Sendable, Hashable, CaseIterable {
    /// By count, highest first (Algolia's default).
    case count
    /// Alphabetically, by value.
    case alpha
}

/// One element of a list-form filter (`facetFilters`, `numericFilters`, `tagFilters`,
/// `optionalFilters`): the outer list is AND, an inner list is OR (lists nested deeper are
/// read into the inner list's OR).
public enum FilterListItem: Sendable, Hashable {
    /// One filter, ANDed with the other items.
    case single(String)
    /// Filters of which any may match (OR); the group is ANDed with the other items.
    case anyOf([String])
}

/// A list-form filter as it arrives: a plain string (`"brand:Apple"`, `"a,b"`) or nested arrays.
public enum FilterList: Sendable, Hashable {
    /// The string form: one filter (`"brand:Apple"`), filters separated by commas (AND), and
    /// parenthesized OR groups (`"(a,b),c"`).
    case string(String)
    /// The array form: the items, ANDed.
    case list([FilterListItem])

    /// The filter as Algolia's JSON: the string, or the nested arrays.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .list(let items):
            return .array(items.map {
                switch $0 {
                case .single(let s): .string(s)
                case .anyOf(let values): .array(values.map { .string($0) })
                }
            })
        }
    }
}

/// The parameters of one search, as Algolia names them.
///
/// Built from a JSON object (`{"query": "iphone", "hitsPerPage": 5}`), from Algolia's
/// URL-encoded `params` string (`query=iphone&hitsPerPage=5`), or both at once, as the REST
/// API accepts them. Values are read as leniently as Algolia reads them (`"5"` is a number
/// in a `params` string; lists may be JSON or comma-separated), and a value of the wrong
/// type is a `SearchError` that names the parameter.
///
/// ```swift
/// var parameters = SearchParameters(query: "iphone")
/// parameters.facets = ["brand"]
/// parameters.hitsPerPage = 5
/// ```
/// Parameters the engine does not implement yet are accepted and echoed in `params`;
/// an unknown parameter name is an error, as with Algolia.
public struct SearchParameters: Sendable, Hashable {
    /// Algolia's `query`: the text to search for (empty matches every record), at most
    /// `maxQueryBytes` bytes.
    public var query: String = ""
    /// Algolia's `page`: the page to return, from 0; nil for the first.
    public var page: Int?
    /// Algolia's `hitsPerPage`: hits per page, 0 to 1000; nil for the index's setting.
    public var hitsPerPage: Int?
    /// Algolia's `offset`: the position of the first hit to return, with `length` (in place of
    /// `page`).
    public var offset: Int?
    /// Algolia's `length`: how many hits to return from `offset`, 0 to 1000.
    public var length: Int?
    /// Algolia's `attributesToRetrieve`: the attributes each hit returns (`*` for all); nil for
    /// the index's setting.
    public var attributesToRetrieve: [String]?
    /// Algolia's `attributesToHighlight`: the attributes given a `_highlightResult`; nil for the
    /// index's setting.
    public var attributesToHighlight: [String]?
    /// Algolia's `attributesToSnippet`: the attributes given a `_snippetResult`, as `name:words`;
    /// nil for the index's setting.
    public var attributesToSnippet: [String]?
    /// Algolia's `highlightPreTag`: the text before a highlighted match; nil for the index's setting.
    public var highlightPreTag: String?
    /// Algolia's `highlightPostTag`: the text after a highlighted match; nil for the index's setting.
    public var highlightPostTag: String?
    /// Algolia's `snippetEllipsisText`: the text that marks a cut in a snippet; nil for the
    /// index's setting.
    public var snippetEllipsisText: String?
    /// Algolia's `restrictSearchableAttributes`: searches only these of the searchable attributes.
    public var restrictSearchableAttributes: [String]?
    /// Algolia's `facets`: the attributes whose values are counted (`*` for every facet).
    public var facets: [String]?
    /// Algolia's `maxValuesPerFacet`: facet values returned per facet, 0 to 1000; nil for the
    /// index's setting.
    public var maxValuesPerFacet: Int?
    /// Algolia's `sortFacetValuesBy`: the order of facet values; nil for the index's setting.
    public var sortFacetValuesBy: FacetSortOrder?
    /// Algolia's `maxFacetHits`: how many values a facet-value search returns, 1 to 100.
    public var maxFacetHits: Int?
    /// The text to look for in facet values (facet-value search only).
    public var facetQuery: String?
    /// Algolia's `filters`: a filter expression (`brand:Apple AND price < 500`).
    public var filters: String?
    /// Algolia's `facetFilters`: `attribute:value` filters, in list form.
    public var facetFilters: FilterList?
    /// Algolia's `numericFilters`: numeric comparisons (`price < 500`, `price:10 TO 20`), in
    /// list form.
    public var numericFilters: FilterList?
    /// Algolia's `tagFilters`: values of `_tags`, in list form.
    public var tagFilters: FilterList?
    /// Algolia's `optionalFilters`: facet filters that rank the records matching them higher
    /// without leaving out the others, in list form.
    public var optionalFilters: FilterList?
    /// Algolia's `queryType`: which query words match as prefixes; nil for the index's setting.
    public var queryType: QueryType?
    /// Algolia's `getRankingInfo`: whether each hit carries its `_rankingInfo`.
    public var getRankingInfo: Bool?
    /// Algolia's `clickAnalytics`: whether the response carries a `queryID` for click and
    /// conversion events.
    public var clickAnalytics: Bool?
    /// Every other recognised Algolia parameter, kept as sent (typo tolerance, distinct,
    /// analytics…): echoed in `params` and read by the features that implement them.
    public var other: JSONObject = JSONObject()

    /// Parameters with `query` and nothing else set: every other value comes from the index's
    /// settings or Algolia's defaults.
    public init(query: String = "") { self.query = query }

    /// Every parameter name the Search API knows, including those this engine only echoes.
    public static let knownNames: Set<String> = [
        "query", "similarQuery", "page", "hitsPerPage", "offset", "length",
        "attributesToRetrieve", "attributesToHighlight", "attributesToSnippet", "highlightPreTag",
        "highlightPostTag", "snippetEllipsisText", "restrictHighlightAndSnippetArrays",
        "restrictSearchableAttributes", "facets", "maxValuesPerFacet", "sortFacetValuesBy",
        "maxFacetHits", "facetQuery", "facetingAfterDistinct", "filters", "facetFilters",
        "numericFilters", "tagFilters", "optionalFilters", "sumOrFiltersScores", "queryType",
        "typoTolerance", "minWordSizefor1Typo", "minWordSizefor2Typos", "allowTyposOnNumericTokens",
        "disableTypoToleranceOnAttributes", "disableTypoToleranceOnWords", "ignorePlurals", "removeStopWords",
        "keepDiacriticsOnCharacters", "queryLanguages", "naturalLanguages", "decompoundQuery",
        "removeWordsIfNoResults", "optionalWords", "advancedSyntax", "advancedSyntaxFeatures",
        "disableExactOnAttributes", "exactOnSingleWordQuery", "alternativesAsExact", "distinct",
        "attributeForDistinct", "getRankingInfo", "explain", "synonyms", "replaceSynonymsInHighlight",
        "minProximity", "responseFields", "ranking", "customRanking", "relevancyStrictness",
        "aroundLatLng", "aroundLatLngViaIP", "aroundRadius", "aroundPrecision", "minimumAroundRadius",
        "insideBoundingBox", "insidePolygon", "ruleContexts", "enableRules", "enablePersonalization",
        "personalizationImpact", "userToken", "analytics", "analyticsTags", "clickAnalytics",
        "percentileComputation", "enableABTest", "enableReRanking", "reRankingApplyFilter", "mode",
        "semanticSearch", "renderingContent", "attributeCriteriaComputedByMinProximity", "attributeCriteriaComputedBy",
        "maxFacetValues", "cursor",
    ]

    /// Reads a request body object: its own keys, plus those of an URL-encoded `params`
    /// string when present (keys of the object win). Keys that address the request rather than
    /// the search (`indexName`, `type`, `facet`) are ignored here.
    public init(json object: JSONObject) throws(SearchError) {
        var merged = JSONObject()
        if let params = object["params"] {
            guard case .string(let text) = params else {
                throw .invalidParameter("params", expected: "a URL-encoded string such as \"query=phone&hitsPerPage=5\"", got: params.jsonString)
            }
            for (key, value) in FormURLEncoding.decodePairs(text) { merged[key] = .string(value) }
        }
        for (key, value) in object where !SearchParameters.requestKeys.contains(key) { merged[key] = value }
        try self.init(validating: merged)
    }

    /// Reads Algolia's URL-encoded `params` string.
    public init(urlEncoded text: String) throws(SearchError) {
        try self.init(json: ["params": .string(text)])
    }

    static let requestKeys: Set<String> = ["params", "indexName", "type", "facet", "strategy"]

    /// The longest `query` Algolia accepts, in UTF-8 bytes: a longer one is an error (400), not
    /// truncated. `facetQuery` is held to the same bound.
    public static let maxQueryBytes = 512

    /// Throws Algolia's 400 error when `text` (the `query` or `facetQuery`) is longer than
    /// `maxQueryBytes`.
    public static func checkQueryLength(_ text: String, parameter: String = "query") throws(SearchError) {
        let bytes = text.utf8.count
        guard bytes <= maxQueryBytes else {
            throw SearchError(.invalidParameter,
                              "Invalid value for \"\(parameter)\" parameter, expected a string of at most \(maxQueryBytes) bytes, got \(bytes) bytes")
        }
    }

    private init(validating object: JSONObject) throws(SearchError) {
        for (key, value) in object {
            let reader = ParameterReader(name: key, value: value)
            switch key {
            case "query":
                query = try reader.string()
                try SearchParameters.checkQueryLength(query, parameter: key)
            case "page": page = try reader.int(in: 0...Int(Int32.max))
            case "hitsPerPage": hitsPerPage = try reader.int(in: 0...1000)
            case "offset": offset = try reader.int(in: 0...Int(Int32.max))
            case "length": length = try reader.int(in: 0...1000)
            case "attributesToRetrieve": attributesToRetrieve = try reader.stringList()
            case "attributesToHighlight": attributesToHighlight = try reader.stringList()
            case "attributesToSnippet": attributesToSnippet = try reader.stringList()
            case "highlightPreTag": highlightPreTag = try reader.string()
            case "highlightPostTag": highlightPostTag = try reader.string()
            case "snippetEllipsisText": snippetEllipsisText = try reader.string()
            case "restrictSearchableAttributes": restrictSearchableAttributes = try reader.stringList()
            case "facets": facets = try reader.stringList()
            case "maxValuesPerFacet": maxValuesPerFacet = try reader.int(in: 0...1000)
            case "sortFacetValuesBy": sortFacetValuesBy = try reader.enumeration(FacetSortOrder.self)
            case "maxFacetHits": maxFacetHits = try reader.int(in: 1...100)
            case "facetQuery":
                facetQuery = try reader.string()
                try SearchParameters.checkQueryLength(facetQuery ?? "", parameter: key)
            case "filters": filters = try reader.string()
            case "facetFilters": facetFilters = try reader.filterList()
            case "numericFilters": numericFilters = try reader.filterList()
            case "tagFilters": tagFilters = try reader.filterList()
            case "optionalFilters": optionalFilters = try reader.filterList()
            case "queryType": queryType = try reader.enumeration(QueryType.self)
            case "getRankingInfo": getRankingInfo = try reader.bool()
            case "clickAnalytics": clickAnalytics = try reader.bool()
            default:
                guard SearchParameters.knownNames.contains(key) else {
                    throw SearchError(.invalidParameter, "Unknown parameter: \(key)")
                }
                other[key] = value
            }
        }
    }

    /// The parameters as a JSON object with Algolia's names (only those that are set).
    public var jsonObject: JSONObject {
        var object = JSONObject()
        func put(_ key: String, _ value: JSONValue?) { if let value { object.appendUnique(key, value) } }
        func list(_ values: [String]?) -> JSONValue? { values.map { .array($0.map { .string($0) }) } }
        func int(_ value: Int?) -> JSONValue? { value.map { .int(Int64($0)) } }
        put("query", .string(query))
        put("page", int(page))
        put("hitsPerPage", int(hitsPerPage))
        put("offset", int(offset))
        put("length", int(length))
        put("attributesToRetrieve", list(attributesToRetrieve))
        put("attributesToHighlight", list(attributesToHighlight))
        put("attributesToSnippet", list(attributesToSnippet))
        put("highlightPreTag", highlightPreTag.map { .string($0) })
        put("highlightPostTag", highlightPostTag.map { .string($0) })
        put("snippetEllipsisText", snippetEllipsisText.map { .string($0) })
        put("restrictSearchableAttributes", list(restrictSearchableAttributes))
        put("facets", list(facets))
        put("maxValuesPerFacet", int(maxValuesPerFacet))
        put("sortFacetValuesBy", sortFacetValuesBy.map { .string($0.rawValue) })
        put("maxFacetHits", int(maxFacetHits))
        put("facetQuery", facetQuery.map { .string($0) })
        put("filters", filters.map { .string($0) })
        put("facetFilters", facetFilters?.jsonValue)
        put("numericFilters", numericFilters?.jsonValue)
        put("tagFilters", tagFilters?.jsonValue)
        put("optionalFilters", optionalFilters?.jsonValue)
        put("queryType", queryType.map { .string($0.rawValue) })
        put("getRankingInfo", getRankingInfo.map { .bool($0) })
        put("clickAnalytics", clickAnalytics.map { .bool($0) })
        for (key, value) in other { object[key] = value }
        return object
    }

    /// Algolia's `params` echo: the parameters URL-encoded, arrays and objects as JSON.
    public var urlEncoded: String {
        FormURLEncoding.encodePairs(jsonObject.entries.lazy.map { key, value in (key: key, value: value.scalarText ?? value.jsonString) })
    }
}

/// Reads one parameter value leniently (numbers and booleans may come as strings, lists as
/// JSON text or comma-separated text) and names the parameter when it cannot.
public struct ParameterReader {
    /// The parameter's name, as error messages show it.
    public let name: String
    /// The value as sent.
    public let value: JSONValue

    /// A reader of `value`, sent as the parameter `name`.
    public init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }

    private func fail(_ expected: String) -> SearchError {
        .invalidParameter(name, expected: expected, got: value.jsonString)
    }

    /// The value as a string: a string as it is, a number or a boolean as its text; throws for
    /// null, arrays and objects.
    public func string() throws(SearchError) -> String {
        switch value {
        case .string(let s): return s
        case .int, .double, .bool: return value.scalarText!
        default: throw fail("a string")
        }
    }

    /// The value as an integer in `range`: a whole number, or a string holding one; throws,
    /// naming the range, otherwise.
    public func int(in range: ClosedRange<Int>) throws(SearchError) -> Int {
        let parsed: Int?
        switch value {
        case .int, .double: parsed = value.intValue
        case .string(let s): parsed = Int(s.trimmingSpaces)
        default: parsed = nil
        }
        guard let parsed, range.contains(parsed) else {
            throw fail("an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return parsed
    }

    /// The value as a boolean: `true` or `false`, the same as strings, or 1 or 0; throws
    /// otherwise.
    public func bool() throws(SearchError) -> Bool {
        switch value {
        case .bool(let b): return b
        case .string("true"), .int(1): return true
        case .string("false"), .int(0): return false
        default: throw fail("true or false")
        }
    }

    /// The value as a case of `type`, by raw value; throws, listing the raw values, otherwise.
    public func enumeration<E: RawRepresentable & CaseIterable>(_ type: E.Type) throws(SearchError) -> E where E.RawValue == String {
        if case .string(let s) = value, let e = E(rawValue: s) { return e }
        throw fail("one of " + E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
    }

    /// A list of strings: a JSON array, JSON array text, or comma-separated text.
    public func stringList() throws(SearchError) -> [String] {
        switch value {
        case .array(let elements):
            var result: [String] = []
            for element in elements {
                guard let text = element.scalarText else { throw fail("an array of strings") }
                result.append(text)
            }
            return result
        case .string(let text):
            let trimmed = text.trimmingSpaces
            if trimmed.hasPrefix("[") {
                guard let parsed = try? JSONValue(parsing: trimmed) else { throw fail("a JSON array of strings") }
                return try ParameterReader(name: name, value: parsed).stringList()
            }
            if trimmed.isEmpty { return [] }
            return trimmed.split(separator: ",").map { String($0).trimmingSpaces }
        default:
            throw fail("an array of strings")
        }
    }

    /// A list-form filter: a string, or an array whose elements are strings or arrays.
    /// As in Algolia, an array nested deeper than the second level joins the OR of the array
    /// that holds it: `[["a", ["b", "c"]], "d"]` is `(a OR b OR c) AND d`.
    public func filterList() throws(SearchError) -> FilterList {
        switch value {
        case .string(let text):
            let trimmed = text.trimmingSpaces
            if trimmed.hasPrefix("["), let parsed = try? JSONValue(parsing: trimmed), case .array = parsed {
                return try ParameterReader(name: name, value: parsed).filterList()
            }
            return .string(text)
        case .array(let elements):
            var items: [FilterListItem] = []
            for element in elements {
                switch element {
                case .array(let inner):
                    var values: [String] = []
                    try appendAlternatives(inner, to: &values)
                    items.append(.anyOf(values))
                default:
                    guard let text = element.scalarText else { throw fail("strings or arrays of strings") }
                    items.append(.single(text))
                }
            }
            return .list(items)
        default:
            throw fail("a string or an array of strings and arrays of strings")
        }
    }

    /// The strings of an OR group, those of the arrays nested in it included, in order.
    /// JSON's own depth limit bounds the recursion.
    private func appendAlternatives(_ elements: [JSONValue], to values: inout [String]) throws(SearchError) {
        for element in elements {
            if case .array(let inner) = element {
                try appendAlternatives(inner, to: &values)
            } else {
                guard let text = element.scalarText else { throw fail("strings or arrays of strings") }
                values.append(text)
            }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and new lines.
    public var trimmingSpaces: String {
        // Most text has nothing to trim, and its first and last bytes tell, without reading it
        // as characters: a first or last character that is a space is that one byte.
        let isSpaceByte: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let ends = utf8.withContiguousStorageIfAvailable { bytes in bytes.isEmpty ? nil : (bytes.first!, bytes.last!) }
        if let ends, let (head, tail) = ends, !isSpaceByte(head), !isSpaceByte(tail) { return String(self) }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return String(self[first...last])
    }
}
