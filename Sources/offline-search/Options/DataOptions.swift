import ArgumentParser
import DatasetGenerator
import Foundation
import OfflineSearch
import SearchAPI

/// `--data DIR`, shared by every command that reads or writes indices.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The data folder. Default: \(DataFolder.defaultLocation.path), where the demo indices appear when first named.",
        valueName: "dir"))
    var data: String?

    @Option(name: .long, help: ArgumentHelp(
        "What a committed write survives: processCrash (the default: the process killed at any moment) or powerLoss (also a power cut: one fsync per commit, slower writes).",
        valueName: "level"))
    var durability: SearchEngine.Durability = .processCrash

    /// The folder the command works on.
    var folder: DataFolder {
        let url = data.map { URL(fileURLWithPath: $0) } ?? DataFolder.defaultLocation
        return DataFolder(url: url, isDefault: data == nil, durability: durability)
    }
}

extension SearchEngine.Durability: ExpressibleByArgument {}

/// A data folder and the one rule for the bundled demo indices: in the default folder, a demo
/// index that does not exist yet is produced in-process (from the generator that made
/// `Datasets/`, seed 1) the first time a command names it. A user's own import never
/// produces them, and a folder given with `--data` is left as it is.
struct DataFolder {
    let url: URL
    let isDefault: Bool
    var durability: SearchEngine.Durability = .processCrash

    static var demoIndexNames: [String] { BundledDataset.all.map(\.indexName) }

    /// `$XDG_DATA_HOME/offline-search`, else `$HOME/.local/share/offline-search`
    /// (`$HOME/Library/Application Support/offline-search` on macOS). `$HOME` is read from
    /// the environment, so a test or a sandbox that sets it is honoured.
    static var defaultLocation: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("offline-search")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        #if os(macOS)
        return home.appendingPathComponent("Library/Application Support/offline-search")
        #else
        return home.appendingPathComponent(".local/share/offline-search")
        #endif
    }

    /// Opens the folder's engine (creating the folder if needed: the default one is announced
    /// once, on stderr), and, in the default folder, produces the named demo indices that do
    /// not exist yet.
    /// - Parameter answersWhileDeriving: whether a large index opened without its derived index
    ///   answers from its FTS5 table while it is derived in the background (a server, a terminal
    ///   UI), rather than derive it first (a command that answers and exits: its answers are
    ///   the search index's, and the derived index is stored for the next run).
    func engine(preparing names: [String] = [], answersWhileDeriving: Bool = false, searchCacheSize: Int? = nil) throws -> SearchEngine {
        let isNew = !FileManager.default.fileExists(atPath: url.path)
        // The size of the delta before a merge (`SearchIndex.deltaLimit`), for tuning and tests.
        if let limit = ProcessInfo.processInfo.environment["OFFLINE_SEARCH_DELTA_LIMIT"].flatMap({ Int($0) }), limit > 0 {
            SearchIndex.deltaLimit = limit
        }
        let engine = try SearchEngine(directory: url, durability: durability, answersWhileDeriving: answersWhileDeriving,
                                      searchCacheSize: searchCacheSize)
        if isNew && isDefault {
            Terminal.note("Created the data folder \(url.path) (delete it to reset; --data DIR uses another).")
        }
        for name in names { try prepareDemoIndex(name, in: engine) }
        return engine
    }

    /// Produces a demo index in the default folder if it is named and missing.
    func prepareDemoIndex(_ name: String, in engine: SearchEngine) throws {
        guard isDefault, !engine.exists(name), let demo = BundledDataset.named(name) else { return }
        let progress = ProgressBar(total: 3, label: "Preparing the demo index \(name)")
        progress.update(0, detail: "generating \(demo.count) records")
        let records = demo.kind == .suggestions ? try BundledSuggestions.records() : demo.records()
        progress.update(1, detail: "indexing")
        let index = try engine.index(name)
        do {
            if let settings = demo.settings.objectValue { try index.setSettings(settings) }
            try index.saveObjects(records, replaceExisting: true)
            let rules = demo.rules(for: records).compactMap(\.objectValue)
            if !rules.isEmpty { try index.saveRules(rules, clearExisting: true) }
        } catch {
            // Leave no half-made demo index behind: the next command makes it again.
            try? engine.deleteIndex(name)
            throw error
        }
        progress.finish(detail: "\(records.count) records")
    }
}
