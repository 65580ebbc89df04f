import Foundation
import OfflineSearch
import OfflineSearchRemote
import OfflineSearchServer
import SearchAPI
import Testing

/// The remote client against `offline-search serve` on loopback answers as the engine
/// in-process does, request for request.
@Suite struct RemoteClientTests {
    /// A named request of the table.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let queries: [MultiSearchQuery]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty query", queries: [.hits(indexName: "products", parameters: .query(""))]),
        Case(name: "a word with a typo", queries: [.hits(indexName: "products", parameters: .query("phnoe"))]),
        Case(name: "a prefix, a page and custom highlight tags", queries: [.hits(indexName: "products", parameters: .query("cha") {
            $0.page = 1
            $0.hitsPerPage = 3
            $0.highlightPreTag = "<b>"
            $0.highlightPostTag = "</b>"
        })]),
        Case(name: "facets, stats and filters", queries: [.hits(indexName: "products", parameters: .query("") {
            $0.facets = ["brand", "category", "price"]
            $0.filters = "price >= 20 AND (brand:Acme OR brand:Zeta)"
        })]),
        Case(name: "a synonym", queries: [.hits(indexName: "products", parameters: .query("mobile"))]),
        Case(name: "multi-search with disjunctive facets and a facet query", queries: [
            .hits(indexName: "products", parameters: .query("red") {
                $0.facets = ["brand", "category"]
                $0.facetFilters = .list([.anyOf(["brand:Acme", "brand:Nova"])])
            }),
            .hits(indexName: "products", parameters: .query("red") {
                $0.facets = ["brand"]
                $0.hitsPerPage = 0
            }),
            .facetValues(indexName: "products", facet: "brand", parameters: .query("") { $0.facetQuery = "ac" }),
        ]),
        Case(name: "attributes to retrieve and snippets", queries: [.hits(indexName: "products", parameters: .query("black") {
            $0.attributesToRetrieve = ["name", "price"]
            $0.attributesToSnippet = ["description:3"]
        })]),
    ]

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(arguments: cases)
    func multiSearchAnswersAsTheEngine(_ request: Case) async throws {
        let served = try await ServedIndex()
        let (engine, server, client) = (served.engine, served.server, served.client)
        let remote = try await client.multiSearch(request.queries, strategy: .none)
        let local = try await engine.multiSearch(request.queries, strategy: .none)
        #expect(remote.count == local.count)
        for (remoteResult, localResult) in zip(remote, local) {
            #expect(remoteResult.comparable == localResult.comparable)
        }
        if case .hits(let indexName, let parameters) = request.queries[0] {
            let single = try await client.searchSingleIndex(indexName: indexName, searchParams: parameters)
            #expect(single.comparable == local[0].comparable)
            #expect(single.nbHits > 0 || parameters.query == "phnoe")
        }
        await server.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func facetValuesBrowseSettingsAndSynonymsAnswerAsTheEngine() async throws {
        let served = try await ServedIndex(products: 45)
        let (engine, server, client) = (served.engine, served.server, served.client)

        var facetParameters = SearchParameters(query: "phone")
        facetParameters.facetQuery = "z"
        let remoteFacets = try await client.searchForFacetValues(indexName: "products", facet: "brand", parameters: facetParameters)
        let localFacets = try await engine.searchForFacetValues(indexName: "products", facet: "brand", parameters: facetParameters)
        #expect(remoteFacets.comparable == localFacets.comparable)
        #expect(remoteFacets.facetHits.map(\.value) == ["Zeta"])

        // Browse: every page the same, every record once, across several pages.
        var browse = SearchParameters()
        browse.hitsPerPage = 10
        browse.filters = "category:devices"
        var remotePages: [BrowseResponse] = []
        try await client.browseObjects(indexName: "products", parameters: browse) { page in remotePages.append(page) }
        var localPages: [BrowseResponse] = []
        try await engine.browseObjects(indexName: "products", parameters: browse) { page in localPages.append(page) }
        #expect(remotePages.count == 2)
        #expect(remotePages.map(\.response.comparable) == localPages.map(\.response.comparable))
        #expect(remotePages.map(\.cursor) == localPages.map(\.cursor))
        let objectIDs = remotePages.flatMap(\.hits).compactMap { $0["objectID"]?.stringValue }
        #expect(objectIDs.count == 18 && Set(objectIDs).count == 18)

        #expect(try await client.getSettings(indexName: "products") == (try await engine.getSettings(indexName: "products")))
        #expect(try await client.browseSynonyms(indexName: "products") == (try await engine.browseSynonyms(indexName: "products")))
        await server.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func writesThroughTheClientReachTheEngine() async throws {
        let served = try await ServedIndex(products: 5)
        let (engine, server, client) = (served.engine, served.server, served.client)

        let saved = try await client.saveObjects(indexName: "shop", objects: [["objectID": "a", "name": "first", "stock": 3],
                                                                               ["objectID": "b", "name": "second"]])
        #expect(saved.objectIDs == ["a", "b"])
        try await client.waitForTask(indexName: "shop", taskID: saved.taskID)
        let partial = try await client.partialUpdateObject(indexName: "shop", objectID: "a",
                                                           attributesToUpdate: ["stock": ["_operation": "Decrement", "value": 1]])
        #expect(partial.objectIDs == ["a"])
        #expect(try await client.getObject(indexName: "shop", objectID: "a")["stock"] == 2)
        _ = try await client.setSettings(indexName: "shop", indexSettings: ["searchableAttributes": ["name"]])
        _ = try await client.saveSynonyms(indexName: "shop", synonymHit: [["objectID": "s", "type": "synonym", "synonyms": ["first", "primary"]]])
        #expect(try await client.searchSingleIndex(indexName: "shop", searchParams: SearchParameters(query: "primary")).nbHits == 1)
        #expect(try await client.getSynonym(indexName: "shop", objectID: "s")["synonyms"] == ["first", "primary"])
        _ = try await client.deleteSynonym(indexName: "shop", objectID: "s")
        #expect(try await client.searchSingleIndex(indexName: "shop", searchParams: SearchParameters(query: "primary")).nbHits == 0)
        _ = try await client.saveSynonyms(indexName: "shop", synonymHit: [["objectID": "t", "type": "synonym", "synonyms": ["a", "b"]]])
        _ = try await client.saveSynonym(indexName: "shop", objectID: "u", synonymHit: ["type": "synonym", "synonyms": ["c", "d"]])
        #expect(try await client.browseSynonyms(indexName: "shop").compactMap { $0["objectID"]?.stringValue } == ["t", "u"])
        _ = try await client.clearSynonyms(indexName: "shop")
        #expect(try await client.browseSynonyms(indexName: "shop").isEmpty)

        _ = try await client.deleteObjects(indexName: "shop", objectIDs: ["b"])
        #expect(try await client.getObjects(requests: [("shop", "a"), ("shop", "b")]).map { $0?["objectID"] } == ["a", nil])
        _ = try await client.operationIndex(indexName: "shop", operationIndexParams: OperationIndexParams(operation: .copy, destination: "shop_copy"))
        #expect(try engine.existingIndex("shop_copy").recordCount == 1)
        #expect(try await client.listIndices().items.map(\.name) == ["products", "shop", "shop_copy"])
        _ = try await client.clearObjects(indexName: "shop_copy")
        #expect(try engine.existingIndex("shop_copy").recordCount == 0)
        _ = try await client.deleteIndex(indexName: "shop_copy")
        #expect(!engine.exists("shop_copy"))

        // Single-record endpoints, delete by filter, and a batch over two indices.
        let created = try await client.saveObject(indexName: "shop", body: ["name": "generated", "kind": "extra"])
        #expect(created.objectIDs.count == 1)
        _ = try await client.addOrUpdateObject(indexName: "shop", objectID: "c", body: ["name": "third", "kind": "extra"])
        _ = try await client.deleteObject(indexName: "shop", objectID: "c")
        #expect(try engine.existingIndex("shop").recordCount == 2)
        _ = try await client.setSettings(indexName: "shop", indexSettings: ["attributesForFaceting": ["kind"]])
        _ = try await client.deleteBy(indexName: "shop", deleteByParams: .query("") { $0.filters = "kind:extra" })
        #expect(try engine.existingIndex("shop").recordCount == 1)
        let multiple = try await client.multipleBatch(requests: [("shop", .addObject(["objectID": "m1"])), ("other", .addObject(["objectID": "m2"]))])
        #expect(Set(multiple.taskID.keys) == ["shop", "other"] && multiple.objectIDs == ["m1", "m2"])
        _ = try await client.deleteIndex(indexName: "other")

        // 4xx answers are Algolia's errors, not retried.
        await #expect(throws: SearchError(.indexNotFound, "Index missing does not exist")) {
            try await client.searchSingleIndex(indexName: "missing")
        }
        await #expect(throws: SearchError(.objectNotFound, "ObjectID does not exist")) {
            try await client.getObject(indexName: "shop", objectID: "zzz")
        }
        let searchOnly = Fixture.client(port: await server.port, key: Fixture.searchKey)
        do {
            _ = try await searchOnly.getSettings(indexName: "products")
            Issue.record("the search-only key read settings")
        } catch {
            #expect(error.kind == .forbidden && error.status == 403)
        }
        await server.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aSecuredApiKeyIsAcceptedWithItsRestrictions() async throws {
        let served = try await ServedIndex(products: 20)
        let (server, port) = (served.server, await served.server.port)
        let admin = Fixture.client(port: port)
        let secured = try admin.generateSecuredApiKey(parentApiKey: Fixture.searchKey,
                                                      restrictions: SecuredApiKeyRestrictions(filters: "brand:Acme", restrictIndices: ["prod*"]))
        let restricted = Fixture.client(port: port, key: secured)
        let response = try await restricted.searchSingleIndex(indexName: "products")
        #expect(response.nbHits > 0)
        #expect(response.hits.allSatisfy { $0["brand"] == "Acme" })
        let expired = try admin.generateSecuredApiKey(parentApiKey: Fixture.searchKey,
                                                      restrictions: SecuredApiKeyRestrictions(validUntil: 1000))
        await #expect(throws: SearchError.self) { try await Fixture.client(port: port, key: expired).searchSingleIndex(indexName: "products") }
        await server.stop()
    }

    @Test func aSecuredApiKeyIsComputedAsAlgoliaComputesIt() throws {
        // The restrictions as a sorted query string; HMAC-SHA256 of it keyed with the parent, in hex, then base64.
        let restrictions = SecuredApiKeyRestrictions(filters: "user:42", validUntil: 2_000_000_000, restrictIndices: ["a", "b"])
        #expect(restrictions.queryString == "filters=user%3A42&restrictIndices=a%2Cb&validUntil=2000000000")
        let client = try SearchClient(appID: "APP", apiKey: "key")
        let key = try client.generateSecuredApiKey(parentApiKey: "parent", restrictions: restrictions)
        // Python: base64(hmac.new(b"parent", query, sha256).hexdigest() + query)
        #expect(key == "ZGJlNGM1ZDZhNTgxY2MwNzdiNzMwNGI4NThhNTcwNTAyMTgxOGY5MjMyMjQzOTgyM2ExZjA3Y2NmYjM4NGNiNGZpbHRlcnM9dXNlciUzQTQyJnJlc3RyaWN0SW5kaWNlcz1hJTJDYiZ2YWxpZFVudGlsPTIwMDAwMDAwMDA=")
    }
}

/// The remote client as an `InsightsService`: events reach the server's analytics, and a bad
/// one is Algolia's 400.
@Suite struct RemoteInsightsTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func eventsSentByTheClientAreCountedByTheServersAnalytics() async throws {
        let served = try await ServedIndex(products: 5)
        let (engine, server, client) = (served.engine, served.server, served.client)
        var parameters = SearchParameters(query: "phone")
        parameters.clickAnalytics = true
        parameters.other["userToken"] = "user-1"
        let response = try await client.searchSingleIndex(indexName: "products", searchParams: parameters)
        let queryID = try #require(response.queryID)
        let objectID = try #require(response.hits.first?["objectID"]?.stringValue)
        try await client.sendEvents([.clickedObjectIDsAfterSearch(eventName: "Product Clicked", indexName: "products", userToken: "user-1",
                                                                  queryID: queryID, objectIDs: [objectID], positions: [1])])
        let report = try #require(engine.analytics).topSearches(AnalyticsRequest(indexName: "products", clickAnalytics: true))
        #expect(report.searches.first { $0.search == "phone" }?.clickAnalytics?.clickCount == 1)
        await #expect(throws: SearchError.self) {
            try await client.sendEvents([InsightsEvent(kind: .click, eventName: "", indexName: "products", userToken: "user-1",
                                                       objectIDs: ["1"])])
        }
        await server.stop()
    }
}
