import OfflineSearch
import SearchAPI

// What the handlers read from an operation's body and query string, with Algolia's errors
// for what does not read.

extension AlgoliaRequest {
    /// The body as a JSON object.
    func bodyObject() throws(SearchError) -> JSONObject {
        guard case .object(let object) = body else {
            throw SearchError(.invalidJSON, "body: expected a JSON object, got \(body.jsonString.prefix(60))")
        }
        return object
    }

    /// The array under `key` of the body's object.
    func list(_ key: String, expected: String) throws(SearchError) -> [JSONValue] {
        guard case .array(let items)? = try bodyObject()[key] else { throw .invalidParameter(key, expected: expected) }
        return items
    }

    /// A `true`/`false` query parameter (`forwardToReplicas=true`); absent is false.
    func flag(_ name: String) -> Bool { query[name] == "true" }

    /// The search parameters of a search or browse: the body's, and the URL's query
    /// parameters (a GET) that the body does not give.
    func searchObject() throws(SearchError) -> JSONObject {
        try SearchHandler.searchObject(body, query)
    }

    /// Search parameters with a secured API key's restrictions applied.
    func restricted(_ parameters: SearchParameters) throws(SearchError) -> SearchParameters {
        guard case .secured(let restrictions) = access else { return parameters }
        return try restrictions.restrict(parameters)
    }

    /// Every index the operation names: in its path, or in the `requests` of a `*` route
    /// (once the body is read).
    var indexNames: [String] {
        if let index = route.index { return [index] }
        switch route {
        case .multiSearch, .getObjects, .multiBatch:
            return (body["requests"]?.arrayValue ?? []).compactMap { $0["indexName"]?.stringValue }
        default:
            return []
        }
    }

    /// Whether the caller may do this: the ACL of its key, and a secured key's restricted
    /// indices (the body read first). Nothing is opened before it passes.
    mutating func authorize() throws {
        if authorized { return }
        try readBody()
        guard access.allows(route.acl) else { throw ServerError.methodNotAllowedWithKey }
        if case .secured(let restrictions) = access {
            for name in indexNames where !restrictions.allowsIndex(name) { throw ServerError.indexNotAllowed }
        }
        authorized = true
    }
}
