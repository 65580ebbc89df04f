import SearchAPI

/// What the rules that apply to one search do to it: the request rewritten before matching
/// (`parameters`), and what is done after ranking (promotions, hidden records) and to the
/// response (`userData`, `renderingContent`, `appliedRules`).
struct AppliedRules: Sendable {
    /// The search's parameters with the rules' consequences: the query rewritten, parameters
    /// set, filters added.
    var parameters: SearchParameters
    /// The objectIDs of the rules applied, in precedence order.
    var ruleIDs: [String] = []
    /// Records pinned at positions over every page, in position order (no two at one position).
    var promotions: [Promotion] = []
    /// objectIDs of records left out of the results.
    var hidden: Set<String> = []
    /// Each applied rule's `userData`, in precedence order.
    var userData: [JSONValue] = []
    /// The `renderingContent` of the first applied rule that sets one.
    var renderingContent: JSONObject?

    struct Promotion: Sendable, Hashable {
        var objectID: String
        var position: Int
        /// `filterPromotes`: shown only when it passes the search's filters.
        var mustPassFilters: Bool
    }
}

/// The Rules stage of a search, before anything is matched: which rules apply to the request
/// and what they change. Rules are matched as Algolia's rule-matching algorithm says:
///
/// 1. A rule applies when it is enabled, within its validity, and one of its conditions holds
///    (all of a condition's parts: the pattern found in the query with its anchoring, its
///    context among `ruleContexts`, its filters among the request's); a rule without
///    conditions always applies.
/// 2. The rules that apply are ordered by precedence: the match nearest the start of the query,
///    the longest (query words plus filters), the anchoring (`is`, `startsWith`, `endsWith`,
///    `contains`), a context, filters, literals over placeholders, a validity period, then the
///    smaller objectID.
/// 3. In that order, a rule whose matched query words, or condition filters, overlap those of a
///    rule kept before is dropped whole.
/// 4. The rules kept combine: edits of the query apply in turn (a replaced query wins over
///    them), filters are ANDed with the request's and each other's, another parameter is the
///    first rule's that sets it, promotions and hidden records add up (two promotions at one
///    position: the smaller objectID first, the other after it), `userData` accumulates, and
///    `renderingContent` is the first rule's that sets one.
enum RuleStage {
    /// The rules of `book` applied to `parameters` at `now` (seconds since 1970); nil when none
    /// applies, or rules are off (`enableRules: false`).
    static func apply(_ book: RuleBook, to parameters: SearchParameters, state: IndexState, now: Int64) throws(SearchError) -> AppliedRules? {
        guard !book.rules.isEmpty else { return nil }
        let settings = state.configuration.settings
        if let value = parameters.other["enableRules"] ?? settings.values["enableRules"],
           try !ParameterReader(name: "enableRules", value: value).bool() { return nil }
        let contexts = Set(try parameters.other["ruleContexts"].map { value throws(SearchError) in
            try ParameterReader(name: "ruleContexts", value: value).stringList()
        } ?? [])
        var query: RuleQuery?
        var requestFilters: Set<FilterAtom>?
        var candidates: [Candidate] = []
        let patterns = book.patterns(separators: state.configuration.separators)
        for ruleIndex in book.rules.indices where book.rules[ruleIndex].isActive(at: now) {
            let conditions = book.rules[ruleIndex].conditions
            guard !conditions.isEmpty else {
                candidates.append(Candidate(ruleIndex, in: book))
                continue
            }
            var best: Candidate?
            for (conditionIndex, condition) in conditions.enumerated() {
                if let context = condition.context, !contexts.contains(context) { continue }
                var candidate = Candidate(ruleIndex, in: book)
                candidate.hasContext = condition.context != nil
                if let filters = condition.filters {
                    guard let atoms = FilterAtom.conjunction(filters) else { continue }
                    if requestFilters == nil { requestFilters = FilterAtom.requested(by: parameters) }
                    guard atoms.isSubset(of: requestFilters!) else { continue }
                    candidate.filters = atoms
                }
                if let compiled = patterns[ruleIndex][conditionIndex], let anchoring = condition.anchoring {
                    if query == nil { query = RuleQuery(parameters.query, state: state) }
                    guard let found = query!.find(compiled, anchoring: anchoring, alternatives: condition.alternatives) else { continue }
                    candidate.match = found
                    candidate.anchoring = anchoring
                }
                if best.map({ candidate.precedes($0) }) ?? true { best = candidate }
            }
            if let best { candidates.append(best) }
        }
        guard !candidates.isEmpty else { return nil }
        candidates.sort { $0.precedes($1) }
        var kept: [Candidate] = []
        for candidate in candidates where !kept.contains(where: { candidate.conflicts(with: $0) }) {
            kept.append(candidate)
        }
        return try combine(kept, book: book, parameters: parameters, query: query ?? RuleQuery(parameters.query, state: state))
    }

    /// One rule that applies, with the condition of it that ranks first.
    struct Candidate {
        /// The rule's place in `RuleBook.rules`.
        let index: Int
        let objectID: String
        let hasValidity: Bool
        var match: PatternMatch?
        var anchoring: RuleAnchoring?
        var hasContext = false
        var filters: Set<FilterAtom> = []

        init(_ index: Int, in book: RuleBook) {
            self.index = index
            objectID = book.rules[index].objectID
            hasValidity = !book.rules[index].validity.isEmpty
        }

        private static func rank(_ anchoring: RuleAnchoring?) -> Int {
            switch anchoring {
            case .is: 0
            case .startsWith: 1
            case .endsWith: 2
            case .contains: 3
            case nil: 4
            }
        }

        /// Algolia's precedence: whether this rule comes before `other`.
        func precedes(_ other: Candidate) -> Bool {
            let position = match?.words.lowerBound ?? Int.max, otherPosition = other.match?.words.lowerBound ?? Int.max
            if position != otherPosition { return position < otherPosition }
            let length = (match?.words.count ?? 0) + filters.count, otherLength = (other.match?.words.count ?? 0) + other.filters.count
            if length != otherLength { return length > otherLength }
            let anchoring = Candidate.rank(self.anchoring), otherAnchoring = Candidate.rank(other.anchoring)
            if anchoring != otherAnchoring { return anchoring < otherAnchoring }
            if hasContext != other.hasContext { return hasContext }
            if filters.isEmpty != other.filters.isEmpty { return !filters.isEmpty }
            let literals = match?.literalCount ?? 0, otherLiterals = other.match?.literalCount ?? 0
            if literals != otherLiterals { return literals > otherLiterals }
            if hasValidity != other.hasValidity { return hasValidity }
            return objectID < other.objectID
        }

        /// Whether this rule matched query words, or condition filters, that `other` matched too.
        func conflicts(with other: Candidate) -> Bool {
            if let words = match?.words, let otherWords = other.match?.words, words.overlaps(otherWords) { return true }
            return !filters.isDisjoint(with: other.filters)
        }
    }

    /// The consequences of the rules kept, in precedence order, combined.
    private static func combine(_ kept: [Candidate], book: RuleBook, parameters: SearchParameters,
                                query: RuleQuery) throws(SearchError) -> AppliedRules {
        var applied = AppliedRules(parameters: parameters)
        // The request as JSON only when a rule changes it (most rules pin, hide or add userData).
        let changesRequest = kept.contains { book.rules[$0.index].consequence.changesRequest }
        var object = changesRequest ? parameters.jsonObject : JSONObject()
        var replacedQuery: String?
        var edits: [(range: Range<Int>, insert: String?)] = []
        var addedFacetFilters: [FilterListItem] = []
        var addedOptionalFilters: [FilterListItem] = []
        var setByRule: Set<String> = []
        var promotions: [(objectID: String, position: Int, mustPassFilters: Bool)] = []
        // The rules' `filters`, ANDed with the search's once all are known (one level of parentheses each).
        var ruleFilters: [String] = []
        for candidate in kept {
            let consequence = book.rules[candidate.index].consequence
            applied.ruleIDs.append(candidate.objectID)
            switch consequence.query {
            case .replace(let text)?: if replacedQuery == nil { replacedQuery = text }
            case .edits(let list)?: edits += list.flatMap { query.ranges(of: $0, match: candidate.match).map { ($0, $1) } }
            case nil: break
            }
            let facets = candidate.match?.facets ?? []
            addedFacetFilters += automaticFilters(consequence.automaticFacetFilters, facets: facets, scored: false)
            addedOptionalFilters += automaticFilters(consequence.automaticOptionalFacetFilters, facets: facets, scored: true)
            for (key, value) in consequence.params {
                if key == "filters", let text = value.stringValue {
                    if !text.trimmingSpaces.isEmpty { ruleFilters.append(text) }
                } else if FilterAtom.filterKeys.contains(key) {
                    object[key] = try combinedFilters(key, object[key], value)
                } else if !setByRule.contains(key) {
                    object[key] = value
                    setByRule.insert(key)
                }
            }
            for promotion in consequence.promote {
                for (offset, objectID) in promotion.objectIDs.enumerated() {
                    promotions.append((objectID, promotion.position + offset, consequence.filterPromotes))
                }
            }
            applied.hidden.formUnion(consequence.hide)
            if let userData = consequence.userData { applied.userData.append(userData) }
            if applied.renderingContent == nil { applied.renderingContent = consequence.renderingContent }
        }
        if let replacedQuery {
            object["query"] = .string(RuleStage.withinQueryLimit(replacedQuery))
        } else if !edits.isEmpty {
            object["query"] = .string(RuleStage.withinQueryLimit(query.editing(edits)))
        }
        if !ruleFilters.isEmpty {
            let own = object["filters"]?.stringValue.flatMap { $0.trimmingSpaces.isEmpty ? nil : $0 }
            object["filters"] = .string(((own.map { [$0] } ?? []) + ruleFilters).map { "(\($0))" }.joined(separator: " AND "))
        }
        if !addedFacetFilters.isEmpty {
            object["facetFilters"] = try combinedFilters("facetFilters", object["facetFilters"], FilterList.list(addedFacetFilters).jsonValue)
        }
        if !addedOptionalFilters.isEmpty {
            object["optionalFilters"] = try combinedFilters("optionalFilters", object["optionalFilters"],
                                                            FilterList.list(addedOptionalFilters).jsonValue)
        }
        if changesRequest { applied.parameters = try SearchParameters(json: object) }
        // One record per position: at a position taken, the next free one (smaller objectID first).
        var seen: Set<String> = []
        var last = -1
        for promotion in promotions.sorted(by: { ($0.position, $0.objectID) < ($1.position, $1.objectID) })
        where seen.insert(promotion.objectID).inserted && !applied.hidden.contains(promotion.objectID) {
            last = max(promotion.position, last + 1)
            applied.promotions.append(.init(objectID: promotion.objectID, position: last, mustPassFilters: promotion.mustPassFilters))
        }
        return applied
    }

    /// A rewritten query cut to Algolia's 512 bytes (an edit may lengthen a query that was
    /// within them), at a character's boundary.
    static func withinQueryLimit(_ text: String) -> String {
        guard text.utf8.count > SearchParameters.maxQueryBytes else { return text }
        var kept = ""
        for character in text {
            guard kept.utf8.count + character.utf8.count <= SearchParameters.maxQueryBytes else { break }
            kept.append(character)
        }
        return kept
    }

    /// The filters an automatic facet filter makes from the facet values its placeholder matched:
    /// one filter per value (AND), or one OR group (`disjunctive`); `negative` leaves the values
    /// out; optional filters carry their `score`.
    private static func automaticFilters(_ filters: [AutomaticFacetFilter], facets: [PatternMatch.FacetMatch], scored: Bool) -> [FilterListItem] {
        var items: [FilterListItem] = []
        for filter in filters {
            let values = facets.filter { $0.attribute == filter.facet }.map { facet in
                let escaped = facet.value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                return "\(filter.facet):\(filter.negative ? "-" : "")\"\(escaped)\"" + (scored ? "<score=\(filter.score)>" : "")
            }
            guard !values.isEmpty else { continue }
            if filter.disjunctive {
                items.append(.anyOf(values))
            } else {
                items += values.map(FilterListItem.single)
            }
        }
        return items
    }

    /// A list-form filter parameter of the request and a rule's, ANDed (one list of both's items).
    private static func combinedFilters(_ key: String, _ existing: JSONValue?, _ added: JSONValue) throws(SearchError) -> JSONValue {
        guard let existing, !existing.isNull else { return added }
        return FilterList.list(try listItems(key, existing) + listItems(key, added)).jsonValue
    }

    private static func listItems(_ key: String, _ value: JSONValue) throws(SearchError) -> [FilterListItem] {
        switch try ParameterReader(name: key, value: value).filterList() {
        case .list(let items): return items
        case .string(let text):
            do { return try FilterListParser.splitStringForm(text, parameter: key) } catch {
                throw SearchError(.invalidFilter, error.description)
            }
        }
    }
}

/// One `attribute:value` filter, compared as Algolia compares facet values (case and diacritics
/// aside), for conditions on the request's filters.
struct FilterAtom: Hashable, Sendable {
    var attribute: String
    var value: String

    /// The parameters that hold filters: a rule's are ANDed with the request's.
    static let filterKeys: Set<String> = ["filters", "facetFilters", "numericFilters", "tagFilters", "optionalFilters"]

    init(attribute: String, value: String) {
        self.attribute = attribute
        self.value = Tokenizer.facetKey(value)
    }

    /// `attr:value`, `attr:"value"`; nil for anything else (a negation, a numeric filter).
    init?(_ text: Substring) {
        var text = text.trimmingSpaces[...]
        if text.hasPrefix("NOT ") || text.hasPrefix("-") { return nil }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        var attribute = text[..<colon].trimmingSpaces
        if attribute.count >= 2, attribute.hasPrefix("\""), attribute.hasSuffix("\"") { attribute = String(attribute.dropFirst().dropLast()) }
        text = text[text.index(after: colon)...]
        var value = text.trimmingSpaces
        guard !value.isEmpty, !value.hasPrefix("-"), !value.contains(" TO ") else { return nil }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        }
        self.init(attribute: attribute, value: value)
    }

    /// The filters of a condition (`a:b AND c:d`); nil when it is not such a conjunction.
    static func conjunction(_ text: String) -> Set<FilterAtom>? {
        var atoms: Set<FilterAtom> = []
        for term in splitAnd(text) {
            guard let atom = FilterAtom(term) else { return nil }
            atoms.insert(atom)
        }
        return atoms.isEmpty ? nil : atoms
    }

    /// The `attribute:value` filters a request applies to every result: the terms ANDed at the
    /// top of `filters`, and the single elements of `facetFilters` (OR groups of one too).
    static func requested(by parameters: SearchParameters) -> Set<FilterAtom> {
        var atoms: Set<FilterAtom> = []
        if let filters = parameters.filters {
            for term in splitAnd(filters) {
                var term = term.trimmingSpaces[...]
                while term.hasPrefix("("), term.hasSuffix(")"), !term.dropFirst().contains("(") {
                    term = term.dropFirst().dropLast()
                }
                if !term.contains(" OR "), let atom = FilterAtom(term) { atoms.insert(atom) }
            }
        }
        let items: [FilterListItem]
        switch parameters.facetFilters {
        case .list(let list)?: items = list
        case .string(let text)?: items = (try? FilterListParser.splitStringForm(text, parameter: "facetFilters")) ?? []
        case nil: items = []
        }
        for item in items {
            switch item {
            case .single(let text): if let atom = FilterAtom(text[...]) { atoms.insert(atom) }
            case .anyOf(let texts): if texts.count == 1, let atom = FilterAtom(texts[0][...]) { atoms.insert(atom) }
            }
        }
        return atoms
    }

    /// `text` split at the ` AND `s outside parentheses and quotes.
    private static func splitAnd(_ text: String) -> [Substring] {
        var terms: [Substring] = []
        var depth = 0, quoted = false
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { quoted.toggle() }
            if !quoted {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if depth == 0, text[index...].hasPrefix(" AND ") {
                    terms.append(text[start..<index])
                    index = text.index(index, offsetBy: 5)
                    start = index
                    continue
                }
            }
            index = text.index(after: index)
        }
        terms.append(text[start...])
        return terms.filter { !$0.trimmingSpaces.isEmpty }
    }
}

extension RuleQuery {
    /// The ranges of query words an edit removes or replaces: each place where its `delete`
    /// words stand side by side (`{facet:attribute}`: the words the rule's placeholder matched).
    func ranges(of edit: RuleQueryEdit, match: PatternMatch?) -> [(Range<Int>, String?)] {
        let pattern = RulePattern(edit.delete, separators: state.configuration.separators)
        if pattern.elements.count == 1, case .facet(let attribute) = pattern.elements[0] {
            return (match?.facets ?? []).filter { $0.attribute == attribute }.map { ($0.words, edit.insert) }
        }
        let words = pattern.elements.compactMap { element -> String? in if case .word(let word) = element { word.word } else { nil } }
        guard !words.isEmpty, words.count == pattern.elements.count, words.count <= tokens.count else { return [] }
        var found: [(Range<Int>, String?)] = []
        var start = 0
        while start + words.count <= tokens.count {
            if zip(tokens[start..<(start + words.count)], words).allSatisfy({ $0.folded == $1 }) {
                found.append((start..<(start + words.count), edit.insert))
                start += words.count
            } else {
                start += 1
            }
        }
        return found
    }

    /// The query's text with `edits` applied: each range of words removed, or replaced by its
    /// text (the first edit of overlapping ones wins); the rest of the text as typed, spaces
    /// collapsed.
    func editing(_ edits: [(range: Range<Int>, insert: String?)]) -> String {
        var chosen: [(range: Range<Int>, insert: String?)] = []
        for edit in edits where !chosen.contains(where: { $0.range.overlaps(edit.range) }) { chosen.append(edit) }
        chosen.sort { $0.range.lowerBound < $1.range.lowerBound }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var position = 0
        for edit in chosen {
            let start = tokens[edit.range.lowerBound].start, end = tokens[edit.range.upperBound - 1].end
            result += bytes[position..<start]
            if let insert = edit.insert { result += Array(insert.utf8) }
            position = end
        }
        result += bytes[position...]
        let edited = String(decoding: result, as: UTF8.self)
        return edited.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
