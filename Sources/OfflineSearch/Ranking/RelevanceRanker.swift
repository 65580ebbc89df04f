/// A relevance criterion of the `ranking` setting that the engine applies.
enum RankingCriterion: String, Sendable, Hashable {
    case typo, geo, words, filters, proximity, attribute, exact

    /// Algolia's default order (`custom` aside).
    static let defaultOrder: [RankingCriterion] = [.typo, .geo, .words, .filters, .proximity, .attribute, .exact]
}

/// Orders the matching documents and cuts out one page, without sorting them all.
///
/// The order follows the `ranking` setting (by default, documented in the BehaviourInDetail article):
/// 1. **typo**: fewer typos (summed over the query words, each at its best match) first;
/// 2. **geo**: with `aroundLatLng`, nearer first, by groups of `aroundPrecision` metres;
/// 3. **words**: more query words matched first (optional words);
/// 4. **filters**: a higher total score of the `optionalFilters` matched first (`FilterBoost`);
/// 5. **proximity**: closer query words first;
/// 6. **attribute**: the best searchable level at which any query word matched, then, in an
///    ordered attribute, the earliest position of a matched word;
/// 7. **exact**: more query words matched as whole words (not only as a prefix, no typo) first;
/// 8. **custom**: `customRanking`, which is the documents' ordinal order.
///
/// A group of documents is split criterion by criterion, depth first, only as far as the page:
/// most splits are set operations (O(documents / 64)); proximity and the position inside an
/// ordered attribute read the group's documents. Tiers before the page are skipped by counting.
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

        var isEmpty: Bool {
            switch self {
            case .set(let set): set.isEmpty
            case .list(let list): list.isEmpty
            }
        }

        /// A tier of one document: no criterion can split it.
        var isSingle: Bool {
            if case .list(let list) = self { list.count == 1 } else { false }
        }

        func documentSet(capacity: Int) -> DocumentSet {
            switch self {
            case .set(let set): return set
            case .list(let list):
                var set = DocumentSet(capacity: capacity)
                for document in list { set.insert(document) }
                return set
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
    /// `boosts`: the documents matching each optional filter; `sortRuns`: a sort replica's runs
    /// of equal sort values (`IndexSnapshot.sortRuns`), ranked one after the other.
    static func page(of matched: DocumentSet, candidates: CandidateMatches?, boosts: [FilterBoost] = [], geo: GeoRanking? = nil,
                     criteria: [RankingCriterion] = RankingCriterion.defaultOrder, sortRuns: [UInt32] = [],
                     start: Int, count: Int) -> [Int] {
        guard count > 0 else { return [] }
        var remainingSkip = start
        var result: [Int] = []
        for tier in tiers(of: matched, candidates: candidates, boosts: boosts, geo: geo, criteria: criteria, sortRuns: sortRuns) {
            let size = tier.count
            if remainingSkip >= size { remainingSkip -= size; continue }
            result.append(contentsOf: tier.elements(skip: remainingSkip, limit: count - result.count))
            remainingSkip = 0
            if result.count == count { break }
        }
        return result
    }

    /// `distinct`: the page of the ranked documents once each group (the records sharing a value
    /// of `attributeForDistinct`) is cut to its best `perGroup`, and how many documents remain in
    /// all, and which (`facetingAfterDistinct` counts facets on them). A record without the
    /// attribute is a group of its own.
    /// - Complexity: O(matching documents) — every group must be seen to count the hits.
    static func distinctPage(of matched: DocumentSet, candidates: CandidateMatches?, boosts: [FilterBoost] = [], geo: GeoRanking? = nil,
                             criteria: [RankingCriterion] = RankingCriterion.defaultOrder, sortRuns: [UInt32] = [],
                             groups: FacetColumn, perGroup: Int, start: Int, count: Int) -> (page: [Int], total: Int, kept: DocumentSet) {
        var seen = [UInt8](repeating: 0, count: groups.values.count)
        var page: [Int] = []
        var kept = DocumentSet(capacity: matched.capacity)
        var total = 0
        for tier in tiers(of: matched, candidates: candidates, boosts: boosts, geo: geo, criteria: criteria, sortRuns: sortRuns) {
            for document in tier.elements(skip: 0, limit: Int.max) {
                let range = Int(groups.docStarts[document])..<Int(groups.docStarts[document + 1])
                if let group = range.first.map({ Int(groups.docValues[$0]) }) {
                    guard Int(seen[group]) < perGroup else { continue }
                    seen[group] += 1
                }
                if total >= start, page.count < count { page.append(document) }
                kept.insert(document)
                total += 1
            }
        }
        return (page, total, kept)
    }

    /// The tiers in ranking order; lazily, so tiers after the page are never computed. With
    /// `sortRuns` (a sort replica), the runs of equal sort values come in order, each ranked by
    /// relevance.
    /// - Complexity: per run reached, O(run / 64) to find its documents, plus the relevance
    ///   splits (O(n / 64) each) of the runs with several matching documents.
    static func tiers(of matched: DocumentSet, candidates: CandidateMatches?, boosts: [FilterBoost] = [], geo: GeoRanking? = nil,
                      criteria: [RankingCriterion] = RankingCriterion.defaultOrder, sortRuns: [UInt32] = []) -> some Sequence<Tier> {
        keyedTiers(of: matched, candidates: candidates, boosts: boosts, geo: geo, criteria: criteria, sortRuns: sortRuns,
                   completeKeys: false).lazy.map(\.tier)
    }

    /// The tiers in ranking order (with complete keys or none: `keyedRelevanceTiers`), lazily;
    /// with `sortRuns`, run by run, so the documents come in the order of the sort values first.
    /// - Complexity: per run reached, O(run / 64) to find its documents, plus the relevance
    ///   splits (O(n / 64) each) of the runs with several matching documents.
    static func keyedTiers(of matched: DocumentSet, candidates: CandidateMatches?, boosts: [FilterBoost], geo: GeoRanking? = nil,
                           criteria: [RankingCriterion], sortRuns: [UInt32], completeKeys: Bool = true,
                           overLimit: @escaping (_ run: Range<Int>?) -> GroupLimit = { _ in ownSizeLimit }) -> AnySequence<KeyedTier> {
        guard sortRuns.count > 1 else {
            return keyedRelevanceTiers(of: .set(matched), capacity: matched.capacity, candidates: candidates, boosts: boosts, geo: geo,
                                       criteria: criteria, completeKeys: completeKeys, overLimit: overLimit(nil))
        }
        var run = 0
        var inRun: AnyIterator<KeyedTier>?
        return AnySequence(AnyIterator<KeyedTier> {
            while true {
                if let tier = inRun?.next() { return tier }
                guard run + 1 < sortRuns.count else { return nil }
                let range = Int(sortRuns[run])..<Int(sortRuns[run + 1])
                let documents = matched.elements(in: range)
                run += 1
                guard !documents.isEmpty else { continue }
                inRun = keyedRelevanceTiers(of: .list(documents), capacity: matched.capacity, candidates: candidates, boosts: boosts, geo: geo,
                                            criteria: criteria, completeKeys: completeKeys, overLimit: overLimit(range)).makeIterator()
            }
        })
    }

    /// Whether a tied group is over `proximityGroupLimit`, given its key (its values of the
    /// criteria before the one splitting it) and its size: over it, proximity leaves the group
    /// in custom order and the attribute strategies that read records fall back to `best`. In
    /// one snapshot, its own size decides (`ownSizeLimit`); over several segments, the size of
    /// the group with that key in every segment together (`SegmentedSearch`), so that each
    /// segment decides as the index derived whole would.
    typealias GroupLimit = (_ key: [Int], _ size: Int) -> Bool
    static func ownSizeLimit(_ key: [Int], _ size: Int) -> Bool { size > proximityGroupLimit }

    /// A tier and what ranks it: `key[i]` is its value of criterion `i` (lower ranks first).
    struct KeyedTier {
        var key: [Int]
        var tier: Tier
    }

    /// The relevance tiers of `matched` (documents of a snapshot of `capacity`), lazily, with their
    /// keys. With `completeKeys`, every tier has a value of every criterion (even a tier of one
    /// document), so tiers of two segments compare; without, keys are left empty.
    static func keyedRelevanceTiers(of matched: Tier, capacity: Int, candidates: CandidateMatches?, boosts: [FilterBoost], geo: GeoRanking? = nil,
                                    criteria: [RankingCriterion], completeKeys: Bool,
                                    overLimit: @escaping GroupLimit = ownSizeLimit) -> AnySequence<KeyedTier> {
        // Depth first: split a group by the next criterion, walk its subgroups in order; a group
        // that no criterion splits further is a tier (its documents in custom order). Only the
        // groups up to the requested page are ever split.
        var stack: [(group: Tier, criterion: Int, key: [Int])] = [(matched, 0, [])]
        return AnySequence(AnyIterator<KeyedTier> {
            while let (group, index, key) = stack.popLast() {
                guard index < criteria.count, completeKeys || !group.isSingle else { return KeyedTier(key: key, tier: group) }
                // One document: its values read directly, without a bitmap the size of the index
                // per criterion.
                if case .list(let list) = group, list.count == 1 {
                    return KeyedTier(key: values(of: list[0], criteria: criteria[index...], candidates: candidates, boosts: boosts, geo: geo,
                                                 key: key, overLimit: overLimit),
                                     tier: group)
                }
                let parts = split(group.documentSet(capacity: capacity), by: criteria[index],
                                  candidates: candidates, boosts: boosts, geo: geo, key: key, overLimit: overLimit)
                for (value, part) in parts.reversed() where !part.isEmpty {
                    stack.append((part, index + 1, completeKeys ? key + [value] : key))
                }
            }
            return nil
        })
    }

    /// One document's value of each of `criteria`: the key `split` gives the part it falls in,
    /// after `key` (its values of the criteria before, which `overLimit` reads).
    static func values(of document: Int, criteria: ArraySlice<RankingCriterion>, candidates: CandidateMatches?,
                       boosts: [FilterBoost], geo: GeoRanking? = nil, key: [Int] = [],
                       overLimit: GroupLimit = ownSizeLimit) -> [Int] {
        var proximityMatch: ProximityScanner.Match?
        func proximity(_ candidates: CandidateMatches) -> ProximityScanner.Match {
            if let known = proximityMatch { return known }
            let match = RelevanceRanker.proximity(of: document, candidates: candidates)
            proximityMatch = match
            return match
        }
        var result = key
        for criterion in criteria { result.append(value(criterion, prefix: result)) }
        return result
        func value(_ criterion: RankingCriterion, prefix: [Int]) -> Int {
            if criterion == .filters { return -FilterBoost.score(of: document, in: boosts) }
            if criterion == .geo { return geo?.group(of: document) ?? 0 }
            guard let candidates, !candidates.levels.isEmpty else { return 0 }
            switch criterion {
            case .typo:
                guard candidates.hasTypos else { return 0 }
                // Each word at its best match; an optional word not matched counts none.
                return candidates.byTypos.reduce(0) { total, levels in
                    total + (levels?.firstIndex { $0.contains(document) } ?? 0)
                }
            case .words:
                return -candidates.optionalSets.count { $0?.contains(document) == true }
            case .proximity:
                // Over the limit, the group keeps custom order: one part, 0 (`proximityTiers`).
                return candidates.wordTerms.count > 1 && !overLimit(prefix, 1) ? proximity(candidates).distance : 0
            case .attribute:
                if candidates.attributeStrategy != .best, !overLimit(prefix, 1) {
                    return attributeValue(proximity(candidates), of: document, candidates: candidates)
                }
                guard let level = candidates.levels.firstIndex(where: { $0.contains(document) }) else { return Int.max }
                var rank = Int(PostingRank.rank(level: level, position: 0))
                if let ranks = candidates.attributeRanks, candidates.orderedLevels[level] { rank += Int(PostingRank.position(of: ranks[document])) }
                return rank
            case .exact:
                return -candidates.exact.count { $0?.contains(document) ?? true }
            case .filters, .geo:
                return 0
            }
        }
    }

    /// `group` split by one criterion, best first, each part with its value of the criterion
    /// (lower first: typos, distance, level and position; minus the count of what more is
    /// better: optional words and filters matched, words matched whole).
    /// `key` is the group's values of the criteria before (what `overLimit` reads).
    static func split(_ group: DocumentSet, by criterion: RankingCriterion, candidates: CandidateMatches?,
                      boosts: [FilterBoost], geo: GeoRanking? = nil, key: [Int] = [],
                      overLimit: GroupLimit = ownSizeLimit) -> [(Int, Tier)] {
        switch criterion {
        case .geo:
            return geo?.tiers(of: group) ?? [(0, .set(group))]
        case .filters:
            return boosts.isEmpty ? [(0, .set(group))] : scoreTiers(group, boosts: boosts).map { (-$0.score, .set($0.documents)) }
        case .typo, .words, .proximity, .attribute, .exact:
            guard let candidates, !candidates.levels.isEmpty else { return [(0, .set(group))] }
            switch criterion {
            case .proximity:
                // The limit only where it can matter (found across segments, it costs splits).
                let over = candidates.wordTerms.count > 1 && overLimit(key, group.count)
                return proximityTiers(group, candidates: candidates, overLimit: over).map { ($0.distance, .set($0.documents)) }
            case .typo:
                return candidates.hasTypos ? typoTiers(of: group, candidates: candidates).map { ($0.typos, .set($0.documents)) } : [(0, .set(group))]
            case .words:
                let optional = candidates.optionalSets.compactMap { $0 }
                return optional.isEmpty ? [(0, .set(group))] : countTiers(group, sets: optional).map { (-$0.count, .set($0.documents)) }
            case .attribute:
                let over = candidates.attributeStrategy != .best && overLimit(key, group.count)
                return attributeTiers(group, candidates: candidates, overLimit: over)
            default:
                return exactTiers(group, candidates: candidates)
            }
        }
    }

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
            // Positions are few and small: one bucket each, filled in document (custom) order.
            var byPosition: [[Int]] = []
            atLevel.forEach { document in
                let position = Int(PostingRank.position(of: ranks[document]))
                if position >= byPosition.count { byPosition += Array(repeating: [], count: position + 1 - byPosition.count) }
                byPosition[position].append(document)
                return true
            }
            let positions = byPosition.indices.filter { !byPosition[$0].isEmpty }
            if positions.count == 1 {
                parts.append((levelRank + positions[0], .set(atLevel)))
            } else {
                parts += positions.map { (levelRank + $0, .list(byPosition[$0])) }
            }
        }
        return parts
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
        var scanner = ProximityScanner(candidates, documents: size)
        var keyed: [(rank: Int, document: Int)] = []
        keyed.reserveCapacity(size)
        group.forEach { document in
            keyed.append((attributeValue(scanner.scan(document), of: document, candidates: candidates), document))
            return true
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
            tiers.append((keyed[start].rank, .list(keyed[start..<end].map(\.document))))
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
        var scanner = ProximityScanner(candidates, documents: size)
        var buckets = [DocumentSet](repeating: DocumentSet(capacity: group.capacity), count: 8 * (words.count - 1) + 1)
        group.forEach { document in
            let match = scanner.scan(document)
            buckets[match.distance].insert(document)
            if candidates.attributeFromProximity {
                candidates.proximityRanks.record(match.attributeRank, for: document, capacity: group.capacity)
            }
            return true
        }
        return buckets.indices.filter { !buckets[$0].isEmpty }.map { ($0, buckets[$0]) }
    }

    /// The largest tied group split by proximity (its cost is the words of every record in it).
    static var proximityGroupLimit: Int { proximityGroupLimitSetting.value }
    /// `proximityGroupLimit`, changed by measurements (`SearchIndex.proximityGroupLimit`).
    static let proximityGroupLimitSetting = LockedValue(8_000)

    /// The proximity of one document (`_rankingInfo.proximityDistance`, `firstMatchedWord`).
    static func proximity(of document: Int, candidates: CandidateMatches) -> ProximityScanner.Match {
        var scanner = ProximityScanner(candidates, documents: 1)
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
            return buckets.indices.map { (-common - splitting.count + $0, .list(buckets[$0])) }
        }
    }
}

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
    /// Attribute ordinal → its level and whether it is ordered.
    private let attributes: [SearchableAttribute]
    /// For many documents: term → the query words it matches, one bit each (the first 16 words).
    private let table: [UInt16]
    private var last: [Int]
    private var best: [Int]
    /// For each pair, the rank of the attribute where it reached `best`.
    private var pairRank: [UInt16]
    private var attributeRank: UInt16 = 0
    private var ordered = false
    /// The `sum` strategy: each word's best rank (every word read, no early stop).
    private let sums: Bool
    private var wordRank: [UInt16]
    private static let far = Int.min / 4

    /// `documents`: how many documents will be read; for many, a table of the vocabulary makes
    /// each word's test one load.
    init(_ candidates: CandidateMatches, documents: Int) {
        forward = candidates.forward
        words = Array(candidates.wordTerms.prefix(16))
        minProximity = candidates.minProximity
        attributes = candidates.searchable
        if documents > 256 {
            var table = [UInt16](repeating: 0, count: candidates.vocabularySize)
            for (word, terms) in words.enumerated() {
                terms.forEachTerm { table[$0] |= 1 << UInt16(word) }
            }
            self.table = table
        } else {
            table = []
        }
        last = Array(repeating: ProximityScanner.far, count: words.count)
        sums = candidates.attributeStrategy == .sum
        wordRank = sums ? Array(repeating: PostingRank.unmatched, count: words.count) : []
        best = Array(repeating: 8, count: max(words.count - 1, 0))
        pairRank = Array(repeating: PostingRank.unmatched, count: max(words.count - 1, 0))
    }

    /// The sum over consecutive query words of the distance between their closest occurrences
    /// (1 when adjacent, or `minProximity`; at most 8 per pair; attribute values and array
    /// elements are 8 apart), and the attribute of the closest pairs.
    mutating func scan(_ document: Int) -> Match {
        let count = words.count
        guard count > 1 else { return Match(distance: 0, attributeRank: nil) }
        for word in 0..<count { last[word] = ProximityScanner.far }
        for pair in 0..<(count - 1) { (best[pair], pairRank[pair]) = (8, PostingRank.unmatched) }
        for word in wordRank.indices { wordRank[word] = PostingRank.unmatched }
        var position = 0
        var currentAttribute = -1
        var inAttribute = 0     // the next word's position inside the current attribute
        var adjacentPairs = 0   // pairs already at the smallest distance: once all are, stop reading
        let range = Int(forward.starts[document])..<Int(forward.starts[document + 1])
        forward.terms.withUnsafeBufferPointer { terms in
            for index in range {
                let term = terms[index]
                if ForwardIndex.isMarker(term) {
                    position += 8
                    let ordinal = ForwardIndex.attribute(ofMarker: term)
                    if ordinal != currentAttribute {   // array elements continue their attribute
                        currentAttribute = ordinal
                        inAttribute = 0
                        let attribute = ordinal < attributes.count ? attributes[ordinal] : SearchableText.anyAttribute
                        attributeRank = PostingRank.rank(level: attribute.level, position: 0)
                        ordered = attribute.ordered
                    }
                    continue
                }
                var matched: UInt16 = 0
                if table.isEmpty {
                    for word in 0..<count where words[word].matches(term) { matched |= 1 << UInt16(word) }
                } else {
                    matched = table[Int(term)]
                }
                if matched != 0 {
                    adjacentPairs += visit(matched, at: position, inAttribute: inAttribute)
                    if adjacentPairs == count - 1, !sums { return }
                }
                position += 1
                inAttribute += 1
            }
        }
        var rank: UInt16?
        for pair in 0..<(count - 1) where best[pair] < 8 { rank = min(rank ?? .max, pairRank[pair]) }
        let found = wordRank.filter { $0 != PostingRank.unmatched }
        return Match(distance: best.reduce(0) { $0 + max(minProximity, min($1, 8)) }, attributeRank: rank,
                     rankSum: found.isEmpty ? nil : found.reduce(0) { $0 + Int($1) })
    }

    /// Records that the words in `matched` occur at `position`; returns how many pairs became
    /// adjacent. A pair closer than before 8 is inside this attribute value (values are 8 apart):
    /// its rank is this attribute's, at the position of the pair's first word.
    @inline(__always)
    private mutating func visit(_ matched: UInt16, at position: Int, inAttribute: Int) -> Int {
        let count = words.count
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

    /// Updates `pair` with the occurrence of `other` before `position`; true when the pair has
    /// just become adjacent.
    @inline(__always)
    private mutating func closer(pair: Int, other: Int, at position: Int, inAttribute: Int) -> Bool {
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
