import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OfflineSearch
@testable import OfflineSearchServer
import SearchAPI
import Testing

/// Algolia's endpoints, in-process through the responder: paths, bodies, answers, errors.
@Suite struct RouterTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func searchOneIndexWithJSONOrAParamsString() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let (status, answer) = try await client.call(.post, "/1/indexes/products/query", ["query": "phone", "hitsPerPage": 1])
            #expect(status == .ok)
            #expect(answer["nbHits"] == 2 && answer["hitsPerPage"] == 1 && answer["index"] == "products")
            let (_, params) = try await client.call(.post, "/1/indexes/products/query", ["params": "query=case&facets=%5B%22brand%22%5D"])
            #expect(params.objectIDs == ["3"])
            #expect(params["facets"]?["brand"]?["Acme"] == 1)
            // GET with the parameters in the URL.
            let (_, get) = try await client.call(.get, "/1/indexes/products?query=blue")
            #expect(get.objectIDs == ["2"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func multiSearchAndFacetValues() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let (_, answer) = try await client.call(.post, "/1/indexes/*/queries", ["requests": [
                ["indexName": "products", "params": "query=phone&facetFilters=%5B%5B%22brand%3AAcme%22%5D%5D"],
                ["indexName": "products", "type": "facet", "facet": "brand", "facetQuery": "ze"],
            ]])
            #expect(answer["results"]?[0]?.objectIDs == ["1"])
            #expect(answer["results"]?[1]?["facetHits"]?[0]?["value"] == "Zeta")
            let (_, facets) = try await client.call(.post, "/1/indexes/products/facets/brand/query", ["facetQuery": "ac"])
            #expect(facets["facetHits"]?[0]?["count"] == 2)
            let (status, missing) = try await client.call(.post, "/1/indexes/*/queries", ["requests": [["indexName": "nope"]]])
            #expect(status == .notFound && missing["message"] == "Index nope does not exist")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func objectsSaveGetPartialDelete() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let (created, saved) = try await client.call(.post, "/1/indexes/products", ["name": "new thing"])
            #expect(created == .created)
            #expect(saved["taskID"]?.intValue != nil && saved["createdAt"]?.stringValue != nil)
            let id = try #require(saved["objectID"]?.stringValue)
            let (_, put) = try await client.call(.put, "/1/indexes/products/9", ["name": "nine", "stock": 1])
            #expect(put["objectID"] == "9" && put["updatedAt"] != nil)
            try await client.call(.post, "/1/indexes/products/9/partial", ["stock": ["_operation": "Increment", "value": 4]])
            let (_, nine) = try await client.call(.get, "/1/indexes/products/9?attributesToRetrieve=stock")
            #expect(nine == ["stock": 5, "objectID": "9"])
            try await client.call(.post, "/1/indexes/products/10/partial?createIfNotExists=false", ["name": "ten"])
            let (absent, message) = try await client.call(.get, "/1/indexes/products/10")
            #expect(absent == .notFound && message["message"] == "ObjectID does not exist")
            let (_, objects) = try await client.call(.post, "/1/indexes/*/objects", ["requests": [
                ["indexName": "products", "objectID": .string(id)], ["indexName": "products", "objectID": "10"],
                ["indexName": "products", "objectID": "1", "attributesToRetrieve": ["brand"]],
            ]])
            #expect(objects["results"]?[0]?["name"] == "new thing")
            #expect(objects["results"]?[1] == .null)
            #expect(objects["results"]?[2] == ["brand": "Acme", "objectID": "1"])
            let (_, deleted) = try await client.call(.delete, "/1/indexes/products/9")
            #expect(deleted["deletedAt"] != nil)
            #expect(try test.engine.existingIndex("products").object("9") == nil)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func batchWithEveryActionAndMultiIndexBatch() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let (_, batch) = try await client.call(.post, "/1/indexes/products/batch", ["requests": [
                ["action": "addObject", "body": ["objectID": "a", "name": "alpha", "n": 1]],
                ["action": "updateObject", "body": ["objectID": "b", "name": "beta"]],
                ["action": "partialUpdateObject", "body": ["objectID": "a", "n": ["_operation": "Increment", "value": 1]]],
                ["action": "partialUpdateObjectNoCreate", "body": ["objectID": "zz", "name": "never"]],
                ["action": "deleteObject", "body": ["objectID": "1"]],
            ]])
            #expect(batch["objectIDs"] == ["a", "b", "a", "zz", "1"])
            let products = try test.engine.existingIndex("products")
            #expect(try products.object("a")?["n"] == 2)
            #expect(try products.object("zz") == nil && products.object("1") == nil)
            let (_, multi) = try await client.call(.post, "/1/indexes/*/batch", ["requests": [
                ["action": "addObject", "indexName": "other", "body": ["objectID": "o"]],
                ["action": "clear", "indexName": "products", "body": [:]],
            ]])
            #expect(multi["taskID"]?["other"]?.intValue != nil && multi["taskID"]?["products"]?.intValue != nil)
            #expect(products.recordCount == 0)
            try await client.call(.post, "/1/indexes/other/batch", ["requests": [["action": "delete", "body": [:]]]])
            #expect(!test.engine.exists("other"))
            let (status, error) = try await client.call(.post, "/1/indexes/products/batch", ["requests": [["action": "explode"]]])
            #expect(status == .badRequest && error["message"]?.stringValue?.contains("requests[0].action") == true)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func settingsBrowseDeleteByClearDeleteIndexAndList() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let (_, settings) = try await client.call(.get, "/1/indexes/products/settings")
            #expect(settings["searchableAttributes"] == ["name", "brand"] && settings["hitsPerPage"] == 20)
            let (missingStatus, _) = try await client.call(.get, "/1/indexes/missing/settings")
            #expect(missingStatus == .notFound)
            let (_, set) = try await client.call(.put, "/1/indexes/products/settings", ["customRanking": ["desc(price)"]])
            #expect(set["updatedAt"] != nil)
            var cursor: String?
            var seen: [String] = []
            repeat {
                var body: JSONObject = ["hitsPerPage": 2]
                if let cursor { body["cursor"] = .string(cursor) }
                let (_, page) = try await client.call(.post, "/1/indexes/products/browse", .object(body))
                seen += page.objectIDs
                cursor = page["cursor"]?.stringValue
            } while cursor != nil
            #expect(seen == ["1", "2", "3"])
            try await client.call(.post, "/1/indexes/products/deleteByQuery", ["filters": "brand:Zeta"])
            #expect(try test.engine.existingIndex("products").recordCount == 2)
            let (_, list) = try await client.call(.get, "/1/indexes")
            #expect(list["items"]?[0]?["name"] == "products" && list["items"]?[0]?["entries"] == 2 && list["nbPages"] == 1)
            try await client.call(.post, "/1/indexes/products/clear")
            #expect(try test.engine.existingIndex("products").recordCount == 0)
            let (_, deleted) = try await client.call(.delete, "/1/indexes/products")
            #expect(deleted["deletedAt"] != nil && !test.engine.exists("products"))
            let (_, task) = try await client.call(.get, "/1/indexes/products/task/123")
            #expect(task == ["status": "published", "pendingTask": false])
            let (_, appTask) = try await client.call(.get, "/1/task/123")
            #expect(appTask["status"] == "published")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func copyMoveAndSynonyms() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let (_, saved) = try await client.call(.put, "/1/indexes/products/synonyms/s1?forwardToReplicas=true",
                                                    ["type": "synonym", "synonyms": ["phone", "mobile"]])
            #expect(saved["id"] == "s1")
            try await client.call(.post, "/1/indexes/products/synonyms/batch?replaceExistingSynonyms=false",
                                  [["objectID": "s2", "type": "oneWaySynonym", "input": "case", "synonyms": ["cover"]]])
            let (_, one) = try await client.call(.get, "/1/indexes/products/synonyms/s1")
            #expect(one["synonyms"] == ["phone", "mobile"])
            let (_, found) = try await client.call(.post, "/1/indexes/products/synonyms/search", ["query": "cover"])
            #expect(found["nbHits"] == 1 && found["hits"]?[0]?["objectID"] == "s2")
            let (_, mobile) = try await client.call(.post, "/1/indexes/products/query", ["query": "mobile"])
            #expect(mobile["nbHits"] == 2)
            try await client.call(.delete, "/1/indexes/products/synonyms/s1")
            let (gone, _) = try await client.call(.get, "/1/indexes/products/synonyms/s1")
            #expect(gone == .notFound)

            try await client.call(.post, "/1/indexes/products/operation", ["operation": "copy", "destination": "copy"])
            #expect(try test.engine.existingIndex("copy").recordCount == 3)
            try await client.call(.post, "/1/indexes/copy/operation", ["operation": "move", "destination": "moved"])
            #expect(!test.engine.exists("copy") && test.engine.exists("moved"))
            try await client.call(.post, "/1/indexes/products/synonyms/clear")
            #expect(try test.engine.existingIndex("products").synonyms.isEmpty)
            let (bad, error) = try await client.call(.post, "/1/indexes/products/operation", ["operation": "rename", "destination": "x"])
            #expect(bad == .badRequest && error["status"] == 400)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func rulesAreSavedReadSearchedAndApplied() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let rule: JSONValue = ["conditions": [["pattern": "phone", "anchoring": "contains"]],
                                   "consequence": ["userData": ["banner": "phones"], "hide": [["objectID": "2"]]]]
            let (status, saved) = try await client.call(.put, "/1/indexes/products/rules/r1", rule)
            #expect(status == .ok && saved["id"] == "r1" && saved["taskID"] != nil)
            try await client.call(.post, "/1/indexes/products/rules/batch?clearExistingRules=false",
                                  [["objectID": "r2", "conditions": [["pattern": "case", "anchoring": "is"]],
                                    "consequence": ["params": ["query": "phone"]]]])
            let (_, one) = try await client.call(.get, "/1/indexes/products/rules/r1")
            #expect(one["objectID"] == "r1" && one["consequence"]?["userData"] == ["banner": "phones"])
            let (_, found) = try await client.call(.post, "/1/indexes/products/rules/search", ["query": "phone"])
            #expect(found["nbHits"] == 1 && found["hits"]?[0]?["objectID"] == "r1" && found["nbPages"] == 1)
            let (_, phones) = try await client.call(.post, "/1/indexes/products/query", ["query": "phone"])
            #expect(phones["nbHits"] == 1 && phones["userData"] == [["banner": "phones"]])
            let (_, replaced) = try await client.call(.post, "/1/indexes/products/query", ["query": "case", "getRankingInfo": true])
            // Conditions read the query as sent: r1 ("phone") does not apply to "case".
            #expect(replaced["query"] == "case" && replaced["nbHits"] == 2 && replaced["appliedRules"] == [["objectID": "r2"]])
            let (bad, error) = try await client.call(.put, "/1/indexes/products/rules/r3", ["consequence": ["hide": "2"]])
            #expect(bad == .badRequest && error["status"] == 400 && (error["message"]?.stringValue ?? "").contains("hide"))
            let (mismatch, _) = try await client.call(.put, "/1/indexes/products/rules/r3", ["objectID": "r4", "consequence": [:]])
            #expect(mismatch == .badRequest)
            try await client.call(.delete, "/1/indexes/products/rules/r1")
            let (gone, missing) = try await client.call(.get, "/1/indexes/products/rules/r1")
            #expect(gone == .notFound && missing["message"] == "ObjectID does not exist")
            let (again, _) = try await client.call(.delete, "/1/indexes/products/rules/r1")
            #expect(again == .notFound)
            try await client.call(.post, "/1/indexes/products/operation", ["operation": "copy", "destination": "copy", "scope": ["rules"]])
            #expect(try test.engine.existingIndex("copy").rules.count == 1)
            try await client.call(.post, "/1/indexes/products/rules/clear")
            #expect(try test.engine.existingIndex("products").rules.isEmpty)
            let (noIndex, _) = try await client.call(.post, "/1/indexes/nothing/rules/search", [:])
            #expect(noIndex == .notFound)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func authentication() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            // Search key: search and get objects, nothing else.
            #expect(try await client.call(.post, "/1/indexes/products/query", ["query": "phone"], key: TestServer.searchKey).0 == .ok)
            #expect(try await client.call(.get, "/1/indexes/products/1", key: TestServer.searchKey).0 == .ok)
            for (method, uri) in [(HTTPRequest.Method.post, "/1/indexes/products/browse"), (.get, "/1/indexes/products/settings"),
                                  (.put, "/1/indexes/products/1"), (.get, "/1/indexes")] {
                let (status, answer) = try await client.call(method, uri, [:], key: TestServer.searchKey)
                #expect(status == .forbidden)
                #expect(answer == ["message": "Method not allowed with this API key", "status": 403])
            }
            // Wrong key, wrong application.
            let (wrong, message) = try await client.call(.post, "/1/indexes/products/query", [:], key: "nope")
            #expect(wrong == .forbidden && message["message"] == "Invalid Application-ID or API key")
            let wrongApp = try await client.execute(uri: "/1/indexes/products/query", method: .post,
                                                    headers: TestServer.headers(appID: "OTHER"), body: ByteBuffer(string: "{}")) { $0.status }
            #expect(wrongApp == .forbidden)
            // Credentials as query parameters (the browser lite client).
            let inQuery = try await client.execute(
                uri: "/1/indexes/products/query?x-algolia-application-id=TESTAPP&x-algolia-api-key=search-key", method: .post,
                headers: [.contentType: "text/plain"], body: ByteBuffer(string: #"{"query":"case"}"#)) { $0.json }
            #expect(inQuery.objectIDs == ["3"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func securedAPIKeys() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let filtered = TestServer.securedKey("filters=brand%3AAcme&restrictIndices=prod*")
            let (_, phones) = try await client.call(.post, "/1/indexes/products/query", ["query": "phone"], key: filtered)
            #expect(phones.objectIDs == ["1"])
            // ANDed with the request's filters.
            let (_, cheap) = try await client.call(.post, "/1/indexes/products/query", ["filters": "price < 8"], key: filtered)
            #expect(cheap.objectIDs == ["3"])
            let (grouped, nested) = try await client.call(.post, "/1/indexes/products/query",
                                                          ["filters": "price > 1 AND (brand:Acme OR brand:Zeta)"], key: filtered)
            #expect(grouped == .ok && nested.objectIDs.sorted() == ["1", "3"])
            let (_, multi) = try await client.call(.post, "/1/indexes/*/queries", ["requests": [["indexName": "products"]]], key: filtered)
            #expect(multi["results"]?[0]?["nbHits"] == 2)
            // restrictIndices.
            _ = try test.engine.index("other")
            let (other, message) = try await client.call(.post, "/1/indexes/other/query", [:], key: filtered)
            #expect(other == .forbidden && message["message"] == "Index not allowed with this API key")
            // A secured key has the search ACL only.
            #expect(try await client.call(.put, "/1/indexes/products/1", ["a": 1], key: filtered).0 == .forbidden)
            // Expired.
            let expired = TestServer.securedKey("validUntil=\(Int(Date().timeIntervalSince1970) - 10)")
            let (expiredStatus, expiredMessage) = try await client.call(.post, "/1/indexes/products/query", [:], key: expired)
            #expect(expiredStatus == .forbidden && expiredMessage["message"] == "Invalid Application-ID or API key")
            let valid = TestServer.securedKey("validUntil=\(Int(Date().timeIntervalSince1970) + 600)")
            #expect(try await client.call(.post, "/1/indexes/products/query", [:], key: valid).0 == .ok)
            // Signed with another key.
            let forged = TestServer.securedKey(parent: "guess", "filters=brand%3AAcme")
            #expect(try await client.call(.post, "/1/indexes/products/query", [:], key: forged).0 == .forbidden)
            // restrictSources: the in-process channel has no peer address, so a source-restricted key is refused.
            let sourced = TestServer.securedKey("restrictSources=10.0.0.0%2F8")
            #expect(try await client.call(.post, "/1/indexes/products/query", [:], key: sourced).0 == .forbidden)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test(arguments: [
        ("/2/indexes", HTTPRequest.Method.get, HTTPResponse.Status.notFound),
        // A GET on /{index}/{name} reads the object of that objectID, as with Algolia.
        ("/1/indexes/products/query", .get, .notFound),
        ("/1/indexes/products/settings", .post, .methodNotAllowed),
        ("/1/indexes/*/queries", .get, .methodNotAllowed),
        ("/1/indexes/products/a/b/c/d", .get, .notFound),
    ])
    func unknownPathsAndMethods(uri: String, method: HTTPRequest.Method, expected: HTTPResponse.Status) async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let (status, answer) = try await client.call(method, uri)
            #expect(status == expected)
            if status != .ok { #expect(answer["status"]?.intValue == Int(expected.code) && answer["message"]?.stringValue != nil) }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func malformedAndOversizedBodies() async throws {
        let test = try TestServer(maxBodySize: 1000)
        try await test.server.application().test(.router) { client in
            for body in [#"{"query": "#, "[1, 2", "\u{1}\u{2}garbage", #"{"hitsPerPage": "many"}"#] {
                let (status, answer) = try await client.execute(uri: "/1/indexes/products/query", method: .post, headers: TestServer.headers(),
                                                                body: ByteBuffer(string: body)) { ($0.status, $0.json) }
                #expect(status == .badRequest, "\(body)")
                #expect(answer["status"] == 400 && answer["message"]?.stringValue?.isEmpty == false)
            }
            // Nesting that a recursive parser could not survive is refused, not followed.
            let deepFilter = String(repeating: "(", count: 400) + "brand:Acme" + String(repeating: ")", count: 400)
            let (deep, deepAnswer) = try await client.call(.post, "/1/indexes/products/query", ["filters": .string(deepFilter)])
            #expect(deep == .badRequest && deepAnswer["message"]?.stringValue?.contains("nested deeper") == true)
            let deepJSON = String(repeating: "[", count: 450) + String(repeating: "]", count: 450)
            let (deepBody, _) = try await client.execute(uri: "/1/indexes/products/query", method: .post, headers: TestServer.headers(),
                                                         body: ByteBuffer(string: deepJSON)) { ($0.status, $0.json) }
            #expect(deepBody == .badRequest)
            let (wrongShape, _) = try await client.call(.post, "/1/indexes/products/batch", ["requests": "no"])
            #expect(wrongShape == .badRequest)
            let (huge, answer) = try await client.call(.post, "/1/indexes/products", ["name": .string(String(repeating: "x", count: 5000))])
            #expect(huge == .contentTooLarge && answer["status"] == 413)
            // Still serving.
            #expect(try await client.call(.post, "/1/indexes/products/query", [:]).0 == .ok)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func anOpenServerAcceptsAnyCredentialsButOnlyOnLoopback() async throws {
        let open = try TestServer(keys: false)
        try await open.server.application().test(.router) { client in
            let (status, _) = try await client.call(.delete, "/1/indexes/products/1", key: "anything")
            #expect(status == .ok)
        }
        let exposed = AlgoliaServer(engine: open.engine, configuration: ServerConfiguration(host: "0.0.0.0"))
        #expect(throws: ServerStartError.self) { try exposed.application() }
        let guarded = AlgoliaServer(engine: open.engine, configuration: ServerConfiguration(host: "0.0.0.0", adminKey: "k"))
        _ = try guarded.application()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func aPrepareHookMakesAMissingIndexTheFirstTimeARequestNamesIt() async throws {
        let folder = TemporaryDirectory()
        let engine = try SearchEngine(directory: folder.url)
        let server = AlgoliaServer(engine: engine, prepareIndex: { name in
            guard name == "demo" else { return }
            try engine.index(name).saveObjects([["objectID": "d", "name": "demo record"]])
        })
        try await server.application().test(.router) { client in
            let (_, answer) = try await client.call(.post, "/1/indexes/demo/query", ["query": "demo"])
            #expect(answer.objectIDs == ["d"])
            #expect(try await client.call(.post, "/1/indexes/other/query", [:]).0 == .notFound)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func parallelSearchesDuringWritesSeeWholeStates() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for round in 0..<20 {
                        // Every write replaces the group of 10 "bulk" records at once.
                        let records: [JSONValue] = (0..<10).map { ["objectID": .string("bulk\($0)"), "name": "bulk item", "round": .int(Int64(round))] }
                        let (status, _) = try await client.call(.post, "/1/indexes/products/batch",
                                                                ["requests": .array(records.map { ["action": "updateObject", "body": $0] })])
                        #expect(status == .ok)
                    }
                }
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<20 {
                            let (status, answer) = try await client.call(.post, "/1/indexes/products/query",
                                                                         ["query": "bulk", "hitsPerPage": 100, "facets": ["round"]])
                            #expect(status == .ok)
                            let hits = answer["hits"]?.arrayValue ?? []
                            // Never half a batch: no hits yet, or all 10 from a single round.
                            #expect(hits.isEmpty || hits.count == 10)
                            #expect(Set(hits.compactMap { $0["round"] }).count <= 1)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func writesRunSideBySideAndNoneIsLostToAMoveOrADelete() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let saved = try await withThrowingTaskGroup(of: [String].self) { group in
                // Saves to an index that is moved away (and made anew by the next save) again and again.
                for writer in 0..<3 {
                    group.addTask {
                        var saved: [String] = []
                        for i in 0..<25 {
                            let id = "w\(writer)-\(i)"
                            let (status, _) = try await client.call(.put, "/1/indexes/source/\(id)", ["name": "saved"])
                            if status == .ok { saved.append(id) }
                        }
                        return saved
                    }
                }
                group.addTask {
                    for round in 0..<10 {
                        _ = try await client.call(.post, "/1/indexes/source/operation", ["operation": "move", "destination": .string("moved-\(round)")])
                        // A deletion beside the saves: deleting a record never makes its index again.
                        _ = try await client.call(.delete, "/1/indexes/gone/x")
                    }
                    return []
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(saved.count == 75)
            var found = Set<String>()
            let (_, list) = try await client.call(.get, "/1/indexes")
            let names = (list["items"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
            #expect(!names.contains("gone"))
            for name in names {
                let (_, page) = try await client.call(.post, "/1/indexes/\(name)/browse", ["hitsPerPage": 1000])
                for hit in page["hits"]?.arrayValue ?? [] { if let id = hit["objectID"]?.stringValue { found.insert(id) } }
            }
            #expect(Set(saved).subtracting(found).isEmpty)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func searchesAreCountedForTheUserTheHeaderNames() async throws {
        // The clock stands still: however long a loaded machine takes between two requests, each
        // user's "phone" comes within the aggregation window of their "pho", as a typist's would.
        let typedAt = Date()
        let test = try TestServer(analytics: SearchAnalytics.Configuration(now: { typedAt }))
        try await test.server.application().test(.router) { client in
            // Two users typing the same query in turns: one search each, not one burst of both.
            for (query, size) in [("pho", 1), ("pho", 2), ("phone", 1), ("phone", 2)] {
                let user: HTTPFields = [HTTPField.Name("X-Algolia-UserToken")!: "user-\(size)"]
                // A body of each user's own: no answer is sent from the response cache.
                let (status, _) = try await client.call(.post, "/1/indexes/products/query", ["query": .string(query), "hitsPerPage": .int(Int64(size))],
                                                        headers: user)
                #expect(status == .ok)
            }
        }
        let analytics = try #require(test.engine.analytics)
        try analytics.flush(settlingEverything: true)
        let searches = try analytics.topSearches(AnalyticsRequest(indexName: "products")).searches
        #expect(searches.map(\.search) == ["phone"] && searches.first?.count == 2)
    }
}
