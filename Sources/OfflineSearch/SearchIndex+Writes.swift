import Foundation
import SearchAPI

// Deleting, clearing, settings and synonyms, and the one path every write goes through.
extension SearchIndex {
    /// Deletes records by objectID; unknown ids are ignored.
    public func deleteObjects(_ objectIDs: [String]) throws(SearchError) {
        try write(RecordStore.Change(deletions: objectIDs))
    }

    /// Removes every record; settings stay.
    public func clearObjects() throws(SearchError) {
        try write(RecordStore.Change(clearFirst: true))
    }

    /// The settings as set (Algolia names, unimplemented ones kept).
    public var settings: IndexSettings { live.state.configuration.settings }

    /// Applies a partial settings object (`null` resets a setting). Changing searchable,
    /// faceting or ranking settings re-derives the index in the same transaction.
    ///
    /// `replicas` (`name` or `virtual(name)`) creates the replicas that do not exist yet, with
    /// this index's settings (and `primary`), fills them with this index's records, and from then
    /// on every write here is applied to them too. A replica keeps its own settings, typically a
    /// `ranking` led by `asc(price)` or `desc(price)` (a sort).
    ///
    /// The patch is applied to the settings stored when the write transaction starts, under
    /// the database's write lock: concurrent changes from other processes are kept.
    public func setSettings(_ patch: JSONObject) throws(SearchError) {
        // A change of `replicas` claims other indices: checked and written as one of the engine's
        // operations on whole indices, so that two primaries cannot both claim one replica.
        guard patch["replicas"] != nil, let directory else {
            try checkReplicaList(patch)
            return try write(RecordStore.Change(updateSettings: settingsUpdate(patch)))
        }
        try directory.withIndicesHeld { () throws(SearchError) in
            try checkReplicaList(patch)
            try write(RecordStore.Change(updateSettings: settingsUpdate(patch)))
        }
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

    /// The stored settings with `patch` applied, checked; for `RecordStore.Change`.
    func settingsUpdate(_ patch: JSONObject) -> @Sendable (IndexSettings) throws(SearchError) -> IndexSettings {
        let name = self.name
        return { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
            let settings = try stored.applying(patch)
            let configuration = try IndexConfiguration(settings: settings)
            if configuration.replicas.contains(name) {
                throw SearchError(.invalidParameter, "replicas: an index cannot be its own replica (\(name))")
            }
            // Settings that would make every search fail are rejected now, not at the next search:
            // an empty search reads every setting a search parameter can also set.
            _ = try SearchRequest(SearchParameters(), configuration: configuration)
            return settings
        }
    }

    /// Adds synonyms (Algolia's synonym objects — `{"objectID", "type": "synonym", "synonyms"}`,
    /// `{"objectID", "type": "oneWaySynonym", "input", "synonyms"}` — or plain groups of words),
    /// replacing those with the same `objectID`; with `replaceExisting`, all others are removed.
    /// They are kept in the `synonyms` setting.
    ///
    /// ```swift
    /// try index.saveSynonyms([["objectID": "tv", "type": "synonym", "synonyms": ["tv", "television"]]])
    /// ```
    public func saveSynonyms(_ synonyms: [JSONValue], replaceExisting: Bool = false) throws(SearchError) {
        let patch = settingsUpdate([:])
        // Merged with the synonyms stored when the write starts (another process's are kept).
        try write(RecordStore.Change(updateSettings: { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
            var kept: [JSONValue] = replaceExisting ? [] : (stored.values["synonyms"]?.arrayValue ?? [])
            for synonym in synonyms {
                if let id = synonym["objectID"] { kept.removeAll { $0["objectID"] == id } }
                kept.append(synonym)
            }
            return try patch(try stored.applying(["synonyms": .array(kept)]))
        }))
    }

    /// Applies a change under the write lock; then the replicas follow (`updateReplicas`).
    func write(_ change: RecordStore.Change) throws(SearchError) {
        if change.writesRecords { try refuseRecordWritesOnReplica() }
        let listedBefore = Set(live.state.configuration.replicas)
        do {
            try lockForWriting()
            defer { live.writeLock.unlock() }
            try writeLocked(change)
        }
        detachReplicas(listedBefore.subtracting(live.state.configuration.replicas))
        updateReplicas()
    }

    /// Takes the write lock for a write; the caller unlocks it. Fails, without the lock, when the
    /// engine deleted this index (`SearchEngine.deleteIndex`, or the source of a move) before
    /// the write could take it: its file is gone, so the write would be lost. The engine's
    /// `write(to:)` then writes to the index made anew under the name.
    func lockForWriting() throws(SearchError) {
        live.writeLock.lock()
        guard live.retired.value else { return }
        live.writeLock.unlock()
        throw SearchError(.indexNotFound, "Index \(name) was deleted while this write waited for it; "
                          + "get it from the engine again (a write makes it anew)")
    }

    /// Indices dropped from `replicas` become regular indices, as with Algolia: their records
    /// stay, their `primary` setting and their mark of this index go (listed again, they are
    /// overwritten whole).
    func detachReplicas(_ names: Set<String>) {
        guard let directory, !isReadOnly else { return }
        for name in names.sorted() {
            guard let replica = directory.existing(name), replica.settings.string("primary") == self.name else { continue }
            var detach = RecordStore.Change(updateSettings: { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
                try stored.applying(["primary": .null])
            })
            detach.forgetsPrimaryMark = true
            // Best effort, as `updateReplicas`: this index's write is committed. A replica left
            // attached keeps `primary`, but no longer listed, it is a regular index (`primaryName`).
            try? replica.write(detach)
        }
    }

    /// A read-modify-write that no other process's write can slip into: `compute` reads the
    /// stored state and returns the change; it is written only if nothing was committed since
    /// the generation it read from, else computed again (a few times, then an error).
    func writeReadModified(_ compute: () throws(SearchError) -> RecordStore.Change) throws(SearchError) {
        try refuseRecordWritesOnReplica()
        let listedBefore = Set(live.state.configuration.replicas)
        var applied = false
        do {
            try lockForWriting()
            defer { live.writeLock.unlock() }
            for _ in 0..<5 {
                let generation = try store.committedGeneration()
                var change = try compute()
                change.expectedGeneration = generation
                if try live.writeIfCurrent(change) {
                    applied = true
                    break
                }
            }
        }
        guard applied else {
            throw SearchError(.internalError, "Index \(name) kept changing during the update; try again")
        }
        detachReplicas(listedBefore.subtracting(live.state.configuration.replicas))
        updateReplicas()
    }

    /// Applies a change; the caller holds the write lock.
    func writeLocked(_ change: RecordStore.Change) throws(SearchError) {
        try live.write(change)
    }

    /// Deletes every record that matches the filters (Algolia's `deleteBy`): `filters`,
    /// `facetFilters`, `numericFilters` and `tagFilters`, combined by AND. At least one filter
    /// is required (deleting everything is `clearObjects()`), and no query.
    /// - Returns: how many records were deleted.
    @discardableResult
    public func deleteBy(_ parameters: SearchParameters) throws(SearchError) -> Int {
        guard parameters.query.isEmpty else {
            throw SearchError(.invalidParameter, "query: deleteBy deletes by filters only; remove the query")
        }
        try refuseRecordWritesOnReplica()
        let deleted = try deleteMatching(parameters)
        if deleted > 0 { updateReplicas() }
        return deleted
    }

    func deleteMatching(_ parameters: SearchParameters) throws(SearchError) -> Int {
        try lockForWriting()
        defer { live.writeLock.unlock() }
        // The rowids come from the current snapshot; the write checks, under the database's
        // write lock, that no other process committed since (else it catches up and retries).
        for _ in 0..<5 {
            try live.followCommittedWritesLocked()
            let state = live.state
            var request = try SearchRequest(parameters, configuration: state.configuration)
            guard request.filter != nil || request.geo != nil else {
                throw SearchError(.invalidParameter,
                                  "deleteBy: expected filters, facetFilters, numericFilters, tagFilters or a geo area (aroundLatLng, insideBoundingBox, insidePolygon); to delete every record, clear the index")
            }
            // Filters and the geo area, as a search without words selects them.
            let context = StateContext(state: state)
            request.geo = context.resolved(request.geo)
            var rowIDs: [Int64] = []
            for (segment, segmentContext) in zip(state.segments, context.segments) {
                var documents = DocumentSet(capacity: segment.snapshot.documentCount, full: true)
                if let filter = request.filter { documents.formIntersection(segmentContext.filters.documents(matching: filter)) }
                if let geo = request.geo { documents.formIntersection(segmentContext.documents(matching: geo)) }
                if let live = segment.live { documents.formIntersection(live) }
                documents.forEach { document in
                    rowIDs.append(segment.snapshot.rowIDs[document])
                    return true
                }
            }
            guard !rowIDs.isEmpty else { return 0 }
            if try live.writeIfCurrent(RecordStore.Change(deletedRowIDs: rowIDs, expectedGeneration: state.generation)) {
                return rowIDs.count
            }
        }
        throw SearchError(.internalError, "Index \(name) kept changing during deleteBy; try again")
    }
}
