import Testing
@testable import OfflineSearch
import SearchAPI

/// A page read from the head of a large group split by proximity (`RelevanceRanker.proximityHead`:
/// only the records up to the page are read) holds the same hits, in the same order, as the
/// whole ranking read past it (1,000 hits a page: no group here is four times that, so every
/// record is read).
@Suite struct ProximityHeadTests {
    /// 900 records of a few words, so that two- and three-word queries match hundreds of them
    /// at every distance, with the words in the brand (an ordered level before the others), in
    /// the name, in the description, or split between them.
    static func records() -> [JSONValue] {
        let vocabulary = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta"]
        let brands = ["alpha beta", "gamma", "acme", "beta", "zeta alpha"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func words(_ count: Int) -> String { (0..<count).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " ") }
        return (0..<900).map { id in
            ["objectID": .string("r\(id)"), "brand": .string(brands[next(brands.count)]), "name": .string(words(2 + next(5))),
             "description": .string(words(6 + next(20))), "popularity": .int(Int64(next(50)))]
        }
    }

    static let searchable: JSONValue = ["brand", "unordered(name)", "unordered(description)"]

    /// Each query's pages of 5 and 20 hits against the same hits of the whole ranking, asked
    /// twice (the second time, each word is kept with its own levels: the pair-level bound).
    func expectPagesMatchTheWholeRanking(settings: JSONObject, parameters: JSONObject = [:]) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: settings, records: Self.records())
        for query in ["alpha beta", "alpha be", "beta gamma delta", "gamma alpha", "alpah beta", "omega sigma kappa theta"] {
            for round in 1...2 {
                var whole = parameters
                whole["hitsPerPage"] = 1000
                let ranked = try index.search(query, whole).objectIDs
                #expect(ranked.count > 160, "\(query): a group large enough for a head")
                for hitsPerPage in [5, 20] {
                    for page in 0..<3 {
                        var asked = parameters
                        asked["hitsPerPage"] = .int(Int64(hitsPerPage))
                        asked["page"] = .int(Int64(page))
                        let expected = Array(ranked.dropFirst(page * hitsPerPage).prefix(hitsPerPage))
                        #expect(try index.search(query, asked).objectIDs == expected,
                                "\(query), page \(page) of \(hitsPerPage), round \(round), \(settings)")
                    }
                }
            }
        }
    }

    /// Algolia's default: the attribute from the closest pairs (`minProximity`).
    @Test func theAttributeFromTheClosestPairs() throws {
        try expectPagesMatchTheWholeRanking(settings: ["searchableAttributes": Self.searchable, "customRanking": ["desc(popularity)"]])
    }

    @Test func theAttributeOfTheBestMatch() throws {
        try expectPagesMatchTheWholeRanking(settings: ["searchableAttributes": Self.searchable, "customRanking": ["desc(popularity)"],
                                                       "attributeCriteriaComputedBy": "best"])
    }

    @Test func otherCriteriaAfterProximity() throws {
        try expectPagesMatchTheWholeRanking(settings: [
            "searchableAttributes": Self.searchable, "customRanking": ["desc(popularity)"],
            "ranking": ["proximity", "exact", "typo", "geo", "words", "filters", "attribute", "custom"],
        ])
    }

    /// Where the levels do not hold every word the scan reads, no head is taken for
    /// `minProximity`; the pages still match.
    @Test func restrictedAttributesAndTyposOffInOne() throws {
        let settings: JSONObject = ["searchableAttributes": Self.searchable, "customRanking": ["desc(popularity)"]]
        try expectPagesMatchTheWholeRanking(settings: settings, parameters: ["restrictSearchableAttributes": ["name", "description"]])
        try expectPagesMatchTheWholeRanking(settings: settings, parameters: ["disableTypoToleranceOnAttributes": ["brand"]])
    }
}
