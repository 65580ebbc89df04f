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
        var levels = [DocumentSet](repeating: DocumentSet(capacity: capacity), count: levelCount)
        var matched: DocumentSet?
        var exact: [DocumentSet] = []
        // Rarest words first would allow early exits; the sets are small enough to combine directly.
        for word in words {
            let termRange: Range<Int>
            if word.isPrefix {
                termRange = snapshot.terms.ids(withPrefix: word.folded)
            } else if let id = snapshot.terms.id(of: word.folded) {
                termRange = id..<(id + 1)
            } else {
                termRange = 0..<0
            }
            var wordSet = DocumentSet(capacity: capacity)
            snapshot.postingStarts.withUnsafeBufferPointer { starts in
                snapshot.postingDocs.withUnsafeBufferPointer { docs in
                    snapshot.postingLevels.withUnsafeBufferPointer { postingLevels in
                        for term in termRange {
                            let range = Int(starts[term])..<Int(starts[term + 1])
                            wordSet.insert(contentsOf: docs[range])
                            for i in range { levels[Int(postingLevels[i])].insert(Int(docs[i])) }
                        }
                    }
                }
            }
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
        return CandidateMatches(matched: matched ?? DocumentSet(capacity: capacity, full: true), levels: levels,
                                exactForPrefixWords: exact, wholeWordCount: words.count - exact.count)
    }
}
