/// One event of Algolia's Insights API (`POST /1/events`): a user clicked, converted on or
/// viewed records (or filters), usually after a search whose `queryID` it carries.
///
/// ```swift
/// let click = InsightsEvent.clickedObjectIDsAfterSearch(
///     eventName: "Product Clicked", indexName: "instant_search", userToken: "user-42",
///     queryID: response.queryID!, objectIDs: ["4387"], positions: [3])
/// try await insights.sendEvents([click])
/// ```
public struct InsightsEvent: Sendable, Hashable {
    /// What the user did.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Clicked records or filters.
        case click
        /// Converted: bought, added to a cart, signed up… after seeing the records.
        case conversion
        /// Viewed records or filters.
        case view
    }

    /// `eventType`.
    public var kind: Kind
    /// `eventName`: 1 to 64 printable ASCII characters (`"Product Clicked"`).
    public var eventName: String
    /// `eventSubtype` of a conversion (`addToCart`, `purchase`), when given.
    public var eventSubtype: String?
    /// `index`: the index the records belong to.
    public var indexName: String
    /// `userToken`: the (pseudonymous) user, 1 to 129 characters of `a-zA-Z0-9_=/+-`.
    public var userToken: String
    /// `authenticatedUserToken`, when given.
    public var authenticatedUserToken: String?
    /// `timestamp`: milliseconds since 1970; the time the event is received when nil.
    public var timestamp: Int64?
    /// `queryID` of the search the event follows (32 hexadecimal digits), if it follows one.
    public var queryID: String?
    /// `objectIDs`: the records (at most 20); empty for an event about filters.
    public var objectIDs: [String]
    /// `positions`: each record's position in the results, counted from 1 (a click after a
    /// search has one per objectID).
    public var positions: [Int]?
    /// `filters` (`"brand:Apple"`) of an event about filters; empty otherwise.
    public var filters: [String]

    /// An event with every field given; see the named constructors for Algolia's kinds.
    public init(kind: Kind, eventName: String, indexName: String, userToken: String, queryID: String? = nil,
                objectIDs: [String] = [], positions: [Int]? = nil, filters: [String] = [], timestamp: Int64? = nil,
                eventSubtype: String? = nil, authenticatedUserToken: String? = nil) {
        self.kind = kind
        self.eventName = eventName
        self.indexName = indexName
        self.userToken = userToken
        self.queryID = queryID
        self.objectIDs = objectIDs
        self.positions = positions
        self.filters = filters
        self.timestamp = timestamp
        self.eventSubtype = eventSubtype
        self.authenticatedUserToken = authenticatedUserToken
    }

    /// Algolia's `clickedObjectIDsAfterSearch`: hits clicked at these positions (from 1) in
    /// the results of the search `queryID`.
    public static func clickedObjectIDsAfterSearch(eventName: String, indexName: String, userToken: String, queryID: String,
                                                   objectIDs: [String], positions: [Int], timestamp: Int64? = nil) -> InsightsEvent {
        InsightsEvent(kind: .click, eventName: eventName, indexName: indexName, userToken: userToken, queryID: queryID,
                      objectIDs: objectIDs, positions: positions, timestamp: timestamp)
    }

    /// Algolia's `convertedObjectIDsAfterSearch`: records converted on after the search `queryID`.
    public static func convertedObjectIDsAfterSearch(eventName: String, indexName: String, userToken: String, queryID: String,
                                                     objectIDs: [String], timestamp: Int64? = nil) -> InsightsEvent {
        InsightsEvent(kind: .conversion, eventName: eventName, indexName: indexName, userToken: userToken, queryID: queryID,
                      objectIDs: objectIDs, timestamp: timestamp)
    }

    /// Algolia's `viewedObjectIDs`: records the user saw.
    public static func viewedObjectIDs(eventName: String, indexName: String, userToken: String, objectIDs: [String],
                                       timestamp: Int64? = nil) -> InsightsEvent {
        InsightsEvent(kind: .view, eventName: eventName, indexName: indexName, userToken: userToken, objectIDs: objectIDs,
                      timestamp: timestamp)
    }

    /// Reads one element of the `events` array, with the Insights API's validation: each
    /// error names the event (`events[3]`), the field, and what was expected.
    public init(json: JSONValue, at place: String = "event") throws(SearchError) {
        guard case .object(let object) = json else {
            throw SearchError(.invalidJSON, "\(place): expected a JSON object such as {\"eventType\": \"click\", \"eventName\": \"Hit Clicked\", …}")
        }
        func string(_ key: String, required: Bool) throws(SearchError) -> String? {
            guard let value = object[key], value != .null else {
                if required { throw SearchError(.invalidParameter, "\(place).\(key) is required") }
                return nil
            }
            guard let text = value.stringValue else {
                throw SearchError(.invalidParameter, "\(place).\(key): expected a string, got \(value.jsonString.prefix(60))")
            }
            return text
        }
        func strings(_ key: String) throws(SearchError) -> [String]? {
            guard let value = object[key], value != .null else { return nil }
            guard let items = value.arrayValue else {
                throw SearchError(.invalidParameter, "\(place).\(key): expected an array of strings")
            }
            var result: [String] = []
            for item in items {
                guard let text = item.stringValue else {
                    throw SearchError(.invalidParameter, "\(place).\(key): expected an array of strings, got \(item.jsonString.prefix(60))")
                }
                result.append(text)
            }
            return result
        }
        let typeName = try string("eventType", required: true)!
        guard let kind = Kind(rawValue: typeName) else {
            throw SearchError(.invalidParameter, "\(place).eventType: expected \"click\", \"conversion\" or \"view\", got \"\(typeName)\"")
        }
        let name = try string("eventName", required: true)!
        guard (1...64).contains(name.utf8.count), name.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw SearchError(.invalidParameter, "\(place).eventName: expected 1 to 64 printable ASCII characters, got \"\(name.prefix(80))\"")
        }
        let index = try string("index", required: true)!
        guard !index.isEmpty else { throw SearchError(.invalidParameter, "\(place).index: expected an index name") }
        let user = try string("userToken", required: true)!
        guard InsightsEvent.isValidUserToken(user) else {
            throw SearchError(.invalidParameter, "\(place).userToken: expected 1 to 129 characters among a-z A-Z 0-9 _ = / + -, got \"\(user.prefix(80))\"")
        }
        let authenticated = try string("authenticatedUserToken", required: false)
        if let authenticated, !InsightsEvent.isValidUserToken(authenticated) {
            throw SearchError(.invalidParameter, "\(place).authenticatedUserToken: expected 1 to 129 characters among a-z A-Z 0-9 _ = / + -")
        }
        let queryID = try string("queryID", required: false)
        if let queryID, !InsightsEvent.isValidQueryID(queryID) {
            throw SearchError(.invalidParameter, "\(place).queryID: expected the 32 hexadecimal digits of a search response's queryID, got \"\(queryID.prefix(80))\"")
        }
        let objectIDs = try strings("objectIDs") ?? []
        let filters = try strings("filters") ?? []
        if objectIDs.isEmpty == filters.isEmpty {
            throw SearchError(.invalidParameter, "\(place): expected either objectIDs or filters (one of them, not empty)")
        }
        if objectIDs.count > 20 || filters.count > 20 {
            throw SearchError(.invalidParameter, "\(place): at most 20 objectIDs or filters per event, got \(max(objectIDs.count, filters.count))")
        }
        var positions: [Int]?
        if let value = object["positions"], value != .null {
            guard let items = value.arrayValue, items.allSatisfy({ (1...Int(Int32.max)).contains($0.intValue ?? 0) }) else {
                throw SearchError(.invalidParameter, "\(place).positions: expected an array of positions counted from 1 (at most 2,147,483,647)")
            }
            positions = items.compactMap(\.intValue)
            guard positions!.count == objectIDs.count else {
                throw SearchError(.invalidParameter, "\(place).positions: expected one position per objectID (\(objectIDs.count)), got \(positions!.count)")
            }
        }
        if kind == .click, queryID != nil, !objectIDs.isEmpty, positions == nil {
            throw SearchError(.invalidParameter, "\(place).positions is required for a click after a search (one per objectID)")
        }
        var timestamp: Int64?
        if let value = object["timestamp"], value != .null {
            guard let number = value.doubleValue, number >= 0, number < 1e15, number == number.rounded() else {
                throw SearchError(.invalidParameter, "\(place).timestamp: expected milliseconds since 1970 (an integer)")
            }
            timestamp = Int64(number)
        }
        self.init(kind: kind, eventName: name, indexName: index, userToken: user, queryID: queryID, objectIDs: objectIDs,
                  positions: positions, filters: filters, timestamp: timestamp,
                  eventSubtype: try string("eventSubtype", required: false), authenticatedUserToken: authenticated)
    }

    /// The event in the Insights API's JSON.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["eventType": .string(kind.rawValue), "eventName": .string(eventName), "index": .string(indexName),
                                  "userToken": .string(userToken)]
        if let eventSubtype { object.appendUnique("eventSubtype", .string(eventSubtype)) }
        if let authenticatedUserToken { object.appendUnique("authenticatedUserToken", .string(authenticatedUserToken)) }
        if let queryID { object.appendUnique("queryID", .string(queryID)) }
        if !objectIDs.isEmpty { object.appendUnique("objectIDs", .array(objectIDs.map { .string($0) })) }
        if let positions { object.appendUnique("positions", .array(positions.map { .int(Int64($0)) })) }
        if !filters.isEmpty { object.appendUnique("filters", .array(filters.map { .string($0) })) }
        if let timestamp { object.appendUnique("timestamp", .int(timestamp)) }
        return .object(object)
    }

    /// Reads the body of `POST /1/events`: `{"events": [...]}`, 1 to 1,000 events.
    public static func events(inBody json: JSONValue) throws(SearchError) -> [InsightsEvent] {
        guard let items = json["events"]?.arrayValue else {
            throw SearchError(.invalidJSON, "body: expected {\"events\": [...]} with 1 to 1,000 events")
        }
        guard (1...1000).contains(items.count) else {
            throw SearchError(.invalidParameter, "events: expected 1 to 1,000 events, got \(items.count)")
        }
        var events: [InsightsEvent] = []
        events.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { events.append(try InsightsEvent(json: item, at: "events[\(i)]")) }
        return events
    }

    /// The body of `POST /1/events` for these events.
    public static func body(_ events: [InsightsEvent]) -> JSONValue {
        ["events": .array(events.map(\.jsonValue))]
    }

    static func isValidUserToken(_ token: String) -> Bool {
        (1...129).contains(token.utf8.count) && token.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }

    static func isValidQueryID(_ queryID: String) -> Bool {
        queryID.utf8.count == 32 && queryID.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}

/// Where a hits interactor reports what a user did with the results: Algolia's Insights API
/// (the remote client), or the local engine, which keeps the events beside its search
/// analytics and uses them for click-through and conversion rates.
public protocol InsightsService: Sendable {
    /// Sends (or records) events; fails whole when one is invalid.
    func sendEvents(_ events: [InsightsEvent]) async throws(SearchError)
}
