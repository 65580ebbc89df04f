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
                let answer = try RawHTTP.send("GET /dashboard HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n", port: port)
                #expect(answer.status == status, "\(host)")
            }
        }
        let dashboard = Dashboard(configuration: ServerConfiguration(host: "0.0.0.0", adminKey: "a"))
        #expect(dashboard.isBoundHost("search.example:8108"))
        let lan = Dashboard(configuration: ServerConfiguration(host: "192.168.1.5", adminKey: "a"))
        #expect(lan.isBoundHost("192.168.1.5:8108") && !lan.isBoundHost("localhost:8108"))
        #expect(Dashboard(configuration: ServerConfiguration()).isBoundHost("[::1]:8108"))
    }

    /// `DashboardAssets.swift` is what `make_assets.py` makes of `site/` now.
    @Test func theEmbeddedFilesAreTheSites() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.site.path).sorted()
            .filter { !$0.hasPrefix(".") }
            .filter { var isDirectory: ObjCBool = false
                FileManager.default.fileExists(atPath: Self.site.appendingPathComponent($0).path, isDirectory: &isDirectory)
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
