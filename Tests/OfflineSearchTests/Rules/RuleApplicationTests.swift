import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Rules applied to searches, each condition and consequence on Algolia's documented examples
/// (promote a box set, hide premium laptops for "cheap", a banner in `userData`, a facet value
/// turned into a filter). For every rule, the same search with `enableRules: false` answers
/// exactly as the index did before the rule was saved: a rule's effect is its consequence alone.
@Suite struct RuleApplicationTests {
    static let records: [JSONValue] = [
        ["objectID": "iphone", "name": "iPhone 15", "brand": "Apple", "category": "Phones", "popularity": 90],
        ["objectID": "galaxy", "name": "Galaxy S24 phone", "brand": "Samsung", "category": "Phones", "popularity": 80],
        ["objectID": "macbook", "name": "MacBook Air laptop", "brand": "Apple", "category": "Laptops", "popularity": 70],
        ["objectID": "pixel", "name": "Pixel 8 phone", "brand": "Google", "category": "Phones", "popularity": 60],
        ["objectID": "red-shirt", "name": "Classic t-shirt", "brand": "Acme", "color": "red", "category": "Clothing", "popularity": 20],
        ["objectID": "blue-shirt", "name": "Classic t-shirt", "brand": "Acme", "color": "blue", "category": "Clothing", "popularity": 30],
        ["objectID": "cheap-laptop", "name": "Budget laptop", "brand": "Budget", "category": "Laptops", "product_range": "budget", "popularity": 10],
        ["objectID": "premium-laptop", "name": "Premium laptop", "brand": "Luxe", "category": "Laptops", "product_range": "premium", "popularity": 50],
        ["objectID": "hp-box", "name": "Harry Potter box set", "brand": "Bloomsbury", "category": "Books", "popularity": 5],
        ["objectID": "hp-1", "name": "Harry Potter and the Philosopher's Stone", "brand": "Bloomsbury", "category": "Books", "popularity": 40],
    ]
    static let settings: JSONObject = [
        "searchableAttributes": ["name", "brand", "category"],
        "attributesForFaceting": ["brand", "color", "category", "product_range"],
        "customRanking": ["desc(popularity)"],
    ]

    let engine: TestEngine
    let index: SearchIndex

    init() throws {
        engine = try TestEngine()
        index = try engine.index(settings: RuleApplicationTests.settings, records: RuleApplicationTests.records)
    }

    /// The search before and after `rules` are saved; checks that with `enableRules: false` the
    /// answer after is the one before.
    func effect(of rules: [JSONObject], _ query: String, _ parameters: JSONObject = [:]) throws -> (before: SearchResponse, after: SearchResponse) {
        let before = try index.search(query, parameters)
        try index.saveRules(rules, clearExisting: true)
        let after = try index.search(query, parameters)
        var off = parameters
        off["enableRules"] = false
        let without = try index.search(query, off)
        #expect(without.objectIDs == before.objectIDs)
        #expect(without.nbHits == before.nbHits)
        #expect(without.facets == before.facets)
        #expect(without.userData == nil && without.appliedRules == nil)
        return (before, after)
    }

    static func banner(_ id: String, _ pattern: String, _ anchoring: String, alternatives: Bool = false) -> JSONObject {
        ["objectID": .string(id), "conditions": [["pattern": .string(pattern), "anchoring": .string(anchoring), "alternatives": .bool(alternatives)]],
         "consequence": ["userData": ["banner": .string(id)]]]
    }

    // MARK: Conditions

    @Test(arguments: [
        ("is", "harry potter", true), ("is", "harry potter box", false),
        ("startsWith", "harry potter box", true), ("startsWith", "the harry potter", false),
        ("endsWith", "box set harry potter", true), ("endsWith", "harry potter box", false),
        ("contains", "the harry potter box", true), ("contains", "harry box potter", false),
        ("contains", "HÄRRY Potter!", true), ("contains", "harr potter", false),
    ])
    func anchoring(anchoring: String, query: String, applies: Bool) throws {
        let (_, after) = try effect(of: [Self.banner("hp", "Harry Potter", anchoring)], query)
        #expect((after.userData ?? []) == (applies ? [["banner": "hp"]] : []), "\(anchoring) \"Harry Potter\" on \"\(query)\"")
    }

    @Test func anEmptyPatternWithIsMatchesTheEmptyQueryOnly() throws {
        let rule: JSONObject = ["objectID": "empty", "conditions": [["pattern": "", "anchoring": "is"]],
                                "consequence": ["userData": ["message": "browse our bestsellers"]]]
        #expect(try effect(of: [rule], "").after.userData == [["message": "browse our bestsellers"]])
        #expect(try index.search("phone").userData == nil)
    }

    @Test func alternativesMatchPluralsSynonymsAndTypos() throws {
        try index.setSettings(["synonyms": [["objectID": "s", "type": "synonym", "synonyms": ["cellphone", "phone"]]]])
        let strict = Self.banner("strict", "phone", "contains")
        let loose = Self.banner("loose", "phone", "contains", alternatives: true)
        try index.saveRules([strict, loose])
        // The two rules cover the same word: only the first in precedence (the smaller objectID) applies.
        #expect(try index.search("phone").userData == [["banner": "loose"]])
        #expect(try index.search("phone").appliedRules == nil)   // only with getRankingInfo
        #expect(try index.search("phone", ["getRankingInfo": true]).appliedRules == ["loose"])
        for query in ["phones", "cellphone", "phine"] {
            #expect(try index.search(query, ["getRankingInfo": true]).appliedRules == ["loose"], "\(query)")
        }
        try index.deleteRule("loose")
        for query in ["phones", "cellphone", "phine"] {
            #expect(try index.search(query).userData == nil, "\(query)")
        }
    }

    @Test func aContextRuleAppliesOnlyWhenTheSearchNamesItsContext() throws {
        let rule: JSONObject = ["objectID": "mobile", "conditions": [["context": "mobile"]],
                                "consequence": ["params": ["hitsPerPage": 2]]]
        let (before, after) = try effect(of: [rule], "phone", ["ruleContexts": ["mobile"]])
        #expect(before.hitsPerPage == 20 && before.hits.count == 3)
        #expect(after.hitsPerPage == 2 && after.objectIDs == Array(before.objectIDs.prefix(2)))
        #expect(try index.search("phone").hits.count == 3)
        #expect(try index.search("phone", ["ruleContexts": ["desktop"]]).hits.count == 3)
    }

    @Test func aFiltersConditionAppliesWhenTheSearchFiltersOnIt() throws {
        let rule: JSONObject = ["objectID": "laptops-page", "conditions": [["filters": "category:Laptops"]],
                                "consequence": ["userData": ["title": "Laptops"], "promote": [["objectID": "premium-laptop", "position": 0]]]]
        let (before, after) = try effect(of: [rule], "", ["facetFilters": ["category:laptops"]])
        #expect(before.objectIDs == ["macbook", "premium-laptop", "cheap-laptop"])
        #expect(after.objectIDs == ["premium-laptop", "macbook", "cheap-laptop"])
        #expect(after.userData == [["title": "Laptops"]])
        #expect(try index.search("", ["filters": "category:Laptops AND brand:Apple"]).userData == [["title": "Laptops"]])
        #expect(try index.search("", ["filters": "category:Laptops OR brand:Apple"]).userData == nil)
        #expect(try index.search("laptop").userData == nil)
    }

    @Test func aRuleWithoutConditionsAlwaysApplies() throws {
        let rule: JSONObject = ["objectID": "everywhere", "consequence": ["userData": ["notice": "free shipping"]]]
        #expect(try effect(of: [rule], "phone").after.userData == [["notice": "free shipping"]])
        #expect(try index.search("").userData == [["notice": "free shipping"]])
    }

    @Test func aRuleAppliesOnlyWithinItsValidityAndWhenEnabled() throws {
        let now = Int(Date().timeIntervalSince1970)
        var current = Self.banner("sale", "phone", "contains")
        current["validity"] = [["from": .int(Int64(now - 3600)), "until": .int(Int64(now + 3600))]]
        var past = Self.banner("past", "galaxy", "contains")
        past["validity"] = [["from": .int(Int64(now - 7200)), "until": .int(Int64(now - 3600))]]
        var disabled = Self.banner("off", "pixel", "contains")
        disabled["enabled"] = false
        let (_, after) = try effect(of: [current, past, disabled], "phone")
        #expect(after.userData == [["banner": "sale"]])
        #expect(try index.search("galaxy").userData == nil)
        #expect(try index.search("pixel").userData == nil)
    }

    // MARK: Consequences

    @Test func aQueryIsReplacedOrEdited() throws {
        let replace: JSONObject = ["objectID": "replace", "conditions": [["pattern": "mobile", "anchoring": "is"]],
                                   "consequence": ["params": ["query": "phone"]]]
        let edit: JSONObject = ["objectID": "edit", "conditions": [["pattern": "cheap", "anchoring": "contains"]],
                                "consequence": ["params": ["query": ["edits": [["type": "remove", "delete": "cheap"],
                                                                                ["type": "replace", "delete": "notebook", "insert": "laptop"]]]]]]
        let (before, after) = try effect(of: [replace, edit], "mobile")
        #expect(before.nbHits == 0)
        #expect(after.objectIDs == (try index.search("phone", ["enableRules": false]).objectIDs))
        #expect(after.query == "mobile")
        #expect(after.params.contains("query=phone"))
        let edited = try index.search("cheap notebook")
        #expect(edited.nbHits == 3)
        #expect(edited.objectIDs == (try index.search("laptop", ["enableRules": false]).objectIDs))
    }

    @Test func aFacetPlaceholderFiltersOnTheValueItMatched() throws {
        // Algolia's "dynamic filtering": `{facet:brand}` in the query becomes a brand filter, and
        // the matched words leave the query.
        let rule: JSONObject = ["objectID": "brand", "conditions": [["pattern": "{facet:brand}", "anchoring": "contains"]],
                                "consequence": ["params": ["automaticFacetFilters": [["facet": "brand"]],
                                                           "query": ["edits": [["type": "remove", "delete": "{facet:brand}"]]]]]]
        let (before, after) = try effect(of: [rule], "apple laptop")
        #expect(before.objectIDs == ["macbook"])
        #expect(after.objectIDs == ["macbook"])
        #expect(after.params.contains("facetFilters"))
        let phones = try index.search("samsung phone")
        #expect(phones.objectIDs == ["galaxy"])
        #expect(try index.search("samsung phone", ["enableRules": false]).objectIDs == ["galaxy"])
        // Only the brand filter, the brand gone from the query: every Samsung.
        #expect(try index.search("samsung").objectIDs == ["galaxy"])
        #expect(try index.search("nokia phone").objectIDs == (try index.search("nokia phone", ["enableRules": false]).objectIDs))
        // Negative: the value is left out.
        let negative: JSONObject = ["objectID": "not-brand", "conditions": [["pattern": "{facet:brand}", "anchoring": "contains"]],
                                    "consequence": ["params": ["automaticFacetFilters": [["facet": "brand", "negative": true]],
                                                               "query": ["remove": ["{facet:brand}"]]]]]
        try index.saveRules([negative], clearExisting: true)
        #expect(try index.search("apple laptop").objectIDs == ["premium-laptop", "cheap-laptop"])
    }

    @Test func aLonePlaceholderFindsEveryValueAndDisjunctiveOrsThem() throws {
        // Algolia's `disjunctive`: several values of the facet in the query, OR-ed rather than AND-ed.
        func rule(disjunctive: Bool) -> JSONObject {
            ["objectID": "colors", "conditions": [["pattern": "{facet:color}", "anchoring": "contains"]],
             "consequence": ["params": ["automaticFacetFilters": [["facet": "color", "disjunctive": .bool(disjunctive)]],
                                        "query": ["remove": ["{facet:color}"]]]]]
        }
        let (before, after) = try effect(of: [rule(disjunctive: true)], "red blue t-shirt")
        #expect(before.nbHits == 0)
        #expect(Set(after.objectIDs) == ["red-shirt", "blue-shirt"])
        try index.saveRules([rule(disjunctive: false)], clearExisting: true)
        // A t-shirt is not red and blue at once.
        #expect(try index.search("red blue t-shirt").nbHits == 0)
        #expect(try index.search("red t-shirt").objectIDs == ["red-shirt"])
    }

    @Test func anOptionalFacetPlaceholderBoostsTheValue() throws {
        let rule: JSONObject = ["objectID": "color", "conditions": [["pattern": "{facet:color} t-shirt", "anchoring": "contains"]],
                                "consequence": ["params": ["automaticOptionalFacetFilters": [["facet": "color", "score": 2]],
                                                           "query": ["remove": ["{facet:color}"]]]]]
        let (before, after) = try effect(of: [rule], "red t-shirt")
        #expect(before.objectIDs.isEmpty)
        // Both t-shirts stay; the red one ranks first against the custom ranking.
        #expect(after.objectIDs == ["red-shirt", "blue-shirt"])
        #expect(try index.search("t-shirt").objectIDs == ["blue-shirt", "red-shirt"])
    }

    @Test func paramsAreSetAndFiltersAddUp() throws {
        let rule: JSONObject = ["objectID": "apple-laptops", "conditions": [["pattern": "apple", "anchoring": "contains"]],
                                "consequence": ["params": ["filters": "category:Laptops", "hitsPerPage": 1]]]
        let (before, after) = try effect(of: [rule], "apple", ["filters": "NOT brand:Google"])
        #expect(Set(before.objectIDs) == ["iphone", "macbook"])
        #expect(after.objectIDs == ["macbook"] && after.hitsPerPage == 1 && after.nbHits == 1)
        // The rule's filter is ANDed with the search's own.
        #expect(try index.search("apple", ["facetFilters": ["category:Phones"]]).nbHits == 0)
    }

    /// A promoted record is highlighted with every word of the query, typo matches included,
    /// also when the query matches nothing and its words after the first that found nothing
    /// are not matched against the records (`CandidateMatcher`).
    @Test func aPromotedRecordIsHighlightedWhenNothingMatches() throws {
        let rule: JSONObject = ["objectID": "purple-pin", "conditions": [["pattern": "purple", "anchoring": "contains"]],
                                "consequence": ["promote": [["objectID": "premium-laptop", "position": 0]]]]
        try index.saveRules([rule], clearExisting: true)
        for query in ["purple laptpo ", "laptpo purple "] {
            let answer = try index.search(query)
            #expect(answer.objectIDs == ["premium-laptop"], "\(query)")
            #expect(answer.hits.first?["_highlightResult"]?["name"]?["value"] == "Premium <em>laptop</em>", "\(query)")
        }
    }

    @Test func promotedRecordsArePinnedAtTheirPositions() throws {
        // Algolia's example: the Harry Potter box set first whenever a search is about Harry Potter.
        let rule: JSONObject = ["objectID": "promote-box-set", "conditions": [["pattern": "Harry Potter", "anchoring": "contains"]],
                                "consequence": ["promote": [["objectID": "hp-box", "position": 0]]]]
        let (before, after) = try effect(of: [rule], "harry potter", ["getRankingInfo": true])
        #expect(before.objectIDs == ["hp-1", "hp-box"])
        #expect(after.objectIDs == ["hp-box", "hp-1"])
        #expect(after.nbHits == 2)
        #expect(after.hits[0]["_rankingInfo"]?["promoted"] == true)
        #expect(after.hits[1]["_rankingInfo"]?["promoted"] == nil)
        #expect(after.appliedRules == ["promote-box-set"])
        // A promoted record that does not match the query is shown too, and counted.
        let pinned: JSONObject = ["objectID": "pin", "conditions": [["pattern": "phone", "anchoring": "contains"]],
                                  "consequence": ["promote": [["objectIDs": ["hp-box", "macbook"], "position": 1]]]]
        try index.saveRules([pinned], clearExisting: true)
        let phones = try index.search("phone")
        #expect(phones.objectIDs == ["iphone", "hp-box", "macbook", "galaxy", "pixel"])
        #expect(phones.nbHits == 5)
        // Over pages: position 1 is on page 1 with one hit per page.
        #expect(try index.search("phone", ["hitsPerPage": 1, "page": 1]).objectIDs == ["hp-box"])
        #expect(try index.search("phone", ["hitsPerPage": 1, "page": 3]).objectIDs == ["galaxy"])
        #expect(try index.search("phone", ["hitsPerPage": 2, "page": 2]).objectIDs == ["pixel"])
        #expect(try index.search("phone", ["hitsPerPage": 1, "page": 3]).nbPages == 5)
        // Past the last hit: after it.
        let far: JSONObject = ["objectID": "pin", "conditions": [["pattern": "galaxy", "anchoring": "contains"]],
                               "consequence": ["promote": [["objectID": "hp-box", "position": 10]]]]
        try index.saveRules([far], clearExisting: true)
        #expect(try index.search("galaxy").objectIDs == ["galaxy", "hp-box"])
    }

    @Test func filterPromotesShowsAPinnedRecordOnlyWhenItPassesTheFilters() throws {
        for filterPromotes in [false, true] {
            let rule: JSONObject = ["objectID": "pin", "conditions": [["pattern": "phone", "anchoring": "contains"]],
                                    "consequence": ["promote": [["objectID": "macbook", "position": 0]], "filterPromotes": .bool(filterPromotes)]]
            try index.saveRules([rule], clearExisting: true)
            #expect(try index.search("phone", ["facetFilters": ["brand:Samsung"]]).objectIDs == (filterPromotes ? ["galaxy"] : ["macbook", "galaxy"]))
            #expect(try index.search("phone", ["facetFilters": ["brand:Apple"]]).objectIDs == ["macbook", "iphone"])
        }
    }

    @Test func hiddenRecordsLeaveTheResultsAndTheirCounts() throws {
        // Algolia's example: "cheap" hides the premium range.
        let rule: JSONObject = ["objectID": "hide-premium", "conditions": [["pattern": "cheap", "anchoring": "contains"]],
                                "consequence": ["hide": [["objectID": "premium-laptop"]], "params": ["query": ["remove": ["cheap"]]]]]
        let (_, after) = try effect(of: [rule], "cheap laptop", ["facets": ["brand"]])
        #expect(after.objectIDs == (try index.search("laptop", ["enableRules": false]).objectIDs).filter { $0 != "premium-laptop" })
        #expect(after.nbHits == 2)
        #expect(after.facet("brand")?.values.map(\.value).sorted() == ["Apple", "Budget"])
    }

    @Test func renderingContentComesFromTheIndexOrARule() throws {
        let ordering: JSONObject = ["facetOrdering": ["facets": ["order": ["brand", "category"]]]]
        try index.setSettings(["renderingContent": .object(ordering)])
        #expect(try index.search("phone").renderingContent == ordering)
        let rule: JSONObject = ["objectID": "redirect", "conditions": [["pattern": "help", "anchoring": "is"]],
                                "consequence": ["params": ["renderingContent": ["redirect": ["url": "https://example.com/help"]]]]]
        let (_, after) = try effect(of: [rule], "help")
        #expect(after.renderingContent == ["redirect": ["url": "https://example.com/help"]])
        #expect(try index.search("phone").renderingContent == ordering)
        #expect(try index.search("help", ["enableRules": false]).renderingContent == ordering)
    }

    // MARK: Combinations

    @Test func aPlaceholderRuleWithAPromotion() throws {
        let rule: JSONObject = ["objectID": "apple", "conditions": [["pattern": "{facet:brand}", "anchoring": "startsWith"]],
                                "consequence": ["params": ["automaticFacetFilters": ["brand"], "query": ["remove": ["{facet:brand}"]]],
                                                "promote": [["objectID": "iphone", "position": 0]]]]
        let (_, after) = try effect(of: [rule], "apple")
        #expect(after.objectIDs == ["iphone", "macbook"])
        // The promotion holds even where the filter would drop it (filterPromotes is off).
        #expect(try index.search("samsung").objectIDs == ["iphone", "galaxy"])
    }

    @Test func twoRulesOnDifferentWordsBothApplyAndOnTheSameWordsOnlyTheFirst() throws {
        let harry = Self.banner("harry", "harry", "contains")
        let box = Self.banner("box", "box set", "contains")
        let longer = Self.banner("harry-potter", "harry potter", "contains")
        let (_, after) = try effect(of: [harry, box, longer], "harry potter box set", ["getRankingInfo": true])
        // "harry potter" (longer) wins over "harry" at the same position; "box set" covers other words.
        #expect(after.appliedRules == ["harry-potter", "box"])
        #expect(after.userData == [["banner": "harry-potter"], ["banner": "box"]])
        // An exact `is` match outranks a `contains` match of the same words.
        let exact = Self.banner("exact", "harry potter box set", "is")
        try index.saveRules([exact])
        #expect(try index.search("harry potter box set", ["getRankingInfo": true]).appliedRules == ["exact"])
        // Same words and same anchoring: the smaller objectID.
        try index.saveRules([Self.banner("a", "pixel", "contains"), Self.banner("b", "pixel", "contains")], clearExisting: true)
        #expect(try index.search("pixel", ["getRankingInfo": true]).appliedRules == ["a"])
    }

    @Test func hostileRulesAndQueriesStayBounded() throws {
        // Forty conditionless rules with filters: one level of parentheses each, not forty.
        let filtering = (0..<40).map { n -> JSONObject in
            ["objectID": .string("f\(n)"), "consequence": ["params": ["filters": .string("NOT brand:Nobody\(n)")]]]
        }
        let (before, after) = try effect(of: filtering, "phone")
        #expect(after.objectIDs == before.objectIDs)
        // An edit that lengthens a query to past 512 bytes: cut there, not refused.
        let lengthen: JSONObject = ["objectID": "long", "conditions": [["pattern": "tv", "anchoring": "contains"]],
                                    "consequence": ["params": ["query": ["edits": [["type": "replace", "delete": "tv", "insert": "television"]]]]]]
        try index.saveRules([lengthen], clearExisting: true)
        let long = try index.search(Array(repeating: "tv", count: 150).joined(separator: " "))
        #expect(long.nbHits == 0)
        // Placeholders that could match in many ways: found or not without trying each way.
        let values = (0..<2).map { n -> JSONValue in ["objectID": .string("a\(n)"), "name": "x", "code": n == 0 ? "a" : "a a"] }
        try index.saveObjects(values)
        try index.setSettings(["attributesForFaceting": ["brand", "color", "category", "product_range", "code"]])
        let greedy: JSONObject = ["objectID": "greedy",
                                  "conditions": [["pattern": .string(Array(repeating: "{facet:code}", count: 30).joined(separator: " ") + " zzz"),
                                                  "anchoring": "contains"]],
                                  "consequence": ["userData": ["never": true]]]
        try index.saveRules([greedy], clearExisting: true)
        #expect(try index.search(Array(repeating: "a", count: 120).joined(separator: " ")).userData == nil)
    }

    @Test func aPromotionCountsWithDistinct() throws {
        // Three laptops, one category: one hit with distinct.
        try index.setSettings(["attributeForDistinct": "category", "distinct": true])
        let rule: JSONObject = ["objectID": "pin", "conditions": [["pattern": "laptop", "anchoring": "contains"]],
                                "consequence": ["promote": [["objectID": "hp-box", "position": 20]]]]
        let (before, after) = try effect(of: [rule], "laptop")
        #expect(before.nbHits == 1)
        // Past the last distinct hit: right after it, on the last page.
        #expect(after.objectIDs == before.objectIDs + ["hp-box"])
        #expect(after.nbHits == 2)
        let second = try index.search("laptop", ["hitsPerPage": 1, "page": 1])
        #expect(second.objectIDs == ["hp-box"] && second.nbPages == 2)
    }

    @Test func rulesOffForOneSearchOrForTheIndex() throws {
        try index.saveRules([Self.banner("hp", "harry", "contains")])
        #expect(try index.search("harry").userData != nil)
        #expect(try index.search("harry", ["enableRules": false]).userData == nil)
        try index.setSettings(["enableRules": false])
        #expect(try index.search("harry").userData == nil)
        #expect(try index.search("harry", ["enableRules": true]).userData != nil)
    }
}
