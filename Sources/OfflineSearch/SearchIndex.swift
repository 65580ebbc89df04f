import Foundation
import SearchAPI

/// One index: its records, settings and search. Searches run concurrently from any task or
/// thread; writes are serialized, and each is one transaction: a search sees the index
/// before or after a write, never half of it.
///
/// ```swift
/// let engine = try SearchEngine(directory: URL(fileURLWithPath: "data"))
/// let index = try engine.index("products")
/// try index.saveObjects([["objectID": "1", "name": "iPhone 15"]])
/// let response = try index.search(SearchParameters(query: "iph"))
/// ```
public final class SearchIndex: Sendable {
    public let name: String
    /// The in-memory index, kept current with the store below it: the one owner of the state
    /// searches read and of the write lock.
    let live: LiveIndex
    /// The records, settings and change log (SQLite).
    var store: RecordStore { live.store }

    /// Opens the other indices of the engine, for replicas (nil for an index on its own).
    let directory: IndexDirectory?
    /// Where the searches it answers are counted (the engine's analytics); nil records none.
    let analytics: SearchAnalytics?
    /// The primary's store when bringing this replica up to date after a primary's write
    /// failed: tried again before this index's next search (or the primary's next write).
    let pendingSync = LockedValue<RecordStore?>(nil)

    init(name: String, path: String, directory: IndexDirectory? = nil, readOnly: Bool = false,
         durability: SearchEngine.Durability = .processCrash, journal: RecordStore.Journal = .writeAheadLog,
         analytics: SearchAnalytics? = nil, searchCacheSize: Int? = nil, backgroundDerivationFrom: Int64 = LiveIndex.deriveInBackgroundFrom,
         beforeBackgroundDerivation: (@Sendable () -> Void)? = nil) throws(SearchError) {
        self.name = name
        self.directory = directory
        self.analytics = analytics
        live = try LiveIndex(store: try RecordStore(path: path, readOnly: readOnly, durability: durability, journal: journal),
                             cacheSize: searchCacheSize, backgroundFrom: backgroundDerivationFrom, beforeBackgroundDerivation: beforeBackgroundDerivation)
    }

    /// Whether writes fail (the index was opened read-only, or its folder cannot be written).
    public var isReadOnly: Bool { store.isReadOnly }

    /// Whether the search index is being built on a background thread: the index was opened
    /// without a valid derived index beside its database (see `SearchEngine`'s
    /// `answersWhileDeriving`). Meanwhile searches without filters are answered from the FTS5
    /// table (their `message` says so) and the others, and writes, wait for it.
    public var isBeingDerived: Bool { live.deriving.value }

    /// Follows writes committed by other processes (or other engines on the same folder): when
    /// the database's generation moved past the current state's, reads what the writes since
    /// changed (the change log). Costs one `PRAGMA data_version` when nothing changed.
    func followCommittedWrites() throws(SearchError) {
        if let primary = pendingSync.value { retrySync(from: primary) }
        try live.followCommittedWrites()
    }

    /// What a search of this index answers from: this index (another index made later under
    /// the same name differs) at the last write committed to it by any process (records,
    /// settings, synonyms and rules alike), and, for a replica, its primary likewise (whose
    /// settings say whether it is a virtual replica). Two searches with equal parameters and
    /// equal versions give the same answer, so a cache of answers can key on it (the server's
    /// response cache does). Nil while a replica waits to be brought up to date with its
    /// primary: its next search changes it. A replica whose primary does not exist is versioned
    /// as an index of its own (its searches read no primary).
    ///
    /// Read before the search it stands for: a write committed in between makes the version
    /// older than the answer, never newer (the search follows every write committed before it
    /// starts; its primary's too, as this does, when it can be read), so a cache only misses.
    /// Nil too while the index's search index is built in the background: an answer from the
    /// full-text table meanwhile is not to be kept.
    public func contentVersion() throws(SearchError) -> ContentVersion? {
        guard pendingSync.value == nil, !live.deriving.value else { return nil }
        var version = ContentVersion(indexID: store.indexID, generation: try store.committedGeneration())
        if let primaryName = live.state.configuration.settings.string("primary"), let primary = directory?.existing(primaryName) {
            guard primary.pendingSync.value == nil else { return nil }
            version.primaryID = primary.store.indexID
            // What the search reads of it: its settings as followed now (as a search does).
            try? primary.followCommittedWrites()
            version.primaryGeneration = primary.live.state.generation
        }
        return version
    }

    /// See `contentVersion()`.
    public struct ContentVersion: Hashable, Sendable {
        let indexID: String
        let generation: Int64
        var primaryID: String?
        var primaryGeneration: Int64?
    }

    /// The most records written since the index was last merged whole (the delta) before a
    /// merge folds it into a new base in the background. A search over a larger delta costs a
    /// little more (`Benchmarks/README.md`); a merge costs about the whole index's postings.
    public static var deltaLimit: Int {
        get { IndexState.deltaLimit }
        set { IndexState.deltaLimitSetting.value = max(1, newValue) }
    }

    /// The largest group of records tied on the criteria before proximity that the proximity
    /// criterion splits (8,000); a larger one keeps custom order. For measurements: `Int.max`
    /// splits every group (the benchmark's `OFFLINE_SEARCH_PROXIMITY_LIMIT`).
    public static var proximityGroupLimit: Int {
        get { RelevanceRanker.proximityGroupLimit }
        set { RelevanceRanker.proximityGroupLimitSetting.value = max(0, newValue) }
    }

    /// How many records the delta holds now (written since the index was last derived whole).
    public var deltaCount: Int {
        awaitDerivation()
        return live.state.deltaCount
    }

    /// Waits while the search index is built in the background, and derives it again if that
    /// failed (best effort: the next search reports why it cannot).
    private func awaitDerivation() {
        live.waitForDerivation()
        try? live.followCommittedWrites()
    }

    /// Waits until no merge runs (of the whole index, or of delta segments).
    public func waitForMerge() { live.waitForMerge() }

    /// Merges every segment into a new base now, folding the delta in (what a background
    /// merge does when the delta outgrows `deltaLimit`), and waits for it.
    public func merge() throws(SearchError) { try live.merge() }

    /// The number of records.
    public var recordCount: Int {
        awaitDerivation()
        return live.state.documentCount
    }

    /// This index as list-indices reports it (Algolia's `FetchedIndex`).
    public func fetchedIndex() throws(SearchError) -> FetchedIndex {
        let statistics = try store.statistics()
        let settings = self.settings
        return FetchedIndex(
            name: name, createdAt: statistics.createdAt, updatedAt: statistics.updatedAt, entries: recordCount,
            dataSize: statistics.dataSize, fileSize: statistics.fileSize, lastBuildTimeS: statistics.lastBuildTimeS,
            primary: settings.string("primary"),
            replicas: settings.stringList("replicas").flatMap { $0.isEmpty ? nil : $0 })
    }
}
