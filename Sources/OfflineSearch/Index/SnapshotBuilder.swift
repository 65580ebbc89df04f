import Foundation
import SearchAPI

/// Builds an `IndexSnapshot` from records: tokenizes the searchable attributes, sorts the
/// vocabulary, lays out posting lists, facet columns and numeric columns.
///
/// - Complexity: O(total tokens + n log n) for n records.
enum SnapshotBuilder {
    /// A record to index, by its rowid: the documents are keyed on the store's rows.
    typealias Input = StoredRecord

    /// From this many records on, the facet, numeric and geo columns are built on a second
    /// thread while the words are tokenized on this one (below it, a thread costs more than it
    /// saves: a write of a few records).
    static let parallelFrom = 500

    static func build(_ inputs: [Input], configuration: IndexConfiguration, generation: Int64) -> IndexSnapshot {
        var accumulator = SnapshotAccumulator(configuration: configuration)
        accumulator.add(inputs)
        do {
            return try accumulator.finish(generation: generation)
        } catch {
            preconditionFailure("an accumulator that spills nothing cannot fail: \(error)")
        }
    }
}

/// Takes records a batch at a time into compact per-record data (each record's words as
/// temporary term ids, its facet values, numbers, locations and ranking values) and lays the
/// snapshot out once they are all in (`finish`): the records themselves are not kept, so an
/// import or a rebuild holds one batch of parsed records at a time, not all of them.
///
/// Records may come in any order: the document order (`DocumentOrder`) is decided at the end.
struct SnapshotAccumulator {
    let configuration: IndexConfiguration
    /// Per input, in the order added.
    private var rowIDs: [Int64] = []
    /// Inputs replaced by a later one with the same rowid (an objectID repeated in an import).
    private var superseded: Set<Int> = []
    private var words: WordColumns
    private var values: ValueColumns
    /// About how many inputs will be added in all, when the caller can tell (an import): once
    /// the first batch shows how many entries an input makes, the largest columns are given
    /// room for all of them at once, instead of growing by doubling (each growth a copy into
    /// new memory). Room never used is address space, not memory.
    var expectedInputs: Int?

    /// How many forward words are kept in memory before they go to a temporary file, when an
    /// accumulator spills (16 MiB of them): a segment of a few writes never spills; an import
    /// of 100k products does.
    static let spillFrom = 1 << 22

    /// With `spillFrom`, the forward index's words go to a temporary file whenever that many
    /// are in memory (an import, a rebuild: `finish` may then fail to read them back): beside
    /// `spillBeside` (the index's derived file: the system's temporary folder may be memory),
    /// else in the temporary folder.
    init(configuration: IndexConfiguration, spillFrom: Int? = nil, spillBeside: String? = nil) {
        self.configuration = configuration
        words = WordColumns(configuration: configuration)
        words.spillFrom = spillFrom
        words.spillBeside = spillBeside
        values = ValueColumns(configuration: configuration)
    }

    /// Adds records. From `SnapshotBuilder.parallelFrom` records on, their values are read on a
    /// second thread while their words are tokenized on this one.
    /// - Returns: with `texts`, each record's FTS5 text columns (its folded words per level,
    ///   as `RecordStore` stores them), from the same tokenization; else empty.
    @discardableResult
    mutating func add(_ batch: [SnapshotBuilder.Input], texts: Bool = false) -> TextColumns {
        if let expected = expectedInputs, !rowIDs.isEmpty {
            expectedInputs = nil
            let room = SnapshotAccumulator.room(expecting: expected,
                                                bytesPerInput: MemoryLayout<Int64>.size + words.bytesPerInput + values.bytesPerInput)
            rowIDs.reserveCapacity(room)
            words.reserve(inputs: room)
            values.reserve(inputs: room)
        }
        rowIDs.append(contentsOf: batch.lazy.map(\.rowID))
        if batch.count >= SnapshotBuilder.parallelFrom {
            // Moved into the box (not copied: held twice, the columns would be copied whole
            // when the worker adds to them), and back once it is done.
            let owned = WorkerOwned(taking: &values, leaving: ValueColumns(configuration: configuration))
            let work = BackgroundWork { owned.value.add(batch); return true }
            defer {
                _ = work.wait()
                values = owned.take(leaving: ValueColumns(configuration: configuration))
            }
            return words.add(batch, configuration: configuration, texts: texts)
        } else {
            values.add(batch)
            return words.add(batch, configuration: configuration, texts: texts)
        }
    }

    /// How many inputs the columns get room for when `expected` are expected, each taking
    /// `bytesPerInput`: a tenth more (an estimate a little short would make the columns grow
    /// once more, a copy of all of them), and at most what an eighth of the machine's memory
    /// holds (an estimate far off, a file whose first records are unlike the rest, must not ask
    /// for more address space than the system gives a process).
    static func room(expecting expected: Int, bytesPerInput: Int,
                     memory: UInt64 = ProcessInfo.processInfo.physicalMemory) -> Int {
        let limit = Int(min(memory / 8, UInt64(Int.max)))
        return min(expected + expected / 10, limit / max(bytesPerInput, 1))
    }

    /// Gives the inputs added so far their rowids, in the order added: a write tokenizes its
    /// records while it stores them, before their rowids are known.
    mutating func assignRowIDs(_ rowIDs: [Int64]) {
        precondition(rowIDs.count == self.rowIDs.count, "one rowid per input")
        self.rowIDs = rowIDs
    }

    /// Drops the input added at `position` (its record was replaced by one added later with the
    /// same rowid).
    mutating func supersede(inputAt position: Int) {
        superseded.insert(position)
    }

    /// Gives the memory freed since the records were read back to the system before the index
    /// is laid out: the parsed records of every batch were many small allocations, which the C
    /// allocator otherwise keeps for itself (on Linux, 200 MB at a 1M-record import's peak).
    static func returnFreedMemory() {
        #if os(Linux)
        // glibc's `malloc_trim`, looked up (Swift's Glibc module does not declare it; another C
        // library may not have it).
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        #endif
    }

    /// Lays the snapshot out, releasing the per-record data as it goes. Fails only when words
    /// spilled to a temporary file cannot be read back.
    ///
    /// With `writing` (the derived file the snapshot is to be stored in), the payload's first
    /// part (`IndexSnapshot.encodeHead`: the posting lists, half the file) is written to it on
    /// another thread as soon as the posting lists are laid out, while the forward index is:
    /// the caller then encodes the rest (`encodeTail`) and finishes the file. (At 1M records
    /// storing the 760 MB file took 1.4 s on one thread after the 1.3 s of layout.)
    mutating func finish(generation: Int64, writing: SnapshotFile.Writing? = nil) throws(SearchError) -> IndexSnapshot {
        var valueColumns = values
        values = ValueColumns(configuration: configuration)
        let live = superseded.isEmpty ? Array(rowIDs.indices) : rowIDs.indices.filter { !superseded.contains($0) }
        let parallel = live.count >= SnapshotBuilder.parallelFrom
        var wordColumns = words
        words = WordColumns(configuration: configuration)
        // The documents' order is sorted out on another thread while the vocabulary is built.
        let sortOrder = { @Sendable [rowIDs, keys = valueColumns.keys, configuration] in
            SnapshotAccumulator.documentOrder(live, rowIDs: rowIDs, keys: keys, configuration: configuration)
        }
        valueColumns.keys = OrderValues(criteria: 0)
        let orderWork = parallel ? BackgroundWork(sortOrder) : nil
        let vocabulary = wordColumns.vocabulary(live: superseded.isEmpty ? nil : live)
        let (order, sortRuns, orderKeys) = orderWork?.wait() ?? sortOrder()
        let columnWork = parallel ? BackgroundWork { [valueColumns] in valueColumns.finish(order: order) } : nil
        let orderedRowIDs = order.map { rowIDs[$0] }
        rowIDs = []
        superseded = []
        var headWork: BackgroundWork<PostingPositions>?
        // Should the layout fail, nothing goes on writing after this returns.
        defer { _ = headWork?.wait() }
        let laidOut = try wordColumns.layOut(order: order, vocabulary: vocabulary) { postings in
            guard let writing else { return }
            headWork = BackgroundWork { [configuration] in
                let positions = PostingPositions(dense: postings.positions)
                writing.encode {
                    IndexSnapshot.encodeHead(configuration: configuration, generation: generation, rowIDs: orderedRowIDs,
                                             terms: postings.terms, postingStarts: postings.starts, postingDocs: postings.docs,
                                             postingMasks: postings.masks, postingPositions: positions, into: &$0)
                }
                return positions
            }
        }
        let (facets, numerics, geo) = columnWork?.wait() ?? valueColumns.finish(order: order)
        let postings = laidOut.postings
        let positions = headWork?.wait() ?? PostingPositions(dense: postings.positions)
        return IndexSnapshot(configuration: configuration, generation: generation, rowIDs: orderedRowIDs,
                             terms: postings.terms, postingStarts: postings.starts, postingDocs: postings.docs,
                             postingMasks: postings.masks, postingPositions: positions,
                             sortRuns: sortRuns, forward: ForwardIndex(starts: laidOut.forwardStarts, terms: FlatArray(laidOut.forwardTerms)),
                             facets: facets.map { $0.withSlots(largerThan: FacetSlots.batchedBytes) }, numerics: numerics, orderKeys: orderKeys, geo: geo)
    }

    /// Input positions in the document order (`DocumentOrder`: the sort criteria of `ranking`,
    /// `customRanking`, records missing a value last, then insertion order, the rowid); for a
    /// sort replica, where each run of records with equal sort values starts in that order (plus
    /// the record count at the end); and each document's values of the order's criteria, in
    /// that order.
    static func documentOrder(_ live: [Int], rowIDs: [Int64], keys: OrderValues, configuration: IndexConfiguration)
        -> (order: [Int], sortRuns: [UInt32], keys: DocumentOrderKeys) {
        let criteria = configuration.documentOrder
        guard !criteria.isEmpty else {
            return (live.sorted { rowIDs[$0] < rowIDs[$1] }, [], keys.keys(inOrder: []))
        }
        let order = DocumentOrder.numericOrder(live, rowIDs: rowIDs, values: keys, criteria: criteria) ?? {
            let values = (0..<rowIDs.count).map { keys.values(of: $0) }
            return live.sorted { a, b in DocumentOrder.precedes(values[a], rowIDs[a], values[b], rowIDs[b], criteria: criteria) }
        }()
        let orderedKeys = keys.keys(inOrder: order)
        return (order, orderedKeys.sortRuns(sortCount: configuration.sortCriteria.count), orderedKeys)
    }
}

/// An accumulator fed a batch at a time on another thread while its owner goes on (reads the
/// next batch, stores the FTS5 texts of the one before). `add` hands a batch over and returns the
/// texts of the batch before once it is tokenized, with the tag the owner gave it; `take` gives
/// the accumulator back once the last batch is in. Released early (a failed write), it waits
/// for the batch in flight: nothing goes on working after its owner gave up.
final class BackgroundAccumulation<Tag> {
    private let owned: WorkerOwned<SnapshotAccumulator>
    private let texts: Bool
    private var inFlight: (work: BackgroundWork<TextColumns>, tag: Tag)?

    /// Takes `accumulator` over (an empty one is left in its place); with `texts`, each batch's
    /// FTS5 text columns come back from `add`.
    init(taking accumulator: inout SnapshotAccumulator, texts: Bool) {
        let placeholder = SnapshotAccumulator(configuration: accumulator.configuration)
        owned = WorkerOwned(taking: &accumulator, leaving: placeholder)
        self.texts = texts
    }

    deinit { _ = inFlight?.work.wait() }

    /// Starts tokenizing `batch`; returns the batch before's texts and tag (nil for the first).
    func add(_ batch: [SnapshotBuilder.Input], tag: Tag) -> (texts: TextColumns, tag: Tag)? {
        let previous = waitForBatchInFlight()
        let owned = self.owned, texts = self.texts
        inFlight = (BackgroundWork { owned.value.add(batch, texts: texts) }, tag)
        return previous
    }

    /// The batch in flight's texts and tag once it is tokenized; nil when none is.
    func waitForBatchInFlight() -> (texts: TextColumns, tag: Tag)? {
        defer { inFlight = nil }
        return inFlight.map { (texts: $0.work.wait(), tag: $0.tag) }
    }

    /// The accumulator, every batch in (the texts of a batch still in flight are dropped).
    func take() -> SnapshotAccumulator {
        _ = waitForBatchInFlight()
        return owned.take(leaving: SnapshotAccumulator(configuration: owned.value.configuration))
    }
}
