import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI
import SearchTestDoubles
@_exported import OfflineSearchTestSupport

extension TestEngine {
    /// Imports a bundled dataset: `Datasets/NAME.json` with `Datasets/NAME.settings.json`,
    /// the settings patched by `patch` first.
    @discardableResult
    func importBundled(_ name: String, patch: (inout JSONObject) -> Void = { _ in }) throws -> SearchIndex {
        var settings = try BundledDatasets.settings(name)
        patch(&settings)
        let index = try engine.index(name)
        try index.setSettings(settings)
        _ = try index.importFile(at: BundledDatasets.records(name), replaceExisting: true)
        return index
    }
}

/// The repository's `Datasets/` folder.
enum BundledDatasets {
    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Datasets")
    }
    static func records(_ name: String) -> URL { directory.appendingPathComponent("\(name).json") }
    static func settings(_ name: String) throws -> JSONObject {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(name).settings.json"))
        return try JSONValue(parsingUTF8: Array(data)).objectValue ?? [:]
    }
    /// The records of a bundled dataset, for brute-force counts.
    static func recordValues(_ name: String) throws -> [JSONValue] {
        let data = try Data(contentsOf: records(name))
        return try JSONValue(parsingUTF8: Array(data)).arrayValue ?? []
    }
}

/// How long a wait polls: `timeout` counted in polls of 2 ms, not in wall-clock time. The
/// whole suite runs in parallel on a 2-core machine, where long synchronous engine tests can
/// hold the cooperative threads for minutes: a wall-clock deadline then passes while the work
/// waited for has not even been scheduled (and the wait, woken first, gives up before it). A
/// poll starved that long counts as one poll; a wait that never holds still ends, after
/// `timeout` of polls.
struct PollBudget {
    static let interval = Duration.milliseconds(2)
    private var remaining: Int

    init(_ timeout: Duration) { remaining = Int(timeout / PollBudget.interval) }

    /// Sleeps one interval; false once the budget is spent.
    mutating func poll() async -> Bool {
        guard remaining > 0 else { return false }
        remaining -= 1
        try? await Task.sleep(for: PollBudget.interval)
        return true
    }
}

/// Waits (polling, on the main actor) until `condition` holds; false after `timeout` of polls
/// (`PollBudget`). A passing wait returns as soon as the condition holds.
@MainActor
func eventually(timeout: Duration = .seconds(120), _ condition: @MainActor () -> Bool) async -> Bool {
    var budget = PollBudget(timeout)
    while !condition() {
        guard await budget.poll() else { return condition() }
    }
    return true
}

/// Everything an observer fires, in order.
@MainActor
final class EventLog<Value> {
    private(set) var values: [Value] = []
    init(_ observer: Observer<Value>) {
        observer.subscribe(with: self) { log, value in log.values.append(value) }
    }
    var count: Int { values.count }
    var last: Value? { values.last }
}

/// A `SearchService` that holds every request until the test releases it, so a test decides
/// in which order responses come back. Not a mock: a released request is answered by the
/// wrapped service (the engine). With `propagatesCancellation`, the wrapped service runs in
/// the caller's task, so it sees the caller's cancellation; without, it runs in a task of its
/// own and answers normally even when the caller was cancelled (a stale answer arriving).
actor GatedService: SearchService {
    enum Outcome: Sendable {
        case answered
        case failed(SearchError)
    }

    let base: any SearchService
    let propagatesCancellation: Bool
    private(set) var requests: [[MultiSearchQuery]] = []
    private(set) var outcomes: [Int: Outcome] = [:]
    private var gates: [Int: CheckedContinuation<Void, Never>] = [:]
    private var released: Set<Int> = []

    init(_ base: any SearchService, propagatesCancellation: Bool = true) {
        self.base = base
        self.propagatesCancellation = propagatesCancellation
    }

    nonisolated func multiSearch(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult] {
        let id = await arrive(queries)
        let result: Result<[MultiSearchResult], SearchError>
        if propagatesCancellation {
            result = await Self.answer(base, queries, strategy)
        } else {
            let base = self.base
            result = await Task.detached { await Self.answer(base, queries, strategy) }.value
        }
        await record(id, result)
        return try result.get()
    }

    nonisolated func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse {
        let results = try await multiSearch([.facetValues(indexName: indexName, facet: facet, parameters: parameters)], strategy: .none)
        guard case .facetValues(let response) = results.first else { throw SearchError(.internalError, "no facet values") }
        return response
    }

    private static func answer(_ base: any SearchService, _ queries: [MultiSearchQuery], _ strategy: MultiSearchStrategy) async -> Result<[MultiSearchResult], SearchError> {
        do { return .success(try await base.multiSearch(queries, strategy: strategy)) } catch { return .failure(error) }
    }

    private func arrive(_ queries: [MultiSearchQuery]) async -> Int {
        let id = requests.count
        requests.append(queries)
        if !released.contains(id) {
            await withCheckedContinuation { gates[id] = $0 }
        }
        return id
    }

    private func record(_ id: Int, _ result: Result<[MultiSearchResult], SearchError>) {
        switch result {
        case .success: outcomes[id] = .answered
        case .failure(let error): outcomes[id] = .failed(error)
        }
    }

    /// Lets request `id` (0 for the first to arrive) through; it may not have arrived yet.
    func release(_ id: Int) {
        released.insert(id)
        gates.removeValue(forKey: id)?.resume()
    }

    var requestCount: Int { requests.count }

    func outcome(_ id: Int) -> Outcome? { outcomes[id] }

    /// Waits until `count` requests have arrived.
    func waitForRequests(_ count: Int, timeout: Duration = .seconds(120)) async -> Bool {
        var budget = PollBudget(timeout)
        while requests.count < count {
            guard await budget.poll() else { return requests.count >= count }
        }
        return true
    }

    /// Waits until request `id` has been answered (or failed).
    func waitForOutcome(_ id: Int, timeout: Duration = .seconds(120)) async -> Outcome? {
        var budget = PollBudget(timeout)
        while outcomes[id] == nil {
            guard await budget.poll() else { break }
        }
        return outcomes[id]
    }
}

/// The recording double of SearchTestDoubles, read as these tests read it: the queries of each
/// call, and the pages the hits queries asked for.
extension RecordingSearchService {
    /// The queries each call sent, in order (a facet-value search as one `.facetValues` query).
    var calls: [[MultiSearchQuery]] {
        requests.map { request in
            switch request {
            case .multiSearch(let queries, _): queries
            case .searchForFacetValues(let indexName, let facet, let parameters):
                [.facetValues(indexName: indexName, facet: facet, parameters: parameters)]
            }
        }
    }

    /// The pages asked by the hits queries that return hits (not the facet-count queries).
    var pagesAsked: [Int] {
        calls.flatMap { $0 }.compactMap { query in
            guard case .hits(_, let parameters) = query, parameters.hitsPerPage != 0 else { return nil }
            return parameters.page ?? 0
        }
    }
}

extension SearchResponse {
    var objectIDs: [String] { hits.compactMap { $0["objectID"]?.stringValue } }
}
