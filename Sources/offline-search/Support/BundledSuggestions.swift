import DatasetGenerator
import Foundation
import OfflineSearch
import SearchAPI

/// The bundled `instantsearch_query_suggestions`, made as a user would make theirs: the
/// bundled products in a private folder, the bundled search log replayed into their analytics,
/// then the Query Suggestions builder with the bundled configuration.
enum BundledSuggestions {
    static func records() throws -> [JSONValue] {
        let dataset = BundledDataset(kind: .suggestions)
        let products = BundledDataset(kind: .products)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-suggestions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try SearchEngine(directory: folder)
        let index = try engine.index(products.indexName)
        if let settings = products.settings.objectValue { try index.setSettings(settings) }
        try index.saveObjects(products.records(), replaceExisting: true)
        try engine.replaySearchLog(dataset.searchLog(), into: products.indexName)
        let configuration = try QuerySuggestionsConfiguration(json: dataset.suggestionsConfiguration ?? .null)
        return try QuerySuggestionsBuilder(engine: engine, configuration: configuration).suggestions().0.map(JSONValue.object)
    }
}
