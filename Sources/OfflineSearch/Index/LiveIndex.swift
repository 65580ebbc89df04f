import Foundation
import SearchAPI

/// The in-memory index of one stored index, kept current: the one owner of the state searches
/// read. It holds the one lock of ours on the write path (`writeLock`), derives segments from
/// each committed write (`write`, from the write's own tokenization: nothing it wrote is read
/// back), merges them in the background, loads and stores the derived file (`DerivedIndex`),
/// and follows the writes other processes commit. The store below it (`RecordStore`) is SQLite
/// only; the façade above it (`SearchIndex`) adds names, replicas and the public API.
final class LiveIndex: Sendable {
    let store: RecordStore
    private let current: CurrentState
    /// Serializes this index's writes, and lets a reader wait for a write in flight: the one
    /// lock of ours in the engine's write path (the store relies on it; SQLite's own lock
    /// orders the writes of other processes).
    let writeLock = NSLock()
    /// Whether the engine deleted this index (`SearchEngine.deleteIndex`, set under
    /// `writeLock`): a write that took the lock after it fails (`SearchIndex.lockForWriting`),
    /// and a merge stores nothing.
    let retired = LockedValue(false)
    /// The rules as committed, with the generation that last changed them.
    let ruleBook: LockedValue<RuleBook>
    /// Whether a merge of the delta into a new base runs in the background.
    private let merging = LockedValue(false)
    /// Whether delta segments are being merged in the background.
    private let mergingSegments = LockedValue(false)

    /// Whether the derived index is being built on a background thread, the index having been
    /// opened without a valid derived file (a first open after an upgrade, a lost or damaged
    /// file): the state is then an empty one of the stored settings, the derivation holds
    /// `writeLock`, and searches are answered from the FTS5 table meanwhile
    /// (`SearchIndex.searchFromTextTable`) or wait for it (`waitForDerivation`).
    let deriving = LockedValue(false)
    /// Why the background derivation failed: the next search or write derives again, under
    /// `writeLock`, and throws why when it fails again (`deriveIfFailedLocked`).
    private let derivationFailure = LockedValue<SearchError?>(nil)

    /// From this many records (the largest rowid) on, an index opened without a valid derived
    /// file derives it on a background thread: about 1 s at 50,000 products, 13–20 s at a
    /// million, during which searches are answered from FTS5 rather than wait. Smaller ones
    /// derive at once (in milliseconds).
    static let deriveInBackgroundFrom: Int64 = 50_000

    /// Loads the index of `store` as committed now (`DerivedIndex.currentState`): from its
    /// derived file when it is valid; else derived from the records, at once, or from
    /// `backgroundFrom` records on a background thread (`deriving`), which first calls
    /// `beforeBackgroundDerivation` (tests hold it there).
    ///
    /// `cacheSize` bounds the bytes each state's search caches hold together (nil: each cache by
    /// its snapshot's size; see `SearchEngine.searchCacheSize`).
    init(store: RecordStore, cacheSize: Int? = nil, backgroundFrom: Int64 = LiveIndex.deriveInBackgroundFrom,
         beforeBackgroundDerivation: (@Sendable () -> Void)? = nil) throws(SearchError) {
        self.store = store
        let (generation, rules) = try store.rules()
        ruleBook = LockedValue(RuleBook(generation: generation, stored: rules))
        let derived = DerivedIndex(store: store)
        if let loaded = try derived.loadState() {
            current = CurrentState(loaded, cacheSize: cacheSize)
            return
        }
        guard try store.largestCommittedRowID() >= backgroundFrom else {
            current = CurrentState(try derived.currentState(), cacheSize: cacheSize)
            return
        }
        let (committed, settings, _) = try store.committedMetadata()
        let empty = SnapshotBuilder.build([], configuration: try IndexConfiguration(settings: settings), generation: committed)
        current = CurrentState(IndexState(base: empty), cacheSize: cacheSize)
        deriving.value = true
        // The thread takes the write lock before this returns: no write or catching up runs on
        // the empty state.
        let locked = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            writeLock.lock()
            locked.signal()
            defer { writeLock.unlock() }
            beforeBackgroundDerivation?()
            do throws(SearchError) {
                current.value = try derived.currentState()
            } catch {
                derivationFailure.value = error
            }
            deriving.value = false
        }
        locked.wait()
    }

    /// The state searches read, behind a lock. Every state put here has its snapshots' caches
    /// bounded by the engine's `searchCacheSize` first, whichever path made it (a write, a
    /// merge, catching up, the derivation).
    private final class CurrentState: Sendable {
        private let state: LockedValue<IndexState>
        let cacheSize: Int?

        init(_ state: IndexState, cacheSize: Int?) {
            if let cacheSize { state.limitCaches(to: cacheSize) }
            self.state = LockedValue(state)
            self.cacheSize = cacheSize
        }

        var value: IndexState {
            get { state.value }
            set {
                if let cacheSize { newValue.limitCaches(to: cacheSize) }
                state.value = newValue
            }
        }
    }

    /// Waits while the derived index is built in the background (`deriving`).
    func waitForDerivation() {
        guard deriving.value else { return }
        writeLock.lock()
        writeLock.unlock()
    }

    /// After a background derivation that failed: derives the index again, the caller holding
    /// `writeLock`, or throws why it cannot.
    func deriveIfFailedLocked() throws(SearchError) {
        guard derivationFailure.value != nil else { return }
        current.value = try derived.currentState()
        derivationFailure.value = nil
    }

    /// The rules searches apply now.
    var rules: RuleBook { ruleBook.value }

    /// The state searches read now.
    var state: IndexState { current.value }

    var derived: DerivedIndex { DerivedIndex(store: store) }

    /// Follows writes committed by other processes (or other engines on the same folder): when
    /// the database's generation moved past the current state's, reads what the writes since
    /// changed (the change log). Costs one `PRAGMA data_version` when nothing changed.
    func followCommittedWrites() throws(SearchError) {
        guard try store.committedGeneration() != current.value.generation || derivationFailure.value != nil else { return }
        writeLock.lock()
        defer { writeLock.unlock() }
        try followCommittedWritesLocked()
    }

    /// `followCommittedWrites`, the caller holding `writeLock` (a write of this process in
    /// flight has then been published).
    func followCommittedWritesLocked() throws(SearchError) {
        try deriveIfFailedLocked()
        guard try store.committedGeneration() != current.value.generation else { return }
        current.value = try derived.catchUp(current.value)
        let rulesGeneration = try store.rulesGeneration()
        if rulesGeneration != ruleBook.value.generation {
            let (generation, rules) = try store.rules()
            ruleBook.value = RuleBook(generation: generation, stored: rules)
        }
        mergeIfNeeded()
        mergeSegmentsIfNeeded()
    }

    /// Applies a committed write to the in-memory index; the caller holds `writeLock`. The write
    /// is committed whatever happens here, so it is never reported as failed: should catching
    /// up fail (reading the change log or deriving the index), the in-memory index stays as it
    /// was and the next search catches up (`followCommittedWrites`), or reports why it cannot.
    func publish(_ written: Written) {
        switch written {
        case .rebuilt(let snapshot):
            current.value = IndexState(base: snapshot)
        case .logged(_, let written):
            guard let state = try? derived.catchUp(current.value, written: written) else { return }
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
    private func nextPairToMerge() -> (pair: (older: IndexState.Segment, newer: IndexState.Segment), configuration: IndexConfiguration,
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
    private func installMerged() {
        let before = current.value
        // From the segments' snapshots (`SegmentMerger`): no record read or tokenized again.
        let base = IndexState.Segment(merging: before.segments, configuration: before.configuration, generation: before.generation).snapshot
        guard current.value.segments[0].snapshot === before.segments[0].snapshot, !retired.value else { return }
        let (stored, isStored) = derived.storeMerged(base)
        let merged = IndexState.Segment(snapshot: stored)
        // Off the lock: removing what writes removed meanwhile, and later writes, need it.
        merged.prepareRowIndex()
        writeLock.lock()
        defer { writeLock.unlock() }
        if isStored, !store.isReadOnly, !retired.value {
            // The change log before the file, as a writer (writes may have run meanwhile).
            store.claimWriter()
            store.pruneLogs(upTo: base.generation, hasReplicas: !base.configuration.replicas.isEmpty)
            store.releaseWriter()
        }
        if let replaced = current.value.replacingBase(before.segments, with: merged) { current.value = replaced }
    }

    /// Waits until no merge runs (of the whole index, or of delta segments).
    func waitForMerge() {
        while merging.value || mergingSegments.value { Thread.sleep(forTimeInterval: 0.005) }
    }

    /// Merges every segment into a new base now, folding the delta in (what a background
    /// merge does when the delta outgrows `deltaLimit`), and waits for it.
    func merge() throws(SearchError) {
        // Never of the empty state a background derivation replaces (derived again, if that failed).
        waitForDerivation()
        do {
            writeLock.lock()
            defer { writeLock.unlock() }
            try deriveIfFailedLocked()
        }
        // One merge of the whole index at a time: this one takes the background merge's turn.
        while true {
            waitForMerge()
            if merging.modify({ running in defer { running = true }; return !running }) { break }
        }
        installMerged()
        merging.value = false
        mergeSegmentsIfNeeded()
    }
}
