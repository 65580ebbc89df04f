/// The parameters of a rules search (`POST /1/indexes/{index}/rules/search`).
public struct SearchRulesParams: Sendable, Hashable {
    /// Words each rule found must contain (in its objectID, description, patterns or
    /// consequence), case-insensitive; empty: every rule.
    public var query: String
    /// Only rules with a condition of this anchoring.
    public var anchoring: RuleAnchoring?
    /// Only rules with a condition on this context.
    public var context: String?
    /// The page, from 0.
    public var page: Int
    /// Rules per page.
    public var hitsPerPage: Int
    /// Only enabled rules (true) or disabled ones (false); nil: both.
    public var enabled: Bool?

    /// A search for every rule containing `query`'s words, a page of `hitsPerPage`.
    public init(query: String = "", anchoring: RuleAnchoring? = nil, context: String? = nil, page: Int = 0,
                hitsPerPage: Int = 20, enabled: Bool? = nil) {
        self.query = query
        self.anchoring = anchoring
        self.context = context
        self.page = page
        self.hitsPerPage = hitsPerPage
        self.enabled = enabled
    }

    /// Reads the request body; a wrong field throws, naming it.
    public init(json value: JSONValue) throws(SearchError) {
        self.init()
        guard let object = value.objectValue else { throw .invalidParameter("rules search", expected: "a JSON object", got: value.jsonString) }
        for (key, field) in object where !field.isNull {
            let reader = ParameterReader(name: key, value: field)
            switch key {
            case "query": query = try reader.string()
            case "anchoring": anchoring = try reader.enumeration(RuleAnchoring.self)
            case "context": context = try reader.string()
            case "page": page = try reader.int(in: 0...Int(Int32.max))
            case "hitsPerPage": hitsPerPage = try reader.int(in: 1...1000)
            case "enabled": enabled = try reader.bool()
            case "requestOptions": break
            default:
                throw SearchError(.invalidParameter, "\(key): unknown field; a rules search takes query, anchoring, context, page, hitsPerPage and enabled")
            }
        }
    }

    /// The request body, with only the fields set away from their defaults.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["query": .string(query)]
        if let anchoring { object["anchoring"] = .string(anchoring.rawValue) }
        if let context { object["context"] = .string(context) }
        if page != 0 { object["page"] = .int(Int64(page)) }
        object["hitsPerPage"] = .int(Int64(hitsPerPage))
        if let enabled { object["enabled"] = .bool(enabled) }
        return .object(object)
    }
}

/// A page of rules found by a rules search.
public struct RulesPage: Sendable, Hashable {
    /// The rules' JSON as saved.
    public var hits: [JSONObject]
    /// How many rules match, over every page.
    public var nbHits: Int
    /// The page returned.
    public var page: Int
    /// How many pages the matching rules fill.
    public var nbPages: Int

    /// A page of `hits`, out of `nbHits` matching rules over `nbPages` pages.
    public init(hits: [JSONObject], nbHits: Int, page: Int, nbPages: Int) {
        self.hits = hits
        self.nbHits = nbHits
        self.page = page
        self.nbPages = nbPages
    }

    /// Algolia's answer: `{"hits", "nbHits", "page", "nbPages"}`.
    public var jsonValue: JSONValue {
        ["hits": .array(hits.map(JSONValue.object)), "nbHits": .int(Int64(nbHits)), "page": .int(Int64(page)), "nbPages": .int(Int64(nbPages))]
    }

    /// Reads Algolia's answer.
    public init(json: JSONValue) throws(SearchError) {
        guard let hits = json["hits"]?.arrayValue, let nbHits = json["nbHits"]?.intValue else {
            throw SearchError(.invalidJSON, "rules search response: expected hits and nbHits")
        }
        self.hits = hits.compactMap(\.objectValue)
        self.nbHits = nbHits
        page = json["page"]?.intValue ?? 0
        nbPages = json["nbPages"]?.intValue ?? 0
    }
}

/// An index's Rules, with Algolia's names: the engine implements it, and so does the remote
/// client, so a mirror copies rules from any source into any target.
///
/// ```swift
/// _ = try await service.saveRule(indexName: "products", objectID: "promote-iphone", rule: [
///     "objectID": "promote-iphone",
///     "conditions": [["pattern": "iphone", "anchoring": "contains"]],
///     "consequence": ["promote": [["objectID": "42", "position": 0]]],
/// ], forwardToReplicas: false)
/// ```
public protocol IndexRulesService: Sendable {
    /// `GET /1/indexes/{index}/rules/{objectID}`: the rule as saved; a missing one is
    /// `SearchError.objectNotFound`.
    func getRule(indexName: String, objectID: String) async throws(SearchError) -> JSONObject

    /// `POST /1/indexes/{index}/rules/batch`: saves the rules (each replacing the one with its
    /// objectID); with `clearExistingRules`, every other rule is removed in the same write.
    func saveRules(indexName: String, rules: [JSONObject], forwardToReplicas: Bool,
                   clearExistingRules: Bool) async throws(SearchError) -> WriteResponse

    /// `DELETE /1/indexes/{index}/rules/{objectID}`: a missing rule is `objectNotFound`.
    func deleteRule(indexName: String, objectID: String, forwardToReplicas: Bool) async throws(SearchError) -> WriteResponse

    /// `POST /1/indexes/{index}/rules/clear`: removes every rule.
    func clearRules(indexName: String, forwardToReplicas: Bool) async throws(SearchError) -> WriteResponse

    /// `POST /1/indexes/{index}/rules/search`: a page of the rules that match.
    func searchRules(indexName: String, searchRulesParams: SearchRulesParams) async throws(SearchError) -> RulesPage
}

extension IndexRulesService {
    /// `PUT /1/indexes/{index}/rules/{objectID}`: saves one rule (its objectID must be `objectID`).
    public func saveRule(indexName: String, objectID: String, rule: JSONObject,
                         forwardToReplicas: Bool = false) async throws(SearchError) -> WriteResponse {
        var rule = rule
        if rule["objectID"] == nil { rule["objectID"] = .string(objectID) }
        guard rule["objectID"]?.scalarText == objectID else {
            throw .invalidParameter("objectID", expected: "the rule's objectID to be the one in the path (\(objectID))",
                                    got: rule["objectID"]?.jsonString)
        }
        return try await saveRules(indexName: indexName, rules: [rule], forwardToReplicas: forwardToReplicas, clearExistingRules: false)
    }

    /// Algolia's `browseRules` helper: every rule of the index, as saved (without the
    /// `_highlightResult` Algolia adds to a rules search's hits).
    public func browseRules(indexName: String) async throws(SearchError) -> [JSONObject] {
        var all: [JSONObject] = []
        var page = 0
        while true {
            let found = try await searchRules(indexName: indexName, searchRulesParams: SearchRulesParams(page: page, hitsPerPage: 1000))
            all += found.hits.map { hit in
                var rule = hit
                rule["_highlightResult"] = nil
                return rule
            }
            if found.hits.isEmpty || all.count >= found.nbHits { return all }
            page += 1
        }
    }
}
