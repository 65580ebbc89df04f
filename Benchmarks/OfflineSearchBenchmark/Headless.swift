import Foundation
import HeadlessSearch
import OfflineSearch
import SearchAPI
import SearchTestDoubles

/// `headless`: the keystroke log typed into a `HitsSearcher` with two disjunctive refinement
/// lists (brand and categories, two values refined in each), against the very requests the
/// layer sent, sent to the engine directly. Both are timed from the main actor until the answer
/// is back on it (for the layer: until `onResults` fires, as a view would see it), so the
/// difference is the layer's own cost: building the disjunctive multi-search, the searcher's
/// task and ticket, merging the answers, the refinement lists' updates.
@MainActor
func runHeadless(_ args: Arguments) async throws {
    let dataDirectory = try args.string("--data")
    let indexName = args.values["--index"] ?? "products"
    let repeats = try args.int("--repeat", default: 3, min: 1)
    let limit = try args.int("--limit", default: 300, min: 1)
    let keystrokes = try DataSource(args).keystrokeLog(args, limit: limit, indexName: indexName)
    let engine = try SearchEngine(directory: URL(fileURLWithPath: dataDirectory))
    let index = try engine.existingIndex(indexName)
    let recorder = RecordingSearchService(wrapping: engine)

    // The searcher: the keystroke request's parameters, the query typed into it.
    var base = try SearchParameters(json: keystrokes.first ?? [:])
    base.query = ""
    let searcher = HitsSearcher(service: recorder, indexName: indexName, parameters: base)
    let filterState = FilterState()
    var connections: [any Connection] = [searcher.connectFilterState(filterState)]
    let refined = [("brand", ["Apple", "Samsung"]), ("categories", ["Cell Phone Accessories", "Unlocked Cell Phones"])]
    var lists: [FacetListInteractor] = []
    for (attribute, values) in refined {
        let list = FacetListInteractor()
        connections.append(list.connectSearcher(searcher, attribute: attribute))
        connections.append(list.connectFilterState(filterState, attribute: attribute, operator: .or))
        for value in values { list.computeSelections(selectingItemForKey: value) }
        lists.append(list)
    }

    /// Notes when the results reach the UI (the moment `onResults` fires, after the layer's
    /// own subscribers, the refinement lists, have run), then lets the typing loop go on.
    final class Waiter {
        var continuation: CheckedContinuation<Void, Never>?
        var deliveredAt = ContinuousClock.now
        var failures = 0
    }
    let waiter = Waiter()
    searcher.onResults.subscribe(with: waiter) { waiter, _ in
        waiter.deliveredAt = ContinuousClock.now
        waiter.continuation?.resume()
        waiter.continuation = nil
    }
    searcher.onError.subscribe(with: waiter) { waiter, _ in
        waiter.deliveredAt = ContinuousClock.now
        waiter.failures += 1
        waiter.continuation?.resume()
        waiter.continuation = nil
    }

    let texts = keystrokes.map { $0["query"]?.stringValue ?? "" }
    let clock = ContinuousClock()
    func typeAll() async -> [Int64] {
        var times: [Int64] = []
        for text in texts {
            let started = clock.now
            await withCheckedContinuation { continuation in
                waiter.continuation = continuation
                searcher.query = text
                searcher.search()
            }
            times.append((waiter.deliveredAt - started).nanoseconds)
        }
        return times
    }

    // The refinements above started searches of their own: let the last one answer, and the
    // superseded ones settle, before recording.
    await withCheckedContinuation { continuation in
        waiter.continuation = continuation
        searcher.search()
    }
    try await Task.sleep(for: .milliseconds(500))
    // Warm-up pass, which also records the requests the layer sends for each keystroke.
    recorder.clear()
    _ = await typeAll()
    let sent = recorder.requests
    guard sent.count == texts.count, waiter.failures == 0 else {
        throw BenchError("the searcher sent \(sent.count) requests for \(texts.count) keystrokes, with \(waiter.failures) errors")
    }
    let queriesPerRequest = sent.first?.queries.count ?? 0

    var layer = [[Int64]](), direct = [[Int64]]()
    for _ in 0..<repeats {
        layer.append(await typeAll())
        var pass: [Int64] = []
        for request in sent {
            let started = clock.now
            _ = try await request.send(to: engine)
            pass.append((clock.now - started).nanoseconds)
        }
        direct.append(pass)
    }
    _ = connections
    let layerSummary = LatencySummary(nanoseconds: texts.indices.map { i in median(layer.map { $0[i] }) })
    let directSummary = LatencySummary(nanoseconds: texts.indices.map { i in median(direct.map { $0[i] }) })
    let overheadMean = layerSummary.mean / max(directSummary.mean, 1e-9) - 1
    let overheadP50 = layerSummary.p50 / max(directSummary.p50, 1e-9) - 1

    if args.flags.contains("--json") {
        printJSON([
            "benchmark": "headless", "records": .int(Int64(index.recordCount)), "keystrokes": .int(Int64(texts.count)),
            "queriesPerRequest": .int(Int64(queriesPerRequest)), "repeats": .int(Int64(repeats)),
            "layer": layerSummary.json, "direct": directSummary.json,
            "overheadMean": .double(round3(overheadMean)), "overheadP50": .double(round3(overheadP50)),
        ])
        return
    }
    print("headless: \(index.recordCount) records, \(texts.count) keystrokes typed into a HitsSearcher with 2 disjunctive "
        + "refinement lists (\(queriesPerRequest) queries per multi-search), \(repeats) repeats + warm-up")
    for (name, summary) in [("through HitsSearcher + FacetListInteractors", layerSummary), ("the same requests to the engine", directSummary)] {
        print("  \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) p50 \(formatMicros(summary.p50))   p90 \(formatMicros(summary.p90))   p99 \(formatMicros(summary.p99))   mean \(formatMicros(summary.mean))")
    }
    print(String(format: "  the layer's overhead: %+.1f %% (mean), %+.1f %% (p50)", overheadMean * 100, overheadP50 * 100))
}
