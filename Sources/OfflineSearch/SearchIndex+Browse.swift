import Foundation
import SearchAPI

/// One page of a browse: a search response over records in objectID order, and the cursor
/// for the next page (nil on the last).
public struct BrowsePage: Sendable, Hashable {
    public var response: SearchResponse
    /// Opaque: pass it back to `browse(_:cursor:)` for the next page.
    public var cursor: String?

    /// Algolia's browse answer: the search response plus `cursor` (absent on the last page).
    public var jsonValue: JSONValue {
        guard case .object(var object) = response.jsonValue else { return response.jsonValue }
        if let cursor { object["cursor"] = .string(cursor) }
        return .object(object)
    }
}

extension SearchIndex {
    /// Algolia's browse (`POST /1/indexes/{index}/browse`): every record matching the query and
    /// filters, exactly once across the pages, in objectID order; `hitsPerPage` defaults to
    /// 1000 and is not capped by `paginationLimitedTo`. The cursor holds the parameters and
    /// the last objectID returned, not a position, so writes between pages (and the rebuilds
    /// that renumber records) neither skip nor repeat a record that stays.
    ///
    /// ```swift
    /// var page = try index.browse(SearchParameters())
    /// while let cursor = page.cursor { page = try index.browse(SearchParameters(), cursor: cursor) }
    /// ```
    public func browse(_ parameters: SearchParameters, cursor: String? = nil) throws(SearchError) -> BrowsePage {
        let clock = ContinuousClock()
        let started = clock.now
        var parameters = parameters
        var after: String?
        if let cursor {
            (parameters, after) = try BrowseCursor.decode(cursor)
        }
        let limit = max(1, parameters.hitsPerPage ?? 1000)
        var paged = parameters
        paged.hitsPerPage = limit
        paged.page = 0
        live.waitForDerivation()
        for _ in 0..<3 {
            try followCommittedWrites()
            let state = live.state
            let request = try SearchRequest(paged, configuration: state.configuration)
            let matches = StateContext(state: state).matching(request)
            let matchedCount = matches.reduce(0) { $0 + $1.documents.count }
            let everything = request.filter == nil && matchedCount == state.documentCount
            var rowIDs = Set<Int64>()
            if !everything {
                for (segment, match) in matches.enumerated() {
                    match.documents.forEach { document in
                        rowIDs.insert(state.rowID(segment: segment, document: document))
                        return true
                    }
                }
            }
            guard let (records, more) = try store.records(after: after, generation: state.generation, limit: limit,
                                                        include: { everything || rowIDs.contains($0) }) else {
                // A write committed after the state was taken: wait for it, retry on the new one.
                live.writeLock.lock(); live.writeLock.unlock()
                continue
            }
            // The records come in objectID order from either segment: highlight with the words
            // the query matched in any of them.
            var candidates = matches[0].candidates
            for match in matches.dropFirst() {
                guard let variants = match.candidates?.variantTerms, candidates != nil else { continue }
                candidates!.variantTerms = zip(candidates!.variantTerms, variants).map { $0.union($1) }
            }
            let builder = HitBuilder(request: request, configuration: state.configuration, candidates: candidates)
            var response = SearchResponse()
            response.hits = records.map { builder.hit(for: $0) }
            response.nbHits = matchedCount
            response.hitsPerPage = limit
            response.nbPages = (matchedCount + limit - 1) / limit
            response.query = parameters.query
            response.params = parameters.urlEncoded
            response.index = name
            let elapsed = clock.now - started
            response.processingTimeMS = elapsed.wholeMilliseconds
            let next = more ? records.last?["objectID"]?.stringValue.map { BrowseCursor.encode(parameters: parameters, after: $0) } : nil
            return BrowsePage(response: response, cursor: next)
        }
        throw SearchError(.internalError, "Index \(name) kept changing during the browse; try again")
    }
}

/// The browse cursor: base64 of `{"params": <the URL-encoded parameters>, "after": <objectID>}`.
enum BrowseCursor {
    static func encode(parameters: SearchParameters, after objectID: String) -> String {
        let json: JSONValue = ["params": .string(parameters.urlEncoded), "after": .string(objectID)]
        return Data(json.jsonString.utf8).base64EncodedString()
    }

    static func decode(_ cursor: String) throws(SearchError) -> (SearchParameters, String) {
        let invalid = SearchError(.invalidParameter, "cursor: not a cursor this index returned; start the browse again without one")
        guard let data = Data(base64Encoded: cursor),
              let json = try? JSONValue(parsingUTF8: Array(data)),
              let params = json["params"]?.stringValue, let after = json["after"]?.stringValue else { throw invalid }
        return (try SearchParameters(urlEncoded: params), after)
    }
}
