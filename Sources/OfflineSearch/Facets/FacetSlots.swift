import CPrefetch

/// A facet column's value ids per document packed into one small word each, for counting.
///
/// `FacetColumn` keeps each document's values as a range of `docValues` found through
/// `docStarts`: two 4-byte reads per document, the second waiting on the first. Counting a
/// large index's facets reads a few thousand documents far apart, each two waits on memory
/// (at 1M records, the largest share of a median request). Most facets have few values per
/// document and few distinct values (a brand: one of a few hundred; categories: up to five of a
/// few dozen), so the ids of a document fit in one word of 1, 2, 4 or 8 bytes: one read, which
/// a pass can start for many documents at once. A pass also reads 2–8 times fewer bytes
/// (`brand` at 1M: 2 MB of slots instead of 8 MB of starts and values; `categories`: 8 instead
/// of 16). The slots are kept beside `docStarts` and `docValues`, which filters and merges read.
///
/// Each id is stored plus one, from the word's low bits up; a document with fewer ids than the
/// column's most has zeros in the rest of its word. A column has no slots, and is counted from
/// `docStarts`, when it has more than 65,535 distinct values, when a document has more ids than
/// a word of 8 bytes holds, or when its slots would fit a core's cache (`batchedBytes`).
struct FacetSlots: Sendable {
    /// Bits of one stored id: 8 or 16.
    let idBits: Int
    /// The most ids a document has (at least 1): the slots of each word.
    let idsPerDocument: Int
    /// Bytes of one document's word: 1, 2, 4 or 8, the fewest that hold `idsPerDocument` ids.
    let stride: Int
    /// `stride` bytes a document, little-endian.
    let bytes: FlatArray<UInt8>

    /// The slots of a column of `valueCount` distinct values, or nil when they do not fit or
    /// would take `minimumBytes` or fewer.
    /// - Complexity: O(documents).
    init?(valueCount: Int, docStarts: UnsafeBufferPointer<UInt32>, docValues: UnsafeBufferPointer<UInt32>, largerThan minimumBytes: Int = 0) {
        let documentCount = docStarts.count - 1
        guard documentCount >= 0 else { return nil }
        let idBits: Int
        switch valueCount {
        case ..<256: idBits = 8
        case ..<65_536: idBits = 16
        default: return nil
        }
        var mostIDs = 1
        for document in 0..<documentCount { mostIDs = max(mostIDs, Int(docStarts[document + 1]) - Int(docStarts[document])) }
        guard let stride = FacetSlots.stride(idBits: idBits, idsPerDocument: mostIDs), documentCount * stride > minimumBytes else { return nil }
        let bytes = [UInt8](unsafeUninitializedCapacity: documentCount * stride) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            @inline(__always) func fill<Word: FixedWidthInteger & UnsignedInteger>(_: Word.Type) {
                for document in 0..<documentCount {
                    let start = Int(docStarts[document]), end = Int(docStarts[document + 1])
                    var word: UInt64 = 0
                    for i in Swift.stride(from: end - 1, through: start, by: -1) {
                        word = word << UInt64(idBits) | (UInt64(docValues[i]) + 1)
                    }
                    raw.storeBytes(of: Word(truncatingIfNeeded: word).littleEndian, toByteOffset: document * stride, as: Word.self)
                }
            }
            switch stride {
            case 1: fill(UInt8.self)
            case 2: fill(UInt16.self)
            case 4: fill(UInt32.self)
            default: fill(UInt64.self)
            }
            initialized = documentCount * stride
        }
        self.init(idBits: idBits, idsPerDocument: mostIDs, stride: stride, bytes: FlatArray(bytes))
    }

    /// Slots read back from a derived file; nil when their shape does not fit `documentCount`.
    init?(idBits: Int, idsPerDocument: Int, bytes: FlatArray<UInt8>, documentCount: Int) {
        guard idBits == 8 || idBits == 16, idsPerDocument >= 1,
              let stride = FacetSlots.stride(idBits: idBits, idsPerDocument: idsPerDocument),
              bytes.count == documentCount * stride else { return nil }
        self.init(idBits: idBits, idsPerDocument: idsPerDocument, stride: stride, bytes: bytes)
    }

    private init(idBits: Int, idsPerDocument: Int, stride: Int, bytes: FlatArray<UInt8>) {
        (self.idBits, self.idsPerDocument, self.stride, self.bytes) = (idBits, idsPerDocument, stride, bytes)
    }

    /// The bytes of a word of `idsPerDocument` ids of `idBits` each, nil over 8.
    private static func stride(idBits: Int, idsPerDocument: Int) -> Int? {
        guard idBits > 0, idsPerDocument <= 64 / idBits else { return nil }
        var stride = 1
        while stride * 8 < idsPerDocument * idBits { stride *= 2 }
        return stride
    }

    /// Adds `step` to `counts[id]` for each value id of each document whose bit is set in
    /// `bits(i)` (the bitmap word of documents `64 i ..< 64 i + 64`), for `i` in `0..<wordCount`.
    /// `ahead`: whether each document's word is asked for a batch before it is counted (for a
    /// pass over few documents far apart; see `FacetSlots.batchSize`). An id outside `counts`
    /// (a damaged file) traps rather than writes outside it.
    func add(wordCount: Int, step: Int, to counts: UnsafeMutableBufferPointer<Int>, ahead: Bool, bits: (Int) -> UInt64) {
        // Every slot of a word is counted, an empty one (0) in place 0, so that a document
        // costs the same steps whatever its number of ids: a loop that ends with the ids
        // made the processor mispredict its end at most documents.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: counts.count + 1) { tally in
            tally.initialize(repeating: 0)
            switch stride {
            case 1: add(UInt8.self, wordCount: wordCount, step: step, to: tally, ahead: ahead, bits: bits)
            case 2: add(UInt16.self, wordCount: wordCount, step: step, to: tally, ahead: ahead, bits: bits)
            case 4: add(UInt32.self, wordCount: wordCount, step: step, to: tally, ahead: ahead, bits: bits)
            default: add(UInt64.self, wordCount: wordCount, step: step, to: tally, ahead: ahead, bits: bits)
            }
            for id in counts.indices { counts[id] &+= tally[id + 1] }
        }
    }

    /// A column gets slots only when they take more bytes than this, and slots this large are
    /// counted ahead in a sparse pass: more than a core's second-level cache (1 MiB here).
    /// Smaller columns stay in the caches, where reading `docStarts` costs no more: at 100k
    /// records (slots of 0.2 and 0.8 MB), counting from slots was even with the columns in the
    /// harness, for a larger file and slots made in every write's small segment. At 1M (2 and
    /// 8 MB), counting without asking ahead spent 10–20 % more time in facet counts.
    static let batchedBytes = 1 << 20

    /// Documents asked for at once when counting ahead: asked for a batch before they are
    /// counted, the reads of a batch overlap (a core has a dozen or more in flight). Not tuned
    /// (32 counted the same as 16).
    static let batchSize = 16

    /// `add` into `tally`: place `id + 1` counts value `id`, place 0 the empty slots.
    @inline(__always)
    private func add<Word: FixedWidthInteger & UnsignedInteger>(_: Word.Type, wordCount: Int, step: Int,
                                                                to tally: UnsafeMutableBufferPointer<Int>, ahead: Bool,
                                                                bits: (Int) -> UInt64) {
        let idBits = UInt64(self.idBits)
        let mask: UInt64 = (1 << idBits) - 1
        let size = MemoryLayout<Word>.size
        let slots = idsPerDocument
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            @inline(__always) func count(_ document: Int) {
                precondition(document >= 0 && (document + 1) * size <= raw.count, "facet slot out of range")
                var ids = UInt64(Word(littleEndian: base.loadUnaligned(fromByteOffset: document &* size, as: Word.self)))
                for _ in 0..<slots {
                    let place = Int(ids & mask)
                    precondition(place < tally.count, "facet slot id out of range")
                    tally[place] &+= step
                    ids >>= idBits
                }
            }
            guard ahead else {
                for index in 0..<wordCount {
                    var documents = bits(index)
                    while documents != 0 {
                        count(index << 6 | documents.trailingZeroBitCount)
                        documents &= documents &- 1
                    }
                }
                return
            }
            // Two batches end to end: the one being filled (its words asked for), and the one
            // filled before it, counted when this one is full (its words have come meanwhile).
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * FacetSlots.batchSize) { pending in
                var filling = 0, held = 0, previousIsFull = false
                for index in 0..<wordCount {
                    var documents = bits(index)
                    while documents != 0 {
                        let document = index << 6 | documents.trailingZeroBitCount
                        documents &= documents &- 1
                        cprefetch_read(base + min(document &* size, raw.count - 1))
                        pending[filling &* FacetSlots.batchSize &+ held] = document
                        held &+= 1
                        guard held == FacetSlots.batchSize else { continue }
                        filling ^= 1
                        held = 0
                        if previousIsFull {
                            for slot in 0..<FacetSlots.batchSize { count(pending[filling &* FacetSlots.batchSize &+ slot]) }
                        }
                        previousIsFull = true
                    }
                }
                if previousIsFull {
                    for slot in 0..<FacetSlots.batchSize { count(pending[(filling ^ 1) &* FacetSlots.batchSize &+ slot]) }
                }
                for slot in 0..<held { count(pending[filling &* FacetSlots.batchSize &+ slot]) }
            }
        }
    }
}
