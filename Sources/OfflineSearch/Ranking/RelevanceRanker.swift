/// Orders the matching documents and cuts out one page, without sorting them all.
///
/// The order (documented in the README until Algolia's full tie-breaking arrives):
/// 1. **attribute**: the best searchable level at which any query word matched;
/// 2. **exact**: more query words matched as whole words (not only as a prefix) first;
/// 3. **custom**: `customRanking`, which is the documents' ordinal order.
///
/// Each (attribute, exact) pair is a tier computed with set operations; tiers before the
/// page are skipped by counting, so a page costs O(documents / 64) per tier plus the page.
enum RelevanceRanker {
    /// A group of documents that tie on relevance, in custom-ranking order.
    enum Tier {
        case set(DocumentSet)
        case list([Int])

        var count: Int {
            switch self {
            case .set(let set): set.count
            case .list(let list): list.count
            }
        }

        func elements(skip: Int, limit: Int) -> [Int] {
            switch self {
            case .set(let set): set.elements(skip: skip, limit: limit)
            case .list(let list): Array(list.dropFirst(skip).prefix(limit))
            }
        }
    }

    /// The documents at positions `start..<start + count` of the ranked result.
    static func page(of matched: DocumentSet, candidates: CandidateMatches?, start: Int, count: Int) -> [Int] {
        guard count > 0 else { return [] }
        var remainingSkip = start
        var result: [Int] = []
        for tier in tiers(of: matched, candidates: candidates) {
            let size = tier.count
            if remainingSkip >= size { remainingSkip -= size; continue }
            result.append(contentsOf: tier.elements(skip: remainingSkip, limit: count - result.count))
            remainingSkip = 0
            if result.count == count { break }
        }
        return result
    }

    /// The tiers in ranking order; lazily, so tiers after the page are never computed.
    static func tiers(of matched: DocumentSet, candidates: CandidateMatches?) -> some Sequence<Tier> {
        guard let candidates, !candidates.levels.isEmpty else {
            return AnySequence([Tier.set(matched)])
        }
        var remaining = matched
        var level = 0
        var pending: [Tier] = []
        return AnySequence(AnyIterator<Tier> {
            while pending.isEmpty {
                guard level < candidates.levels.count, !remaining.isEmpty else { return nil }
                let atLevel = remaining.intersection(candidates.levels[level])
                remaining.subtract(atLevel)
                level += 1
                if level == candidates.levels.count { remaining = DocumentSet(capacity: matched.capacity) }
                pending = exactTiers(atLevel, candidates: candidates).reversed()
            }
            return pending.removeLast()
        })
    }

    /// Splits one attribute tier by the number of words matched whole, most first.
    static func exactTiers(_ tier: DocumentSet, candidates: CandidateMatches) -> [Tier] {
        switch candidates.exactForPrefixWords.count {
        case 0:
            return [.set(tier)]
        case 1:
            let whole = tier.intersection(candidates.exactForPrefixWords[0])
            return [.set(whole), .set(tier.subtracting(whole))]
        default:
            let prefixWords = candidates.exactForPrefixWords
            var buckets = [[Int]](repeating: [], count: prefixWords.count + 1)
            tier.forEach { doc in
                var whole = 0
                for set in prefixWords where set.contains(doc) { whole += 1 }
                buckets[prefixWords.count - whole].append(doc)
                return true
            }
            return buckets.map { .list($0) }
        }
    }
}
