/// One operation of Algolia's Search REST API, and what both ends need to know of it: its
/// method and path, whether it writes, and the ACL it needs. The server reads a request into
/// one (`init(method:path:)`), the remote client writes one (`method`, `path`): the paths live
/// in this one table, so the two cannot come to disagree on one.
///
/// ```swift
/// let route = AlgoliaRoute.search(index: "my products")
/// route.method     // .post
/// route.path       // "/1/indexes/my%20products/query"
/// route.template   // "/1/indexes/{indexName}/query"
/// try AlgoliaRoute(method: .post, path: route.path) == route   // true
/// ```
///
/// A name that is also a word of the paths can be read as that word, as Algolia reads it: an
/// index named `*` on the routes of `/1/indexes/*/…`, an object `settings` or `browse`, a
/// synonym `batch`. `AlgoliaRouteTests` lists them.
package enum AlgoliaRoute: Sendable, Hashable {
    /// `POST /1/events`: Insights events (the Insights API's one write).
    case sendEvents
    /// `GET /1/keys/{key}`: an API key's rights (any key may read its own).
    case getAPIKey(key: String)
    /// `GET /2/...`: a report of the Analytics API (the index and period in the query string).
    case analytics(AnalyticsReportKind)
    /// `GET /1/indexes`
    case listIndices
    /// `POST /1/indexes/*/queries`
    case multiSearch
    /// `POST /1/indexes/*/objects`
    case getObjects
    /// `POST /1/indexes/*/batch`
    case multiBatch
    /// `GET /1/task/{taskID}`
    case appTask(taskID: String)
    /// `POST /1/indexes/{indexName}/query` (and `GET /1/indexes/{indexName}`)
    case search(index: String)
    /// `POST /1/indexes/{indexName}/facets/{facetName}/query`
    case searchFacetValues(index: String, facet: String)
    /// `POST /1/indexes/{indexName}/browse` (and `GET`)
    case browse(index: String)
    /// `POST /1/indexes/{indexName}`
    case saveObject(index: String)
    /// `DELETE /1/indexes/{indexName}`
    case deleteIndex(index: String)
    /// `GET /1/indexes/{indexName}/{objectID}`
    case getObject(index: String, objectID: String)
    /// `PUT /1/indexes/{indexName}/{objectID}`
    case putObject(index: String, objectID: String)
    /// `DELETE /1/indexes/{indexName}/{objectID}`
    case deleteObject(index: String, objectID: String)
    /// `POST /1/indexes/{indexName}/{objectID}/partial`
    case partialUpdate(index: String, objectID: String)
    /// `POST /1/indexes/{indexName}/batch`
    case batch(index: String)
    /// `POST /1/indexes/{indexName}/deleteByQuery`
    case deleteBy(index: String)
    /// `POST /1/indexes/{indexName}/clear`
    case clear(index: String)
    /// `GET /1/indexes/{indexName}/settings`
    case getSettings(index: String)
    /// `PUT /1/indexes/{indexName}/settings`
    case setSettings(index: String)
    /// `POST /1/indexes/{indexName}/operation`
    case operation(index: String)
    /// `GET /1/indexes/{indexName}/task/{taskID}`
    case task(index: String, taskID: String)
    /// `POST /1/indexes/{indexName}/synonyms/batch`
    case saveSynonyms(index: String)
    /// `POST /1/indexes/{indexName}/synonyms/search`
    case searchSynonyms(index: String)
    /// `POST /1/indexes/{indexName}/synonyms/clear`
    case clearSynonyms(index: String)
    /// `GET /1/indexes/{indexName}/synonyms/{objectID}`
    case getSynonym(index: String, objectID: String)
    /// `PUT /1/indexes/{indexName}/synonyms/{objectID}`
    case putSynonym(index: String, objectID: String)
    /// `DELETE /1/indexes/{indexName}/synonyms/{objectID}`
    case deleteSynonym(index: String, objectID: String)
    /// `POST /1/indexes/{indexName}/rules/search`
    case searchRules(index: String)
    /// `POST /1/indexes/{indexName}/rules/batch`
    case saveRules(index: String)
    /// `POST /1/indexes/{indexName}/rules/clear`
    case clearRules(index: String)
    /// `GET /1/indexes/{indexName}/rules/{objectID}`
    case getRule(index: String, objectID: String)
    /// `PUT /1/indexes/{indexName}/rules/{objectID}`
    case putRule(index: String, objectID: String)
    /// `DELETE /1/indexes/{indexName}/rules/{objectID}`
    case deleteRule(index: String, objectID: String)

    /// An HTTP method, by its name (`GET`): the four the API uses have names here, and any
    /// other a request arrives with is kept, to be refused by name (405).
    package struct Method: Sendable, Hashable, CustomStringConvertible {
        /// The name as sent, case-sensitive as HTTP's methods are: `GET`, `POST`, `PUT`, `DELETE`.
        package let rawValue: String

        /// The method named `rawValue`.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// `GET`: reads.
        package static let get = Method(rawValue: "GET")
        /// `POST`: searches, and the writes that are not one record's or one synonym's.
        package static let post = Method(rawValue: "POST")
        /// `PUT`: one record, one synonym or the settings, replaced.
        package static let put = Method(rawValue: "PUT")
        /// `DELETE`: one record, one synonym or an index, deleted.
        package static let delete = Method(rawValue: "DELETE")

        /// The name, as in a request line or an error message.
        package var description: String { rawValue }
    }

    /// The method a client sends for this operation. The server also takes `GET` for a search
    /// (`GET /1/indexes/{indexName}`) and for a browse.
    package var method: Method {
        switch self {
        case .listIndices, .appTask, .getObject, .getSettings, .task, .getSynonym, .getRule, .analytics, .getAPIKey: .get
        case .putObject, .setSettings, .putSynonym, .putRule: .put
        case .deleteIndex, .deleteObject, .deleteSynonym, .deleteRule: .delete
        case .multiSearch, .getObjects, .multiBatch, .search, .searchFacetValues, .browse, .saveObject, .partialUpdate,
             .batch, .deleteBy, .sendEvents, .clear, .operation, .saveSynonyms, .searchSynonyms, .clearSynonyms, .searchRules,
             .saveRules, .clearRules:
            .post
        }
    }

    /// The path a client sends, each name percent-encoded (`PathSegmentEncoding`: a space is
    /// `%20`, a `/` in a name `%2F`): `/1/indexes/my%20products/query`. A name that is exactly
    /// `*` is written as it is, as the wildcard of `/1/indexes/*/queries` is.
    package var path: String {
        "/" + segments.map { segment -> String in
            switch segment {
            case .word(let word): word
            case .name(_, let value): value == "*" ? value : PathSegmentEncoding.encode(value)
            }
        }.joined(separator: "/")
    }

    /// The path with a placeholder for each name, as Algolia's reference writes it:
    /// `/1/indexes/{indexName}/facets/{facetName}/query`.
    package var template: String {
        "/" + segments.map { segment -> String in
            switch segment {
            case .word(let word): word
            case .name(let placeholder, _): "{\(placeholder)}"
            }
        }.joined(separator: "/")
    }

    /// The ACL the operation needs.
    package var acl: AlgoliaACL {
        switch self {
        case .multiSearch, .search, .searchFacetValues, .getObjects, .getObject, .sendEvents: .search
        case .appTask, .task, .getAPIKey: .none
        default: .admin
        }
    }

    /// The index the path names (nil for the `*` and application-wide routes).
    package var index: String? {
        switch self {
        case .listIndices, .multiSearch, .getObjects, .multiBatch, .appTask, .sendEvents, .analytics, .getAPIKey: nil
        case .search(let index), .searchFacetValues(let index, _), .browse(let index), .saveObject(let index),
             .deleteIndex(let index), .getObject(let index, _), .putObject(let index, _), .deleteObject(let index, _),
             .partialUpdate(let index, _), .batch(let index), .deleteBy(let index), .clear(let index),
             .getSettings(let index), .setSettings(let index), .operation(let index), .task(let index, _),
             .saveSynonyms(let index), .searchSynonyms(let index), .clearSynonyms(let index),
             .getSynonym(let index, _), .putSynonym(let index, _), .deleteSynonym(let index, _), .searchRules(let index),
             .saveRules(let index), .clearRules(let index), .getRule(let index, _), .putRule(let index, _), .deleteRule(let index, _):
            index
        }
    }

    /// Whether the operation writes: the server runs it on a thread of its own, off Swift
    /// concurrency's, and the client sends it to a host that takes writes.
    package var writes: Bool {
        switch self {
        case .saveObject, .deleteIndex, .putObject, .deleteObject, .partialUpdate, .batch, .multiBatch, .deleteBy,
             .clear, .setSettings, .operation, .saveSynonyms, .clearSynonyms, .putSynonym, .deleteSynonym,
             .saveRules, .clearRules, .putRule, .deleteRule:
            true
        default:
            false
        }
    }

    /// One segment of a path: a word of the API, or a name the caller gives (an index, an
    /// objectID…) with its placeholder in `template`.
    private enum Segment {
        case word(String)
        case name(placeholder: String, String)
    }

    /// The path, segment by segment: what `path` encodes and `template` shows.
    private var segments: [Segment] {
        let indexes: [Segment] = [.word("1"), .word("indexes")]
        let rest: [Segment]
        switch self {
        case .sendEvents:
            return [.word("1"), .word("events")]
        case .getAPIKey(let key):
            return [.word("1"), .word("keys"), .name(placeholder: "key", key)]
        case .analytics(let kind):
            switch kind {
            case .topSearches: return [.word("2"), .word("searches")]
            case .searchesWithoutResults: return [.word("2"), .word("searches"), .word("noResults")]
            case .searchCount: return [.word("2"), .word("searches"), .word("count")]
            case .topHits: return [.word("2"), .word("hits")]
            case .topFilters(nil): return [.word("2"), .word("filters")]
            case .topFilters(let attribute?): return [.word("2"), .word("filters"), .name(placeholder: "attribute", attribute)]
            }
        case .appTask(let taskID):
            return [.word("1"), .word("task"), .name(placeholder: "taskID", taskID)]
        case .listIndices:
            rest = []
        case .multiSearch:
            rest = [.word("*"), .word("queries")]
        case .getObjects:
            rest = [.word("*"), .word("objects")]
        case .multiBatch:
            rest = [.word("*"), .word("batch")]
        case .search(let index):
            rest = [Self.indexName(index), .word("query")]
        case .searchFacetValues(let index, let facet):
            rest = [Self.indexName(index), .word("facets"), .name(placeholder: "facetName", facet), .word("query")]
        case .browse(let index):
            rest = [Self.indexName(index), .word("browse")]
        case .saveObject(let index), .deleteIndex(let index):
            rest = [Self.indexName(index)]
        case .getObject(let index, let objectID), .putObject(let index, let objectID), .deleteObject(let index, let objectID):
            rest = [Self.indexName(index), Self.objectID(objectID)]
        case .partialUpdate(let index, let objectID):
            rest = [Self.indexName(index), Self.objectID(objectID), .word("partial")]
        case .batch(let index):
            rest = [Self.indexName(index), .word("batch")]
        case .deleteBy(let index):
            rest = [Self.indexName(index), .word("deleteByQuery")]
        case .clear(let index):
            rest = [Self.indexName(index), .word("clear")]
        case .getSettings(let index), .setSettings(let index):
            rest = [Self.indexName(index), .word("settings")]
        case .operation(let index):
            rest = [Self.indexName(index), .word("operation")]
        case .task(let index, let taskID):
            rest = [Self.indexName(index), .word("task"), .name(placeholder: "taskID", taskID)]
        case .saveSynonyms(let index):
            rest = [Self.indexName(index), .word("synonyms"), .word("batch")]
        case .searchSynonyms(let index):
            rest = [Self.indexName(index), .word("synonyms"), .word("search")]
        case .clearSynonyms(let index):
            rest = [Self.indexName(index), .word("synonyms"), .word("clear")]
        case .getSynonym(let index, let objectID), .putSynonym(let index, let objectID), .deleteSynonym(let index, let objectID):
            rest = [Self.indexName(index), .word("synonyms"), Self.objectID(objectID)]
        case .searchRules(let index):
            rest = [Self.indexName(index), .word("rules"), .word("search")]
        case .saveRules(let index):
            rest = [Self.indexName(index), .word("rules"), .word("batch")]
        case .clearRules(let index):
            rest = [Self.indexName(index), .word("rules"), .word("clear")]
        case .getRule(let index, let objectID), .putRule(let index, let objectID), .deleteRule(let index, let objectID):
            rest = [Self.indexName(index), .word("rules"), Self.objectID(objectID)]
        }
        return indexes + rest
    }

    private static func indexName(_ name: String) -> Segment { .name(placeholder: "indexName", name) }
    private static func objectID(_ objectID: String) -> Segment { .name(placeholder: "objectID", objectID) }
}

/// The reports of the Analytics API (`GET /2/...`) the server answers.
package enum AnalyticsReportKind: Sendable, Hashable {
    /// `/2/searches`
    case topSearches
    /// `/2/searches/noResults`
    case searchesWithoutResults
    /// `/2/searches/count`
    case searchCount
    /// `/2/hits`
    case topHits
    /// `/2/filters`, or `/2/filters/{attribute}`
    case topFilters(attribute: String?)
}

/// The ACL an operation needs (Algolia's names).
package enum AlgoliaACL: Sendable, Equatable {
    /// Any valid key (tasks).
    case none
    /// search, multi-search, facet-value search, get objects.
    case search
    /// Everything else: browse, writes, settings, list indices, copy/move, analytics.
    case admin
}
