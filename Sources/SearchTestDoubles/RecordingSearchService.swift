import Foundation
import SearchAPI

/// Records every request sent to any `SearchService`, in the order they were sent, and what
/// each got back; so a test asserts what the UI asked for, and `fixture()` saves the answers
/// for a `ReplayingSearchService`.
///
/// ```swift
/// let recorder = RecordingSearchService(wrapping: engine)
/// let searcher = HitsSearcher(service: recorder, indexName: "instant_search")
/// // … the UI types "iphone" …
/// #expect(recorder.lastRequest?.queryTexts == ["iphone"])
/// #expect(recorder.requests.count == 1)
/// recorder.clear()
/// ```
///
/// Safe to share between tasks: its record is behind a lock and reads are synchronous.
public final class RecordingSearchService: SearchService {
    /// One call and, once it is done, its outcome.
    public struct Exchange: Sendable, Hashable {
        /// The call as it was made.
        public var request: ServiceRequest
        /// The answer or error, or nil while the request is in flight.
        public var outcome: Result<ServiceResponse, SearchError>?

        /// A call and its outcome (nil while it is in flight).
        public init(request: ServiceRequest, outcome: Result<ServiceResponse, SearchError>? = nil) {
            self.request = request
            self.outcome = outcome
        }
    }

    private let base: any SearchService
    private let record = Protected<Record>(Record())

    private struct Record {
        var exchanges: [(id: Int, exchange: Exchange)] = []
        var nextID = 0
    }

    /// A recorder of the calls made to it, each passed on to `base`.
    public init(wrapping base: any SearchService) {
        self.base = base
    }

    /// Every request sent since creation or the last `clear()`, in the order they were sent.
    public var requests: [ServiceRequest] { record.withLock { $0.exchanges.map(\.exchange.request) } }

    /// The request sent last, or nil.
    public var lastRequest: ServiceRequest? { record.withLock { $0.exchanges.last?.exchange.request } }

    /// Every request with its outcome, in the order they were sent.
    public var exchanges: [Exchange] { record.withLock { $0.exchanges.map(\.exchange) } }

    /// Forgets what was recorded; requests in flight are not recorded when they finish.
    public func clear() {
        record.withLock { $0.exchanges.removeAll() }
    }

    /// The requests answered successfully, with their answers, in the order they were sent:
    /// what a `ReplayingSearchService` serves back. Failed and in-flight requests are left out.
    ///
    /// ```swift
    /// try recorder.fixture().write(to: URL(fileURLWithPath: "Fixtures/iphone-search.json"))
    /// ```
    public func fixture() -> ReplayFixture {
        ReplayFixture(entries: exchanges.compactMap { exchange in
            guard case .success(let response)? = exchange.outcome else { return nil }
            return ReplayFixture.Entry(request: exchange.request, response: response)
        })
    }

    // MARK: SearchService

    public func multiSearch(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult] {
        guard case .multiSearch(let results) = try await perform(.multiSearch(queries, strategy: strategy)) else {
            throw SearchError(.internalError, "RecordingSearchService: a multi-search got another kind of answer")
        }
        return results
    }

    public func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse {
        guard case .searchForFacetValues(let response) = try await perform(.searchForFacetValues(indexName: indexName, facet: facet, parameters: parameters)) else {
            throw SearchError(.internalError, "RecordingSearchService: a facet-value search got another kind of answer")
        }
        return response
    }

    private func perform(_ request: ServiceRequest) async throws(SearchError) -> ServiceResponse {
        let id = record.withLock { record in
            defer { record.nextID += 1 }
            record.exchanges.append((id: record.nextID, exchange: Exchange(request: request)))
            return record.nextID
        }
        let outcome: Result<ServiceResponse, SearchError>
        do throws(SearchError) { outcome = .success(try await request.send(to: base)) } catch { outcome = .failure(error) }
        record.withLock { record in
            if let position = record.exchanges.lastIndex(where: { $0.id == id }) {
                record.exchanges[position].exchange.outcome = outcome
            }
        }
        return try outcome.get()
    }
}
