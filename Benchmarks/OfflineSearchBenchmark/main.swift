import Foundation
import OfflineSearch
import SearchAPI

let usage = """
usage: offline-search-benchmark <command> [options]

commands:
  keystrokes --size N [--source generated|real] [--data DIR] [--repeat R] [--sample-every K] [--typo-tolerance off|on|min|strict]
             [--limit K] [--seed S] [--datasets DIR] [--write-log FILE] [--cold-runs N]
             [--in-process] [--keep] [--json] [--json-out FILE]
      Builds a products corpus of N records (generated: DatasetGenerator; real:
      ../shared/datasets/products.json replicated as shared/bench/make_corpus.py does), imports it into a
      fresh data directory (timed), measures cold open-to-first-result in a child process,
      then replays the search-as-you-type log of the K (300) most popular query suggestions
      (generated: the bundled instantsearch_query_suggestions; real: query_suggestions.json)
      (every keystroke prefix; 20 hits, facets brand and categories, name highlighted) in a
      child process (--in-process: in this one).
  replay --data DIR --log FILE.jsonl [--repeat R] [--sample-every K] [--no-warmup] [--no-analytics]
         [--search-cache MIB] [--encode] [--json]
      Replays any JSON Lines log of requests ({"indexName": ..., ...params}, the lines
      `offline-search query` reads) against the indices of an existing data directory
      (--no-analytics: the engine counts no searches; --search-cache: the engine's
      searchCacheSize in MiB, 0 for none; default: by the index's size; --encode: each request's
      time includes encoding its answer as the JSON bytes `query` and `serve` send).
  open-first --data DIR --index NAME [--query TEXT | --log FILE.jsonl]
      Opens the index and runs one search (the log's first request, or --query); prints JSON
      with the open and first-search times and the resident memory.
  refinements --data DIR [--index NAME] [--repeat R] [--limit K] [--source generated|real] [--json]
      Against an index made by `keystrokes --keep` (the same --source): the keystroke log plain, with
      3 facet filters + 1 numeric range + 3 facets, as brand facet-value searches, and as
      InstantSearch's disjunctive multi-search (1 hits query + 2 facet queries) vs the hits
      query alone.
  headless --data DIR [--index NAME] [--repeat R] [--limit K] [--source generated|real] [--json]
      Against an index made by `keystrokes --keep` (the same --source): the keystroke log typed into a
      HitsSearcher with two disjunctive refinement lists (brand and categories, two values refined
      in each), against the same multi-search requests sent to the engine directly; both timed
      from the main actor until the answer is back on it. Reports the layer's overhead.
  write-log --out FILE.jsonl [--limit K] [--source generated|real] [--datasets DIR]
      Writes the keystroke log only (the lines of shared/bench/make_queries.py).
  writes --data DIR [--index NAME] [--count N] [--batches B] [--delta D --log FILE.jsonl] [--durability processCrash|powerLoss]
         [--replicas R]
      Against an index made by `keystrokes --keep`: N single-record saves (half new, half
      replacements), N partial updates and N deletes, each timed until committed and searchable;
      B batches of 1,000 new records (records/s); with --delta, D writes left in the delta, then
      the keystroke log replayed with them and again once merged; with --replicas, R sort
      replicas made first (asc/desc price), which every write also updates. Prints JSON.
  geo --size N [--data DIR] [--repeat R] [--sessions S] [--keep] [--engine-only]
      Generates N places (DatasetGenerator, seed 1) into an index `places` (reused when DIR holds
      one of that size), then replays the geo keystroke log (S sessions: half map views panning
      a bounding box, half a word typed around a point with a radius or the automatic one) against
      the engine and against a brute-force scan of the same records, checking they agree
      (--engine-only: no scan, for profiling). Prints JSON.
  write-corpus --out FILE.json --size N [--source generated|real] [--seed S] [--datasets DIR]
      Writes the corpus keystrokes imports, as a JSON array (as shared/bench/make_corpus.py).

defaults: --source generated (real: the project's ../shared/datasets, or --datasets DIR), --repeat 3, --sample-every 1, --limit 300, --seed 42, --cold-runs 3;
without --data a temporary directory under /tmp is used and deleted at the end (--keep keeps it).
Times are per request: the median over the repeats of the time around SearchIndex.search,
after one untimed warm-up pass.
"""

struct Arguments {
    var command: String
    var values: [String: String] = [:]
    var flags: Set<String> = []

    static let valueOptions: [String: Set<String>] = [
        "keystrokes": ["--size", "--source", "--data", "--repeat", "--sample-every", "--limit", "--seed", "--typo-tolerance",
                       "--datasets", "--write-log", "--cold-runs", "--index", "--json-out"],
        "replay": ["--data", "--log", "--repeat", "--sample-every", "--search-cache"],
        "open-first": ["--data", "--index", "--query", "--log"],
        "refinements": ["--data", "--index", "--repeat", "--limit", "--source", "--datasets"],
        "headless": ["--data", "--index", "--repeat", "--limit", "--source", "--datasets"],
        "write-log": ["--out", "--limit", "--source", "--datasets", "--index"],
        "write-corpus": ["--out", "--size", "--source", "--seed", "--datasets"],
        "writes": ["--data", "--index", "--count", "--batches", "--delta", "--log", "--repeat", "--durability", "--replicas"],
        "geo": ["--size", "--data", "--repeat", "--sessions"],
    ]
    static let flagOptions: [String: Set<String>] = [
        "keystrokes": ["--in-process", "--keep", "--json"],
        "replay": ["--no-warmup", "--no-analytics", "--encode", "--json"],
        "open-first": [],
        "refinements": ["--json"],
        "headless": ["--json"],
        "write-log": [],
        "write-corpus": [],
        "writes": [],
        "geo": ["--keep", "--engine-only"],
    ]

    init(_ arguments: [String]) throws {
        guard let command = arguments.first, Arguments.valueOptions[command] != nil else {
            throw UsageError(arguments.first.map { $0 == "-h" || $0 == "--help" ? "" : "unknown command `\($0)`" } ?? "missing command")
        }
        self.command = command
        var i = 1
        while i < arguments.count {
            let name = arguments[i]
            if name == "-h" || name == "--help" { throw UsageError("") }
            if Arguments.flagOptions[command]!.contains(name) {
                flags.insert(name)
            } else if Arguments.valueOptions[command]!.contains(name) {
                guard i + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
                values[name] = arguments[i + 1]
                i += 1
            } else {
                throw UsageError("unknown option `\(name)` for \(command)")
            }
            i += 1
        }
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw UsageError("\(command) needs \(name)") }
        return value
    }

    func int(_ name: String, default fallback: Int? = nil, min: Int = 0) throws -> Int {
        guard let text = values[name] else {
            guard let fallback else { throw UsageError("\(command) needs \(name)") }
            return fallback
        }
        let cleaned = text.replacingOccurrences(of: "_", with: "").lowercased()
        let value: Int?
        if cleaned.hasSuffix("k") { value = Int(cleaned.dropLast()).map { $0 * 1000 } }
        else if cleaned.hasSuffix("m") { value = Int(cleaned.dropLast()).map { $0 * 1_000_000 } }
        else { value = Int(cleaned) }
        guard let value, value >= min else { throw UsageError("\(name): expected an integer ≥ \(min), got `\(text)`") }
        return value
    }
}

struct UsageError: Error {
    var description: String
    init(_ description: String) { self.description = description }
}

func printJSON(_ value: JSONValue) {
    print(value.jsonString)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: keystrokes

func runKeystrokes(_ args: Arguments) throws {
    let size = try args.int("--size", min: 1)
    let source = try DataSource(args)
    let repeats = try args.int("--repeat", default: 3, min: 1)
    let sampleEvery = try args.int("--sample-every", default: 1, min: 1)
    let limit = try args.int("--limit", default: 300, min: 1)
    let coldRuns = try args.int("--cold-runs", default: 3, min: 1)
    let seed = try args.int("--seed", default: 42)
    let indexName = args.values["--index"] ?? "products"
    let clock = ContinuousClock()
    let json = args.flags.contains("--json")

    // Work directory: the data directory, and the log beside it (not in it: it is measured).
    let temporary = args.values["--data"] == nil
    let workDirectory = temporary
        ? NSTemporaryDirectory() + "offline-search-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        : nil
    let dataDirectory = args.values["--data"] ?? workDirectory! + "/data"
    if let workDirectory { try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true) }
    defer {
        if let workDirectory, !args.flags.contains("--keep") { try? FileManager.default.removeItem(atPath: workDirectory) }
    }

    // The log.
    let requests = try source.keystrokeLog(args, limit: limit, indexName: indexName)
    let logPath = args.values["--write-log"] ?? (workDirectory ?? NSTemporaryDirectory()) + "/keystrokes-\(ProcessInfo.processInfo.processIdentifier).jsonl"
    try KeystrokeLog.write(requests, to: logPath)
    defer { if args.values["--write-log"] == nil, workDirectory == nil { try? FileManager.default.removeItem(atPath: logPath) } }
    log("log: \(requests.count) requests → \(logPath)")

    // The corpus.
    let buildStarted = clock.now
    var records: [JSONValue]
    var settings: JSONObject
    records = try source.products(args, size: size, seed: UInt64(seed))
    switch source {
    case .real: settings = try RealCorpus.settings(datasets: DataSource.realDatasets(args))
    case .generated: settings = GeneratedCorpus.settings()
    }
    // Typo tolerance is off unless asked for (the peers' semantics): --typo-tolerance on|off|min|strict.
    switch args.values["--typo-tolerance"] ?? "off" {
    case "off": settings["typoTolerance"] = false
    case "on": settings["typoTolerance"] = true
    case let mode where mode == "min" || mode == "strict": settings["typoTolerance"] = .string(mode)
    case let other: throw BenchError("--typo-tolerance: expected on, off, min or strict, got \(other)")
    }
    let buildDuration = clock.now - buildStarted
    log("corpus: \(records.count) \(source) records built in \(String(format: "%.2f", buildDuration.seconds)) s")
    let rssBeforeImport = residentMemory().bytes

    // Import: from parsed records to committed.
    var importDuration = Duration.zero
    var settingsDuration = Duration.zero
    var rssAfterImport = 0
    do {
        let engine = try SearchEngine(directory: URL(fileURLWithPath: dataDirectory))
        try engine.deleteIndex(indexName)
        let index = try engine.index(indexName)
        log("import: \(records.count) records into \(dataDirectory) …")
        let started = clock.now
        try index.setSettings(settings)
        let settled = clock.now
        try index.saveObjects(records, replaceExisting: true)
        let done = clock.now
        settingsDuration = settled - started
        importDuration = done - started
        rssAfterImport = residentMemory().bytes
        guard index.recordCount == records.count else {
            throw BenchError("imported \(index.recordCount) records, expected \(records.count)")
        }
    }
    let recordCount = records.count
    records = []
    let importPeak = peakResidentMemory()
    let indexSize = directorySize(dataDirectory)
    let indexFiles = directoryFiles(dataDirectory)
    log(String(format: "import: %.2f s, %@ records/s; index %@ on disk", importDuration.seconds,
               formatCount(Double(recordCount) / importDuration.seconds), formatBytes(indexSize)))

    // Cold open to first result, each in a fresh process.
    var coldRunsJSON: [JSONValue] = []
    var coldWalls: [Duration] = []
    for _ in 0..<coldRuns {
        let (output, wall) = try runSelf(["open-first", "--data", dataDirectory, "--index", indexName, "--log", logPath])
        var o = output
        o["processWallMS"] = .double(round3(wall.milliseconds))
        coldRunsJSON.append(.object(o))
        coldWalls.append(wall)
    }
    let firstCold = coldRunsJSON[0].objectValue!
    func coldMedian(_ key: String) -> Double {
        let values = coldRunsJSON.compactMap { $0[key]?.doubleValue }.sorted()
        return values.isEmpty ? 0 : (values.count % 2 == 1 ? values[values.count / 2] : (values[values.count / 2 - 1] + values[values.count / 2]) / 2)
    }
    log(String(format: "cold open → first result: %.2f ms (first run), %.2f ms (median of %d)",
               firstCold["openToFirstResultMS"]?.doubleValue ?? 0, coldMedian("openToFirstResultMS"), coldRuns))

    // The keystroke log.
    let result: ReplayResult
    if args.flags.contains("--in-process") {
        result = try replay(dataDirectory: dataDirectory, queries: try readRequestLog(logPath),
                            options: ReplayOptions(repeats: repeats, sampleEvery: sampleEvery))
    } else {
        let (output, _) = try runSelf(["replay", "--data", dataDirectory, "--log", logPath, "--repeat", String(repeats),
                                       "--sample-every", String(sampleEvery), "--json"])
        result = ReplayResult(json: output["replay"]?.objectValue ?? output)
    }

    let summary: JSONObject = [
        "benchmark": "keystrokes", "source": .string(source.rawValue), "size": .int(Int64(recordCount)),
        "index": .string(indexName), "dataDirectory": .string(dataDirectory), "log": .string(logPath),
        "machine": machineDescription(),
        "corpusBuildS": .double(round3(buildDuration.seconds)),
        "import": [
            "records": .int(Int64(recordCount)), "seconds": .double(round3(importDuration.seconds)),
            "settingsSeconds": .double(round3(settingsDuration.seconds)),
            "recordsPerSecond": .double(Double(recordCount) / importDuration.seconds).rounded0,
            "rssBeforeImportBytes": .int(Int64(rssBeforeImport)), "rssAfterImportBytes": .int(Int64(rssAfterImport)),
            "peakRSSBytes": .int(Int64(importPeak)),
        ],
        "indexSizeBytes": .int(Int64(indexSize)), "indexFiles": filesJSON(indexFiles),
        "cold": [
            "runs": .array(coldRunsJSON),
            "firstOpenToFirstResultMS": firstCold["openToFirstResultMS"] ?? .null,
            "medianOpenToFirstResultMS": .double(coldMedian("openToFirstResultMS")),
            "medianProcessWallMS": .double(round3(coldMedian("processWallMS"))),
            "rssAfterOpenBytes": firstCold["rssAfterOpenBytes"] ?? .null,
        ],
        "replay": result.json,
        "replayInProcess": .bool(args.flags.contains("--in-process")),
    ]
    if let jsonOut = args.values["--json-out"] {
        guard FileManager.default.createFile(atPath: jsonOut, contents: Data((JSONValue.object(summary).jsonString + "\n").utf8)) else {
            throw BenchError("cannot write \(jsonOut)")
        }
    }
    if json {
        printJSON(.object(summary))
        return
    }
    let l = result.latency
    print("""

    keystrokes: \(source) products, \(formatCount(Double(recordCount))) records, index `\(indexName)`
      corpus build            \(String(format: "%.2f s", buildDuration.seconds))
      import                  \(String(format: "%.2f s", importDuration.seconds))  (\(formatCount(Double(recordCount) / importDuration.seconds)) records/s; settings \(String(format: "%.3f s", settingsDuration.seconds)); peak RSS \(formatBytes(importPeak)))
      index size on disk      \(formatBytes(indexSize)) (\(describeFiles(indexFiles)))
      cold open → 1st result  \(String(format: "%.2f ms", firstCold["openToFirstResultMS"]?.doubleValue ?? 0)) first run (open \(String(format: "%.2f", firstCold["openMS"]?.doubleValue ?? 0)) + search \(String(format: "%.2f", firstCold["firstSearchMS"]?.doubleValue ?? 0)) ms); median of \(coldRuns): \(String(format: "%.2f ms", coldMedian("openToFirstResultMS"))); process wall \(String(format: "%.1f ms", coldMedian("processWallMS")))
      RSS after open          \(formatBytes(firstCold["rssAfterOpenBytes"]?.intValue ?? 0)) (fresh process, \(firstCold["rssSource"]?.stringValue ?? ""))
      log                     \(result.totalRequests) requests\(sampleEvery > 1 ? ", every \(sampleEvery)th timed (\(result.timedRequests))" : ""), \(result.repeats) repeats + warm-up, \(result.errors) errors, nbHits checksum \(result.nbHitsChecksum)
      per request             p50 \(formatMicros(l.p50))   p90 \(formatMicros(l.p90))   p99 \(formatMicros(l.p99))   max \(formatMicros(l.max))   mean \(formatMicros(l.mean))
      RSS replay process      after open \(formatBytes(result.rssAfterOpen)), after log \(formatBytes(result.rssAfterLog)) (peak \(formatBytes(result.peakRSS)))
    """)
    if let error = result.firstError { print("  first error             \(error)") }
    if !temporary || args.flags.contains("--keep") { print("  data kept in            \(dataDirectory)") }
}

extension JSONValue {
    var rounded0: JSONValue {
        if case .double(let d) = self, d.isFinite { return .int(Int64(d.rounded())) }
        return self
    }
}

// MARK: replay

/// `--search-cache MIB`, from 0 to 65536 (as `serve --search-cache`).
func searchCacheMiB(_ args: Arguments) throws -> Int {
    let mib = try args.int("--search-cache")
    guard mib <= 65536 else { throw UsageError("--search-cache: expected 0 to 65536 MiB, got \(mib)") }
    return mib
}

func runReplay(_ args: Arguments) throws {
    let dataDirectory = try args.string("--data")
    let logPath = try args.string("--log")
    let options = ReplayOptions(repeats: try args.int("--repeat", default: 3, min: 1),
                                sampleEvery: try args.int("--sample-every", default: 1, min: 1),
                                warmup: !args.flags.contains("--no-warmup"), analytics: !args.flags.contains("--no-analytics"),
                                searchCacheSize: args.values["--search-cache"] == nil ? nil : try searchCacheMiB(args) * 1024 * 1024,
                                encode: args.flags.contains("--encode"))
    guard FileManager.default.fileExists(atPath: dataDirectory) else { throw BenchError("no data directory at \(dataDirectory)") }
    let queries = try readRequestLog(logPath)
    guard !queries.isEmpty else { throw BenchError("\(logPath): no requests") }
    let result = try replay(dataDirectory: dataDirectory, queries: queries, options: options)
    let indexSize = directorySize(dataDirectory)
    if args.flags.contains("--json") {
        printJSON(["benchmark": "replay", "dataDirectory": .string(dataDirectory), "log": .string(logPath),
                   "indexSizeBytes": .int(Int64(indexSize)), "indexFiles": filesJSON(directoryFiles(dataDirectory)), "machine": machineDescription(), "replay": result.json])
        return
    }
    let l = result.latency
    print("""
    replay: \(logPath) against \(dataDirectory) (\(formatBytes(indexSize)) on disk)
      open                    \(String(format: "%.2f ms", result.openDuration.milliseconds)) (engine and the log's indices)
      log                     \(result.totalRequests) requests\(options.sampleEvery > 1 ? ", every \(options.sampleEvery)th timed (\(result.timedRequests))" : ""), \(result.repeats) repeats\(options.warmup ? " + warm-up" : ""), \(result.errors) errors, nbHits checksum \(result.nbHitsChecksum)\(options.encode ? ", \(formatBytes(result.encodedBytes)) of answers encoded" : "")
      per request             p50 \(formatMicros(l.p50))   p90 \(formatMicros(l.p90))   p99 \(formatMicros(l.p99))   max \(formatMicros(l.max))   mean \(formatMicros(l.mean))
      RSS (\(result.rssLabel))            after open \(formatBytes(result.rssAfterOpen)), after log \(formatBytes(result.rssAfterLog)) (peak \(formatBytes(result.peakRSS)))
    """)
    if let error = result.firstError { print("  first error             \(error)") }
}

// MARK: open-first

func runOpenFirst(_ args: Arguments) throws {
    let dataDirectory = try args.string("--data")
    var indexName = args.values["--index"]
    var parameters = SearchParameters(query: args.values["--query"] ?? "")
    if let logPath = args.values["--log"] {
        guard case .hits(let name, let first)? = try readRequestLog(logPath).first else {
            throw BenchError("\(logPath): the first request must be a hits search")
        }
        parameters = first
        if indexName == nil { indexName = name }
    }
    guard let indexName else { throw BenchError("open-first needs --index (or --log)") }
    printJSON(.object(try openFirst(dataDirectory: dataDirectory, indexName: indexName, parameters: parameters)))
}

// MARK: write-log

func runWriteLog(_ args: Arguments) throws {
    let out = try args.string("--out")
    let requests = try DataSource(args).keystrokeLog(args, limit: try args.int("--limit", default: 300, min: 1),
                                                     indexName: args.values["--index"] ?? "products")
    try KeystrokeLog.write(requests, to: out)
    print("wrote \(requests.count) requests to \(out)")
}

// MARK: write-corpus

func runWriteCorpus(_ args: Arguments) throws {
    let out = try args.string("--out")
    let size = try args.int("--size", min: 1)
    let records = try DataSource(args).products(args, size: size, seed: UInt64(try args.int("--seed", default: 42)))
    guard FileManager.default.createFile(atPath: out, contents: Data(JSONValue.array(records).jsonBytes)) else {
        throw BenchError("cannot write \(out)")
    }
    print("wrote \(records.count) records to \(out)")
}

// MARK: main

// The proximity criterion's tied-group limit, for measuring its cost (inherited by the child
// processes that replay): a number, or `none` for no limit.
if let limit = ProcessInfo.processInfo.environment["OFFLINE_SEARCH_PROXIMITY_LIMIT"] {
    SearchIndex.proximityGroupLimit = limit == "none" ? Int.max : Int(limit) ?? SearchIndex.proximityGroupLimit
}

do {
    let args = try Arguments(Array(CommandLine.arguments.dropFirst()))
    switch args.command {
    case "keystrokes": try runKeystrokes(args)
    case "replay": try runReplay(args)
    case "open-first": try runOpenFirst(args)
    case "refinements": try runRefinements(args)
    case "headless": try await runHeadless(args)
    case "write-corpus": try runWriteCorpus(args)
    case "writes": try runWrites(args)
    case "geo": try runGeo(args)
    default: try runWriteLog(args)
    }
} catch let error as UsageError {
    if !error.description.isEmpty { log("error: \(error.description)\n") }
    log(usage)
    exit(error.description.isEmpty ? 0 : 2)
} catch let error as BenchError {
    log("error: \(error.description)")
    exit(1)
} catch let error as SearchError {
    log("error: \(error.message)")
    exit(1)
} catch {
    log("error: \(error)")
    exit(1)
}
