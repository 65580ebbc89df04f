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

    /// `insideBoundingBox`: rectangles, each from two opposite corners.
    public var insideBoundingBox: [GeoBoundingBox]? {
        get {
            guard case .array(let boxes)? = other["insideBoundingBox"] else { return nil }
            return boxes.compactMap { box in
                guard let numbers = box.arrayValue?.compactMap(\.doubleValue), numbers.count == 4 else { return nil }
                return GeoBoundingBox(GeoLocation(lat: numbers[0], lng: numbers[1]), GeoLocation(lat: numbers[2], lng: numbers[3]))
            }
        }
        set {
            other["insideBoundingBox"] = newValue.map { boxes in
                .array(boxes.map { [.number($0.corner1.lat), .number($0.corner1.lng), .number($0.corner2.lat), .number($0.corner2.lng)] })
            }
        }
    }

    /// `insidePolygon`: polygons, each of 3 points or more.
    public var insidePolygon: [[GeoLocation]]? {
        get {
            guard case .array(let polygons)? = other["insidePolygon"] else { return nil }
            return polygons.compactMap { polygon in
                guard let numbers = polygon.arrayValue?.compactMap(\.doubleValue), numbers.count >= 6, numbers.count % 2 == 0 else { return nil }
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
    public var lat: Double
    public var lng: Double

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
    case metres(Int)
    /// No limit: every record with a location, nearest first.
    case all
}

/// A rectangle of `insideBoundingBox`, from two opposite corners.
public struct GeoBoundingBox: Hashable, Sendable {
    public var corner1: GeoLocation
    public var corner2: GeoLocation

    public init(_ corner1: GeoLocation, _ corner2: GeoLocation) {
        self.corner1 = corner1
        self.corner2 = corner2
    }
}
