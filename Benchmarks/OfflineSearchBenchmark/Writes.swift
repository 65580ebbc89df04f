import Foundation
import OfflineSearch
import SearchAPI

// MARK: writes

/// Writes to an existing index (made by `keystrokes --keep`): single-record saves (half new
/// records, half replacements), partial updates and deletes, each timed until committed and
/// searchable; batches of 1,000 records; then the keystroke log with many recent writes in the
/// delta against the same log once they are merged.
func runWrites(_ args: Arguments) throws {
    let dataDirectory = try args.string("--data")
    let indexName = args.values["--index"] ?? "products"
    let count = try args.int("--count", default: 300, min: 1)
    let batches = try args.int("--batches", default: 3, min: 0)
    let deltaWrites = try args.int("--delta", default: 0, min: 0)
    let durability = SearchEngine.Durability(rawValue: args.values["--durability"] ?? "processCrash")
    guard let durability else { throw BenchError("--durability: expected processCrash or powerLoss") }
    let clock = ContinuousClock()
    let engine = try SearchEngine(directory: URL(fileURLWithPath: dataDirectory), durability: durability)
    let index = try engine.existingIndex(indexName)
    let size = index.recordCount
    // Sort replicas (`--replicas N`): each write then also goes to N replicas, in transactions of
    // their own, before it returns.
    let replicaCount = try args.int("--replicas", default: 0, min: 0)
    if replicaCount > 0 {
        let names = (0..<replicaCount).map { "\(indexName)_replica_\($0)" }
        try index.setSettings(["replicas": .array(names.map { .string($0) })])
        for (i, name) in names.enumerated() {
            try engine.existingIndex(name).setSettings(["ranking": .array([.string(i % 2 == 0 ? "asc(price)" : "desc(price)"),
                "typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"])])
        }
        log("\(replicaCount) replicas made")
    }
    var templates = try index.browse(SearchParameters()).response.hits.compactMap(\.objectValue)
    guard !templates.isEmpty else { throw BenchError("\(indexName) is empty") }
    if templates.count > 500 { templates = Array(templates.prefix(500)) }
    var report: JSONObject = ["benchmark": "writes", "index": .string(indexName), "records": .int(Int64(size)),
                              "durability": .string(durability.rawValue), "deltaLimit": .int(Int64(SearchIndex.deltaLimit)),
                              "replicas": .int(Int64(replicaCount)),
                              "machine": machineDescription()]
    func timed(_ body: () throws -> Void) rethrows -> Int64 {
        let started = clock.now
        try body()
        return (clock.now - started).nanoseconds
    }
    func record(_ template: JSONObject, id: String, salt: Int) -> JSONValue {
        var record = template
        record["objectID"] = .string(id)
        record["_rankingInfo"] = nil
        record["_highlightResult"] = nil
        record["price"] = .double(Double(salt % 1000) + 0.99)
        return .object(record)
    }
    let searched = SearchParameters(query: "")

    // Single-record saves: even ones add a record, odd ones replace one.
    var saves: [Int64] = []
    for i in 0..<count {
        let template = templates[i % templates.count]
        let id = i % 2 == 0 ? "bench-\(UUID().uuidString)" : template["objectID"]!.stringValue!
        let value = record(template, id: id, salt: i)
        saves.append(try timed { try index.saveObjects([value]) })
    }
    _ = try index.search(searched)
    var partials: [Int64] = []
    for i in 0..<count {
        let id = templates[(i * 7) % templates.count]["objectID"]!.stringValue!
        let update: JSONValue = ["objectID": .string(id), "popularity": ["_operation": "Increment", "value": 1]]
        partials.append(try timed { _ = try index.partialUpdateObjects([update]) })
    }
    var deletes: [Int64] = []
    for i in 0..<min(count, templates.count) {
        let id = templates[i]["objectID"]!.stringValue!
        deletes.append(try timed { try index.deleteObjects([id]) })
    }
    report["saveOne"] = LatencySummary(nanoseconds: saves).json
    // Which writes were slowest (their positions, 0-based): one-time costs show at the start.
    report["slowestSaves"] = .array(saves.indices.sorted { saves[$0] > saves[$1] }.prefix(5).map {
        ["write": .int(Int64($0)), "ms": .double(round3(Double(saves[$0]) / 1e6))]
    })
    report["partialUpdateOne"] = LatencySummary(nanoseconds: partials).json
    report["deleteOne"] = LatencySummary(nanoseconds: deletes).json
    log("single writes done (delta \(index.deltaCount))")

    // Batches of 1,000 new records.
    var batchTimes: [Int64] = []
    for b in 0..<batches {
        let batch = (0..<1000).map { i in record(templates[i % templates.count], id: "batch-\(b)-\(i)-\(UUID().uuidString)", salt: i) }
        batchTimes.append(try timed { try index.saveObjects(batch) })
    }
    if !batchTimes.isEmpty {
        let seconds = Double(batchTimes.reduce(0, +)) / 1e9
        // Until the merges the batches started are done (a merge of the whole index past
        // `deltaLimit`, pairs of segments): the sustained rate, background work included.
        let settle = timed { index.waitForMerge() }
        report["batch1000"] = ["batches": .int(Int64(batches)), "recordsPerSecond": .double(round1(Double(batches * 1000) / seconds)),
                               "latency": LatencySummary(nanoseconds: batchTimes).json,
                               "mergesSettledAfterMs": .double(round1(Double(settle) / 1e6)),
                               "recordsPerSecondMergesIncluded": .double(round1(Double(batches * 1000) / (seconds + Double(settle) / 1e9)))]
    }
    log("batches done (delta \(index.deltaCount))")

    // The keystroke log with `deltaWrites` recent writes in the delta, then merged.
    if deltaWrites > 0, let logPath = args.values["--log"] {
        index.waitForMerge()
        try index.merge()
        SearchIndex.deltaLimit = deltaWrites * 2
        var written = 0
        while written < deltaWrites {
            let n = min(1000, deltaWrites - written)
            // Every write a record of its own: new records, a few replacing records of the base.
            let batch = (0..<n).map { i in
                let template = templates[(written + i) % templates.count]
                let replaces = (written + i) < templates.count && (written + i) % 2 == 1
                return record(template, id: replaces ? template["objectID"]!.stringValue! : "delta-\(written + i)", salt: i)
            }
            try index.saveObjects(batch)
            written += n
        }
        index.waitForMerge()   // the delta's segments merged in the background: the delta as it settles
        let queries = try readRequestLog(logPath)
        let options = ReplayOptions(repeats: try args.int("--repeat", default: 3, min: 1), sampleEvery: 1, warmup: true)
        let withDelta = try replay(engine: engine, queries: queries, options: options)
        let deltaCount = index.deltaCount
        try index.merge()
        let merged = try replay(engine: engine, queries: queries, options: options)
        report["keystrokes"] = ["deltaRecords": .int(Int64(deltaCount)), "withDelta": withDelta.latency.json,
                                "merged": merged.latency.json,
                                "nbHitsChecksumWithDelta": .int(Int64(withDelta.nbHitsChecksum)),
                                "nbHitsChecksumMerged": .int(Int64(merged.nbHitsChecksum))]
    }
    report["peakRSSBytes"] = .int(Int64(peakResidentMemory()))
    printJSON(.object(report))
}
