/// Typo-tolerant candidate terms: every indexed word within one or two typos of a query word
/// (Damerau–Levenshtein: a missing, extra, substituted or transposed letter), found by walking
/// the sorted vocabulary as if it were a trie.
///
/// The walk keeps one row of the edit-distance table per character of the current term; the
/// next term in sorted order shares a prefix with this one, so only the rows past that prefix
/// are computed again. When every entry of a row exceeds the allowed typos, no term with that
/// prefix can match, and the walk jumps past all of them, galloping from where it is
/// (`TermTable.endOfRun`). A prefix search jumps as well once the query has matched as a
/// prefix with as few typos as any row below can reach (no entry of a row is below the row
/// above's least): every term under that prefix has those typos. The cost is bounded by the
/// number of vocabulary prefixes within reach of the query word, not by the size of the
/// vocabulary.
enum TypoCandidates {
    struct Candidate: Equatable, Sendable {
        var term: Int
        var typos: Int
    }

    /// Terms within `maxTypos` typos of `word` (as a whole word, or — when `isPrefix` — as the
    /// beginning of the term), with their typo counts. Terms that match with no typo are not
    /// listed: exact and prefix matches are found by the term table directly.
    /// - Complexity: O(visited prefixes × |word|).
    static func find(_ word: String, isPrefix: Bool, maxTypos: Int, in terms: TermTable) -> [Candidate] {
        guard maxTypos > 0, terms.count > 0 else { return [] }
        // A word beyond ASCII (Cyrillic, Greek, …): typos counted in letters, not in bytes.
        guard word.utf8.isASCII else { return findInLetters(word, isPrefix: isPrefix, maxTypos: maxTypos, in: terms) }
        let query = Array(word.utf8)
        let width = query.count + 1
        guard width > 1 else { return [] }
        var result: [Candidate] = []
        // rows[d * width + j]: distance between the term's first d bytes and the query's first j.
        var rows = [Int](repeating: 0, count: width * 2)
        for j in 0..<width { rows[j] = j }
        // For prefix matching, bestUpTo[d]: the fewest typos of the whole query against the
        // term's first d' bytes, over d' ≤ d (the query matched as a prefix ending at any depth).
        var bestUpTo = [Int](repeating: query.count, count: 2)
        let m = query.count
        query.withUnsafeBufferPointer { query in
        terms.bytes.withUnsafeBufferPointer { bytes in
        terms.starts.withUnsafeBufferPointer { starts in
            var previousTerm: Range<Int> = 0..<0   // byte range of the last term whose rows are computed
            var computedDepth = 0                  // rows valid for depths 0...computedDepth
            var termID = 0
            while termID < terms.count {
                let start = Int(starts[termID])
                let end = Int(starts[termID + 1])
                let length = end - start
                // Shared prefix with the previous term: its rows can be reused.
                var shared = 0
                let limit = min(length, previousTerm.count, computedDepth)
                while shared < limit, bytes[start + shared] == bytes[previousTerm.lowerBound + shared] { shared += 1 }
                if rows.count < (length + 1) * width { rows.append(contentsOf: repeatElement(0, count: (length + 1) * width - rows.count)) }
                if bestUpTo.count < length + 1 { bestUpTo.append(contentsOf: repeatElement(0, count: length + 1 - bestUpTo.count)) }

                var depth = shared
                var pruneAt = -1
                var rowsExceeded = false   // pruned because no entry of its row is within the typos
                var best = isPrefix ? bestUpTo[shared] : Int.max
                rows.withUnsafeMutableBufferPointer { rows in
                    while depth < length {
                        let d = depth + 1
                        let byte = bytes[start + depth]
                        let previousByte = d > 1 ? bytes[start + depth - 1] : 0
                        let row = d * width
                        let above = (d - 1) * width
                        rows[row] = d
                        var rowMinimum = d
                        // Only the band |d - j| ≤ maxTypos can hold a distance within the typos
                        // (a distance is at least the difference of the lengths): the cells
                        // beside it, which the band's next row and this row's first cell read,
                        // are set to maxTypos + 1. Within the band every distance up to maxTypos
                        // is exact; one beyond it reads as beyond it (Ukkonen's cut-off). A term
                        // longer than the word by more than the typos has no band left: pruned.
                        let low = max(1, d - maxTypos), high = min(m, d + maxTypos)
                        let hasBand = low <= high
                        if low > 1, low - 1 <= m { rows[row + low - 1] = maxTypos + 1 }
                        if high < m { rows[row + high + 1] = maxTypos + 1 }
                        for j in low..<(hasBand ? high + 1 : low) {
                            let cost = query[j - 1] == byte ? 0 : 1
                            var value = min(rows[above + j] + 1, rows[row + j - 1] + 1, rows[above + j - 1] + cost)
                            if d > 1, j > 1, query[j - 1] == previousByte, query[j - 2] == byte {
                                value = min(value, rows[(d - 2) * width + j - 2] + 1)   // transposition
                            }
                            rows[row + j] = value
                            rowMinimum = min(rowMinimum, value)
                        }
                        depth = d
                        if isPrefix {
                            best = min(best, hasBand && high == m ? rows[row + m] : maxTypos + 1)
                            bestUpTo[d] = best
                        }
                        if rowMinimum > maxTypos || isPrefix && rowMinimum >= best {
                            pruneAt = d
                            rowsExceeded = rowMinimum > maxTypos
                            break
                        }
                    }
                }
                computedDepth = depth
                previousTerm = start..<end

                if pruneAt >= 0 {
                    // No term that starts with these `pruneAt` bytes can match, or (a prefix
                    // search) each matches with `best` typos: skip them all. This term is the
                    // first of them (an earlier one would have been pruned at the same depth),
                    // so they run from here to `next`. Out of reach, the walk also skips the
                    // siblings after them that are out of reach as well, up to the first with a
                    // byte that may bring it within reach (`nextReachableByte`). A prefix search
                    // pruned so has matched nowhere above: had it, the row above would hold an
                    // entry below the typos it matched with, and this row one within the typos.
                    let next: Int
                    if rowsExceeded {
                        let reachable = rows.withUnsafeBufferPointer { rows in
                            nextReachableByte(after: bytes[start + pruneAt - 1], depth: pruneAt, rows: rows, query: query, maxTypos: maxTypos)
                        }
                        next = reachable.map { terms.endOfRun(sharingPrefixOf: termID, length: pruneAt - 1, nextByteBelow: $0) }
                            ?? terms.endOfRun(sharingPrefixOf: termID, length: pruneAt - 1)
                    } else {
                        next = terms.endOfRun(sharingPrefixOf: termID, length: pruneAt)
                    }
                    if isPrefix, best <= maxTypos, best > 0 {
                        // Already matched as a prefix at a shallower depth: every term under this
                        // prefix matches with `best` typos (the prefix found above is shared).
                        for id in termID..<next { result.append(Candidate(term: id, typos: best)) }
                    }
                    termID = next
                    // Rows past the shared part are no longer those of a computed term.
                    computedDepth = min(computedDepth, pruneAt - 1)
                    continue
                }
                let typos = isPrefix ? best : abs(length - m) <= maxTypos ? rows[length * width + m] : maxTypos + 1
                if typos > 0, typos <= maxTypos { result.append(Candidate(term: termID, typos: typos)) }
                termID += 1
            }
        }
        }
        }
        return result
    }

    /// A term was pruned at `depth`, no entry of its row within the typos, `byte` its byte
    /// there: the least byte above it with which a sibling (a term with the same `depth - 1`
    /// bytes, then another) could have an entry within the typos, or nil when none could.
    /// A sibling's row is computed from the same rows above as the pruned row (`rows`, one row
    /// of `query.count + 1` entries per depth). Whatever its byte, an entry that comes from the
    /// entry above, or from the one above-left with a byte other than the query's letter, has
    /// the same value in the pruned row: out of reach. An entry from its left is one more than
    /// another entry of its row, and a transposition's is no lower than the entry above the
    /// diagonal beside it. So a sibling comes within reach only through a byte equal to query
    /// letter j where the entry above-left of j is within the typos; the siblings with other
    /// bytes are skipped without their rows.
    private static func nextReachableByte(after byte: UInt8, depth: Int, rows: UnsafeBufferPointer<Int>,
                                          query: UnsafeBufferPointer<UInt8>, maxTypos: Int) -> UInt8? {
        let m = query.count, width = m + 1
        let low = max(1, depth - maxTypos), high = min(m, depth + maxTypos)
        guard low <= high else { return nil }   // longer than the word by more than the typos
        let above = (depth - 1) * width
        var least: UInt8?
        for j in low...high where rows[above + j - 1] <= maxTypos && query[j - 1] > byte {
            if least.map({ query[j - 1] < $0 }) ?? true { least = query[j - 1] }
        }
        return least
    }

    /// `find` with the edit distance counted in Unicode scalars (a Cyrillic or Greek letter is
    /// one letter, not the two bytes UTF-8 writes it with): the same walk of the sorted
    /// vocabulary, its rows kept per letter of the term, each letter decoded as the walk reaches
    /// its last byte; a prefix of letters no term can continue within the typos skips every term
    /// that starts with its bytes.
    /// - Complexity: O(visited prefixes × |word|), as `find`.
    static func findInLetters(_ word: String, isPrefix: Bool, maxTypos: Int, in terms: TermTable) -> [Candidate] {
        let query = word.unicodeScalars.map(\.value)
        let m = query.count, width = m + 1
        guard m > 0 else { return [] }
        var result: [Candidate] = []
        // rows[k * width + j]: distance between the term's first k letters and the query's first j.
        var rows = Array(0...m)
        // For prefix matching, bestUpTo[k]: the fewest typos of the whole query against the term's
        // first k' letters, over k' ≤ k.
        var bestUpTo = [m]
        // The current term's letters, and the byte where each ends (`ends[0]` = 0).
        var letters: [UInt32] = [0]
        var ends = [0]
        var previousTerm: Range<Int> = 0..<0
        var computedLetters = 0
        terms.bytes.withUnsafeBufferPointer { bytes in
        terms.starts.withUnsafeBufferPointer { starts in
            var termID = 0
            while termID < terms.count {
                let start = Int(starts[termID]), end = Int(starts[termID + 1])
                // Letters shared with the previous term (whole letters only) keep their rows.
                var sharedBytes = 0
                let limit = min(end - start, previousTerm.count, ends[computedLetters])
                while sharedBytes < limit, bytes[start + sharedBytes] == bytes[previousTerm.lowerBound + sharedBytes] { sharedBytes += 1 }
                var k = computedLetters
                while ends[k] > sharedBytes { k -= 1 }
                letters.removeSubrange((k + 1)...)
                ends.removeSubrange((k + 1)...)
                var best = isPrefix ? bestUpTo[k] : Int.max
                var position = start + ends[k]
                var pruneAt = -1
                while position < end {
                    // The next letter: a lead byte and its continuation bytes.
                    let lead = UInt32(bytes[position])
                    let count = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    var scalar = count == 1 ? lead : lead & (0xFF >> (count + 1))
                    for offset in 1..<max(count, 1) where position + offset < end {
                        scalar = scalar << 6 | UInt32(bytes[position + offset] & 0x3F)
                    }
                    position = min(position + count, end)
                    let d = k + 1
                    letters.append(scalar)
                    ends.append(position - start)
                    if rows.count < (d + 1) * width { rows.append(contentsOf: repeatElement(0, count: (d + 1) * width - rows.count)) }
                    if bestUpTo.count < d + 1 { bestUpTo.append(contentsOf: repeatElement(0, count: d + 1 - bestUpTo.count)) }
                    let row = d * width, above = k * width
                    rows[row] = d
                    var rowMinimum = d
                    for j in 1..<width {
                        let cost = query[j - 1] == scalar ? 0 : 1
                        var value = min(rows[above + j] + 1, rows[row + j - 1] + 1, rows[above + j - 1] + cost)
                        if d > 1, j > 1, query[j - 1] == letters[d - 1], query[j - 2] == scalar {
                            value = min(value, rows[(d - 2) * width + j - 2] + 1)   // transposition
                        }
                        rows[row + j] = value
                        rowMinimum = min(rowMinimum, value)
                    }
                    k = d
                    if isPrefix {
                        best = min(best, rows[row + m])
                        bestUpTo[d] = best
                    }
                    if rowMinimum > maxTypos || isPrefix && rowMinimum >= best {
                        pruneAt = ends[d]
                        break
                    }
                }
                computedLetters = k
                previousTerm = start..<end
                if pruneAt >= 0 {
                    let next = terms.endOfRun(sharingPrefixOf: termID, length: pruneAt)
                    if isPrefix, best <= maxTypos, best > 0 {
                        for id in termID..<next { result.append(Candidate(term: id, typos: best)) }
                    }
                    termID = next
                    computedLetters = k - 1
                    continue
                }
                let typos = isPrefix ? best : rows[k * width + m]
                if typos > 0, typos <= maxTypos { result.append(Candidate(term: termID, typos: typos)) }
                termID += 1
            }
        }
        }
        return result
    }
}
