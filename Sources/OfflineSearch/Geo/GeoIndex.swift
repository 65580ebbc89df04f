import Foundation
import SearchAPI

/// A location in degrees: latitude −90…90, longitude −180…180.
struct GeoPoint: Hashable, Sendable {
    var lat: Double
    var lng: Double

    /// A point from numbers (or numeric strings, as Algolia accepts them in `_geoloc`); nil
    /// when either is missing, not a number or out of range.
    init?(lat: JSONValue?, lng: JSONValue?) {
        guard let lat = lat.flatMap(GeoPoint.number), let lng = lng.flatMap(GeoPoint.number) else { return nil }
        self.init(lat: lat, lng: lng)
    }

    /// A finite number, or a string holding one: how geo values come, in records and in
    /// parameters (a `params` string carries every value as text).
    static func number(_ value: JSONValue) -> Double? { GeoAreaForms.number(value) }

    init?(lat: Double, lng: Double) {
        guard lat.isFinite, lng.isFinite, (-90...90).contains(lat), (-180...180).contains(lng) else { return nil }
        self.lat = lat
        self.lng = lng
    }

    /// The locations of a record's `_geoloc`: one `{lat, lng}` object or an array of them.
    /// Entries that are not valid locations are skipped (the record keeps the others).
    static func locations(of record: JSONObject) -> [GeoPoint] {
        switch record["_geoloc"] {
        case .object(let object)?:
            return GeoPoint(lat: object["lat"], lng: object["lng"]).map { [$0] } ?? []
        case .array(let elements)?:
            return elements.compactMap { element in
                guard case .object(let object) = element else { return nil }
                return GeoPoint(lat: object["lat"], lng: object["lng"])
            }
        default:
            return []
        }
    }
}

/// Distances on the Earth as a sphere (great circles), in metres.
enum GreatCircle {
    /// The Earth's mean radius.
    static let earthRadius = 6_371_000.0
    static let metresPerDegree = earthRadius * .pi / 180

    /// The haversine distance between two points.
    static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        Origin(a).distance(lat: b.lat, lng: b.lng)
    }

    /// A point distances are measured from, many times: its cosine computed once.
    struct Origin {
        let lat: Double, lng: Double
        private let cosLat: Double

        init(_ point: GeoPoint) {
            (lat, lng) = (point.lat, point.lng)
            cosLat = cos(lat * .pi / 180)
        }

        @inline(__always)
        func distance(lat: Double, lng: Double) -> Double {
            let toRadians = Double.pi / 180
            let s1 = sin((lat - self.lat) * toRadians / 2), s2 = sin((lng - self.lng) * toRadians / 2)
            let h = s1 * s1 + cosLat * cos(lat * toRadians) * s2 * s2
            return 2 * earthRadius * asin(min(1, h.squareRoot()))
        }
    }
}

/// A latitude/longitude rectangle; `lngMin > lngMax` never happens (a range crossing the 180th
/// meridian is two rectangles).
struct GeoRectangle: Hashable, Sendable {
    var latMin: Double, latMax: Double, lngMin: Double, lngMax: Double

    func contains(lat: Double, lng: Double) -> Bool {
        lat >= latMin && lat <= latMax && lng >= lngMin && lng <= lngMax
    }

    /// The rectangles covering every point within `radius` metres of `center`: one, or two when
    /// the circle crosses the 180th meridian, or the whole Earth.
    static func around(_ center: GeoPoint, radius: Double) -> [GeoRectangle] {
        let angle = radius / GreatCircle.earthRadius                  // radians
        guard angle < .pi else { return [.world] }
        let degrees = angle * 180 / .pi
        let latMin = center.lat - degrees, latMax = center.lat + degrees
        // Past a pole, every longitude is within reach.
        guard latMin > -90, latMax < 90 else {
            return [GeoRectangle(latMin: max(latMin, -90), latMax: min(latMax, 90), lngMin: -180, lngMax: 180)]
        }
        let cosLat = cos(center.lat * .pi / 180)
        let ratio = sin(angle) / cosLat
        guard ratio < 1 else { return [GeoRectangle(latMin: latMin, latMax: latMax, lngMin: -180, lngMax: 180)] }
        let dLng = asin(ratio) * 180 / .pi
        return wrapped(latMin: latMin, latMax: latMax, lngMin: center.lng - dLng, lngMax: center.lng + dLng)
    }

    /// A longitude range that may pass ±180, as one or two rectangles within −180…180.
    static func wrapped(latMin: Double, latMax: Double, lngMin: Double, lngMax: Double) -> [GeoRectangle] {
        if lngMax - lngMin >= 360 { return [GeoRectangle(latMin: latMin, latMax: latMax, lngMin: -180, lngMax: 180)] }
        if lngMin < -180 {
            return [GeoRectangle(latMin: latMin, latMax: latMax, lngMin: lngMin + 360, lngMax: 180),
                    GeoRectangle(latMin: latMin, latMax: latMax, lngMin: -180, lngMax: lngMax)]
        }
        if lngMax > 180 {
            return [GeoRectangle(latMin: latMin, latMax: latMax, lngMin: lngMin, lngMax: 180),
                    GeoRectangle(latMin: latMin, latMax: latMax, lngMin: -180, lngMax: lngMax - 360)]
        }
        return [GeoRectangle(latMin: latMin, latMax: latMax, lngMin: lngMin, lngMax: lngMax)]
    }

    static let world = GeoRectangle(latMin: -90, latMax: 90, lngMin: -180, lngMax: 180)
}

/// The locations of a snapshot's documents (`_geoloc`), with a grid over them so that a circle,
/// a rectangle or a polygon finds its documents without reading every location.
///
/// The grid has cells of `1 / cellsPerDegree` degree (about 1.1 km of latitude). Locations are
/// sorted by row (latitude band), then by longitude inside a row; `rowStarts` gives each row's
/// range, so a rectangle reads, in each of its rows, the locations between two binary searches.
struct GeoIndex: Sendable {
    static let cellsPerDegree = 100.0
    static let rows = 180 * Int(cellsPerDegree)

    /// `docStarts[d]..<docStarts[d + 1]` are document `d`'s locations (empty: all documents
    /// without one, and no locations at all).
    let docStarts: [UInt32]
    let lats: [Double]
    let lngs: [Double]
    /// Location → its document.
    let pointDocs: [UInt32]
    /// Location ids by row, then longitude.
    let gridOrder: [UInt32]
    /// `rowStarts[r]..<rowStarts[r + 1]` index `gridOrder` for row `r` (empty without locations).
    let rowStarts: [UInt32]

    static let empty = GeoIndex(docStarts: [], lats: [], lngs: [], pointDocs: [], gridOrder: [], rowStarts: [])

    var isEmpty: Bool { lats.isEmpty }

    init(docStarts: [UInt32], lats: [Double], lngs: [Double], pointDocs: [UInt32], gridOrder: [UInt32], rowStarts: [UInt32]) {
        self.docStarts = docStarts
        self.lats = lats
        self.lngs = lngs
        self.pointDocs = pointDocs
        self.gridOrder = gridOrder
        self.rowStarts = rowStarts
    }

    /// The index of each document's locations, documents in order.
    init(locations: [[GeoPoint]]) {
        guard locations.contains(where: { !$0.isEmpty }) else {
            self = .empty
            return
        }
        var docStarts: [UInt32] = [0]
        docStarts.reserveCapacity(locations.count + 1)
        var lats: [Double] = [], lngs: [Double] = [], pointDocs: [UInt32] = []
        for (document, points) in locations.enumerated() {
            for point in points {
                lats.append(point.lat)
                lngs.append(point.lng)
                pointDocs.append(UInt32(document))
            }
            docStarts.append(UInt32(lats.count))
        }
        let rowOf = lats.map(GeoIndex.row(ofLatitude:))
        let gridOrder = lats.indices.sorted { a, b in
            rowOf[a] != rowOf[b] ? rowOf[a] < rowOf[b] : (lngs[a], a) < (lngs[b], b)
        }.map { UInt32($0) }
        var rowStarts = [UInt32](repeating: 0, count: GeoIndex.rows + 1)
        for row in rowOf { rowStarts[row + 1] += 1 }
        for row in 0..<GeoIndex.rows { rowStarts[row + 1] += rowStarts[row] }
        self.init(docStarts: docStarts, lats: lats, lngs: lngs, pointDocs: pointDocs, gridOrder: gridOrder, rowStarts: rowStarts)
    }

    static func row(ofLatitude lat: Double) -> Int {
        min(rows - 1, max(0, Int(((lat + 90) * cellsPerDegree).rounded(.down))))
    }

    /// Whether the stored arrays agree with each other (a derived file read back).
    func isConsistent(documentCount: Int) -> Bool {
        if lats.isEmpty { return docStarts.isEmpty && lngs.isEmpty && pointDocs.isEmpty && gridOrder.isEmpty && rowStarts.isEmpty }
        func nondecreasing(_ starts: [UInt32]) -> Bool { zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 } }
        guard docStarts.count == documentCount + 1, docStarts.first == 0, docStarts.last == UInt32(lats.count), nondecreasing(docStarts),
              lngs.count == lats.count, pointDocs.count == lats.count, gridOrder.count == lats.count,
              rowStarts.count == GeoIndex.rows + 1, rowStarts.first == 0, rowStarts.last == UInt32(lats.count), nondecreasing(rowStarts),
              zip(lats, lngs).allSatisfy({ GeoPoint(lat: $0, lng: $1) != nil })
        else { return false }
        // Each location belongs to the document whose range holds it, and the grid lists each
        // location in its row.
        for document in 0..<documentCount {
            for location in Int(docStarts[document])..<Int(docStarts[document + 1]) where pointDocs[location] != UInt32(document) { return false }
        }
        for row in 0..<GeoIndex.rows {
            for entry in Int(rowStarts[row])..<Int(rowStarts[row + 1]) {
                let location = Int(gridOrder[entry])
                guard location < lats.count, GeoIndex.row(ofLatitude: lats[location]) == row else { return false }
            }
        }
        return true
    }

    /// Document `document`'s locations as location ids.
    func locations(of document: Int) -> Range<Int> {
        guard !docStarts.isEmpty else { return 0..<0 }
        return Int(docStarts[document])..<Int(docStarts[document + 1])
    }

    func point(_ location: Int) -> GeoPoint { GeoPoint(lat: lats[location], lng: lngs[location])! }

    /// The nearest of a document's locations to `center` and its distance; nil without one.
    func nearest(of document: Int, to origin: GreatCircle.Origin) -> (location: Int, distance: Double)? {
        var best: (location: Int, distance: Double)?
        for location in locations(of: document) {
            let distance = origin.distance(lat: lats[location], lng: lngs[location])
            if best == nil || distance < best!.distance { best = (location, distance) }
        }
        return best
    }

    /// Calls `body` with every location inside `rectangle` (and maybe a few on its edge rows
    /// outside it: callers test each location exactly).
    func forEachLocation(in rectangle: GeoRectangle, _ body: (Int) -> Void) {
        guard !isEmpty else { return }
        let first = GeoIndex.row(ofLatitude: rectangle.latMin), last = GeoIndex.row(ofLatitude: rectangle.latMax)
        gridOrder.withUnsafeBufferPointer { order in
            lngs.withUnsafeBufferPointer { lngs in
                for row in first...last {
                    var low = Int(rowStarts[row])
                    let end = Int(rowStarts[row + 1])
                    guard low < end else { continue }
                    var high = end
                    while low < high {   // the first location of the row at or east of lngMin
                        let mid = (low + high) >> 1
                        if lngs[Int(order[mid])] < rectangle.lngMin { low = mid + 1 } else { high = mid }
                    }
                    while low < end {
                        let location = Int(order[low])
                        if lngs[location] > rectangle.lngMax { break }
                        body(location)
                        low += 1
                    }
                }
            }
        }
    }

    /// Calls `body` with every location within `radius` metres of `center`, and its distance.
    func forEachLocation(within radius: Double, of center: GeoPoint, _ body: (_ location: Int, _ distance: Double) -> Void) {
        let origin = GreatCircle.Origin(center)
        for rectangle in GeoRectangle.around(center, radius: radius) {
            forEachLocation(in: rectangle) { location in
                let distance = origin.distance(lat: lats[location], lng: lngs[location])
                if distance <= radius { body(location, distance) }
            }
        }
    }

    /// The documents with a location within `radius` metres of `center`.
    func documents(within radius: Double, of center: GeoPoint, capacity: Int) -> DocumentSet {
        var documents = DocumentSet(capacity: capacity)
        forEachLocation(within: radius, of: center) { location, _ in documents.insert(Int(pointDocs[location])) }
        return documents
    }

    /// The documents with a location inside one of `areas`.
    func documents(inside areas: [GeoArea], capacity: Int) -> DocumentSet {
        var documents = DocumentSet(capacity: capacity)
        for area in areas {
            for rectangle in area.boundingRectangles {
                forEachLocation(in: rectangle) { location in
                    if area.contains(lat: lats[location], lng: lngs[location]) { documents.insert(Int(pointDocs[location])) }
                }
            }
        }
        return documents
    }

    /// The documents with at least one location.
    func locatedDocuments(capacity: Int) -> DocumentSet {
        var documents = DocumentSet(capacity: capacity)
        documents.insert(contentsOf: pointDocs)
        return documents
    }

    /// The distances from `center` to the locations within `radius` of it, of the documents
    /// in `live` (nil: all), each document counted once at its nearest location.
    func distances(within radius: Double, of center: GeoPoint, live: DocumentSet?) -> [Double] {
        var found: [(distance: Double, document: UInt32)] = []
        forEachLocation(within: radius, of: center) { location, distance in
            let document = pointDocs[location]
            if live?.contains(Int(document)) ?? true { found.append((distance, document)) }
        }
        // Most documents have one location: only those with several need their nearest kept.
        func hasSeveral(_ document: UInt32) -> Bool { docStarts[Int(document) + 1] - docStarts[Int(document)] > 1 }
        guard found.contains(where: { hasSeveral($0.document) }) else { return found.map(\.distance) }
        found.sort { $0.distance < $1.distance }
        var seen = Set<UInt32>()
        return found.compactMap { entry in
            guard hasSeveral(entry.document) else { return entry.distance }
            return seen.insert(entry.document).inserted ? entry.distance : nil
        }
    }
}
