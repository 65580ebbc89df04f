import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Rules saved, read, searched and deleted; refused whole when one is wrong; kept across a
/// reopen, seen by another engine on the same folder, carried by copy and move.
@Suite struct RuleStorageTests {
    static let records: [JSONValue] = [
        ["objectID": "1", "name": "iPhone 15", "brand": "Apple"],
        ["objectID": "2", "name": "Galaxy S24", "brand": "Samsung"],
    ]

    static func rule(_ id: String, _ pattern: String = "phone", anchoring: String = "contains", context: String? = nil,
                     enabled: Bool = true, description: String? = nil) -> JSONObject {
        var condition: JSONObject = ["pattern": .string(pattern), "anchoring": .string(anchoring)]
        if let context { condition["context"] = .string(context) }
        var rule: JSONObject = ["objectID": .string(id), "conditions": [.object(condition)],
                                "consequence": ["userData": ["rule": .string(id)]], "enabled": .bool(enabled)]
        if let description { rule["description"] = .string(description) }
        return rule
    }

    func index(_ engine: TestEngine) throws -> SearchIndex {
        try engine.index(settings: ["searchableAttributes": ["name", "brand"], "attributesForFaceting": ["brand"]], records: Self.records)
    }

    @Test func rulesAreSavedReadReplacedAndDeleted() throws {
        let engine = try TestEngine()
        let index = try index(engine)
        try index.saveRules([Self.rule("b"), Self.rule("a")])
        #expect(index.rules.compactMap { $0["objectID"]?.stringValue } == ["a", "b"])
        #expect(try index.rule("a") == Self.rule("a"))
        try index.saveRule(Self.rule("a", "galaxy"))
        #expect(try index.rule("a")?["conditions"]?.arrayValue?.first?["pattern"] == "galaxy")
        #expect(index.rules.count == 2)
        #expect(try index.deleteRule("a"))
        #expect(try !index.deleteRule("a"))
        #expect(try index.rule("a") == nil)
        try index.saveRules([Self.rule("c")], clearExisting: true)
        #expect(index.rules.compactMap { $0["objectID"]?.stringValue } == ["c"])
        try index.clearRules()
        #expect(index.rules.isEmpty)
        // Rules are not settings.
        #expect(index.settings.withDefaults["rules"] == nil)
    }

    @Test(arguments: [
        (["conditions": [], "consequence": [:]] as JSONObject, "objectID"),
        (["objectID": "x", "consequence": [:], "colour": "red"] as JSONObject, "colour: unknown field"),
        (["objectID": "x"] as JSONObject, "consequence"),
        (["objectID": "x", "consequence": ["promote": "1"]] as JSONObject, "promote"),
        (["objectID": "x", "consequence": [:], "conditions": [["pattern": "a"]]] as JSONObject, "anchoring"),
        (["objectID": "x", "consequence": [:], "conditions": [["pattern": "a", "anchoring": "near"]]] as JSONObject, "anchoring"),
        (["objectID": "x", "consequence": [:], "enabled": "yes"] as JSONObject, "enabled"),
        (["objectID": "x", "consequence": ["params": ["hitsPerPage": "many"]]] as JSONObject, "hitsPerPage"),
        (["objectID": "x", "consequence": ["params": ["automaticFacetFilters": ["brand"]]]] as JSONObject, "{facet:brand}"),
        (["objectID": "x", "consequence": [:], "validity": [["from": 10]]] as JSONObject, "validity"),
        (["objectID": "x", "consequence": ["hide": ["1"]]] as JSONObject, "hide"),
        (["objectID": "x", "consequence": ["promote": [["objectID": "1", "position": 301]]]] as JSONObject, "position"),
        (["objectID": "x", "conditions": [["pattern": "{facet:brand}", "anchoring": "contains"]],
          "consequence": ["params": ["automaticOptionalFacetFilters": [["facet": "brand", "score": 70000]]]]] as JSONObject, "score"),
        (["objectID": "x", "conditions": [["filters": "brand:Apple OR brand:Samsung"]], "consequence": [:]] as JSONObject, "filters"),
        (["objectID": "x", "conditions": [["pattern": "", "anchoring": "contains"]], "consequence": [:]] as JSONObject, "empty pattern"),
        (["objectID": "x", "consequence": ["params": ["filters": "brand:Apple AND ("]]] as JSONObject, "consequence.params"),
        (["objectID": "x", "consequence": ["params": ["facetFilters": ["colour"]]]] as JSONObject, "consequence.params"),
    ])
    func aWrongRuleIsRefusedAndNothingIsStored(rule: JSONObject, named: String) throws {
        let engine = try TestEngine()
        let index = try index(engine)
        try index.saveRules([Self.rule("kept")])
        let generation = index.live.state.generation
        #expect {
            try index.saveRules([Self.rule("good"), rule])
        } throws: { error in
            let error = error as? SearchError
            return error?.status == 400 && error?.message.contains(named) == true && error?.message.contains("rules[1]") == true
        }
        #expect(index.rules.compactMap { $0["objectID"]?.stringValue } == ["kept"])
        #expect(index.live.state.generation == generation)
    }

    @Test func searchRulesFindsByWordsAnchoringContextAndEnabled() throws {
        let engine = try TestEngine()
        let index = try index(engine)
        try index.saveRules([Self.rule("promo-phones", description: "Spring promotion"), Self.rule("exact", "iphone", anchoring: "is"),
                             Self.rule("mobile-only", context: "mobile"), Self.rule("off", enabled: false)])
        func ids(_ parameters: SearchRulesParams) throws -> [String] {
            try index.searchRules(parameters).hits.compactMap { $0["objectID"]?.stringValue }
        }
        #expect(try ids(SearchRulesParams()) == ["exact", "mobile-only", "off", "promo-phones"])
        #expect(try ids(SearchRulesParams(query: "spring")) == ["promo-phones"])
        #expect(try ids(SearchRulesParams(query: "iphone")) == ["exact"])
        #expect(try ids(SearchRulesParams(anchoring: .is)) == ["exact"])
        #expect(try ids(SearchRulesParams(context: "mobile")) == ["mobile-only"])
        #expect(try ids(SearchRulesParams(enabled: false)) == ["off"])
        #expect(try ids(SearchRulesParams(enabled: true)).count == 3)
        let page = try index.searchRules(SearchRulesParams(page: 1, hitsPerPage: 3))
        #expect(page.hits.count == 1 && page.nbHits == 4 && page.nbPages == 2 && page.page == 1)
        #expect(try SearchRulesParams(json: ["query": "x", "anchoring": "is", "hitsPerPage": 5]).hitsPerPage == 5)
        #expect(throws: SearchError.self) { try SearchRulesParams(json: ["anchoring": "near"]) }
        #expect(throws: SearchError.self) { try SearchRulesParams(json: ["colour": "red"]) }
    }

    @Test func rulesSurviveAReopenAndReachAnotherEngineOnTheFolder() throws {
        let engine = try TestEngine()
        let index = try index(engine)
        try index.saveRules([Self.rule("banner")])
        let other = try SearchEngine(directory: engine.directory.url)
        let seen = try other.existingIndex("test")
        #expect(try seen.search("phone").userData == [["rule": "banner"]])
        // A write by the first engine is followed by the second at its next search.
        try index.saveRule(Self.rule("banner", "galaxy"))
        #expect(try seen.search("phone").userData == nil)
        #expect(try seen.search("galaxy").userData == [["rule": "banner"]])
        try seen.clearRules()
        #expect(try index.search("galaxy").userData == nil)
    }

    @Test func anotherProcessSRulesAreSeenAfterThisOneWrites() throws {
        let engine = try TestEngine()
        let index = try index(engine)
        let other = try SearchEngine(directory: engine.directory.url).existingIndex("test")
        try other.saveRule(Self.rule("theirs"))
        // This engine writes before it searches: the write brings its state past the other's.
        try index.saveObjects([["objectID": "3", "name": "Pixel phone", "brand": "Google"]])
        #expect(try index.search("phone").userData == [["rule": "theirs"]])
        #expect(index.rules.count == 1)
    }

    @Test func browseRulesDropsTheHighlightsOfAlgoliasRulesSearch() async throws {
        struct Algolia: IndexRulesService {
            func getRule(indexName: String, objectID: String) async throws(SearchError) -> JSONObject { [:] }
            func saveRules(indexName: String, rules: [JSONObject], forwardToReplicas: Bool, clearExistingRules: Bool) async throws(SearchError) -> WriteResponse {
                WriteResponse(taskID: 0)
            }
            func deleteRule(indexName: String, objectID: String, forwardToReplicas: Bool) async throws(SearchError) -> WriteResponse { WriteResponse(taskID: 0) }
            func clearRules(indexName: String, forwardToReplicas: Bool) async throws(SearchError) -> WriteResponse { WriteResponse(taskID: 0) }
            func searchRules(indexName: String, searchRulesParams: SearchRulesParams) async throws(SearchError) -> RulesPage {
                var hit = RuleStorageTests.rule("a")
                hit["_highlightResult"] = ["objectID": ["value": "a", "matchLevel": "none"]]
                return RulesPage(hits: [hit], nbHits: 1, page: 0, nbPages: 1)
            }
        }
        let rules = try await Algolia().browseRules(indexName: "products")
        #expect(rules == [Self.rule("a")])
        #expect(throws: Never.self) { try Rule(json: rules[0]) }
    }

    @Test func copyAndMoveCarryRules() throws {
        let engine = try TestEngine()
        let index = try index(engine)
        try index.saveRules([Self.rule("banner")])
        try engine.engine.copyIndex("test", to: "copy")
        #expect(try engine.engine.existingIndex("copy").search("phone").userData == [["rule": "banner"]])
        // A scope of rules replaces the destination's rules and keeps its records.
        let other = try engine.index("other", records: [["objectID": "x", "name": "phone case"]])
        try other.saveRules([Self.rule("mine")])
        try engine.engine.copyIndex("test", to: "other", scope: [.rules])
        #expect(other.rules.compactMap { $0["objectID"]?.stringValue } == ["banner"])
        #expect(other.recordCount == 1)
        try engine.engine.copyIndex("copy", to: "other", scope: [.settings])
        #expect(other.rules.compactMap { $0["objectID"]?.stringValue } == ["banner"])
        try engine.engine.moveIndex("copy", to: "moved")
        #expect(try engine.engine.existingIndex("moved").rules.count == 1)
    }

    @Test func forwardToReplicasSavesOnTheReplicasToo() throws {
        let engine = try TestEngine()
        let index = try index(engine)
        try index.setSettings(["replicas": ["test_by_name"]])
        try index.saveRules([Self.rule("banner")], forwardToReplicas: true)
        let replica = try engine.engine.existingIndex("test_by_name")
        #expect(replica.rules.count == 1)
        try index.saveRules([Self.rule("primary-only")])
        #expect(replica.rules.count == 1 && index.rules.count == 2)
        try index.clearRules(forwardToReplicas: true)
        #expect(replica.rules.isEmpty)
    }
}
