/// The postings of the shortest prefixes, collected once when the derived file is written and
/// read back from it: what a one-letter keystroke needs, without its posting loop.
///
/// The first keystroke of a query ("c", "s") is a prefix of a large part of the vocabulary. At 1M
/// records "c" covers millions of postings, and collecting them (each record's best level and
/// earliest position, `PostingCollector`) took 20–50 ms the first time a process saw it; the
/// word cache (`WordMatchCache`) then kept it, but each new process, and each new snapshot after
/// a merge, paid again. Algolia indexes prefixes ahead for the same reason.
///
/// So when a snapshot is written to its file (`IndexSnapshot.encodeTail`), each prefix of one or
/// two characters whose terms have at least half as many postings as there are records (the same
/// bound from which `WordMatchCache` keeps a word at its first sighting) is collected at every
/// level, and its three results are stored as they would be in memory: the documents (a bitmap),
/// the levels where each document has the prefix's words (a bitmap per level) and the earliest
/// rank per document in an ordered attribute. A search whose word covers exactly that term range
/// at every level merges them (`PostingCollector.merge(_:into:)`), reading the file in place where
/// it is mapped (arrays under 64 KB are copied when the file is opened); any other word
/// (another scope, `restrictSearchableAttributes`) is collected as before. Merging is equivalent
/// to collecting: both OR the bitmaps and keep the lower rank, posting by posting.
///
/// Small indexes (below `minimumDocuments`) store none: their prefixes cost less than a
/// millisecond to collect.
struct PrefixPostings: Sendable {
    /// One prefix's postings, collected at the `allowed` levels.
    struct Entry: Sendable {
        /// The term ids the prefix begins (`TermTable.ids(withPrefix:)`).
        let terms: Range<Int>
        /// The level bits collected (`MatchScope.levels`).
        let allowed: UInt16
        /// The documents with a posting of the terms (one bit per document).
        let documents: FlatArray<UInt64>
        /// One bitmap per level end to end (`PostingCollector.levelBits`): for each document, the
        /// best level of each of the prefix's words it has.
        let levelBits: FlatArray<UInt64>
        /// Each document's best `PostingRank` in an ordered attribute; empty when no level is ordered.
        let ranks: FlatArray<UInt16>
    }

    let entries: [Entry]

    static let none = PrefixPostings(entries: [])

    /// How many times this process merged a stored prefix into a search (for tests).
    static let merges = LockedValue<Int>(0)

    /// The stored postings of exactly `terms` at exactly the `allowed` levels.
    func entry(for terms: Range<Int>, allowed: UInt16) -> Entry? {
        guard !entries.isEmpty else { return nil }
        return entries.first { $0.terms == terms && $0.allowed == allowed }
    }

    /// The size from which an index's file stores prefixes (documents).
    static let minimumDocuments = 10_000

    /// The longest prefixes stored, in characters.
    static let maximumLength = 2

    /// The term ranges stored for `snapshot`: each prefix of one or two characters whose terms
    /// have at least half as many postings as there are documents (a two-character prefix has
    /// no more postings than its first character: only those of a stored one are looked at).
    /// - Complexity: O(distinct prefixes looked at × log terms).
    static func prefixRanges(of snapshot: IndexSnapshot) -> [Range<Int>] {
        guard snapshot.documentCount >= minimumDocuments else { return [] }
        let terms = snapshot.terms
        /// The ranges of the prefixes `length` characters long among the terms of `range`
        /// (which share their first `length - 1`), in order.
        func ranges(of length: Int, in range: Range<Int>) -> [Range<Int>] {
            var ranges: [Range<Int>] = []
            var id = range.lowerBound
            while id < range.upperBound {
                let term = terms.term(id)
                guard term.count >= length else { id += 1; continue }
                let prefixed = terms.ids(withPrefix: String(term.prefix(length)))
                // Terms are sorted by their bytes, so the range starts here; a damaged order would
                // give another range: step past this term rather than loop.
                guard prefixed.lowerBound == id, !prefixed.isEmpty, prefixed.upperBound <= range.upperBound else { id += 1; continue }
                ranges.append(prefixed)
                id = prefixed.upperBound
            }
            return ranges
        }
        func isStored(_ range: Range<Int>) -> Bool { 2 * snapshot.postingCount(of: range) >= snapshot.documentCount }
        var stored: [Range<Int>] = []
        var level = ranges(of: 1, in: 0..<terms.count).filter(isStored)
        for length in 1...maximumLength {
            stored += level
            guard length < maximumLength else { break }
            // A longer prefix with the same terms as its parent ("qu" under "q") is stored once.
            level = level.flatMap { parent in ranges(of: length + 1, in: parent).filter { $0 != parent } }.filter(isStored)
        }
        guard stored.count > maximumCount else { return stored }
        // Records of long texts have many common prefixes: the costliest are kept.
        return stored.sorted { snapshot.postingCount(of: $0) > snapshot.postingCount(of: $1) }.prefix(maximumCount)
            .sorted { $0.lowerBound < $1.lowerBound }
    }

    /// The most prefixes stored: each takes a bitmap per level and two bytes per record (about
    /// 2.6 bytes a record with four searchable attributes), so at most about 170 bytes a record.
    static let maximumCount = 64

    /// Collects `snapshot`'s prefixes and writes them, one at a time (so that writing holds one
    /// prefix's arrays at once, a few bytes a record).
    static func encode(of snapshot: IndexSnapshot, into writer: inout BinaryWriter) {
        let ranges = prefixRanges(of: snapshot)
        writer.write(UInt64(ranges.count))
        let stride = (snapshot.documentCount + 63) >> 6
        for range in ranges {
            var collector = PostingCollector(snapshot: snapshot)
            collector.start()   // whole per-record arrays, whatever the range notes (`decode` reads them so)
            var documents = [UInt64](repeating: 0, count: stride)
            collector.collect(range, allowed: PostingMask.levels, wholeValueOnly: false, recordLevels: true, into: &documents)
            writer.write(UInt64(range.lowerBound))
            writer.write(UInt64(range.upperBound))
            writer.write(PostingMask.levels)
            writer.write(array: documents)
            writer.write(array: collector.levelBits)
            writer.write(array: collector.ranks)
        }
    }

    /// Reads what `encode` wrote for a snapshot of `documentCount` documents, `termCount` terms,
    /// `levelCount` levels, with ranks when `tracksPositions`; nil when an entry does not fit it.
    static func decode<Reader: SnapshotReader>(from reader: inout Reader, documentCount: Int, termCount: Int,
                                               levelCount: Int, tracksPositions: Bool) throws(BinaryReaderError) -> PrefixPostings? {
        let stride = (documentCount + 63) >> 6
        var entries: [Entry] = []
        for _ in 0..<(try reader.read(UInt64.self)) {
            let lower = try reader.read(UInt64.self), upper = try reader.read(UInt64.self)
            let allowed = try reader.read(UInt16.self)
            let documents: FlatArray<UInt64> = try reader.readFlatArray()
            let levelBits: FlatArray<UInt64> = try reader.readFlatArray()
            let ranks: FlatArray<UInt16> = try reader.readFlatArray()
            // Compared as `Int`: a damaged vocabulary may give `termCount` -1 (it is checked later).
            guard let lower = Int(exactly: lower), let upper = Int(exactly: upper), lower < upper, upper <= termCount,
                  allowed == PostingMask.levels, documents.count == stride, levelBits.count == stride * levelCount,
                  ranks.count == (tracksPositions ? documentCount : 0)
            else { return nil }
            entries.append(Entry(terms: lower..<upper, allowed: allowed, documents: documents, levelBits: levelBits, ranks: ranks))
        }
        return PrefixPostings(entries: entries)
    }
}
