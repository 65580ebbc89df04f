import DatasetGenerator
import SearchAPI

/// The generated products corpus (`DatasetGenerator`) and its settings, typo tolerance off.
enum GeneratedCorpus {
    static func records(size: Int, seed: UInt64) -> [JSONValue] {
        DatasetGenerator(seed: seed).records(.products, count: size)
    }

    static func settings() -> JSONObject {
        var settings = DatasetGenerator.settings(for: .products).objectValue ?? JSONObject()
        settings["typoTolerance"] = false
        return settings
    }
}
