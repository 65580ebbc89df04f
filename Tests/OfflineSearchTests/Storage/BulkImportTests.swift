import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// An import into a new index builds it aside without a journal and links it into place
/// (`SearchEngine.importRecords(into:from:)`, the bulk path of an import). The index it
/// puts in place must answer exactly as one imported in place, be an ordinary index (WAL mode,
/// its derived file used), and the data folder must hold nothing else: not after a failed
/// import, not after a killed one once an engine opens the folder again.
@Suite struct BulkImportTests {
    /// The streamed import with small thresholds (stream past 50 records, batches of 40).
    static func run(_ text: [UInt8], replace: Bool = false, settings: JSONObject? = nil) -> (SearchIndex) throws(SearchError) -> SearchIndex.ImportReport {
        { index throws(SearchError) in
            try text.withUnsafeBufferPointer { buffer throws(SearchError) in
                try index.importRecords(utf8: buffer, source: "records.json", replaceExisting: replace, settings: settings,
                                        streamFrom: 50, batchSize: 40)
            }
        }
    }

    /// `run`, noting the folder of the index it imported into.
    static func run(_ text: [UInt8], settings: JSONObject? = nil, into folders: LockedValue<[String]>) -> (SearchIndex) throws(SearchError) -> SearchIndex.ImportReport {
        let importer = run(text, settings: settings)
        return { index throws(SearchError) in
            folders.modify { $0.append(URL(fileURLWithPath: index.store.path).deletingLastPathComponent().lastPathComponent) }
            return try importer(index)
        }
    }

    static func journalMode(_ path: String) throws -> String {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        let statement = try connection.statement("PRAGMA journal_mode")
        defer { statement.reset() }
        _ = try statement.step()
        return statement.string(0)
    }

    /// The responses (timings left out) of the differential tests' queries, without their
    /// facet-value search (which needs settings).
    static func answers(_ index: SearchIndex) throws -> [String] {
        try IncrementalUpdateTests.queries.map { query in
            guard case .object(var response) = try index.search(SearchParameters(json: query)).jsonValue else { return "" }
            response["processingTimeMS"] = nil
            return JSONValue.object(response).jsonString
        }
    }

    /// The size of the database's write-ahead log (0 when there is none).
    static func logSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    /// What is in the data folder besides the index files themselves.
    /// The files of a data folder that are neither an index's nor the folder's search analytics
    /// (`analytics.sqlite`, written by the searches that compare the answers).
    static func leftovers(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { !$0.hasSuffix(".index.sqlite") && !$0.hasSuffix(".index.derived") && !$0.hasSuffix(".index.derived.lock") }
            .filter { !$0.hasPrefix("analytics.sqlite") }
    }

    @Test(arguments: [50, 5_000]) func aNewIndexBuiltAsideAnswersAsOneImportedInPlace(count: Int) throws {
        var records = StreamedImportTests.records(0..<count, seed: 51)
        records += StreamedImportTests.records([3, 44, 45], seed: 52)   // objectIDs repeated
        let text = StreamedImportTests.text(records, lines: true)
        let settings = StreamedImportTests.settings
        let aside = try TestEngine(), inPlace = try TestEngine()
        defer { withExtendedLifetime((aside, inPlace)) {} }

        let folders = LockedValue<[String]>([])
        let (built, report) = try aside.engine.importRecords(into: "test", settings: settings, BulkImportTests.run(text, settings: settings, into: folders))
        #expect(folders.value.count == 1 && folders.value[0].hasPrefix(".import."), "built aside: \(folders.value)")
        #expect(report.recordCount == records.count)
        #expect(built.recordCount == count)
        // The same import into an index that exists (empty) goes through the index itself.
        _ = try inPlace.engine.index("test")
        let (reference, _) = try inPlace.engine.importRecords(into: "test", settings: settings, BulkImportTests.run(text, settings: settings))
        try StreamedImportTests.expectSameIndex(built, reference)
        // Its derived file was begun during the layout, its posting lists written meanwhile.
        #expect(reference.store.derivedFilesWrittenInParts.value == 1)
        #expect(built.settings == reference.settings)

        // An ordinary index: in WAL mode, no log left beside it (opened since, it has an empty
        // one), nothing else in the folder.
        let path = aside.engine.fileURL(for: "test").path
        #expect(try BulkImportTests.journalMode(path) == "wal")
        #expect(BulkImportTests.logSize(path) == 0)
        #expect(try BulkImportTests.leftovers(aside.directory.url).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.isEmpty)
        // Its derived file was put in place with it and is used as it is: opened elsewhere,
        // the index is not derived again.
        let derived = String(path.dropLast(".sqlite".count)) + ".derived"
        let storedFile = RecordStore.FileIdentity(path: derived)
        #expect(storedFile != nil)
        let reopened = try SearchEngine(directory: aside.directory.url).index("test")
        #expect(try IncrementalUpdateTests.answers(reopened) == IncrementalUpdateTests.answers(reference))
        #expect(RecordStore.FileIdentity(path: derived) == storedFile)   // a rebuild stores a new file
        #expect(reopened.live.state.deltaCount == 0)
        // Writes go on as in any index.
        try reopened.saveObjects([["objectID": "after", "name": "written after the import"]])
        #expect(try SearchEngine(directory: aside.directory.url).index("test").recordCount == count + 1)
    }

    /// With power-loss durability the index built aside is synced as it is put in place (its
    /// file, then the folder): it answers as one imported in place.
    @Test func aNewIndexBuiltAsideWithPowerLossDurability() throws {
        let directory = TemporaryDirectory(), reference = try TestEngine()
        defer { withExtendedLifetime((directory, reference)) {} }
        let engine = try SearchEngine(directory: directory.url, durability: .powerLoss)
        let records = StreamedImportTests.records(0..<200, seed: 57)
        let text = StreamedImportTests.text(records, lines: false)
        let settings = StreamedImportTests.settings
        let folders = LockedValue<[String]>([])
        let (built, _) = try engine.importRecords(into: "durable", settings: settings, BulkImportTests.run(text, settings: settings, into: folders))
        #expect(folders.value.count == 1 && folders.value[0].hasPrefix(".import."), "built aside: \(folders.value)")
        _ = try reference.engine.index("durable")
        let (inPlace, _) = try reference.engine.importRecords(into: "durable", settings: settings, BulkImportTests.run(text, settings: settings))
        #expect(try IncrementalUpdateTests.answers(built) == IncrementalUpdateTests.answers(inPlace))
        #expect(try BulkImportTests.journalMode(engine.fileURL(for: "durable").path) == "wal")
        #expect(try BulkImportTests.leftovers(directory.url).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.isEmpty)
    }

    /// A file small enough to be written as one `saveObjects` (a logged write into the delta,
    /// no derived file stored, a background checkpoint asked for) is built aside too, and the
    /// index put in place opens and answers as one imported in place.
    @Test func aSmallImportIntoANewIndexIsBuiltAsideAsALoggedWrite() throws {
        let records = StreamedImportTests.records(0..<300, seed: 56)
        let text = StreamedImportTests.text(records, lines: true)
        let aside = try TestEngine(), inPlace = try TestEngine()
        defer { withExtendedLifetime((aside, inPlace)) {} }
        let (built, report) = try aside.engine.importRecords(into: "small", utf8: text, source: "records.jsonl")
        #expect(report.recordCount == 300)
        let path = aside.engine.fileURL(for: "small").path
        #expect(try BulkImportTests.journalMode(path) == "wal")
        #expect(BulkImportTests.logSize(path) == 0)
        _ = try inPlace.engine.index("small")
        let (reference, _) = try inPlace.engine.importRecords(into: "small", utf8: text, source: "records.jsonl")
        #expect(try BulkImportTests.answers(built) == BulkImportTests.answers(reference))
        #expect(try BulkImportTests.answers(SearchEngine(directory: aside.directory.url).index("small")) == BulkImportTests.answers(reference))
        #expect(try BulkImportTests.leftovers(aside.directory.url).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.isEmpty)
    }

    /// The file's objectIDs, settings and records in one transaction: a file invalid anywhere
    /// makes no index and leaves nothing in the folder.
    @Test func aFailedImportIntoANewIndexLeavesNothing() throws {
        let test = try TestEngine()
        defer { withExtendedLifetime(test) {} }
        var lines = StreamedImportTests.records(0..<300, seed: 53).map(\.jsonString)
        lines[280] = #"{"objectID": "bad", "name": }"#
        let text = Array(lines.joined(separator: "\n").utf8)
        do {
            _ = try test.engine.importRecords(into: "never", settings: ["hitsPerPage": 7], BulkImportTests.run(text, settings: ["hitsPerPage": 7]))
            Issue.record("an invalid file was imported")
        } catch {
            #expect(error.kind == .invalidJSON)
            #expect(error.message.contains("records.json: Invalid JSON at line 281"), "\(error.message)")
        }
        #expect(!test.engine.exists("never"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: test.directory.url.path).isEmpty)
    }

    /// Another engine (another process, alike) makes the index while this one builds it aside:
    /// its index stays, and the import goes into it, as if it had come after.
    @Test func anIndexMadeMeanwhileGetsTheImport() throws {
        let test = try TestEngine()
        defer { withExtendedLifetime(test) {} }
        let other = try SearchEngine(directory: test.directory.url)
        let records = StreamedImportTests.records(0..<200, seed: 54)
        let text = StreamedImportTests.text(records, lines: false)
        let importAside = BulkImportTests.run(text)
        var runs = 0
        let (index, report) = try test.engine.importRecords(into: "raced", settings: nil) { index throws(SearchError) in
            runs += 1
            if runs == 1 {
                try other.index("raced").setSettings(["hitsPerPage": 9])
                try other.index("raced").saveObjects([["objectID": "theirs", "name": "made by the other engine"]])
            }
            return try importAside(index)
        }
        #expect(runs == 2)   // built aside, then imported into the index made meanwhile
        #expect(report.recordCount == 200)
        #expect(index.recordCount == 201)
        #expect(index.settings.values["hitsPerPage"] == .int(9))
        #expect(try index.object("theirs", attributesToRetrieve: nil) != nil)
        #expect(try BulkImportTests.leftovers(test.directory.url).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.isEmpty)
    }

    /// Replicas are indices of their own in the folder, made with their primary's writes: an
    /// import whose settings name replicas goes through the index itself.
    @Test func anImportWithReplicasIsMadeInPlace() throws {
        let test = try TestEngine()
        defer { withExtendedLifetime(test) {} }
        let records = StreamedImportTests.records(0..<120, seed: 55)
        let settings: JSONObject = ["replicas": ["by_price"], "attributesForFaceting": ["brand"]]
        let (index, _) = try test.engine.importRecords(into: "primary", settings: settings,
                                                      BulkImportTests.run(StreamedImportTests.text(records, lines: true), settings: settings))
        #expect(index.recordCount == 120)
        #expect(try test.engine.existingIndex("by_price").recordCount == 120)
    }

    /// A folder of a new index left by an import killed half-way (its process gone) is removed
    /// when an engine opens the directory; one of a live import is kept.
    @Test func aFolderLeftByAKilledImportIsRemovedOnOpen() throws {
        let test = try TestEngine()
        defer { withExtendedLifetime(test) {} }
        let folder = test.directory.url.path
        // A process id no process has: past the largest a Linux or Darwin system hands out.
        let dead = "\(folder)/.import.\(Int32.max - 7).12345.tmp"
        let live = "\(folder)/.import.\(getpid()).12346.tmp"
        for path in [dead, live] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data("half an index".utf8).write(to: URL(fileURLWithPath: path + "/big.index.sqlite"))
        }
        _ = try SearchEngine(directory: test.directory.url)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(test.engine.indexNames().isEmpty)
    }
}
