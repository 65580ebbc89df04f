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
}
