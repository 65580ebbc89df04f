import Foundation
import SearchAPI

// Replicas: a primary's writes followed by its replicas, from its change log.
extension SearchIndex {
    // MARK: Replicas

    /// This index's replicas, opened.
    func replicaIndices() throws(SearchError) -> [SearchIndex] {
        guard let directory else { return [] }
        var replicas: [SearchIndex] = []
        for name in live.state.configuration.replicas where name != self.name { replicas.append(try directory.open(name)) }
        return replicas
    }

    /// Brings each replica up to date with this index, after a write here: each reads what it
    /// lacks from this index's change log and applies it in one transaction of its own, with
    /// the mark of the state it now holds (`sync(from:)`). A replica not set up yet (newly listed, or
    /// its `primary` is not this index: a kill came between this index's settings and its own,
    /// or it was deleted and is made again) gets this index's settings when it has none, and
    /// `primary`; having no mark of this index, it then gets every record, replacing its own (as
    /// Algolia overwrites an existing index named a replica).
    ///
    /// The replicas are databases of their own, so their transactions are not the primary's
    /// (SQLite commits atomically per file). What a process killed in between leaves undone is
    /// done when the replica is next opened, or at the primary's next write: the mark says what
    /// the replica holds, the change log what it lacks, so nothing committed is lost. For the same
    /// reason a replica that cannot be brought up to date now (locked by another process past the
    /// busy timeout, say) does not fail the write, which is committed: it is left to those.
    func updateReplicas() {
        guard let directory, !isReadOnly else { return }
        for name in live.state.configuration.replicas where name != self.name {
            do {
                let replica = try directory.open(name)
                try replica.followCommittedWrites()
                let replicaSettings = replica.settings
                if replicaSettings.string("primary") != self.name {
                    if replicaSettings.values.isEmpty {
                        var initial = settings.values
                        initial["replicas"] = nil
                        initial["primary"] = .string(self.name)
                        try replica.setSettings(initial)
                    } else {
                        try replica.setSettings(["primary": .string(self.name)])
                    }
                }
                try replica.sync(from: store)
            } catch {
                // Committed here: the replica tries again before its next search, and at this
                // index's next write.
                directory.existing(name)?.pendingSync.value = store
                continue
            }
        }
    }

    /// Applies what `primary` changed since the state this index holds as its replica (its
    /// mark), in one transaction that also records the state now held: the records written and
    /// deleted since, or every record, replacing these, when it holds no mark of `primary`'s
    /// (a mark is only written here, and any other write of records removes it). The
    /// transaction checks the mark is still the one read: another process doing the same
    /// meanwhile makes it read again.
    func sync(from primary: RecordStore) throws(SearchError) {
        live.writeLock.lock()
        defer { live.writeLock.unlock() }
        pendingSync.value = nil
        // Deleted meanwhile: the replica made anew under the name (if any) is another index.
        if live.retired.value { return }
        for _ in 0..<5 {
            let held = try store.primaryMark()
            // Written inside the primary's read transaction: a large change is read from the
            // primary a batch at a time as it is written here.
            let applied = try primary.withChangeForReplica(holding: held, streamingBeyond: IndexState.deltaLimit) { change, mark throws(SearchError) -> Bool in
                var synced = change
                synced.markUpdate = RecordStore.Change.MarkUpdate(expected: held, new: mark)
                guard try live.writeIfCurrent(synced) else { return false }
                return true
            }
            if applied != false { return }   // nil: already up to date
        }
        throw SearchError(.internalError, "Replica \(name) kept changing while it was brought up to date; try again")
    }

    /// A catching up that failed after a primary's write, tried again (best effort: a search
    /// answers with what the replica holds, and it stays pending when this fails too).
    func retrySync(from primary: RecordStore) {
        // A primary deleted (or made again) meanwhile is not followed: its next write, if any,
        // brings this replica up to date.
        guard primary.isStillAtPath else {
            pendingSync.value = nil
            return
        }
        do { try sync(from: primary) } catch { pendingSync.value = primary }
    }

    /// Brings this index up to date with `primary` (the store of the index its `primary` setting
    /// names) when that index lists it (what a process killed between the two commits left
    /// undone); when the engine opens it (`SearchEngine.catchUpWithPrimary`).
    func catchUpWithPrimary(_ primary: RecordStore) throws(SearchError) {
        guard try IndexConfiguration(settings: try primary.settings()).replicas.contains(name) else { return }
        try sync(from: primary)
    }

    /// The primary this index is a replica of: the index its `primary` setting names, when that
    /// index lists it in its `replicas` (a primary deleted, or one that dropped it from its list,
    /// leaves a regular index).
    func primaryName() -> String? {
        guard let directory, let primaryName = settings.string("primary"), primaryName != name,
              let primary = directory.existing(primaryName), primary.live.state.configuration.replicas.contains(name)
        else { return nil }
        return primaryName
    }

    /// Records are written to a primary, never to its replicas (Algolia answers 400 "cannot apply
    /// the batch operation on a replica index"): they would differ from the primary's.
    func refuseRecordWritesOnReplica() throws(SearchError) {
        guard let primary = primaryName() else { return }
        throw SearchError(.invalidParameter, "Cannot write records to \(name): it is a replica of \(primary), and a replica takes its "
            + "records from its primary only (Algolia: cannot apply the batch operation on a replica index). Write to \(primary); "
            + "its replicas follow")
    }

    /// Algolia's rules for `replicas`: a replica has one primary, a replica has no replicas, and
    /// a primary is no replica.
    func checkReplicaList(_ patch: JSONObject) throws(SearchError) {
        guard let directory, let list = patch["replicas"], !list.isNull else { return }
        let names = try IndexConfiguration(settings: IndexSettings(stored: ["replicas": list])).replicas
        guard !names.isEmpty else { return }
        if let primary = primaryName() {
            throw SearchError(.invalidParameter, "replicas: \(name) is a replica of \(primary), and a replica cannot have replicas")
        }
        for replicaName in names where replicaName != name {
            guard let replica = directory.existing(replicaName) else { continue }
            if let other = replica.primaryName(), other != name {
                throw SearchError(.invalidParameter, "replicas: \(replicaName) is already a replica of \(other); remove it from the replicas of \(other) first")
            }
            if !replica.live.state.configuration.replicas.isEmpty {
                throw SearchError(.invalidParameter, "replicas: \(replicaName) has replicas of its own, and a primary cannot be a replica")
            }
        }
    }
}
