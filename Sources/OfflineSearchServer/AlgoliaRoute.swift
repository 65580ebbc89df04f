import Hummingbird

/// One endpoint of Algolia's Search REST API, read from the method and the decoded path
/// segments (`/1/indexes/{index}/...`). `*` in `/1/indexes/*/queries` is a literal segment.
enum AlgoliaRoute: Equatable {
    case listIndices
    case multiSearch
    case getObjects
    case multiBatch
    case appTask(taskID: String)
    case search(index: String)
    case searchFacetValues(index: String, facet: String)
    case browse(index: String)
    case saveObject(index: String)
    case deleteIndex(index: String)
    case getObject(index: String, objectID: String)
    case putObject(index: String, objectID: String)
    case deleteObject(index: String, objectID: String)
    case partialUpdate(index: String, objectID: String)
    case batch(index: String)
    case deleteBy(index: String)
    case clear(index: String)
    case getSettings(index: String)
    case setSettings(index: String)
    case operation(index: String)
    case task(index: String, taskID: String)
    case saveSynonyms(index: String)
    case searchSynonyms(index: String)
    case clearSynonyms(index: String)
    case getSynonym(index: String, objectID: String)
    case putSynonym(index: String, objectID: String)
    case deleteSynonym(index: String, objectID: String)
    case searchRules(index: String)

    /// The route for a request; 404 for a path Algolia does not serve, 405 for a known path
    /// with another method.
    init(method: HTTPRequest.Method, segments: [String]) throws(ServerError) {
        let path = "/" + segments.joined(separator: "/")
        let notFound = ServerError(.notFound, "Not found: \(path) is not an endpoint of the Search API")
        let wrongMethod = ServerError(.methodNotAllowed, "Method \(method.rawValue) not allowed on \(path)")
        func only(_ allowed: HTTPRequest.Method, _ route: AlgoliaRoute) throws(ServerError) -> AlgoliaRoute {
            guard method == allowed else { throw wrongMethod }
            return route
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

    /// The ACL the operation needs.
    var acl: AlgoliaACL {
        switch self {
        case .multiSearch, .search, .searchFacetValues, .getObjects, .getObject: .search
        case .appTask, .task: .none
        default: .admin
        }
    }

    /// The index the path names (nil for the `*` and application-wide routes).
    var index: String? {
        switch self {
        case .listIndices, .multiSearch, .getObjects, .multiBatch, .appTask: nil
        case .search(let index), .searchFacetValues(let index, _), .browse(let index), .saveObject(let index),
             .deleteIndex(let index), .getObject(let index, _), .putObject(let index, _), .deleteObject(let index, _),
             .partialUpdate(let index, _), .batch(let index), .deleteBy(let index), .clear(let index),
             .getSettings(let index), .setSettings(let index), .operation(let index), .task(let index, _),
             .saveSynonyms(let index), .searchSynonyms(let index), .clearSynonyms(let index),
             .getSynonym(let index, _), .putSynonym(let index, _), .deleteSynonym(let index, _), .searchRules(let index):
            index
        }
    }

    /// Whether the operation writes (run on the server's writer, one at a time).
    var writes: Bool {
        switch self {
        case .saveObject, .deleteIndex, .putObject, .deleteObject, .partialUpdate, .batch, .multiBatch, .deleteBy,
             .clear, .setSettings, .operation, .saveSynonyms, .clearSynonyms, .putSynonym, .deleteSynonym:
            true
        default:
            false
        }
    }

    /// Whether a successful answer may be kept by the response cache: the searches, whose answer
    /// is a function of the request and of the indices it names.
    var isCacheable: Bool {
        switch self {
        case .search, .multiSearch, .searchFacetValues: true
        default: false
        }
    }
}
