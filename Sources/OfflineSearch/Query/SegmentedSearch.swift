import SearchAPI

/// What one segment's documents matched: the documents and their candidates for ranking.
struct SegmentMatch {
    var documents: DocumentSet
    var candidates: CandidateMatches?
}

/// Work shared by the queries run on one `IndexState` within one call (a multi-search, a search
/// with disjunctive facets): a `SegmentContext` per segment.
///
/// Not thread-safe: one context serves one caller.
final class StateContext {
    let state: IndexState
    let segments: [SegmentContext]

    init(state: IndexState) {
        self.state = state
        segments = state.segments.map { SegmentContext(snapshot: $0.snapshot, live: $0.live) }
    }

    /// The geo query with an automatic radius replaced by the radius it stands for, computed
    /// over every segment (`IndexState.automaticRadius`).
    func resolved(_ geo: GeoQuery?) -> GeoQuery? {
        guard var geo, let center = geo.center, case .automatic(let minimum) = geo.radius else { return geo }
        geo.radius = .metres(max(state.automaticRadius(around: center), minimum ?? 0))
        return geo
    }

    /// Per segment, what ranks beyond the words: the scored optional filters (each AND-ed
    /// element one boost; an OR group scores once) and, with `aroundLatLng`, the `geo`
    /// criterion's distances from the center.
    func rankingInputs(_ request: SearchRequest) -> (boosts: [[FilterBoost]], geo: [GeoRanking?]) {
        let boosts: [[FilterBoost]] = segments.map { segment in
            request.optionalFilters.map { group in
                FilterBoost(group.map { ($0.score, segment.filters.documents(matching: $0.filter)) }, sum: request.sumOrFiltersScores)
            }
        }
        let geo: [GeoRanking?] = segments.map { segment in
            guard let query = request.geo, let center = query.center else { return nil }
            return GeoRanking(index: segment.snapshot.geo, center: center, precision: query.precision)
        }
        return (boosts, geo)
    }

    /// Per segment, the documents matching the request's words and filters. `typoTolerance:
    /// "min"` and `"strict"` keep the documents with the fewest (two fewest) typo counts found
    /// in any segment.
    func matching(_ request: SearchRequest) -> [SegmentMatch] {
        var request = request
        request.geo = resolved(request.geo)
        var matches = segments.map { context in
            let (documents, candidates) = context.matching(request)
            return SegmentMatch(documents: documents, candidates: candidates)
        }
        let mode = request.typoPolicy.mode
        guard mode == .min || mode == .strict, matches.contains(where: { $0.candidates?.hasTypos == true }) else { return matches }
        let tiers = matches.map { match in
            guard let candidates = match.candidates, candidates.hasTypos else { return [(typos: 0, documents: match.documents)] }
            return RelevanceRanker.typoTiers(of: match.documents, candidates: candidates)
        }
        // Counts found in some record only: a segment that matches nothing (a few recent writes)
        // has no typo count to add, not a count of 0.
        let found = tiers.flatMap { $0.lazy.filter { !$0.documents.isEmpty }.map(\.typos) }
        let kept = Set(Set(found).sorted().prefix(mode == .min ? 1 : 2))
        for index in matches.indices {
            var documents = DocumentSet(capacity: matches[index].documents.capacity)
            for tier in tiers[index] where kept.contains(tier.typos) { documents.formUnion(tier.documents) }
            matches[index].documents = documents
        }
        return matches
    }
}

/// The parts of a search that see every segment at once: ranking across segments, facet counts
/// merged by value. With one segment, `page`, `distinctPage` and `facets` take the
/// one-snapshot paths (`RelevanceRanker`, `FacetCounter`), which need no merging.
enum SegmentedSearch {
    /// Every matching document of every segment, in rank order, lazily: each segment's
    /// documents come ranked (`RelevanceRanker.keyedTiers`), and the heads are compared by the
    /// sort values (a sort replica), then the relevance key, then the document order.
    static func ranked(_ matches: [SegmentMatch], boosts: [[FilterBoost]], geo: [GeoRanking?], criteria relevance: [RankingCriterion],
                       state: IndexState) -> AnyIterator<(segment: Int, document: Int)> {
        let configuration = state.configuration
        let segments = state.segments
        // The proximity limit decided on each group of every segment together.
        let limit = SegmentedGroupLimit.isNeeded(matches)
            ? SegmentedGroupLimit(matches: matches, boosts: boosts, geo: geo, criteria: relevance, state: state) : nil
        var cursors = matches.indices.map { index in
            TierCursor(RelevanceRanker.keyedTiers(of: matches[index].documents, candidates: matches[index].candidates,
                                                  boosts: boosts[index], geo: geo[index], criteria: relevance,
                                                  sortRuns: segments[index].snapshot.sortRuns,
                                                  overLimit: { run in limit?.limit(segment: index, run: run) ?? RelevanceRanker.ownSizeLimit }))
        }
        let criteria = configuration.documentOrder
        let sortCount = configuration.sortCriteria.count
        func before(_ a: Int, _ headA: (key: [Int], document: Int), _ b: Int, _ headB: (key: [Int], document: Int)) -> Bool {
            let valuesA = state.orderValues(segment: a, document: headA.document)
            let valuesB = state.orderValues(segment: b, document: headB.document)
            switch DocumentOrder.compare(valuesA, valuesB, criteria: criteria, range: 0..<sortCount) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: break
            }
            if headA.key != headB.key { return headA.key.lexicographicallyPrecedes(headB.key) }
            return DocumentOrder.precedes(valuesA, state.rowID(segment: a, document: headA.document),
                                          valuesB, state.rowID(segment: b, document: headB.document), criteria: criteria)
        }
        return AnyIterator {
            var best: Int?
            for index in cursors.indices {
                guard let head = cursors[index].head else { continue }
                if let current = best, !before(index, head, current, cursors[current].head!) { continue }
                best = index
            }
            guard let segment = best else { return nil }
            let document = cursors[segment].head!.document
            cursors[segment].advance()
            return (segment, document)
        }
    }

    /// The ranked documents at `start..<start + count`.
    static func page(_ matches: [SegmentMatch], boosts: [[FilterBoost]], geo: [GeoRanking?], criteria: [RankingCriterion], state: IndexState,
                     start: Int, count: Int) -> [(segment: Int, document: Int)] {
        guard count > 0 else { return [] }
        if matches.count == 1 {
            return RelevanceRanker.page(of: matches[0].documents, candidates: matches[0].candidates, boosts: boosts[0], geo: geo[0],
                                        criteria: criteria, sortRuns: state.base.sortRuns, start: start, count: count).map { (0, $0) }
        }
        let ranked = ranked(matches, boosts: boosts, geo: geo, criteria: criteria, state: state)
        for _ in 0..<start where ranked.next() != nil {}
        var page: [(segment: Int, document: Int)] = []
        while page.count < count, let next = ranked.next() { page.append(next) }
        return page
    }

    /// `distinct` over every segment: the page once each group (the records sharing the first
    /// value of `attributeForDistinct`) is cut to its best `perGroup`, how many remain, and which
    /// (per segment).
    static func distinctPage(_ matches: [SegmentMatch], boosts: [[FilterBoost]], geo: [GeoRanking?], criteria: [RankingCriterion], state: IndexState,
                             groupPath: String, perGroup: Int, start: Int, count: Int)
        -> (page: [(segment: Int, document: Int)], total: Int, kept: [DocumentSet]) {
        if matches.count == 1, let groups = state.base.facetColumn(groupPath) {
            let (page, total, kept) = RelevanceRanker.distinctPage(of: matches[0].documents, candidates: matches[0].candidates,
                                                                   boosts: boosts[0], geo: geo[0], criteria: criteria,
                                                                   sortRuns: state.base.sortRuns, groups: groups, perGroup: perGroup,
                                                                   start: start, count: count)
            return (page.map { (0, $0) }, total, [kept])
        }
        let columns = state.segments.map { $0.snapshot.facetColumn(groupPath) }
        var seen: [String: Int] = [:]
        var page: [(segment: Int, document: Int)] = []
        var kept = matches.map { DocumentSet(capacity: $0.documents.capacity) }
        var total = 0
        let ranked = ranked(matches, boosts: boosts, geo: geo, criteria: criteria, state: state)
        while let (segment, document) = ranked.next() {
            if let column = columns[segment], column.docStarts[document] < column.docStarts[document + 1] {
                let group = column.values[Int(column.docValues[Int(column.docStarts[document])])]
                guard seen[group, default: 0] < perGroup else { continue }
                seen[group, default: 0] += 1
            }
            if total >= start, page.count < count { page.append((segment, document)) }
            kept[segment].insert(document)
            total += 1
        }
        return (page, total, kept)
    }

    /// Relevant sort (a virtual replica's): the most relevant of the matching documents, per
    /// segment. The matches are ranked by relevance alone (`criteria`, no sort), and the best
    /// tiers are kept until they hold (100 − `strictness`)% of the matches, at least the first
    /// tier (the records tied with the most relevant one on every criterion) and never part of a
    /// tier: 100 keeps the first tier only, 0 every match. Tiers of two segments with the same
    /// values are one tier.
    /// - Complexity: the relevance splits of the tiers kept (as ranking that many hits costs).
    static func relevantSelection(_ matches: [SegmentMatch], boosts: [[FilterBoost]], geo: [GeoRanking?], criteria: [RankingCriterion],
                                  strictness: Int) -> [DocumentSet] {
        var selected = matches.map { DocumentSet(capacity: $0.documents.capacity) }
        let total = matches.reduce(0) { $0 + $1.documents.count }
        if strictness == 0 {
            for index in matches.indices { selected[index] = matches[index].documents }
            return selected
        }
        let target = max(1, (total * (100 - strictness) + 99) / 100)
        let limit = SegmentedGroupLimit.isNeeded(matches)
            ? SegmentedGroupLimit(matches: matches, boosts: boosts, geo: geo, criteria: criteria, state: nil) : nil
        let tiers = matches.indices.map { index in
            RelevanceRanker.keyedTiers(of: matches[index].documents, candidates: matches[index].candidates, boosts: boosts[index],
                                       geo: geo[index], criteria: criteria, sortRuns: [],
                                       overLimit: { _ in limit?.limit(segment: index, run: nil) ?? RelevanceRanker.ownSizeLimit }).makeIterator()
        }
        var heads = tiers.indices.map { tiers[$0].next() }
        var kept = 0
        while kept < target {
            // The best key among the segments' next tiers; every tier with it is kept.
            guard let key = heads.compactMap({ $0?.key }).min(by: { $0.lexicographicallyPrecedes($1) }) else { break }
            for index in heads.indices where heads[index]?.key == key {
                let tier = heads[index]!.tier
                selected[index].formUnion(tier.documentSet(capacity: matches[index].documents.capacity))
                kept += tier.count
                heads[index] = tiers[index].next()
            }
        }
        return selected
    }

    /// Each value of a facet with its count over the matching documents of every segment
    /// (values with no match left out): the base's values in id order, then the others.
    static func valueCounts(_ attribute: String, matches: [SegmentMatch], state: IndexState) -> [(value: String, count: Int)] {
        guard let column = state.base.facetColumn(attribute) else { return [] }
        let (counts, extras) = mergedCounts(column, matches: matches, state: state)
        return counts.indices.filter { counts[$0] > 0 }.map { (column.values[$0], counts[$0]) } + extras
    }

    /// A facet's counts over every segment: per value of the base's column, and for the values
    /// only later segments hold. The later segments' values are found in the base's column by
    /// text (`IndexSnapshot.valueIDs`), so no text is made for the base's values.
    static func mergedCounts(_ column: FacetColumn, matches: [SegmentMatch], state: IndexState)
        -> (base: [Int], extras: [(value: String, count: Int)]) {
        let attribute = column.path
        var counts = FacetCounter(snapshot: state.base).counts(column, over: matches[0].documents, documentCount: matches[0].documents.count)
        var extras: [String: Int] = [:]
        for (index, segment) in state.segments.enumerated().dropFirst() {
            guard let other = segment.snapshot.facetColumn(attribute), !matches[index].documents.isEmpty else { continue }
            let otherCounts = FacetCounter(snapshot: segment.snapshot).counts(other, over: matches[index].documents,
                                                                              documentCount: matches[index].documents.count)
            let lookup = state.base.valueIDs(column)
            for id in otherCounts.indices where otherCounts[id] > 0 {
                let value = other.values[id]
                if let baseID = lookup[value] { counts[Int(baseID)] += otherCounts[id] } else { extras[value, default: 0] += otherCounts[id] }
            }
        }
        return (counts, extras.map { ($0.key, $0.value) })
    }

    /// The response's `facets` and `facets_stats` over every segment, as `FacetCounter.facets`
    /// gives them for one snapshot (an attribute with no matched value left out).
    static func facets(_ attributes: [String], matches: [SegmentMatch], state: IndexState,
                       maxValues: Int, sort: FacetSortOrder) -> (facets: [FacetCounts], stats: [String: FacetStats]) {
        if matches.count == 1 {
            let documents = matches[0].documents
            let documentCount = documents.count
            // No match, no value to count (a third of a keystroke log): not counted, not kept.
            guard documentCount > 0 else { return ([], [:]) }
            return state.base.facetCounts.counts(attributes, over: documents, documentCount: documentCount, maxValues: maxValues, sort: sort) {
                FacetCounter(snapshot: state.base).facets(attributes, over: documents, documentCount: documentCount, maxValues: maxValues, sort: sort)
            }
        }
        var facets: [FacetCounts] = []
        var stats: [String: FacetStats] = [:]
        for attribute in attributes {
            guard let column = state.base.facetColumn(attribute) else { continue }
            let (counts, extras) = mergedCounts(column, matches: matches, state: state)
            // Entries: a base value id (≥ 0), or an extra value (-1 - its position).
            let entries = counts.indices.filter { counts[$0] > 0 } + extras.indices.map { -1 - $0 }
            guard !entries.isEmpty else { continue }
            func count(_ entry: Int) -> Int { entry >= 0 ? counts[entry] : extras[-1 - entry].count }
            func value(_ entry: Int) -> String { entry >= 0 ? column.values[entry] : extras[-1 - entry].value }
            func byValue(_ a: Int, _ b: Int) -> Bool {
                a >= 0 && b >= 0 ? column.values.precedes(a, b) : value(a).utf8.lexicographicallyPrecedes(value(b).utf8)
            }
            let top: [Int]
            switch sort {
            case .count:
                top = FacetCounter.smallest(maxValues, of: entries) { count($0) != count($1) ? count($0) > count($1) : byValue($0, $1) }
            case .alpha:
                top = FacetCounter.smallest(maxValues, of: entries, by: byValue)
            }
            facets.append(FacetCounts(attribute: attribute, values: top.map { (value($0), count($0)) }))
            let columns = state.segments.compactMap { $0.snapshot.facetColumn(attribute) }.filter { $0.values.count > 0 }
            if !columns.isEmpty, columns.allSatisfy(\.isNumeric) {
                stats[attribute] = FacetCounter.stats(entries.map { (entry: Int) in
                    (entry >= 0 ? column.numbers[entry] : Double(value(entry)) ?? .nan, count(entry))
                })
            }
        }
        return (facets, stats)
    }
}

/// One segment's ranked documents, one at a time.
private struct TierCursor {
    private var tiers: AnyIterator<RelevanceRanker.KeyedTier>
    private var tier: RelevanceRanker.KeyedTier?
    private var position = 0
    /// The next document and its tier's key; nil when the segment has no more.
    private(set) var head: (key: [Int], document: Int)?

    init(_ tiers: AnySequence<RelevanceRanker.KeyedTier>) {
        self.tiers = tiers.makeIterator()
        advance()
    }

    /// Moves `head` to the next document.
    mutating func advance() {
        while true {
            if let current = tier {
                switch current.tier {
                case .set(let set):
                    if let document = set.first(from: position) {
                        position = document + 1
                        head = (current.key, document)
                        return
                    }
                case .list(let list):
                    if position < list.count {
                        position += 1
                        head = (current.key, list[list.startIndex + position - 1])
                        return
                    }
                case .atPosition:
                    // Listed once, then read as a list.
                    tier = RelevanceRanker.KeyedTier(key: current.key, tier: .list(current.tier.elements(skip: 0, limit: .max)[...]))
                    continue
                }
            }
            guard let next = tiers.next() else {
                head = nil
                return
            }
            tier = next
            position = 0
        }
    }
}

/// The proximity limit over every segment (`RelevanceRanker.GroupLimit`): a tied group is over
/// `proximityGroupLimit` when the groups with its key hold more documents in all the segments
/// together (with the same sort values, in a sort replica), as the one group would in the index
/// derived whole. A segment's group with a key is found by splitting its matches along the
/// key, each split made once and kept. Used only where some group can be over the limit (more
/// matches in all than the limit, in more than one segment).
///
/// Not thread-safe: one search uses it.
final class SegmentedGroupLimit {
    private let matches: [SegmentMatch]
    private let boosts: [[FilterBoost]]
    private let geo: [GeoRanking?]
    private let criteria: [RankingCriterion]
    /// For the sort values of a sort replica's runs (nil: ranked by relevance alone).
    private let state: IndexState?
    /// The sort values of the runs asked about (a sort replica's), found again in each segment.
    private var runs: [[RankingValue?]] = []
    /// Each run asked about (by segment and first document): its scope, an index into `runs`.
    private var scopeOfRun: [SegmentRun: Int] = [:]
    /// How many documents match in each scope, in every segment together.
    private var scopeTotals: [Int: Int] = [:]
    /// Each scope's (a run of equal sort values, or -1: every match) documents per segment.
    private var scopes: [Int: [DocumentSet]] = [:]
    /// The parts of each group split so far, by segment, scope and key.
    private var parts: [Node: [(value: Int, documents: DocumentSet)]] = [:]
    private var totals: [Node: Int] = [:]

    private struct SegmentRun: Hashable {
        var segment: Int
        var first: Int
    }

    private struct Node: Hashable {
        var segment: Int
        var scope: Int
        var key: [Int]
    }

    init(matches: [SegmentMatch], boosts: [[FilterBoost]], geo: [GeoRanking?], criteria: [RankingCriterion], state: IndexState?) {
        self.matches = matches
        self.boosts = boosts
        self.geo = geo
        self.criteria = criteria
        self.state = state
    }

    /// Whether any tied group can be over the limit in `matches`.
    static func isNeeded(_ matches: [SegmentMatch]) -> Bool {
        matches.count > 1 && matches.reduce(0) { $0 + $1.documents.count } > RelevanceRanker.proximityGroupLimit
    }

    /// The limit for the groups of `segment`'s run `run` (its documents' range; nil: every match).
    func limit(segment: Int, run: Range<Int>?) -> RelevanceRanker.GroupLimit {
        limit(scope: run.map { scopeIndex(segment: segment, firstDocument: $0.lowerBound) } ?? -1)
    }

    /// Over the limit: the group here is, or the groups with its key in every segment are
    /// (never when the whole scope is not: a sort replica's runs are most often small).
    private func limit(scope: Int) -> RelevanceRanker.GroupLimit {
        { [self] key, size in
            let limit = RelevanceRanker.proximityGroupLimit
            return RelevanceRanker.ownSizeLimit(key, size) || (scopeTotal(scope) > limit && total(scope: scope, key: key) > limit)
        }
    }

    private var sortCount: Int { state?.configuration.sortCriteria.count ?? 0 }

    private func scopeIndex(segment: Int, firstDocument: Int) -> Int {
        guard let state, sortCount > 0 else { return -1 }
        let run = SegmentRun(segment: segment, first: firstDocument)
        if let known = scopeOfRun[run] { return known }
        // Each segment's run is its own scope: the same sort values asked about from two
        // segments are counted twice, the same way.
        runs.append(state.orderValues(segment: segment, document: firstDocument))
        scopeOfRun[run] = runs.count - 1
        return runs.count - 1
    }

    /// The documents of `segment`'s run with the sort values of `scope` (nil: it has none).
    private func runRange(segment: Int, scope: Int) -> Range<Int>? {
        guard let state else { return nil }
        // By binary search: the runs are in sort order; the last entry is the document count.
        let runs = state.segments[segment].snapshot.sortRuns
        var low = 0, high = max(0, runs.count - 1)
        while low < high {
            let middle = (low + high) / 2
            switch DocumentOrder.compare(state.orderValues(segment: segment, document: Int(runs[middle])), self.runs[scope],
                                         criteria: state.configuration.documentOrder, range: 0..<sortCount) {
            case .orderedAscending: low = middle + 1
            case .orderedDescending: high = middle
            case .orderedSame: low = middle; high = middle
            }
        }
        guard low + 1 < runs.count, sameSortValues(state.orderValues(segment: segment, document: Int(runs[low])), self.runs[scope]) else {
            return nil
        }
        return Int(runs[low])..<Int(runs[low + 1])
    }

    /// How many documents match in the scope, in every segment together.
    private func scopeTotal(_ scope: Int) -> Int {
        if let known = scopeTotals[scope] { return known }
        let total = matches.indices.reduce(0) { sum, segment in
            guard scope >= 0 else { return sum + matches[segment].documents.count }
            return sum + (runRange(segment: segment, scope: scope).map { matches[segment].documents.count(in: $0) } ?? 0)
        }
        scopeTotals[scope] = total
        return total
    }

    private func sameSortValues(_ a: [RankingValue?], _ b: [RankingValue?]) -> Bool {
        DocumentOrder.compare(a, b, criteria: state?.configuration.documentOrder ?? [], range: 0..<sortCount) == .orderedSame
    }

    /// The matches of each segment within the scope.
    private func scopeDocuments(_ scope: Int) -> [DocumentSet] {
        if let known = scopes[scope] { return known }
        let documents: [DocumentSet] = matches.indices.map { segment in
            let matched = matches[segment].documents
            guard scope >= 0 else { return matched }
            var inRun = DocumentSet(capacity: matched.capacity)
            if let range = runRange(segment: segment, scope: scope) {
                for document in matched.elements(in: range) { inRun.insert(document) }
            }
            return inRun
        }
        scopes[scope] = documents
        return documents
    }

    /// How many documents the groups with `key` hold in every segment together.
    private func total(scope: Int, key: [Int]) -> Int {
        let node = Node(segment: -1, scope: scope, key: key)
        if let known = totals[node] { return known }
        let sum = matches.indices.reduce(0) { $0 + group(segment: $1, scope: scope, key: key).count }
        totals[node] = sum
        return sum
    }

    /// A segment's group with `key`: its scope's matches split along the key.
    private func group(segment: Int, scope: Int, key: [Int]) -> DocumentSet {
        let documents = scopeDocuments(scope)[segment]
        guard let last = key.last else { return documents }
        let parent = Node(segment: segment, scope: scope, key: Array(key.dropLast()))
        if parts[parent] == nil {
            let group = self.group(segment: segment, scope: scope, key: parent.key)
            let split = group.isEmpty ? [] : RelevanceRanker.split(
                group, by: criteria[parent.key.count], candidates: matches[segment].candidates, boosts: boosts[segment],
                geo: geo[segment], key: parent.key, overLimit: limit(scope: scope))
            parts[parent] = split.map { ($0.0, $0.1.documentSet(capacity: documents.capacity)) }
        }
        return parts[parent]!.first { $0.value == last }?.documents ?? DocumentSet(capacity: documents.capacity)
    }
}
