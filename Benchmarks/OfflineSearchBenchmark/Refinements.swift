import Foundation
import OfflineSearch
import SearchAPI

/// `refinements`: the keystroke log with what a refined search UI adds, against an index built
/// by `keystrokes --keep` (real products). Four workloads, each per keystroke request:
///
/// * `plain`: the keystroke request as is (the baseline).
/// * `filtered`: plus 3 facet filters (an OR-group of three brands, one category, one excluded
///   category), 1 numeric range (`price:10 TO 900`) and facet counts on 3 attributes
///   (brand, categories, price).
/// * `facet values`: a facet-value search in `brand` for the request's last word (a "search
///   in brands" box).
/// * `disjunctive`: InstantSearch's multi-search for two OR-refined facets (brand and
///   categories): one hits query with both OR-groups plus one `hitsPerPage: 0` query per facet
///   without its own group — compared with the hits query alone.
enum Refinements {
    static let brandGroup: [JSONValue] = ["brand:Apple", "brand:Samsung", "brand:Incipio"]
    static let categoryGroup: [JSONValue] = ["categories:Cell Phone Accessories", "categories:Unlocked Cell Phones"]

    static func filtered(_ request: JSONObject) -> JSONObject {
        var request = request
        request["facetFilters"] = [.array(brandGroup), "categories:Cell Phones", "categories:-Prepaid Phones"]
        request["numericFilters"] = ["price:10 TO 900"]
        request["facets"] = ["brand", "categories", "price"]
        return request
    }

    static func facetValues(_ request: JSONObject) -> JSONObject {
        let lastWord = (request["query"]?.stringValue ?? "").split(separator: " ").last.map(String.init) ?? ""
        return ["indexName": request["indexName"] ?? "products", "type": "facet", "facet": "brand", "facetQuery": .string(lastWord)]
    }

    /// The hits query and the two facet queries of the disjunctive multi-search.
    static func disjunctive(_ request: JSONObject) -> [JSONObject] {
        var hits = request
        hits["facetFilters"] = [.array(brandGroup), .array(categoryGroup)]
        var brand = request
        brand["facetFilters"] = [.array(categoryGroup)]
        brand["facets"] = "brand"
        brand["hitsPerPage"] = 0
        brand["attributesToHighlight"] = []
        var categories = request
        categories["facetFilters"] = [.array(brandGroup)]
        categories["facets"] = "categories"
        categories["hitsPerPage"] = 0
        categories["attributesToHighlight"] = []
        return [hits, brand, categories]
    }
}

func runRefinements(_ args: Arguments) throws {
    let dataDirectory = try args.string("--data")
    let indexName = args.values["--index"] ?? "products"
    let repeats = try args.int("--repeat", default: 3, min: 1)
    let limit = try args.int("--limit", default: 300, min: 1)
    let requests = try DataSource(args).keystrokeLog(args, limit: limit, indexName: indexName)
    let engine = try SearchEngine(directory: URL(fileURLWithPath: dataDirectory))
    let index = try engine.existingIndex(indexName)
    func queries(_ objects: [JSONObject]) throws -> [MultiSearchQuery] { try objects.map { try MultiSearchQuery(json: .object($0)) } }

    let plain = try queries(requests)
    let filtered = try queries(requests.map(Refinements.filtered))
    let facetValues = try queries(requests.map(Refinements.facetValues))
    let disjunctive = try requests.map { try queries(Refinements.disjunctive($0)) }
    let disjunctiveHitsOnly = disjunctive.map { [$0[0]] }

    /// Per-request times (median over the repeats, after a warm-up pass) of running `work` on each item.
    func measure<Item>(_ items: [Item], _ work: (Item) throws -> Void) rethrows -> LatencySummary {
        let clock = ContinuousClock()
        for item in items { try work(item) }
        var times = [[Int64]](repeating: [], count: repeats)
        for pass in 0..<repeats {
            for item in items {
                let started = clock.now
                try work(item)
                times[pass].append((clock.now - started).nanoseconds)
            }
        }
        return LatencySummary(nanoseconds: items.indices.map { i in median(times.map { $0[i] }) })
    }
    func one(_ query: MultiSearchQuery) throws { _ = try engine.multiSearchSync([query], strategy: .none) }

    let results: [(String, LatencySummary)] = [
        ("plain keystroke request", try measure(plain, one)),
        ("+ 3 facet filters, 1 numeric range, 3 facets", try measure(filtered, one)),
        ("facet-value search (brand)", try measure(facetValues, one)),
        ("disjunctive: hits query alone", try measure(disjunctiveHitsOnly) { _ = try engine.multiSearchSync($0, strategy: .none) }),
        ("disjunctive: multi-search 1 + 2", try measure(disjunctive) { _ = try engine.multiSearchSync($0, strategy: .none) }),
    ]
    let single = results[3].1, multi = results[4].1
    if args.flags.contains("--json") {
        var object: JSONObject = ["benchmark": "refinements", "records": .int(Int64(index.recordCount)), "repeats": .int(Int64(repeats))]
        for (name, summary) in results { object[name] = summary.json }
        object["disjunctiveRatioMean"] = .double(round3(multi.mean / max(single.mean, 1e-9)))
        object["disjunctiveRatioP50"] = .double(round3(multi.p50 / max(single.p50, 1e-9)))
        printJSON(.object(object))
        return
    }
    print("refinements: \(index.recordCount) records, \(requests.count) keystroke requests, \(repeats) repeats + warm-up")
    for (name, summary) in results {
        print("  \(name.padding(toLength: 48, withPad: " ", startingAt: 0)) p50 \(formatMicros(summary.p50))   p90 \(formatMicros(summary.p90))   p99 \(formatMicros(summary.p99))   mean \(formatMicros(summary.mean))")
    }
    print(String(format: "  disjunctive multi-search / hits query alone: %.2f× (mean), %.2f× (p50)", multi.mean / max(single.mean, 1e-9), multi.p50 / max(single.p50, 1e-9)))
}
