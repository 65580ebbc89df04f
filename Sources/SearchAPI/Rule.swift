/// One of Algolia's Rules, read and checked from its JSON: when it applies (`conditions`,
/// `validity`, `enabled`) and what it does (`consequence`). The JSON as saved is kept whole
/// (`json`) and is what `getRule` and `searchRules` answer.
///
/// ```swift
/// let rule = try Rule(json: ["objectID": "promote-iphone",
///                            "conditions": [["pattern": "iphone", "anchoring": "contains"]],
///                            "consequence": ["promote": [["objectID": "42", "position": 0]]]])
/// ```
public struct Rule: Sendable, Hashable {
    /// The rule's unique name in its index.
    public var objectID: String
    /// When the rule applies: any one of them (none: always, within `validity`).
    public var conditions: [RuleCondition]
    /// What the rule does.
    public var consequence: RuleConsequence
    /// Whether the rule applies at all (`enabled`, true by default).
    public var enabled: Bool
    /// The periods the rule applies in (none: always).
    public var validity: [RuleTimeRange]
    /// `description`, for people.
    public var description: String?
    /// The rule's JSON as saved.
    public var json: JSONObject

    /// The most conditions a rule may have (Algolia's limit).
    public static let maxConditions = 25
    /// The most records a rule may promote (Algolia's limit).
    public static let maxPromoted = 300
    /// The most records a rule may hide (Algolia's limit).
    public static let maxHidden = 50
    /// The last position a record may be promoted to (Algolia's limit).
    public static let maxPosition = 300
    /// The most rules an index may hold (Algolia's limit).
    public static let maxRules = 10_000

    static let knownKeys: Set<String> = ["objectID", "conditions", "condition", "consequence", "description", "enabled",
                                         "validity", "tags", "scope", "_metadata"]

    /// Reads a rule, checking every field; `position` (the rule's place in a batch) names it
    /// in errors.
    public init(json object: JSONObject, position: Int? = nil) throws(SearchError) {
        let at = position.map { "rules[\($0)]." } ?? ""
        guard let objectID = object["objectID"]?.scalarText, !objectID.isEmpty else {
            throw SearchError(.invalidParameter, "\(at)objectID: a rule needs an objectID (a non-empty string)")
        }
        let name = "\(at.isEmpty ? "rule \(objectID): " : at)"
        for key in object.keys where !Rule.knownKeys.contains(key) {
            throw SearchError(.invalidParameter, "\(name)\(key): unknown field; a rule has objectID, conditions, consequence, description, enabled, validity and tags")
        }
        self.objectID = objectID
        json = object
        var conditions: [RuleCondition] = []
        if let value = object["conditions"], !value.isNull {
            guard let list = value.arrayValue else { throw .invalidParameter("\(name)conditions", expected: "an array of conditions", got: value.jsonString) }
            guard list.count <= Rule.maxConditions else {
                throw .invalidParameter("\(name)conditions", expected: "at most \(Rule.maxConditions) conditions", got: "\(list.count)")
            }
            for (offset, element) in list.enumerated() {
                conditions.append(try RuleCondition(json: element, name: "\(name)conditions[\(offset)]"))
            }
        }
        if let value = object["condition"], !value.isNull {
            conditions.append(try RuleCondition(json: value, name: "\(name)condition"))
        }
        self.conditions = conditions
        guard let consequence = object["consequence"], !consequence.isNull else {
            throw SearchError(.invalidParameter, "\(name)consequence: a rule needs a consequence")
        }
        self.consequence = try RuleConsequence(json: consequence, name: "\(name)consequence")
        if let value = object["enabled"], !value.isNull {
            guard let flag = value.boolValue else { throw .invalidParameter("\(name)enabled", expected: "a boolean", got: value.jsonString) }
            enabled = flag
        } else {
            enabled = true
        }
        var validity: [RuleTimeRange] = []
        if let value = object["validity"], !value.isNull {
            guard let list = value.arrayValue else { throw .invalidParameter("\(name)validity", expected: "an array of {from, until}", got: value.jsonString) }
            for (offset, element) in list.enumerated() {
                validity.append(try RuleTimeRange(json: element, name: "\(name)validity[\(offset)]"))
            }
        }
        self.validity = validity
        if let value = object["description"], !value.isNull {
            guard let text = value.stringValue else { throw .invalidParameter("\(name)description", expected: "a string", got: value.jsonString) }
            description = text
        }
        if let value = object["tags"], !value.isNull {
            guard value.arrayValue?.allSatisfy({ $0.stringValue != nil }) == true else {
                throw .invalidParameter("\(name)tags", expected: "an array of strings", got: value.jsonString)
            }
        }
        let usesPlaceholder = !(self.consequence.automaticFacetFilters.isEmpty && self.consequence.automaticOptionalFacetFilters.isEmpty)
        if usesPlaceholder {
            let placeholders = Set(conditions.flatMap { $0.placeholders })
            for filter in self.consequence.automaticFacetFilters + self.consequence.automaticOptionalFacetFilters
            where !placeholders.contains(filter.facet) {
                throw SearchError(.invalidParameter, "\(name)consequence.params: automatic facet filter \"\(filter.facet)\" needs a condition pattern with the placeholder {facet:\(filter.facet)}")
            }
        }
    }

    /// Whether the rule applies at `time` (seconds since 1970): enabled, and within one of its
    /// validity periods when it has any.
    public func isActive(at time: Int64) -> Bool {
        enabled && (validity.isEmpty || validity.contains { $0.from <= time && time <= $0.until })
    }
}

/// `anchoring`: where a condition's pattern must be found in the query.
public enum RuleAnchoring: String, Sendable, Hashable, CaseIterable {
    /// The whole query is the pattern.
    case `is`
    /// The query starts with the pattern.
    case startsWith
    /// The query ends with the pattern.
    case endsWith
    /// The pattern is somewhere in the query.
    case contains
}

/// One condition of a rule: the query (`pattern`, `anchoring`), a context the search names
/// (`ruleContexts`) and filters the search applies; all those it sets must hold.
public struct RuleCondition: Sendable, Hashable {
    /// Words (and `{facet:attribute}` placeholders) to find in the query; nil when the condition
    /// is not on the query.
    public var pattern: String?
    /// Where `pattern` must be found.
    public var anchoring: RuleAnchoring?
    /// Whether the pattern also matches the query's plurals, synonyms and typos.
    public var alternatives: Bool
    /// A context the search must name in `ruleContexts`.
    public var context: String?
    /// Filters the search must apply (in `filters` or `facetFilters`).
    public var filters: String?

    static let knownKeys: Set<String> = ["pattern", "anchoring", "alternatives", "context", "filters"]

    /// The attributes of the pattern's `{facet:attribute}` placeholders.
    public var placeholders: [String] { pattern.map(RuleCondition.placeholders(in:)) ?? [] }

    /// The attributes named by `{facet:attribute}` in `pattern` (`\{` is a literal brace).
    public static func placeholders(in pattern: String) -> [String] {
        var found: [String] = []
        var rest = pattern[...]
        while let character = rest.popFirst() {
            if character == "\\" {
                _ = rest.popFirst()
            } else if character == "{", rest.hasPrefix("facet:"), let close = rest.firstIndex(of: "}") {
                found.append(String(rest[rest.index(rest.startIndex, offsetBy: 6)..<close]))
                rest = rest[rest.index(after: close)...]
            }
        }
        return found
    }

    init(json value: JSONValue, name: String) throws(SearchError) {
        guard let object = value.objectValue else { throw .invalidParameter(name, expected: "a condition object", got: value.jsonString) }
        for key in object.keys where !RuleCondition.knownKeys.contains(key) {
            throw SearchError(.invalidParameter, "\(name).\(key): unknown field; a condition has pattern, anchoring, alternatives, context and filters")
        }
        func string(_ key: String) throws(SearchError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let text = value.stringValue else { throw .invalidParameter("\(name).\(key)", expected: "a string", got: value.jsonString) }
            return text
        }
        pattern = try string("pattern")
        if let text = try string("anchoring") {
            guard let anchoring = RuleAnchoring(rawValue: text) else {
                throw .invalidParameter("\(name).anchoring", expected: "is, startsWith, endsWith or contains", got: "\"\(text)\"")
            }
            self.anchoring = anchoring
        }
        if let value = object["alternatives"], !value.isNull {
            guard let flag = value.boolValue else { throw .invalidParameter("\(name).alternatives", expected: "a boolean", got: value.jsonString) }
            alternatives = flag
        } else {
            alternatives = false
        }
        context = try string("context")
        if let context, context.isEmpty || !context.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) {
            throw .invalidParameter("\(name).context", expected: "letters, digits, - and _", got: "\"\(context)\"")
        }
        filters = try string("filters")
        if pattern != nil, anchoring == nil {
            throw SearchError(.invalidParameter, "\(name): a pattern needs an anchoring (is, startsWith, endsWith or contains)")
        }
        if anchoring != nil, pattern == nil {
            throw SearchError(.invalidParameter, "\(name): an anchoring needs a pattern")
        }
        if let pattern, RuleCondition.placeholders(in: pattern).contains(where: { $0.isEmpty || $0.contains(" ") }) {
            throw .invalidParameter("\(name).pattern", expected: "placeholders written {facet:attribute}", got: "\"\(pattern)\"")
        }
        if let pattern, pattern.allSatisfy(\.isWhitespace), anchoring != .is {
            throw SearchError(.invalidParameter, "\(name): an empty pattern goes only with the anchoring is (it matches the empty query)")
        }
        if let filters, filters.contains(" OR ") || !filters.contains(":") || filters.contains(where: { "<>=".contains($0) }) {
            throw .invalidParameter("\(name).filters", expected: "facet filters joined by AND, such as \"brand:Apple AND type:phone\" (no OR, no numeric filter)",
                                    got: "\"\(filters)\"")
        }
    }
}

/// `validity`: a period a rule applies in, in seconds since 1970 (both ends included).
public struct RuleTimeRange: Sendable, Hashable {
    /// The first second the rule applies.
    public var from: Int64
    /// The last second the rule applies.
    public var until: Int64

    init(json value: JSONValue, name: String) throws(SearchError) {
        guard let object = value.objectValue, let from = object["from"]?.intValue, let until = object["until"]?.intValue else {
            throw .invalidParameter(name, expected: "{\"from\": seconds, \"until\": seconds}", got: value.jsonString)
        }
        guard from <= until else { throw .invalidParameter(name, expected: "from before until", got: value.jsonString) }
        self.from = Int64(from)
        self.until = Int64(until)
    }
}

/// What a rule does.
public struct RuleConsequence: Sendable, Hashable {
    /// Search parameters the rule sets (`consequence.params` less `query`, the automatic facet
    /// filters and `renderingContent`, which have fields of their own).
    public var params: JSONObject
    /// How the rule changes the query, when it does.
    public var query: RuleQueryChange?
    /// Filters made from the facet values the pattern's placeholders matched.
    public var automaticFacetFilters: [AutomaticFacetFilter]
    /// Optional filters made from the facet values the pattern's placeholders matched.
    public var automaticOptionalFacetFilters: [AutomaticFacetFilter]
    /// `renderingContent` for the response (facet ordering, redirect).
    public var renderingContent: JSONObject?
    /// Records pinned at positions.
    public var promote: [RulePromotion]
    /// Whether a promoted record must also pass the search's filters to be shown.
    public var filterPromotes: Bool
    /// objectIDs of the records hidden.
    public var hide: [String]
    /// Added to the response's `userData`.
    public var userData: JSONValue?

    static let knownKeys: Set<String> = ["params", "promote", "filterPromotes", "hide", "userData", "redirect", "renderingContent"]

    init(json value: JSONValue, name: String) throws(SearchError) {
        guard let object = value.objectValue else { throw .invalidParameter(name, expected: "a consequence object", got: value.jsonString) }
        for key in object.keys where !RuleConsequence.knownKeys.contains(key) {
            throw SearchError(.invalidParameter, "\(name).\(key): unknown field; a consequence has params, promote, filterPromotes, hide and userData")
        }
        var params = JSONObject()
        query = nil
        automaticFacetFilters = []
        automaticOptionalFacetFilters = []
        renderingContent = nil
        if let value = object["params"], !value.isNull {
            guard let given = value.objectValue else { throw .invalidParameter("\(name).params", expected: "an object of search parameters", got: value.jsonString) }
            for (key, parameter) in given {
                switch key {
                case "query": query = try RuleQueryChange(json: parameter, name: "\(name).params.query")
                case "automaticFacetFilters":
                    automaticFacetFilters = try AutomaticFacetFilter.list(parameter, name: "\(name).params.automaticFacetFilters")
                case "automaticOptionalFacetFilters":
                    automaticOptionalFacetFilters = try AutomaticFacetFilter.list(parameter, name: "\(name).params.automaticOptionalFacetFilters")
                case "renderingContent":
                    guard let content = parameter.objectValue else {
                        throw .invalidParameter("\(name).params.renderingContent", expected: "an object", got: parameter.jsonString)
                    }
                    renderingContent = content
                default: params[key] = parameter
                }
            }
            // The other parameters are checked as a search's are.
            do { _ = try SearchParameters(json: params) } catch {
                throw SearchError(error.kind, "\(name).params: \(error.message)")
            }
        }
        self.params = params
        promote = []
        if let value = object["promote"], !value.isNull {
            guard let list = value.arrayValue else { throw .invalidParameter("\(name).promote", expected: "an array of {objectID, position}", got: value.jsonString) }
            for (offset, element) in list.enumerated() {
                promote.append(try RulePromotion(json: element, name: "\(name).promote[\(offset)]"))
            }
            let count = promote.reduce(0) { $0 + $1.objectIDs.count }
            guard count <= Rule.maxPromoted else {
                throw .invalidParameter("\(name).promote", expected: "at most \(Rule.maxPromoted) records", got: "\(count)")
            }
        }
        if let value = object["filterPromotes"], !value.isNull {
            guard let flag = value.boolValue else { throw .invalidParameter("\(name).filterPromotes", expected: "a boolean", got: value.jsonString) }
            filterPromotes = flag
        } else {
            filterPromotes = false
        }
        hide = []
        if let value = object["hide"], !value.isNull {
            guard let list = value.arrayValue else { throw .invalidParameter("\(name).hide", expected: "an array of {objectID}", got: value.jsonString) }
            for (offset, element) in list.enumerated() {
                guard let objectID = element["objectID"]?.scalarText, element.objectValue?.count == 1 else {
                    throw .invalidParameter("\(name).hide[\(offset)]", expected: "{\"objectID\": string}", got: element.jsonString)
                }
                hide.append(objectID)
            }
            guard hide.count <= Rule.maxHidden else {
                throw .invalidParameter("\(name).hide", expected: "at most \(Rule.maxHidden) records", got: "\(hide.count)")
            }
        }
        if let redirect = object["redirect"], !redirect.isNull, redirect.objectValue == nil {
            // `{"indexName": ...}`: a redirect to a virtual replica, kept as saved (not applied).
            throw .invalidParameter("\(name).redirect", expected: "an object such as {\"indexName\": ...}", got: redirect.jsonString)
        }
        // Older clients put `renderingContent` on the consequence itself.
        if let content = object["renderingContent"], !content.isNull, renderingContent == nil {
            guard let content = content.objectValue else {
                throw .invalidParameter("\(name).renderingContent", expected: "an object", got: content.jsonString)
            }
            renderingContent = content
        }
        userData = object["userData"].flatMap { $0.isNull ? nil : $0 }
    }

    /// Whether the rule changes the search before it runs (anything but promote, hide, userData
    /// and renderingContent).
    public var changesRequest: Bool {
        !params.isEmpty || query != nil || !automaticFacetFilters.isEmpty || !automaticOptionalFacetFilters.isEmpty
    }
}

/// `consequence.params.query`: the query replaced, or edited word by word.
public enum RuleQueryChange: Sendable, Hashable {
    /// The query becomes this text.
    case replace(String)
    /// The query's words removed or replaced, in order.
    case edits([RuleQueryEdit])

    init(json value: JSONValue, name: String) throws(SearchError) {
        if let text = value.stringValue {
            self = .replace(text)
            return
        }
        guard let object = value.objectValue else {
            throw .invalidParameter(name, expected: "a string, or {\"edits\": [...]}, or {\"remove\": [...]}", got: value.jsonString)
        }
        var edits: [RuleQueryEdit] = []
        for key in object.keys where key != "edits" && key != "remove" {
            throw SearchError(.invalidParameter, "\(name).\(key): unknown field; expected edits or remove")
        }
        if let remove = object["remove"], !remove.isNull {
            let remove: JSONValue = remove.stringValue != nil ? .array([remove]) : remove
            guard let words = remove.arrayValue?.compactMap(\.stringValue), words.count == remove.arrayValue?.count else {
                throw .invalidParameter("\(name).remove", expected: "an array of strings", got: remove.jsonString)
            }
            edits += words.map { RuleQueryEdit(delete: $0, insert: nil) }
        }
        if let list = object["edits"], !list.isNull {
            guard let elements = list.arrayValue else { throw .invalidParameter("\(name).edits", expected: "an array of edits", got: list.jsonString) }
            for (offset, element) in elements.enumerated() {
                let at = "\(name).edits[\(offset)]"
                guard let edit = element.objectValue else { throw .invalidParameter(at, expected: "{\"type\", \"delete\", \"insert\"}", got: element.jsonString) }
                for key in edit.keys where !["type", "delete", "insert"].contains(key) {
                    throw SearchError(.invalidParameter, "\(at).\(key): unknown field; an edit has type, delete and insert")
                }
                guard let delete = edit["delete"]?.stringValue, !delete.isEmpty else {
                    throw .invalidParameter("\(at).delete", expected: "the text to remove or replace")
                }
                switch edit["type"]?.stringValue {
                case "remove", nil: edits.append(RuleQueryEdit(delete: delete, insert: nil))
                case "replace":
                    guard let insert = edit["insert"]?.stringValue else {
                        throw .invalidParameter("\(at).insert", expected: "the text that replaces \"\(delete)\"")
                    }
                    edits.append(RuleQueryEdit(delete: delete, insert: insert))
                default:
                    throw .invalidParameter("\(at).type", expected: "remove or replace", got: edit["type"]?.jsonString ?? "nothing")
                }
            }
        }
        self = .edits(edits)
    }
}

/// One query edit: `delete` removed, or replaced by `insert`.
public struct RuleQueryEdit: Sendable, Hashable {
    /// The words removed (or a `{facet:attribute}` placeholder: the words it matched).
    public var delete: String
    /// The text put in their place; nil removes them.
    public var insert: String?
}

/// One entry of `automaticFacetFilters` / `automaticOptionalFacetFilters`.
public struct AutomaticFacetFilter: Sendable, Hashable {
    /// The attribute of the pattern's `{facet:attribute}` placeholder.
    public var facet: String
    /// Several values of the facet matched: OR-ed (true) or AND-ed (false).
    public var disjunctive: Bool
    /// The optional filter's score.
    public var score: Int
    /// Leave the matched value out (`facet:-value`) rather than keep only it.
    public var negative: Bool

    /// The scores an optional filter may have (Algolia's range).
    public static let scores = 0...65_535

    static func list(_ value: JSONValue, name: String) throws(SearchError) -> [AutomaticFacetFilter] {
        // A lone filter object (some tools send one) is read as a list of one.
        guard let elements = value.arrayValue ?? (value.objectValue != nil ? [value] : nil) else {
            throw .invalidParameter(name, expected: "an array of attribute names or {facet, disjunctive, score, negative}", got: value.jsonString)
        }
        var filters: [AutomaticFacetFilter] = []
        for (offset, element) in elements.enumerated() {
            let at = "\(name)[\(offset)]"
            if let text = element.stringValue {
                // `brand` or `brand<score=5>`.
                var facet = text
                var score = 1
                if text.hasSuffix(">"), let open = text.firstIndex(of: "<"), text[open...].hasPrefix("<score=") {
                    guard let number = Int(text[text.index(open, offsetBy: 7)..<text.index(before: text.endIndex)]),
                          AutomaticFacetFilter.scores.contains(number) else {
                        throw .invalidParameter(at, expected: "attribute or attribute<score=N>, N from 0 to 65535", got: element.jsonString)
                    }
                    facet = String(text[..<open])
                    score = number
                }
                filters.append(AutomaticFacetFilter(facet: facet, disjunctive: false, score: score, negative: false))
                continue
            }
            guard let object = element.objectValue, let facet = object["facet"]?.stringValue else {
                throw .invalidParameter(at, expected: "an attribute name or {\"facet\": attribute, ...}", got: element.jsonString)
            }
            for key in object.keys where !["facet", "disjunctive", "score", "negative"].contains(key) {
                throw SearchError(.invalidParameter, "\(at).\(key): unknown field; expected facet, disjunctive, score or negative")
            }
            func flag(_ key: String) throws(SearchError) -> Bool {
                guard let value = object[key], !value.isNull else { return false }
                guard let flag = value.boolValue else { throw .invalidParameter("\(at).\(key)", expected: "a boolean", got: value.jsonString) }
                return flag
            }
            var score = 1
            if let value = object["score"], !value.isNull {
                guard let number = value.intValue, AutomaticFacetFilter.scores.contains(number) else {
                    throw .invalidParameter("\(at).score", expected: "an integer from 0 to 65535", got: value.jsonString)
                }
                score = number
            }
            filters.append(AutomaticFacetFilter(facet: facet, disjunctive: try flag("disjunctive"), score: score, negative: try flag("negative")))
        }
        return filters
    }
}

/// One entry of `promote`: records pinned from a position (0 is the first hit).
public struct RulePromotion: Sendable, Hashable {
    /// The records, in order (`objectID`, or `objectIDs` for several).
    public var objectIDs: [String]
    /// The position of the first, over every page.
    public var position: Int

    init(json value: JSONValue, name: String) throws(SearchError) {
        guard let object = value.objectValue else { throw .invalidParameter(name, expected: "{\"objectID\", \"position\"}", got: value.jsonString) }
        for key in object.keys where !["objectID", "objectIDs", "position"].contains(key) {
            throw SearchError(.invalidParameter, "\(name).\(key): unknown field; a promotion has objectID (or objectIDs) and position")
        }
        if let one = object["objectID"]?.scalarText {
            objectIDs = [one]
        } else if let many = object["objectIDs"]?.arrayValue, let ids = Optional(many.compactMap(\.scalarText)), ids.count == many.count, !ids.isEmpty {
            guard ids.count <= 100 else { throw .invalidParameter("\(name).objectIDs", expected: "at most 100 objectIDs", got: "\(ids.count)") }
            objectIDs = ids
        } else {
            throw .invalidParameter(name, expected: "an objectID, or objectIDs", got: value.jsonString)
        }
        guard let position = object["position"]?.intValue, (0...Rule.maxPosition).contains(position) else {
            throw .invalidParameter("\(name).position", expected: "a position from 0 to \(Rule.maxPosition)",
                                    got: object["position"]?.jsonString ?? "nothing")
        }
        self.position = position
    }
}
