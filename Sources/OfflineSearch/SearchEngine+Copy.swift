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
        wholeIndexLock.lock()
        defer { wholeIndexLock.unlock() }
        try copyLocked(source, to: destination, scope: scope)
    }

    /// Moves an index (Algolia's `operation: move`): the source replaces the destination
    /// (records, settings, synonyms and rules) and is deleted. With a `scope`, it is a copy of those
    /// parts, as with Algolia, and the source stays. A write to the source that lands while it
    /// is copied makes it copied again: the source is deleted only as it was copied.
    public func moveIndex(_ source: String, to destination: String, scope: Set<IndexCopyScope>? = nil) throws(SearchError) {
        guard scope == nil else { return try copyIndex(source, to: destination, scope: scope) }
        guard source != destination else {
            throw SearchError(.invalidParameter, "destination: must differ from the source index \(source)")
        }
        wholeIndexLock.lock()
        defer { wholeIndexLock.unlock() }
        for _ in 0..<5 {
            let (from, copied) = try copyLocked(source, to: destination, scope: nil)
            // The source's write lock is not held while the destination is written (that write
            // may bring the source up to date as its replica): checked again here instead.
            from.live.writeLock.lock()
            defer { from.live.writeLock.unlock() }
            if try from.store.committedGeneration() == copied, removeIndex(source, retiring: from) { return }
        }
        throw SearchError(.internalError, "Index \(source) kept changing while it was moved to \(destination); try again")
    }

    /// The copy, under `wholeIndexLock`: the source read under its write lock (records,
    /// settings and rules of one state), then the destination written.
    /// - Returns: the source, and the generation it was copied at.
    @discardableResult
    private func copyLocked(_ source: String, to destination: String,
                            scope: Set<IndexCopyScope>?) throws(SearchError) -> (source: SearchIndex, generation: Int64) {
        let from = try existingIndex(source)
        let to = try index(destination)
        let (generation, records, settings, rules) = try from.contents(recordsToo: scope == nil)
        var sourceSettings = settings.values
        sourceSettings["replicas"] = nil
        sourceSettings["primary"] = nil
        guard let scope else {
            try to.replaceContents(records: records, settings: sourceSettings, rules: rules)
            return (from, generation)
        }
        var copied = scope.contains(.settings) ? sourceSettings : to.settings.values
        copied["synonyms"] = scope.contains(.synonyms) ? settings.values["synonyms"] : to.settings.values["synonyms"]
        try to.replaceContents(records: nil, settings: copied, rules: scope.contains(.rules) ? rules : nil)
        return (from, generation)
    }
}

extension SearchIndex {
    /// The records (when asked), settings and rules of one committed state, read under the
    /// write lock, with its generation.
    func contents(recordsToo: Bool) throws(SearchError) -> (generation: Int64, records: [JSONObject], settings: IndexSettings, rules: [JSONObject]) {
        try lockForWriting()
        defer { live.writeLock.unlock() }
        try live.followCommittedWritesLocked()
        let generation = try store.committedGeneration()
        let records = recordsToo ? try store.allRecords().map(\.record) : []
        return (generation, records, settings, rules)
    }

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
