import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// A point `metres` north and `east` metres east of `(lat, lng)` (small offsets, flat-earth).
private func offset(_ lat: Double, _ lng: Double, north: Double, east: Double = 0) -> (lat: Double, lng: Double) {
    let perDegree = GreatCircle.metresPerDegree
    return (lat + north / perDegree, lng + east / (perDegree * cos(lat * .pi / 180)))
}

private func place(_ id: String, _ point: (lat: Double, lng: Double), _ extra: JSONObject = [:]) -> JSONValue {
    var record: JSONObject = ["objectID": .string(id), "_geoloc": ["lat": .number(point.lat), "lng": .number(point.lng)]]
    for (key, value) in extra { record[key] = value }
    return .object(record)
}

@Suite struct GeoSearchTests {
    /// Great-circle distances, against the spherical law of cosines and a known figure
    /// (Paris–London, about 343.5 km on a sphere of 6,371 km).
    @Test func distancesAreGreatCircle() {
        let paris = GeoPoint(lat: 48.8566, lng: 2.3522)!, london = GeoPoint(lat: 51.5074, lng: -0.1278)!
        let haversine = GreatCircle.distance(paris, london)
        let r = Double.pi / 180
        let cosines = GreatCircle.earthRadius * acos(sin(paris.lat * r) * sin(london.lat * r)
            + cos(paris.lat * r) * cos(london.lat * r) * cos((london.lng - paris.lng) * r))
        #expect(abs(haversine - cosines) < 0.5)
        #expect(abs(haversine - 343_500) < 1_000)
        // Across the 180th meridian: 0.2° of longitude at the equator.
        let east = GeoPoint(lat: 0, lng: 179.9)!, west = GeoPoint(lat: 0, lng: -179.9)!
        #expect(abs(GreatCircle.distance(east, west) - 0.2 * GreatCircle.metresPerDegree) < 1)
    }

    @Test func aroundRadiusFiltersAndRanksByDistance() throws {
        let center = (lat: 40.71, lng: -74.01)
        let index = try TestEngine().index(records: [
            place("far", offset(center.lat, center.lng, north: 900)),
            place("near", offset(center.lat, center.lng, north: 100)),
            place("outside", offset(center.lat, center.lng, north: 1_500)),
            place("middle", offset(center.lat, center.lng, north: 0, east: 500)),
            ["objectID": "nowhere"],
        ])
        let response = try index.search("", ["aroundLatLng": "40.71, -74.01", "aroundRadius": 1000, "getRankingInfo": true])
        #expect(response.objectIDs == ["near", "middle", "far"])
        #expect(response.nbHits == 3)
        let info = response.hits[0]["_rankingInfo"]!
        #expect(info["geoDistance"]?.intValue == 10)        // 100 m / the default 10 m precision
        #expect(info["geoPrecision"]?.intValue == 10)
        #expect(info["matchedGeoLocation"]?["distance"]?.intValue == 100)
        #expect(response.automaticRadius == nil)
        // `aroundRadius` as a string, as a `params` string sends it.
        let fromParams = try index.search(SearchParameters(json: ["params": "aroundLatLng=40.71%2C%20-74.01&aroundRadius=1000"]))
        #expect(fromParams.objectIDs == ["near", "middle", "far"])
    }

    /// Algolia's example: with a precision of 200 m, a restaurant at 150 m and one at 100 m
    /// tie on `geo`, so the better rated one (custom ranking) comes first.
    @Test func precisionGroupsDistances() throws {
        let center = (lat: 48.8566, lng: 2.3522)
        let index = try TestEngine().index(settings: ["customRanking": ["desc(rating)"]], records: [
            place("A, 5 stars at 150 m", offset(center.lat, center.lng, north: 150), ["rating": 5]),
            place("B, 3 stars at 100 m", offset(center.lat, center.lng, north: 100), ["rating": 3]),
            place("C, 5 stars at 300 m", offset(center.lat, center.lng, north: 300), ["rating": 5]),
        ])
        let around = "48.8566, 2.3522"
        #expect(try index.search("", ["aroundLatLng": .string(around), "aroundRadius": "all"]).objectIDs
            == ["B, 3 stars at 100 m", "A, 5 stars at 150 m", "C, 5 stars at 300 m"])
        let grouped = try index.search("", ["aroundLatLng": .string(around), "aroundRadius": "all", "aroundPrecision": 200,
                                            "getRankingInfo": true])
        #expect(grouped.objectIDs == ["A, 5 stars at 150 m", "B, 3 stars at 100 m", "C, 5 stars at 300 m"])
        #expect(grouped.hits.map { $0["_rankingInfo"]?["geoDistance"]?.intValue } == [0, 0, 1])
        #expect(grouped.hits.map { $0["_rankingInfo"]?["geoPrecision"]?.intValue } == [200, 200, 200])
        // Below Algolia's minimum of 10 m, 10 m applies.
        let fine = try index.search("", ["aroundLatLng": .string(around), "aroundRadius": "all", "aroundPrecision": 1, "getRankingInfo": true])
        #expect(fine.hits.first?["_rankingInfo"]?["geoPrecision"]?.intValue == 10)
    }

    /// Algolia's ranges example: 25 m groups up to 1,000 m, 2,000 m groups after.
    @Test func precisionRanges() throws {
        let center = (lat: 10.0, lng: 10.0)
        let index = try TestEngine().index(settings: ["customRanking": ["desc(rating)"]], records: [
            place("80 m", offset(center.lat, center.lng, north: 80), ["rating": 1]),
            place("90 m", offset(center.lat, center.lng, north: 90), ["rating": 2]),
            place("1,200 m", offset(center.lat, center.lng, north: 1_200), ["rating": 3]),
            place("2,900 m", offset(center.lat, center.lng, north: 2_900), ["rating": 4]),
            place("3,100 m", offset(center.lat, center.lng, north: 3_100), ["rating": 5]),
        ])
        let response = try index.search("", ["aroundLatLng": "10, 10", "aroundRadius": "all", "getRankingInfo": true,
                                             "aroundPrecision": [["from": 0, "value": 25], ["from": 1000, "value": 2000]]])
        // 80 and 90 m share the group 75–100 m; 1,200 and 2,900 m the group 1,000–3,000 m.
        #expect(response.objectIDs == ["90 m", "80 m", "2,900 m", "1,200 m", "3,100 m"])
        #expect(response.hits.map { $0["_rankingInfo"]?["geoPrecision"]?.intValue } == [25, 25, 2000, 2000, 2000])
    }

    /// `typo` ranks before `geo` (Algolia's default order); `geo` before `words` and the rest.
    @Test func geoRanksAfterTypoBeforeTheOtherCriteria() throws {
        let center = (lat: 0.0, lng: 0.0)
        let owner = try TestEngine()
        defer { withExtendedLifetime(owner) {} }
        let index = try owner.index(records: [
            place("typo, nearest", offset(center.lat, center.lng, north: 10), ["name": "pizzo place"]),
            place("exact, far", offset(center.lat, center.lng, north: 5_000), ["name": "pizza place"]),
            place("exact, near", offset(center.lat, center.lng, north: 1_000), ["name": "pizza"]),
        ])
        #expect(try index.search("pizza", ["aroundLatLng": "0, 0", "aroundRadius": "all"]).objectIDs
            == ["exact, near", "exact, far", "typo, nearest"])
        // Without `geo` in `ranking`, the distance only filters.
        try index.setSettings(["ranking": ["typo", "words", "filters", "proximity", "attribute", "exact", "custom"]])
        #expect(try index.search("pizza", ["aroundLatLng": "0, 0", "aroundRadius": 2_000]).objectIDs == ["exact, near", "typo, nearest"])
    }

    @Test func geolocArraysAndNumericStrings() throws {
        let index = try TestEngine().index(records: [
            ["objectID": "two shops", "_geoloc": [["lat": "10.0", "lng": "10.0"], ["lat": 10.0, "lng": 10.02]]],
            ["objectID": "one shop", "_geoloc": ["lat": "10.0", "lng": "10.005"]],
            ["objectID": "bad location", "_geoloc": ["lat": "north", "lng": 10]],
        ])
        let response = try index.search("", ["aroundLatLng": "10.0, 10.019", "aroundRadius": 2000, "getRankingInfo": true])
        #expect(response.objectIDs == ["two shops", "one shop"])
        let matched = response.hits[0]["_rankingInfo"]?["matchedGeoLocation"]
        #expect(matched?["lng"]?.doubleValue == 10.02)   // the nearer of its two locations
        #expect((109...110).contains(matched?["distance"]?.intValue ?? 0))
    }

    @Test func boundingBoxesAndPolygons() throws {
        let index = try TestEngine().index(records: [
            ["objectID": "dijon", "_geoloc": ["lat": 47.33, "lng": 5.0]],
            ["objectID": "tarragona", "_geoloc": ["lat": 41.1, "lng": 1.25]],
            ["objectID": "paris", "_geoloc": ["lat": 48.8566, "lng": 2.3522]],
            ["objectID": "no location"],
        ])
        func ids(_ parameters: JSONObject) throws -> Set<String> { Set(try index.search("", parameters).objectIDs) }
        #expect(try ids(["insideBoundingBox": [[47.3165, 4.9665, 47.3424, 5.0201]]]) == ["dijon"])
        // Corners in any order; several boxes ORed; the string form (a multiple of 4 numbers).
        #expect(try ids(["insideBoundingBox": [[47.3424, 5.0201, 47.3165, 4.9665], [40.9234, 1.1185, 41.6430, 1.9916]]]) == ["dijon", "tarragona"])
        #expect(try ids(["insideBoundingBox": "47.3165,4.9665,47.3424,5.0201,40.9234,1.1185,41.6430,1.9916"]) == ["dijon", "tarragona"])
        #expect(try ids(["insideBoundingBox": [47.3165, 4.9665, 47.3424, 5.0201]]) == ["dijon"])
        // A box wins over aroundLatLng, which Algolia then ignores.
        #expect(try ids(["insideBoundingBox": [[47.3165, 4.9665, 47.3424, 5.0201]], "aroundLatLng": "48.8566, 2.3522"]) == ["dijon"])
        // A triangle around Paris and Dijon, not Tarragona; the string form of one polygon.
        let triangle: JSONValue = [[49.5, 1.5, 49.5, 7.0, 46.0, 4.0]]
        #expect(try ids(["insidePolygon": triangle]) == ["paris", "dijon"])
        #expect(try ids(["insidePolygon": "49.5,1.5,49.5,7.0,46.0,4.0"]) == ["paris", "dijon"])
        #expect(try ids(["insidePolygon": [[49.5, 1.5, 49.5, 7.0, 46.0, 4.0], [41.5, 1.0, 41.5, 1.5, 40.5, 1.2]]]) == ["paris", "dijon", "tarragona"])
    }

    @Test func recordsWithoutLocationNeverMatchAGeoSearch() throws {
        let index = try TestEngine().index(records: [
            ["objectID": "somewhere", "_geoloc": ["lat": 1, "lng": 1]],
            ["objectID": "nowhere"],
        ])
        #expect(try index.search("", ["aroundLatLng": "0, 0", "aroundRadius": "all"]).objectIDs == ["somewhere"])
        #expect(try index.search("", ["aroundLatLng": "0, 0"]).objectIDs == ["somewhere"])
        #expect(try index.search("", [:]).nbHits == 2)
    }

    /// No `aroundRadius`: the radius reaching the 1,000 nearest located records (documented),
    /// raised by `minimumAroundRadius`; the response says which radius it used.
    @Test func automaticRadius() throws {
        var records: [JSONValue] = []
        for i in 0..<1_500 { records.append(place("\(i)", offset(0, 0, north: Double(i + 1) * 10))) }
        let index = try TestEngine().index(records: records)
        let response = try index.search("", ["aroundLatLng": "0, 0", "hitsPerPage": 1])
        #expect(response.nbHits == 1_000)
        #expect((10_000...10_001).contains(Int(response.automaticRadius ?? "") ?? 0), "\(response.automaticRadius ?? "none")")
        #expect(response.objectIDs == ["0"])
        let wider = try index.search("", ["aroundLatLng": "0, 0", "minimumAroundRadius": 12_005, "hitsPerPage": 0])
        #expect(wider.nbHits == 1_200)
        #expect(wider.automaticRadius == "12005")
        // The JSON answer carries it as a string, as Algolia's.
        #expect(response.jsonValue["automaticRadius"]?.stringValue == response.automaticRadius)
    }

    /// Values far past the Earth's size are valid, and change nothing past it.
    @Test func hugeGeoValuesAreHarmless() throws {
        let index = try TestEngine().index(records: [place("a", (1, 1)), place("b", (-1, -1))])
        let ranges: JSONValue = [["from": 0, "value": 10], ["from": 1e300, "value": 1e300]]
        #expect(try index.search("", ["aroundLatLng": "1, 1", "aroundRadius": "all", "aroundPrecision": ranges]).objectIDs == ["a", "b"])
        #expect(try index.search("", ["aroundLatLng": "1, 1", "aroundRadius": "all", "aroundPrecision": 1e300]).nbHits == 2)
        #expect(try index.search("", ["aroundLatLng": "1, 1", "aroundRadius": 2_147_483_647]).nbHits == 2)
        #expect(try index.search("", ["aroundLatLng": "90, 180", "minimumAroundRadius": 2_147_483_647]).nbHits == 2)
        #expect(try index.search("", ["insideBoundingBox": [[-90, -180, 90, 180]]]).nbHits == 2)
        #expect(try index.search("", ["insidePolygon": [[0, 0, 0, 0, 0, 0]]]).nbHits == 0)
    }

    /// deleteBy takes the geo area as a search does: only the records inside go.
    @Test func deleteByAnArea() throws {
        let owner = try TestEngine()
        defer { withExtendedLifetime(owner) {} }
        let index = try owner.index(settings: ["attributesForFaceting": ["kind"]], records: [
            place("paris cafe", (48.86, 2.35), ["kind": "cafe"]),
            place("paris shop", (48.86, 2.34), ["kind": "shop"]),
            place("lyon cafe", (45.76, 4.84), ["kind": "cafe"]),
            ["objectID": "online cafe", "kind": "cafe"],
        ])
        let deleted = try index.deleteBy(SearchParameters(json: ["filters": "kind:cafe", "insideBoundingBox": [[48.8, 2.2, 48.9, 2.4]]]))
        #expect(deleted == 1)
        #expect(Set(try index.search("").objectIDs) == ["paris shop", "lyon cafe", "online cafe"])
        #expect(try index.deleteBy(SearchParameters(json: ["aroundLatLng": "45.76, 4.84", "aroundRadius": 1000])) == 1)
        #expect(Set(try index.search("").objectIDs) == ["paris shop", "online cafe"])
    }

    /// A flat array of 8 numbers is two boxes, as the string form; shapes past the engine's
    /// limits are refused.
    @Test func flatBoxArraysAndShapeLimits() throws {
        let index = try TestEngine().index(records: [place("a", (1, 1)), place("b", (-1, -1)), place("c", (5, 5))])
        #expect(Set(try index.search("", ["insideBoundingBox": [0, 0, 2, 2, -2, -2, 0, 0]]).objectIDs) == ["a", "b"])
        let ranges = JSONValue.array((0..<101).map { ["from": .int(Int64($0 * 10)), "value": 10] })
        #expect(throws: SearchError.self) { try index.search("", ["aroundLatLng": "0, 0", "aroundPrecision": ranges]) }
        let polygon = JSONValue.array([.array((0..<2_002).map { .number(Double($0 % 2 == 0 ? ($0 % 7) : ($0 % 11))) })])
        #expect(throws: SearchError.self) { try index.search("", ["insidePolygon": polygon]) }
    }

    @Test func invalidGeoParametersAreClearErrors() throws {
        let index = try TestEngine().index(records: [place("a", (1, 1))])
        let cases: [(JSONObject, String)] = [
            (["aroundLatLng": "40.71"], "aroundLatLng"),
            (["aroundLatLng": "91, 0"], "aroundLatLng"),
            (["aroundLatLng": "0, 0", "aroundRadius": -5], "aroundRadius"),
            (["aroundLatLng": "0, 0", "aroundRadius": "everywhere"], "aroundRadius"),
            (["aroundLatLng": "0, 0", "aroundPrecision": [["from": 0]]], "aroundPrecision"),
            (["insideBoundingBox": [[1, 2, 3]]], "insideBoundingBox"),
            (["insidePolygon": [[1, 2, 3, 4]]], "insidePolygon"),
            (["aroundLatLngViaIP": true], "aroundLatLngViaIP"),
        ]
        for (parameters, name) in cases {
            do {
                _ = try index.search("", parameters)
                Issue.record("expected an error for \(parameters)")
            } catch let error as SearchError {
                #expect(error.message.hasPrefix(name), "\(error.message)")
                #expect(error.status == 400)
            }
        }
    }

    /// Random points around the world against brute force: a radius, a box and a polygon select
    /// exactly what a scan selects (points within a metre of the boundary aside), hits come in
    /// order of distance, and the same holds with recent writes in a delta segment and after
    /// reopening from the stored index.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func selectionMatchesBruteForce(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        // Clustered around a few cities, some far away, some near the 180th meridian and poles.
        let hubs: [(Double, Double)] = [(40.7, -74.0), (48.85, 2.35), (-33.9, 151.2), (0, 179.95), (89.5, 10), (35.7, 139.7)]
        var points: [String: GeoPoint] = [:]
        var records: [JSONValue] = []
        for i in 0..<2_000 {
            let hub = random.pick(hubs)
            let spread = random.pick([0.01, 0.1, 1.0])
            let lat = min(90, max(-90, hub.0 + Double.random(in: -spread...spread, using: &random)))
            var lng = hub.1 + Double.random(in: -spread...spread, using: &random)
            if lng > 180 { lng -= 360 }
            if lng < -180 { lng += 360 }
            let point = GeoPoint(lat: lat, lng: lng)!
            points["p\(i)"] = point
            records.append(place("p\(i)", (lat, lng), ["n": .int(Int64(i))]))
        }
        let engine = try TestEngine()
        let index = try engine.engine.index("geo")
        try index.saveObjects(Array(records[..<1_500]))
        try index.saveObjects(Array(records[1_500...]))      // a delta segment
        #expect(index.deltaCount > 0)

        func check(_ index: SearchIndex) throws {
            for _ in 0..<12 {
                let hub = random.pick(hubs)
                let center = GeoPoint(lat: min(89.9, hub.0 + Double.random(in: -0.5...0.5, using: &random)),
                                      lng: max(-180, min(180, hub.1 + Double.random(in: -0.5...0.5, using: &random))))!
                let radius = random.pick([500.0, 5_000, 50_000, 300_000])
                let response = try index.search("", ["aroundLatLng": .string("\(center.lat), \(center.lng)"), "aroundRadius": .int(Int64(radius)),
                                                     "hitsPerPage": 1000])
                let got = Set(response.objectIDs)
                for (id, point) in points {
                    let distance = GreatCircle.distance(center, point)
                    if abs(distance - radius) < 1 { continue }
                    #expect(got.contains(id) == (distance <= radius), "radius \(radius) around \(center): \(id) at \(distance) m")
                }
                let groups = response.objectIDs.map { Int(GreatCircle.distance(center, points[$0]!) / 10) }
                #expect(groups == groups.sorted(), "hits in order of distance")

                let lat1 = center.lat - 0.3, lat2 = min(90, center.lat + 0.2), lng1 = center.lng - 0.4, lng2 = min(180, center.lng + 0.1)
                let box = Set(try index.search("", ["insideBoundingBox": [[.number(lat1), .number(lng1), .number(lat2), .number(lng2)]],
                                                    "hitsPerPage": 1000]).objectIDs)
                for (id, point) in points {
                    let inside = point.lat >= lat1 && point.lat <= lat2 && point.lng >= lng1 && point.lng <= lng2
                    #expect(box.contains(id) == inside, "box: \(id)")
                }

                let vertices = [(center.lat + 0.3, center.lng), (center.lat - 0.2, center.lng + 0.25), (center.lat - 0.25, center.lng - 0.3)]
                    .map { (min(90, $0.0), max(-180, min(180, $0.1))) }
                let polygon = Set(try index.search("", ["insidePolygon": [.array(vertices.flatMap { [JSONValue.number($0.0), .number($0.1)] })],
                                                        "hitsPerPage": 1000]).objectIDs)
                for (id, point) in points {
                    #expect(polygon.contains(id) == bruteForceInside(point, vertices), "polygon: \(id)")
                }
            }
        }
        try check(index)
        try index.merge()
        index.waitForMerge()
        try check(index)
        let reopened = try SearchEngine(directory: engine.directory.url).index("geo")
        try check(reopened)
    }
}

/// Even-odd rule, written independently of the engine's.
private func bruteForceInside(_ point: GeoPoint, _ vertices: [(Double, Double)]) -> Bool {
    var crossings = 0
    for i in vertices.indices {
        let (aLat, aLng) = vertices[i], (bLat, bLng) = vertices[(i + 1) % vertices.count]
        guard (aLat > point.lat) != (bLat > point.lat) else { continue }
        let t = (point.lat - aLat) / (bLat - aLat)
        if point.lng < aLng + t * (bLng - aLng) { crossings += 1 }
    }
    return crossings % 2 == 1
}
