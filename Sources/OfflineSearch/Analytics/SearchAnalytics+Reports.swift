import Foundation
import SearchAPI

// The reports of Algolia's Analytics API, read from the counted searches and the events.
extension SearchAnalytics {
    /// The most frequent searches, most frequent first (ties by query).
    public func topSearches(_ request: AnalyticsRequest) throws(SearchError) -> TopSearchesReport {
        let (searches, clicks) = try read(request)
        var groups: [String: [CountedSearch]] = [:]
        for search in searches { groups[search.normalized, default: []].append(search) }
        let items = groups.map { query, group in
            let count = group.reduce(0) { $0 + $1.weight }
            return TopSearchesReport.Item(search: query, count: count,
                                   nbHits: Int((group.reduce(0.0) { $0 + Double($1.nbHits) * Double($1.weight) } / Double(max(count, 1))).rounded()),
                                   clickAnalytics: request.clickAnalytics ? clicks.figures(for: group) : nil)
        }
        .sorted { ($0.count, $1.search) > ($1.count, $0.search) }
        return TopSearchesReport(searches: page(items, request))
    }

    /// The most frequent searches that found nothing.
    public func searchesWithoutResults(_ request: AnalyticsRequest) throws(SearchError) -> NoResultSearchesReport {
        let (searches, _) = try read(request)
        var groups: [String: (count: Int, filtered: Int)] = [:]
        for search in searches where search.nbHits == 0 {
            groups[search.normalized, default: (0, 0)].count += search.weight
            if search.filters != nil { groups[search.normalized]!.filtered += search.weight }
        }
        let items = groups.map { NoResultSearchesReport.Item(search: $0.key, count: $0.value.count, withFilterCount: $0.value.filtered) }
            .sorted { ($0.count, $1.search) > ($1.count, $0.search) }
        return NoResultSearchesReport(searches: page(items, request))
    }

    /// How many searches in the period, and on each of its days.
    public func searchCount(_ request: AnalyticsRequest) throws(SearchError) -> SearchCountReport {
        let period = try Period(request, today: configuration.now())
        let (searches, _) = try read(request, period: period)
        var perDay: [String: Int] = [:]
        for search in searches { perDay[Period.day(search.at), default: 0] += search.weight }
        return SearchCountReport(count: searches.reduce(0) { $0 + $1.weight }, dates: period.days.map { ($0, perDay[$0] ?? 0) })
    }

    /// The records most often on the first page of the counted searches.
    public func topHits(_ request: AnalyticsRequest) throws(SearchError) -> TopHitsReport {
        let (searches, clicks) = try read(request)
        var shown: [String: [CountedSearch]] = [:]
        for search in searches {
            for objectID in Set(search.hits) { shown[objectID, default: []].append(search) }
        }
        let items = shown.map { objectID, group in
            TopHitsReport.Item(hit: objectID, count: group.reduce(0) { $0 + $1.weight },
                               clickAnalytics: request.clickAnalytics ? clicks.figures(for: group, objectID: objectID) : nil)
        }
        .sorted { ($0.count, $1.hit) > ($1.count, $0.hit) }
        return TopHitsReport(hits: page(items, request))
    }

    /// The attributes filtered on most, or (with `attribute`) that attribute's values.
    public func topFilters(_ request: AnalyticsRequest, attribute: String? = nil) throws(SearchError) -> TopFiltersReport {
        let (searches, _) = try read(request)
        var counts: [TopFiltersReport.Item: Int] = [:]
        for search in searches {
            guard let text = search.filters else { continue }
            var used = Set<TopFiltersReport.Item>()
            for filter in SearchAnalytics.filters(in: text) where attribute == nil || filter.attribute == attribute {
                used.insert(attribute == nil ? TopFiltersReport.Item(attribute: filter.attribute, count: 0) : filter)
            }
            for item in used { counts[item, default: 0] += search.weight }
        }
        let items = counts.map { item, count in
            var counted = item
            counted.count = count
            return counted
        }
        .sorted { ($0.count, $1.attribute, $1.value ?? "") > ($1.count, $0.attribute, $0.value ?? "") }
        return TopFiltersReport(items: page(items, request), valuesOfAttribute: attribute != nil)
    }

    /// Every counted search of an index (for the Query Suggestions builder): the retention period.
    func allSearches(of indexName: String) throws(SearchError) -> [CountedSearch] {
        try flush()
        return try store.searches(of: indexName, from: 0, to: Int64.max)
    }

    private func read(_ request: AnalyticsRequest) throws(SearchError) -> ([CountedSearch], ClickFigures) {
        try read(request, period: try Period(request, today: configuration.now()))
    }

    private func read(_ request: AnalyticsRequest, period: Period) throws(SearchError) -> ([CountedSearch], ClickFigures) {
        try flush()
        let filter = TagFilter(request.tags)
        let searches = try store.searches(of: request.indexName, from: period.start, to: period.end).filter { filter.matches($0.tags) }
        guard request.clickAnalytics else { return (searches, ClickFigures(events: [])) }
        // Events come after their search: read up to a day past the period.
        let events = try store.events(of: request.indexName, from: period.start, to: period.end + 86_400_000)
        return (searches, ClickFigures(events: events.map(\.event)))
    }

    private func page<T>(_ items: [T], _ request: AnalyticsRequest) -> [T] {
        Array(items.dropFirst(max(0, request.offset)).prefix(max(0, request.limit)))
    }

    /// The filters of a search's stored `filters`, `facetFilters` and `numericFilters`.
    static func filters(in text: String) -> [TopFiltersReport.Item] {
        guard let object = (try? JSONValue(parsing: text))?.objectValue,
              let parameters = try? SearchParameters(json: object) else { return [] }
        var expressions: [FilterExpression] = []
        if let string = parameters.filters, let parsed = try? FilterParser.parse(string) { expressions.append(parsed) }
        for (key, list) in [("facetFilters", parameters.facetFilters), ("numericFilters", parameters.numericFilters)] {
            let parsed: FilterExpression?
            switch list {
            case .string(let string)?: parsed = try? FilterListParser.parseString(string, parameter: key)
            case .list(let items)?: parsed = try? FilterListParser.parse(items, parameter: key)
            case nil: parsed = nil
            }
            if let parsed { expressions.append(parsed) }
        }
        var items: [TopFiltersReport.Item] = []
        func walk(_ expression: FilterExpression) {
            switch expression {
            case .and(let children), .or(let children): children.forEach(walk)
            case .not: break
            case .facet(let attribute, let value): items.append(.init(attribute: attribute, operator: ":", value: value, count: 0))
            case .numeric(let attribute, let comparison, let value):
                items.append(.init(attribute: attribute, operator: comparison.rawValue, value: JSONValue.double(value).scalarText ?? "", count: 0))
            case .numericRange(let attribute, let lower, let upper):
                items.append(.init(attribute: attribute, operator: ":",
                                   value: (JSONValue.double(lower).scalarText ?? "") + " TO " + (JSONValue.double(upper).scalarText ?? ""), count: 0))
            case .tag: break
            }
        }
        expressions.forEach(walk)
        return items
    }
}

/// The days a report covers: `startDate` through `endDate` (UTC), Algolia's default the last 8 days.
struct Period {
    var start: Int64
    var end: Int64
    var days: [String]

    init(_ request: AnalyticsRequest, today: Date) throws(SearchError) {
        let todayNumber = Int64((today.timeIntervalSince1970 / 86_400).rounded(.down))
        let last = request.endDate.map(Period.dayNumber) ?? todayNumber
        let first = request.startDate.map(Period.dayNumber) ?? last - 7
        guard first <= last else {
            throw SearchError(.invalidParameter, "startDate (\(Period.day(first * 86_400_000))) is after endDate (\(Period.day(last * 86_400_000)))")
        }
        guard last - first <= 3_660 else { throw SearchError(.invalidParameter, "the period is longer than ten years") }
        start = first * 86_400_000
        end = (last + 1) * 86_400_000
        days = (first...last).map { Period.day($0 * 86_400_000) }
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` date (checked by `AnalyticsRequest`).
    static func dayNumber(_ date: String) -> Int64 {
        let parts = date.split(separator: "-").compactMap { Int64($0) }
        guard parts.count == 3 else { return 0 }
        // Howard Hinnant's days_from_civil.
        let y = parts[1] <= 2 ? parts[0] - 1 : parts[0]
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = parts[1], d = parts[2]
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The `YYYY-MM-DD` day (UTC) of a time in milliseconds.
    static func day(_ milliseconds: Int64) -> String {
        let z = (milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yearOfEra + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))"
    }
}

/// The `tags` of an Analytics API call: tags joined by ` OR ` of tags joined by ` AND `
/// (parentheses ignored); nil keeps every search.
struct TagFilter {
    private let alternatives: [[String]]?

    init(_ expression: String?) {
        guard let expression else {
            alternatives = nil
            return
        }
        let plain = expression.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " ")
        alternatives = plain.components(separatedBy: " OR ").map { group in
            group.components(separatedBy: " AND ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        .filter { !$0.isEmpty }
    }

    func matches(_ tags: [String]) -> Bool {
        guard let alternatives else { return true }
        return alternatives.contains { group in group.allSatisfy(tags.contains) }
    }
}

/// The clicks and conversions on searches, by `queryID`.
struct ClickFigures {
    private var clicks: [String: [(objectID: String, position: Int?)]] = [:]
    private var conversions: [String: [String]] = [:]

    init(events: [InsightsEvent]) {
        for event in events {
            guard let queryID = event.queryID else { continue }
            switch event.kind {
            case .click:
                for (i, objectID) in event.objectIDs.enumerated() {
                    clicks[queryID, default: []].append((objectID, event.positions.flatMap { i < $0.count ? $0[i] : nil }))
                }
            case .conversion:
                conversions[queryID, default: []].append(contentsOf: event.objectIDs)
            case .view: break
            }
        }
    }

    /// The figures of a group of searches; with `objectID`, of the clicks and conversions on that record.
    func figures(for searches: [CountedSearch], objectID: String? = nil) -> ClickAnalytics {
        var tracked = 0, withClick = 0, withConversion = 0, clickCount = 0, conversionCount = 0
        var positions: [Double] = []
        for search in searches {
            guard let queryID = search.queryID else { continue }
            tracked += 1
            let searchClicks = (clicks[queryID] ?? []).filter { objectID == nil || $0.objectID == objectID }
            let searchConversions = (conversions[queryID] ?? []).filter { objectID == nil || $0 == objectID }
            if !searchClicks.isEmpty { withClick += 1 }
            if !searchConversions.isEmpty { withConversion += 1 }
            clickCount += searchClicks.count
            conversionCount += searchConversions.count
            positions += searchClicks.compactMap(\.position).map(Double.init)
        }
        let buckets = ClickAnalytics.positionBuckets.map { bucket in
            (positions: bucket, clickCount: positions.filter { $0 >= Double(bucket[0]) && (bucket[1] == -1 || $0 <= Double(bucket[1])) }.count)
        }
        return ClickAnalytics(
            clickThroughRate: tracked == 0 ? nil : Double(withClick) / Double(tracked),
            averageClickPosition: positions.isEmpty ? nil : positions.reduce(0, +) / Double(positions.count),
            clickPositions: buckets,
            conversionRate: tracked == 0 ? nil : Double(withConversion) / Double(tracked),
            trackedSearchCount: tracked, clickCount: clickCount, conversionCount: conversionCount)
    }
}
