/// The body of Algolia's multi-search, `{"requests": [...], "strategy": ...}`: the one reader
/// and writer of it, for the server, the `query` command, the remote client and the test
/// doubles' recorded requests.
///
/// ```swift
/// let body = try MultiSearchBody(json: ["requests": [["indexName": "products", "query": "phone"]]])
/// body.requests.count      // 1
/// body.jsonValue           // {"requests":[{"indexName":"products","query":"phone"}],"strategy":"none"}
/// ```
public struct MultiSearchBody: Sendable, Hashable {
    /// The queries, run in order.
    public var requests: [MultiSearchQuery]
    /// Algolia's `strategy`: whether every query runs (`none`, the default) or the rest stop
    /// once one has found enough hits.
    public var strategy: MultiSearchStrategy

    /// The body of a multi-search of `requests`, with `strategy` (`none` by default).
    public init(requests: [MultiSearchQuery], strategy: MultiSearchStrategy = .none) {
        self.requests = requests
        self.strategy = strategy
    }

    /// Reads Algolia's body. An error names what is wrong and where: `requests` that is not an
    /// array, the position of a query that is not valid (`requests[2]: indexName: …`), or a
    /// `strategy` that is not one of Algolia's.
    public init(json: JSONValue) throws(SearchError) {
        guard case .object(let object) = json else {
            throw SearchError(.invalidJSON, "expected a JSON object such as {\"requests\": [{\"indexName\": \"products\", \"query\": \"phone\"}]}")
        }
        guard case .array(let elements)? = object["requests"] else {
            throw SearchError.invalidParameter("requests", expected: "an array of queries such as [{\"indexName\": \"products\", \"query\": \"phone\"}]")
        }
        var requests: [MultiSearchQuery] = []
        requests.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            do throws(SearchError) { requests.append(try MultiSearchQuery(json: element)) } catch {
                throw SearchError(error.kind, "requests[\(position)]: \(error.message)", status: error.status)
            }
        }
        self.requests = requests
        strategy = try object["strategy"].map { value throws(SearchError) in
            try ParameterReader(name: "strategy", value: value).enumeration(MultiSearchStrategy.self)
        } ?? .none
    }

    /// Algolia's body: `{"requests": [...], "strategy": ...}`.
    public var jsonValue: JSONValue {
        ["requests": .array(requests.map(\.jsonValue)), "strategy": .string(strategy.rawValue)]
    }
}
