/// What an Analytics API call asks for: the index, the period (whole days, UTC), the
/// `analyticsTags` to keep, and the page of the list. The query string of Algolia's
/// `GET /2/...` calls: `index`, `startDate`, `endDate` (`YYYY-MM-DD`), `tags`,
/// `clickAnalytics`, `limit`, `offset`.
public struct AnalyticsRequest: Sendable, Hashable {
    /// The index whose searches are read.
    public var indexName: String
    /// The first day, `YYYY-MM-DD`; nil for Algolia's default, 7 days before `endDate`.
    public var startDate: String?
    /// The last day, `YYYY-MM-DD`; nil for today.
    public var endDate: String?
    /// Only searches with these `analyticsTags`: a tag, or tags joined by ` AND ` and ` OR `
    /// (`"mobile AND ios"`; AND binds first); nil for every search.
    public var tags: String?
    /// Whether the lists carry click-through and conversion figures (from Insights events).
    public var clickAnalytics: Bool
    /// How many items a list holds (1 to 1,000; Algolia's default 10).
    public var limit: Int
    /// How many items to skip.
    public var offset: Int

    /// A request for `indexName`'s analytics over Algolia's default period (the last 8 days).
    public init(indexName: String, startDate: String? = nil, endDate: String? = nil, tags: String? = nil,
                clickAnalytics: Bool = false, limit: Int = 10, offset: Int = 0) {
        self.indexName = indexName
        self.startDate = startDate
        self.endDate = endDate
        self.tags = tags
        self.clickAnalytics = clickAnalytics
        self.limit = limit
        self.offset = offset
    }

    /// Reads the query string of an Analytics API call, with a clear error for a missing index,
    /// a date not in `YYYY-MM-DD`, or a limit out of range.
    public init(query: [String: String]) throws(SearchError) {
        guard let index = query["index"], !index.isEmpty else {
            throw .invalidParameter("index", expected: "the name of the index whose analytics to read (?index=NAME)")
        }
        self.init(indexName: index)
        for key in ["startDate", "endDate"] {
            guard let value = query[key] else { continue }
            guard AnalyticsRequest.isDate(value) else {
                throw .invalidParameter(key, expected: "a date as YYYY-MM-DD", got: "\"\(value.prefix(40))\"")
            }
            if key == "startDate" { startDate = value } else { endDate = value }
        }
        if let start = startDate, let end = endDate, start > end {
            throw SearchError(.invalidParameter, "startDate (\(start)) is after endDate (\(end))")
        }
        tags = query["tags"].flatMap { $0.isEmpty ? nil : $0 }
        if let value = query["clickAnalytics"] {
            guard let flag = ["true": true, "false": false][value] else {
                throw .invalidParameter("clickAnalytics", expected: "true or false", got: "\"\(value.prefix(40))\"")
            }
            clickAnalytics = flag
        }
        if let value = query["limit"] {
            guard let number = Int(value), (1...1000).contains(number) else {
                throw .invalidParameter("limit", expected: "an integer from 1 to 1000", got: "\"\(value.prefix(40))\"")
            }
            limit = number
        }
        if let value = query["offset"] {
            guard let number = Int(value), number >= 0 else {
                throw .invalidParameter("offset", expected: "an integer, 0 or more", got: "\"\(value.prefix(40))\"")
            }
            offset = number
        }
    }

    /// The query string's items, as `init(query:)` reads them.
    public var queryItems: [(String, String)] {
        var items = [("index", indexName)]
        if let startDate { items.append(("startDate", startDate)) }
        if let endDate { items.append(("endDate", endDate)) }
        if let tags { items.append(("tags", tags)) }
        if clickAnalytics { items.append(("clickAnalytics", "true")) }
        items.append(("limit", String(limit)))
        items.append(("offset", String(offset)))
        return items
    }

    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        let digits = bytes.enumerated().filter { $0.offset != 4 && $0.offset != 7 }.map(\.element)
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)),
              let month = Int(String(decoding: bytes[5..<7], as: UTF8.self)), (1...12).contains(month),
              let day = Int(String(decoding: bytes[8..<10], as: UTF8.self))
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}

/// Click and conversion figures of a search or a hit, from the Insights events that name the
/// searches' `queryID`s (Algolia's `...WithAnalytics` items).
public struct ClickAnalytics: Sendable, Hashable {
    /// Tracked searches with at least one click, over tracked searches; nil without tracked searches.
    public var clickThroughRate: Double?
    /// The mean position of the clicks (from 1); nil without clicks.
    public var averageClickPosition: Double?
    /// Clicks per position bucket: 1 to 10 one by one, then 11–20, then 21 and after (`[21, -1]`).
    public var clickPositions: [(positions: [Int], clickCount: Int)]
    /// Tracked searches with at least one conversion, over tracked searches; nil without tracked searches.
    public var conversionRate: Double?
    /// Searches made with `clickAnalytics` (that have a `queryID`).
    public var trackedSearchCount: Int
    /// Clicks on their results.
    public var clickCount: Int
    /// Conversions after them.
    public var conversionCount: Int

    /// Figures as given.
    public init(clickThroughRate: Double?, averageClickPosition: Double?, clickPositions: [(positions: [Int], clickCount: Int)],
                conversionRate: Double?, trackedSearchCount: Int, clickCount: Int, conversionCount: Int) {
        self.clickThroughRate = clickThroughRate
        self.averageClickPosition = averageClickPosition
        self.clickPositions = clickPositions
        self.conversionRate = conversionRate
        self.trackedSearchCount = trackedSearchCount
        self.clickCount = clickCount
        self.conversionCount = conversionCount
    }

    /// The position buckets of Algolia's click positions: 1 … 10, 11–20, 21 and after.
    public static let positionBuckets: [[Int]] = (1...10).map { [$0, $0] } + [[11, 20], [21, -1]]

    /// Whether every figure is the same.
    public static func == (lhs: ClickAnalytics, rhs: ClickAnalytics) -> Bool {
        lhs.clickThroughRate == rhs.clickThroughRate && lhs.averageClickPosition == rhs.averageClickPosition
            && lhs.clickPositions.map(\.positions) == rhs.clickPositions.map(\.positions)
            && lhs.clickPositions.map(\.clickCount) == rhs.clickPositions.map(\.clickCount)
            && lhs.conversionRate == rhs.conversionRate && lhs.trackedSearchCount == rhs.trackedSearchCount
            && lhs.clickCount == rhs.clickCount && lhs.conversionCount == rhs.conversionCount
    }

    /// Hashes the counts.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(trackedSearchCount)
        hasher.combine(clickCount)
        hasher.combine(conversionCount)
    }

    func add(to object: inout JSONObject, countKey: String) {
        object.appendUnique("clickThroughRate", clickThroughRate.map { .double($0) } ?? .null)
        if countKey == "trackedSearchCount" {
            object.appendUnique("averageClickPosition", averageClickPosition.map { .double($0) } ?? .null)
            object.appendUnique("clickPositions", .array(clickPositions.map { bucket in
                ["position": .array(bucket.positions.map { .int(Int64($0)) }), "clickCount": .int(Int64(bucket.clickCount))]
            }))
        }
        object.appendUnique("conversionRate", conversionRate.map { .double($0) } ?? .null)
        object.appendUnique(countKey, .int(Int64(trackedSearchCount)))
        object.appendUnique("clickCount", .int(Int64(clickCount)))
        object.appendUnique("conversionCount", .int(Int64(conversionCount)))
    }
}

/// `GET /2/searches`: the most frequent searches, most frequent first.
public struct TopSearchesReport: Sendable, Hashable {
    /// One search, as normalized (lowercased, spaces collapsed).
    public struct Item: Sendable, Hashable {
        /// The query.
        public var search: String
        /// How many times it was searched (the query a user settled on, not each keystroke).
        public var count: Int
        /// Its average number of hits.
        public var nbHits: Int
        /// Click and conversion figures, when the request asked for `clickAnalytics`.
        public var clickAnalytics: ClickAnalytics?

        /// An item as given.
        public init(search: String, count: Int, nbHits: Int, clickAnalytics: ClickAnalytics? = nil) {
            self.search = search
            self.count = count
            self.nbHits = nbHits
            self.clickAnalytics = clickAnalytics
        }
    }

    /// The searches of the page asked for.
    public var searches: [Item]

    /// A report of these searches.
    public init(searches: [Item]) { self.searches = searches }

    /// `{"searches": [{"search", "count", "nbHits", …click figures}]}`
    public var jsonValue: JSONValue {
        ["searches": .array(searches.map { item in
            var object: JSONObject = ["search": .string(item.search), "count": .int(Int64(item.count))]
            item.clickAnalytics?.add(to: &object, countKey: "trackedSearchCount")
            object.appendUnique("nbHits", .int(Int64(item.nbHits)))
            return .object(object)
        })]
    }
}

/// `GET /2/searches/noResults`: the most frequent searches that found nothing.
public struct NoResultSearchesReport: Sendable, Hashable {
    /// One search without results.
    public struct Item: Sendable, Hashable {
        /// The query.
        public var search: String
        /// How many times it was searched and found nothing.
        public var count: Int
        /// How many of those searches had filters.
        public var withFilterCount: Int

        /// An item as given.
        public init(search: String, count: Int, withFilterCount: Int) {
            self.search = search
            self.count = count
            self.withFilterCount = withFilterCount
        }
    }

    /// The searches of the page asked for.
    public var searches: [Item]

    /// A report of these searches.
    public init(searches: [Item]) { self.searches = searches }

    /// `{"searches": [{"search", "count", "withFilterCount"}]}`
    public var jsonValue: JSONValue {
        ["searches": .array(searches.map {
            ["search": .string($0.search), "count": .int(Int64($0.count)), "withFilterCount": .int(Int64($0.withFilterCount))]
        })]
    }
}

/// `GET /2/searches/count`: how many searches, in all and per day of the period.
public struct SearchCountReport: Sendable, Hashable {
    /// Searches in the whole period.
    public var count: Int
    /// Every day of the period, oldest first, with its searches (0 included).
    public var dates: [(date: String, count: Int)]

    /// A report as given.
    public init(count: Int, dates: [(date: String, count: Int)]) {
        self.count = count
        self.dates = dates
    }

    /// Whether the counts and days are the same.
    public static func == (lhs: SearchCountReport, rhs: SearchCountReport) -> Bool {
        lhs.count == rhs.count && lhs.dates.map(\.date) == rhs.dates.map(\.date) && lhs.dates.map(\.count) == rhs.dates.map(\.count)
    }

    /// Hashes the total.
    public func hash(into hasher: inout Hasher) { hasher.combine(count) }

    /// `{"count", "dates": [{"date", "count"}]}`
    public var jsonValue: JSONValue {
        ["count": .int(Int64(count)), "dates": .array(dates.map { ["date": .string($0.date), "count": .int(Int64($0.count))] })]
    }
}

/// `GET /2/hits`: the records that came up most often on the first page of the searches.
public struct TopHitsReport: Sendable, Hashable {
    /// One record.
    public struct Item: Sendable, Hashable {
        /// Its objectID.
        public var hit: String
        /// How many counted searches showed it.
        public var count: Int
        /// Click and conversion figures (`trackedHitCount` for `trackedSearchCount`), when asked.
        public var clickAnalytics: ClickAnalytics?

        /// An item as given.
        public init(hit: String, count: Int, clickAnalytics: ClickAnalytics? = nil) {
            self.hit = hit
            self.count = count
            self.clickAnalytics = clickAnalytics
        }
    }

    /// The records of the page asked for.
    public var hits: [Item]

    /// A report of these records.
    public init(hits: [Item]) { self.hits = hits }

    /// `{"hits": [{"hit", "count", …click figures}]}`
    public var jsonValue: JSONValue {
        ["hits": .array(hits.map { item in
            var object: JSONObject = ["hit": .string(item.hit), "count": .int(Int64(item.count))]
            item.clickAnalytics?.add(to: &object, countKey: "trackedHitCount")
            return .object(object)
        })]
    }
}

/// `GET /2/filters` (the attributes filtered on most) and `GET /2/filters/{attribute}` (the
/// values of one attribute filtered on most).
public struct TopFiltersReport: Sendable, Hashable {
    /// One filter: an attribute, or an attribute with its operator and value.
    public struct Item: Sendable, Hashable {
        /// The attribute.
        public var attribute: String
        /// The operator (`:` for a facet, `<`, `<=`, `=`, `!=`, `>=`, `>` for a number); nil in the attributes list.
        public var `operator`: String?
        /// The value; nil in the attributes list.
        public var value: String?
        /// How many counted searches used it.
        public var count: Int

        /// An item as given.
        public init(attribute: String, operator: String? = nil, value: String? = nil, count: Int) {
            self.attribute = attribute
            self.operator = `operator`
            self.value = value
            self.count = count
        }
    }

    /// The filters of the page asked for.
    public var items: [Item]
    /// Whether the items are values of one attribute (`/2/filters/{attribute}`).
    public var valuesOfAttribute: Bool

    /// A report of these filters.
    public init(items: [Item], valuesOfAttribute: Bool) {
        self.items = items
        self.valuesOfAttribute = valuesOfAttribute
    }

    /// `{"attributes": [{"attribute", "count"}]}`, or `{"values": [{"attribute", "operator", "value", "count"}]}`
    public var jsonValue: JSONValue {
        if valuesOfAttribute {
            return ["values": .array(items.map {
                ["attribute": .string($0.attribute), "operator": .string($0.operator ?? ":"), "value": .string($0.value ?? ""),
                 "count": .int(Int64($0.count))]
            })]
        }
        return ["attributes": .array(items.map { ["attribute": .string($0.attribute), "count": .int(Int64($0.count))] })]
    }
}

/// Algolia's Analytics API, read: implemented by the local engine from the searches it
/// answered and the Insights events it received.
public protocol SearchAnalyticsService: Sendable {
    /// The most frequent searches (`GET /2/searches`).
    func topSearches(_ request: AnalyticsRequest) async throws(SearchError) -> TopSearchesReport
    /// The most frequent searches without results (`GET /2/searches/noResults`).
    func searchesWithoutResults(_ request: AnalyticsRequest) async throws(SearchError) -> NoResultSearchesReport
    /// How many searches, per day (`GET /2/searches/count`).
    func searchCount(_ request: AnalyticsRequest) async throws(SearchError) -> SearchCountReport
    /// The records most often on the first page (`GET /2/hits`).
    func topHits(_ request: AnalyticsRequest) async throws(SearchError) -> TopHitsReport
    /// The attributes filtered on most (`GET /2/filters`), or the values of one (`GET /2/filters/{attribute}`).
    func topFilters(_ request: AnalyticsRequest, attribute: String?) async throws(SearchError) -> TopFiltersReport
}
