/// The documents each query word matches, from the vocabulary and the posting lists, plus
/// what ranking needs: at which searchable level each document matched best, and which
/// documents matched a prefix word as a whole word.
///
/// Candidate generation is separate from ranking so that typo tolerance can add candidate
/// terms here without touching the rest of the pipeline.
struct CandidateMatches {
    /// Documents that match every word (before filters).
    var matched: DocumentSet
    /// `levels[l]`: documents where some query word occurs at searchable level `l` (best level per word and document).
    var levels: [DocumentSet]
    /// For each prefix word, the documents that contain it as a whole word.
    var exactForPrefixWords: [DocumentSet]
    /// Words that are not prefixes (always whole-word matches).
    var wholeWordCount: Int
}

enum CandidateMatcher {
    /// - Complexity: O(total postings of the candidate terms + words × documents / 64).
    static func match(_ words: [QueryWord], in snapshot: IndexSnapshot) -> CandidateMatches {
        let capacity = snapshot.documentCount
        let levelCount = snapshot.configuration.levelCount
        let stride = (capacity + 63) >> 6
        // One flat bitmap per level, written through a raw pointer in the posting loop.
        var levelBits = [UInt64](repeating: 0, count: stride * levelCount)
        var matched: DocumentSet?
        var exact: [DocumentSet] = []
        for word in words {
            let termRange: Range<Int>
            if word.isPrefix {
                termRange = snapshot.terms.ids(withPrefix: word.folded)
            } else if let id = snapshot.terms.id(of: word.folded) {
                termRange = id..<(id + 1)
            } else {
                termRange = 0..<0
            }
            var wordBits = [UInt64](repeating: 0, count: stride)
            snapshot.postingStarts.withUnsafeBufferPointer { starts in
                snapshot.postingDocs.withUnsafeBufferPointer { docs in
                    snapshot.postingLevels.withUnsafeBufferPointer { postingLevels in
                        wordBits.withUnsafeMutableBufferPointer { wordBits in
                            levelBits.withUnsafeMutableBufferPointer { levelBits in
                                for term in termRange {
                                    for i in Int(starts[term])..<Int(starts[term + 1]) {
                                        let doc = Int(docs[i])
                                        let bit: UInt64 = 1 << UInt64(doc & 63)
                                        wordBits[doc >> 6] |= bit
                                        levelBits[Int(postingLevels[i]) * stride + doc >> 6] |= bit
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let wordSet = DocumentSet(capacity: capacity, words: wordBits)
            if word.isPrefix {
                var whole = DocumentSet(capacity: capacity)
                if let id = snapshot.terms.id(of: word.folded) {
                    let range = Int(snapshot.postingStarts[id])..<Int(snapshot.postingStarts[id + 1])
                    whole.insert(contentsOf: snapshot.postingDocs[range])
                }
                exact.append(whole)
            }
            if matched == nil { matched = wordSet } else { matched!.formIntersection(wordSet) }
        }
        let levels = (0..<levelCount).map { level in
            DocumentSet(capacity: capacity, words: Array(levelBits[level * stride..<(level + 1) * stride]))
        }
        return CandidateMatches(matched: matched ?? DocumentSet(capacity: capacity, full: true), levels: levels,
                                exactForPrefixWords: exact, wholeWordCount: words.count - exact.count)
    }
}
