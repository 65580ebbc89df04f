/// Work shared by the queries run on one segment's snapshot within one call (a multi-search, a
/// search with disjunctive facets): the documents matching a query text, and those matching a
/// filter, are computed once. `StateContext` holds one per segment of the state.
/// InstantSearch's disjunctive faceting sends the same query text and most of the same filters
/// 1 + N times; with the context the extra queries cost little more than their facet counts.
///
/// Not thread-safe: one context serves one caller.
final class SegmentContext {
    let snapshot: IndexSnapshot
    /// The snapshot's documents that are still in the index (nil: all): a segment's documents
    /// removed or replaced by later writes are left out of every match.
    let live: DocumentSet?
    let filters: FilterEvaluator
    private struct CandidateKey: Equatable {
        var words: [QueryWord]
        var policy: TypoPolicy
        var scope: MatchScope
    }
    /// The candidates matched in this call, looked up by equality. A call searches a few query
    /// texts at most (a multi-search, a search and its disjunctive counts), and most calls one:
    /// a dictionary hashed every word of every search's key (its strings normalized for the
    /// hash) to store an entry no one would read, 1.7 % of a keystroke log's time (`perf`,
    /// Benchmarks/README.md). A list compares keys only when it holds some, and two keys of
    /// different words differ at their first word's text.
    private var candidates: [(key: CandidateKey, matches: CandidateMatches)] = []
    private static let candidatesKept = 32
    private var geoMatches: [GeoQuery: DocumentSet] = [:]

    init(snapshot: IndexSnapshot, live: DocumentSet? = nil) {
        self.snapshot = snapshot
        self.live = live
        filters = FilterEvaluator(snapshot: snapshot)
    }

    /// The candidates of a query's words; nil for a query without words (every document).
    func candidates(for words: [QueryWord], policy: TypoPolicy, scope: MatchScope) -> CandidateMatches? {
        guard !words.isEmpty else { return nil }
        let key = CandidateKey(words: words, policy: policy, scope: scope)
        if let known = candidates.first(where: { $0.key == key }) { return known.matches }
        let matches = CandidateMatcher.match(words, policy: policy, scope: scope, in: snapshot)
        // A multi-search of many different texts keeps its last ones, not every one compared.
        if candidates.count == SegmentContext.candidatesKept { candidates.removeFirst() }
        candidates.append((key, matches))
        return matches
    }

    /// The documents inside the geo query's areas, or within its radius of its center (an
    /// automatic radius already resolved by `StateContext`); records without a location never
    /// match.
    func documents(matching geo: GeoQuery) -> DocumentSet {
        if let known = geoMatches[geo] { return known }
        let index = snapshot.geo, capacity = snapshot.documentCount
        var documents: DocumentSet
        if !geo.areas.isEmpty {
            documents = index.documents(inside: geo.areas, capacity: capacity)
        } else if let center = geo.center, case .metres(let radius) = geo.radius {
            documents = index.documents(within: radius, of: center, capacity: capacity)
        } else {
            documents = index.locatedDocuments(capacity: capacity)
        }
        geoMatches[geo] = documents
        return documents
    }

    /// The documents matching the request's words and filters, with the candidates for ranking
    /// (`typoTolerance: "min"` and `"strict"` are applied over every segment by `StateContext`).
    func matching(_ request: SearchRequest) -> (documents: DocumentSet, candidates: CandidateMatches?) {
        var candidates = candidates(for: request.words, policy: request.typoPolicy, scope: request.scope)
        candidates?.minProximity = request.minProximity
        candidates?.attributeStrategy = request.attributeStrategy
        var documents = candidates?.matched ?? DocumentSet(capacity: snapshot.documentCount, full: true)
        if let live { documents.formIntersection(live) }
        if let filter = request.filter { documents.formIntersection(filters.documents(matching: filter)) }
        if let geo = request.geo { documents.formIntersection(self.documents(matching: geo)) }
        // Quoted phrases: their words adjacent and in order, in one attribute value.
        let phrases = Dictionary(grouping: request.words.filter { $0.phrase != nil }, by: { $0.phrase! })
        for (_, words) in phrases.sorted(by: { $0.key < $1.key }) where words.count > 1 {
            let ids = words.map { snapshot.terms.id(of: $0.folded).map(UInt32.init) }
            guard ids.allSatisfy({ $0 != nil }) else { documents = DocumentSet(capacity: snapshot.documentCount); break }
            let sequence = ids.map { $0! }
            var kept = DocumentSet(capacity: snapshot.documentCount)
            documents.forEach { document in
                if snapshot.forward.contains(sequence, in: document) { kept.insert(document) }
                return true
            }
            documents = kept
        }
        for words in request.excludedWords {
            let ids = words.map { snapshot.terms.id(of: $0) }
            guard let term = ids.first!, ids.allSatisfy({ $0 != nil }) else { continue }
            let range = Int(snapshot.postingStarts[term])..<Int(snapshot.postingStarts[term + 1])
            var excluded = DocumentSet(capacity: snapshot.documentCount)
            if words.count == 1 {
                excluded.insert(contentsOf: snapshot.postingDocs[range])
            } else {
                // Words written together (`-c#`): only the records that have them side by side.
                let sequence = ids.map { UInt32($0!) }
                for document in snapshot.postingDocs[range] where snapshot.forward.contains(sequence, in: Int(document)) {
                    excluded.insert(Int(document))
                }
            }
            documents.subtract(excluded)
        }
        return (documents, candidates)
    }
}
