import SearchAPI

/// What searches read: the index as of one committed generation, as a few segments (the way
/// Lucene and tantivy keep an index). The first, the **base**, is a snapshot of every record as
/// of some earlier generation (the derived file); the others, the **delta**, hold the records
/// written since, newest last. Each segment marks its documents that later writes deleted or
/// replaced. A write builds one small segment from its own records (O(records written)), and
/// segments of about the same size are merged two by two in the background as they pile up,
/// from their snapshots (`mergeablePair`); when the delta outgrows `deltaLimit`, every segment is
/// merged into a new base on a background thread (a merge, `SegmentMerger`).
///
/// Searches over several segments answer exactly as one snapshot of every record would (see
/// `SegmentedSearch`), ties included: every segment orders its documents by `DocumentOrder`.
final class IndexState: Sendable {
    /// One segment: a snapshot and which of its documents later writes left in place.
    struct Segment: Sendable {
        let snapshot: IndexSnapshot
        /// The documents not deleted or replaced since (nil: all of them).
        let live: DocumentSet?
        let removedCount: Int
        /// The documents by rowid, made when a write first needs it.
        let rowIndex: LockedValue<RowIndex?>

        var liveCount: Int { snapshot.documentCount - removedCount }

        init(snapshot: IndexSnapshot, live: DocumentSet? = nil, removedCount: Int = 0, rowIndex: LockedValue<RowIndex?> = LockedValue(nil)) {
            self.snapshot = snapshot
            self.live = live
            self.removedCount = removedCount
            self.rowIndex = rowIndex
        }

        /// One segment of the live documents of `segments`, from their snapshots (no record is
        /// read or tokenized again): the segment their records would make.
        init(merging segments: [Segment], configuration: IndexConfiguration, generation: Int64) {
            self.init(snapshot: SegmentMerger.merge(segments, configuration: configuration, generation: generation))
        }

        /// Makes the rowid index now (off any lock), before a write or a merge needs it.
        func prepareRowIndex() {
            rowIndex.modify { cached in if cached == nil { cached = RowIndex(snapshot) } }
        }

        /// This segment without the records of `rowIDs` (those it does not hold are ignored).
        func removing(_ rowIDs: [Int64]) -> Segment {
            // Rows made after this segment's (new records) are not in it: no need to look.
            let largest = snapshot.largestRowID
            let rowIDs = rowIDs.filter { $0 <= largest }
            guard !rowIDs.isEmpty else { return self }
            let index = rowIndex.modify { cached in
                if cached == nil { cached = RowIndex(snapshot) }
                return cached!
            }
            var live = self.live
            var removedCount = self.removedCount
            for rowID in rowIDs {
                guard let document = index.document(of: rowID) else { continue }
                if live == nil { live = DocumentSet(capacity: snapshot.documentCount, full: true) }
                guard live!.contains(document) else { continue }
                live!.remove(document)
                removedCount += 1
            }
            return Segment(snapshot: snapshot, live: live, removedCount: removedCount, rowIndex: rowIndex)
        }

        /// The rowids of this segment's documents that are no longer live in `now`, the same
        /// segment in a later state (nil: gone from it, every document with it).
        func removedSince(_ now: Segment?) -> [Int64] {
            guard now?.removedCount != removedCount else { return [] }
            return (0..<snapshot.documentCount).filter { document in
                (live?.contains(document) ?? true) && !(now.map { $0.live?.contains(document) ?? true } ?? false)
            }.map { snapshot.rowIDs[$0] }
        }

        /// How many live documents come before `position`.
        func liveCount(below position: Int) -> Int { live?.count(below: position) ?? position }
    }

    let generation: Int64
    /// The base first, then the delta segments, oldest first.
    let segments: [Segment]

    /// The most records the delta holds before the index is merged into a new base.
    static var deltaLimit: Int { deltaLimitSetting.value }
    /// `deltaLimit`, changed by tests that exercise merges on small indices (and by
    /// `SearchIndex.deltaLimit`).
    static let deltaLimitSetting = LockedValue(20_000)
    /// The most delta segments kept apart: past it, the two newest are merged whatever their sizes.
    static let maxDeltaSegments = 12
    /// The most records two segments hold for a write to merge them itself rather than leave
    /// them to a background merge: a merge this small takes well under a millisecond.
    static let mergedInWriteUpTo = 256

    /// The records this state's searches read last, parsed, by rowid (`SearchPipeline.records`):
    /// a popular record is on the first page of many queries. Each was read as of this state's
    /// generation, so it is this state's record whatever writes come after.
    let storedRecords = BoundedCache<Int64, JSONObject>(byteBudget: 8 << 20, entryLimit: 8_192)

    /// The automatic radius around the centers searched lately (it depends on this state and
    /// the center only: a user typing around one point computes it once).
    private let automaticRadii = LockedValue<[GeoPoint: Double]>([:])

    /// `GeoSearch.automaticRadius` around `center` over every segment, remembered.
    func automaticRadius(around center: GeoPoint) -> Double {
        if let known = automaticRadii.value[center] { return known }
        let radius = GeoSearch.automaticRadius(around: center, segments: segments.map { ($0.snapshot.geo, $0.live) })
        automaticRadii.modify { cache in
            if cache.count >= 256 { cache.removeAll(keepingCapacity: true) }
            cache[center] = radius
        }
        return radius
    }

    /// The values of each facet attribute a rule's `{facet:attribute}` placeholder looked for,
    /// by their words (made when first asked for).
    private let facetPhraseCache = LockedValue<[String: FacetPhrases]>([:])

    /// `FacetPhrases` of `attribute` over every segment, remembered.
    func facetPhrases(_ attribute: String) -> FacetPhrases {
        if let known = facetPhraseCache.value[attribute] { return known }
        let phrases = FacetPhrases(attribute, state: self)
        facetPhraseCache.modify { $0[attribute] = phrases }
        return phrases
    }

    /// The rowids of the objectIDs rules promoted or hid, as the store gave them (nil: not
    /// stored), so that a search typed letter by letter looks each up once.
    private let objectRowCache = LockedValue<[String: Int64?]>([:])

    /// The rowids of `objectIDs` (those stored), through `find` for the ones not asked for yet.
    func rowIDs(of objectIDs: [String], find: ([String]) throws(SearchError) -> [String: Int64]) throws(SearchError) -> [String: Int64] {
        let known = objectRowCache.value
        let unknown = objectIDs.filter { known[$0] == nil }
        var found: [String: Int64] = [:]
        for objectID in objectIDs { if let row = known[objectID] ?? nil { found[objectID] = row } }
        guard !unknown.isEmpty else { return found }
        let looked = try find(unknown)
        found.merge(looked) { $1 }
        objectRowCache.modify { cache in
            if cache.count > 10_000 { cache.removeAll(keepingCapacity: true) }
            for objectID in unknown { cache[objectID] = .some(looked[objectID]) }
        }
        return found
    }

    convenience init(base: IndexSnapshot) {
        self.init(generation: base.generation, segments: [Segment(snapshot: base)])
    }

    private init(generation: Int64, segments: [Segment]) {
        self.generation = generation
        self.segments = segments
    }

    var base: IndexSnapshot { segments[0].snapshot }

    /// Bounds what this state's searches keep to `bytes` together (`SearchEngine.searchCacheSize`):
    /// an eighth for the records read (`storedRecords`), the rest shared by the segments' caches
    /// (`IndexSnapshot.limitCaches`) in proportion to their documents, so that a base and a dozen
    /// delta segments keep no more than the base alone would.
    func limitCaches(to bytes: Int) {
        let bytes = max(0, bytes)
        storedRecords.setByteBudget(bytes / 8)
        let shared = bytes - bytes / 8
        let documents = segments.reduce(0) { $0 + $1.snapshot.documentCount }
        for segment in segments {
            let share = documents == 0 ? shared / segments.count
                : Int((Double(shared) * Double(segment.snapshot.documentCount) / Double(documents)).rounded(.down))
            segment.snapshot.limitCaches(to: share)
        }
    }

    var configuration: IndexConfiguration { base.configuration }
    /// The number of records.
    var documentCount: Int { segments.reduce(0) { $0 + $1.liveCount } }
    /// The records written since the base (live ones).
    var deltaCount: Int { segments.dropFirst().reduce(0) { $0 + $1.liveCount } }
    /// Whether the delta should be merged into a new base.
    var needsMerge: Bool { deltaCount > IndexState.deltaLimit }

    /// The state after the writes of later generations, up to `generation`: the records with
    /// the rowids in `removedRowIDs` are gone, those in `upserts` (distinct rowids: the rows
    /// as stored) added or replaced (a rowid in both is upserted: it was deleted, then written
    /// again).
    func applying(generation: Int64, removedRowIDs: [Int64], upserts: [SnapshotBuilder.Input]) -> IndexState {
        let written = upserts.isEmpty ? nil : SnapshotBuilder.build(upserts, configuration: configuration, generation: generation)
        return applying(generation: generation, removedRowIDs: removedRowIDs, written: written)
    }

    /// The state after the writes of later generations, up to `generation`: the records with
    /// the rowids in `removedRowIDs` are gone, and `written` (a segment of the records added or
    /// replaced, built by the write itself) is added.
    func applying(generation: Int64, removedRowIDs: [Int64], written: IndexSnapshot?) -> IndexState {
        let gone = removedRowIDs + (written?.rowIDs ?? [])
        var segments = gone.isEmpty ? self.segments : self.segments.map { $0.removing(gone) }
        var delta = segments.dropFirst().filter { $0.liveCount > 0 }
        if let written, written.documentCount > 0 { delta.append(Segment(snapshot: written)) }
        // Small segments are merged here, as a binary counter adds (cheaper than a thread);
        // larger ones in the background (`mergeablePair`, `replacing`), and here too when there
        // are too many segments (the background merges are behind: the write merges itself).
        while delta.count > IndexState.maxDeltaSegments
            || (delta.count > 1 && delta[delta.count - 2].liveCount <= delta[delta.count - 1].liveCount
                && delta[delta.count - 2].liveCount + delta[delta.count - 1].liveCount <= IndexState.mergedInWriteUpTo) {
            let newer = delta.removeLast()
            let older = delta.removeLast()
            delta.append(Segment(merging: [older, newer], configuration: configuration, generation: generation))
        }
        segments = [segments[0]] + delta
        return IndexState(generation: generation, segments: segments)
    }

    /// The delta segments to merge next, as the position of the older of two neighbours: the
    /// newest pair whose newer segment is as large as the older. Merged that way, sizes shrink
    /// from the oldest segment to the newest, as the digits of a binary counter: each record is
    /// merged again O(log delta) times, and there are O(log delta) segments.
    var mergeablePair: Int? {
        guard segments.count > 2 else { return nil }
        return (1..<(segments.count - 1)).last { segments[$0].liveCount <= segments[$0 + 1].liveCount }
    }

    /// This state with the neighbouring segments `run` (as they were when `merged` was made of
    /// them) replaced by `merged`, less the documents removed from them since. Nil when they are
    /// no longer neighbours here (another merge, or new settings, replaced them). A run that
    /// starts with the base makes `merged` the new base.
    func replacing(_ run: [Segment], with merged: Segment) -> IndexState? {
        guard let first = run.first, let position = segments.firstIndex(where: { $0.snapshot === first.snapshot }),
              position + run.count <= segments.count,
              zip(run, segments[position...]).allSatisfy({ $0.snapshot === $1.snapshot }) else { return nil }
        let removed = zip(run, segments[position...]).flatMap { then, now in then.removedSince(now) }
        let replacement = removed.isEmpty ? merged : merged.removing(removed)
        var replaced = segments
        replaced.replaceSubrange(position..<(position + run.count), with: replacement.liveCount > 0 || position == 0 ? [replacement] : [])
        return IndexState(generation: generation, segments: replaced)
    }

    /// This state with `merged` as its base, made of `run` (every segment of an earlier state:
    /// a merge of the whole index). The segments not in `run` (written since, or merged from
    /// segments written since) stay; what writes removed since from `run`'s segments is
    /// removed from `merged`, and so are the documents of a segment of `run` that is gone (a
    /// merge folded it into a segment that stays). Nil when the base is no longer `run`'s (a
    /// write derived the index whole since: this state is newer than the merge).
    func replacingBase(_ run: [Segment], with merged: Segment) -> IndexState? {
        guard let base = run.first, segments[0].snapshot === base.snapshot else { return nil }
        let removed = run.flatMap { then in then.removedSince(segments.first { $0.snapshot === then.snapshot }) }
        let inRun = Set(run.map { ObjectIdentifier($0.snapshot) })
        let written = segments.dropFirst().filter { !inRun.contains(ObjectIdentifier($0.snapshot)) }
        return IndexState(generation: generation, segments: [removed.isEmpty ? merged : merged.removing(removed)] + written)
    }

    /// The values `DocumentOrder` ranks a segment's document by.
    func orderValues(segment: Int, document: Int) -> [RankingValue?] {
        segments[segment].snapshot.orderKeys.values(of: document)
    }

    /// The live document of the record stored at `rowID`, nil when this state does not hold it.
    func location(ofRowID rowID: Int64) -> (segment: Int, document: Int)? {
        for (position, segment) in segments.enumerated().reversed() where rowID <= segment.snapshot.largestRowID {
            segment.prepareRowIndex()
            guard let document = segment.rowIndex.value?.document(of: rowID) else { continue }
            return segment.live?.contains(document) ?? true ? (position, document) : nil
        }
        return nil
    }

    func rowID(segment: Int, document: Int) -> Int64 {
        segments[segment].snapshot.rowIDs[document]
    }

    /// Whether document `a` of `segmentA` comes before document `b` of `segmentB` in the
    /// document order (`DocumentOrder`).
    func precedes(segment segmentA: Int, _ a: Int, segment segmentB: Int, _ b: Int) -> Bool {
        if segmentA == segmentB { return a < b }
        return DocumentOrder.precedes(orderValues(segment: segmentA, document: a), rowID(segment: segmentA, document: a),
                                      orderValues(segment: segmentB, document: b), rowID(segment: segmentB, document: b),
                                      criteria: configuration.documentOrder)
    }

    /// The document's position among every live record in the document order (what its
    /// ordinal would be in one snapshot of every record).
    func ordinal(segment: Int, document: Int) -> Int {
        var ordinal = 0
        for (index, other) in segments.enumerated() {
            // Each segment is in document order: the documents before this one are a prefix.
            let before = index == segment
                ? document
                : IndexState.partition(other.snapshot.documentCount) { precedes(segment: index, $0, segment: segment, document) }
            ordinal += other.liveCount(below: before)
        }
        return ordinal
    }

    /// The number of leading elements of `0..<count` for which `isBefore` holds (it holds for a
    /// prefix).
    static func partition(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) >> 1
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A snapshot's documents by rowid.
struct RowIndex: Sendable {
    private let rowIDs: [Int64]
    private let documents: [UInt32]

    init(_ snapshot: IndexSnapshot) {
        var pairs = snapshot.rowIDs.enumerated().map { (rowID: $0.element, document: UInt32($0.offset)) }
        pairs.sort { $0.rowID < $1.rowID }
        rowIDs = pairs.map(\.rowID)
        documents = pairs.map(\.document)
    }

    func document(of rowID: Int64) -> Int? {
        let position = IndexState.partition(rowIDs.count) { rowIDs[$0] < rowID }
        return position < rowIDs.count && rowIDs[position] == rowID ? Int(documents[position]) : nil
    }
}
