import Foundation
import SearchAPI

/// The searchable texts of a record, by attribute: one rule for the in-memory index, the FTS5
/// table and highlighting.
enum SearchableText {
    /// Without `searchableAttributes`: every attribute, at one level, unordered.
    static let anyAttribute = SearchableAttribute(path: "", level: 0, ordered: false)

    /// Calls `body(attribute, text)` for each searchable string or number of the record, the
    /// values of one attribute (array elements, nested values) one after the other.
    static func forEach(in record: JSONObject, configuration: IndexConfiguration, _ body: (SearchableAttribute, String) -> Void) {
        guard let attributes = configuration.searchable else {
            RecordValues.forEachText(in: record) { body(anyAttribute, $0) }
            return
        }
        var scalars: [JSONValue] = []
        for attribute in attributes {
            scalars.removeAll(keepingCapacity: true)
            RecordValues.appendScalars(at: attribute.lookup, in: record, to: &scalars)
            for value in scalars {
                if let text = value.scalarText { body(attribute, text) }
            }
        }
    }
}

/// Numbers distinct strings in order of first appearance.
struct StringInterner {
    private var ids: [String: UInt32] = [:]
    private(set) var strings: [String] = []

    mutating func id(of string: String) -> UInt32 {
        if let existing = ids[string] { return existing }
        let id = UInt32(strings.count)
        ids[string] = id
        strings.append(string)
        return id
    }
}

/// Numbers distinct byte strings (folded words) in order of first appearance, without making a
/// `String` per occurrence: the bytes are kept once in one buffer and found again through an
/// open-addressing table keyed by their hash. The builder's hot loop: every token of every
/// record passes here.
struct WordInterner {
    private var bytes: [UInt8] = []
    /// `starts[id]..<starts[id + 1]` are word `id`'s bytes.
    private var starts: [UInt32] = [0]
    /// Slot → id + 1 (0: empty); the table stays at most half full.
    private var slots = [UInt32](repeating: 0, count: 1024)
    private var hashes: [UInt32] = []

    var count: Int { starts.count - 1 }

    mutating func id(of word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        // FNV-1a, 32 bits: short words, and a mask of the table's size.
        var hash: UInt32 = 2_166_136_261
        for byte in word { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == hash {
                let start = Int(starts[id]), end = Int(starts[id + 1])
                if end - start == word.count, bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + start, word.baseAddress!, word.count) == 0 }) {
                    return UInt32(id)
                }
            }
            slot = (slot + 1) & mask
        }
        let id = UInt32(count)
        bytes.append(contentsOf: word)
        starts.append(UInt32(bytes.count))
        hashes.append(hash)
        slots[slot] = id + 1
        if count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(id) + 1
        }
    }

    /// The words, in id order.
    var strings: [String] {
        bytes.withUnsafeBufferPointer { buffer in
            (0..<count).map { id in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(starts[id])..<Int(starts[id + 1])]), as: UTF8.self)
            }
        }
    }
}

/// Gives each distinct word a temporary id and collects one document's entries,
/// `id << 32 | rank << 16 | posting mask`: the rank is the level and, in an ordered attribute,
/// the word's position (see `PostingRank`): the lowest of a term's ranks is its best
/// occurrence; the mask has the level's bit, and `PostingMask.wholeValue` for the word that
/// makes up a whole attribute value (set by the caller once the text is scanned).
private struct TermCollector: TokenSink {
    var words = WordInterner()
    var entries: [UInt64] = []
    var level = 0
    var ordered = false
    /// The next word's position inside the current attribute (array elements continue it).
    var position = 0
    /// Every document's words in order (temporary ids), each attribute value after its
    /// `ForwardIndex.marker`: the forward index, for proximity.
    var forward: [UInt32] = []
    /// Placeholder synonyms' tags (folded UTF-8), and the UTF-8 of the value being scanned when
    /// it may hold one (`<tag>`), else empty.
    var placeholderTags: Set<[UInt8]> = []
    var placeholderValue: [UInt8] = []
    /// When the FTS5 text is wanted: the batch's folded words per record and level
    /// (`IndexStore`'s text columns, from this one tokenization). The table keeps only which
    /// records hold each word (`detail = none`), so a word is written once per column: a
    /// repeated word cost FTS5 as much as a new one. (A contentless row is removed by giving
    /// its columns again: a word's column must be the one it was stored in, its repeats need
    /// not be.)
    var texts: TextColumns?
    /// The record being collected (an id that differs from record to record, never 0), and per
    /// word id the record and level (`record << 32 | level`) whose column holds it last.
    var record: UInt32 = 0
    private var inText: [UInt64] = []

    /// Forgets which words the current record's text holds (once every record is in).
    mutating func releaseTextStamps() { inText = [] }

    mutating func token(_ folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        let id: UInt32
        if !placeholderValue.isEmpty, start > 0, end < placeholderValue.count, placeholderValue[start - 1] == UInt8(ascii: "<"),
           placeholderValue[end] == UInt8(ascii: ">"), placeholderTags.contains(Array(folded)) {
            id = Array(SynonymTable.placeholderTerm(String(decoding: folded, as: UTF8.self)).utf8).withUnsafeBufferPointer { words.id(of: $0) }
            texts?.append(word: folded, level: level)
        } else {
            id = words.id(of: folded)
            if texts != nil {
                if Int(id) >= inText.count {
                    inText.append(contentsOf: repeatElement(0, count: max(Int(id) + 1, 2 * inText.count, 1024) - inText.count))
                }
                let column = UInt64(record) << 32 | UInt64(level)
                if inText[Int(id)] != column {
                    inText[Int(id)] = column
                    texts!.append(word: folded, level: level)
                }
            }
        }
        let rank = PostingRank.rank(level: level, position: ordered ? position : 0)
        entries.append(UInt64(id) << 32 | UInt64(rank) << 16 | UInt64(PostingMask.bit(forLevel: level)))
        forward.append(id)
        position += 1
    }
}

/// Builds an `IndexSnapshot` from records: tokenizes the searchable attributes, sorts the
/// vocabulary, lays out posting lists, facet columns and numeric columns.
///
/// - Complexity: O(total tokens + n log n) for n records.
enum SnapshotBuilder {
    struct Input: Sendable {
        var rowID: Int64
        var record: JSONObject
    }

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
    ///   as `IndexStore` stores them), from the same tokenization; else empty.
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
                             facets: facets, numerics: numerics, orderKeys: orderKeys, geo: geo)
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

/// Each record's words, per input: (temporary term id, posting mask, best position) with the
/// masks of a term's occurrences combined, and its words in order for the forward index.
private struct WordColumns {
    var collector = TermCollector()
    /// `docStarts[i]..<docStarts[i + 1]`: input i's entries.
    var docStarts: [UInt32] = [0]
    var docTerms: [UInt32] = []
    var docMasks: [UInt16] = []
    var docPositions: [UInt16] = []
    /// `forwardStarts[i]..<forwardStarts[i + 1]`: input i's words, counted from the first
    /// word spilled (`spill`), then in `collector.forward`.
    var forwardStarts: [UInt32] = [0]
    /// The words of the forward index written aside so far, once they outgrow `spillFrom`.
    var spill: ForwardSpill?
    /// How many words may stay in memory; nil when nothing is spilled (not asked for, or no
    /// temporary file could be written: the words then stay in memory).
    var spillFrom: Int?
    var spillBeside: String?
    /// Per temporary term: the record that held it last (its index + 1, 0: none yet) and the
    /// term's entry there, so that a record's repeated words are combined as they come, without
    /// sorting its entries; and the best rank of each of the current record's terms.
    private var lastRecord: [UInt32] = []
    private var lastSlot: [UInt32] = []
    private var recordRanks: [UInt16] = []

    init(configuration: IndexConfiguration) {
        collector.placeholderTags = Set(configuration.synonyms.placeholderTags.map { Array($0.utf8) })
    }

    /// The entries an input made, on average so far.
    private var entriesPerInput: Double { Double(docTerms.count) / Double(max(docStarts.count - 1, 1)) }

    /// The bytes an input takes in the columns `reserve` sizes, on average so far: its two
    /// starts and its entries (a term, a mask and a position each).
    var bytesPerInput: Int { 2 * MemoryLayout<UInt32>.size + Int((entriesPerInput * 8).rounded(.up)) }

    /// Room for `inputs` inputs in all, with as many entries each as the inputs so far.
    mutating func reserve(inputs: Int) {
        guard docStarts.count > 1, inputs > docStarts.count - 1 else { return }
        let entries = Int(entriesPerInput * Double(inputs))
        docTerms.reserveCapacity(entries)
        docMasks.reserveCapacity(entries)
        docPositions.reserveCapacity(entries)
        docStarts.reserveCapacity(inputs + 1)
        forwardStarts.reserveCapacity(inputs + 1)
    }

    mutating func add(_ batch: [SnapshotBuilder.Input], configuration: IndexConfiguration, texts: Bool) -> TextColumns {
        collector.texts = texts ? TextColumns(levelCount: configuration.levelCount) : nil
        defer { collector.texts = nil }
        // Taken out of `configuration`: the closure below then captures only this.
        let separators = configuration.separators
        for input in batch {
            collector.entries.removeAll(keepingCapacity: true)
            collector.record = UInt32(docStarts.count)
            var currentPath: String?
            SearchableText.forEach(in: input.record, configuration: configuration) { attribute, text in
                if attribute.path != currentPath {
                    currentPath = attribute.path
                    collector.position = 0
                }
                collector.level = attribute.level
                collector.ordered = attribute.ordered
                let before = collector.entries.count
                collector.forward.append(ForwardIndex.marker(attribute: attribute.ordinal))
                collector.placeholderValue = !collector.placeholderTags.isEmpty && text.utf8.contains(UInt8(ascii: "<")) ? Array(text.utf8) : []
                Tokenizer.scan(text, separators: separators, into: &collector)
                if collector.entries.count == before + 1 { collector.entries[before] |= UInt64(PostingMask.wholeValue) }
                if collector.entries.count == before { collector.forward.removeLast() }   // no word: no value
            }
            forwardStarts.append(UInt32((spill?.count ?? 0) + collector.forward.count))
            collector.texts?.endRecord()
            // A term's occurrences in the record combined: the masks together, the best rank.
            let record = UInt32(docStarts.count)
            if lastRecord.count < collector.words.count {
                let grown = max(collector.words.count, 2 * lastRecord.count)
                lastRecord.append(contentsOf: repeatElement(0, count: grown - lastRecord.count))
                lastSlot.append(contentsOf: repeatElement(0, count: grown - lastSlot.count))
            }
            let first = docTerms.count
            for entry in collector.entries {
                let term = Int(entry >> 32)
                let rank = UInt16(truncatingIfNeeded: entry >> 16)
                let mask = UInt16(truncatingIfNeeded: entry)
                if lastRecord[term] == record {
                    let slot = Int(lastSlot[term])
                    docMasks[slot] |= mask
                    recordRanks[slot - first] = min(recordRanks[slot - first], rank)
                } else {
                    lastRecord[term] = record
                    lastSlot[term] = UInt32(docTerms.count)
                    docTerms.append(UInt32(term))
                    docMasks.append(mask)
                    recordRanks.append(rank)
                }
            }
            docPositions.append(contentsOf: recordRanks.lazy.map(PostingRank.position(of:)))
            recordRanks.removeAll(keepingCapacity: true)
            docStarts.append(UInt32(docTerms.count))
        }
        spillIfNeeded()
        return collector.texts ?? TextColumns(levelCount: configuration.levelCount)
    }

    /// Writes the forward words in memory to the spill file once there are `spillFrom` of them.
    private mutating func spillIfNeeded() {
        guard let spillFrom, collector.forward.count >= spillFrom else { return }
        if spill == nil { spill = ForwardSpill(beside: spillBeside) }
        if let spill, spill.append(collector.forward) {
            collector.forward.removeAll(keepingCapacity: true)
        } else {
            // The words already written stay in the file; the next stay in memory.
            self.spillFrom = nil
            if spill?.count == 0 { spill = nil }
        }
    }

    struct LaidOut {
        var postings: Postings
        var forwardStarts: [UInt32]
        var forwardTerms: [UInt32]
    }

    /// The vocabulary and the posting lists, each position still one per posting.
    struct Postings: Sendable {
        var terms: TermTable
        var starts: [UInt32]
        var docs: FlatArray<UInt32>
        var masks: FlatArray<UInt16>
        var positions: [UInt16]
    }

    /// The sorted vocabulary of the documents kept, and each temporary term's id in it.
    struct Vocabulary: Sendable {
        var terms: TermTable
        /// Temporary term id → final id (`.max`: a word only superseded records held).
        var finalID: [UInt32]
        /// Postings per temporary term, over the documents kept.
        var counts: [UInt32]
    }

    /// The vocabulary of the inputs `live` (every input when nil): it does not depend on the
    /// documents' order, so it is found while that order is sorted out. The interner and the
    /// per-word bookkeeping of `add` are released here, before the vocabulary is sorted.
    mutating func vocabulary(live: [Int]?) -> Vocabulary {
        var counts = [UInt32](repeating: 0, count: collector.words.count)
        if let live {
            for input in live {
                for i in Int(docStarts[input])..<Int(docStarts[input + 1]) { counts[Int(docTerms[i])] += 1 }
            }
        } else {
            for term in docTerms { counts[Int(term)] += 1 }
        }
        var words = collector.words.strings
        collector.words = WordInterner()
        collector.releaseTextStamps()
        lastRecord = []
        lastSlot = []
        recordRanks = []
        // A word only superseded records held is not in the vocabulary.
        var kept: [UInt32]?
        if counts.contains(0) {
            var keptID = [UInt32](repeating: .max, count: words.count)
            var keptWords: [String] = []
            for (id, word) in words.enumerated() where counts[id] > 0 {
                keptID[id] = UInt32(keptWords.count)
                keptWords.append(word)
            }
            words = keptWords
            kept = keptID
        }
        let (terms, sortedID) = TermTable.build(words)
        words = []
        var finalID = sortedID
        if let kept { finalID = kept.map { $0 == .max ? .max : sortedID[Int($0)] } }
        return Vocabulary(terms: terms, finalID: finalID, counts: counts)
    }

    /// The posting lists (documents are visited in `order`, so lists come sorted) and the
    /// forward index, with the final term ids of `vocabulary`. `postingsLaidOut` is given the
    /// posting lists before the forward index is laid out.
    mutating func layOut(order: [Int], vocabulary: consuming Vocabulary,
                         postingsLaidOut: (Postings) -> Void = { _ in }) throws(SearchError) -> LaidOut {
        let terms = vocabulary.terms
        let finalID = vocabulary.finalID
        var counts = vocabulary.counts
        _ = consume vocabulary
        // The forward index's words, laid out once the postings are (and their inputs released):
        // laid out at the same time on another thread, they took as long and 300 MB more at 1M.
        var forward = ForwardWords(inMemory: collector.forward, starts: forwardStarts, spill: spill)
        collector.forward = []
        forwardStarts = []
        spill = nil

        var postingStarts = [UInt32](repeating: 0, count: terms.count + 1)
        for (term, count) in counts.enumerated() where count > 0 { postingStarts[Int(finalID[term]) + 1] = count }
        counts = []
        for i in 0..<terms.count { postingStarts[i + 1] += postingStarts[i] }
        let postingCount = Int(postingStarts[terms.count])
        var postingDocs = [UInt32](repeating: 0, count: postingCount)
        var postingMasks = [UInt16](repeating: 0, count: postingCount)
        var postingPositions = [UInt16](repeating: 0, count: postingCount)
        PostingScatter(postingStarts: postingStarts, finalID: finalID, docStarts: docStarts, docTerms: docTerms,
                       docMasks: docMasks, docPositions: docPositions)
            .scatter(order: order, docs: &postingDocs, masks: &postingMasks, positions: &postingPositions)
        docTerms = []
        docMasks = []
        docPositions = []
        docStarts = []
        let postings = Postings(terms: terms, starts: postingStarts, docs: FlatArray(postingDocs), masks: FlatArray(postingMasks),
                                positions: postingPositions)
        postingDocs = []
        postingMasks = []
        postingPositions = []
        postingsLaidOut(postings)

        let (forwardStarts, forwardTerms) = try forward.layOut(order: order, finalID: finalID)
        return LaidOut(postings: postings, forwardStarts: forwardStarts, forwardTerms: forwardTerms)
    }
}

/// Lays each input's entries into the posting lists of their terms, documents in `order`: a
/// list's documents come sorted. From `parallelFrom` entries on, on two threads at once: one
/// fills each list from its start with the first half of the documents, in order, the other
/// from its end with the second half, last document first. Each term occurs once per
/// document, so the two meet exactly where the first half's postings of the term end.
struct PostingScatter: Sendable {
    let postingStarts: [UInt32]
    let finalID: [UInt32]
    let docStarts: [UInt32]
    let docTerms: [UInt32]
    let docMasks: [UInt16]
    let docPositions: [UInt16]

    /// From this many entries on, two threads lay them out (below, a thread costs more).
    static let parallelFrom = 1 << 20

    func scatter(order: [Int], docs: inout [UInt32], masks: inout [UInt16], positions: inout [UInt16],
                 parallelFrom: Int = PostingScatter.parallelFrom) {
        let split = docTerms.count >= parallelFrom ? order.count / 2 : order.count
        docs.withUnsafeMutableBufferPointer { docs in
            masks.withUnsafeMutableBufferPointer { masks in
                positions.withUnsafeMutableBufferPointer { positions in
                    // Unchecked: the two threads write disjoint slots of the buffers (above), and
                    // the second is waited for before they are released.
                    nonisolated(unsafe) let output = (docs, masks, positions)
                    let back = split < order.count ? BackgroundWork { [self] in
                        var cursor = Array(postingStarts.dropFirst())
                        for doc in stride(from: order.count - 1, through: split, by: -1) {
                            fill(doc: doc, input: order[doc], cursor: &cursor, ascending: false, output)
                        }
                        return true
                    } : nil
                    var cursor = postingStarts
                    for doc in 0..<split { fill(doc: doc, input: order[doc], cursor: &cursor, ascending: true, output) }
                    _ = back?.wait()
                }
            }
        }
    }

    @inline(__always)
    private func fill(doc: Int, input: Int, cursor: inout [UInt32], ascending: Bool,
                      _ output: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<UInt16>, UnsafeMutableBufferPointer<UInt16>)) {
        for i in Int(docStarts[input])..<Int(docStarts[input + 1]) {
            let term = Int(finalID[Int(docTerms[i])])
            let slot: Int
            if ascending {
                slot = Int(cursor[term])
                cursor[term] += 1
            } else {
                cursor[term] -= 1
                slot = Int(cursor[term])
            }
            output.0[slot] = UInt32(doc)
            output.1[slot] = docMasks[i]
            output.2[slot] = docPositions[i]
        }
    }
}

/// The words of the forward index as accumulated (temporary term ids, per input), to be laid
/// out in document order with the final ids.
private struct ForwardWords {
    /// The words not spilled, after those in `spill`.
    var inMemory: [UInt32]
    /// `starts[i]..<starts[i + 1]`: input i's words, counted from the first word spilled.
    var starts: [UInt32]
    var spill: ForwardSpill?

    /// The forward index in document order, with the final term ids. Fails only when spilled
    /// words cannot be read back. Its words are moved out (`self` is left without them), so
    /// they are mapped in place, not copied.
    mutating func layOut(order: [Int], finalID: [UInt32]) throws(SearchError) -> (starts: [UInt32], terms: [UInt32]) {
        var forward = inMemory
        inMemory = []
        var spilled: MappedFile?
        let spilledCount = spill?.count ?? 0
        if let spill, spill.count > 0 {
            // Read back only now: while the postings were laid out, these words were not in memory.
            spilled = spill.mapped()
            if spilled == nil {
                throw SearchError(.internalError, "Cannot read back the temporary file of the index being built: \(String(cString: strerror(errno)))")
            }
        }
        if spilled == nil, order.elementsEqual(0..<(starts.count - 1)) {
            // Already in document order: map the ids in place.
            forward.withUnsafeMutableBufferPointer { forward in
                for i in forward.indices where !ForwardIndex.isMarker(forward[i]) { forward[i] = finalID[Int(forward[i])] }
            }
            return (starts, forward)
        }
        // Each document's words in the new order: where they start.
        var forwardStarts: [UInt32] = [0]
        forwardStarts.reserveCapacity(order.count + 1)
        for input in order {
            forwardStarts.append(forwardStarts[forwardStarts.count - 1] + starts[input + 1] - starts[input])
        }
        var forwardTerms = [UInt32](repeating: 0, count: Int(forwardStarts[forwardStarts.count - 1]))
        // Words `0..<spilledCount` are in the file, the rest in `forward`. The file is read
        // in `passes` slices of inputs, each released once copied: the documents' order
        // jumps across the whole file, which would otherwise be in memory at once.
        let inputCount = starts.count - 1
        let passes = spilled == nil ? 1 : 8
        let spilledWords = spilled.map { UnsafeBufferPointer(start: $0.base.assumingMemoryBound(to: UInt32.self), count: $0.length / 4) }
            ?? UnsafeBufferPointer(start: nil, count: 0)
        forward.withUnsafeBufferPointer { forward in
            forwardTerms.withUnsafeMutableBufferPointer { terms in
                for pass in 0..<passes {
                    let inputs = (inputCount * pass / passes)..<(inputCount * (pass + 1) / passes)
                    for (doc, input) in order.enumerated() where inputs.contains(input) {
                        var target = Int(forwardStarts[doc])
                        for i in Int(starts[input])..<Int(starts[input + 1]) {
                            let term = i < spilledCount ? spilledWords[i] : forward[i - spilledCount]
                            terms[target] = ForwardIndex.isMarker(term) ? term : finalID[Int(term)]
                            target += 1
                        }
                    }
                    if let spilled, !inputs.isEmpty {
                        spilled.release(Int(starts[inputs.lowerBound]) * 4..<Int(starts[inputs.upperBound]) * 4)
                    }
                }
            }
        }
        withExtendedLifetime(spilled) {}
        return (forwardStarts, forwardTerms)
    }
}

/// Words of the forward index written aside while a large index is accumulated, to an
/// unlinked temporary file (gone with the process, whatever happens), and mapped back to be laid
/// out: they are not in memory while the postings are built, the builder's peak (measured:
/// 300 MB of the 1.7 GB a 1M-record import peaked at).
final class ForwardSpill {
    private let descriptor: Int32
    /// Words written.
    private(set) var count = 0

    /// A file beside `path` (named as `TemporaryFile` names them, so one left by a process
    /// killed before it was unlinked is removed at the next open), else in the system's
    /// temporary folder; nil when neither can be made.
    init?(beside path: String?) {
        let candidates: [String?] = [path.map(TemporaryFile.path(besides:)),
                          FileManager.default.temporaryDirectory.appendingPathComponent(
                              "offline-search-forward.\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp").path]
        for case let candidate? in candidates {
            let descriptor = open(candidate, O_RDWR | O_CREAT | O_EXCL, 0o600)
            if descriptor >= 0 {
                unlink(candidate)
                self.descriptor = descriptor
                return
            }
        }
        return nil
    }

    deinit { close(descriptor) }

    /// Appends words; false when the file cannot take them (a full disk).
    func append(_ words: [UInt32]) -> Bool {
        words.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let result = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(count * 4 + done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return false }
                done += result
            }
            count += words.count
            return true
        }
    }

    /// The words written, mapped (or read) into memory.
    func mapped() -> MappedFile? {
        MappedFile(descriptor: descriptor, length: count * 4)
    }
}

/// The columns read from the records' values rather than their words, per input: facet values,
/// numbers for numeric filters, locations, and the values of the document order's criteria.
private struct ValueColumns: Sendable {
    let configuration: IndexConfiguration
    var keys: OrderValues
    var facets: [FacetValues]
    var numerics: [String: NumericValues] = [:]
    var locations: [[GeoPoint]] = []

    /// How many inputs were added (each has its locations, maybe none).
    var count: Int { locations.count }

    /// One facet attribute's values, per input: `starts[i]..<starts[i + 1]` in `values`, each
    /// value once per record (ids in order of first appearance).
    struct FacetValues: Sendable {
        var path: JSONPath
        var interner = StringInterner()
        var starts: [UInt32] = [0]
        var values: [UInt32] = []
    }

    /// The numbers at one path, per input (`starts` closed up to the inputs seen so far).
    struct NumericValues: Sendable {
        var starts: [UInt32] = [0]
        var values: [Double] = []

        mutating func advance(to input: Int) {
            while starts.count <= input { starts.append(UInt32(values.count)) }
        }

        mutating func append(_ number: Double, of input: Int) {
            advance(to: input)
            values.append(number)
        }
    }

    init(configuration: IndexConfiguration) {
        self.configuration = configuration
        keys = OrderValues(criteria: configuration.documentOrder.count)
        facets = configuration.facetAttributes.map { FacetValues(path: $0.lookup) }
    }

    /// A facet's values per input, on average so far.
    private func valuesPerInput(_ facet: FacetValues) -> Double { Double(facet.values.count) / Double(max(count, 1)) }

    /// The bytes an input takes in the columns `reserve` sizes, on average so far: per facet,
    /// its start and its value ids.
    var bytesPerInput: Int {
        facets.reduce(0) { $0 + MemoryLayout<UInt32>.size * (1 + Int(valuesPerInput($1).rounded(.up))) }
    }

    /// Room for `inputs` inputs in all, with as many facet values each as the inputs so far.
    mutating func reserve(inputs: Int) {
        guard count > 0, inputs > count else { return }
        for f in facets.indices {
            facets[f].starts.reserveCapacity(inputs + 1)
            facets[f].values.reserveCapacity(Int(valuesPerInput(facets[f]) * Double(inputs)))
        }
    }

    mutating func add(_ batch: [SnapshotBuilder.Input]) {
        let criteria = configuration.documentOrder
        var seen: [UInt32] = []
        var scalars: [JSONValue] = []
        for input in batch {
            let record = input.record
            if !criteria.isEmpty { keys.append(record, criteria: criteria) }
            for f in facets.indices {
                seen.removeAll(keepingCapacity: true)
                scalars.removeAll(keepingCapacity: true)
                RecordValues.appendScalars(at: facets[f].path, in: record, to: &scalars)
                for scalar in scalars {
                    guard let text = scalar.scalarText else { continue }
                    let id = facets[f].interner.id(of: text)
                    if !seen.contains(id) { seen.append(id) }  // each value once per record
                }
                facets[f].values.append(contentsOf: seen)
                facets[f].starts.append(UInt32(facets[f].values.count))
            }
            let position = count
            RecordValues.forEachNumber(in: record) { path, number in
                numerics[path, default: NumericValues()].append(number, of: position)
            }
            locations.append(GeoPoint.locations(of: record))
        }
    }

    /// The columns in document order (`order`: input positions).
    func finish(order: [Int]) -> (facets: [FacetColumn], numerics: [String: NumericColumn], geo: GeoIndex) {
        let facetColumns = facets.map { facet in
            // Value ids renumbered in order of first appearance in the documents kept.
            let strings = facet.interner.strings
            var newID = [UInt32](repeating: .max, count: strings.count)
            var values: [String] = []
            var docStarts: [UInt32] = [0]
            docStarts.reserveCapacity(order.count + 1)
            var docValues: [UInt32] = []
            for input in order {
                for i in Int(facet.starts[input])..<Int(facet.starts[input + 1]) {
                    let old = Int(facet.values[i])
                    if newID[old] == .max {
                        newID[old] = UInt32(values.count)
                        values.append(strings[old])
                    }
                    docValues.append(newID[old])
                }
                docStarts.append(UInt32(docValues.count))
            }
            return FacetColumn(path: facet.path.text, values: values, docStarts: docStarts, docValues: docValues)
        }
        var numericColumns: [String: NumericColumn] = [:]
        for (path, column) in numerics {
            var column = column
            column.advance(to: count)
            var docStarts: [UInt32] = [0]
            docStarts.reserveCapacity(order.count + 1)
            var values: [Double] = []
            for input in order {
                values.append(contentsOf: column.values[Int(column.starts[input])..<Int(column.starts[input + 1])])
                docStarts.append(UInt32(values.count))
            }
            // A path only superseded records held has no column, as in an index built without them.
            if !values.isEmpty { numericColumns[path] = NumericColumn(docStarts: docStarts, values: values) }
        }
        return (facetColumns, numericColumns, GeoIndex(locations: order.map { locations[$0] }))
    }
}

extension FacetColumn {
    /// A column from each document's value ids (`docStarts`/`docValues`, in document order):
    /// each value's documents (`valueStarts`/`valueDocs`) are derived.
    init(path: String, values: [String], docStarts: [UInt32], docValues: [UInt32]) {
        var valueStarts = [UInt32](repeating: 0, count: values.count + 1)
        for value in docValues { valueStarts[Int(value) + 1] += 1 }
        for i in 0..<values.count { valueStarts[i + 1] += valueStarts[i] }
        var cursor = valueStarts
        var valueDocs = [UInt32](repeating: 0, count: docValues.count)
        for doc in 0..<(docStarts.count - 1) {
            for i in Int(docStarts[doc])..<Int(docStarts[doc + 1]) {
                let value = Int(docValues[i])
                valueDocs[Int(cursor[value])] = UInt32(doc)
                cursor[value] += 1
            }
        }
        self.init(path: path, values: values, docStarts: docStarts, docValues: docValues,
                  valueStarts: valueStarts, valueDocs: valueDocs)
    }
}
