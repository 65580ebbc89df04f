import Foundation
import OfflineSearch
@testable import OfflineSearchMirror
import OfflineSearchRemote
import SearchAPI
import Testing

/// The rules API through the remote client against `serve` on loopback, and a mirror that
/// copies the source's rules.
@Suite struct RuleClientTests {
    static let banner: JSONObject = ["objectID": "banner", "conditions": [["pattern": "phone", "anchoring": "contains"]],
                                     "consequence": ["userData": ["title": "Phones week"]]]
    static let pin: JSONObject = ["objectID": "pin", "conditions": [["context": "home"]],
                                  "consequence": ["promote": [["objectID": "p3", "position": 0]]]]

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func theClientSavesReadsSearchesAndDeletesRules() async throws {
        let served = try await ServedIndex(products: 10)
        let (engine, server, client) = (served.engine, served.server, served.client)
        let saved = try await client.saveRule(indexName: "products", objectID: "banner", rule: Self.banner)
        try await client.waitForTask(indexName: "products", taskID: saved.taskID)
        _ = try await client.saveRules(indexName: "products", rules: [Self.pin])
        #expect(try await client.getRule(indexName: "products", objectID: "banner") == Self.banner)
        #expect(try engine.existingIndex("products").rules.count == 2)
        let found = try await client.searchRules(indexName: "products", searchRulesParams: SearchRulesParams(context: "home"))
        #expect(found.nbHits == 1 && found.hits.first?["objectID"] == "pin")
        #expect(try await client.browseRules(indexName: "products").count == 2)

        var home = SearchParameters()
        home.other["ruleContexts"] = ["home"]
        home.getRankingInfo = true
        let answer = try await client.searchSingleIndex(indexName: "products", searchParams: home)
        #expect(answer.hits.first?["objectID"] == "p3" && answer.hits.first?["_rankingInfo"]?["promoted"] == true)
        #expect(answer.appliedRules == ["pin"])

        _ = try await client.deleteRule(indexName: "products", objectID: "pin")
        await #expect(throws: SearchError.self) { try await client.getRule(indexName: "products", objectID: "pin") }
        do {
            _ = try await client.deleteRule(indexName: "products", objectID: "pin")
            Issue.record("deleting a missing rule should fail")
        } catch {
            #expect(error.kind == .objectNotFound && error.status == 404)
        }
        do {
            _ = try await client.saveRules(indexName: "products", rules: [["objectID": "bad", "consequence": [:], "colour": "red"]])
            Issue.record("a rule with an unknown field should be refused")
        } catch {
            #expect(error.status == 400 && error.message.contains("colour"))
        }
        _ = try await client.saveRules(indexName: "products", rules: [Self.pin], clearExistingRules: true)
        #expect(try await client.browseRules(indexName: "products").map { $0["objectID"] } == ["pin"])
        _ = try await client.clearRules(indexName: "products")
        #expect(try engine.existingIndex("products").rules.isEmpty)
        await server.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aMirrorCopiesTheRules() async throws {
        let scene = try await MirrorScene(products: 20)
        try scene.source.existingIndex("products").saveRules([Self.banner, Self.pin])
        let report = try await IndexMirror(source: scene.client, target: scene.mirror).mirror(indexName: "products")
        #expect(report.rulesCopied == 2)
        #expect(try scene.mirror.existingIndex("products").rules == (try scene.source.existingIndex("products").rules))
        let query = SearchParameters(query: "phone")
        #expect(try scene.mirror.existingIndex("products").search(query).userData == [["title": "Phones week"]])
        await scene.server.stop()
    }
}
