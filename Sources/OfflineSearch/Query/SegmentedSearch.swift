import SearchAPI

/// What one segment's documents matched: the documents and their candidates for ranking.
struct SegmentMatch {
    var documents: DocumentSet
    var candidates: CandidateMatches?
}

/// Work shared by the queries run on one `IndexState` within one call (a multi-search, a search
/// with disjunctive facets): a `SearchContext` per segment.
///
/// Not thread-safe: one context serves one caller.
final class StateContext {
    let state: IndexState
    let segments: [SearchContext]

    init(state: IndexState) {
        self.state = state
        segments = state.segments.map { SearchContext(snapshot: $0.snapshot, live: $0.live) }
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
        let kept = Set(Set(tiers.flatMap { $0.map(\.typos) }).sorted().prefix(mode == .min ? 1 : 2))
        for index in matches.indices {
            var documents = DocumentSet(capacity: matches[index].documents.capacity)
            for tier in tiers[index] where kept.contains(tier.typos) { documents.formUnion(tier.documents) }
            matches[index].documents = documents
        }
        return matches
    }
}

/// The parts of a search that see every segment at once: ranking across segments, facet counts
/// merged by value. A state of one segment takes the single-snapshot paths instead.
enum SegmentedSearch {
    /// Every matching document of every segment, in rank order, lazily: each segment's
    /// documents come ranked (`RelevanceRanker.keyedTiers`), and the heads are compared by the
    /// sort values (a sort replica), then the relevance key, then the document order.
    static func ranked(_ matches: [SegmentMatch], boosts: [[FilterBoost]], geo: [GeoRanking?], criteria relevance: [RankingCriterion],
                       state: IndexState) -> AnyIterator<(segment: Int, document: Int)> {
        let configuration = state.configuration
        let segments = state.segments
        var cursors = matches.indices.map { index in
            TierCursor(RelevanceRanker.keyedTiers(of: matches[index].documents, candidates: matches[index].candidates,
                                                  boosts: boosts[index], geo: geo[index], criteria: relevance,
                                                  sortRuns: segments[index].snapshot.sortRuns))
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
        let tiers = matches.indices.map { index in
            RelevanceRanker.keyedTiers(of: matches[index].documents, candidates: matches[index].candidates, boosts: boosts[index],
                                       geo: geo[index], criteria: criteria, sortRuns: []).makeIterator()
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
                        head = (current.key, list[position - 1])
                        return
                    }
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
