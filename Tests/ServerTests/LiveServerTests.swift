import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OfflineSearch
@testable import OfflineSearchServer
import SearchAPI
import Testing

/// A live server on port 0, where the socket matters: raw browser-shaped requests, CORS,
/// the caller's address, and a restart.
@Suite struct LiveServerTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aBrowserShapedMultiSearchAndACORSPreflight() async throws {
        let test = try TestServer()
        try await test.server.application().test(.live) { client in
            let port = try #require(client.port)
            // InstantSearch.js: JSON sent as form-encoded (no preflight), credentials in the URL,
            // `params` strings URL-encoded with array values as JSON, custom highlight tags.
            let params = "query=pho&hitsPerPage=5&highlightPreTag=__ais-highlight__&highlightPostTag=__%2Fais-highlight__"
                + "&facets=%5B%22brand%22%5D&facetFilters=%5B%5B%22brand%3AAcme%22%2C%22brand%3AZeta%22%5D%5D&tagFilters="
            let body = #"{"requests":[{"indexName":"products","params":"\#(params)"},"#
                + #"{"indexName":"products","params":"query=pho&hitsPerPage=0&facets=brand&analytics=false"}]}"#
            let request = "POST /1/indexes/*/queries?x-algolia-agent=Algolia%20for%20JavaScript&x-algolia-api-key=search-key"
                + "&x-algolia-application-id=TESTAPP HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://localhost:3000\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
            let answer = try RawHTTP.send(request, port: port)
            #expect(answer.status == 200)
            #expect(answer.headers["access-control-allow-origin"] == "http://localhost:3000")
            let json = try JSONValue(parsingUTF8: Array(answer.body.utf8))
            let first = try #require(json["results"]?[0])
            #expect(first.objectIDs.sorted() == ["1", "2"])
            #expect(first["hits"]?[0]?["_highlightResult"]?["name"]?["value"]?.stringValue?.contains("__ais-highlight__pho__/ais-highlight__ne") == true)
            #expect(first["facets"]?["brand"] == ["Acme": 1, "Zeta": 1])
            #expect(json["results"]?[1]?["hits"] == [])

            let preflight = try RawHTTP.send(
                "OPTIONS /1/indexes/products/query HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://shop.example\r\n"
                    + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: x-algolia-api-key, content-type\r\n"
                    + "Connection: close\r\n\r\n", port: port)
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "https://shop.example")
            #expect(preflight.headers["access-control-allow-headers"] == "x-algolia-api-key, content-type")
            #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func restrictSourcesChecksThePeerAddress() async throws {
        let test = try TestServer()
        try await test.server.application().test(.live) { client in
            let allowed = TestServer.securedKey("restrictSources=127.0.0.0%2F8")
            let denied = TestServer.securedKey("restrictSources=10.0.0.0%2F8%3B192.168.0.0%2F16")
            let ok = try await client.call(.post, "/1/indexes/products/query", [:], key: allowed)
            #expect(ok.0 == .ok)
            let refused = try await client.call(.post, "/1/indexes/products/query", [:], key: denied)
            #expect(refused.0 == .forbidden && refused.1["message"] == "Invalid Application-ID or API key")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)

    @Test func writesSurviveARestart() async throws {
        let folder = TemporaryDirectory()
        let configuration = ServerConfiguration(port: 0, adminKey: TestServer.adminKey)
        do {
            let server = AlgoliaServer(engine: try SearchEngine(directory: folder.url), configuration: configuration)
            try await server.application().test(.live) { client in
                try await client.call(.put, "/1/indexes/kept/settings", ["searchableAttributes": ["name"]])
                try await client.call(.post, "/1/indexes/kept/batch", ["requests": [
                    ["action": "addObject", "body": ["objectID": "a", "name": "first"]],
                    ["action": "addObject", "body": ["objectID": "b", "name": "second"]],
                ]])
                try await client.call(.post, "/1/indexes/kept/b/partial", ["count": ["_operation": "Increment", "value": 3]])
            }
        }
        // The server has stopped; a new engine on the same folder has every write.
        let server = AlgoliaServer(engine: try SearchEngine(directory: folder.url), configuration: configuration)
        try await server.application().test(.live) { client in
            let (_, answer) = try await client.call(.post, "/1/indexes/kept/query", ["query": "second"])
            #expect(answer.objectIDs == ["b"])
            #expect(answer["hits"]?[0]?["count"] == 3)
            let (_, settings) = try await client.call(.get, "/1/indexes/kept/settings")
            #expect(settings["searchableAttributes"] == ["name"])
        }
    }
}
