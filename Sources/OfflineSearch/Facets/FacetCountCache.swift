import SearchAPI

/// Facet counts over a large set of matching documents, kept on the snapshot for the next
/// search that matches the same documents.
///
/// The dearest counts are those over most of the index: a query of one or two letters ("s",
/// "sa") matches most records, and every user who types a query types them first. Facet counts
/// depend on nothing but the documents counted, the attributes and how many values of each
/// are listed in which order, so the key is those, with the documents as a hash of their
/// bitmap; the bitmap itself is kept beside the counts and compared, so two sets that hash
/// alike never share counts. Sets of fewer than `smallestSetKept` documents are counted
/// afresh: their pass is cheaper than the hash.
final class FacetCountCache: Sendable {
    struct Key: Hashable, Sendable {
        var attributes: [String]
        var maxValues: Int
        var sort: FacetSortOrder
        var documentsHash: UInt64
    }

    typealias Counts = (facets: [FacetCounts], stats: [String: FacetStats])

    /// A class: a read copies one reference out of the cache, not each of its arrays and its
    /// dictionary.
    private final class Kept: Sendable {
        let documents: PackedBits
        let facets: [FacetCounts]
        let stats: [String: FacetStats]

        init(documents: PackedBits, facets: [FacetCounts], stats: [String: FacetStats]) {
            (self.documents, self.facets, self.stats) = (documents, facets, stats)
        }
    }

    /// Below this many documents, counting costs less than the hash and the comparison.
    static let smallestSetKept = 2_000
    static let entryLimit = 1_024

    private let cache: BoundedCache<Key, Kept>
    /// The last large sets counted, per column, to count a near set from (a quarter of the
    /// budget).
    let recent: RecentFacetCounts

    /// How many sets' counts are kept.
    var count: Int { cache.count }

    /// The most bytes the counts hold together.
    var byteBudget: Int { cache.byteBudget + recent.byteBudget }

    /// Bounds what this cache holds to `bytes` (0: nothing is kept): a quarter for the recent
    /// sets, the rest for the sets' counts.
    func setByteBudget(_ bytes: Int) {
        let bytes = max(0, bytes)
        recent.setByteBudget(bytes / 4)
        cache.setByteBudget(bytes - bytes / 4)
    }

    init(documentCount: Int) {
        // 32 bytes a record, at least 4 MiB. A set kept weighs at most a bitmap of the index
        // (125 KB at 1M); a log of 300 keystrokes at 1M counted 125 distinct sets of 2,000
        // records or more, and with 8 bytes a record (48 such bitmaps) counted each afresh
        // every time it came back: 1.3 ms a request at p50 against 0.63 ms with 32
        // (Benchmarks/README.md).
        let bytes = max(4 << 20, 32 * documentCount)
        cache = BoundedCache(byteBudget: bytes - bytes / 4, entryLimit: FacetCountCache.entryLimit)
        recent = RecentFacetCounts(byteBudget: bytes / 4)
    }

    /// The counts over `documents` (of `documentCount` documents), read back or counted by
    /// `count` and kept.
    func counts(_ attributes: [String], over documents: DocumentSet, documentCount: Int, maxValues: Int, sort: FacetSortOrder,
                count: () -> Counts) -> Counts {
        guard documentCount >= FacetCountCache.smallestSetKept else { return count() }
        let hash = documents.words.withUnsafeBytes { XXHash64.hash($0) }
        let key = Key(attributes: attributes, maxValues: maxValues, sort: sort, documentsHash: hash)
        if let kept = cache[key], kept.documents.isEqual(to: documents.words) {
            return (kept.facets, kept.stats)
        }
        let counted = count()
        let kept = Kept(documents: PackedBits(documents.words), facets: counted.facets, stats: counted.stats)
        let valueBytes = counted.facets.reduce(0) { $0 + $1.values.reduce(0) { $0 + 32 + $1.value.utf8.count } }
        cache.store(kept, bytes: kept.documents.byteCount + valueBytes + 256, for: key)
        return counted
    }
}
