import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OfflineSearch
@testable import OfflineSearchServer
import SearchAPI
import Testing

/// The dashboard's page as the server sends it: where, with which headers, to whom. (What the
/// page does is driven in a real browser by `Tests/Browser`.)
@Suite struct DashboardTests {
    static let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/OfflineSearchServer/Dashboard/site")

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func thePageIsServedWithAPolicyThatAllowsNothingInlineOrElsewhere() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            for path in ["/", "/dashboard", "/dashboard/indexes/products", "/dashboard/compare"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    let policy = response.headers[.contentSecurityPolicy] ?? ""
                    #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe"))
                    #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                    #expect(String(buffer: response.body).contains("<html"))
                }
            }
            try await client.execute(uri: "/dashboard/config.json", method: .get) { response in
                #expect(response.json == ["appID": "TESTAPP", "keysRequired": true, "version": .string(SearchEngine.version)])
            }
            try await client.execute(uri: "/dashboard/assets/missing.js", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/dashboard", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
            }
            // The page needs no key; the API still does.
            try await client.execute(uri: "/1/indexes", method: .get) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func everyFileIsServedAndHoldsNothingThePolicyWouldBlock() async throws {
        let test = try TestServer(keys: false)
        try await test.server.application().test(.router) { client in
            try await client.execute(uri: "/dashboard/config.json", method: .get) { response in
                #expect(response.json["keysRequired"] == false && response.json["appID"] == "LOCAL")
            }
            for (name, asset) in DashboardAssets.files {
                let uri = name == "index.html" ? "/dashboard" : "/dashboard/assets/" + name  // the page is every route's
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(name)")
                    #expect(String(buffer: response.body) == asset.text)
                }
                let text = asset.text
                #expect(!text.contains("style=\""), "\(name): an inline style attribute")
                #expect(text.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(name): an inline event handler")
                #expect(!text.contains("eval(") && !text.contains("new Function"), "\(name)")
                #expect(!text.contains("http://") && !text.contains("https://") || name.hasSuffix(".md"), "\(name): another origin")
                if name.hasSuffix(".html") {
                    #expect(!text.contains("<style"), "\(name)")
                    #expect(text.range(of: #"<script(?![^>]*\bsrc=)"#, options: .regularExpression) == nil, "\(name): an inline script")
                }
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func noDashboardServesNone() async throws {
        let folder = TemporaryDirectory()
        let engine = try SearchEngine(directory: folder.url)
        let server = AlgoliaServer(engine: engine, configuration: ServerConfiguration(port: 0, dashboard: false))
        try await server.application().test(.router) { client in
            try await client.execute(uri: "/dashboard", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentSecurityPolicy] == nil)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func onlyTheBoundAddressGetsThePage() async throws {
        let test = try TestServer()
        try await test.server.application().test(.live) { client in
            let port = try #require(client.port)
            for (host, status) in [("127.0.0.1:\(port)", 200), ("localhost:\(port)", 200), ("evil.example", 421),
                                   ("evil.example:\(port)", 421)] {
                let answer = try await RawHTTP.sendAside("GET /dashboard HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n", port: port)
                #expect(answer.status == status, "\(host)")
            }
        }
        let everywhere = ServerConfiguration(host: "0.0.0.0", adminKey: "a")
        #expect(everywhere.isBoundHost("search.example:8108"))
        let lan = ServerConfiguration(host: "192.168.1.5", adminKey: "a")
        #expect(lan.isBoundHost("192.168.1.5:8108") && !lan.isBoundHost("localhost:8108"))
        #expect(ServerConfiguration().isBoundHost("[::1]:8108"))
        // Letters in either case; a port only after the name; a bracket closed.
        #expect(ServerConfiguration().isBoundHost("LocalHost:8108") && ServerConfiguration().isBoundHost("127.0.0.1"))
        #expect(!ServerConfiguration().isBoundHost("[::1") && !ServerConfiguration().isBoundHost("localhost.evil.example"))
        #expect(!ServerConfiguration().isBoundHost("localhost:8108:1") && !ServerConfiguration().isBoundHost("127.0.0.10"))
        let named = ServerConfiguration(host: "Search.Example", adminKey: "a")
        #expect(named.isBoundHost("search.example:443") && named.isBoundHost("[search.example]") && !named.isBoundHost("127.0.0.1"))
        #expect(ServerConfiguration(host: "::1").isBoundHost("[::1]:8108") && !ServerConfiguration(host: "::1").isBoundHost("evil.example"))
    }

    /// `DashboardAssets.swift` is what `make_assets.py` makes of `site/` now.
    @Test func theEmbeddedFilesAreTheSites() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.site.path).sorted()
            .filter { !$0.hasPrefix(".") }
            .filter { var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: Self.site.appendingPathComponent($0).path, isDirectory: &isDirectory)
                return !isDirectory.boolValue }
        var hash = SHA256()
        for name in files {
            hash.update(data: Data(name.utf8) + Data([0]))
            hash.update(data: try Data(contentsOf: Self.site.appendingPathComponent(name)) + Data([0]))
        }
        let digest = hash.finalize().map { String(format: "%02x", $0) }.joined()
        #expect(digest == DashboardAssets.digest, "Sources/OfflineSearchServer/Dashboard/site changed: run make_assets.py")
        #expect(Set(files) == Set(DashboardAssets.files.keys))
    }
}

/// A server without keys answers its own address and loopback pages only; the request log never
/// shows a key.
@Suite struct LocalOnlyTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func withoutKeysOtherSitesAndOtherHostsAreRefused() async throws {
        let test = try TestServer(keys: false)
        try await test.server.application().test(.live) { client in
            let port = try #require(client.port)
            func status(host: String, origin: String?, method: String = "POST", path: String = "/1/indexes/products/clear") async throws -> Int {
                let body = "{}"
                let originLine = origin.map { "Origin: \($0)\r\n" } ?? ""
                return try await RawHTTP.sendAside("\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n\(originLine)"
                                        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
                                        + "Connection: close\r\n\r\n\(body)", port: port).status
            }
            // A page of another site: refused, even for a request sent without a preflight.
            #expect(try await status(host: "127.0.0.1:\(port)", origin: "https://evil.example") == 403)
            #expect(try await status(host: "127.0.0.1:\(port)", origin: "null") == 403)
            // DNS rebinding: the page's site resolves to 127.0.0.1, its requests name it.
            #expect(try await status(host: "evil.example:\(port)", origin: "http://evil.example:\(port)", method: "GET", path: "/1/indexes") == 421)
            #expect(try test.engine.existingIndex("products").recordCount == 3, "nothing was cleared")
            // A local page and a program (no Origin) are served.
            #expect(try await status(host: "localhost:\(port)", origin: "http://localhost:3000", method: "GET", path: "/1/indexes") == 200)
            #expect(try await status(host: "127.0.0.1:\(port)", origin: nil, method: "GET", path: "/1/indexes") == 200)
        }
        #expect(LocalOnlyMiddleware.isLoopbackOrigin("http://127.0.0.1:8108") && LocalOnlyMiddleware.isLoopbackOrigin("http://[::1]:3000"))
        #expect(!LocalOnlyMiddleware.isLoopbackOrigin("http://localhost.evil.example") && !LocalOnlyMiddleware.isLoopbackOrigin("file://"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aKeyReadsItsOwnRightsAndTheLogHidesIt() async throws {
        let test = try TestServer()
        try await test.server.application().test(.router) { client in
            let (status, rights) = try await client.call(.get, "/1/keys/" + TestServer.searchKey, key: TestServer.searchKey)
            #expect(status == .ok && rights["acl"] == ["search"] && rights["value"] == .string(TestServer.searchKey))
            let (refused, _) = try await client.call(.get, "/1/keys/" + TestServer.adminKey, key: TestServer.searchKey)
            #expect(refused == .forbidden)
            let (_, admin) = try await client.call(.get, "/1/keys/" + TestServer.adminKey)
            #expect(admin["acl"]?.arrayValue?.contains("editSettings") == true)
            let (missing, _) = try await client.call(.get, "/1/keys/nothing")
            #expect(missing == .notFound)
        }
        #expect(RequestLogMiddleware.loggedPath("/1/keys/admin-secret") == "/1/keys/…")
        #expect(RequestLogMiddleware.loggedPath("/1/indexes/x") == "/1/indexes/x")
        #expect(RequestLogMiddleware.tenths(0) == "0.0")
        #expect(RequestLogMiddleware.tenths(12.34) == "12.3")
        #expect(RequestLogMiddleware.tenths(0.96) == "1.0")
        #expect(RequestLogMiddleware.tenths(1234.56) == "1234.6")
    }
}
