// PostingCollector: the posting loop of `CandidateMatcher`, and the hot loop under it.

/// The posting loop of `CandidateMatcher`: adds posting lists to a word's bitmap and notes, for
/// each document, the best searchable level where a query word occurs (one bitmap per level)
/// and, in ordered attributes, the earliest position (`ranks`).
struct PostingCollector {
    let snapshot: IndexSnapshot
    let stride: Int
    let lastLevel: Int
    /// `IndexConfiguration.orderedLevelMask`.
    let orderedMask: UInt16
    var tracksPositions: Bool { orderedMask != 0 }
    /// One flat bitmap per level; empty until the first word is collected or merged
    /// (`isStarted`).
    private(set) var levelBits: [UInt64] = []
    /// Document → best `PostingRank` in an ordered attribute (empty when no level is ordered,
    /// and until the collector is started).
    private(set) var ranks: [UInt16] = []
    /// Whether anything was collected or merged: until then the bitmaps and ranks are not made,
    /// and the first word merged lends its own (a kept word's level bitmaps and dense ranks are
    /// shared, not written into zeroed arrays: at 100k records, 250 KB a search).
    private(set) var isStarted = false

    init(snapshot: IndexSnapshot) {
        self.snapshot = snapshot
        let levelCount = snapshot.configuration.levelCount
        stride = (snapshot.documentCount + 63) >> 6
        lastLevel = levelCount - 1
        orderedMask = snapshot.configuration.orderedLevelMask
    }

    /// The empty bitmaps and ranks, made before the first posting is noted (and before a kept
    /// word is matched apart, so that its levels are whole even where it noted none).
    mutating func start() {
        guard !isStarted else { return }
        isStarted = true
        levelBits = [UInt64](repeating: 0, count: stride * (lastLevel + 1))
        ranks = [UInt16](repeating: PostingRank.unmatched, count: tracksPositions ? snapshot.documentCount : 0)
    }

    func levelSets() -> [DocumentSet] {
        // Nothing noted (a query whose words match nothing): one empty set, shared by every level.
        guard isStarted else { return [DocumentSet](repeating: DocumentSet(capacity: snapshot.documentCount), count: lastLevel + 1) }
        return (0...lastLevel).map { level in
            DocumentSet(capacity: snapshot.documentCount, words: Array(levelBits[level * stride..<(level + 1) * stride]))
        }
    }

    /// `CandidateMatches.attributeRanks`: nil when no level is ordered, and when nothing was
    /// noted. No record is then in any level, and ranking reads a record's rank only at a level
    /// that holds it (its best match, where none is `PostingRank.unmatched`, reads the same as
    /// nil): so a query that matches nothing makes no rank per record (2 MB at 1M records).
    func attributeRanks() -> [UInt16]? {
        guard tracksPositions, isStarted else { return nil }
        return ranks
    }

    /// Adds the postings of `terms` to `bits` (and, with `recordLevels`, to the levels and
    /// ranks), counting only the occurrences at the `allowed` levels; with `wholeValueOnly`,
    /// only where the term is a whole attribute value.
    ///
    /// `within`: with `recordLevels`, only the postings of these documents are added (nil:
    /// every posting); without, it is not read. `CandidateMatcher` passes the documents that
    /// the query's earlier required words match together: no other document can be a hit, and
    /// ranking and `_rankingInfo` read the levels and ranks of hits only.
    mutating func collect<Terms: Collection<Int>>(_ terms: Terms, allowed: UInt16, wholeValueOnly: Bool,
                                                recordLevels: Bool, within filter: DocumentSet? = nil, into bits: inout [UInt64]) {
        // Without levels, the bitmaps and ranks are not touched (they may be a kept word's, shared).
        guard recordLevels else {
            collectDocuments(terms, allowed: allowed, wholeValueOnly: wholeValueOnly, into: &bits)
            return
        }
        // Terms without postings (a word the index does not have) note nothing, and so start
        // nothing: a query whose words match nothing makes no per-record arrays.
        guard PostingCollector.anyPostings(terms, in: snapshot) else { return }
        start()
        let (stride, lastLevel, orderedMask) = (stride, lastLevel, orderedMask)
        let everyLevelOrdered = orderedMask != 0 && allowed & ~orderedMask & PostingMask.mask(forLevels: 0...lastLevel) == 0
        let snapshot = snapshot
        bits.withUnsafeMutableBufferPointer { bits in
            levelBits.withUnsafeMutableBufferPointer { levelBits in
                ranks.withUnsafeMutableBufferPointer { ranks in
                    func add<Filter: PostingFilter>(_ filter: Filter) {
                        PostingCollector.scan(terms, in: snapshot, allowed: allowed, wholeValueOnly: wholeValueOnly,
                                              everyLevelOrdered: everyLevelOrdered) { scan, postings in
                            scan.addWithLevels(postings, to: bits.baseAddress!, levelBits: levelBits.baseAddress!, stride: stride,
                                               lastLevel: lastLevel, ranks: ranks.baseAddress, orderedMask: orderedMask, filter: filter)
                        }
                    }
                    guard let filter else { return add(EveryDocument()) }
                    filter.words.withUnsafeBufferPointer { add(DocumentsIn(words: $0.baseAddress!)) }
                }
            }
        }
    }

    /// Whether any of `terms` has a posting (a collection: `collect` reads it again).
    private static func anyPostings<Terms: Collection<Int>>(_ terms: Terms, in snapshot: IndexSnapshot) -> Bool {
        snapshot.postingStarts.withUnsafeBufferPointer { starts in terms.contains { starts[$0] != starts[$0 + 1] } }
    }

    /// `collect` without levels: the documents only.
    private func collectDocuments<Terms: Collection<Int>>(_ terms: Terms, allowed: UInt16, wholeValueOnly: Bool, into bits: inout [UInt64]) {
        bits.withUnsafeMutableBufferPointer { bits in
            PostingCollector.scan(terms, in: snapshot, allowed: allowed, wholeValueOnly: wholeValueOnly, everyLevelOrdered: false) { scan, postings in
                scan.add(postings, to: bits.baseAddress!)
            }
        }
    }

    /// Calls `body` with a scan of the snapshot's postings at the `allowed` levels (whole values
    /// only, with `wholeValueOnly`) and each of `terms`' posting ranges that is not empty, the
    /// posting arrays held once for them all.
    private static func scan<Terms: Collection<Int>>(_ terms: Terms, in snapshot: IndexSnapshot, allowed: UInt16, wholeValueOnly: Bool,
                                                   everyLevelOrdered: Bool, _ body: (PostingScan, Range<Int>) -> Void) {
        let positions = snapshot.postingPositions
        let required = wholeValueOnly ? PostingMask.wholeValue : 0
        snapshot.postingStarts.withUnsafeBufferPointer { starts in
            snapshot.postingDocs.withUnsafeBufferPointer { docs in
                snapshot.postingMasks.withUnsafeBufferPointer { masks in
                    let scan = PostingScan(docs: docs.baseAddress!, masks: masks.baseAddress!, positions: positions,
                                           allowed: allowed, required: required, everyLevelOrdered: everyLevelOrdered)
                    for term in terms {
                        let postings = Int(starts[term])..<Int(starts[term + 1])
                        guard !postings.isEmpty else { continue }
                        body(scan, postings)
                    }
                }
            }
        }
    }

    /// Every rank noted: where the collector was used for one word, the word's part of the
    /// query's ranks. Ranks are noted at ordered levels only, so the documents with one are
    /// those of the ordered levels' bitmaps.
    func notedRanks() -> PackedRanks {
        guard tracksPositions, isStarted else { return .none }
        var ordered = [UInt64](repeating: 0, count: stride)
        for level in 0...lastLevel where orderedMask & PostingMask.bit(forLevel: level) != 0 {
            for index in 0..<stride { ordered[index] |= levelBits[level * stride + index] }
        }
        return PackedRanks(ranks, candidates: DocumentSet(capacity: snapshot.documentCount, words: ordered))
    }

    /// Adds one word's levels and ranks, noted by another collector (`notedRanks()`), as if its
    /// postings had been collected here.
    mutating func merge(levelBits other: PackedBits, ranks noted: PackedRanks) {
        guard isStarted else {
            // The first word: its own bitmaps and ranks, lent (copied only if a later word writes).
            isStarted = true
            levelBits = other.wordCount == stride * (lastLevel + 1) ? other.unpacked()
                : [UInt64](repeating: 0, count: stride * (lastLevel + 1))
            if other.wordCount != stride * (lastLevel + 1) { other.add(to: &levelBits) }
            ranks = tracksPositions ? noted.expanded(count: snapshot.documentCount) : []
            return
        }
        other.add(to: &levelBits)
        guard tracksPositions else { return }
        noted.merge(into: &ranks)
    }

    /// Adds a prefix's postings collected ahead (`PrefixPostings`) as `collect` would add
    /// them at the entry's levels: the documents ORed into `bits`, the levels ORed, the lower rank
    /// kept. Read in place from the derived file.
    mutating func merge(_ collected: PrefixPostings.Entry, into bits: inout [UInt64]) {
        start()
        bits.withUnsafeMutableBufferPointer { bits in
            collected.documents.withUnsafeBufferPointer { documents in
                for index in 0..<min(bits.count, documents.count) { bits[index] |= documents[index] }
            }
        }
        levelBits.withUnsafeMutableBufferPointer { levelBits in
            collected.levelBits.withUnsafeBufferPointer { collected in
                for index in 0..<min(levelBits.count, collected.count) { levelBits[index] |= collected[index] }
            }
        }
        guard tracksPositions else { return }
        ranks.withUnsafeMutableBufferPointer { ranks in
            collected.ranks.withUnsafeBufferPointer { collected in
                for document in 0..<min(ranks.count, collected.count) { ranks[document] = min(ranks[document], collected[document]) }
            }
        }
    }

    /// Notes the levels (and ranks) of the postings of `terms` at the `allowed` levels, in
    /// `documents` only.
    mutating func recordLevels(of terms: [Int], allowed: UInt16, in documents: DocumentSet) {
        start()
        let (stride, lastLevel, orderedMask) = (stride, lastLevel, orderedMask)
        let positions = snapshot.postingPositions
        levelBits.withUnsafeMutableBufferPointer { levelBits in
            ranks.withUnsafeMutableBufferPointer { ranks in
                for term in terms {
                    for i in Int(snapshot.postingStarts[term])..<Int(snapshot.postingStarts[term + 1]) {
                        let doc = Int(snapshot.postingDocs[i])
                        let mask = snapshot.postingMasks[i]
                        guard mask & allowed != 0, documents.contains(doc) else { continue }
                        PostingCollector.note(doc: doc, mask: mask, allowed: allowed, position: positions.position(ofPosting: i),
                                              levelBits: levelBits.baseAddress!, stride: stride, lastLevel: lastLevel,
                                              ranks: ranks.baseAddress, orderedMask: orderedMask)
                    }
                }
            }
        }
    }

    /// One occurrence of a query word in `doc`: its best allowed level, and in an ordered
    /// attribute its rank (level, position).
    @inline(__always)
    fileprivate static func note(doc: Int, mask: UInt16, allowed: UInt16, position: @autoclosure () -> UInt16,
                                 levelBits: UnsafeMutablePointer<UInt64>, stride: Int, lastLevel: Int,
                                 ranks: UnsafeMutablePointer<UInt16>?, orderedMask: UInt16) {
        let level = min(PostingMask.bestLevel(mask & allowed), lastLevel)
        levelBits[level &* stride &+ doc &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: doc & 63)
        if orderedMask & PostingMask.bit(forLevel: level) != 0, let ranks {
            // The stored position is at the term's best level; when that level is not allowed
            // here, it is unknown: 0.
            let rank = UInt16(level) << 10 | (PostingMask.bestLevel(mask) == level ? position() : 0)
            if rank < ranks[doc] { ranks[doc] = rank }
        }
    }
}

/// The hot loop over one posting list, with every pointer and constant a parameter (so that
/// they stay in registers while the loop writes through the bitmaps).
private struct PostingScan {
    let docs: UnsafePointer<UInt32>
    let masks: UnsafePointer<UInt16>
    let positions: PostingPositions
    /// The levels counted (level bits only).
    let allowed: UInt16
    /// `PostingMask.wholeValue` for whole-value matches only, else 0.
    let required: UInt16
    /// Whether every allowed level is ordered (and some level is), so that every posting counted
    /// needs its position and ranks are tracked.
    let everyLevelOrdered: Bool

    @inline(never)
    func add(_ postings: Range<Int>, to bits: UnsafeMutablePointer<UInt64>) {
        for i in postings {
            let mask = masks[i]
            guard mask & allowed != 0, mask & required == required else { continue }
            let doc = Int(docs[i])
            bits[doc &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: doc & 63)
        }
    }

    @inline(never)
    func addWithLevels<Filter: PostingFilter>(_ postings: Range<Int>, to bits: UnsafeMutablePointer<UInt64>, levelBits: UnsafeMutablePointer<UInt64>,
                                             stride: Int, lastLevel: Int, ranks: UnsafeMutablePointer<UInt16>?, orderedMask: UInt16,
                                             filter: Filter) {
        // Where some allowed level is unordered, a posting's position is looked up only when its
        // level is ordered (most postings of a typical index, in unordered descriptions, need
        // none); where every one is, each posting needs one, and a cursor reads them in turn.
        guard everyLevelOrdered, ranks != nil else {
            var lookedUp = LookedUpPositions(positions: positions)
            addEach(postings, to: bits, levelBits: levelBits, stride: stride, lastLevel: lastLevel, ranks: ranks,
                    orderedMask: orderedMask, positions: &lookedUp, filter: filter)
            return
        }
        positions.withCursor(at: postings.lowerBound) { cursor in
            var inTurn = PositionsInTurn(cursor: cursor)
            addEach(postings, to: bits, levelBits: levelBits, stride: stride, lastLevel: lastLevel, ranks: ranks,
                    orderedMask: orderedMask, positions: &inTurn, filter: filter)
        }
    }

    /// The loop of `addWithLevels`: `PostingCollector.note` written out, with the constants in
    /// locals, so that the loop neither reloads them nor tests what it knows: `allowed` holds
    /// level bits only, so a posting counted has a best allowed level, at most 14; without
    /// ranks, no level counts as ordered. (With `note` called in the loop instead, the loop
    /// spilled its pointers and constants to the stack and reloaded them for every posting:
    /// twice the instructions.)
    @inline(__always)
    private func addEach<Positions: PostingPositionSource, Filter: PostingFilter>(
        _ postings: Range<Int>, to bits: UnsafeMutablePointer<UInt64>, levelBits: UnsafeMutablePointer<UInt64>, stride: Int,
        lastLevel: Int, ranks: UnsafeMutablePointer<UInt16>?, orderedMask: UInt16, positions: inout Positions, filter: Filter
    ) {
        let (docs, masks, allowed, required) = (docs, masks, allowed, required)
        let lastLevel = UInt16(truncatingIfNeeded: min(max(lastLevel, 0), 14))
        let orderedMask = ranks == nil ? 0 : orderedMask
        for i in postings {
            let mask = masks[i]
            positions.step(to: i)
            guard mask & allowed != 0, mask & required == required else { continue }
            let doc = Int(truncatingIfNeeded: docs[i])
            let word = doc &>> 6, bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: doc & 63)
            guard filter.admits(word: word, bit: bit) else { continue }
            bits[word] |= bit
            let level = min(UInt16(truncatingIfNeeded: (mask & allowed & PostingMask.levels).trailingZeroBitCount), lastLevel)
            levelBits[Int(truncatingIfNeeded: level) &* stride &+ word] |= bit
            guard orderedMask &>> level & 1 != 0 else { continue }
            // As in `note`: the position is unknown (0) when the term's best level is not allowed.
            let rank = level &<< 10 | ((mask & PostingMask.levels).trailingZeroBitCount == Int(level) ? positions.position(ofPosting: i) : 0)
            let ranks = ranks.unsafelyUnwrapped   // not nil: `orderedMask` is 0 without ranks
            if rank < ranks[doc] { ranks[doc] = rank }
        }
    }
}

/// Which documents' postings `PostingScan.addEach` adds.
private protocol PostingFilter {
    func admits(word: Int, bit: UInt64) -> Bool
}

/// Every document's.
private struct EveryDocument: PostingFilter {
    @inline(__always) func admits(word: Int, bit: UInt64) -> Bool { true }
}

/// Only those of a set's documents (its bitmap's words).
private struct DocumentsIn: PostingFilter {
    let words: UnsafePointer<UInt64>
    @inline(__always) func admits(word: Int, bit: UInt64) -> Bool { words[word] & bit != 0 }
}

/// Where `PostingScan.addEach` takes a posting's position from.
private protocol PostingPositionSource {
    /// Called for every posting of the range, in order, before it is tested.
    mutating func step(to posting: Int)
    /// The position of `posting`, the one last stepped to.
    mutating func position(ofPosting posting: Int) -> UInt16
}

/// Each position looked up when it is asked for: few postings need one.
private struct LookedUpPositions: PostingPositionSource {
    let positions: PostingPositions
    @inline(__always) func step(to posting: Int) {}
    @inline(__always) func position(ofPosting posting: Int) -> UInt16 { positions.position(ofPosting: posting) }
}

/// Every posting's position read in turn (each one needs it).
private struct PositionsInTurn: PostingPositionSource {
    var cursor: PostingPositions.Cursor
    var current: UInt16 = 0
    @inline(__always) mutating func step(to posting: Int) { current = cursor.next() }
    @inline(__always) func position(ofPosting posting: Int) -> UInt16 { current }
}
