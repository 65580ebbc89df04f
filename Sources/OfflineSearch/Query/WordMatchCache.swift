/// What one query word matched in one snapshot, kept for the next keystrokes.
///
/// As a user types "samsung galaxy s", every keystroke after the first space asks again for
/// "samsung": its postings, its typo candidates and theirs. A word gives the same answer every
/// time on the same snapshot, so `CandidateMatcher` keeps it here and the next keystroke reads
/// it back: the word's documents, by typo count, its exact ones, and its contribution to the
/// levels and ranks of the query. Kept are the words that come again (`keeps`): complete words,
/// which every later keystroke of the query repeats, and prefixes of one or two letters, which
/// begin most words typed and are the dearest to match (every word they begin). A longer
/// prefix is the word being typed: the next keystroke changes it.
///
/// Bounded by bytes (`byteBudget`) and by entries, least recently used out first. Shared by
/// every search on the snapshot, from any thread; the snapshot, and so the cache, is dropped
/// when writes replace it.
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
        /// The word's best level per document, one bitmap per level, as the query's collector
        /// records them (ORed into it).
        var levelBits: [UInt64]
        /// The word's best rank in an ordered attribute, for the documents it has one (merged
        /// into the query's by minimum).
        var ranks: [(document: UInt32, rank: UInt16)]

        var byteCount: Int {
            8 * (documents.count + levelBits.count + (byTypos ?? []).reduce(0) { $0 + $1.words.count } + (exact?.words.count ?? 0))
                + 8 * ranks.count + 64 * (variantTerms.count + otherTermIDs.count) + 256
        }
    }

    /// Whether `word`'s match is kept: a complete word, or a prefix of at most two bytes.
    static func keeps(_ word: QueryWord) -> Bool {
        !word.isPrefix || word.folded.utf8.count <= 2
    }

    /// The most bytes the entries hold together: 64 bytes a record, at least 16 MiB (a complete
    /// word takes about 100 KB at 100k records; a one-letter prefix, matching most records,
    /// about 600 KB, and ten times that at 1M).
    static func byteBudget(documentCount: Int) -> Int { max(16 << 20, 64 * documentCount) }
    static let entryLimit = 512

    private struct Contents: Sendable {
        var entries: [Key: (entry: Entry, lastUse: Int)] = [:]
        var bytes = 0
        var clock = 0
    }

    private let contents = LockedValue(Contents())

    init() {}

    /// How many words are kept.
    var entryCount: Int { contents.value.entries.count }

    func entry(for key: Key) -> Entry? {
        contents.modify { contents in
            guard let found = contents.entries[key] else { return nil }
            contents.clock += 1
            contents.entries[key]!.lastUse = contents.clock
            return found.entry
        }
    }

    /// Keeps `entry`, unless it alone is over a quarter of the budget; the least recently
    /// used entries go while the cache is over its bounds.
    func store(_ entry: Entry, for key: Key, documentCount: Int) {
        let size = entry.byteCount
        let budget = WordMatchCache.byteBudget(documentCount: documentCount)
        guard size <= budget / 4 else { return }
        contents.modify { contents in
            contents.clock += 1
            if let old = contents.entries.updateValue((entry, contents.clock), forKey: key) { contents.bytes -= old.entry.byteCount }
            contents.bytes += size
            while contents.bytes > budget || contents.entries.count > WordMatchCache.entryLimit,
                  let oldest = contents.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                contents.bytes -= oldest.value.entry.byteCount
                contents.entries[oldest.key] = nil
            }
        }
    }
}
