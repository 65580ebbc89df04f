import Foundation
import DatasetGenerator
import SearchAPI
#if canImport(Glibc)
import Glibc
#endif

/// Where a benchmark's records and keystroke log come from. `generated` (the default) needs no
/// file: `DatasetGenerator`'s products and query suggestions, so a fresh clone runs every
/// benchmark. `real` reads `products.json` and `query_suggestions.json` from the project's real
/// datasets (`../shared/datasets`, as the peers' harness in `../shared/bench` does; absent
/// from a user's clone).
enum DataSource: String {
    case generated, real

    /// `--source generated|real`, generated when absent.
    init(_ args: Arguments) throws {
        let value = args.values["--source"] ?? DataSource.generated.rawValue
        guard let source = DataSource(rawValue: value) else { throw BenchError("--source: expected generated or real, got \(value)") }
        self = source
    }

    /// The folder of the real datasets, checked to be there.
    static func realDatasets(_ args: Arguments) throws -> String {
        let directory = datasetsDirectory(args.values["--datasets"])
        guard FileManager.default.fileExists(atPath: directory + "/products.json") else {
            throw BenchError("""
                --source real reads products.json and query_suggestions.json from ../shared/datasets (or --datasets DIR, \
                or $OFFLINE_SEARCH_DATASETS): not found at \(directory). The default, --source generated, needs no file.
                """)
        }
        return directory
    }

    /// The query suggestions the keystroke log is typed from: the generated
    /// `instantsearch_query_suggestions` (2,000), or the real `query_suggestions.json`.
    func keystrokeSuggestions(_ args: Arguments) throws -> [JSONValue] {
        switch self {
        case .generated:
            return BundledDataset.named("instantsearch_query_suggestions")!.records()
        case .real:
            let path = try DataSource.realDatasets(args) + "/query_suggestions.json"
            guard case .array(let suggestions) = try readJSONFile(path) else { throw BenchError("\(path): expected a JSON array") }
            return suggestions
        }
    }

    /// The keystroke log of the `limit` most popular suggestions (see `KeystrokeLog`).
    func keystrokeLog(_ args: Arguments, limit: Int, indexName: String) throws -> [JSONObject] {
        KeystrokeLog.requests(suggestions: try keystrokeSuggestions(args), limit: limit, indexName: indexName)
    }

    /// N products: generated (seeded), or the real ones replicated as the peers' corpus is.
    func products(_ args: Arguments, size: Int, seed: UInt64) throws -> [JSONValue] {
        switch self {
        case .generated: return GeneratedCorpus.records(size: size, seed: seed)
        case .real: return try RealCorpus.records(size: size, productsPath: DataSource.realDatasets(args) + "/products.json")
        }
    }
}

/// Where the real datasets live: `--datasets DIR`, `$OFFLINE_SEARCH_DATASETS`, or the first of
/// `../shared/datasets` (from the current directory) and the same path next to this package.
func datasetsDirectory(_ explicit: String?) -> String {
    if let explicit { return explicit }
    if let env = ProcessInfo.processInfo.environment["OFFLINE_SEARCH_DATASETS"] { return env }
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let candidates = ["../shared/datasets", "shared/datasets",
                      packageRoot.appendingPathComponent("../shared/datasets").standardized.path]
    return candidates.first { FileManager.default.fileExists(atPath: $0 + "/products.json") } ?? candidates[0]
}

func readJSONFile(_ path: String) throws -> JSONValue {
    guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
    do { return try JSONValue(parsingUTF8: Array(data)) } catch { throw BenchError("\(path): \(error)") }
}

/// The real products corpus at any size, as `shared/bench/make_corpus.py` writes it (same
/// records, same seeded perturbation, same draws, so the same corpus as the peers use).
///
/// N ≤ 3291: the first N real records. Larger: record i copies real record i % 3291; every
/// copy after the first round gets price × uniform(0.8, 1.2) (rounded to cents, ≥ 0.01),
/// popularity × uniform(0.5, 1.5) (rounded half-even, ≥ 1) and one model suffix appended to
/// `name`. objectID `p<i>`, first key.
enum RealCorpus {
    static let suffixes = ["2024", "2025", "Pro", "Max", "Mini", "Plus", "XL", "V2", "V3",
                           "Lite", "Ultra", "SE", "Neo", "Go", "5G", "II", "III", "Edge",
                           "Prime", "S"]
    static let seed: UInt64 = 20_240_611

    static func records(size: Int, productsPath: String) throws -> [JSONValue] {
        guard case .array(let base) = try readJSONFile(productsPath), !base.isEmpty else {
            throw BenchError("\(productsPath): expected a non-empty JSON array of records")
        }
        var rng = MersenneTwister(seed: seed)
        var out: [JSONValue] = []
        out.reserveCapacity(size)
        for i in 0..<size {
            guard case .object(let b) = base[i % base.count] else { throw BenchError("record \(i % base.count) is not an object") }
            var r: JSONObject = ["objectID": .string("p\(i)")]
            for (key, value) in b { r[key] = value }
            if i >= base.count {
                let pf = rng.uniform(0.8, 1.2)
                let qf = rng.uniform(0.5, 1.5)
                let sx = rng.randrange(suffixes.count)
                let price = b["price"]?.doubleValue ?? 0
                r["price"] = .double(max(0.01, pythonRound2(price * pf)))
                let popularity = Double(b["popularity"]?.intValue ?? 0)
                r["popularity"] = .int(Int64(max(1, (popularity * qf).rounded(.toNearestOrEven))))
                r["name"] = .string((b["name"]?.stringValue ?? "") + " " + suffixes[sx])
            }
            out.append(.object(r))
        }
        return out
    }

    /// Python's `round(x, 2)`: the correctly rounded 2-decimal value (what `%.2f` prints).
    static func pythonRound2(_ x: Double) -> Double {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([x]) { vsnprintf(&buffer, buffer.count, "%.2f", $0) }
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return Double(text) ?? x
    }

    /// `products.settings.json` as set by the peers' corpus (its legacy `attributesToIndex` is
    /// read as `searchableAttributes`), with typo tolerance off (the benchmark's semantics).
    static func settings(datasets: String) throws -> JSONObject {
        let path = datasets + "/products.settings.json"
        var settings: JSONObject
        if FileManager.default.fileExists(atPath: path) {
            guard case .object(let object) = try readJSONFile(path) else { throw BenchError("\(path): expected an object") }
            settings = object
        } else {
            settings = [
                "searchableAttributes": ["brand", "name", "categories", "description"],
                "customRanking": ["desc(popularity)"],
                "attributesForFaceting": ["brand", "categories"],
            ]
        }
        settings["typoTolerance"] = false
        // brand is searchable for facet-value searches (the `refinements` benchmark).
        if let faceting = settings["attributesForFaceting"]?.arrayValue {
            settings["attributesForFaceting"] = .array(faceting.map { $0 == "brand" ? "searchable(brand)" : $0 })
        }
        return settings
    }
}

/// The search-as-you-type log of `shared/bench/make_queries.py`: the `limit` most popular
/// query suggestions (ties keep file order), one request per keystroke prefix (Unicode scalar
/// prefixes, skipping blank ones and ones ending in a space), 20 hits, facets brand and
/// categories, `name` highlighted. The 300 most popular real suggestions give 2,999 requests.
enum KeystrokeLog {
    static func requests(suggestions: [JSONValue], limit: Int, indexName: String) -> [JSONObject] {
        let order = suggestions.indices.sorted { a, b in
            let pa = suggestions[a]["popularity"]?.doubleValue ?? 0, pb = suggestions[b]["popularity"]?.doubleValue ?? 0
            return pa != pb ? pa > pb : a < b
        }
        var requests: [JSONObject] = []
        for i in order.prefix(limit) {
            let scalars = Array((suggestions[i]["query"]?.stringValue ?? "").unicodeScalars)
            guard !scalars.isEmpty else { continue }
            for n in 1...scalars.count {
                let prefix = scalars[0..<n]
                if prefix.allSatisfy(\.properties.isWhitespace) || prefix.last == " " { continue }
                var view = String.UnicodeScalarView()
                view.append(contentsOf: prefix)
                requests.append([
                    "indexName": .string(indexName), "query": .string(String(view)), "hitsPerPage": 20,
                    "facets": ["brand", "categories"], "attributesToHighlight": ["name"],
                ])
            }
        }
        return requests
    }

    static func write(_ requests: [JSONObject], to path: String) throws {
        var out: [UInt8] = []
        for request in requests {
            JSONValue.object(request).write(to: &out)
            out.append(0x0A)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(out)) else { throw BenchError("cannot write \(path)") }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
