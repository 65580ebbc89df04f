import Foundation
import SearchAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Imports into an index by name: into a new index, the bulk path.
///
/// An index that does not exist yet is built in a private folder of the data directory, its
/// database written without a journal (each page written once: a write-ahead log would take
/// every page once into the log and again when checkpointed; a 1M-product import spends about
/// a fifth of its time there), switched to the write-ahead log, and then linked into place
/// whole, its derived file beside it. No other process can see the database while it is
/// built, so it needs no journal: a process killed during the import leaves only the folder,
/// which the next engine opened on the directory removes, and the index does not exist, as
/// before the import. Until the link the index does not exist for anyone; after it, it holds
/// every record (the import is one transaction either way).
extension SearchEngine {
    /// Imports the records of a JSON array or JSON Lines file into the index `name`, creating
    /// it when it does not exist, and returns the index with what the import did. As
    /// `SearchIndex.importRecords(from:replaceExisting:settings:)`, and faster for a new index
    /// (see above). When another process creates the index while this one builds it, the
    /// import goes into that index instead, as if it had come after.
    public func importRecords(into name: String, from url: URL, replaceExisting: Bool = false,
                              settings: JSONObject? = nil, rules: [JSONObject]? = nil) throws(SearchError) -> (index: SearchIndex, report: SearchIndex.ImportReport) {
        try importRecords(into: name, settings: settings) { index throws(SearchError) in
            try index.importRecords(from: url, replaceExisting: replaceExisting, settings: settings, rules: rules)
        }
    }

    /// `importRecords(into:from:)` for the text of a JSON array or JSON Lines (standard
    /// input, a file read by the caller); `source` names it in errors.
    public func importRecords(into name: String, utf8 text: [UInt8], source: String, replaceExisting: Bool = false,
                              settings: JSONObject? = nil, rules: [JSONObject]? = nil) throws(SearchError) -> (index: SearchIndex, report: SearchIndex.ImportReport) {
        try importRecords(into: name, settings: settings) { index throws(SearchError) in
            try index.importRecords(utf8: text, source: source, replaceExisting: replaceExisting, settings: settings, rules: rules)
        }
    }

    /// Where an import builds a new index: `.import.<pid>.<random>.tmp` in the data directory
    /// (a `TemporaryFile` name, so that one left by a killed process is removed).
    var buildFolderBase: String { directory.appendingPathComponent(".import").path }

    /// An import into the index `name`, built aside when it is new: `run` imports into the
    /// index given (the one built aside, or the index itself). `settings` is the import's.
    func importRecords(into name: String, settings: JSONObject?,
                       _ run: (SearchIndex) throws(SearchError) -> SearchIndex.ImportReport) throws(SearchError) -> (index: SearchIndex, report: SearchIndex.ImportReport) {
        try validate(name)
        // Replicas are indices of their own in this directory, made with their primary's write:
        // an index with replicas (or one made a replica) is imported in place.
        let namesReplicas = settings?["replicas"] != nil || settings?["primary"] != nil
        guard !readOnly, currentOpenIndex(name) == nil, !exists(name), !namesReplicas,
              let report = try buildAside(name, run) else {
            return try importInPlace(name, run)
        }
        // Not made again should another process have deleted it since.
        return (try existingIndex(name), report)
    }

    /// The import through the index itself (created empty first when it does not exist, and
    /// removed again if the import fails).
    private func importInPlace(_ name: String, _ run: (SearchIndex) throws(SearchError) -> SearchIndex.ImportReport) throws(SearchError) -> (index: SearchIndex, report: SearchIndex.ImportReport) {
        let existed = exists(name)
        let index = try self.index(name)
        do {
            return (index, try run(index))
        } catch {
            if !existed { try? deleteIndex(name) }
            throw error
        }
    }

    /// Builds the new index `name` aside and links it into place. Nil, with nothing left
    /// behind, when the index appeared meanwhile (made by another process or engine) or it
    /// cannot be built aside: the caller then imports into the index itself. Throws what the
    /// import throws (nothing is kept).
    private func buildAside(_ name: String, _ run: (SearchIndex) throws(SearchError) -> SearchIndex.ImportReport) throws(SearchError) -> SearchIndex.ImportReport? {
        let folder = TemporaryFile.path(besides: buildFolderBase)
        // A directory that cannot take the folder (read-only) gets the import in place, which
        // reports why.
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)) != nil else { return nil }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let builtPath = URL(fileURLWithPath: folder).appendingPathComponent(fileURL(for: name).lastPathComponent).path
        let report: SearchIndex.ImportReport
        weak var builtStore: RecordStore?
        do {
            // Its own engine, released at the end of this scope: every connection to the built
            // database is closed before the file is switched to the write-ahead log.
            let builder = try SearchEngine(directory: URL(fileURLWithPath: folder), durability: durability, journal: .noneWhileBuiltAside)
            let built = try builder.index(name)
            report = try run(built)
            built.waitForMerge()
            // Without a journal, a write that failed may have left torn pages: not put in place.
            guard !built.store.bestEffortWriteFailed.value else { return nil }
            builtStore = built.store
        }
        // A background thread may still hold the store for a moment (a layout finishing): its
        // connections must be closed before the switch.
        let deadline = ContinuousClock.now + .seconds(30)
        while builtStore != nil {
            guard ContinuousClock.now < deadline else { return nil }
            Thread.sleep(forTimeInterval: 0.002)
        }
        // Synced (the bulk of it already on another thread while the index was laid out): the
        // file must be whole on disk before its name is, or a power loss could leave the name
        // on a file with pages missing.
        guard RecordStore.switchToWriteAheadLog(builtPath) else { return nil }
        let path = fileURL(for: name).path
        let derivedPath = RecordStore.derivedPath(forDatabaseAt: path)
        let builtDerivedPath = RecordStore.derivedPath(forDatabaseAt: builtPath)
        // Held while the derived file is put in place: a process that opens the index in
        // between waits for it instead of deriving the index itself.
        let derivedLock = RebuildLock(path: derivedPath + ".lock")
        defer { derivedLock.unlock() }
        // link() never replaces: an index made meanwhile keeps its file. A file system without
        // hard links gets a rename while the name is still free (as a new index's file does).
        if link(builtPath, path) != 0 {
            guard errno != EEXIST, !FileManager.default.fileExists(atPath: path), rename(builtPath, path) == 0 else { return nil }
        }
        // The database is in place: the import is done. The derived file is a cache; when it
        // cannot be moved, the index is derived again from the database when it is opened.
        if rename(builtDerivedPath, derivedPath) != 0 { unlink(derivedPath) }
        if durability == .powerLoss { RecordStore.syncFile(directory.path) }
        return report
    }
}
