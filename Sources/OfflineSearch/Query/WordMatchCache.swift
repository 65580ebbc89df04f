/// What one query word matched in one snapshot, kept for the next keystrokes and the next
/// users.
///
/// As a user types "samsung galaxy s", every keystroke after the first space asks again for
/// "samsung": its postings, its typo candidates and theirs. And the prefix being typed comes
/// again too: from the next user who types the same query ("acce" is typed by every user who
/// looks for accessories; a log of 22,786 prefixes of three letters or more typed has 3,860
/// distinct ones), and from the same user who deletes a letter. A word gives the same answer
/// every time on the same snapshot, so `CandidateMatcher` keeps the words it matches here and
/// the next search reads them back: the word's documents, by typo count, its exact ones, and its
/// contribution to the levels and ranks of the query.
///
/// A word is kept from its second sighting on (`isWorthKeeping`): keeping costs (its levels and
/// ranks noted apart, or for a query's first word in the query's own, then packed), and a word
/// seen once is often never seen again; at 1M records, in a process answering every tenth
/// keystroke, keeping every word cost 13 % of the run and raised the median from 2.7 to 3.9 ms.
/// A word costlier to match than to keep (a short prefix) is kept from its first.
///
/// Each bitmap is kept in the smaller of two forms (`PackedBits`): a word or a long prefix
/// matches a few hundred records, whose positions take far less than a bitmap of every record;
/// the ranks likewise (`PackedRanks`). Bounded by bytes (`matchBudget`, or the engine's
/// `searchCacheSize`) and by entries, least recently used out first. Shared by every search on
/// the snapshot, from any thread; the snapshot, and so the cache, is dropped when writes
/// replace it.
final class WordMatchCache: Sendable {
    /// What decides a word's match, besides the snapshot: the word and its alternatives, the
    /// typos it may have, where it may match, and whether it is the query's only word.
    struct Key: Hashable, Sendable {
        var folded: String
        var isPrefix: Bool
        var alternatives: [String]
        var inexactAlternatives: [String]
        var corrections: [Correction]
        var maxTypos: Int
        var scope: MatchScope
        var singleWord: Bool

        /// The word alone, with what varies with it: keys that differ only in alternatives or
        /// scope are rare (equality still tells them apart), and each search looks up every
        /// word it has. Hashing every field cost 1.7 % of a keystroke log's instructions
        /// (callgrind, Benchmarks/README.md); this, about a third of that.
        func hash(into hasher: inout Hasher) {
            hasher.combine(folded)
            hasher.combine(isPrefix)
            hasher.combine(maxTypos)
        }
    }

    /// One word's match (see `CandidateMatcher.match`).
    struct Entry: Sendable {
        /// Every document the word matches, with typos or without.
        var documents: [UInt64]
        /// The documents by fewest typos (0, 1, 2), or nil when no candidate matched with typos.
        var byTypos: [DocumentSet]?
        var variantTerms: Set<String>
        var termRange: Range<Int>
        var otherTermIDs: Set<UInt32>
        var exact: DocumentSet?
        /// The word's best level per document, one bitmap per level end to end, as the query's
        /// collector records them (ORed into it).
        var levelBits: PackedBits
        /// The word's best rank in an ordered attribute, for the documents it has one (merged
        /// into the query's by minimum).
        var ranks: PackedRanks
    }

    /// An entry as kept: its bitmaps packed. A class: each read copies one reference out of
    /// the cache, where a struct's copy retained and released each of its dozen arrays and sets
    /// (0.6 % of a keystroke log's samples).
    private final class Kept: Sendable {
        let documents: PackedBits
        let byTypos: [PackedBits]?
        let variantTerms: Set<String>
        let termRange: Range<Int>
        let otherTermIDs: Set<UInt32>
        let exact: PackedBits?
        let levelBits: PackedBits
        let ranks: PackedRanks
        let byteCount: Int

        init(_ entry: Entry) {
            documents = PackedBits(entry.documents)
            byTypos = entry.byTypos?.map { PackedBits($0.words) }
            variantTerms = entry.variantTerms
            termRange = entry.termRange
            otherTermIDs = entry.otherTermIDs
            exact = entry.exact.map { PackedBits($0.words) }
            levelBits = entry.levelBits
            ranks = entry.ranks
            byteCount = documents.byteCount + levelBits.byteCount + (byTypos ?? []).reduce(0) { $0 + $1.byteCount }
                + (exact?.byteCount ?? 0) + ranks.byteCount + 64 * (variantTerms.count + otherTermIDs.count) + 256
        }

        func entry(documentCount: Int) -> Entry {
            Entry(documents: documents.unpacked(), byTypos: byTypos?.map { DocumentSet(capacity: documentCount, words: $0.unpacked()) },
                  variantTerms: variantTerms, termRange: termRange, otherTermIDs: otherTermIDs,
                  exact: exact.map { DocumentSet(capacity: documentCount, words: $0.unpacked()) }, levelBits: levelBits, ranks: ranks)
        }
    }

    /// The most bytes the entries hold together: 320 bytes a record, at least 64 MiB.
    ///
    /// A word that a third of the records or more have (a short prefix, or `cell`, `apple` in a
    /// catalogue of phones) is kept dense: a rank and a bit per level for every record, about
    /// 2.6 bytes a record with four searchable attributes, 260 KB at 100k and 2.6 MB at 1M.
    /// Such words are the ones every session types first, and the costliest to match again
    /// (a one-letter prefix at 1M: 10–35 ms). 320 bytes a record holds about 120 of them at any
    /// size; 64 held 24, and at 1M a log that asked for 86 of them in turn matched each one
    /// afresh every time (mean 6.4–7.2 ms a request against 2.2–2.9 ms, Benchmarks/README.md).
    /// Below 200,000 records the 64 MiB floor decides: at 100k, 16 MiB held too few of the
    /// three-letter prefixes a busy keystroke log types again and again (531 µs a request
    /// against 377 µs with 64 MiB). A three- or four-letter prefix with typos takes 50–200 KB
    /// at 100k; a word or a long prefix, packed, a few kilobytes. The budget is a bound, not an
    /// allocation: a small index, or a large one with few distinct words asked, never fills it.
    static func matchBudget(documentCount: Int) -> Int { max(64 << 20, 320 * documentCount) }
    static let entryLimit = 8192

    private let cache: BoundedCache<Key, Kept>
    /// The snapshot's documents (the budget grows with them).
    private let documentCount: Int

    init(documentCount: Int) {
        self.documentCount = documentCount
        cache = BoundedCache(byteBudget: WordMatchCache.matchBudget(documentCount: documentCount), entryLimit: WordMatchCache.entryLimit)
    }

    /// How many words are kept.
    var entryCount: Int { cache.count }

    /// How many bytes the entries hold.
    var byteCount: Int { cache.byteCount }

    /// The most bytes the matches, typo candidates and sightings hold together.
    var byteBudget: Int { cache.byteBudget + typoCandidates.byteBudget + seen.byteBudget }
    /// The most bytes the matches hold (`byteCount`'s bound).
    var matchesByteBudget: Int { cache.byteBudget }

    /// Bounds what this cache holds to `bytes` (`IndexSnapshot.limitCaches`): a sixteenth for the
    /// typo candidates, a sixty-fourth for the sightings, the rest for the matches. 0 keeps
    /// nothing: every word is matched afresh.
    func setByteBudget(_ bytes: Int) {
        let bytes = max(0, bytes)
        typoCandidates.setByteBudget(bytes / 16)
        seen.setByteBudget(bytes / 64)
        cache.setByteBudget(bytes - bytes / 16 - bytes / 64)
    }

    /// The typo walk's candidates for a word (`TypoCandidates.find`), kept apart from the
    /// matches: a few bytes a candidate, so they outlast the matches that the budget lets go.
    struct TypoKey: Hashable, Sendable {
        var folded: String
        var isPrefix: Bool
        var maxTypos: Int
    }
    private let typoCandidates = BoundedCache<TypoKey, [TypoCandidates.Candidate]>(byteBudget: 4 << 20, entryLimit: 16_384)

    /// The vocabulary's words within `maxTypos` of `word`, found once per snapshot.
    func typoCandidates(_ word: String, isPrefix: Bool, maxTypos: Int, in terms: TermTable) -> [TypoCandidates.Candidate] {
        guard maxTypos > 0 else { return [] }
        let key = TypoKey(folded: word, isPrefix: isPrefix, maxTypos: maxTypos)
        if let found = typoCandidates[key] { return found }
        let found = TypoCandidates.find(word, isPrefix: isPrefix, maxTypos: maxTypos, in: terms)
        typoCandidates.store(found, bytes: 16 * found.count + word.utf8.count + 64, for: key)
        return found
    }

    /// The words seen once, not kept yet: a few bytes each.
    private let seen = BoundedCache<Key, Bool>(byteBudget: 1 << 20, entryLimit: 16_384)

    /// Whether `key`'s match is to be kept: from the word's second sighting on (the first is
    /// noted; a word kept or not answers the same), or from its first when its terms have
    /// `postingCount` postings, at least half as many as there are records. Keeping costs a
    /// pass over the word's bitmaps and one rank per record (noted apart, then merged, but for
    /// the query's first word); such a word costs more than that to match again (at 1M records,
    /// a one-letter prefix takes 30–70 ms).
    func isWorthKeeping(_ key: Key, postingCount: Int) -> Bool {
        // With no room (`SearchEngine.searchCacheSize` 0), keeping would be paid for nothing.
        guard cache.byteBudget > 0 else { return false }
        if seen[key] != nil { return true }
        seen.store(true, bytes: key.folded.utf8.count + 128, for: key)
        return 2 * postingCount >= documentCount
    }

    /// A word's match, read back (its bitmaps unpacked).
    func entry(for key: Key) -> Entry? {
        cache[key]?.entry(documentCount: documentCount)
    }

    func store(_ entry: Entry, for key: Key) {
        let kept = Kept(entry)
        cache.store(kept, bytes: kept.byteCount, for: key)
    }
}

/// A word's best rank per document (`PostingRank`, in ordered attributes), kept in the smaller
/// of two forms: every document's rank (`PostingRank.unmatched` where it has none), or the
/// documents that have one, with their ranks.
///
/// A short prefix matches most records: at 1M records, "c" has a rank in nearly every one, which
/// as pairs of document and rank took 8 MB, four times the 2 MB of one rank per record, and was
/// merged into a query's ranks by scattered writes rather than the element-wise minimum of two
/// arrays.
struct PackedRanks: Sendable {
    /// Every document's rank; empty when kept as `documents` and `sparseRanks`.
    private let dense: [UInt16]
    /// The documents with a rank, in order, and their ranks.
    private let documents: [UInt32]
    private let sparseRanks: [UInt16]

    static let none = PackedRanks(dense: [], documents: [], sparseRanks: [])

    private init(dense: [UInt16], documents: [UInt32], sparseRanks: [UInt16]) {
        (self.dense, self.documents, self.sparseRanks) = (dense, documents, sparseRanks)
    }

    /// `ranks` (one per document, `PostingRank.unmatched` where there is none), whose ranks are
    /// in the documents of `candidates` (visited in order; at most one per document).
    init(_ ranks: [UInt16], candidates: DocumentSet) {
        let count = candidates.count
        // Six bytes a document with a rank against two a document.
        guard 3 * count < ranks.count else {
            self.init(dense: ranks, documents: [], sparseRanks: [])
            return
        }
        var documents: [UInt32] = [], sparseRanks: [UInt16] = []
        documents.reserveCapacity(count)
        sparseRanks.reserveCapacity(count)
        ranks.withUnsafeBufferPointer { ranks in
            candidates.forEach { document in
                if ranks[document] != PostingRank.unmatched {
                    documents.append(UInt32(document))
                    sparseRanks.append(ranks[document])
                }
                return true
            }
        }
        self.init(dense: [], documents: documents, sparseRanks: sparseRanks)
    }

    var byteCount: Int { 2 * dense.count + 4 * documents.count + 2 * sparseRanks.count }

    /// Every document's rank (`PostingRank.unmatched` where there is none): the dense ranks
    /// themselves, shared, when kept so.
    func expanded(count: Int) -> [UInt16] {
        if !dense.isEmpty, dense.count == count { return dense }
        var ranks = [UInt16](repeating: PostingRank.unmatched, count: count)
        merge(into: &ranks)
        return ranks
    }

    /// Lowers each of `ranks` (one per document) to this word's rank where that is lower.
    func merge(into ranks: inout [UInt16]) {
        ranks.withUnsafeMutableBufferPointer { ranks in
            if !dense.isEmpty {
                dense.withUnsafeBufferPointer { dense in
                    for document in 0..<min(ranks.count, dense.count) { ranks[document] = min(ranks[document], dense[document]) }
                }
            } else {
                for (document, rank) in zip(documents, sparseRanks) where rank < ranks[Int(document)] { ranks[Int(document)] = rank }
            }
        }
    }
}

/// A bitmap kept in the smaller of two forms: its words, or the positions of its set bits.
///
/// Two arrays, one of them empty, rather than an enum with an array in each case: Swift keeps
/// such an enum's case in the spare bits of the array's pointer, which LeakSanitizer (the fuzz
/// runs') then cannot follow, and reports every kept array as leaked.
struct PackedBits: Sendable {
    /// The bitmap's words; empty when it is kept as `positions`.
    private let words: [UInt64]
    /// The positions of the set bits, in order, when they take less room than the words.
    private let positions: [UInt32]
    private let isPositions: Bool
    /// How many words the bitmap has.
    let wordCount: Int

    init(_ words: [UInt64]) {
        wordCount = words.count
        let population = words.withUnsafeBufferPointer { $0.populationCount }
        // Four bytes a position against eight a word.
        guard population < words.count * 2 else {
            (self.words, positions, isPositions) = (words, [], false)
            return
        }
        positions = words.withUnsafeBufferPointer { bits in
            [UInt32](unsafeUninitializedCapacity: population) { positions, initialized in
                var next = 0
                for index in 0..<bits.count {
                    var word = bits[index]
                    while word != 0 {
                        positions[next] = UInt32(index << 6 | word.trailingZeroBitCount)
                        next += 1
                        word &= word - 1
                    }
                }
                initialized = next
            }
        }
        (self.words, isPositions) = ([], true)
    }

    var byteCount: Int { isPositions ? 4 * positions.count : 8 * words.count }

    func unpacked() -> [UInt64] {
        guard isPositions else { return words }
        var words = [UInt64](repeating: 0, count: wordCount)
        words.withUnsafeMutableBufferPointer { bits in
            for position in positions { bits[Int(position >> 6)] |= 1 << UInt64(position & 63) }
        }
        return words
    }

    /// Whether the bitmap is `words`.
    func isEqual(to other: [UInt64]) -> Bool {
        guard other.count == wordCount else { return false }
        guard isPositions else { return words == other }
        let population = other.withUnsafeBufferPointer { $0.populationCount }
        return population == positions.count && positions.allSatisfy { other[Int($0 >> 6)] & (1 << UInt64($0 & 63)) != 0 }
    }

    /// ORs the bitmap into `bits`, which has at least `wordCount` words.
    func add(to bits: inout [UInt64]) {
        if isPositions {
            bits.withUnsafeMutableBufferPointer { bits in
                for position in positions { bits[Int(position >> 6)] |= 1 << UInt64(position & 63) }
            }
        } else {
            for index in words.indices { bits[index] |= words[index] }
        }
    }
}
