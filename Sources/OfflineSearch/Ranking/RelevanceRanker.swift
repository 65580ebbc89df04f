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
        /// A slice, so that the parts of one split share one array (`positionTiers`: at 1M a
        /// copy per part was a third of a one-letter query's time).
        case list(ArraySlice<Int>)
        /// The documents at one position of an ordered level (`positionTiers`), found when
        /// first read: the parts of the split after the page are counted, never listed.
        case atPosition(PositionSplit, position: Int)

        var count: Int {
            switch self {
            case .set(let set): set.count
            case .list(let list): list.count
            case .atPosition(let split, let position): split.count(at: position)
            }
        }

        var isEmpty: Bool {
            switch self {
            case .set(let set): set.isEmpty
            case .list(let list): list.isEmpty
            case .atPosition(let split, let position): split.count(at: position) == 0
            }
        }

        /// A tier of one document: no criterion can split it.
        var isSingle: Bool {
            switch self {
            case .set: false
            case .list(let list): list.count == 1
            case .atPosition(let split, let position): split.count(at: position) == 1
            }
        }

        func documentSet(capacity: Int) -> DocumentSet {
            switch self {
            case .set(let set): return set
            case .list(let list):
                var set = DocumentSet(capacity: capacity)
                for document in list { set.insert(document) }
                return set
            case .atPosition(let split, let position):
                return split.documentSet(at: position)
            }
        }

        func elements(skip: Int, limit: Int) -> [Int] {
            switch self {
            case .set(let set): set.elements(skip: skip, limit: limit)
            case .list(let list): Array(list.dropFirst(skip).prefix(limit))
            case .atPosition(let split, let position): split.elements(at: position, skip: skip, limit: limit)
            }
        }
    }

    /// The documents at positions `start..<start + count` of the ranked result.
    /// `boosts`: the documents matching each optional filter; `sortRuns`: a sort replica's runs
    /// of equal sort values (`IndexSnapshot.sortRuns`), ranked one after the other.
    static func page(of matched: DocumentSet, candidates: CandidateMatches?, boosts: [FilterBoost] = [], geo: GeoRanking? = nil,
                     criteria: [RankingCriterion] = RankingCriterion.defaultOrder, sortRuns: [UInt32] = [],
                     start: Int, count: Int) -> [Int] {
        // Nothing matched (a third of a keystroke log): no tier to split.
        guard count > 0, !matched.isEmpty else { return [] }
        var remainingSkip = start
        var result: [Int] = []
        for tier in tiers(of: matched, candidates: candidates, boosts: boosts, geo: geo, criteria: criteria, sortRuns: sortRuns,
                          documentsNeeded: start + count) {
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
    /// `documentsNeeded`: at most how many documents the caller reads (`keyedRelevanceTiers`).
    static func tiers(of matched: DocumentSet, candidates: CandidateMatches?, boosts: [FilterBoost] = [], geo: GeoRanking? = nil,
                      criteria: [RankingCriterion] = RankingCriterion.defaultOrder, sortRuns: [UInt32] = [],
                      documentsNeeded: Int? = nil) -> some Sequence<Tier> {
        keyedTiers(of: matched, candidates: candidates, boosts: boosts, geo: geo, criteria: criteria, sortRuns: sortRuns,
                   completeKeys: false, documentsNeeded: documentsNeeded).lazy.map(\.tier)
    }

    /// The tiers in ranking order (with complete keys or none: `keyedRelevanceTiers`), lazily;
    /// with `sortRuns`, run by run, so the documents come in the order of the sort values first.
    /// - Complexity: per run reached, O(run / 64) to find its documents, plus the relevance
    ///   splits (O(n / 64) each) of the runs with several matching documents.
    static func keyedTiers(of matched: DocumentSet, candidates: CandidateMatches?, boosts: [FilterBoost], geo: GeoRanking? = nil,
                           criteria: [RankingCriterion], sortRuns: [UInt32], completeKeys: Bool = true, documentsNeeded: Int? = nil,
                           overLimit: @escaping (_ run: Range<Int>?) -> GroupLimit = { _ in ownSizeLimit }) -> AnySequence<KeyedTier> {
        guard sortRuns.count > 1 else {
            return keyedRelevanceTiers(of: .set(matched), capacity: matched.capacity, candidates: candidates, boosts: boosts, geo: geo,
                                       criteria: criteria, completeKeys: completeKeys, documentsNeeded: documentsNeeded, overLimit: overLimit(nil))
        }
        var run = 0
        var inRun: AnyIterator<KeyedTier>?
        var given = GivenDocuments(counting: documentsNeeded != nil)
        return AnySequence(AnyIterator<KeyedTier> {
            while true {
                if let tier = inRun?.next() {
                    given.add(tier.tier)
                    return tier
                }
                guard run + 1 < sortRuns.count else { return nil }
                let range = Int(sortRuns[run])..<Int(sortRuns[run + 1])
                let documents = matched.elements(in: range)
                run += 1
                guard !documents.isEmpty else { continue }
                inRun = keyedRelevanceTiers(of: .list(documents[...]), capacity: matched.capacity, candidates: candidates, boosts: boosts, geo: geo,
                                            criteria: criteria, completeKeys: completeKeys, documentsNeeded: documentsNeeded.map { $0 - given.count() },
                                            overLimit: overLimit(range)).makeIterator()
            }
        })
    }

    /// How many documents the tiers given so far hold, counted only when asked (a tier's count
    /// reads its bitmap), and only when `counting`.
    struct GivenDocuments {
        let counting: Bool
        private var counted = 0
        private var uncounted: [Tier] = []

        init(counting: Bool) { self.counting = counting }

        mutating func add(_ tier: Tier) {
            if counting { uncounted.append(tier) }
        }

        mutating func count() -> Int {
            counted += uncounted.reduce(0) { $0 + $1.count }
            uncounted.removeAll()
            return counted
        }
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
    /// `documentsNeeded`: how many documents the caller reads at most (a page's end), without
    /// keys: a large group split by proximity then reads only the records up to them
    /// (`proximityHead`).
    static func keyedRelevanceTiers(of matched: Tier, capacity: Int, candidates: CandidateMatches?, boosts: [FilterBoost], geo: GeoRanking? = nil,
                                    criteria: [RankingCriterion], completeKeys: Bool, documentsNeeded: Int? = nil,
                                    overLimit: @escaping GroupLimit = ownSizeLimit) -> AnySequence<KeyedTier> {
        // Depth first: split a group by the next criterion, walk its subgroups in order; a group
        // that no criterion splits further is a tier (its documents in custom order). Only the
        // groups up to the requested page are ever split.
        // An ordered level's documents wait with their ranks (`positions`) until the ranking
        // reaches them, then are split by position: at 1M records, a one-letter prefix's page
        // is found in its first level or two, and counting the positions of the levels after
        // it was most of such a query's time.
        var stack: [(group: Tier, criterion: Int, key: [Int], positions: (levelRank: Int, ranks: [UInt16])?)] = [(matched, 0, [], nil)]
        var given = GivenDocuments(counting: documentsNeeded != nil && !completeKeys)
        return AnySequence(AnyIterator<KeyedTier> {
            while let (group, index, key, positions) = stack.popLast() {
                guard index < criteria.count, completeKeys || !group.isSingle else {
                    given.add(group)
                    return KeyedTier(key: key, tier: group)
                }
                if let (levelRank, ranks) = positions {
                    let parts = positionTiers(group.documentSet(capacity: capacity), ranks: ranks, levelRank: levelRank)
                    for (value, part) in parts.reversed() where !part.isEmpty {
                        stack.append((part, index + 1, completeKeys ? key + [value] : key, nil))
                    }
                    continue
                }
                // One document: its values read directly, without a bitmap the size of the index
                // per criterion.
                if case .list(let list) = group, list.count == 1, let document = list.first {
                    given.add(group)
                    return KeyedTier(key: values(of: document, criteria: criteria[index...], candidates: candidates, boosts: boosts, geo: geo,
                                                 key: key, overLimit: overLimit),
                                     tier: group)
                }
                let documents = group.documentSet(capacity: capacity)
                // A page's documents from a large group split by proximity: only the records up
                // to the page are read (keys are empty here, so a head needs none).
                if !completeKeys, let documentsNeeded, criteria[index] == .proximity, let candidates, mayReadHead(candidates),
                   !overLimit(key, documents.count),
                   let found = proximityHead(documents, needed: documentsNeeded - given.count(), candidates: candidates,
                                             following: criteria[(index + 1)...], boosts: boosts, geo: geo) {
                    switch found {
                    case .head(let head, let rest):
                        if !rest.isEmpty { stack.append((.set(rest), index, key, nil)) }
                        stack.append((.list(head[...]), criteria.count, key, nil))
                    case .whole(let parts):
                        for (_, part) in parts.reversed() { stack.append((.set(part), index + 1, key, nil)) }
                    }
                    continue
                }
                if criteria[index] == .attribute, let candidates, !candidates.levels.isEmpty {
                    let parts = attributeParts(documents, candidates: candidates, key: key, overLimit: overLimit)
                    for part in parts.reversed() {
                        switch part {
                        case .ranked(let value, let tier):
                            if !tier.isEmpty { stack.append((tier, index + 1, completeKeys ? key + [value] : key, nil)) }
                        case .orderedLevel(let levelRank, let documents, let ranks):
                            stack.append((.set(documents), index, key, (levelRank, ranks)))
                        }
                    }
                    continue
                }
                let parts = split(documents, by: criteria[index],
                                  candidates: candidates, boosts: boosts, geo: geo, key: key, overLimit: overLimit)
                for (value, part) in parts.reversed() where !part.isEmpty {
                    stack.append((part, index + 1, completeKeys ? key + [value] : key, nil))
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
    /// - Complexity: as the criterion's own split; for `attribute`, plus O(documents) for each
    ///   ordered level, all split by position here (the search across segments needs every
    ///   part; `keyedRelevanceTiers` splits a level only when it reaches it).
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
                return attributeParts(group, candidates: candidates, key: key, overLimit: overLimit).flatMap { part in
                    switch part {
                    case .ranked(let value, let tier): [(value, tier)]
                    case .orderedLevel(let levelRank, let documents, let ranks): positionTiers(documents, ranks: ranks, levelRank: levelRank)
                    }
                }
            default:
                return exactTiers(group, candidates: candidates)
            }
        }
    }
}
