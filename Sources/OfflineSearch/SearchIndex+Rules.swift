import SearchAPI

// An index's Rules (Algolia's `/1/indexes/{index}/rules/...`): saved, read, deleted and
// searched here; applied to searches by `RuleStage`.
extension SearchIndex {
    /// Every rule's JSON as saved, in objectID order.
    public var rules: [JSONObject] {
        try? followCommittedWrites()
        return live.rules.stored
    }

    /// The rule with this objectID (Algolia's `GET /1/indexes/{index}/rules/{objectID}`), or nil.
    public func rule(_ objectID: String) throws(SearchError) -> JSONObject? {
        try followCommittedWrites()
        return live.rules.rule(objectID)
    }

    /// Saves rules (`POST /1/indexes/{index}/rules/batch`): each replaces the rule with its
    /// objectID (the last of the batch when two share one). Every rule is checked first, so a
    /// wrong one (an unknown field, a wrong type, no objectID) fails the call and nothing is
    /// stored. With `clearExisting`, every other rule is removed in the same write; with
    /// `forwardToReplicas`, the replicas get the same write.
    public func saveRules(_ rules: [JSONObject], clearExisting: Bool = false, forwardToReplicas: Bool = false) throws(SearchError) {
        try write(RecordStore.Change(updateRules: try rulesUpdate(rules, clearExisting: clearExisting)))
        if forwardToReplicas {
            for replica in try replicaIndices() { try replica.saveRules(rules, clearExisting: clearExisting) }
        }
    }

    /// How a save of `rules` changes the stored rules, every rule checked first (against
    /// `settings` when given: the settings the same write sets), so that a wrong one fails the
    /// call before anything is written.
    func rulesUpdate(_ rules: [JSONObject], clearExisting: Bool,
                     settings: IndexSettings? = nil) throws(SearchError) -> @Sendable ([JSONObject]) throws(SearchError) -> [JSONObject] {
        var checked: [String: JSONObject] = [:]
        let configuration = try settings.map { settings throws(SearchError) in try IndexConfiguration(settings: settings) }
            ?? live.state.configuration
        for (position, rule) in rules.enumerated() {
            let parsed = try Rule(json: rule, position: rules.count > 1 ? position : nil)
            // The parameters it sets, read as this index reads a search's (filters parsed, names
            // and values checked): a rule that would fail every search it applies to is refused.
            do {
                _ = try SearchRequest(try SearchParameters(json: parsed.consequence.params), configuration: configuration)
            } catch {
                let name = rules.count > 1 ? "rules[\(position)]" : "rule \(parsed.objectID)"
                throw SearchError(error.kind, "\(name): consequence.params: \(error.message)")
            }
            var stored = rule
            stored["objectID"] = .string(parsed.objectID)
            checked[parsed.objectID] = stored
        }
        let saved = checked
        return { (stored: [JSONObject]) throws(SearchError) -> [JSONObject] in
            let kept = clearExisting ? [] : stored.filter { rule in saved[rule["objectID"]?.scalarText ?? ""] == nil }
            guard kept.count + saved.count <= Rule.maxRules else {
                throw SearchError(.invalidParameter, "rules: an index holds at most \(Rule.maxRules) rules; this save would make \(kept.count + saved.count)")
            }
            return kept + saved.values
        }
    }

    /// Saves one rule (`PUT /1/indexes/{index}/rules/{objectID}`).
    public func saveRule(_ rule: JSONObject, forwardToReplicas: Bool = false) throws(SearchError) {
        try saveRules([rule], forwardToReplicas: forwardToReplicas)
    }

    /// Deletes a rule by objectID; `false` (nothing written) when there was none.
    @discardableResult
    public func deleteRule(_ objectID: String, forwardToReplicas: Bool = false) throws(SearchError) -> Bool {
        if forwardToReplicas { for replica in try replicaIndices() { try replica.deleteRule(objectID) } }
        guard try rule(objectID) != nil else { return false }
        try write(RecordStore.Change(updateRules: { stored in stored.filter { $0["objectID"]?.scalarText != objectID } }))
        return true
    }

    /// Removes every rule (`POST /1/indexes/{index}/rules/clear`).
    public func clearRules(forwardToReplicas: Bool = false) throws(SearchError) {
        try write(RecordStore.Change(updateRules: { _ in [] }))
        if forwardToReplicas { for replica in try replicaIndices() { try replica.clearRules() } }
    }

    /// Algolia's rules search (`POST /1/indexes/{index}/rules/search`): the rules whose objectID,
    /// description, patterns or contexts contain every word of the query (case-insensitive), with
    /// a condition of the given `anchoring` and `context` when set, enabled or not as `enabled`
    /// asks, a page of them in objectID order.
    public func searchRules(_ parameters: SearchRulesParams = SearchRulesParams()) throws(SearchError) -> RulesPage {
        try followCommittedWrites()
        let words = parameters.query.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        let matching = live.rules.stored.filter { stored in
            let rule = try? Rule(json: stored)
            if let anchoring = parameters.anchoring, rule?.conditions.contains(where: { $0.anchoring == anchoring }) != true { return false }
            if let context = parameters.context, rule?.conditions.contains(where: { $0.context == context }) != true { return false }
            if let enabled = parameters.enabled, (rule?.enabled ?? true) != enabled { return false }
            guard !words.isEmpty else { return true }
            let conditions = (stored["conditions"]?.arrayValue ?? []) + (stored["condition"].map { [$0] } ?? [])
            let texts = [stored["objectID"], stored["description"]] + conditions.flatMap { [$0["pattern"], $0["context"]] }
            let text = texts.compactMap { $0?.stringValue?.lowercased() }.joined(separator: " ")
            return words.allSatisfy { text.contains($0) }
        }
        let size = min(max(parameters.hitsPerPage, 1), 1000)
        let start = min(max(parameters.page, 0), Int(Int32.max)) * size
        let hits = start < matching.count ? Array(matching[start..<min(start + size, matching.count)]) : []
        return RulesPage(hits: hits, nbHits: matching.count, page: parameters.page, nbPages: (matching.count + size - 1) / size)
    }
}
