import SearchAPI

/// The values of one faceted attribute, both ways: each document's values, and each value's
/// documents. Values are distinct by their exact text, as Algolia counts them.
struct FacetColumn: Sendable {
    let path: String
    /// Value id → the value as shown (`"Apple"`, `"true"`, `"4.5"`).
    let values: StringTable
    /// Value id → the value as a number, or NaN when it is not numeric (for `facets_stats`).
    let numbers: [Double]
    /// `docStarts[d]..<docStarts[d + 1]` index `docValues`: document → value ids.
    let docStarts: FlatArray<UInt32>
    let docValues: FlatArray<UInt32>
    /// `valueStarts[v]..<valueStarts[v + 1]` index `valueDocs`: value → sorted documents.
    let valueStarts: [UInt32]
    let valueDocs: FlatArray<UInt32>
    /// Value ids sorted by their facet key (`Tokenizer.facetKey`: case- and
    /// diacritic-insensitive), so a facet filter finds its values by binary search.
    let idsByKey: [UInt32]
    /// Each document's value ids in one word, for counting (nil when they do not fit one).
    let slots: FacetSlots?

    /// A column from its values and postings; derives `numbers` and `idsByKey` (at build time;
    /// a stored column is read back with them), and its slots when they are larger than
    /// `FacetSlots.batchedBytes`, unless `slots` is false (then `withSlots(largerThan:)` adds
    /// them later).
    init(path: String, values: [String], docStarts: [UInt32], docValues: [UInt32], valueStarts: [UInt32], valueDocs: [UInt32],
         slots: Bool = true) {
        let keys = values.map(Tokenizer.facetKey)
        let idsByKey = values.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }.map { UInt32($0) }
        self.init(path: path, values: StringTable(values), numbers: values.map { Double($0) ?? .nan }, docStarts: FlatArray(docStarts),
                  docValues: FlatArray(docValues), valueStarts: valueStarts, valueDocs: FlatArray(valueDocs), idsByKey: idsByKey,
                  slots: nil)
        if slots { self = withSlots(largerThan: FacetSlots.batchedBytes) }
    }

    /// The column with slots made from its values (none when its values do not fit them, or
    /// they would take `minimumBytes` or fewer).
    func withSlots(largerThan minimumBytes: Int = 0) -> FacetColumn {
        // Words are at most 8 bytes: a smaller column (every write's own segment) is not scanned.
        let slots = (docStarts.count - 1) * 8 <= minimumBytes ? nil : docStarts.withUnsafeBufferPointer { starts in
            docValues.withUnsafeBufferPointer { FacetSlots(valueCount: values.count, docStarts: starts, docValues: $0, largerThan: minimumBytes) }
        }
        return FacetColumn(path: path, values: values, numbers: numbers, docStarts: docStarts, docValues: docValues,
                           valueStarts: valueStarts, valueDocs: valueDocs, idsByKey: idsByKey, slots: slots)
    }

    init(path: String, values: StringTable, numbers: [Double], docStarts: FlatArray<UInt32>, docValues: FlatArray<UInt32>,
         valueStarts: [UInt32], valueDocs: FlatArray<UInt32>, idsByKey: [UInt32], slots: FacetSlots?) {
        self.path = path
        self.values = values
        self.numbers = numbers
        self.docStarts = docStarts
        self.docValues = docValues
        self.valueStarts = valueStarts
        self.valueDocs = valueDocs
        self.idsByKey = idsByKey
        self.slots = slots
    }

    /// The ids of the values equal to `value` when compared case- and diacritic-insensitively.
    /// - Complexity: O(log v) facet-key computations.
    func ids(matching value: String) -> ArraySlice<UInt32> {
        let key = Array(Tokenizer.facetKey(value).utf8)
        func precedes(_ id: UInt32) -> Bool { Tokenizer.facetKey(values[Int(id)]).utf8.lexicographicallyPrecedes(key) }
        func equals(_ id: UInt32) -> Bool { Tokenizer.facetKey(values[Int(id)]).utf8.elementsEqual(key) }
        var low = 0, high = idsByKey.count
        while low < high {
            let mid = (low + high) >> 1
            if precedes(idsByKey[mid]) { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < idsByKey.count, equals(idsByKey[end]) { end += 1 }
        return idsByKey[low..<end]
    }

    /// Documents that have value `id`.
    func documents(of id: Int) -> Slice<FlatArray<UInt32>> { valueDocs[Int(valueStarts[id])..<Int(valueStarts[id + 1])] }
    func count(of id: Int) -> Int { Int(valueStarts[id + 1] - valueStarts[id]) }
    /// True when every value is a number: the facet gets `facets_stats`.
    var isNumeric: Bool { !numbers.isEmpty && !numbers.contains { $0.isNaN } }
}

/// What a posting records about a term in a document: the searchable levels where it occurs
/// (bit `l` for level `l`; levels from 14 on share bit 14) and whether it alone makes up a whole
/// attribute value (for the `exact` criterion on one-word queries).
enum PostingMask {
    static let wholeValue: UInt16 = 0x8000
    static let levels: UInt16 = 0x7FFF

    static func bit(forLevel level: Int) -> UInt16 { 1 << UInt16(min(level, 14)) }

    /// The best (lowest) level among `mask`'s level bits.
    static func bestLevel(_ mask: UInt16) -> Int { (mask & levels).trailingZeroBitCount }

    /// The level bits of `levels` (searchable levels), as a mask.
    static func mask(forLevels levels: some Sequence<Int>) -> UInt16 {
        levels.reduce(0) { $0 | bit(forLevel: $1) }
    }
}

/// Where a word occurs first, as one number that orders occurrences the way the `attribute`
/// criterion does: `level << 10 | position`, the best (lowest) level first, then the earliest
/// position inside that level's attribute (0 in an unordered one). Positions from 999 on count
/// as 999, and levels from 14 on as 14 (as in `PostingMask`).
enum PostingRank {
    static let maxPosition = 999
    static let unmatched = UInt16.max

    static func rank(level: Int, position: Int) -> UInt16 {
        UInt16(min(level, 14)) << 10 | UInt16(min(position, maxPosition))
    }

    static func level(of rank: UInt16) -> Int { Int(rank >> 10) }
    static func position(of rank: UInt16) -> UInt16 { rank & 0x3FF }
}

/// The first position of each posting (see `PostingRank`), stored for the postings where it is
/// not 0 only: most postings are in unordered attributes or at the start of a short one, so a
/// dense array would mostly hold zeros. A bitmap marks the stored postings, and a count per
/// bitmap word finds a posting's slot.
struct PostingPositions: Sendable {
    /// Bit `i`: posting `i` has a stored position.
    let present: [UInt64]
    /// `before[w]`: stored positions for the postings before bitmap word `w`.
    let before: [UInt32]
    let positions: [UInt16]

    init(present: [UInt64], before: [UInt32], positions: [UInt16]) {
        self.present = present
        self.before = before
        self.positions = positions
    }

    /// From one position per posting.
    init(dense: [UInt16]) {
        var present = [UInt64](repeating: 0, count: (dense.count + 63) >> 6)
        var before = [UInt32](repeating: 0, count: present.count)
        var positions: [UInt16] = []
        for (posting, position) in dense.enumerated() where position != 0 {
            present[posting >> 6] |= 1 << UInt64(posting & 63)
            positions.append(position)
        }
        var total: UInt32 = 0
        for word in present.indices {
            before[word] = total
            total += UInt32(present[word].nonzeroBitCount)
        }
        if positions.isEmpty { (present, before) = ([], []) }
        self.init(present: present, before: before, positions: positions)
    }

    @inline(__always)
    func position(ofPosting posting: Int) -> UInt16 {
        let word = posting >> 6
        guard word < present.count, present[word] >> UInt64(posting & 63) & 1 != 0 else { return 0 }
        return positions[slot(ofPosting: posting)]
    }

    /// Where the position of `posting`, or of the first posting after it with one, is stored
    /// (`positions.count` when there is none).
    @inline(__always)
    private func slot(ofPosting posting: Int) -> Int {
        let word = posting >> 6
        guard word < present.count else { return positions.count }
        return Int(before[word]) + (present[word] & ((1 << UInt64(posting & 63)) - 1)).nonzeroBitCount
    }

    /// Calls `body` with a cursor at `posting`, which reads the positions of the postings from
    /// there one after another: a posting's slot is then the slot after the last one stored,
    /// not counted from the bitmap (without a population-count instruction, which builds for
    /// any x86-64 do not use, counting is a dozen instructions a posting).
    func withCursor<Result>(at posting: Int, _ body: (inout Cursor) -> Result) -> Result {
        present.withUnsafeBufferPointer { present in
            positions.withUnsafeBufferPointer { positions in
                var cursor = Cursor(present: present, positions: positions, posting: posting, slot: slot(ofPosting: posting))
                return body(&cursor)
            }
        }
    }

    /// Consecutive postings' positions (`withCursor`).
    struct Cursor {
        fileprivate let present: UnsafeBufferPointer<UInt64>
        fileprivate let positions: UnsafeBufferPointer<UInt16>
        fileprivate var posting: Int
        /// The slot of the next stored position.
        fileprivate var slot: Int

        /// The position of the posting at the cursor (0 when none is stored); the cursor moves
        /// to the next posting.
        @inline(__always)
        mutating func next() -> UInt16 {
            let word = posting &>> 6, bit = UInt64(truncatingIfNeeded: posting & 63)
            posting &+= 1
            guard word < present.count, present[word] &>> bit & 1 != 0, slot < positions.count else { return 0 }
            slot &+= 1
            return positions[slot &- 1]
        }
    }
}

/// Each document's searchable words in order (term ids), each attribute value preceded by a
/// marker naming its searchable attribute: what proximity is computed from.
struct ForwardIndex: Sendable {
    /// Markers are the top ids, far above any term id: `UInt32.max - attribute ordinal`.
    static let maxAttributes = 4096
    static func marker(attribute ordinal: Int) -> UInt32 { UInt32.max - UInt32(min(ordinal, maxAttributes - 1)) }
    @inline(__always) static func isMarker(_ term: UInt32) -> Bool { term > UInt32.max - UInt32(maxAttributes) }
    @inline(__always) static func attribute(ofMarker marker: UInt32) -> Int { Int(UInt32.max - marker) }
    /// `starts[d]..<starts[d + 1]` index `terms` for document `d`.
    let starts: [UInt32]
    let terms: FlatArray<UInt32>

    /// Whether document `document` has the words of `sequence` side by side, in order.
    func contains(_ sequence: [UInt32], in document: Int) -> Bool {
        guard let first = sequence.first else { return true }
        let end = Int(starts[document + 1])
        return terms.withUnsafeBufferPointer { terms in
            var index = Int(starts[document])
            while index + sequence.count <= end {
                if terms[index] == first {
                    var offset = 1
                    while offset < sequence.count, terms[index + offset] == sequence[offset] { offset += 1 }
                    if offset == sequence.count { return true }
                }
                index += 1
            }
            return false
        }
    }
}

/// Every number found under one attribute path: document → values.
struct NumericColumn: Sendable {
    let docStarts: [UInt32]
    let values: [Double]
}

/// The in-memory index derived from the stored records: what makes a query fast. It is
/// immutable: a write builds a new snapshot and swaps it in, so a search never sees half of
/// a write.
///
/// Documents are dense ordinals sorted by `customRanking` (ties by insertion order), so within
/// a relevance tier, increasing ordinals are already the custom-ranking order.
final class IndexSnapshot: Sendable {
    let configuration: IndexConfiguration
    /// The matches of query words, kept for the next keystrokes and searches (`WordMatchCache`).
    let wordMatches: WordMatchCache
    /// Facet counts over large sets of matches, kept for the next searches that match the same
    /// documents (`FacetCountCache`).
    let facetCounts: FacetCountCache
    /// The store's generation this snapshot was built from.
    let generation: Int64
    let documentCount: Int
    /// Document → `records.rowid` in the store.
    let rowIDs: [Int64]
    /// The largest of `rowIDs` (0 without documents): a rowid above it is not here.
    let largestRowID: Int64
    let terms: TermTable
    /// `postingStarts[t]..<postingStarts[t + 1]` index `postingDocs` and `postingMasks`.
    let postingStarts: [UInt32]
    let postingDocs: FlatArray<UInt32>
    /// Where the term occurs in that document (see `PostingMask`).
    let postingMasks: FlatArray<UInt16>
    /// The term's first position inside the attribute of its best level, in that document (0 in
    /// an unordered attribute; see `PostingRank`).
    let postingPositions: PostingPositions
    /// A sort replica's runs of documents with equal sort values: `sortRuns[r]..<sortRuns[r + 1]`
    /// (empty without `asc`/`desc` leading `ranking`). Relevance orders each run.
    let sortRuns: [UInt32]
    /// Each document's words in order, for proximity.
    let forward: ForwardIndex
    /// In `configuration.facetAttributes` order.
    let facets: [FacetColumn]
    let numerics: [String: NumericColumn]
    /// Each document's values of `configuration.documentOrder`, to order documents of two
    /// segments (empty without sort or custom ranking).
    let orderKeys: DocumentOrderKeys
    /// The documents' `_geoloc` locations, for geo search.
    let geo: GeoIndex
    /// The shortest prefixes' postings, collected ahead: read from the derived file (a snapshot
    /// built in memory has none until it is written and mapped).
    let prefixPostings: PrefixPostings

    init(configuration: IndexConfiguration, generation: Int64, rowIDs: [Int64], terms: TermTable,
         postingStarts: [UInt32], postingDocs: FlatArray<UInt32>, postingMasks: FlatArray<UInt16>, postingPositions: PostingPositions,
         sortRuns: [UInt32], forward: ForwardIndex, facets: [FacetColumn], numerics: [String: NumericColumn], orderKeys: DocumentOrderKeys,
         geo: GeoIndex, prefixPostings: PrefixPostings = .none) {
        self.configuration = configuration
        self.generation = generation
        self.documentCount = rowIDs.count
        self.wordMatches = WordMatchCache(documentCount: rowIDs.count)
        self.facetCounts = FacetCountCache(documentCount: rowIDs.count)
        self.rowIDs = rowIDs
        self.largestRowID = rowIDs.max() ?? 0
        self.terms = terms
        self.postingStarts = postingStarts
        self.postingDocs = postingDocs
        self.postingMasks = postingMasks
        self.postingPositions = postingPositions
        self.sortRuns = sortRuns
        self.forward = forward
        self.facets = facets
        self.numerics = numerics
        self.orderKeys = orderKeys
        self.geo = geo
        self.prefixPostings = prefixPostings
    }

    /// Bounds this snapshot's caches to `bytes` together (`SearchEngine.searchCacheSize`): a
    /// sixteenth for the facet counts, the rest for the words' matches. Without it, each cache
    /// has a budget by the snapshot's size (`WordMatchCache.matchBudget`, `FacetCountCache`).
    func limitCaches(to bytes: Int) {
        let bytes = max(0, bytes)
        facetCounts.setByteBudget(bytes / 16)
        wordMatches.setByteBudget(bytes - bytes / 16)
    }

    func facetColumn(_ path: String) -> FacetColumn? { facets.first { $0.path == path } }

    /// How many postings the terms of `range` have together.
    func postingCount(of range: Range<Int>) -> Int {
        range.isEmpty ? 0 : Int(postingStarts[range.upperBound]) - Int(postingStarts[range.lowerBound])
    }

    /// Each facet column's value ids by their exact text, made when first asked for (a search
    /// over several segments counts the later segments' values into this snapshot's).
    private let valueIDCache = LockedValue<[String: [String: UInt32]]>([:])

    func valueIDs(_ column: FacetColumn) -> [String: UInt32] {
        valueIDCache.modify { cache in
            if let known = cache[column.path] { return known }
            var ids: [String: UInt32] = [:]
            ids.reserveCapacity(column.values.count)
            for id in column.values.indices { ids[column.values[id]] = UInt32(id) }
            cache[column.path] = ids
            return ids
        }
    }

    // MARK: Persistence

    /// Bumped when the payload changes, or what it holds does (9: `Tokenizer.version` 2; 10: the
    /// document order's values; 11: the locations; 12: arrays aligned, so they can be mapped;
    /// 13: `Tokenizer.version` 3; 14: `Tokenizer.version` 4; 15: the prefixes' postings; 16: the facet
    /// columns' slots).
    static let formatVersion: UInt32 = 16

    func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        encode(into: &writer)
        return writer.bytes
    }

    func encode(into writer: inout BinaryWriter) {
        IndexSnapshot.encodeHead(configuration: configuration, generation: generation, rowIDs: rowIDs, terms: terms,
                                 postingStarts: postingStarts, postingDocs: postingDocs, postingMasks: postingMasks,
                                 postingPositions: postingPositions, into: &writer)
        encodeTail(into: &writer)
    }

    /// The payload's first part: what a snapshot being laid out has once its posting lists are
    /// (`SnapshotAccumulator` writes it while the forward index is laid out).
    static func encodeHead(configuration: IndexConfiguration, generation: Int64, rowIDs: [Int64], terms: TermTable,
                           postingStarts: [UInt32], postingDocs: FlatArray<UInt32>, postingMasks: FlatArray<UInt16>,
                           postingPositions: PostingPositions, into writer: inout BinaryWriter) {
        writer.write(IndexSnapshot.formatVersion)
        writer.write(generation)
        writer.write(IndexConfiguration.derivedFingerprint(configuration.settings))
        writer.write(array: rowIDs)
        writer.write(array: terms.bytes)
        writer.write(array: terms.starts)
        writer.write(array: postingStarts)
        writer.write(array: postingDocs)
        writer.write(array: postingMasks)
        writer.write(array: postingPositions.present)
        writer.write(array: postingPositions.before)
        writer.write(array: postingPositions.positions)
    }

    /// The rest of the payload, after `encodeHead`.
    func encodeTail(into writer: inout BinaryWriter) {
        writer.write(array: sortRuns)
        writer.write(array: forward.starts)
        writer.write(array: forward.terms)
        writer.write(UInt64(facets.count))
        for facet in facets {
            writer.write(facet.path)
            writer.write(array: facet.values.bytes)
            writer.write(array: facet.values.starts)
            writer.write(array: facet.numbers)
            writer.write(array: facet.docStarts)
            writer.write(array: facet.docValues)
            writer.write(array: facet.valueStarts)
            writer.write(array: facet.valueDocs)
            writer.write(array: facet.idsByKey)
            // No slots: an id width of 0.
            writer.write(UInt64(facet.slots?.idBits ?? 0))
            writer.write(UInt64(facet.slots?.idsPerDocument ?? 0))
            writer.write(array: facet.slots?.bytes ?? FlatArray([]))
        }
        writer.write(UInt64(numerics.count))
        for path in numerics.keys.sorted() {
            writer.write(path)
            writer.write(array: numerics[path]!.docStarts)
            writer.write(array: numerics[path]!.values)
        }
        writer.write(UInt64(orderKeys.criteriaCount))
        for c in 0..<orderKeys.criteriaCount {
            writer.write(array: orderKeys.kinds[c])
            writer.write(array: orderKeys.numbers[c])
            writer.write(array: orderKeys.texts[c].bytes)
            writer.write(array: orderKeys.texts[c].starts)
        }
        writer.write(array: geo.docStarts)
        writer.write(array: geo.lats)
        writer.write(array: geo.lngs)
        writer.write(array: geo.pointDocs)
        writer.write(array: geo.gridOrder)
        writer.write(array: geo.rowStarts)
        PrefixPostings.encode(of: self, into: &writer)
    }

    /// Reads a stored snapshot; nil when it is from another format, another generation or
    /// other settings (the caller then rebuilds it from the records).
    static func decode<Reader: SnapshotReader>(from reader: inout Reader, configuration: IndexConfiguration, generation: Int64) -> IndexSnapshot? {
        do {
            guard try reader.read(UInt32.self) == formatVersion,
                  try reader.read(Int64.self) == generation,
                  // Byte for byte: `==` would take a canonically equivalent `separatorsToIndex` as the same.
                  try reader.readString().utf8.elementsEqual(IndexConfiguration.derivedFingerprint(configuration.settings).utf8)
            else { return nil }
            let rowIDs: [Int64] = try reader.readArray()
            let terms = TermTable(bytes: try reader.readArray(), starts: try reader.readArray())
            let postingStarts: [UInt32] = try reader.readArray()
            let postingDocs: FlatArray<UInt32> = try reader.readFlatArray()
            let postingMasks: FlatArray<UInt16> = try reader.readFlatArray()
            let postingPositions = PostingPositions(present: try reader.readArray(), before: try reader.readArray(),
                                                    positions: try reader.readArray())
            let sortRuns: [UInt32] = try reader.readArray()
            let forward = ForwardIndex(starts: try reader.readArray(), terms: try reader.readFlatArray())
            var facets: [FacetColumn] = []
            for _ in 0..<(try reader.read(UInt64.self)) {
                let path = try reader.readString()
                let values = StringTable(bytes: try reader.readArray(), starts: try reader.readArray())
                let numbers: [Double] = try reader.readArray()
                let docStarts: FlatArray<UInt32> = try reader.readFlatArray()
                let docValues: FlatArray<UInt32> = try reader.readFlatArray()
                let valueStarts: [UInt32] = try reader.readArray()
                let valueDocs: FlatArray<UInt32> = try reader.readFlatArray()
                let idsByKey: [UInt32] = try reader.readArray()
                let idBits = try reader.read(UInt64.self), idsPerDocument = try reader.read(UInt64.self)
                let slotBytes: FlatArray<UInt8> = try reader.readFlatArray()
                var slots: FacetSlots?
                if idBits == 0 {
                    // No slots: written as 0, 0 and no bytes.
                    guard idsPerDocument == 0, slotBytes.isEmpty else { return nil }
                } else {
                    // Checked before they become `Int`s: a damaged header is rejected, not trapped on.
                    guard idBits <= 16, idsPerDocument <= 8,
                          let stored = FacetSlots(idBits: Int(idBits), idsPerDocument: Int(idsPerDocument), bytes: slotBytes,
                                                  documentCount: rowIDs.count)
                    else { return nil }
                    slots = stored
                }
                facets.append(FacetColumn(path: path, values: values, numbers: numbers, docStarts: docStarts, docValues: docValues,
                                          valueStarts: valueStarts, valueDocs: valueDocs, idsByKey: idsByKey, slots: slots))
            }
            var numerics: [String: NumericColumn] = [:]
            for _ in 0..<(try reader.read(UInt64.self)) {
                let path = try reader.readString()
                numerics[path] = NumericColumn(docStarts: try reader.readArray(), values: try reader.readArray())
            }
            var kinds: [[UInt8]] = [], numbers: [[Double]] = [], texts: [StringTable] = []
            for _ in 0..<(try reader.read(UInt64.self)) {
                kinds.append(try reader.readArray())
                numbers.append(try reader.readArray())
                texts.append(StringTable(bytes: try reader.readArray(), starts: try reader.readArray()))
            }
            let orderKeys = DocumentOrderKeys(kinds: kinds, numbers: numbers, texts: texts)
            let geo = GeoIndex(docStarts: try reader.readArray(), lats: try reader.readArray(), lngs: try reader.readArray(),
                               pointDocs: try reader.readArray(), gridOrder: try reader.readArray(), rowStarts: try reader.readArray())
            guard let prefixPostings = try PrefixPostings.decode(from: &reader, documentCount: rowIDs.count, termCount: terms.count,
                                                                 levelCount: configuration.levelCount,
                                                                 tracksPositions: configuration.orderedLevelMask != 0)
            else { return nil }
            // Offsets into the large (mapped) arrays: increasing and ending at their sizes, so a
            // slice they make never reaches past an array.
            func areOffsets(_ starts: UnsafeBufferPointer<UInt32>, into count: Int) -> Bool {
                guard starts.first == 0, Int(starts.last!) == count else { return false }
                var previous: UInt32 = 0
                for start in starts {
                    guard start >= previous else { return false }
                    previous = start
                }
                return true
            }
            guard postingStarts.withUnsafeBufferPointer({ areOffsets($0, into: postingDocs.count) }),
                  forward.starts.withUnsafeBufferPointer({ areOffsets($0, into: forward.terms.count) }),
                  facets.allSatisfy({ column in
                      column.valueStarts.withUnsafeBufferPointer { areOffsets($0, into: column.valueDocs.count) }
                          && column.docStarts.count == rowIDs.count + 1
                          // Read without bounds checks when counting: each document's range within `docValues`.
                          && column.docStarts.withUnsafeBufferPointer { areOffsets($0, into: column.docValues.count) }
                  })
            else { return nil }
            guard terms.starts.count >= 1, postingStarts.count == terms.count + 1,
                  postingMasks.count == postingDocs.count, postingPositions.present.count == postingPositions.before.count,
                  postingPositions.present.isEmpty || postingPositions.present.count == (postingDocs.count + 63) >> 6, forward.starts.count == rowIDs.count + 1,
                  sortRuns.isEmpty || sortRuns.last == UInt32(rowIDs.count),
                  facets.map(\.path) == configuration.facetAttributes.map(\.path),
                  kinds.count == configuration.documentOrder.count,
                  kinds.allSatisfy({ $0.count == rowIDs.count }), numbers.allSatisfy({ $0.count == rowIDs.count }),
                  zip(kinds, texts).allSatisfy({ kind, text in text.count == (kind.contains(2) ? rowIDs.count : 0) }),
                  geo.isConsistent(documentCount: rowIDs.count)
            else { return nil }
            return IndexSnapshot(configuration: configuration, generation: generation, rowIDs: rowIDs, terms: terms,
                                 postingStarts: postingStarts, postingDocs: postingDocs, postingMasks: postingMasks, postingPositions: postingPositions, sortRuns: sortRuns, forward: forward,
                                 facets: facets, numerics: numerics, orderKeys: orderKeys, geo: geo, prefixPostings: prefixPostings)
        } catch {
            return nil
        }
    }
}
