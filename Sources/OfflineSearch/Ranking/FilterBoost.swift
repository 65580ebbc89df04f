// FilterBoost: the documents each element of optionalFilters scores, by score.

/// One AND-ed element of `optionalFilters` on one segment: the documents it scores, by score
/// (Algolia's filter scoring). A filter alone scores its `<score=N>` (1 by default); an OR group
/// scores the best of the filters a record matches, or their sum with `sumOrFiltersScores`.
/// A record's total is the sum over the elements.
struct FilterBoost {
    /// Disjoint sets of documents, each with the score its documents get (never 0).
    var levels: [(score: Int, documents: DocumentSet)]

    /// `filters`: each filter of the group with the documents matching it.
    init(_ filters: [(score: Int, documents: DocumentSet)], sum: Bool) {
        levels = []
        if sum {
            // Documents by the sum of the scores seen so far (those matching none left out).
            var bySum: [Int: DocumentSet] = [:]
            for (score, documents) in filters where score > 0 && !documents.isEmpty {
                var next: [Int: DocumentSet] = [:]
                var unseen = documents
                for (total, set) in bySum {
                    let both = set.intersection(documents)
                    unseen.subtract(set)
                    if !both.isEmpty { next[total + score, default: DocumentSet(capacity: set.capacity)].formUnion(both) }
                    let rest = set.subtracting(documents)
                    if !rest.isEmpty { next[total, default: DocumentSet(capacity: set.capacity)].formUnion(rest) }
                }
                if !unseen.isEmpty { next[score, default: DocumentSet(capacity: unseen.capacity)].formUnion(unseen) }
                bySum = next
            }
            levels = bySum.sorted { $0.key > $1.key }.map { ($0.key, $0.value) }
        } else {
            // The best score each document reaches: filters by score, highest first.
            var scored: DocumentSet?
            for (score, documents) in filters.sorted(by: { $0.score > $1.score }) where score > 0 {
                let part = scored.map { documents.subtracting($0) } ?? documents
                guard !part.isEmpty else { continue }
                levels.append((score, part))
                if scored == nil { scored = part } else { scored!.formUnion(part) }
            }
        }
    }

    /// A document's total score over `boosts` (the `filters` criterion, `_rankingInfo.filters`).
    static func score(of document: Int, in boosts: [FilterBoost]) -> Int {
        boosts.reduce(0) { total, boost in
            total + (boost.levels.first { $0.documents.contains(document) }?.score ?? 0)
        }
    }
}
