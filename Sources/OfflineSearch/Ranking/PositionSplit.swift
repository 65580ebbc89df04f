/// The documents of one ordered searchable level split by their position there (the position
/// of each one's `PostingRank`), for the attribute criterion.
///
/// At 1M records a one-letter prefix puts most records in one level, and a page reads the first
/// parts of the split only. So the split counts every part (one pass over the level), and finds
/// a part's documents when it is read: one pass that builds the part's bitmap a word at a time,
/// with no list. Once more than `filteredReadLimit` parts have been read that way, the split
/// lists every part at once instead (a counting sort, one more pass), so that a page spanning
/// many small parts costs no more than listing them all from the start.
///
/// Read by one search, from one thread (the tiers of a ranking are an iterator).
final class PositionSplit {
    /// The level's documents.
    let documents: DocumentSet
    /// Document → its best rank (`CandidateMatches.attributeRanks`).
    let ranks: [UInt16]
    /// The positions that have documents, in increasing order.
    let positions: [Int]
    /// Position → how many documents are at it.
    private let counts: [Int]
    /// How many parts have been read by a pass of their own.
    private var filteredReads = 0
    /// Every part's documents, end to end in position order, once listed; `ends[p]` is where
    /// position p's end.
    private var listed: (documents: [Int], ends: [Int])?

    static let filteredReadLimit = 3
    private static let positionCount = Int(PostingRank.position(of: PostingRank.unmatched)) + 1

    init(_ documents: DocumentSet, ranks: [UInt16]) {
        self.documents = documents
        self.ranks = ranks
        var counts = [Int](repeating: 0, count: Self.positionCount)
        ranks.withUnsafeBufferPointer { ranks in
            counts.withUnsafeMutableBufferPointer { counts in
                documents.forEach { document in
                    counts[Int(PostingRank.position(of: ranks[document]))] &+= 1
                    return true
                }
            }
        }
        self.counts = counts
        positions = counts.indices.filter { counts[$0] != 0 }
    }

    func count(at position: Int) -> Int { counts[position] }

    /// The documents at `position`, as a set.
    /// - Complexity: O(level / 64 + documents of the level) for one of the first parts read.
    func documentSet(at position: Int) -> DocumentSet {
        if let list = listedDocuments(at: position) {
            var set = DocumentSet(capacity: documents.capacity)
            for document in list { set.insert(document) }
            return set
        }
        var words = [UInt64](repeating: 0, count: documents.words.count)
        ranks.withUnsafeBufferPointer { ranks in
            documents.words.withUnsafeBufferPointer { level in
                words.withUnsafeMutableBufferPointer { words in
                    for index in 0..<level.count {
                        var word = level[index], part: UInt64 = 0
                        while word != 0 {
                            let bit = word.trailingZeroBitCount
                            if Int(PostingRank.position(of: ranks[index << 6 | bit])) == position { part |= 1 << UInt64(bit) }
                            word &= word &- 1
                        }
                        words[index] = part
                    }
                }
            }
        }
        return DocumentSet(capacity: documents.capacity, words: words)
    }

    /// The documents at `position`, from the `skip`-th, at most `limit` of them, in order.
    func elements(at position: Int, skip: Int, limit: Int) -> [Int] {
        if let list = listedDocuments(at: position) { return Array(list.dropFirst(skip).prefix(limit)) }
        var result: [Int] = []
        var remainingSkip = skip
        guard limit > 0 else { return result }
        ranks.withUnsafeBufferPointer { ranks in
            documents.forEach { document in
                guard Int(PostingRank.position(of: ranks[document])) == position else { return true }
                if remainingSkip > 0 {
                    remainingSkip -= 1
                    return true
                }
                result.append(document)
                return result.count < limit
            }
        }
        return result
    }

    /// The part's documents when the split is listed, or when this read makes listing it
    /// cheaper than another pass of its own; nil while a pass of its own is.
    private func listedDocuments(at position: Int) -> ArraySlice<Int>? {
        if listed == nil {
            guard filteredReads >= Self.filteredReadLimit else {
                filteredReads += 1
                return nil
            }
            listed = list()
        }
        guard let (all, ends) = listed else { return nil }
        return all[ends[position] - counts[position]..<ends[position]]
    }

    /// Every part's documents by a counting sort: each position's end to end, in position order.
    private func list() -> (documents: [Int], ends: [Int]) {
        var ends = [Int](repeating: 0, count: Self.positionCount)
        var total = 0
        for position in positions {
            ends[position] = total   // its start, until the documents are placed
            total += counts[position]
        }
        let listed = [Int](unsafeUninitializedCapacity: total) { listed, initialized in
            ranks.withUnsafeBufferPointer { ranks in
                ends.withUnsafeMutableBufferPointer { next in
                    documents.forEach { document in
                        let position = Int(PostingRank.position(of: ranks[document]))
                        listed[next[position]] = document
                        next[position] &+= 1
                        return true
                    }
                }
            }
            initialized = total
        }
        return (listed, ends)
    }
}
