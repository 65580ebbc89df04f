// How each criterion splits a group: attribute, proximity, typos, optional filters, optional words, exact.
extension RelevanceRanker {
    /// Splits a group by its best match: the searchable level first, then, inside an ordered
    /// attribute, the position of the first matched word (earlier first). With the
    /// `minProximity` strategy, a record's attribute is the best one holding a closest pair of
    /// query words, when it has one; with `sum`, the sum of each word's best match. Those read
    /// the group's records (the proximity split's, or their own scan), so a group over
    /// `proximityGroupLimit` falls back to the best match.
    /// - Complexity: O(levels × n / 64), plus O(documents) for each ordered level split by
    ///   position, or O(d log d) for the d documents of a group ranked by proximity, plus the
    ///   words of its records when they are read here.
    /// `overLimit`: whether the group is over `proximityGroupLimit` (`GroupLimit`).
    static func attributeTiers(_ group: DocumentSet, candidates: CandidateMatches, overLimit: Bool) -> [(Int, Tier)] {
        switch candidates.attributeStrategy {
        case .minProximity:
            if let tiers = proximityAttributeTiers(group, candidates: candidates)
                ?? scannedAttributeTiers(group, candidates: candidates, overLimit: overLimit) {
                return tiers
            }
        case .sum:
            if let tiers = scannedAttributeTiers(group, candidates: candidates, overLimit: overLimit) { return tiers }
        case .best:
            break
        }
        var remaining = group
        var parts: [(Int, Tier)] = []
        for (level, documents) in candidates.levels.enumerated() where !remaining.isEmpty {
            let atLevel = remaining.intersection(documents)
            remaining.subtract(atLevel)
            let levelRank = Int(PostingRank.rank(level: level, position: 0))
            guard let ranks = candidates.attributeRanks, candidates.orderedLevels[level] else {
                parts.append((levelRank, .set(atLevel)))
                continue
            }
            parts += positionTiers(atLevel, ranks: ranks, levelRank: levelRank)
        }
        return parts
    }

    /// The documents of one ordered level split by their position there (`ranks`), earliest
    /// first, each part in document (custom) order. The parts are counted here; their documents
    /// are found when a part is read (`PositionSplit`).
    static func positionTiers(_ atLevel: DocumentSet, ranks: [UInt16], levelRank: Int) -> [(Int, Tier)] {
        let split = PositionSplit(atLevel, ranks: ranks)
        guard split.positions.count > 1 else { return split.positions.map { (levelRank + $0, .set(atLevel)) } }
        return split.positions.map { (levelRank + $0, .atPosition(split, position: $0)) }
    }

    /// The attribute split of a group whose records were all read by the proximity split; nil
    /// when some were not (a group over the proximity limit).
    static func proximityAttributeTiers(_ group: DocumentSet, candidates: CandidateMatches) -> [(Int, Tier)]? {
        var keyed: [(rank: UInt16, document: Int)] = []
        var scanned = true
        group.forEach { document in
            switch candidates.proximityRanks.rank(of: document) {
            case ProximityRanks.unscanned: scanned = false
            case ProximityRanks.noPair: keyed.append((bestMatchRank(of: document, candidates: candidates), document))
            case let rank: keyed.append((rank, document))
            }
            return scanned
        }
        guard scanned else { return nil }
        return rankedTiers(keyed.map { (Int($0.rank), $0.document) })
    }

    /// The attribute split of a group whose records the proximity split did not read (attribute
    /// before proximity, or the `sum` strategy): they are read here; nil over `proximityGroupLimit`
    /// (`overLimit`).
    static func scannedAttributeTiers(_ group: DocumentSet, candidates: CandidateMatches, overLimit: Bool) -> [(Int, Tier)]? {
        let size = group.count
        guard !overLimit else { return nil }
        let scanner = ProximityScanner(candidates, documents: size)
        var keyed: [(rank: Int, document: Int)] = []
        keyed.reserveCapacity(size)
        scanner.scan(group.elements(skip: 0, limit: .max)) { document, match in
            keyed.append((attributeValue(match, of: document, candidates: candidates), document))
        }
        return rankedTiers(keyed)
    }

    /// Documents with their value, as tiers of equal values, lowest first (documents in order).
    static func rankedTiers(_ keyed: [(rank: Int, document: Int)]) -> [(Int, Tier)] {
        let keyed = keyed.sorted { ($0.rank, $0.document) < ($1.rank, $1.document) }
        var tiers: [(Int, Tier)] = []
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count, keyed[end].rank == keyed[start].rank { end += 1 }
            tiers.append((keyed[start].rank, .list(keyed[start..<end].map(\.document)[...])))
            start = end
        }
        return tiers
    }

    /// A record's attribute value under the `minProximity` or `sum` strategy, from its scan (the
    /// best match when the scan found no close pair, or no word).
    static func attributeValue(_ match: ProximityScanner.Match, of document: Int, candidates: CandidateMatches) -> Int {
        switch candidates.attributeStrategy {
        case .sum: match.rankSum ?? Int(bestMatchRank(of: document, candidates: candidates))
        case .minProximity, .best: Int(match.attributeRank ?? bestMatchRank(of: document, candidates: candidates))
        }
    }

    /// A record's best match over all query words, as a `PostingRank` (the `best` strategy).
    static func bestMatchRank(of document: Int, candidates: CandidateMatches) -> UInt16 {
        let level = candidates.levels.firstIndex { $0.contains(document) } ?? candidates.levels.count
        if let rank = candidates.attributeRanks?[document], rank != PostingRank.unmatched, PostingRank.level(of: rank) == level {
            return rank
        }
        return PostingRank.rank(level: level, position: 0)
    }

    /// Splits a group by proximity (the sum over consecutive query words of the distance between
    /// their closest occurrences, 1 when adjacent, at most 8 per pair), smallest first.
    /// - Complexity: O(words of the group's documents), plus O(vocabulary) for a large group.
    /// `overLimit`: whether the group is over `proximityGroupLimit` (`GroupLimit`).
    static func proximityTiers(_ group: DocumentSet, candidates: CandidateMatches, overLimit: Bool) -> [(distance: Int, documents: DocumentSet)] {
        let words = candidates.wordTerms
        guard words.count > 1 else { return [(0, group)] }
        let size = group.count
        // Bounded work: a tied group larger than this is left in custom order (see DifferencesFromAlgolia).
        guard !overLimit else { return [(0, group)] }
        let scanner = ProximityScanner(candidates, documents: size)
        var buckets = [DocumentSet](repeating: DocumentSet(capacity: group.capacity), count: 8 * (words.count - 1) + 1)
        scanner.scan(group.elements(skip: 0, limit: .max)) { document, match in
            buckets[match.distance].insert(document)
            if candidates.attributeFromProximity {
                candidates.proximityRanks.record(match.attributeRank, for: document, capacity: group.capacity)
            }
        }
        return buckets.indices.filter { !buckets[$0].isEmpty }.map { ($0, buckets[$0]) }
    }

    /// The largest tied group split by proximity (its cost is the words of every record in it).
    static var proximityGroupLimit: Int { proximityGroupLimitSetting.value }
    /// `proximityGroupLimit`, changed by measurements (`SearchIndex.proximityGroupLimit`).
    static let proximityGroupLimitSetting = LockedValue(8_000)

    /// The proximity of one document (`_rankingInfo.proximityDistance`, `firstMatchedWord`).
    static func proximity(of document: Int, candidates: CandidateMatches) -> ProximityScanner.Match {
        let scanner = ProximityScanner(candidates, documents: 1)
        return scanner.scan(document)
    }

    /// The matching documents grouped by total typos, fewest first (empty groups left out).
    static func typoTiers(of matched: DocumentSet, candidates: CandidateMatches) -> [(typos: Int, documents: DocumentSet)] {
        // Per word, its documents by typo count; an optional word also has "not matched" (no typo).
        var words: [[DocumentSet]] = []
        for (index, levels) in candidates.byTypos.enumerated() {
            guard var levels else { continue }
            if candidates.optionalSets[index] != nil {
                var matchedSome = DocumentSet(capacity: matched.capacity)
                for level in levels { matchedSome.formUnion(level) }
                levels[0].formUnion(matchedSome.complement())
            }
            words.append(levels)
        }
        guard !words.isEmpty else { return [(0, matched)] }
        // Word by word, the documents reachable with each total so far: a document is in group t
        // when some choice of one typo count per word, each among the counts it has, sums to t.
        // Iterative, so the cost is words × totals set operations, whatever the query's length
        // (a walk of every choice is recursive and exponential in the number of words).
        var groups: [DocumentSet?] = [matched]
        for levels in words {
            var next = [DocumentSet?](repeating: nil, count: max(0, groups.count + levels.count - 1))
            for (typos, documents) in groups.enumerated() {
                guard let documents else { continue }
                for (count, set) in levels.enumerated() {
                    let narrowed = documents.intersection(set)
                    guard !narrowed.isEmpty else { continue }
                    if next[typos + count] == nil { next[typos + count] = narrowed } else { next[typos + count]!.formUnion(narrowed) }
                }
            }
            groups = next
        }
        return groups.indices.compactMap { typos in groups[typos].map { (typos, $0) } }
    }

    /// Splits a group by the total score of the optional filters each document matches,
    /// highest first.
    /// - Complexity: O(b · t · l · n / 64) for b boosts of l levels and t distinct totals.
    static func scoreTiers(_ group: DocumentSet, boosts: [FilterBoost]) -> [(score: Int, documents: DocumentSet)] {
        var totals: [Int: DocumentSet] = [0: group]
        for boost in boosts {
            var next: [Int: DocumentSet] = [:]
            for (total, documents) in totals {
                var rest = documents
                for level in boost.levels {
                    let part = documents.intersection(level.documents)
                    guard !part.isEmpty else { continue }
                    rest.subtract(part)
                    next[total + level.score, default: DocumentSet(capacity: group.capacity)].formUnion(part)
                }
                if !rest.isEmpty { next[total, default: DocumentSet(capacity: group.capacity)].formUnion(rest) }
            }
            totals = next
        }
        return totals.sorted { $0.key > $1.key }.map { ($0.key, $0.value) }
    }

    /// Splits a group by how many of `sets` each document belongs to, most first (optional
    /// words matched).
    /// - Complexity: O(k² · n / 64) for k sets.
    static func countTiers(_ group: DocumentSet, sets: [DocumentSet]) -> [(count: Int, documents: DocumentSet)] {
        // exactly[c]: documents of the group in exactly c of the sets seen so far.
        var exactly = [group]
        for set in sets {
            var next = [DocumentSet](repeating: DocumentSet(capacity: group.capacity), count: exactly.count + 1)
            for (count, documents) in exactly.enumerated() {
                next[count].formUnion(documents.subtracting(set))
                next[count + 1].formUnion(documents.intersection(set))
            }
            exactly = next
        }
        return exactly.indices.reversed().filter { !exactly[$0].isEmpty }.map { ($0, exactly[$0]) }
    }

    /// Splits one attribute tier by the number of words matched whole, most first.
    static func exactTiers(_ tier: DocumentSet, candidates: CandidateMatches) -> [(Int, Tier)] {
        // Words matched whole by every document of the tier do not split it.
        let splitting = candidates.exact.compactMap { $0 }.filter { !tier.subtracting($0).isEmpty }
        // Matched whole by every document (a word without an exact set counts for all).
        let common = candidates.exact.count - splitting.count
        switch splitting.count {
        case 0:
            return [(-common, .set(tier))]
        case 1:
            let whole = tier.intersection(splitting[0])
            return [(-common - 1, .set(whole)), (-common, .set(tier.subtracting(whole)))]
        default:
            var buckets = [[Int]](repeating: [], count: splitting.count + 1)
            tier.forEach { doc in
                var whole = 0
                for set in splitting where set.contains(doc) { whole += 1 }
                buckets[splitting.count - whole].append(doc)
                return true
            }
            return buckets.indices.map { (-common - splitting.count + $0, .list(buckets[$0][...])) }
        }
    }
}
