/// Work shared by the queries run on one snapshot within one call (a multi-search, a search
/// with disjunctive facets): the documents matching a query text, and those matching a filter,
/// are computed once. InstantSearch's disjunctive faceting sends the same query text and most
/// of the same filters 1 + N times; with the context the extra queries cost little more than
/// their facet counts.
///
/// Not thread-safe: one context serves one caller.
final class SearchContext {
    let snapshot: IndexSnapshot
    let filters: FilterEvaluator
    private var candidates: [[QueryWord]: CandidateMatches] = [:]

    init(snapshot: IndexSnapshot) {
        self.snapshot = snapshot
        filters = FilterEvaluator(snapshot: snapshot)
    }

    /// The candidates of a query's words; nil for a query without words (every document).
    func candidates(for words: [QueryWord]) -> CandidateMatches? {
        guard !words.isEmpty else { return nil }
        if let known = candidates[words] { return known }
        let matches = CandidateMatcher.match(words, in: snapshot)
        candidates[words] = matches
        return matches
    }

    /// The documents matching the request's words and filters, with the candidates for ranking.
    func matching(_ request: SearchRequest) -> (documents: DocumentSet, candidates: CandidateMatches?) {
        let candidates = candidates(for: request.words)
        var documents = candidates?.matched ?? DocumentSet(capacity: snapshot.documentCount, full: true)
        if let filter = request.filter { documents.formIntersection(filters.documents(matching: filter)) }
        return (documents, candidates)
    }
}
