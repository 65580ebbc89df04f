import Foundation
import OfflineSearch
import SearchAPI

/// Reads a JSON Lines request log (the lines `offline-search query` reads:
/// `{"indexName": ..., ...params}`, or `{"indexName", "type": "facet", "facet", ...}`).
func readRequestLog(_ path: String) throws -> [MultiSearchQuery] {
    guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
    let values: [JSONValue]
    do { values = try JSONValue.parseLines(utf8: Array(data)) } catch { throw BenchError("\(path): \(error)") }
    var queries: [MultiSearchQuery] = []
    queries.reserveCapacity(values.count)
    for (line, value) in values.enumerated() {
        do { queries.append(try MultiSearchQuery(json: value)) } catch {
            throw BenchError("\(path): request \(line + 1): \(error.message)")
        }
    }
    return queries
}

struct ReplayOptions {
    var repeats = 3
    var sampleEvery = 1
    var warmup = true
    /// Whether the engine counts the searches in its analytics (the library's default).
    var analytics = true
    /// The engine's `searchCacheSize` in bytes (nil: its default, by the index's size).
    var searchCacheSize: Int?
    /// Whether each timed request also encodes its answer as the JSON bytes `query` and
    /// `serve` send (`jsonValue.jsonBytes`).
    var encode = false
}

/// What one replay measured. Times are per request: the median over the repeats of the time
/// around `SearchIndex.search` (query parsing, matching, facets, ranking, fetching and
/// highlighting the hits, building the response; the JSON encoding too with `encode`).
struct ReplayResult {
    var totalRequests = 0
    var timedRequests = 0
    var repeats = 0
    var openDuration = Duration.zero
    var rssAfterOpen = 0
    var rssAfterLog = 0
    var peakRSS = 0
    var rssLabel = ""
    var latency = LatencySummary(nanoseconds: [])
    var nbHitsChecksum = 0
    var errors = 0
    var firstError: String?
    var replayWall = Duration.zero
    /// With `encode`: the bytes of the answers of the first timed pass.
    var encodedBytes = 0

    var json: JSONValue {
        var o: JSONObject = [
            "requestsInLog": .int(Int64(totalRequests)), "requestsTimed": .int(Int64(timedRequests)),
            "repeats": .int(Int64(repeats)), "openMS": .double(round3(openDuration.milliseconds)),
            "rssAfterOpenBytes": .int(Int64(rssAfterOpen)), "rssAfterLogBytes": .int(Int64(rssAfterLog)),
            "peakRSSBytes": .int(Int64(peakRSS)), "rssSource": .string(rssLabel),
            "latency": latency.json, "nbHitsChecksum": .int(Int64(nbHitsChecksum)),
            "errors": .int(Int64(errors)), "replayWallS": .double(round3(replayWall.seconds)),
        ]
        if let firstError { o["firstError"] = .string(firstError) }
        if encodedBytes > 0 { o["encodedBytes"] = .int(Int64(encodedBytes)) }
        return .object(o)
    }

    init() {}

    init(json o: JSONObject) {
        totalRequests = o["requestsInLog"]?.intValue ?? 0
        timedRequests = o["requestsTimed"]?.intValue ?? 0
        repeats = o["repeats"]?.intValue ?? 0
        openDuration = .microseconds(Int64((o["openMS"]?.doubleValue ?? 0) * 1000))
        rssAfterOpen = o["rssAfterOpenBytes"]?.intValue ?? 0
        rssAfterLog = o["rssAfterLogBytes"]?.intValue ?? 0
        peakRSS = o["peakRSSBytes"]?.intValue ?? 0
        rssLabel = o["rssSource"]?.stringValue ?? ""
        let l = o["latency"]
        var summary = LatencySummary(nanoseconds: [])
        summary.count = l?["requests"]?.intValue ?? 0
        summary.p50 = l?["p50_us"]?.doubleValue ?? 0
        summary.p90 = l?["p90_us"]?.doubleValue ?? 0
        summary.p99 = l?["p99_us"]?.doubleValue ?? 0
        summary.max = l?["max_us"]?.doubleValue ?? 0
        summary.mean = l?["mean_us"]?.doubleValue ?? 0
        latency = summary
        nbHitsChecksum = o["nbHitsChecksum"]?.intValue ?? 0
        errors = o["errors"]?.intValue ?? 0
        firstError = o["firstError"]?.stringValue
        replayWall = .milliseconds(Int64((o["replayWallS"]?.doubleValue ?? 0) * 1000))
        encodedBytes = o["encodedBytes"]?.intValue ?? 0
    }
}

/// Opens the data directory, then replays the log: one untimed warm-up pass, then `repeats`
/// timed passes over every `sampleEvery`-th request.
func replay(dataDirectory: String, queries: [MultiSearchQuery], options: ReplayOptions) throws -> ReplayResult {
    let opened = ContinuousClock.now
    let engine = try SearchEngine(directory: URL(fileURLWithPath: dataDirectory),
                                  analytics: options.analytics ? SearchAnalytics.Configuration() : nil,
                                  searchCacheSize: options.searchCacheSize)
    return try replay(engine: engine, queries: queries, options: options, openedAt: opened)
}

/// `replay` on an engine already open.
func replay(engine: SearchEngine, queries: [MultiSearchQuery], options: ReplayOptions,
            openedAt opened: ContinuousClock.Instant = ContinuousClock.now) throws -> ReplayResult {
    var result = ReplayResult()
    result.totalRequests = queries.count
    result.repeats = options.repeats
    let clock = ContinuousClock()
    var indices: [String: SearchIndex] = [:]
    for name in Set(queries.map(\.indexName)).sorted() { indices[name] = try engine.existingIndex(name) }
    result.openDuration = clock.now - opened
    (result.rssAfterOpen, result.rssLabel) = residentMemory()

    let sampled = stride(from: 0, to: queries.count, by: max(1, options.sampleEvery)).map { queries[$0] }
    result.timedRequests = sampled.count

    /// Runs one request; its nbHits and the size of its encoded answer (0 without `encode`),
    /// or nil after an error (counted).
    func run(_ query: MultiSearchQuery) -> (nbHits: Int, bytes: Int)? {
        do {
            switch query {
            case .hits(let name, let parameters):
                let response = try indices[name]!.search(parameters)
                return (response.nbHits, options.encode ? response.jsonValue.jsonBytes.count : 0)
            case .facetValues(let name, let facet, let parameters):
                let response = try indices[name]!.searchForFacetValues(facet: facet, parameters: parameters)
                return (response.facetHits.count, options.encode ? response.jsonValue.jsonBytes.count : 0)
            }
        } catch {
            result.errors += 1
            if result.firstError == nil { result.firstError = "\(error)" }
            return nil
        }
    }

    let replayStarted = clock.now
    if options.warmup {
        for query in sampled { _ = run(query) }
        result.errors = 0
    }
    var times = [[Int64]](repeating: [Int64](repeating: 0, count: sampled.count), count: max(1, options.repeats))
    for pass in times.indices {
        var checksum = 0, bytes = 0
        for (i, query) in sampled.enumerated() {
            let started = clock.now
            let answer = run(query)
            times[pass][i] = (clock.now - started).nanoseconds
            checksum += answer?.nbHits ?? 0
            bytes += answer?.bytes ?? 0
        }
        if pass == 0 { (result.nbHitsChecksum, result.encodedBytes) = (checksum, bytes) }
    }
    result.replayWall = clock.now - replayStarted
    if times.count > 1 { result.errors /= times.count }
    let perRequest = sampled.indices.map { i in median(times.map { $0[i] }) }
    result.latency = LatencySummary(nanoseconds: perRequest)
    result.rssAfterLog = residentMemory().bytes
    result.peakRSS = peakResidentMemory()
    withExtendedLifetime(engine) {}
    return result
}

/// Cold open to first result, in this (fresh) process: open the data directory and the index
/// (loading its derived index), then run one search.
func openFirst(dataDirectory: String, indexName: String, parameters: SearchParameters) throws -> JSONObject {
    let clock = ContinuousClock()
    let rssBefore = residentMemory()
    let started = clock.now
    let engine = try SearchEngine(directory: URL(fileURLWithPath: dataDirectory))
    let index = try engine.existingIndex(indexName)
    let opened = clock.now
    let rssAfterOpen = residentMemory()
    let response = try index.search(parameters)
    let answered = clock.now
    let rssAfterFirst = residentMemory()
    return [
        "index": .string(indexName), "records": .int(Int64(index.recordCount)),
        "query": .string(parameters.query), "nbHits": .int(Int64(response.nbHits)),
        "openMS": .double(round3((opened - started).milliseconds)),
        "firstSearchMS": .double(round3((answered - opened).milliseconds)),
        "openToFirstResultMS": .double(round3((answered - started).milliseconds)),
        "rssBeforeOpenBytes": .int(Int64(rssBefore.bytes)),
        "rssAfterOpenBytes": .int(Int64(rssAfterOpen.bytes)),
        "rssAfterFirstSearchBytes": .int(Int64(rssAfterFirst.bytes)),
        "rssSource": .string(rssAfterOpen.label),
    ]
}
