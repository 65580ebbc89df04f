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
@_exported import OfflineSearchTestSupport

/// A server on a fresh engine, with a small `products` index.
@available(macOS 14, iOS 17, tvOS 17, *)
struct TestServer {
    static let appID = "TESTAPP"
    static let adminKey = "admin-key"
    static let searchKey = "search-key"

    let folder = TemporaryDirectory()
    let engine: SearchEngine
    let server: AlgoliaServer

    /// - Parameters:
    ///   - keys: admin and search keys configured (otherwise an open server).
    ///   - analytics: how the engine counts searches (a test's own clock).
    init(keys: Bool = true, port: Int = 0, maxBodySize: Int = 1024 * 1024,
         analytics: SearchAnalytics.Configuration = SearchAnalytics.Configuration()) throws {
        engine = try SearchEngine(directory: folder.url, analytics: analytics)
        let products = try engine.index("products")
        try products.setSettings(["searchableAttributes": ["name", "brand"], "attributesForFaceting": ["searchable(brand)", "price"]])
        try products.saveObjects([
            ["objectID": "1", "name": "red phone", "brand": "Acme", "price": 10],
            ["objectID": "2", "name": "blue phone", "brand": "Zeta", "price": 20],
            ["objectID": "3", "name": "green case", "brand": "Acme", "price": 5],
        ])
        let configuration = keys
            ? ServerConfiguration(port: port, applicationID: TestServer.appID, adminKey: TestServer.adminKey,
                                  searchKey: TestServer.searchKey, maxBodySize: maxBodySize)
            : ServerConfiguration(port: port, maxBodySize: maxBodySize)
        server = AlgoliaServer(engine: engine, configuration: configuration)
    }

    static func headers(key: String = adminKey, appID: String = appID) -> HTTPFields {
        [HTTPField.Name("x-algolia-application-id")!: appID, HTTPField.Name("x-algolia-api-key")!: key]
    }

    /// Algolia's secured API key: base64(hex(HMAC-SHA256(parent, restrictions)) + restrictions).
    static func securedKey(parent: String = searchKey, _ restrictions: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(restrictions.utf8), using: SymmetricKey(data: Data(parent.utf8)))
        let hex = mac.map { String(format: "%02x", $0) }.joined()
        return Data((hex + restrictions).utf8).base64EncodedString()
    }
}

extension TestResponse {
    var json: JSONValue { (try? JSONValue(parsingUTF8: Array(body.readableBytesView))) ?? .null }
}

extension TestClientProtocol {
    /// Sends a JSON body (or none) and returns the status and the parsed answer.
    @discardableResult
    func call(_ method: HTTPRequest.Method, _ uri: String, _ body: JSONValue? = nil,
              key: String = TestServer.adminKey, headers extra: HTTPFields = [:]) async throws -> (HTTPResponse.Status, JSONValue) {
        var headers = TestServer.headers(key: key)
        headers.append(contentsOf: extra)
        return try await execute(uri: uri, method: method, headers: headers,
                                 body: body.map { ByteBuffer(string: $0.jsonString) }) { response in
            (response.status, response.json)
        }
    }
}

extension JSONValue {
    var objectIDs: [String] { (self["hits"]?.arrayValue ?? []).compactMap { $0["objectID"]?.stringValue } }
}

/// Raw HTTP over a socket, as a browser sends it: the bytes go out as written.
enum RawHTTP {
    /// `send` on a thread of its own: a blocking read on one of Swift concurrency's few threads
    /// (two on a 2-core machine) can leave none for the server that should answer it.
    static func sendAside(_ request: String, port: Int) async throws -> (status: Int, headers: [String: String], body: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try send(request, port: port) }) }
        }
    }

    static func send(_ request: String, port: Int) throws -> (status: Int, headers: [String: String], body: String) {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            guard n > 0 else { throw POSIXError(.EIO) }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(socket, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw POSIXError(.EIO) }
        let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers, String(text[split.upperBound...]))
    }
}

extension JSONValue {
    /// The element at `position` of an array, or nil.
    subscript(position: Int) -> JSONValue? {
        guard let items = arrayValue, items.indices.contains(position) else { return nil }
        return items[position]
    }
}
