// ProximityScanner: how close the query words are in a record, read from the forward index.

import CPrefetch

/// Measures how close the query words are in a record (the proximity criterion), reading the
/// record's words in order from the forward index, and notes where the closest pairs are (the
/// attribute criterion's `minProximity` strategy).
struct ProximityScanner {
    /// What one record's scan found.
    struct Match {
        /// The proximity distance (`_rankingInfo.proximityDistance`).
        var distance: Int
        /// The best `PostingRank` (level, then position in an ordered attribute) among the
        /// attributes where a pair of consecutive query words is at its smallest distance below
        /// 8; nil when every pair is 8 or more apart.
        var attributeRank: UInt16?
        /// The `sum` strategy: each query word's best `PostingRank` in the record, summed over
        /// the words found; nil when not asked for (or no word was found).
        var rankSum: Int?
    }

    private let forward: ForwardIndex
    private let words: [WordTerms]
    /// `minProximity`: the smallest distance a pair counts for.
    private let minProximity: Int
    /// Attribute ordinal → the rank of its level (position 0) and whether it is ordered. Only
    /// these two of each `SearchableAttribute`: the scan reads one at every attribute of every
    /// record, and copying the attribute itself retained and released its path and compounds
    /// there (1 % of a keystroke log's samples).
    private let attributes: [AttributeKind]
    private typealias AttributeKind = (rank: UInt16, ordered: Bool)
    /// Every attribute's, without `searchableAttributes` (`SearchableText.anyAttribute`).
    private let anyAttribute: AttributeKind
    /// For many documents: term → the query words it matches, one bit each (the first 16 words).
    private let table: [UInt16]
    /// The `sum` strategy: each word's best rank (every word read, no early stop).
    private let sums: Bool
    private static let far = Int.min / 4

    /// `documents`: how many documents will be read; for many, a table of the vocabulary makes
    /// each word's test one load.
    init(_ candidates: CandidateMatches, documents: Int) {
        forward = candidates.forward
        words = Array(candidates.wordTerms.prefix(16))
        minProximity = candidates.minProximity
        func kind(_ attribute: SearchableAttribute) -> AttributeKind {
            (PostingRank.rank(level: attribute.level, position: 0), attribute.ordered)
        }
        attributes = candidates.searchable.map(kind)
        anyAttribute = kind(SearchableText.anyAttribute)
        if documents > 256 {
            var table = [UInt16](repeating: 0, count: candidates.vocabularySize)
            for (word, terms) in words.enumerated() {
                terms.forEachTerm { table[$0] |= 1 << UInt16(word) }
            }
            self.table = table
        } else {
            table = []
        }
        sums = candidates.attributeStrategy == .sum
    }

    /// Scans `documents` in order, calling `each` with each one's match until it returns false
    /// (a caller that has read enough). The arrays read are
    /// held once for them all, and the records a few places ahead are asked from memory while
    /// one is read: a group's records are far apart in the forward index, and reading one is
    /// mostly waiting for it.
    func scan(_ documents: [Int], while each: (_ document: Int, _ match: Match) -> Bool) {
        withBuffers { terms, starts, table in
            for (index, document) in documents.enumerated() {
                // Where a record further ahead starts is asked for first: asking for a record's
                // words reads where they start, and that read waited on memory as long as the
                // words would (a third of `proximityHead`'s own samples).
                if index + Self.startsAhead < documents.count, let base = starts.baseAddress {
                    cprefetch_read(base + documents[index + Self.startsAhead])
                }
                if index + Self.fetchAhead < documents.count, let base = terms.baseAddress {
                    let ahead = documents[index + Self.fetchAhead]
                    let start = Int(starts[ahead])
                    let end = min(Int(starts[ahead + 1]), start + Self.fetchedTerms)
                    for term in Swift.stride(from: start, to: end, by: Self.termsPerLine) { cprefetch_read(base + term) }
                }
                guard each(document, scan(document, terms: terms, starts: starts, table: table)) else { return }
            }
        }
    }

    /// The smallest distance a record can have: every pair of query words adjacent (or closer
    /// than `minProximity`).
    var smallestDistance: Int { max(0, words.count - 1) * minProximity }

    /// How many records ahead `scan(_:while:)` asks for, and how much of each (its first cache lines);
    /// and how many ahead it asks where a record starts (`ForwardIndex.starts`).
    private static let fetchAhead = 8
    private static let startsAhead = 2 * fetchAhead
    private static let fetchedTerms = 8 * termsPerLine
    private static let termsPerLine = 64 / MemoryLayout<UInt32>.stride

    /// The sum over consecutive query words of the distance between their closest occurrences
    /// (1 when adjacent, or `minProximity`; at most 8 per pair; attribute values and array
    /// elements are 8 apart), and the attribute of the closest pairs.
    func scan(_ document: Int) -> Match {
        withBuffers { terms, starts, table in scan(document, terms: terms, starts: starts, table: table) }
    }

    /// The arrays a scan reads, held for `body`.
    private func withBuffers<Result>(_ body: (_ terms: UnsafeBufferPointer<UInt32>, _ starts: UnsafeBufferPointer<UInt32>,
                                              _ table: UnsafeBufferPointer<UInt16>) -> Result) -> Result {
        table.withUnsafeBufferPointer { table in
            forward.terms.withUnsafeBufferPointer { terms in
                forward.starts.withUnsafeBufferPointer { starts in body(terms, starts, table) }
            }
        }
    }

    private func scan(_ document: Int, terms: UnsafeBufferPointer<UInt32>, starts: UnsafeBufferPointer<UInt32>,
                      table: UnsafeBufferPointer<UInt16>) -> Match {
        let count = words.count
        guard count > 1 else { return Match(distance: 0, attributeRank: nil) }
        let range = Int(starts[document])..<Int(starts[document + 1])
        // The scan's state on the stack, behind pointers: the loop over the record's words
        // keeps it in registers and never checks an array's uniqueness.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count) { positions in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 2 * count) { ranks in
                var state = ScanState(last: positions.baseAddress!, best: positions.baseAddress! + count,
                                      pairRank: ranks.baseAddress!, wordRank: ranks.baseAddress! + count, count: count, sums: sums)
                read(terms, range: range, table: table, into: &state)
                var rank: UInt16?
                var distance = 0
                var found = 0
                var rankSum = 0
                for pair in 0..<(count - 1) {
                    if state.best[pair] < 8 { rank = min(rank ?? .max, state.pairRank[pair]) }
                    distance += max(minProximity, min(state.best[pair], 8))
                }
                if sums {
                    for word in 0..<count where state.wordRank[word] != PostingRank.unmatched {
                        found += 1
                        rankSum += Int(state.wordRank[word])
                    }
                }
                return Match(distance: distance, attributeRank: rank, rankSum: found == 0 ? nil : rankSum)
            }
        }
    }

    /// Reads the record's words in `range` of `terms`, noting each query word's occurrences in
    /// `state`; stops once every pair is adjacent (unless the `sum` strategy needs every word).
    ///
    /// Most of a record's words are no query word's: a tight loop (`nextNoted`) passes over
    /// them, and a word's position and its place in its attribute are worked out from its index
    /// only when it is one. A marker adds 8 to the positions after it, seven more than its own
    /// step of the index; a new attribute's marker starts the places in the attribute again,
    /// and an array element's marker (the same attribute) leaves them as they were, its own
    /// step of the index taken off.
    @inline(__always)
    private func read(_ terms: UnsafeBufferPointer<UInt32>, range: Range<Int>, table: UnsafeBufferPointer<UInt16>, into state: inout ScanState) {
        guard let base = terms.baseAddress, !range.isEmpty else { return }
        let count = state.count
        let end = range.upperBound
        var index = range.lowerBound
        var positionOffset = -range.lowerBound   // a word's position: its index plus this
        var attributeStart = range.lowerBound    // a word's place in its attribute: its index minus this
        var currentAttribute = -1
        var adjacentPairs = 0   // pairs already at the smallest distance: once all are, stop reading
        while true {
            index = table.isEmpty ? nextNoted(base, from: index, to: end)
                : ProximityScanner.nextNoted(base, from: index, to: end, table: table.baseAddress!, vocabulary: UInt32(truncatingIfNeeded: table.count))
            guard index < end else { return }
            let term = base[index]
            index &+= 1
            if ForwardIndex.isMarker(term) {
                positionOffset &+= 7
                let ordinal = ForwardIndex.attribute(ofMarker: term)
                if ordinal != currentAttribute {   // array elements continue their attribute
                    currentAttribute = ordinal
                    attributeStart = index
                    let attribute = ordinal < attributes.count ? attributes[ordinal] : anyAttribute
                    state.attributeRank = attribute.rank
                    state.ordered = attribute.ordered
                } else {
                    attributeStart &+= 1
                }
                continue
            }
            let matched = table.isEmpty ? matches(term) : (Int(term) < table.count ? table[Int(term)] : 0)
            guard matched != 0 else { continue }
            let at = index &- 1
            adjacentPairs += state.visit(matched, at: at &+ positionOffset, inAttribute: at &- attributeStart)
            if adjacentPairs == count - 1, !state.sums { return }
        }
    }

    /// The index of the first word from `index` on (before `end`) that is a marker (or any
    /// term past the `vocabulary`), or a term that some query word matches (`table`: term →
    /// query words); `end` when there is none.
    @inline(__always)
    private static func nextNoted(_ terms: UnsafePointer<UInt32>, from index: Int, to end: Int,
                                  table: UnsafePointer<UInt16>, vocabulary: UInt32) -> Int {
        var index = index
        while index < end {
            let term = terms[index]
            if term >= vocabulary || table[Int(truncatingIfNeeded: term)] != 0 { return index }
            index &+= 1
        }
        return end
    }

    /// `nextNoted` without a table (a few records read): each word tested against the query's.
    private func nextNoted(_ terms: UnsafePointer<UInt32>, from index: Int, to end: Int) -> Int {
        var index = index
        while index < end {
            let term = terms[index]
            if ForwardIndex.isMarker(term) || matches(term) != 0 { return index }
            index &+= 1
        }
        return end
    }

    /// The query words (of the first 16) that match `term`, one bit each.
    private func matches(_ term: UInt32) -> UInt16 {
        var matched: UInt16 = 0
        for word in 0..<words.count where words[word].matches(term) { matched |= 1 << UInt16(word) }
        return matched
    }

    /// One scan's state: per query word, its last position (`far` before any); per pair, its
    /// smallest distance so far (8 before any) and the rank of the attribute where it was
    /// reached; with `sums`, per word, its best rank.
    private struct ScanState {
        let last: UnsafeMutablePointer<Int>
        let best: UnsafeMutablePointer<Int>
        let pairRank: UnsafeMutablePointer<UInt16>
        let wordRank: UnsafeMutablePointer<UInt16>
        let count: Int
        let sums: Bool
        var attributeRank: UInt16 = 0
        var ordered = false

        init(last: UnsafeMutablePointer<Int>, best: UnsafeMutablePointer<Int>, pairRank: UnsafeMutablePointer<UInt16>,
             wordRank: UnsafeMutablePointer<UInt16>, count: Int, sums: Bool) {
            (self.last, self.best, self.pairRank, self.wordRank, self.count, self.sums) = (last, best, pairRank, wordRank, count, sums)
            last.initialize(repeating: ProximityScanner.far, count: count)
            best.initialize(repeating: 8, count: count - 1)
            pairRank.initialize(repeating: PostingRank.unmatched, count: count - 1)
            wordRank.initialize(repeating: PostingRank.unmatched, count: count)
        }

        /// Records that the words in `matched` occur at `position`; returns how many pairs
        /// became adjacent. A pair closer than before 8 is inside this attribute value (values
        /// are 8 apart): its rank is this attribute's, at the position of the pair's first word.
        @inline(__always)
        mutating func visit(_ matched: UInt16, at position: Int, inAttribute: Int) -> Int {
            var newlyAdjacent = 0
            var remaining = matched
            while remaining != 0 {
                let word = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                if sums {
                    let rank = attributeRank | UInt16(min(ordered ? inAttribute : 0, PostingRank.maxPosition))
                    if rank < wordRank[word] { wordRank[word] = rank }
                }
                if word > 0, closer(pair: word - 1, other: word - 1, at: position, inAttribute: inAttribute) { newlyAdjacent += 1 }
                if word < count - 1, closer(pair: word, other: word + 1, at: position, inAttribute: inAttribute) { newlyAdjacent += 1 }
                last[word] = position
            }
            return newlyAdjacent
        }

        /// Updates `pair` with the occurrence of `other` before `position`; true when the pair
        /// has just become adjacent.
        @inline(__always)
        private func closer(pair: Int, other: Int, at position: Int, inAttribute: Int) -> Bool {
            guard last[other] != ProximityScanner.far else { return false }
            let distance = position - last[other]
            guard distance < best[pair] else { return false }
            best[pair] = distance
            if distance < 8 {
                let firstWord = ordered ? max(0, inAttribute - distance) : 0
                pairRank[pair] = attributeRank | UInt16(min(firstWord, PostingRank.maxPosition))
            }
            return distance == 1
        }
    }
}
