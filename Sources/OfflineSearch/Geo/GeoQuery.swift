import SearchAPI

/// An area of `insideBoundingBox` or `insidePolygon`.
enum GeoArea: Hashable, Sendable {
    /// A rectangle between two opposite corners (the smaller and larger latitude and longitude
    /// of the two, so it never crosses the 180th meridian).
    case rectangle(GeoRectangle)
    /// A polygon's vertices; its edges are straight lines in latitude and longitude.
    case polygon([GeoPoint])

    /// Rectangles holding the whole area, for the grid.
    var boundingRectangles: [GeoRectangle] {
        switch self {
        case .rectangle(let rectangle):
            return [rectangle]
        case .polygon(let vertices):
            let lats = vertices.map(\.lat), lngs = vertices.map(\.lng)
            return [GeoRectangle(latMin: lats.min()!, latMax: lats.max()!, lngMin: lngs.min()!, lngMax: lngs.max()!)]
        }
    }

    /// Whether the point is inside (a polygon by the even-odd rule: a ray from the point crosses
    /// its edges an odd number of times).
    func contains(lat: Double, lng: Double) -> Bool {
        switch self {
        case .rectangle(let rectangle):
            return rectangle.contains(lat: lat, lng: lng)
        case .polygon(let vertices):
            var inside = false
            var previous = vertices[vertices.count - 1]
            for vertex in vertices {
                if (vertex.lat > lat) != (previous.lat > lat) {
                    let crossing = vertex.lng + (lat - vertex.lat) * (previous.lng - vertex.lng) / (previous.lat - vertex.lat)
                    if lng < crossing { inside.toggle() }
                }
                previous = vertex
            }
            return inside
        }
    }
}

/// `aroundPrecision`: the size of the distance groups the `geo` criterion ranks by, as one
/// size or as `{from, value}` ranges (the size for distances from `from` on).
struct GeoPrecision: Hashable, Sendable {
    /// Sorted by `from`; the first starts at 0.
    let ranges: [Range]

    struct Range: Hashable, Sendable {
        var from: Double
        var value: Double
    }

    /// Algolia's default and smallest size: 10 metres.
    static let minimum = 10.0
    /// The most `{from, value}` ranges read (a limit of this engine: each hit's group walks them).
    static let maximumRanges = 100
    static let `default` = GeoPrecision(ranges: [Range(from: 0, value: minimum)])

    init(ranges: [Range]) { self.ranges = ranges }

    init(_ value: JSONValue) throws(SearchError) {
        func size(_ value: JSONValue?) -> Double? {
            guard let number = value.flatMap(GeoPoint.number), number >= 0 else { return nil }
            return max(number, GeoPrecision.minimum)
        }
        let expected = "a number of metres, or a list of {\"from\": metres, \"value\": metres} ranges"
        var value = value
        if case .string(let text) = value, text.trimmingSpaces.hasPrefix("[") {
            guard let parsed = try? JSONValue(parsing: text) else { throw .invalidParameter("aroundPrecision", expected: expected, got: value.jsonString) }
            value = parsed
        }
        if case .array(let elements) = value {
            var ranges: [Range] = []
            for element in elements {
                guard case .object(let range) = element, let from = range["from"]?.doubleValue, from.isFinite, from >= 0,
                      let size = size(range["value"])
                else { throw .invalidParameter("aroundPrecision", expected: expected, got: element.jsonString) }
                // No distance on the Earth is larger than half its circumference.
                ranges.append(Range(from: min(from, GeoSearch.everywhere), value: min(size, GeoSearch.everywhere)))
            }
            guard ranges.count <= GeoPrecision.maximumRanges else {
                throw .invalidParameter("aroundPrecision", expected: "at most \(GeoPrecision.maximumRanges) ranges", got: "\(ranges.count) ranges")
            }
            ranges.sort { $0.from < $1.from }
            if ranges.first.map({ $0.from > 0 }) ?? true { ranges.insert(Range(from: 0, value: GeoPrecision.minimum), at: 0) }
            self.init(ranges: ranges)
        } else {
            guard let size = size(value) else { throw .invalidParameter("aroundPrecision", expected: expected, got: value.jsonString) }
            self.init(ranges: [Range(from: 0, value: min(size, GeoSearch.everywhere))])
        }
    }

    /// The group size that applies at `distance`.
    func size(at distance: Double) -> Double {
        var size = ranges[0].value
        for range in ranges where range.from <= distance { size = range.value }
        return size
    }

    /// The `geo` criterion's value (`_rankingInfo.geoDistance`): the distance divided by the
    /// precision there. With ranges, the groups of a range start where the range starts, and
    /// follow the groups of the ranges before it, so a farther record never ranks first.
    func group(of distance: Double) -> Int {
        var before = 0
        for (index, range) in ranges.enumerated() {
            let end = index + 1 < ranges.count ? ranges[index + 1].from : .infinity
            if distance < end || index == ranges.count - 1 {
                return before + Int(((distance - range.from) / range.value).rounded(.down))
            }
            before += Int(((end - range.from) / range.value).rounded(.up))
        }
        return before
    }
}

/// The geo parameters of a search: where records must be, and what the `geo` criterion ranks
/// by. Read once per request from `aroundLatLng`, `aroundRadius`, `aroundPrecision`,
/// `minimumAroundRadius`, `insideBoundingBox` and `insidePolygon`.
struct GeoQuery: Hashable, Sendable {
    enum Radius: Hashable, Sendable {
        case metres(Double)
        /// `"all"`: no distance limit (records still need a location).
        case all
        /// No `aroundRadius`: from the density of records around the center (see
        /// `GeoSearch.automaticRadius`), at least `minimum`.
        case automatic(minimum: Double?)
    }

    /// `aroundLatLng`, unless areas are given (then Algolia ignores it).
    var center: GeoPoint?
    var radius: Radius
    var precision: GeoPrecision
    /// `insideBoundingBox` (ORed), or else `insidePolygon` (ORed); a record matches when one of
    /// its locations is inside one of them.
    var areas: [GeoArea]

    /// The geo part of `parameters`; nil when it has none.
    init?(_ parameters: SearchParameters) throws(SearchError) {
        let other = parameters.other
        if let viaIP = other["aroundLatLngViaIP"], try ParameterReader(name: "aroundLatLngViaIP", value: viaIP).bool() {
            throw SearchError(.invalidParameter, "aroundLatLngViaIP: there is no IP geolocation offline; send the location as aroundLatLng, \"latitude, longitude\"")
        }
        if let boxes = other["insideBoundingBox"], boxes != .null, boxes != .string("") {
            areas = try GeoQuery.numberGroups(boxes, name: "insideBoundingBox", size: { $0 == 4 },
                                              expected: "[[lat1, lng1, lat2, lng2], ...] or \"lat1,lng1,lat2,lng2\"").map { numbers in
                .rectangle(GeoRectangle(latMin: min(numbers[0], numbers[2]), latMax: max(numbers[0], numbers[2]),
                                        lngMin: min(numbers[1], numbers[3]), lngMax: max(numbers[1], numbers[3])))
            }
        } else if let polygons = other["insidePolygon"], polygons != .null, polygons != .string("") {
            areas = try GeoQuery.numberGroups(polygons, name: "insidePolygon", size: { $0 >= 6 && $0 % 2 == 0 },
                                              expected: "[[lat1, lng1, lat2, lng2, lat3, lng3, ...], ...] (3 points or more)").map { numbers in
                .polygon(stride(from: 0, to: numbers.count, by: 2).map { GeoPoint(lat: numbers[$0], lng: numbers[$0 + 1])! })
            }
        } else {
            areas = []
        }
        if areas.isEmpty, let around = other["aroundLatLng"], around != .null, around != .string("") {
            let text = try ParameterReader(name: "aroundLatLng", value: around).string()
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
            guard parts.count == 2, let lat = parts[0], let lng = parts[1], let point = GeoPoint(lat: lat, lng: lng) else {
                throw .invalidParameter("aroundLatLng", expected: "\"latitude, longitude\" with a latitude from -90 to 90 and a longitude from -180 to 180, such as \"40.71, -74.01\"", got: around.jsonString)
            }
            center = point
        } else {
            center = nil
        }
        switch other["aroundRadius"] {
        case nil, .null?:
            radius = .automatic(minimum: try other["minimumAroundRadius"].map { value throws(SearchError) in
                Double(try ParameterReader(name: "minimumAroundRadius", value: value).int(in: 1...Int(Int32.max)))
            })
        case .string(let text)? where text.trimmingSpaces == "all":
            radius = .all
        case let value?:
            radius = .metres(Double(try ParameterReader(name: "aroundRadius", value: value).int(in: 1...Int(Int32.max))))
        }
        precision = try other["aroundPrecision"].map { value throws(SearchError) in try GeoPrecision(value) } ?? .default
        guard center != nil || !areas.isEmpty else { return nil }
    }

    /// Groups of numbers: nested arrays (`[[a, b, c, d], ...]`), one flat array or a string of
    /// comma-separated numbers (the forms older clients send), cut into groups of a size
    /// `size` accepts. Coordinates must be valid latitudes and longitudes.
    static func numberGroups(_ value: JSONValue, name: String, size: (Int) -> Bool, expected: String) throws(SearchError) -> [[Double]] {
        func fail() -> SearchError { .invalidParameter(name, expected: expected, got: value.jsonString) }
        guard let groups = GeoAreaForms.numberGroups(value, boxes: name == "insideBoundingBox") else { throw fail() }
        guard !groups.isEmpty else { throw fail() }
        // Limits of this engine, so one request cannot make every hit walk a huge shape.
        guard groups.count <= 100, groups.allSatisfy({ $0.count <= 2_000 }) else {
            throw .invalidParameter(name, expected: "at most 100 areas of at most 1,000 points each", got: "\(groups.count) areas")
        }
        for group in groups {
            guard size(group.count) else { throw fail() }
            for index in stride(from: 0, to: group.count, by: 2) where GeoPoint(lat: group[index], lng: group[index + 1]) == nil {
                throw fail()
            }
        }
        return groups
    }
}

/// What the `geo` criterion needs for one segment: the segment's locations, the center and
/// the precision.
struct GeoRanking {
    let index: GeoIndex
    let center: GreatCircle.Origin
    let precision: GeoPrecision

    init(index: GeoIndex, center: GeoPoint, precision: GeoPrecision) {
        self.index = index
        self.center = GreatCircle.Origin(center)
        self.precision = precision
    }

    /// The criterion's value of a document (lower first); records without a location last.
    func group(of document: Int) -> Int {
        guard let nearest = index.nearest(of: document, to: center) else { return Int(Int32.max) }
        return precision.group(of: nearest.distance)
    }

    /// `group` split into runs of equal geo groups, nearest first.
    func tiers(of group: DocumentSet) -> [(Int, RelevanceRanker.Tier)] {
        var keyed: [(rank: Int, document: Int)] = []
        keyed.reserveCapacity(min(group.capacity, 1 << 16))
        group.forEach { document in
            keyed.append((self.group(of: document), document))
            return true
        }
        guard let first = keyed.first else { return [] }
        if keyed.allSatisfy({ $0.rank == first.rank }) { return [(first.rank, .set(group))] }
        return RelevanceRanker.rankedTiers(keyed)
    }

    /// `_rankingInfo`'s geo entries for a document.
    func rankingInfo(of document: Int) -> (geoDistance: Int, geoPrecision: Int, matched: JSONValue?) {
        guard let nearest = index.nearest(of: document, to: center) else { return (0, Int(precision.ranges[0].value), nil) }
        let point = index.point(nearest.location)
        let matched: JSONValue = ["lat": .number(point.lat), "lng": .number(point.lng),
                                  "distance": .int(Int64(nearest.distance.rounded()))]
        return (precision.group(of: nearest.distance), Int(precision.size(at: nearest.distance)), matched)
    }
}

/// The geo steps that see every segment.
enum GeoSearch {
    /// How many located records the automatic radius reaches for (documented in the BehaviourInDetail article).
    static let automaticRadiusTarget = 1_000
    /// Half the Earth's circumference: every point is within this distance.
    static let everywhere = GreatCircle.earthRadius * .pi

    /// Algolia's radius when none is given: from the density of records around the center. Here:
    /// the distance to the 1,000th nearest record with a location (all of them when there are
    /// fewer), rounded up to the metre (the caller applies `minimumAroundRadius`). It depends on
    /// the index, not on the query, so it stays the same while the user types.
    /// - Complexity: a few grid reads of growing circles, until one holds enough records.
    static func automaticRadius(around center: GeoPoint, segments: [(index: GeoIndex, live: DocumentSet?)]) -> Double {
        var radius = 1_000.0
        while true {
            let distances = segments.flatMap { $0.index.distances(within: radius, of: center, live: $0.live) }
            if distances.count >= automaticRadiusTarget || radius >= everywhere {
                let reach = distances.count > automaticRadiusTarget
                    ? FacetCounter.smallest(automaticRadiusTarget, of: distances, by: <).last!
                    : distances.max() ?? 0
                return max(reach.rounded(.up), 1)
            }
            // Growing by √2 keeps the last circle from holding far more records than needed.
            radius = min(radius * 2.squareRoot(), everywhere)
        }
    }

}
