extension AlgoliaRoute {
    /// The route of a request, from its method and its path as sent (percent-encoded, without
    /// the query string): `init(method:segments:)` on `decodedSegments(of:)`.
    /// - Throws: `malformedPath` (400) for a bad percent escape, `notFound` (404) for a path
    ///   Algolia does not serve, `methodNotAllowed` (405) for a known path with another method.
    package init(method: Method, path: String) throws(AlgoliaRouteError) {
        try self.init(method: method, segments: AlgoliaRoute.decodedSegments(of: path))
    }

    /// The segments of a path as sent (`/1/indexes/my%20products/query`), each percent-decoded
    /// after the path is cut at its slashes, so that a `%2F` is a slash of a name. Empty
    /// segments (`//`) are skipped.
    /// - Throws: `malformedPath` (400) when a `%` is not followed by two hex digits or a
    ///   segment's bytes are not UTF-8.
    package static func decodedSegments(of path: String) throws(AlgoliaRouteError) -> [String] {
        var segments: [String] = []
        for raw in path.split(separator: "/") {
            guard let decoded = PathSegmentEncoding.decode(raw) else {
                throw AlgoliaRouteError(.malformedPath, "Invalid path: \(path) has a malformed percent escape")
            }
            segments.append(decoded)
        }
        return segments
    }

    /// The route for a method and the decoded segments of a path (`["1", "indexes", "my products",
    /// "query"]`); `*` in `/1/indexes/*/queries` is a literal segment.
    /// - Throws: `notFound` (404) for a path Algolia does not serve, `methodNotAllowed` (405)
    ///   for a known path with another method.
    package init(method: Method, segments: [String]) throws(AlgoliaRouteError) {
        let path = "/" + segments.joined(separator: "/")
        let notFound = AlgoliaRouteError(.notFound, "Not found: \(path) is not an endpoint of the Search API")
        let wrongMethod = AlgoliaRouteError(.methodNotAllowed, "Method \(method.rawValue) not allowed on \(path)")
        func only(_ allowed: Method, _ route: AlgoliaRoute) throws(AlgoliaRouteError) -> AlgoliaRoute {
            guard method == allowed else { throw wrongMethod }
            return route
        }
        if segments.first == "2" {
            let report: AnalyticsReportKind
            switch Array(segments.dropFirst()) {
            case ["searches"]: report = .topSearches
            case ["searches", "noResults"]: report = .searchesWithoutResults
            case ["searches", "count"]: report = .searchCount
            case ["hits"]: report = .topHits
            case ["filters"]: report = .topFilters(attribute: nil)
            case let rest where rest.count == 2 && rest[0] == "filters" && rest[1] != "noResults": report = .topFilters(attribute: rest[1])
            default: throw notFound
            }
            self = try only(.get, .analytics(report))
            return
        }
        if segments == ["1", "events"] {
            self = try only(.post, .sendEvents)
            return
        }
        if segments.count == 3, segments[0] == "1", segments[1] == "keys" {
            self = try only(.get, .getAPIKey(key: segments[2]))
            return
        }
        guard segments.first == "1", segments.count >= 2 else { throw notFound }
        if segments[1] == "task", segments.count == 3 {
            self = try only(.get, .appTask(taskID: segments[2]))
            return
        }
        guard segments[1] == "indexes" else { throw notFound }
        let rest = Array(segments.dropFirst(2))
        if rest.isEmpty {
            self = try only(.get, .listIndices)
            return
        }
        let index = rest[0]
        if index == "*", rest.count == 2 {
            switch rest[1] {
            case "queries": self = try only(.post, .multiSearch)
            case "objects": self = try only(.post, .getObjects)
            case "batch": self = try only(.post, .multiBatch)
            default: throw notFound
            }
            return
        }
        switch rest.count {
        case 1:
            switch method {
            case .post: self = .saveObject(index: index)
            case .delete: self = .deleteIndex(index: index)
            case .get: self = .search(index: index)
            default: throw wrongMethod
            }
        case 2:
            let name = rest[1]
            switch (method, name) {
            case (.post, "query"): self = .search(index: index)
            case (.post, "browse"), (.get, "browse"): self = .browse(index: index)
            case (.post, "batch"): self = .batch(index: index)
            case (.post, "deleteByQuery"): self = .deleteBy(index: index)
            case (.post, "clear"): self = .clear(index: index)
            case (.post, "operation"): self = .operation(index: index)
            case (.get, "settings"): self = .getSettings(index: index)
            case (.put, "settings"): self = .setSettings(index: index)
            case (.get, _): self = .getObject(index: index, objectID: name)
            case (.put, _): self = .putObject(index: index, objectID: name)
            case (.delete, _): self = .deleteObject(index: index, objectID: name)
            default: throw wrongMethod
            }
        case 3:
            switch (rest[1], rest[2]) {
            case ("task", let id): self = try only(.get, .task(index: index, taskID: id))
            case ("synonyms", "batch"): self = try only(.post, .saveSynonyms(index: index))
            case ("synonyms", "search"): self = try only(.post, .searchSynonyms(index: index))
            case ("synonyms", "clear"): self = try only(.post, .clearSynonyms(index: index))
            case ("rules", "search"): self = try only(.post, .searchRules(index: index))
            case ("rules", "batch"): self = try only(.post, .saveRules(index: index))
            case ("rules", "clear"): self = try only(.post, .clearRules(index: index))
            case ("rules", let id):
                switch method {
                case .get: self = .getRule(index: index, objectID: id)
                case .put: self = .putRule(index: index, objectID: id)
                case .delete: self = .deleteRule(index: index, objectID: id)
                default: throw wrongMethod
                }
            case ("synonyms", let id):
                switch method {
                case .get: self = .getSynonym(index: index, objectID: id)
                case .put: self = .putSynonym(index: index, objectID: id)
                case .delete: self = .deleteSynonym(index: index, objectID: id)
                default: throw wrongMethod
                }
            case (let objectID, "partial"): self = try only(.post, .partialUpdate(index: index, objectID: objectID))
            default: throw notFound
            }
        case 4 where rest[1] == "facets" && rest[3] == "query":
            self = try only(.post, .searchFacetValues(index: index, facet: rest[2]))
        default:
            throw notFound
        }
    }
}

/// Why a request's method and path name no operation of the Search API, with the status the
/// server answers and a message that names the path.
package struct AlgoliaRouteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the request line.
    package enum Kind: Sendable, Hashable {
        /// No operation has this path (404).
        case notFound
        /// The path is an operation's, the method is not (405).
        case methodNotAllowed
        /// A `%` not followed by two hex digits, or escaped bytes that are not UTF-8 (400).
        case malformedPath
    }

    /// What is wrong, by kind.
    package var kind: Kind
    /// Algolia's `message`: what is wrong, naming the path.
    package var message: String

    /// An error of `kind` with `message`.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The HTTP status of the answer: 404, 405 or 400.
    package var status: Int {
        switch kind {
        case .notFound: 404
        case .methodNotAllowed: 405
        case .malformedPath: 400
        }
    }

    package var description: String { message }
}
