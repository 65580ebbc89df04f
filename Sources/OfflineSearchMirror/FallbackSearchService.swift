import SearchAPI

/// When a `FallbackSearchService` asks the remote service and when the local one.
public enum FallbackStrategy: Sendable, Hashable {
    /// The remote service only (its errors are the answer).
    case onlineOnly
    /// The local service only.
    case offlineOnly
    /// The remote service; the local one when the remote cannot answer: a network error, no
    /// host reachable, or a 5xx. A 4xx (a wrong key, a bad parameter) is the answer.
    case fallbackOnFailure
    /// The remote service, and the local one too when the remote has not answered after
    /// `delay` (or has failed as above): the first good answer wins, the other is cancelled.
    case fallbackOnTimeout(Duration)
}

/// A `SearchService` that composes a remote service (Algolia, `offline-search serve`) and a
/// local one (a mirror of the same indices on the device) with a `FallbackStrategy`. Every
/// answer says which side gave it (`SearchResponse.origin`, `FacetValuesResponse.origin`),
/// so a UI can show that results are offline. It plugs into the headless layer's searchers
/// like any service.
///
/// ```swift
/// let service = FallbackSearchService(remote: algolia, local: engine, strategy: .fallbackOnTimeout(.milliseconds(800)))
/// let searcher = HitsSearcher(service: service, indexName: "products")
/// // searcher.latestResponse?.origin == .local when the answer came from the mirror
/// ```
public struct FallbackSearchService: SearchService {
    public let remote: any SearchService
    public let local: any SearchService
    public let strategy: FallbackStrategy

    public init(remote: any SearchService, local: any SearchService, strategy: FallbackStrategy) {
        self.remote = remote
        self.local = local
        self.strategy = strategy
    }

    /// Whether an error of the remote service sends the request to the local one: the remote
    /// could not answer (unreachable, or a server error), as opposed to a refusal (4xx) or a
    /// cancellation.
    public static func fallsBack(on error: SearchError) -> Bool {
        error.kind == .unreachable || (500...599).contains(error.status)
    }

    public func multiSearch(_ queries: [MultiSearchQuery], strategy multiSearchStrategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult] {
        let remote = remote, local = local
        return try await answer(
            remote: { () async throws(SearchError) in try await remote.multiSearch(queries, strategy: multiSearchStrategy) },
            local: { () async throws(SearchError) in try await local.multiSearch(queries, strategy: multiSearchStrategy) },
            tag: { results, origin in results.map { $0.from(origin) } })
    }

    public func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse {
        let remote = remote, local = local
        return try await answer(
            remote: { () async throws(SearchError) in try await remote.searchForFacetValues(indexName: indexName, facet: facet, parameters: parameters) },
            local: { () async throws(SearchError) in try await local.searchForFacetValues(indexName: indexName, facet: facet, parameters: parameters) },
            tag: { response, origin in
                var tagged = response
                tagged.origin = origin
                return tagged
            })
    }

    private typealias Call<T> = @Sendable () async throws(SearchError) -> T

    private func answer<T: Sendable>(remote: @escaping Call<T>, local: @escaping Call<T>,
                                     tag: @escaping @Sendable (T, ResponseOrigin) -> T) async throws(SearchError) -> T {
        switch strategy {
        case .onlineOnly:
            return tag(try await remote(), .remote)
        case .offlineOnly:
            return tag(try await local(), .local)
        case .fallbackOnFailure:
            do {
                return tag(try await remote(), .remote)
            } catch where Self.fallsBack(on: error) {
                do {
                    return tag(try await local(), .local)
                } catch let localError {
                    throw Self.bothFailed(remote: error, local: localError)
                }
            }
        case .fallbackOnTimeout(let delay):
            return try await race(remote: remote, local: local, after: delay, tag: tag).get()
        }
    }

    private enum Event<T: Sendable>: Sendable {
        case remote(Result<T, SearchError>)
        case local(Result<T, SearchError>)
        case delayElapsed
    }

    /// The remote call at once, the local one after `delay` or as soon as the remote fails;
    /// the first good answer wins and the other call is cancelled.
    private func race<T: Sendable>(remote: @escaping Call<T>, local: @escaping Call<T>, after delay: Duration,
                                   tag: @escaping @Sendable (T, ResponseOrigin) -> T) async -> Result<T, SearchError> {
        await withTaskGroup(of: Event<T>.self) { group in
            group.addTask { .remote(await Self.result(of: remote)) }
            group.addTask {
                try? await Task.sleep(for: delay)
                return .delayElapsed
            }
            var localStarted = false
            var remoteFailure: SearchError?
            var localFailure: SearchError?
            while let event = await group.next() {
                var startLocal = false
                switch event {
                case .remote(.success(let value)):
                    group.cancelAll()
                    return .success(tag(value, .remote))
                case .local(.success(let value)):
                    group.cancelAll()
                    return .success(tag(value, .local))
                case .remote(.failure(let error)):
                    guard Self.fallsBack(on: error) else {
                        group.cancelAll()
                        return .failure(error)
                    }
                    if let localFailure { return .failure(Self.bothFailed(remote: error, local: localFailure)) }
                    remoteFailure = error
                    startLocal = true
                case .local(.failure(let error)):
                    // The remote may still answer; if it has failed already, both have.
                    if let remoteFailure { return .failure(Self.bothFailed(remote: remoteFailure, local: error)) }
                    localFailure = error
                case .delayElapsed:
                    startLocal = !Task.isCancelled
                }
                if startLocal && !localStarted {
                    localStarted = true
                    group.addTask { .local(await Self.result(of: local)) }
                }
            }
            return .failure(remoteFailure ?? localFailure ?? .cancelled("the search"))
        }
    }

    private static func result<T>(of call: Call<T>) async -> Result<T, SearchError> {
        do { return .success(try await call()) } catch { return .failure(error) }
    }

    /// The remote's error, which says why the remote was not used, with the local one's reason.
    private static func bothFailed(remote: SearchError, local: SearchError) -> SearchError {
        SearchError(remote.kind, "\(remote.message); the local index could not answer either: \(local.message)", status: remote.status)
    }
}

extension MultiSearchResult {
    /// This result marked as coming from `origin`.
    func from(_ origin: ResponseOrigin) -> MultiSearchResult {
        switch self {
        case .hits(var response):
            response.origin = origin
            return .hits(response)
        case .facetValues(var response):
            response.origin = origin
            return .facetValues(response)
        }
    }
}
