import SearchAPI

/// What searches read: the index as of one committed generation, in one or two segments. The
/// **base** is a snapshot of every record as of some earlier generation (the derived file); the
/// **delta** holds the records written since (added or replaced), and `removed` marks the base's
/// documents that those writes deleted or replaced. A write of a few records builds a new delta
/// from the records written since the base (O(delta), not O(index)); when the delta grows past
/// `deltaLimit`, the index is derived anew from every record into a new base (a merge).
///
/// Searches over two segments answer exactly as one snapshot of every record would (see
/// `SegmentedSearch`), ties included: both order documents by `DocumentOrder`.
final class IndexState: Sendable {
    let generation: Int64
    let base: IndexSnapshot
    /// Base documents deleted or replaced since the base was derived; nil when none are.
    let removed: DocumentSet?
    let removedCount: Int
    /// The records written since the base, as one snapshot; nil when there are none.
    let delta: IndexSnapshot?
    /// The delta's records by rowid (kept parsed for the next write's delta).
    let deltaRecords: [Int64: JSONObject]
    /// The base's documents by rowid, made when a write first needs it, shared by the states
    /// that share the base.
    private let rowIndex: LockedValue<RowIndex?>

    /// The most records the delta holds before the index is merged into a new base (see
    /// `Benchmarks/README.md`: the delta is built anew on each write, so its size bounds a
    /// write's cost).
    static var deltaLimit: Int { deltaLimitSetting.value }
    /// `deltaLimit`, changed by tests that exercise merges on small indices.
    static let deltaLimitSetting = LockedValue(2_000)

    convenience init(base: IndexSnapshot) {
        self.init(generation: base.generation, base: base, removed: nil, removedCount: 0, delta: nil, deltaRecords: [:],
                  rowIndex: LockedValue(nil))
    }

    private init(generation: Int64, base: IndexSnapshot, removed: DocumentSet?, removedCount: Int, delta: IndexSnapshot?,
                 deltaRecords: [Int64: JSONObject], rowIndex: LockedValue<RowIndex?>) {
        self.generation = generation
        self.base = base
        self.removed = removed
        self.removedCount = removedCount
        self.delta = delta
        self.deltaRecords = deltaRecords
        self.rowIndex = rowIndex
    }

    var configuration: IndexConfiguration { base.configuration }
    /// The number of records.
    var documentCount: Int { base.documentCount - removedCount + (delta?.documentCount ?? 0) }
    /// Whether the delta should be merged into a new base.
    var needsMerge: Bool { deltaRecords.count > IndexState.deltaLimit }

    /// The segments a search reads, each with its live documents (nil: all of them).
    var segments: [(snapshot: IndexSnapshot, live: DocumentSet?)] {
        let live = removed.map { $0.complement() }
        guard let delta else { return [(base, live)] }
        return [(base, live), (delta, nil)]
    }

    /// The state after the writes of later generations, up to `generation`: the records with
    /// the rowids in `removedRowIDs` are gone, those in `upserts` added or replaced (a rowid in
    /// both is upserted: it was deleted, then written again).
    func applying(generation: Int64, removedRowIDs: [Int64], upserts: [SnapshotBuilder.Input]) -> IndexState {
        guard !removedRowIDs.isEmpty || !upserts.isEmpty else {
            return IndexState(generation: generation, base: base, removed: removed, removedCount: removedCount, delta: delta,
                              deltaRecords: deltaRecords, rowIndex: rowIndex)
        }
        let index = rowIndex.modify { cached in
            if cached == nil { cached = RowIndex(base) }
            return cached!
        }
        var records = deltaRecords
        var removed = self.removed ?? DocumentSet(capacity: base.documentCount)
        var removedCount = self.removedCount
        for rowID in removedRowIDs + upserts.map(\.rowID) {
            records[rowID] = nil
            if let document = index.document(of: rowID), !removed.contains(document) {
                removed.insert(document)
                removedCount += 1
            }
        }
        for input in upserts { records[input.rowID] = input.record }
        let delta = records.isEmpty ? nil : SnapshotBuilder.build(records.map { SnapshotBuilder.Input(rowID: $0.key, record: $0.value) },
                                                                  configuration: base.configuration, generation: generation)
        return IndexState(generation: generation, base: base, removed: removedCount > 0 ? removed : nil, removedCount: removedCount,
                          delta: delta, deltaRecords: records, rowIndex: rowIndex)
    }

    /// The values `DocumentOrder` ranks a segment's document by.
    func orderValues(segment: Int, document: Int) -> [RankingValue?] {
        (segment == 0 ? base : delta!).orderKeys.values(of: document)
    }

    func rowID(segment: Int, document: Int) -> Int64 {
        (segment == 0 ? base : delta!).rowIDs[document]
    }

    /// Whether document `a` of `segmentA` comes before document `b` of `segmentB` in the
    /// document order (`DocumentOrder`).
    func precedes(segment segmentA: Int, _ a: Int, segment segmentB: Int, _ b: Int) -> Bool {
        if segmentA == segmentB { return a < b }
        return DocumentOrder.precedes(orderValues(segment: segmentA, document: a), rowID(segment: segmentA, document: a),
                                      orderValues(segment: segmentB, document: b), rowID(segment: segmentB, document: b),
                                      criteria: configuration.documentOrder)
    }

    /// The document's position among every record in the document order (what the ordinal of
    /// a snapshot of every record would be).
    func ordinal(segment: Int, document: Int) -> Int {
        let removedBefore = { (position: Int) in self.removed?.count(below: position) ?? 0 }
        guard let delta else { return document - removedBefore(document) }
        if segment == 0 {
            let deltaBefore = IndexState.partition(delta.documentCount) { precedes(segment: 1, $0, segment: 0, document) }
            return document - removedBefore(document) + deltaBefore
        }
        let baseBefore = IndexState.partition(base.documentCount) { precedes(segment: 0, $0, segment: 1, document) }
        return document + baseBefore - removedBefore(baseBefore)
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
        let order = snapshot.rowIDs.indices.sorted { snapshot.rowIDs[$0] < snapshot.rowIDs[$1] }
        rowIDs = order.map { snapshot.rowIDs[$0] }
        documents = order.map { UInt32($0) }
    }

    func document(of rowID: Int64) -> Int? {
        let position = IndexState.partition(rowIDs.count) { rowIDs[$0] < rowID }
        return position < rowIDs.count && rowIDs[position] == rowID ? Int(documents[position]) : nil
    }
}
