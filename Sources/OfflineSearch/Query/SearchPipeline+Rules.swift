import Foundation
import SearchAPI

// The Rules stage and its effects on the later stages: the request rewritten before matching
// (`applyRules`), hidden records out of the matches and promoted ones placed (`place`), the
// page with the promoted records at their positions (`rankedPage(…promotions:)`), and the
// response's `userData`, `appliedRules` and `renderingContent` (`describe(_:rules:)`).
extension SearchPipeline {
    /// A record a rule promotes, found in the state: its position over every page, its
    /// document, and whether it matched the query (and filters) on its own.
    struct PlacedPromotion {
        var position: Int
        var segment: Int
        var document: Int
        var matched: Bool
    }

    /// Stage 0: the rules that apply to `parameters` (`RuleStage`); nil when none does.
    func applyRules(_ parameters: SearchParameters) throws(SearchError) -> AppliedRules? {
        guard !rules.rules.isEmpty else { return nil }
        return try RuleStage.apply(rules, to: parameters, state: state, now: Int64(Date().timeIntervalSince1970))
    }

    /// After matching: the hidden records taken out of the matches (so out of the hits, their
    /// count and the facets), and the promoted records found, those that must pass the
    /// search's filters (`filterPromotes`) only when they do. A promoted record that is not in
    /// the index is left out, and its position goes to the next hit.
    func place(_ applied: AppliedRules, in matched: inout Matched) throws(SearchError) -> [PlacedPromotion] {
        let objectIDs = Array(applied.hidden) + applied.promotions.map(\.objectID)
        guard !objectIDs.isEmpty else { return [] }
        let rowIDs = try state.rowIDs(of: objectIDs, find: findRecords)
        for objectID in applied.hidden {
            guard let rowID = rowIDs[objectID], let (segment, document) = state.location(ofRowID: rowID) else { continue }
            matched.matches[segment].documents.remove(document)
        }
        var placed: [PlacedPromotion] = []
        for promotion in applied.promotions {
            guard let rowID = rowIDs[promotion.objectID], let (segment, document) = state.location(ofRowID: rowID) else { continue }
            let isMatch = matched.matches[segment].documents.contains(document)
            if promotion.mustPassFilters, !isMatch, let filter = matched.request.filter,
               !context.segments[segment].filters.documents(matching: filter).contains(document) { continue }
            placed.append(PlacedPromotion(position: promotion.position, segment: segment, document: document, matched: isMatch))
        }
        return placed
    }

    /// Stage 4 with promotions: the promoted records at their positions (over every page; past
    /// the last hit, after it), the other matches ranked around them. `nbHits` counts the
    /// promoted records that did not match too.
    func rankedPage(_ matched: Matched, ranking: Ranking, relevantSortStrictness strictness: Int?,
                    promotions: [PlacedPromotion]) -> RankedPage {
        guard !promotions.isEmpty else { return rankedPage(matched, ranking: ranking, relevantSortStrictness: strictness) }
        var organic = matched
        for promotion in promotions where promotion.matched { organic.matches[promotion.segment].documents.remove(promotion.document) }
        // The hits there are without the promoted records: the matches, or what `distinct` or a
        // relevant sort keeps of them (counted by ranking them for no hit).
        var organicCount = organic.count
        if distinctPath(organic.request) != nil || strictness != nil {
            var counting = organic
            counting.request.start = 0
            counting.request.count = 0
            organicCount = rankedPage(counting, ranking: ranking, relevantSortStrictness: strictness).hitCount
        }
        // In position order, each at most right after the hits and the promotions before it.
        let slots = promotions.enumerated().map { offset, promotion in min(promotion.position, organicCount + offset) }
        let start = matched.request.start, end = start + matched.request.count
        let before = slots.filter { $0 < start }.count
        let within = slots.filter { $0 >= start && $0 < end }.count
        organic.request.start = start - before
        organic.request.count = matched.request.count - within
        var page = rankedPage(organic, ranking: ranking, relevantSortStrictness: strictness)
        var documents: [(segment: Int, document: Int)] = []
        var others = page.documents[...]
        for position in start..<end {
            if let index = slots.firstIndex(of: position) {
                page.promoted[documents.count] = promotions[index].matched
                documents.append((promotions[index].segment, promotions[index].document))
            } else if let next = others.popFirst() {
                documents.append(next)
            } else if !slots.contains(where: { $0 > position }) {
                break
            }
        }
        page.documents = documents
        page.hitCount += promotions.count
        return page
    }

    /// Stage 7 with rules: each applied rule's `userData`, the rules applied (`appliedRules`,
    /// with `getRankingInfo`, as Algolia's debugging aid), the `renderingContent` of a rule or
    /// else of the index, and `params` as the rules left them.
    func describe(_ response: inout SearchResponse, rules applied: AppliedRules?) {
        response.renderingContent = configuration.settings.values["renderingContent"]?.objectValue ?? JSONObject()
        guard let applied else { return }
        if !applied.userData.isEmpty { response.userData = applied.userData }
        if applied.parameters.getRankingInfo == true { response.appliedRules = applied.ruleIDs }
        if let content = applied.renderingContent { response.renderingContent = content }
        response.params = applied.parameters.urlEncoded
    }
}
