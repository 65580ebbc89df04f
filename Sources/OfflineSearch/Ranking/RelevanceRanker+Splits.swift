// How each criterion splits a group: attribute, proximity, typos, optional filters, optional words, exact.
extension RelevanceRanker {
    /// A part of a group split by the attribute criterion (`attributeParts`).
    enum AttributePart {
        /// Ranked: its value of the criterion, and its documents.
        case ranked(Int, Tier)
        /// The documents whose best match is in one ordered level (`levelRank`: the level's
        /// rank at position 0), to be split by their position there (`positionTiers`) when
        /// the ranking reaches them.
        case orderedLevel(levelRank: Int, DocumentSet, ranks: [UInt16])
    }

    /// Splits a group by its best match: the searchable level first, then, inside an ordered
    /// attribute, the position of the first matched word (earlier first), which is left to the
    /// caller (`AttributePart.orderedLevel`). With the `minProximity` strategy, a record's
    /// attribute is the best one holding a closest pair of query words, when it has one; with
    /// `sum`, the sum of each word's best match. Those read the group's records (the proximity
    /// split's, or their own scan), so a group over `proximityGroupLimit` falls back to the best
    /// match.
    /// - Complexity: O(levels × n / 64), or O(d log d) for the d documents of a group ranked by
    ///   proximity, plus the words of its records when they are read here.
    /// `key`: the group's values of the criteria before (what `overLimit` reads).
    static func attributeParts(_ group: DocumentSet, candidates: CandidateMatches, key: [Int], overLimit: GroupLimit) -> [AttributePart] {
        let overLimit = candidates.attributeStrategy != .best && overLimit(key, group.count)
        switch candidates.attributeStrategy {
        case .minProximity:
            if let tiers = proximityAttributeTiers(group, candidates: candidates)
                ?? scannedAttributeTiers(group, candidates: candidates, overLimit: overLimit) {
                return tiers.map { .ranked($0.0, $0.1) }
            }
        case .sum:
            if let tiers = scannedAttributeTiers(group, candidates: candidates, overLimit: overLimit) {
                return tiers.map { .ranked($0.0, $0.1) }
            }
        case .best:
            break
        }
        var remaining = group
        var parts: [AttributePart] = []
        for (level, documents) in candidates.levels.enumerated() where !remaining.isEmpty {
            // An empty level is left out and no set is made for it: the ranking skips empty
            // parts, and the search across segments finds an empty group for a value no part has.
            guard let atLevel = remaining.nonEmptyIntersection(documents) else { continue }
            // A new set rather than `subtract`: the first would copy `group` (shared) first.
            remaining = remaining.subtracting(atLevel)
            let levelRank = Int(PostingRank.rank(level: level, position: 0))
            if let ranks = candidates.attributeRanks, candidates.orderedLevels[level] {
                parts.append(.orderedLevel(levelRank: levelRank, atLevel, ranks: ranks))
            } else {
                parts.append(.ranked(levelRank, .set(atLevel)))
            }
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
        scanner.scan(group.elements(skip: 0, limit: .max), while: { document, match in
            keyed.append((attributeValue(match, of: document, candidates: candidates), document))
            return true
        })
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
        var split = DistanceSplit(candidates: candidates, capacity: group.capacity)
        scanner.scan(group.elements(skip: 0, limit: .max), while: { document, match in
            split.place(document, distance: match.distance, attributeRank: match.attributeRank)
            return true
        })
        return split.tiers
    }

    /// A group's records by proximity distance, as the scan places them, each record's attribute
    /// from its closest pairs kept for the attribute split (`attributeFromProximity`).
    private struct DistanceSplit {
        let candidates: CandidateMatches
        let capacity: Int
        private var buckets: [DocumentSet]

        init(candidates: CandidateMatches, capacity: Int) {
            self.candidates = candidates
            self.capacity = capacity
            buckets = [DocumentSet](repeating: DocumentSet(capacity: capacity), count: 8 * (candidates.wordTerms.count - 1) + 1)
        }

        mutating func place(_ document: Int, distance: Int, attributeRank: UInt16?) {
            buckets[distance].insert(document)
            if candidates.attributeFromProximity {
                candidates.proximityRanks.record(attributeRank, for: document, capacity: capacity)
            }
        }

        /// The distances with records, smallest first.
        var tiers: [(distance: Int, documents: DocumentSet)] {
            buckets.indices.filter { !buckets[$0].isEmpty }.map { ($0, buckets[$0]) }
        }
    }

    /// What `proximityHead` found.
    enum ProximityHead {
        /// `head`: the documents that come first, found at the smallest distance a record can
        /// have, in the order the criteria after proximity give them; `rest`: the group's other
        /// documents, still to be split by proximity.
        case head([Int], rest: DocumentSet)
        /// Every record was read: the whole split, as `proximityTiers` gives it.
        case whole([(distance: Int, documents: DocumentSet)])
    }

    /// The proximity split of a large group of which only the first `needed` documents are
    /// read (a page). The records are read in the order the criteria after proximity give them,
    /// the attribute by a bound of its value (with `minProximity`, the attribute from the scan
    /// is never better than the level where each pair of words could first be close,
    /// `pairLevels`, nor than the best match: `levelsHoldScannedWords`), and each one at the
    /// smallest distance a record can have is placed by its own values. Once `needed` of them
    /// come before every record still unread, nothing else can come before them, and the rest
    /// is left unread. nil where that bound does not hold (the `sum` strategy, proximity twice, words
    /// the levels do not hold) or where reading in order would not save reads (a group not
    /// much larger than `needed`). The group must be within `proximityGroupLimit` (so is any
    /// part of it).
    /// - Complexity: the splits by `following` of the group up to the records read, plus the
    ///   words of those records.
    static func proximityHead(_ group: DocumentSet, needed: Int, candidates: CandidateMatches, following: ArraySlice<RankingCriterion>,
                              boosts: [FilterBoost], geo: GeoRanking?) -> ProximityHead? {
        guard mayReadHead(candidates), !following.contains(.proximity) else { return nil }
        // Reading in order splits the group by the criteria after proximity, set operations over
        // the whole index: worth it when the records it may leave unread outweigh them (at 1M,
        // groups of a few hundred records were 9 % slower read this way).
        let size = group.count
        guard needed > 0, size > 64, size >= 4 * needed, size >= group.capacity / 256 else { return nil }
        let scanner = ProximityScanner(candidates, documents: size)
        let closest = scanner.smallestDistance
        // The order the records are read in: the criteria after proximity, the attribute by a
        // bound of its value from the scan: the first level where each pair of words could be
        // close when every word's own levels are known, else the best match.
        var bestMatch = candidates
        bestMatch.attributeStrategy = .best
        if candidates.attributeStrategy == .minProximity, let levels = pairLevels(candidates, capacity: group.capacity) {
            bestMatch.levels = levels
            bestMatch.attributeRanks = nil
        }
        let attribute = following.firstIndex(of: .attribute).map { $0 - following.startIndex }
        let order = keyedRelevanceTiers(of: .set(group), capacity: group.capacity, candidates: bestMatch, boosts: boosts, geo: geo,
                                        criteria: Array(following), completeKeys: true)
        var closestRead: [(key: [Int], document: Int)] = []
        var read: [(document: Int, distance: Int, attributeRank: UInt16?)] = []
        /// The first `needed` records, if they come before every unread record: those of the
        /// tier being read (`frontier`) from `next` on, and those of the tiers after it. The
        /// records read that do come before them all come before the others read.
        func head(frontier: [Int], next: Int) -> [Int]? {
            guard closestRead.count >= needed else { return nil }
            let settled = closestRead.filter { $0.key == frontier ? $0.document < next : $0.key.lexicographicallyPrecedes(frontier) }
            guard settled.count >= needed else { return nil }
            return settled.sorted { $0.key == $1.key ? $0.document < $1.document : $0.key.lexicographicallyPrecedes($1.key) }
                .prefix(needed).map(\.document)
        }
        var chunk = max(32, 2 * needed)
        for keyed in order {
            var skip = 0
            let count = keyed.tier.count
            while skip < count {
                let documents = keyed.tier.elements(skip: skip, limit: chunk)
                if let first = head(frontier: keyed.key, next: documents[0]) {
                    var rest = group
                    for document in first { rest.remove(document) }
                    return .head(first, rest: rest)
                }
                skip += documents.count
                chunk = min(2 * chunk, 1024)
                scanner.scan(documents, while: { document, match in
                    read.append((document, match.distance, match.attributeRank))
                    if match.distance == closest {
                        var key = keyed.key
                        if candidates.attributeStrategy == .minProximity, let attribute {
                            key[attribute] = attributeValue(match, of: document, candidates: candidates)
                        }
                        closestRead.append((key, document))
                    }
                    return true
                })
            }
        }
        // Every record read: the split whole, each record's attribute from its closest pairs
        // kept for the attribute split (a head's rest is read again by `proximityTiers`).
        var split = DistanceSplit(candidates: candidates, capacity: group.capacity)
        for (document, distance, attributeRank) in read { split.place(document, distance: distance, attributeRank: attributeRank) }
        return .whole(split.tiers)
    }

    /// Whether the bound `proximityHead` reads in order by holds for these words: several of
    /// them, and the attribute by best match, or from the closest pairs with every word's
    /// occurrences in the levels.
    static func mayReadHead(_ candidates: CandidateMatches) -> Bool {
        guard candidates.wordTerms.count > 1, !candidates.levels.isEmpty else { return false }
        switch candidates.attributeStrategy {
        case .best: return true
        case .minProximity: return candidates.levelsHoldScannedWords
        case .sum: return false
        }
    }

    /// For each level, the documents where some pair of consecutive query words (of the first
    /// 16, as `ProximityScanner` reads) both occur at that level or a better one, and not at a
    /// better level; then the documents where no pair does: a record's attribute from its
    /// closest pairs is at or after its level here. nil unless every word's own levels are
    /// known (`CandidateMatches.wordLevels`).
    static func pairLevels(_ candidates: CandidateMatches, capacity: Int) -> [DocumentSet]? {
        let count = min(candidates.wordTerms.count, 16)
        let levelCount = candidates.levels.count
        let stride = (capacity + 63) >> 6
        guard count > 1, levelCount < 14, candidates.wordLevels.count >= count else { return nil }
        var own: [[UInt64]] = []
        for word in 0..<count {
            guard let levels = candidates.wordLevels[word], levels.wordCount == stride * levelCount else { return nil }
            own.append(levels.unpacked())
        }
        // Per word, the documents where it occurs at the level or a better one (one row each).
        var atOrBefore = [UInt64](repeating: 0, count: count * stride)
        var placed = [UInt64](repeating: 0, count: stride)
        var result: [DocumentSet] = []
        for level in 0..<levelCount {
            var pairs = [UInt64](repeating: 0, count: stride)
            atOrBefore.withUnsafeMutableBufferPointer { atOrBefore in
                pairs.withUnsafeMutableBufferPointer { pairs in
                    placed.withUnsafeMutableBufferPointer { placed in
                        for word in 0..<count {
                            own[word].withUnsafeBufferPointer { levels in
                                let row = word * stride, atLevel = level * stride
                                for index in 0..<stride { atOrBefore[row + index] |= levels[atLevel + index] }
                                guard word > 0 else { return }
                                for index in 0..<stride { pairs[index] |= atOrBefore[row - stride + index] & atOrBefore[row + index] }
                            }
                        }
                        for index in 0..<stride {
                            pairs[index] &= ~placed[index]
                            placed[index] |= pairs[index]
                        }
                    }
                }
            }
            result.append(DocumentSet(capacity: capacity, words: pairs))
        }
        result.append(DocumentSet(capacity: capacity, words: placed).complement())
        return result
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
                    // No set is made for an empty part, nor for one added to a total already reached.
                    if next[typos + count] == nil {
                        next[typos + count] = documents.nonEmptyIntersection(set)
                    } else {
                        next[typos + count]!.formUnion(documents, intersectedWith: set)
                    }
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
                next[count].formUnion(documents, subtracting: set)
                next[count + 1].formUnion(documents, intersectedWith: set)
            }
            exactly = next
        }
        return exactly.indices.reversed().filter { !exactly[$0].isEmpty }.map { ($0, exactly[$0]) }
    }

    /// Splits one attribute tier by the number of words matched whole, most first.
    static func exactTiers(_ tier: DocumentSet, candidates: CandidateMatches) -> [(Int, Tier)] {
        // Words matched whole by every document of the tier do not split it.
        let splitting = candidates.exact.compactMap { $0 }.filter { !tier.isSubset(of: $0) }
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
