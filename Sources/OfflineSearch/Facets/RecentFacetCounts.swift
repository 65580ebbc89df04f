/// The last sets of documents a facet was counted over, with their counts, so that a set close
/// to one of them is counted from it: the counts of the near set, less the documents it has and
/// the new set has not, plus those the new set has and it has not.
///
/// Each keystroke of a query matches a set close to the keystroke's before: "samsung gal" and
/// "samsung gala" match nearly the same records, and "iphone char" the same as "iphone cha". A
/// pass over a set costs one visit per document in it (or per document outside it, for a set of
/// more than half the records, `FacetCounter`); from a near set, one per document the two sets
/// do not share. Counts are exact integers either way, so an answer is the same whichever way
/// its counts were taken.
///
/// The sets are kept as the searches made them (their bitmaps are shared, not copied), the
/// last `entryLimit` of each column, within a byte budget (0: none is kept). Shared by every
/// search on the snapshot, from any thread.
final class RecentFacetCounts: Sendable {
    /// One column's counts over one set of documents.
    struct Entry: Sendable {
        var path: String
        var documents: [UInt64]
        var population: Int
        var counts: [Int]

        var byteCount: Int { 8 * documents.count + 8 * counts.count + 128 }
    }

    /// A set smaller than this is counted afresh and not kept: its pass costs less than the
    /// comparisons with the kept sets (a pass over each one's bitmap).
    static let smallestSet = 2_000
    /// How many sets are kept per column: the last keystrokes of a few users typing at once.
    static let entryLimit = 8

    private struct Contents: Sendable {
        /// Oldest first.
        var entries: [Entry] = []
        var byteBudget: Int

        /// Lets the oldest sets go until the rest are within the budget.
        mutating func trim() {
            var bytes = entries.reduce(0) { $0 + $1.byteCount }
            while !entries.isEmpty, bytes > byteBudget {
                bytes -= entries.removeFirst().byteCount
            }
        }
    }

    private let contents: LockedValue<Contents>

    init(byteBudget: Int) {
        contents = LockedValue(Contents(byteBudget: byteBudget))
    }

    /// Bounds the sets kept to `bytes` together (0: none is kept).
    func setByteBudget(_ bytes: Int) {
        contents.modify { contents in
            contents.byteBudget = max(0, bytes)
            contents.trim()
        }
    }

    /// How many sets are kept.
    var count: Int { contents.value.entries.count }

    /// The most bytes the sets hold together.
    var byteBudget: Int { contents.value.byteBudget }

    /// The kept set of `path` from which `documents` (`population` of them) costs the fewest
    /// visits to count, if fewer than `budget`; with that number of visits.
    /// - Complexity: O(kept sets × words of the bitmap), each comparison stopping once it has
    ///   found `budget` differences.
    func nearest(_ path: String, to documents: [UInt64], population: Int, within budget: Int) -> (entry: Entry, visits: Int)? {
        let entries = contents.value.entries
        var best: (entry: Entry, visits: Int)?
        // Newest first: the keystroke before is the likeliest to be the nearest.
        for entry in entries.reversed() where entry.path == path && entry.documents.count == documents.count {
            let bound = best?.visits ?? budget
            // The sets differ by at least their sizes' difference.
            guard abs(entry.population - population) < bound,
                  let visits = RecentFacetCounts.difference(entry.documents, documents, below: bound) else { continue }
            best = (entry, visits)
        }
        return best
    }

    /// Keeps `counts` over `documents`: the column's oldest set goes when it has `entryLimit`,
    /// then the oldest sets of any column while they are over the budget. A set larger than the
    /// whole budget is not kept (it would push out every other).
    func keep(_ entry: Entry) {
        contents.modify { contents in
            guard entry.byteCount <= contents.byteBudget else { return }
            if contents.entries.lazy.filter({ $0.path == entry.path }).count >= RecentFacetCounts.entryLimit,
               let oldest = contents.entries.firstIndex(where: { $0.path == entry.path }) {
                contents.entries.remove(at: oldest)
            }
            contents.entries.append(entry)
            contents.trim()
        }
    }

    /// How many documents are in one set and not the other, when fewer than `bound`.
    static func difference(_ a: [UInt64], _ b: [UInt64], below bound: Int) -> Int? {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var total = 0
                var index = 0
                // Checked every 64 words: the bound rarely stops a close set, and a far one
                // soon enough.
                while index < a.count {
                    let end = min(index + 64, a.count)
                    for word in index..<end { total &+= (a[word] ^ b[word]).nonzeroBitCount }
                    if total >= bound { return nil }
                    index = end
                }
                return total
            }
        }
    }
}
