import SearchAPI

/// `_rankingInfo` of a hit (`getRankingInfo`): the values the ranking criteria saw for it.
enum RankingInfo {
    /// - `nbTypos`: typos summed over the matched query words, each at its best match;
    /// - `words`: query words matched; `nbExactWords`: matched whole, without typo;
    /// - `firstMatchedWord`: the attribute criterion's searchable level × 1000, plus the position
    ///   of the first matched word when that attribute is ordered;
    /// - `userScore`: the custom-ranking rank, higher is better;
    /// - `filters`: the total score of the optional filters the record matches;
    /// - `proximityDistance`: the proximity criterion's value;
    /// - `geoDistance`: with `aroundLatLng`, the `geo` criterion's value (the distance to the
    ///   nearest of the record's locations, divided by the precision there), else 0;
    ///   `geoPrecision`: that precision in metres (1 without a center); `matchedGeoLocation`:
    ///   the nearest location and its distance in metres.
    static func json(for document: Int, candidates: CandidateMatches?, boosts: [FilterBoost], geo: GeoRanking? = nil,
                     userScore: Int) -> JSONValue {
        var typos = 0, words = 0, exact = 0, firstMatchedWord = 0, proximity = 0
        if let candidates {
            for index in candidates.exact.indices {
                if let optional = candidates.optionalSets[index], !optional.contains(document) { continue }
                words += 1
                if let levels = candidates.byTypos[index], let t = levels.firstIndex(where: { $0.contains(document) }) { typos += t }
                if candidates.exact[index]?.contains(document) ?? true { exact += 1 }
            }
            let match = RelevanceRanker.proximity(of: document, candidates: candidates)
            proximity = match.distance
            var rank = RelevanceRanker.bestMatchRank(of: document, candidates: candidates)
            if candidates.attributeFromProximity, let closest = match.attributeRank { rank = closest }
            firstMatchedWord = PostingRank.level(of: rank) * 1000 + Int(PostingRank.position(of: rank))
        }
        let (geoDistance, geoPrecision, matchedLocation) = geo?.rankingInfo(of: document) ?? (0, 1, nil)
        var info: JSONObject = [
            "nbTypos": .int(Int64(typos)),
            "firstMatchedWord": .int(Int64(firstMatchedWord)),
            "proximityDistance": .int(Int64(proximity)),
            "userScore": .int(Int64(userScore)),
            "geoDistance": .int(Int64(geoDistance)),
            "geoPrecision": .int(Int64(geoPrecision)),
            "nbExactWords": .int(Int64(exact)),
            "words": .int(Int64(words)),
            "filters": .int(Int64(FilterBoost.score(of: document, in: boosts))),
        ]
        if let matchedLocation { info.appendUnique("matchedGeoLocation", matchedLocation) }
        return .object(info)
    }
}
