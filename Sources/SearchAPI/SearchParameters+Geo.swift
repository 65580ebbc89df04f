/// Typed access to the geo search parameters. They are stored in `other`, as sent, so the JSON
/// body and the `params` string carry them exactly as any other parameter.
///
/// ```swift
/// var parameters = SearchParameters(query: "coffee")
/// parameters.aroundLatLng = GeoLocation(lat: 48.8566, lng: 2.3522)
/// parameters.aroundRadius = .metres(2_000)
/// ```
extension SearchParameters {
    /// `aroundLatLng`: the center of a search around a point.
    public var aroundLatLng: GeoLocation? {
        get { other["aroundLatLng"]?.stringValue.flatMap(GeoLocation.init(parameter:)) }
        set { other["aroundLatLng"] = newValue.map { .string($0.parameter) } }
    }

    /// `aroundRadius`: metres, or `.all`; nil for Algolia's automatic radius.
    public var aroundRadius: AroundRadius? {
        get {
            switch other["aroundRadius"] {
            case .string("all")?: return .all
            case let value?: return value.intValue.map(AroundRadius.metres)
            case nil: return nil
            }
        }
        set {
            switch newValue {
            case .all?: other["aroundRadius"] = "all"
            case .metres(let metres)?: other["aroundRadius"] = .int(Int64(metres))
            case nil: other["aroundRadius"] = nil
            }
        }
    }

    /// `aroundPrecision` as one group size in metres (ranges can be set through `other`).
    public var aroundPrecision: Int? {
        get { other["aroundPrecision"]?.intValue }
        set { other["aroundPrecision"] = newValue.map { .int(Int64($0)) } }
    }

    /// `insideBoundingBox`: rectangles, each from two opposite corners. Read in any of the forms
    /// Algolia takes (nested arrays, one flat array, a string of numbers); written as nested
    /// arrays.
    public var insideBoundingBox: [GeoBoundingBox]? {
        get {
            guard let value = other["insideBoundingBox"], let groups = GeoAreaForms.numberGroups(value, boxes: true) else { return nil }
            return groups.compactMap { numbers in
                guard numbers.count == 4 else { return nil }
                return GeoBoundingBox(GeoLocation(lat: numbers[0], lng: numbers[1]), GeoLocation(lat: numbers[2], lng: numbers[3]))
            }
        }
        set {
            other["insideBoundingBox"] = newValue.map { boxes in
                .array(boxes.map { [.number($0.corner1.lat), .number($0.corner1.lng), .number($0.corner2.lat), .number($0.corner2.lng)] })
            }
        }
    }

    /// `insidePolygon`: polygons, each of 3 points or more. Read in any of the forms Algolia
    /// takes; written as nested arrays.
    public var insidePolygon: [[GeoLocation]]? {
        get {
            guard let value = other["insidePolygon"], let groups = GeoAreaForms.numberGroups(value, boxes: false) else { return nil }
            return groups.compactMap { numbers in
                guard numbers.count >= 6, numbers.count % 2 == 0 else { return nil }
                return stride(from: 0, to: numbers.count, by: 2).map { GeoLocation(lat: numbers[$0], lng: numbers[$0 + 1]) }
            }
        }
        set {
            other["insidePolygon"] = newValue.map { polygons in
                .array(polygons.map { .array($0.flatMap { [JSONValue.number($0.lat), .number($0.lng)] }) })
            }
        }
    }
}

/// A point in degrees.
public struct GeoLocation: Hashable, Sendable {
    /// Latitude, in degrees.
    public var lat: Double
    /// Longitude, in degrees.
    public var lng: Double

    /// The point at latitude `lat` and longitude `lng`.
    public init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    /// From `"lat, lng"`.
    init?(parameter: String) {
        let parts = parameter.split(separator: ",").map { Double($0.trimmingSpaces) }
        guard parts.count == 2, let lat = parts[0], let lng = parts[1] else { return nil }
        self.init(lat: lat, lng: lng)
    }

    /// As `aroundLatLng` writes it.
    var parameter: String { "\(JSONValue.formatDouble(lat)), \(JSONValue.formatDouble(lng))" }
}

/// `aroundRadius`.
public enum AroundRadius: Hashable, Sendable {
    /// Records within this many metres of `aroundLatLng`.
    case metres(Int)
    /// No limit: every record with a location, nearest first.
    case all
}

/// A rectangle of `insideBoundingBox`, from two opposite corners.
public struct GeoBoundingBox: Hashable, Sendable {
    /// One corner of the rectangle.
    public var corner1: GeoLocation
    /// The corner opposite `corner1`.
    public var corner2: GeoLocation

    /// The rectangle between two opposite corners (`[lat1, lng1, lat2, lng2]` in
    /// `insideBoundingBox`).
    public init(_ corner1: GeoLocation, _ corner2: GeoLocation) {
        self.corner1 = corner1
        self.corner2 = corner2
    }
}

/// The forms `insideBoundingBox` and `insidePolygon` come in: nested arrays (`[[a, b, c, d], ...]`),
/// one flat array, or a string (of comma-separated numbers, or of a JSON array: the forms older
/// clients and `params` strings send), with numbers or numeric strings. One reading for the
/// typed accessors and the engine (which adds its errors and limits).
package enum GeoAreaForms {
    /// A number, or a string holding one; nil for anything else (and infinities, NaN).
    package static func number(_ value: JSONValue) -> Double? {
        guard let number = value.doubleValue ?? value.stringValue.flatMap({ Double($0.trimmingSpaces) }), number.isFinite else { return nil }
        return number
    }

    /// The groups of numbers `value` holds; nil when it is not one of the forms. A flat array or
    /// string of a multiple of 4 numbers is several boxes (`boxes`); a polygon's is one polygon.
    package static func numberGroups(_ value: JSONValue, boxes: Bool) -> [[Double]]? {
        var value = value
        if case .string(let text) = value, text.trimmingSpaces.hasPrefix("[") {
            guard let parsed = try? JSONValue(parsing: text) else { return nil }
            value = parsed
        }
        func numbers(_ elements: [JSONValue]) -> [Double]? {
            var numbers: [Double] = []
            for element in elements {
                guard let number = number(element) else { return nil }
                numbers.append(number)
            }
            return numbers
        }
        func cut(_ numbers: [Double]) -> [[Double]] {
            guard boxes, numbers.count % 4 == 0, !numbers.isEmpty else { return [numbers] }
            return stride(from: 0, to: numbers.count, by: 4).map { Array(numbers[$0..<$0 + 4]) }
        }
        switch value {
        case .string(let text):
            return numbers(text.split(separator: ",").map { .string(String($0)) }).map(cut)
        case .array(let elements) where elements.allSatisfy({ if case .array = $0 { true } else { false } }):
            var groups: [[Double]] = []
            for element in elements {
                guard let group = numbers(element.arrayValue!) else { return nil }
                groups.append(group)
            }
            return groups
        case .array(let elements):
            return numbers(elements).map(cut)
        default:
            return nil
        }
    }
}
