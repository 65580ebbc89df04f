import SearchAPI

extension SearchIndex {
    /// The synonym objects kept in the `synonyms` setting (plain groups of words have no
    /// objectID and are left out).
    public var synonyms: [JSONObject] {
        (settings.values["synonyms"]?.arrayValue ?? []).compactMap { synonym in
            synonym.objectValue.flatMap { $0["objectID"] == nil ? nil : $0 }
        }
    }

    /// The synonym with this objectID (Algolia's `GET /1/indexes/{index}/synonyms/{objectID}`), or nil.
    public func synonym(_ objectID: String) -> JSONObject? {
        synonyms.first { $0["objectID"]?.stringValue == objectID }
    }

    /// Deletes a synonym by objectID; `false` when there was none.
    @discardableResult
    public func deleteSynonym(_ objectID: String, forwardToReplicas: Bool = false) throws(SearchError) -> Bool {
        try followCommittedWrites()
        let existed = settings.values["synonyms"]?.arrayValue?.contains { $0["objectID"]?.stringValue == objectID } ?? false
        if forwardToReplicas { for replica in try replicaIndices() { try replica.deleteSynonym(objectID) } }
        guard existed else { return false }
        // Removed from the synonyms stored when the write starts (another process's are kept).
        try write(RecordStore.Change(updateSettings: { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
            let kept = (stored.values["synonyms"]?.arrayValue ?? []).filter { $0["objectID"]?.stringValue != objectID }
            return try stored.applying(["synonyms": .array(kept)])
        }))
        return true
    }

    /// Removes every synonym.
    public func clearSynonyms(forwardToReplicas: Bool = false) throws(SearchError) {
        try setSettings(["synonyms": .null])
        if forwardToReplicas { for replica in try replicaIndices() { try replica.clearSynonyms() } }
    }

    /// `saveSynonyms(_:replaceExisting:)`, on this index's replicas too when `forwardToReplicas`.
    public func saveSynonyms(_ synonyms: [JSONValue], replaceExisting: Bool = false, forwardToReplicas: Bool) throws(SearchError) {
        try saveSynonyms(synonyms, replaceExisting: replaceExisting)
        if forwardToReplicas {
            for replica in try replicaIndices() { try replica.saveSynonyms(synonyms, replaceExisting: replaceExisting) }
        }
    }

    /// Algolia's synonym search (`POST /1/indexes/{index}/synonyms/search`): the synonyms whose
    /// objectID or words contain every word of `query` (case-insensitive), of the given `types`
    /// when any, a page of them in objectID order.
    /// - Returns: the page and how many matched in all.
    public func searchSynonyms(query: String = "", types: [String] = [], page: Int = 0,
                               hitsPerPage: Int = 100) -> (hits: [JSONObject], nbHits: Int) {
        let words = query.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        let matching = synonyms.filter { synonym in
            if !types.isEmpty, !types.contains(synonym["type"]?.stringValue ?? "synonym") { return false }
            let text = JSONValue.object(synonym).jsonString.lowercased()
            return words.allSatisfy { text.contains($0) }
        }.sorted { ($0["objectID"]?.scalarText ?? "") < ($1["objectID"]?.scalarText ?? "") }
        let size = max(hitsPerPage, 1)
        let start = max(page, 0) * size
        let hits = start < matching.count ? Array(matching[start..<min(start + size, matching.count)]) : []
        return (hits, matching.count)
    }

    /// `setSettings(_:)`, and the same patch on each replica when `forwardToReplicas` (without
    /// `replicas`, which only a primary has).
    public func setSettings(_ patch: JSONObject, forwardToReplicas: Bool) throws(SearchError) {
        try setSettings(patch)
        guard forwardToReplicas else { return }
        var forwarded = patch
        forwarded["replicas"] = nil
        forwarded["primary"] = nil
        guard !forwarded.isEmpty else { return }
        for replica in try replicaIndices() { try replica.setSettings(forwarded) }
    }

    /// Replaces this index's records and settings with the given ones in one transaction
    /// (copy and move); its own `replicas` and `primary` stay.
    func replaceContents(records: [JSONObject]?, settings newSettings: JSONObject) throws(SearchError) {
        // Its own replicas and primary as stored when the write starts.
        try write(RecordStore.Change(clearFirst: records != nil, upserts: records ?? [],
                                    updateSettings: { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
            var values = newSettings
            values["replicas"] = stored.values["replicas"]
            values["primary"] = stored.values["primary"]
            let replaced = IndexSettings(stored: values)
            _ = try IndexConfiguration(settings: replaced)
            return replaced
        }))
    }
}

/// What a copy or move takes from the source (Algolia's `scope`; without one, everything).
public enum IndexCopyScope: String, Sendable, Hashable, CaseIterable {
    case settings, synonyms, rules
}

extension SearchEngine {
    /// Copies an index (Algolia's `operation: copy`): without `scope`, its records, settings and
    /// synonyms replace the destination's; with a scope, only those parts are copied and the
    /// destination keeps its records. `rules` has nothing to copy (the engine has no rules).
    /// The destination's records and settings change in one transaction.
    ///
    /// ```swift
    /// try engine.copyIndex("products", to: "products_tmp", scope: [.settings, .synonyms])
    /// ```
    public func copyIndex(_ source: String, to destination: String, scope: Set<IndexCopyScope>? = nil) throws(SearchError) {
        guard source != destination else {
            throw SearchError(.invalidParameter, "destination: must differ from the source index \(source)")
        }
        let from = try existingIndex(source)
        let to = try index(destination)
        var sourceSettings = from.settings.values
        sourceSettings["replicas"] = nil
        sourceSettings["primary"] = nil
        guard let scope else {
            let records = try from.store.allRecords().map(\.record)
            try to.replaceContents(records: records, settings: sourceSettings)
            return
        }
        var settings = scope.contains(.settings) ? sourceSettings : to.settings.values
        settings["synonyms"] = scope.contains(.synonyms) ? from.settings.values["synonyms"] : to.settings.values["synonyms"]
        try to.replaceContents(records: nil, settings: settings)
    }

    /// Moves an index (Algolia's `operation: move`): the source replaces the destination
    /// (records, settings and synonyms) and is deleted. With a `scope`, it is a copy of those
    /// parts, as with Algolia, and the source stays.
    public func moveIndex(_ source: String, to destination: String, scope: Set<IndexCopyScope>? = nil) throws(SearchError) {
        try copyIndex(source, to: destination, scope: scope)
        if scope == nil { try deleteIndex(source) }
    }
}
