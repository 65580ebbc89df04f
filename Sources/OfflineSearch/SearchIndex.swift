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
    let store: IndexStore
    let current: LockedValue<IndexState>
    /// Serializes this index's writes, and lets a reader wait for a write in flight: the one
    /// lock of ours in the engine's write path (the store relies on it; SQLite's
    /// own lock orders the writes of other processes).
    let writeLock = NSLock()
    /// Whether a merge of the delta into a new base runs in the background.
    let merging = LockedValue(false)
    /// Whether delta segments are being merged in the background.
    let mergingSegments = LockedValue(false)

    /// Opens the other indices of the engine, for replicas (nil for an index on its own).
    let directory: IndexDirectory?
    /// The primary's store when bringing this replica up to date after a primary's write
    /// failed: tried again before this index's next search (or the primary's next write).
    let pendingMirror = LockedValue<IndexStore?>(nil)

    init(name: String, path: String, directory: IndexDirectory? = nil, readOnly: Bool = false,
         durability: SearchEngine.Durability = .processCrash, journal: IndexStore.Journal = .writeAheadLog) throws(SearchError) {
        self.name = name
        self.directory = directory
        store = try IndexStore(path: path, readOnly: readOnly, durability: durability, journal: journal)
        current = LockedValue(try store.currentState())
    }

    /// Whether writes fail (the index was opened read-only, or its folder cannot be written).
    public var isReadOnly: Bool { store.isReadOnly }

    /// Follows writes committed by other processes (or other engines on the same folder): when
    /// the database's generation moved past the current state's, reads what the writes since
    /// changed (the change log). Costs one `PRAGMA data_version` when nothing changed.
    func followCommittedWrites() throws(SearchError) {
        if let primary = pendingMirror.value { retryMirror(from: primary) }
        guard try store.committedGeneration() != current.value.generation else { return }
        writeLock.lock()
        defer { writeLock.unlock() }
        try followCommittedWritesLocked()
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
    public func contentVersion() throws(SearchError) -> ContentVersion? {
        guard pendingMirror.value == nil else { return nil }
        var version = ContentVersion(indexID: store.indexID, generation: try store.committedGeneration())
        if let primaryName = current.value.configuration.settings.string("primary"), let primary = directory?.existing(primaryName) {
            guard primary.pendingMirror.value == nil else { return nil }
            version.primaryID = primary.store.indexID
            // What the search reads of it: its settings as followed now (as a search does).
            try? primary.followCommittedWrites()
            version.primaryGeneration = primary.current.value.generation
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

    /// `followCommittedWrites`, the caller holding `writeLock` (a write of this process in
    /// flight has then been published).
    func followCommittedWritesLocked() throws(SearchError) {
        guard try store.committedGeneration() != current.value.generation else { return }
        current.value = try store.catchUp(current.value)
        mergeIfNeeded()
        mergeSegmentsIfNeeded()
    }

    /// Applies a committed write to the in-memory index; the caller holds `writeLock`. The write
    /// is committed whatever happens here, so it is never reported as failed: should catching
    /// up fail (reading the change log or deriving the index), the in-memory index stays as it
    /// was and the next search catches up (`followCommittedWrites`), or reports why it cannot.
    func publish(_ written: IndexStore.Written) {
        switch written {
        case .rebuilt(let snapshot):
            current.value = IndexState(base: snapshot)
        case .logged(_, let written):
            guard let state = try? store.catchUp(current.value, written: written) else { return }
            current.value = state
        }
        mergeIfNeeded()
        mergeSegmentsIfNeeded()
    }

    /// Merges delta segments two by two on a background thread while some are to be merged
    /// (`IndexState.mergeablePair`): a write returns once its own segment is in, and searches
    /// go on meanwhile. Each merged pair replaces its two segments under the write lock, less
    /// the documents writes removed from them meanwhile. Not while the whole index is being
    /// merged (that merge replaces the segments).
    func mergeSegmentsIfNeeded() {
        guard !merging.value, current.value.mergeablePair != nil, mergingSegments.modify({ running in
            defer { running = true }
            return !running
        }) else { return }
        Thread.detachNewThread { [self] in
            while true {
                // The flag goes down only once nothing is left to merge, so `waitForMerge` never
                // returns while a pair waits, and a write published meanwhile starts a thread.
                let finished = mergingSegments.modify { running -> Bool in
                    guard merging.value || current.value.mergeablePair == nil else { return false }
                    running = false
                    return true
                }
                if finished { return }
                guard let (pair, configuration, generation) = nextPairToMerge() else { continue }
                let merged = IndexState.Segment(merging: [pair.older, pair.newer], configuration: configuration, generation: generation)
                writeLock.lock()
                if let replaced = current.value.replacing([pair.older, pair.newer], with: merged) { current.value = replaced }
                writeLock.unlock()
            }
        }
    }

    /// The current state's next pair of segments to merge, with what their merge needs: only
    /// those are held while they are merged (not the state, nor its base, which a merge of the
    /// whole index may replace meanwhile).
    func nextPairToMerge() -> (pair: (older: IndexState.Segment, newer: IndexState.Segment), configuration: IndexConfiguration,
                                       generation: Int64)? {
        let state = current.value
        guard let position = state.mergeablePair else { return nil }
        return ((older: state.segments[position], newer: state.segments[position + 1]), state.configuration, state.generation)
    }

    /// Starts a merge when the delta has grown past `IndexState.deltaLimit`: every segment is
    /// merged into a new base on a background thread (searches and writes go on meanwhile), its
    /// file stored, and it becomes the current state's base (`installMerged`); another starts
    /// at once if the writes meanwhile took the delta past the limit again.
    func mergeIfNeeded() {
        guard current.value.needsMerge, merging.modify({ running in
            defer { running = true }
            return !running
        }) else { return }
        Thread.detachNewThread { [self] in
            installMerged()
            merging.value = false
            // What the writes meanwhile left to merge.
            mergeSegmentsIfNeeded()
            mergeIfNeeded()
        }
    }

    /// Merges every segment into a new base and makes it the current state's base: the
    /// segments written meanwhile stay as they are, and what writes removed from the merged ones
    /// meanwhile is removed from it (nothing is read again: `IndexState.replacingBase`). Dropped
    /// when a write derived the index whole meanwhile (the current state is newer).
    func installMerged() {
        let before = current.value
        // From the segments' snapshots (`SegmentMerger`): no record read or tokenized again.
        let base = IndexState.Segment(merging: before.segments, configuration: before.configuration, generation: before.generation).snapshot
        guard current.value.segments[0].snapshot === before.segments[0].snapshot else { return }
        let (stored, isStored) = store.storeMerged(base)
        let merged = IndexState.Segment(snapshot: stored)
        // Off the lock: removing what writes removed meanwhile, and later writes, need it.
        merged.prepareRowIndex()
        writeLock.lock()
        defer { writeLock.unlock() }
        if isStored, !store.isReadOnly {
            // The change log before the file, as a writer (writes may have run meanwhile).
            store.claimWriter()
            store.pruneLogs(upTo: base.generation, configuration: base.configuration)
            store.releaseWriter()
        }
        if let replaced = current.value.replacingBase(before.segments, with: merged) { current.value = replaced }
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
    public var deltaCount: Int { current.value.deltaCount }

    /// Waits until no merge runs (of the whole index, or of delta segments).
    public func waitForMerge() {
        while merging.value || mergingSegments.value { Thread.sleep(forTimeInterval: 0.005) }
    }

    /// Merges every segment into a new base now, folding the delta in (what a background
    /// merge does when the delta outgrows `deltaLimit`), and waits for it.
    public func merge() throws(SearchError) {
        // One merge of the whole index at a time: this one takes the background merge's turn.
        while true {
            waitForMerge()
            if merging.modify({ running in defer { running = true }; return !running }) { break }
        }
        installMerged()
        merging.value = false
        mergeSegmentsIfNeeded()
    }

    /// The number of records.
    public var recordCount: Int { current.value.documentCount }

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
