import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Several processes on one data folder. Two `SearchEngine` instances on one
// folder share nothing in memory: each has its own SQLite connections, snapshot and locks, so
// for SQLite and for the derived file they behave as two processes do.

@Suite struct MultiProcessTests {
    static func records(_ count: Int, prefix: String = "r") -> [JSONValue] {
        (0..<count).map { ["objectID": .string("\(prefix)\($0)"), "name": .string("widget \($0)")] }
    }

    /// A folder holding index `test` with `count` records, written by an engine now closed.
    static func folder(records count: Int = 20, settings: JSONObject = [:]) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let index = try SearchEngine(directory: directory.url).index("test")
        if !settings.isEmpty { try index.setSettings(settings) }
        try index.saveObjects(records(count))
        return directory
    }

    static func databasePath(_ directory: TemporaryDirectory, _ name: String = "test") -> String {
        directory.url.appendingPathComponent("\(name).index.sqlite").path
    }

    // MARK: Item 5: opening writes nothing; writers wait, then fail clearly

    @Test func openingAndSearchingWhileAnotherProcessHoldsTheWriteLock() throws {
        let directory = try MultiProcessTests.folder()
        // Another "process" in the middle of a long write: it holds SQLite's write lock.
        let other = try SQLiteConnection(path: MultiProcessTests.databasePath(directory))
        try other.execute("BEGIN IMMEDIATE")
        defer { try? other.execute("ROLLBACK") }

        let started = ContinuousClock.now
        // Opening reads only (before, it wrote meta rows and the journal mode, and failed with
        // "database is locked" here).
        let index = try SearchEngine(directory: directory.url).index("test")
        #expect(try index.search("widget").nbHits == 20)
        #expect(ContinuousClock.now - started < .seconds(3), "opening and searching must not wait for the writer")

        // A write waits for the busy timeout, then fails with a clear error, changing nothing.
        let error = expectSearchError { try index.saveObjects(MultiProcessTests.records(1, prefix: "new")) }
        let waited = ContinuousClock.now - started
        #expect(error?.message.contains("another process kept it locked for more than 5 s") == true, "\(String(describing: error))")
        #expect(error?.status == 503)
        #expect(waited >= .milliseconds(Int(SQLiteConnection.busyTimeoutMilliseconds) - 500))
        #expect(try index.search("widget").nbHits == 20)
        try other.execute("ROLLBACK")
        // Once the other writer is done, writing works.
        try index.saveObjects(MultiProcessTests.records(1, prefix: "new"))
        #expect(try index.search("widget").nbHits == 21)
    }

    @Test func openingAnExistingIndexLeavesTheDatabaseUnchanged() throws {
        let directory = try MultiProcessTests.folder()
        let path = MultiProcessTests.databasePath(directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let index = try SearchEngine(directory: directory.url).index("test")
            #expect(try index.search("widget 3").nbHits >= 1)
            #expect(try index.store.committedGeneration() == index.store.committedGeneration())
        }
        // Closed: the log (if any) is folded back; the file holds exactly what it held.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    // MARK: Item 6: read-only data

    @Test func readOnlyEngineSearchesDerivesInMemoryAndRefusesWrites() throws {
        let directory = try MultiProcessTests.folder()
        let path = MultiProcessTests.databasePath(directory)
        let derived = directory.url.appendingPathComponent("test.index.derived").path
        // No derived file: read-only, it must be derived in memory, never written beside the database.
        try FileManager.default.removeItem(atPath: derived)
        try? FileManager.default.removeItem(atPath: derived + ".lock")
        // Tests run as root here, where permissions do not stop writes: the explicit read-only
        // option opens every connection with SQLITE_OPEN_READONLY, which refuses writes whatever
        // the permissions (`immutableReadOnlyStoreReads` covers a folder SQLite cannot write).
        let engine = try SearchEngine(directory: directory.url, readOnly: true)
        let index = try engine.index("test")
        #expect(index.isReadOnly)
        #expect(try index.search("widget").nbHits == 20)
        #expect(!FileManager.default.fileExists(atPath: derived))
        #expect(!FileManager.default.fileExists(atPath: derived + ".lock"))

        let error = expectSearchError { try index.saveObjects(MultiProcessTests.records(1, prefix: "new")) }
        #expect(error?.message.contains("Cannot write to the index") == true, "\(String(describing: error))")
        #expect(error?.status == 403)
        #expect(expectSearchError { try index.setSettings(["hitsPerPage": 5]) }?.status == 403)
        // A missing index is not created.
        #expect(expectSearchError { _ = try engine.index("missing") }?.kind == .indexNotFound)
        #expect(!FileManager.default.fileExists(atPath: MultiProcessTests.databasePath(directory, "missing")))
        #expect(try SearchEngine(directory: directory.url).index("test").search("widget").nbHits == 20)
        _ = path
    }

    @Test func readOnlyEngineUsesAValidDerivedFile() throws {
        let directory = try MultiProcessTests.folder()
        let path = MultiProcessTests.databasePath(directory)
        let rebuildsBefore = DerivedIndex.rebuilds.value[path] ?? 0
        let index = try SearchEngine(directory: directory.url, readOnly: true).index("test")
        #expect(try index.search("widget").nbHits == 20)
        #expect((DerivedIndex.rebuilds.value[path] ?? 0) == rebuildsBefore, "the shipped derived file must be used")
    }

    /// A folder SQLite cannot write (a read-only file system, an app bundle) is opened
    /// `immutable`: no shared-memory file, no lock. Forced here, since as root a chmod'ed folder
    /// stays writable; this proves the immutable open reads a WAL database and refuses writes.
    @Test func immutableReadOnlyStoreReads() throws {
        let directory = try MultiProcessTests.folder()
        let path = MultiProcessTests.databasePath(directory)
        try FileManager.default.removeItem(atPath: directory.url.appendingPathComponent("test.index.derived").path)
        let store = try RecordStore(path: path, immutableForTesting: true)
        #expect(store.accessMode == .immutable)
        let live = try LiveIndex(store: store)
        #expect(live.state.documentCount == 20)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("test.index.derived").path))
        #expect(expectSearchError { try live.write(RecordStore.Change(deletions: ["r1"])) }?.status == 403)
    }

    /// The automatic detection: a folder without write permission. Only meaningful when the
    /// tests do not run as root (root writes anyway); skipped then.
    @Test func folderWithoutWritePermissionIsOpenedReadOnly() throws {
        guard getuid() != 0 else { return }
        let directory = try MultiProcessTests.folder()
        chmod(directory.url.path, 0o555)
        defer { chmod(directory.url.path, 0o755) }
        let index = try SearchEngine(directory: directory.url).index("test")
        #expect(index.isReadOnly)
        #expect(try index.search("widget").nbHits == 20)
        #expect(expectSearchError { try index.deleteObjects(["r1"]) }?.status == 403)
    }

    // MARK: Item 4: settings read-modify-write under the write lock

    @Test func concurrentSettingsChangesFromTwoEnginesBothLand() throws {
        for trial in 0..<10 {
            let directory = try MultiProcessTests.folder(records: 5)
            // Both open first: each holds the settings as they were.
            let first = try SearchEngine(directory: directory.url).index("test")
            let second = try SearchEngine(directory: directory.url).index("test")
            DispatchQueue.concurrentPerform(iterations: 2) { which in
                do {
                    if which == 0 {
                        try first.setSettings(["attributesForFaceting": ["name"]])
                    } else {
                        try second.setSettings(["customRanking": ["desc(name)"]])
                    }
                } catch {
                    Issue.record("trial \(trial): \(error)")
                }
            }
            let settings = try SearchEngine(directory: directory.url).index("test").settings
            #expect(settings.values["attributesForFaceting"] != nil, "trial \(trial): lost \(settings.values)")
            #expect(settings.values["customRanking"] != nil, "trial \(trial): lost \(settings.values)")
        }
    }

    @Test func settingsChangeAppliesToWhatAnotherEngineStored() throws {
        let directory = try MultiProcessTests.folder(records: 5)
        let first = try SearchEngine(directory: directory.url).index("test")
        let second = try SearchEngine(directory: directory.url).index("test")
        try first.setSettings(["attributesForFaceting": ["name"]])
        try second.saveSynonyms([["objectID": "s", "type": "synonym", "synonyms": ["widget", "gadget"]]])
        let settings = try SearchEngine(directory: directory.url).index("test").settings
        #expect(settings.values["attributesForFaceting"] != nil)
        #expect(settings.values["synonyms"] != nil)
    }

    // MARK: Item 1: settings and records of an import in one transaction

    @Test func importWithSettingsCommitsOnce() throws {
        let directory = try MultiProcessTests.folder(records: 5)
        let index = try SearchEngine(directory: directory.url).index("test")
        let before = try index.store.committedGeneration()
        let report = try index.importRecords(MultiProcessTests.records(3, prefix: "n"), replaceExisting: true,
                                             settings: ["searchableAttributes": ["name"], "hitsPerPage": 7])
        #expect(report.recordCount == 3)
        // One commit: no state where the new settings sit over the old records.
        #expect(try index.store.committedGeneration() == before + 1)
        #expect(index.settings.values["hitsPerPage"] == 7)
        #expect(try ids(index.search("widget")) == ["n0", "n1", "n2"])
        // A rejected settings patch keeps the old records and settings.
        #expect(expectSearchError {
            _ = try index.importRecords(MultiProcessTests.records(2, prefix: "x"), replaceExisting: true, settings: ["replicas": ["test"]])
        } != nil)
        #expect(try index.store.committedGeneration() == before + 1)
        #expect(try SearchEngine(directory: directory.url).index("test").search("widget").nbHits == 3)
    }

    // MARK: Item 3: readers follow other processes' commits

    @Test func searchesFollowAnotherEnginesWrites() throws {
        let directory = try MultiProcessTests.folder(records: 5)
        let writer = try SearchEngine(directory: directory.url).index("test")
        let reader = try SearchEngine(directory: directory.url).index("test")
        #expect(try reader.search("widget").nbHits == 5)
        for round in 1...5 {
            try writer.saveObjects(MultiProcessTests.records(1, prefix: "w\(round)-"))
            // The very next search sees it, and never answers "kept changing".
            #expect(try reader.search("widget").nbHits == 5 + round)
            #expect(reader.recordCount == 5 + round)
        }
        try writer.setSettings(["hitsPerPage": 3])
        #expect(try reader.search("widget").hits.count == 3)
        #expect(reader.settings.values["hitsPerPage"] == 3)
        _ = try writer.importRecords(MultiProcessTests.records(2, prefix: "z"), replaceExisting: true)
        #expect(try ids(reader.search("widget")) == ["z0", "z1"])
    }

    @Test func searchesDuringAnotherEnginesWritesNeverFail() async throws {
        let directory = try MultiProcessTests.folder(records: 10)
        let writer = try SearchEngine(directory: directory.url).index("test")
        let reader = try SearchEngine(directory: directory.url).index("test")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 1...15 { try writer.saveObjects(MultiProcessTests.records(2, prefix: "w\(round)-")) }
            }
            group.addTask {
                var last = 0
                for _ in 0..<200 {
                    let response = try reader.search("widget", ["hitsPerPage": 1000])
                    #expect(response.nbHits % 2 == 0 && response.nbHits >= last, "torn or backwards: \(response.nbHits)")
                    #expect(response.hits.count == response.nbHits)
                    last = response.nbHits
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }
        #expect(try reader.search("widget").nbHits == 40)
    }

    @Test func deleteByCatchesUpWithAnotherEnginesWrites() throws {
        let directory = try MultiProcessTests.folder(records: 4, settings: ["attributesForFaceting": ["name"]])
        let writer = try SearchEngine(directory: directory.url).index("test")
        let deleter = try SearchEngine(directory: directory.url).index("test")
        try writer.saveObjects([["objectID": "late", "name": "widget 1"]])
        // The deleter's snapshot predates "late": it catches up before picking the rows.
        #expect(try deleter.deleteBy(SearchParameters(json: ["filters": "name:\"widget 1\""])) == 2)
        #expect(try writer.search("widget").nbHits == 3)
        #expect(try writer.object("late") == nil)
    }

    // MARK: Item 14: one rebuild at a time

    @Test func severalEnginesOpeningAStaleIndexRebuildItOnce() throws {
        let directory = try MultiProcessTests.folder(records: 3000)
        let path = MultiProcessTests.databasePath(directory)
        try FileManager.default.removeItem(atPath: directory.url.appendingPathComponent("test.index.derived").path)
        let before = DerivedIndex.rebuilds.value[path] ?? 0
        let counts = LockedValue<[Int]>([])
        let url = directory.url
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let index = try SearchEngine(directory: url).index("test")
                let hits = try index.search("widget").nbHits
                counts.modify { $0.append(hits) }
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(counts.value == [3000, 3000, 3000, 3000])
        #expect((DerivedIndex.rebuilds.value[path] ?? 0) - before == 1)
    }
}
