import DatasetGenerator
import Foundation
import OfflineSearch
import SearchAPI

// MARK: geo

/// The geo keystroke log over generated places: map sessions that pan and zoom a bounding box,
/// and "near me" sessions that type a word letter by letter around a point with a radius (or
/// the automatic one). The engine against a brute-force scan of the same records, in the same
/// run, with a check that both find the same number of hits.
func runGeo(_ args: Arguments) throws {
    let size = try args.int("--size", min: 1)
    let repeats = try args.int("--repeat", default: 3, min: 1)
    let sessions = try args.int("--sessions", default: 200, min: 1)
    let indexName = "places"
    let clock = ContinuousClock()
    let temporary = args.values["--data"] == nil
    let dataDirectory = args.values["--data"]
        ?? NSTemporaryDirectory() + "offline-search-geo-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    defer { if temporary, !args.flags.contains("--keep") { try? FileManager.default.removeItem(atPath: dataDirectory) } }

    log("places: generating \(size) …")
    let records = DatasetGenerator(seed: 1).records(.places, count: size)
    var settings = DatasetGenerator.settings(for: .places).objectValue!
    settings["typoTolerance"] = false           // the brute force matches words without typos
    let engine = try SearchEngine(directory: URL(fileURLWithPath: dataDirectory))
    var importSeconds: Double?
    let index: SearchIndex
    if let existing = try? engine.existingIndex(indexName), existing.recordCount == size {
        index = existing
        log("places: reusing \(size) records in \(dataDirectory)")
    } else {
        try engine.deleteIndex(indexName)
        index = try engine.index(indexName)
        let started = clock.now
        try index.setSettings(settings)
        try index.saveObjects(records, replaceExisting: true)
        index.waitForMerge()
        importSeconds = (clock.now - started).seconds
        log("places: imported in \(String(format: "%.1f", importSeconds!)) s")
    }

    let log = GeoLog.requests(sessions: sessions)
    // --engine-only (for profiling): no scan, no agreement check.
    let withScan = !args.flags.contains("--engine-only")
    let scan = BruteForcePlaces(withScan ? records : [])
    var engineTimes: [[Int64]] = Array(repeating: [], count: log.count)
    var scanTimes: [[Int64]] = Array(repeating: [], count: log.count)
    var mismatches: [String] = []
    // Warm-up pass, with the agreement check.
    for (position, request) in log.enumerated() {
        let response = try index.search(request)
        guard withScan else { continue }
        let expected = scan.search(request)
        // Hits of a query with words are also ordered by the attribute they match in, which the
        // scan does not model: for those, the counts must agree; without words, the order too.
        let orderChecked = request.query.isEmpty
        if response.nbHits != expected.nbHits || (orderChecked && response.objectIDs != expected.firstIDs) {
            mismatches.append("#\(position) \(request.urlEncoded): engine \(response.nbHits) \(response.objectIDs.prefix(3)), scan \(expected.nbHits) \(expected.firstIDs.prefix(3))")
        }
    }
    for _ in 0..<repeats {
        for (position, request) in log.enumerated() {
            let started = clock.now
            _ = try index.search(request)
            engineTimes[position].append((clock.now - started).nanoseconds)
            guard withScan else { continue }
            let scanStarted = clock.now
            _ = scan.search(request)
            scanTimes[position].append((clock.now - scanStarted).nanoseconds)
        }
    }
    func summary(_ times: [[Int64]], where include: (SearchParameters) -> Bool) -> LatencySummary {
        LatencySummary(nanoseconds: zip(times, log).filter { include($0.1) }.map { median($0.0) })
    }
    let isBox: (SearchParameters) -> Bool = { $0.other["insideBoundingBox"] != nil }
    let rows: [(String, (SearchParameters) -> Bool)] = [("all", { _ in true }), ("box", isBox), ("around", { !isBox($0) })]
    var report: JSONObject = ["benchmark": "geo", "records": .int(Int64(size)), "requests": .int(Int64(log.count)),
                              "repeat": .int(Int64(repeats)), "mismatches": .int(Int64(mismatches.count)),
                              "machine": machineDescription()]
    if let importSeconds { report["import_s"] = .double(round1(importSeconds)) }
    for (name, include) in rows {
        report["engine_" + name] = summary(engineTimes, where: include).json
        report["scan_" + name] = summary(scanTimes, where: include).json
    }
    for mismatch in mismatches.prefix(5) { FileHandle.standardError.write(Data(("mismatch: " + mismatch + "\n").utf8)) }
    printJSON(.object(report))
    if !mismatches.isEmpty { throw BenchError("\(mismatches.count) requests answered differently by the engine and the scan") }
}

/// The geo keystroke log: deterministic (its own SplitMix64-style generator, seed 7).
enum GeoLog {
    static let words = ["coffee", "bakery", "pharmacy", "books", "sushi", "gym", "flowers", "market", "bike", "gelato", "grill"]
    static let cities: [(lat: Double, lng: Double, stretch: Double)] = [
        (35.6762, 139.6503, 1.231), (40.7128, -74.0060, 1.320), (48.8566, 2.3522, 1.520), (51.5074, -0.1278, 1.608),
        (-33.8688, 151.2093, 1.204), (37.7749, -122.4194, 1.266), (19.0760, 72.8777, 1.058), (-23.5558, -46.6396, 1.091),
    ]

    static func requests(sessions: Int) -> [SearchParameters] {
        var generator = SplitMix64(state: 7)
        func next() -> UInt64 { generator.next() }
        func unit() -> Double { generator.unit() }
        func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
        func parameters(_ object: JSONObject) -> SearchParameters { try! SearchParameters(json: object) }

        var log: [SearchParameters] = []
        for session in 0..<sessions {
            let city = pick(cities)
            var lat = city.lat + (unit() - 0.5) * 0.1, lng = city.lng + (unit() - 0.5) * 0.1 * city.stretch
            if session % 2 == 0 {
                // A map view: a box at a zoom level, panned 8 times, sometimes with a word typed.
                var half = pick([0.005, 0.02, 0.08])
                let query = unit() < 0.3 ? pick(words) : ""
                for step in 0..<8 {
                    if step == 4, unit() < 0.5 { half *= pick([0.5, 2.0]) }   // zoom
                    lat += (unit() - 0.5) * half
                    lng += (unit() - 0.5) * half * city.stretch
                    let box: JSONValue = [[.number(lat - half), .number(lng - half * city.stretch),
                                           .number(lat + half), .number(lng + half * city.stretch)]]
                    log.append(parameters(["query": .string(query), "insideBoundingBox": box, "hitsPerPage": 20,
                                           "facets": ["category"]]))
                }
            } else {
                // "Near me": a word typed letter by letter around a point.
                let word = pick(words)
                let radius: JSONValue? = pick([.int(1_000), .int(5_000), nil])
                for end in 1...word.count {
                    var object: JSONObject = ["query": .string(String(word.prefix(end))), "aroundLatLng": .string("\(lat), \(lng)"),
                                              "hitsPerPage": 20]
                    if let radius { object["aroundRadius"] = radius }
                    log.append(parameters(object))
                }
            }
        }
        return log
    }
}

/// A linear scan over the places: every record's locations and words tested for each request.
struct BruteForcePlaces {
    let ids: [String]
    /// Per record, its locations (lat, lng pairs).
    let locations: [[(lat: Double, lng: Double)]]
    /// Per record, the folded words of its searchable attributes.
    let words: [[String]]
    let reviews: [Int]
    let ratings: [Double]
    let categories: [String]

    init(_ records: [JSONValue]) {
        var ids: [String] = [], locations: [[(Double, Double)]] = [], words: [[String]] = [], reviews: [Int] = []
        var ratings: [Double] = [], categories: [String] = []
        for record in records {
            ids.append(record["objectID"]!.stringValue!)
            var points: [(Double, Double)] = []
            switch record["_geoloc"] {
            case .object(let point)?: points.append((point["lat"]!.doubleValue!, point["lng"]!.doubleValue!))
            case .array(let list)?: for point in list { points.append((point["lat"]!.doubleValue!, point["lng"]!.doubleValue!)) }
            default: break
            }
            locations.append(points)
            let text = ["name", "category", "address", "district", "city", "country"].compactMap { record[$0]?.stringValue }.joined(separator: " ")
            words.append(BruteForcePlaces.words(text))
            reviews.append(record["reviews"]!.intValue!)
            ratings.append(record["rating"]!.doubleValue!)
            categories.append(record["category"]!.stringValue!)
        }
        (self.ids, self.locations, self.words, self.reviews, self.ratings, self.categories) = (ids, locations, words, reviews, ratings, categories)
    }

    static func words(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    static func distance(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        let r = Double.pi / 180
        let a = sin((lat2 - lat1) * r / 2), b = sin((lng2 - lng1) * r / 2)
        let h = a * a + cos(lat1 * r) * cos(lat2 * r) * b * b
        return 2 * 6_371_000 * asin(min(1, h.squareRoot()))
    }

    /// nbHits and the first page's objectIDs: within the box, or within the radius (for the
    /// automatic radius, the 1,000 nearest records' reach) ordered by distance in 10 m groups.
    func search(_ request: SearchParameters) -> (nbHits: Int, firstIDs: [String]) {
        let queryWords = BruteForcePlaces.words(request.query)
        func matchesText(_ record: Int) -> Bool {
            for (position, word) in queryWords.enumerated() {
                let last = position == queryWords.count - 1
                if !words[record].contains(where: { last ? $0.hasPrefix(word) : $0 == word }) { return false }
            }
            return true
        }
        var hits: [(group: Int, record: Int)] = []
        if case .array(let boxes)? = request.other["insideBoundingBox"], case .array(let box) = boxes[0] {
            let numbers = box.map { $0.doubleValue! }
            let (latMin, latMax) = (min(numbers[0], numbers[2]), max(numbers[0], numbers[2]))
            let (lngMin, lngMax) = (min(numbers[1], numbers[3]), max(numbers[1], numbers[3]))
            for record in ids.indices where locations[record].contains(where: {
                $0.lat >= latMin && $0.lat <= latMax && $0.lng >= lngMin && $0.lng <= lngMax
            }) && matchesText(record) {
                hits.append((0, record))
            }
        } else if let center = request.other["aroundLatLng"]?.stringValue {
            let parts = center.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces))! }
            let nearest = ids.indices.map { record in
                locations[record].map { BruteForcePlaces.distance(parts[0], parts[1], $0.lat, $0.lng) }.min() ?? .infinity
            }
            let radius: Double
            if let given = request.other["aroundRadius"]?.doubleValue {
                radius = given
            } else {
                let sorted = nearest.filter(\.isFinite).sorted()
                radius = max(1, sorted[min(999, sorted.count - 1)].rounded(.up))
            }
            for record in ids.indices where nearest[record] <= radius && matchesText(record) {
                hits.append((Int(nearest[record] / 10), record))
            }
        }
        // Then the custom ranking (reviews, rating, both descending), then insertion order.
        hits.sort { a, b in
            if a.group != b.group { return a.group < b.group }
            if reviews[a.record] != reviews[b.record] { return reviews[a.record] > reviews[b.record] }
            if ratings[a.record] != ratings[b.record] { return ratings[a.record] > ratings[b.record] }
            return a.record < b.record
        }
        let hitsPerPage = request.hitsPerPage ?? 20
        return (hits.count, hits.prefix(hitsPerPage).map { ids[$0.record] })
    }
}

private extension SearchResponse {
    var objectIDs: [String] { hits.compactMap { $0["objectID"]?.stringValue } }
}
