import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OfflineSearch
@testable import OfflineSearchServer
import SearchAPI
import Testing

/// The server's response cache: repeated searches are answered from memory, and never once a
/// write (by this server, another engine on the folder, a replica's primary) has changed what
/// they read.
@Suite struct ResponseCacheTests {
    /// The test server's responder (so the test can read its cache's counts), as an application.
    @available(macOS 14, iOS 17, tvOS 17, *)
    private static func application(_ test: TestServer) -> (Application<RouterResponder<ServerRequestContext>>, ResponseCache) {
        let cache = ResponseCache(capacity: test.server.configuration.responseCacheSize)
        return (Application(router: test.server.router(cache: cache)), cache)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aRepeatedSearchIsAnsweredFromMemoryUntilAWriteChangesTheIndex() async throws {
        let test = try TestServer()
        let (app, cache) = ResponseCacheTests.application(test)
        try await app.test(.router) { client in
            let search: JSONValue = ["query": "phone", "facets": ["brand"]]
            let (_, first) = try await client.call(.post, "/1/indexes/products/query", search)
            let (_, second) = try await client.call(.post, "/1/indexes/products/query", search)
            #expect(first == second && first["nbHits"] == 2)
            #expect(cache.counts == .init(hits: 1, misses: 1))

            // A record written through the server.
            try await client.call(.put, "/1/indexes/products/4", ["name": "grey phone", "brand": "Zeta", "price": 30])
            let (_, afterSave) = try await client.call(.post, "/1/indexes/products/query", search)
            #expect(afterSave["nbHits"] == 3 && afterSave["facets"]?["brand"]?["Zeta"] == 2)
            #expect(cache.counts.hits == 1)

            // Settings: the custom ranking reorders the same hits.
            let (_, before) = try await client.call(.post, "/1/indexes/products/query", search)
            #expect(cache.counts.hits == 2)
            try await client.call(.put, "/1/indexes/products/settings", ["customRanking": ["desc(price)"]])
            let (_, ranked) = try await client.call(.post, "/1/indexes/products/query", search)
            #expect(ranked.objectIDs == ["4", "2", "1"] && ranked.objectIDs != before.objectIDs)

            // Synonyms.
            let (_, mobile) = try await client.call(.post, "/1/indexes/products/query", ["query": "mobile"])
            #expect(mobile["nbHits"] == 0)
            try await client.call(.put, "/1/indexes/products/synonyms/s1",
                                  ["objectID": "s1", "type": "synonym", "synonyms": ["phone", "mobile"]])
            let (_, synonym) = try await client.call(.post, "/1/indexes/products/query", ["query": "mobile"])
            #expect(synonym["nbHits"] == 3)

            // A write by another engine on the same folder (another process would do the same).
            let other = try SearchEngine(directory: test.folder.url)
            try other.index("products").deleteObjects(["4"])
            let (_, afterOther) = try await client.call(.post, "/1/indexes/products/query", search)
            #expect(afterOther["nbHits"] == 2)

            // The index deleted, then made again under the same name.
            let (_, kept) = try await client.call(.post, "/1/indexes/products/query", search)
            #expect(kept == afterOther)
            #expect(try await client.call(.delete, "/1/indexes/products").0 == .ok)
            #expect(try await client.call(.post, "/1/indexes/products/query", search).0 == .notFound)
            try await client.call(.put, "/1/indexes/products/9", ["name": "new phone"])
            let (_, remade) = try await client.call(.post, "/1/indexes/products/query", search)
            #expect(remade.objectIDs == ["9"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func multiSearchesAndFacetValueSearchesAreKeptPerIndexTheyRead() async throws {
        let test = try TestServer()
        try test.engine.index("other").saveObjects([["objectID": "o", "name": "other phone"]])
        let (app, cache) = ResponseCacheTests.application(test)
        try await app.test(.router) { client in
            let multi: JSONValue = ["requests": [["indexName": "products", "query": "phone"], ["indexName": "other", "query": "phone"]]]
            let (_, first) = try await client.call(.post, "/1/indexes/*/queries", multi)
            let (_, again) = try await client.call(.post, "/1/indexes/*/queries", multi)
            #expect(first == again && cache.counts.hits == 1)
            // A write to either index the multi-search reads is seen.
            try await client.call(.put, "/1/indexes/other/p", ["name": "second phone"])
            let (_, changed) = try await client.call(.post, "/1/indexes/*/queries", multi)
            #expect(changed["results"]?[0]?["nbHits"] == 2 && changed["results"]?[1]?["nbHits"] == 2)
            #expect(cache.counts.hits == 1)

            let facet: JSONValue = ["facetQuery": "ac"]
            let (_, values) = try await client.call(.post, "/1/indexes/products/facets/brand/query", facet)
            #expect(values["facetHits"]?[0]?["count"] == 2)
            try await client.call(.put, "/1/indexes/products/5", ["name": "acme case", "brand": "Acme", "price": 1])
            let (_, counted) = try await client.call(.post, "/1/indexes/products/facets/brand/query", facet)
            #expect(counted["facetHits"]?[0]?["count"] == 3)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func eachCallerHasItsOwnAnswers() async throws {
        let test = try TestServer()
        let (app, cache) = ResponseCacheTests.application(test)
        try await app.test(.router) { client in
            let search: JSONValue = ["query": "phone"]
            let acme = TestServer.securedKey("filters=brand%3AAcme")
            let zeta = TestServer.securedKey("filters=brand%3AZeta")
            for _ in 0..<2 {
                let admin = try await client.call(.post, "/1/indexes/products/query", search).1
                let searchOnly = try await client.call(.post, "/1/indexes/products/query", search, key: TestServer.searchKey).1
                let acmeOnly = try await client.call(.post, "/1/indexes/products/query", search, key: acme).1
                let zetaOnly = try await client.call(.post, "/1/indexes/products/query", search, key: zeta).1
                #expect(admin.objectIDs.sorted() == ["1", "2"] && searchOnly.objectIDs.sorted() == ["1", "2"])
                #expect(acmeOnly.objectIDs == ["1"] && zetaOnly.objectIDs == ["2"])
            }
            #expect(cache.counts == .init(hits: 4, misses: 4))
            // A kept answer is no way past the credentials: a wrong key is still refused.
            #expect(try await client.call(.post, "/1/indexes/products/query", search, key: "wrong").0 == .forbidden)
            let forged = TestServer.securedKey(parent: "guess", "filters=brand%3AAcme")
            #expect(try await client.call(.post, "/1/indexes/products/query", search, key: forged).0 == .forbidden)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aSecuredKeyThatExpiresIsRefusedEvenForAKeptAnswer() async throws {
        let test = try TestServer()
        let start = Date()
        let clock = TestTime(start)
        let cache = ResponseCache(capacity: test.server.configuration.responseCacheSize)
        try await Application(router: test.server.router(cache: cache, now: { clock.now })).test(.router) { client in
            let soon = TestServer.securedKey("validUntil=\(Int(start.timeIntervalSince1970) + 60)")
            let first = try await client.call(.post, "/1/indexes/products/query", [:], key: soon).0
            let kept = try await client.call(.post, "/1/indexes/products/query", [:], key: soon).0
            #expect(first == .ok && kept == .ok && cache.counts.hits == 1)
            clock.now = start.addingTimeInterval(120)
            let expired = try await client.call(.post, "/1/indexes/products/query", [:], key: soon).0
            #expect(expired == .forbidden)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func answersWithAQueryIDAndFailuresAreNotKept() async throws {
        let test = try TestServer()
        let (app, cache) = ResponseCacheTests.application(test)
        try await app.test(.router) { client in
            let analytics: JSONValue = ["query": "phone", "clickAnalytics": true]
            let (_, first) = try await client.call(.post, "/1/indexes/products/query", analytics)
            let (_, second) = try await client.call(.post, "/1/indexes/products/query", analytics)
            #expect(first["queryID"] != nil && first["queryID"] != second["queryID"])
            let multi: JSONValue = ["requests": [["indexName": "products", "query": "phone", "clickAnalytics": true]]]
            let (_, one) = try await client.call(.post, "/1/indexes/*/queries", multi)
            let (_, two) = try await client.call(.post, "/1/indexes/*/queries", multi)
            #expect(one["results"]?[0]?["queryID"] != two["results"]?[0]?["queryID"])
            let bad: JSONValue = ["query": "phone", "hitsPerPage": "many"]
            #expect(try await client.call(.post, "/1/indexes/products/query", bad).0 == .badRequest)
            #expect(try await client.call(.post, "/1/indexes/products/query", bad).0 == .badRequest)
            #expect(cache.counts.hits == 0 && cache.count == 0)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aReplicaSeesItsPrimarysWrites() async throws {
        let test = try TestServer()
        let (app, _) = ResponseCacheTests.application(test)
        try await app.test(.router) { client in
            try await client.call(.put, "/1/indexes/products/settings", ["replicas": ["products_price", "virtual(products_virtual)"]])
            try await client.call(.put, "/1/indexes/products_price/settings", ["ranking": ["asc(price)"]])
            try await client.call(.put, "/1/indexes/products_virtual/settings", ["customRanking": ["asc(price)"]])
            for replica in ["products_price", "products_virtual"] {
                let search: JSONValue = ["query": "phone"]
                let (_, first) = try await client.call(.post, "/1/indexes/\(replica)/query", search)
                #expect(first.objectIDs.suffix(2) == ["1", "2"])
                let (_, kept) = try await client.call(.post, "/1/indexes/\(replica)/query", search)
                #expect(kept == first)
                try await client.call(.put, "/1/indexes/products/c\(replica)", ["name": "cheap phone", "brand": "Acme", "price": 1])
                let (_, after) = try await client.call(.post, "/1/indexes/\(replica)/query", search)
                // The cheapest records first: the new one among them.
                #expect(after.objectIDs.prefix(2).contains("c\(replica)") && after.objectIDs.count == first.objectIDs.count + 1,
                        "\(replica): \(first.objectIDs) then \(after.objectIDs)")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func anIndexMadeAgainUnderTheSameNameAtTheSameGenerationIsAnotherIndex() async throws {
        let test = try TestServer()
        try test.engine.index("t").saveObjects([["objectID": "old", "name": "phone"]])
        let (app, cache) = ResponseCacheTests.application(test)
        try await app.test(.router) { client in
            let (_, first) = try await client.call(.post, "/1/indexes/t/query", ["query": "phone"])
            #expect(first.objectIDs == ["old"])
            // Deleted and made again with one write: the same generation, another index.
            try test.engine.deleteIndex("t")
            try test.engine.index("t").saveObjects([["objectID": "new", "name": "phone"]])
            let (_, again) = try await client.call(.post, "/1/indexes/t/query", ["query": "phone"])
            #expect(again.objectIDs == ["new"] && cache.counts.hits == 0)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aReplicaMadeVirtualByAnotherProcessIsSearchedAsOne() async throws {
        let test = try TestServer()
        try test.engine.index("products").setSettings(["replicas": ["r"]])
        try test.engine.index("r").setSettings(["customRanking": ["asc(price)"]])
        let (app, _) = ResponseCacheTests.application(test)
        try await app.test(.router) { client in
            let search: JSONValue = ["query": "phone"]
            let (_, standard) = try await client.call(.post, "/1/indexes/r/query", search)
            #expect(standard["appliedRelevancyStrictness"] == nil && standard["nbHits"] == 2)
            // Another process (an engine of its own on the folder) makes it a virtual replica:
            // a write to the primary's settings only.
            let other = try SearchEngine(directory: test.folder.url)
            try other.index("products").setSettings(["replicas": ["virtual(r)"]])
            let (_, virtual) = try await client.call(.post, "/1/indexes/r/query", search)
            #expect(virtual["appliedRelevancyStrictness"] == 100)
            try await client.call(.post, "/1/indexes/products/query", search)
            let (_, kept) = try await client.call(.post, "/1/indexes/r/query", search)
            #expect(kept["appliedRelevancyStrictness"] == 100)
        }
    }

    @Test func theCacheStaysWithinItsSize() throws {
        let folder = TemporaryDirectory()
        let engine = try SearchEngine(directory: folder.url)
        let index = try engine.index("small")
        try index.saveObjects([["objectID": "1", "name": "one"]])
        let version = try #require(try index.contentVersion())
        let cache = ResponseCache(capacity: 64 * 1024)
        let answer = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1000)
        for n in 0..<500 {
            let key = ResponseCache.Key(method: "POST", path: "/1/indexes/small/query", query: "", body: Array("\(n)".utf8), caller: "admin")
            cache.keep(answer, for: key, versions: [("small", version)])
            // Just kept, so the most recently used: never the one dropped.
            #expect(cache.answer(for: key, currentVersion: { _ in version }) == answer)
        }
        #expect(cache.count > 20 && cache.count < 64)
        // The least recently used went first.
        let oldest = ResponseCache.Key(method: "POST", path: "/1/indexes/small/query", query: "", body: Array("0".utf8), caller: "admin")
        #expect(cache.answer(for: oldest, currentVersion: { _ in version }) == nil)
        let kept = ResponseCache.Key(method: "POST", path: "/1/indexes/small/query", query: "", body: Array("\(500 - cache.count)".utf8), caller: "admin")
        #expect(cache.answer(for: kept, currentVersion: { _ in version }) == answer)
        // Too large for the cache (over an eighth of it): not kept.
        let large = ResponseCache.Key(method: "POST", path: "/", query: "", body: [1], caller: "admin")
        cache.keep(ByteBuffer(repeating: 0, count: 10_000), for: large, versions: [])
        #expect(cache.answer(for: large, currentVersion: { _ in version }) == nil)
        // A version that is no longer current: a miss, and the entry goes.
        let first = ResponseCache.Key(method: "POST", path: "/1/indexes/small/query", query: "", body: Array("499".utf8), caller: "admin")
        let count = cache.count
        try index.saveObjects([["objectID": "2", "name": "two"]])
        #expect(cache.answer(for: first, currentVersion: { _ in try? index.contentVersion() }) == nil)
        #expect(cache.count == count - 1)
    }
}

/// A time a test sets, read by the server's credential checks.
final class TestTime: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ value: Date) { self.value = value }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
