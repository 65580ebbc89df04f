import SearchAPI

// Copying and moving an index by name (Algolia's `operation: copy` and `move`, with `scope`),
// and the one write that replaces the destination's records, settings and rules.

/// What a copy or move takes from the source (Algolia's `scope`; without one, everything).
public enum IndexCopyScope: String, Sendable, Hashable, CaseIterable {
    case settings, synonyms, rules
}

extension SearchEngine {
    /// Copies an index (Algolia's `operation: copy`): without `scope`, its records, settings,
    /// synonyms and rules replace the destination's; with a scope, only those parts are copied
    /// (each replacing the destination's whole) and the destination keeps its records. The
    /// destination changes in one transaction.
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
            try to.replaceContents(records: records, settings: sourceSettings, rules: from.rules)
            return
        }
        var settings = scope.contains(.settings) ? sourceSettings : to.settings.values
        settings["synonyms"] = scope.contains(.synonyms) ? from.settings.values["synonyms"] : to.settings.values["synonyms"]
        try to.replaceContents(records: nil, settings: settings, rules: scope.contains(.rules) ? from.rules : nil)
    }

    /// Moves an index (Algolia's `operation: move`): the source replaces the destination
    /// (records, settings, synonyms and rules) and is deleted. With a `scope`, it is a copy of those
    /// parts, as with Algolia, and the source stays.
    public func moveIndex(_ source: String, to destination: String, scope: Set<IndexCopyScope>? = nil) throws(SearchError) {
        try copyIndex(source, to: destination, scope: scope)
        if scope == nil { try deleteIndex(source) }
    }
}

extension SearchIndex {
    /// Replaces this index's records, settings and (when given) rules with the given ones in one
    /// transaction (copy and move); its own `replicas` and `primary` stay.
    func replaceContents(records: [JSONObject]?, settings newSettings: JSONObject, rules: [JSONObject]? = nil) throws(SearchError) {
        // Its own replicas and primary as stored when the write starts.
        try write(RecordStore.Change(clearFirst: records != nil, upserts: records ?? [],
                                    updateSettings: { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
            var values = newSettings
            values["replicas"] = stored.values["replicas"]
            values["primary"] = stored.values["primary"]
            let replaced = IndexSettings(stored: values)
            _ = try IndexConfiguration(settings: replaced)
            return replaced
        }, updateRules: rules.map { rules in { @Sendable _ in rules } }))
    }
}
