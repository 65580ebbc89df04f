import Foundation
@testable import OfflineSearch
import SearchAPI

/// A data directory of its own for one test, removed when the test is done.
final class TemporaryDirectory {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// An engine in a fresh directory, kept alive with it.
struct TestEngine {
    let directory = TemporaryDirectory()
    let engine: SearchEngine
    init() throws { engine = try SearchEngine(directory: directory.url) }

    /// A new index with these settings and records.
    func index(_ name: String = "test", settings: JSONObject = [:], records: [JSONValue]) throws -> SearchIndex {
        let index = try engine.index(name)
        if !settings.isEmpty { try index.setSettings(settings) }
        try index.saveObjects(records)
        return index
    }
}

/// `../shared/datasets`, beside the repository.
enum SharedDatasets {
    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/datasets")
    }
    static func records(_ file: String) throws -> [JSONValue] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        guard case .array(let records) = try JSONValue(parsingUTF8: Array(data)) else { return [] }
        return records
    }
    static func settings(_ file: String) throws -> JSONObject {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        return try JSONValue(parsingUTF8: Array(data)).objectValue ?? [:]
    }
}

extension SearchIndex {
    func search(_ query: String, _ parameters: JSONObject = [:]) throws -> SearchResponse {
        var object = parameters
        object["query"] = .string(query)
        return try search(SearchParameters(json: object))
    }
}

extension SearchResponse {
    var objectIDs: [String] { hits.compactMap { $0["objectID"]?.stringValue } }
}
