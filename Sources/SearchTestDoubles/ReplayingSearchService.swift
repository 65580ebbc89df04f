import Foundation
import SearchAPI

/// A `SearchService` that answers from a `ReplayFixture`: what a real service answered, served
/// back with no engine and no network. A request is matched on its `canonicalJSON` (the order
/// parameters were set in does not matter, every value does); a request that was not recorded
/// is a `SearchError` that names it and the fixture.
///
/// ```swift
/// let service = try ReplayingSearchService(contentsOf: URL(fileURLWithPath: "Fixtures/iphone-search.json"))
/// let searcher = HitsSearcher(service: service, indexName: "instant_search")
/// ```
///
/// Stack it under a `SimulatedNetworkService` to replay real answers with latency and failures.
public final class ReplayingSearchService: SearchService {
    /// How identical requests are answered when the fixture holds one or more answers to them.
    public enum RepeatPolicy: Sendable, Hashable {
        /// The recorded answers in recorded order, then the last one again and again (the default:
        /// a UI that searches the same query twice gets the same answer).
        case repeatLast
        /// The recorded answers in recorded order; asking once more is an error, for tests that
        /// assert the UI sends each request exactly as often as when it was recorded.
        case failWhenExhausted
        /// Always the first recorded answer.
        case alwaysFirst
    }

    private let fixture: ReplayFixture
    private let source: String
    private let repeats: RepeatPolicy
    /// Entry positions by the canonical JSON of their request, in recorded order.
    private let positionsByRequest: [String: [Int]]
    private let state: Protected<State>

    private struct State {
        var servedByRequest: [String: Int] = [:]
        var servedEntries: Set<Int> = []
    }

    /// - Parameters:
    ///   - fixture: the recorded requests and answers.
    ///   - source: how error messages name the fixture (its file, say).
    ///   - repeats: how identical requests are answered.
    public init(fixture: ReplayFixture, source: String = "replay fixture", repeats: RepeatPolicy = .repeatLast) {
        self.fixture = fixture
        self.source = source
        self.repeats = repeats
        var positions: [String: [Int]] = [:]
        for (position, entry) in fixture.entries.enumerated() {
            positions[entry.request.canonicalJSON, default: []].append(position)
        }
        positionsByRequest = positions
        state = Protected(State())
    }

    /// Loads the fixture file at `url` (see `ReplayFixture.init(contentsOf:)`).
    public convenience init(contentsOf url: URL, repeats: RepeatPolicy = .repeatLast) throws(SearchError) {
        self.init(fixture: try ReplayFixture(contentsOf: url), source: url.path, repeats: repeats)
    }

    /// The entries no request has been answered with yet, in recorded order: a test can assert
    /// the UI asked for everything that was recorded.
    public var unservedEntries: [ReplayFixture.Entry] {
        let served = state.withLock { $0.servedEntries }
        return fixture.entries.indices.filter { !served.contains($0) }.map { fixture.entries[$0] }
    }

    /// Forgets which answers were served: the next request starts again from the first.
    public func reset() {
        state.withLock { $0 = State() }
    }

    // MARK: SearchService

    public func multiSearch(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult] {
        guard case .multiSearch(let results) = try answer(.multiSearch(queries, strategy: strategy)) else {
            throw SearchError(.internalError, "\(source): a multi-search request was recorded with another kind of answer")
        }
        return results
    }

    public func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse {
        guard case .searchForFacetValues(let response) = try answer(.searchForFacetValues(indexName: indexName, facet: facet, parameters: parameters)) else {
            throw SearchError(.internalError, "\(source): a facet-value search was recorded with another kind of answer")
        }
        return response
    }

    private func answer(_ request: ServiceRequest) throws(SearchError) -> ServiceResponse {
        if Task.isCancelled { throw .cancelled() }
        let key = request.canonicalJSON
        guard let positions = positionsByRequest[key] else {
            throw SearchError(.internalError, "\(source) has no recorded answer to the request \(key)\(hint(for: request)); record the fixture again with this request, or check what was sent")
        }
        let position: Int? = state.withLock { state in
            let served = state.servedByRequest[key, default: 0]
            let position: Int?
            switch repeats {
            case .repeatLast: position = positions[min(served, positions.count - 1)]
            case .failWhenExhausted: position = served < positions.count ? positions[served] : nil
            case .alwaysFirst: position = positions[0]
            }
            if let position {
                state.servedByRequest[key] = served + 1
                state.servedEntries.insert(position)
            }
            return position
        }
        guard let position else {
            throw SearchError(.internalError, "\(source) answers the request \(key) \(positions.count) time(s), and it was sent once more (repeats: .failWhenExhausted)")
        }
        return fixture.entries[position].response
    }

    /// The queries recorded on the same indices, to show how a request that was not recorded
    /// differs from those that were.
    private func hint(for request: ServiceRequest) -> String {
        let indexNames = Set(request.queries.map(\.indexName))
        let similar = fixture.entries.map(\.request).filter { !indexNames.isDisjoint(with: $0.queries.map(\.indexName)) }
        guard !similar.isEmpty else {
            return " (it records no request on \(indexNames.sorted().joined(separator: ", ")))"
        }
        let shown = similar.prefix(3).map(\.canonicalJSON).joined(separator: ", ")
        return " (recorded on the same index: \(shown)\(similar.count > 3 ? ", and \(similar.count - 3) more" : ""))"
    }
}
