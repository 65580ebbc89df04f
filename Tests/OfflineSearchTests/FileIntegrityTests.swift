import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// The files beside the records: the derived file is checked before it is used (header and
/// checksum) and rebuilt on any mismatch; a damaged database is reported, never opened as an
/// empty index; temporary files of a killed process are cleared.
@Suite struct FileIntegrityTests {
    // MARK: XXH64

    @Test(arguments: [("", 0xEF46_DB37_51D8_E999 as UInt64), ("a", 0xD24E_C4F1_A98C_6E5B), ("abc", 0x44BC_2CF5_AD77_0999),
                      ("Nobody inspects the spammish repetition", 0xFBCE_A83C_8A37_8BF1)])
    func xxhash64MatchesTheReferenceValues(text: String, expected: UInt64) {
        #expect(XXHash64.hash(Array(text.utf8)) == expected)
    }

    @Test func xxhash64FedInPiecesEqualsOneCall() {
        var generator = SeededGenerator(seed: 64)
        for length in [0, 1, 7, 31, 32, 33, 63, 64, 100, 257, 1_000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var hasher = XXHash64(seed: 9)
            var offset = 0
            while offset < length {
                let piece = min(Int.random(in: 0...40, using: &generator), length - offset)
                bytes[offset..<offset + piece].withUnsafeBytes { hasher.update($0) }
                offset += piece
            }
            #expect(hasher.finalize() == XXHash64.hash(bytes, seed: 9), "length \(length)")
        }
    }

    /// The checksum computed while the file is written (streamed, in pieces of any size) is the
    /// one verified at open (by pieces, on every core), at sizes around the piece boundaries.
    @Test func theStreamedChecksumIsTheOneVerifiedAtOpen() {
        var generator = SeededGenerator(seed: 7)
        let piece = SnapshotFile.checksumPiece
        for size in [0, 1, 63, piece - 1, piece, piece + 1, 2 * piece + piece / 2] {
            let payload = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var hasher = PieceHasher()
            var offset = 0
            payload.withUnsafeBytes { bytes in
                while offset < size {
                    let step = min(size - offset, Int.random(in: 1...(piece / 3), using: &generator))
                    hasher.update(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + step]))
                    offset += step
                }
            }
            #expect(hasher.finalize() == payload.withUnsafeBytes { SnapshotFile.payloadChecksum($0) }, "size \(size)")
        }
    }

    // MARK: The derived file

    /// A derived file written in two parts (the posting lists while the rest is laid out, as an
    /// import writes it: `SnapshotAccumulator.finish(writing:)`) holds exactly the bytes of one
    /// written whole, and is read back as the same index.
    @Test func aDerivedFileWrittenInPartsIsTheFileWrittenWhole() throws {
        let directory = TemporaryDirectory()
        let configuration = try IndexConfiguration(settings: IndexSettings(json: FileIntegrityTests.settings))
        let inputs = FileIntegrityTests.records("p").enumerated().map { SnapshotBuilder.Input(rowID: Int64($0.offset + 1), record: $0.element.objectValue!) }
        let whole = directory.url.appendingPathComponent("whole.derived").path
        let parts = directory.url.appendingPathComponent("parts.derived").path
        let reference = SnapshotBuilder.build(inputs, configuration: configuration, generation: 5)
        try SnapshotFile.write(reference, indexID: "id", to: whole)

        var accumulator = SnapshotAccumulator(configuration: configuration)
        accumulator.add(Array(inputs[..<25]))
        accumulator.add(Array(inputs[25...]))
        let writing = try SnapshotFile.Writing(to: parts)
        let snapshot = try accumulator.finish(generation: 5, writing: writing)
        #expect(writing.partsEncoded == 1)
        writing.encode { snapshot.encodeTail(into: &$0) }
        _ = try writing.finish(indexID: "id", generation: 5)
        #expect(FileManager.default.contents(atPath: parts) == FileManager.default.contents(atPath: whole))
        let read = SnapshotFile.read(from: parts, indexID: "id", configuration: configuration, generations: 5...5)
        #expect(read?.encoded() == reference.encoded())
        // Released unfinished, a file being written leaves nothing.
        _ = try SnapshotFile.Writing(to: directory.url.appendingPathComponent("dropped.derived").path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["parts.derived", "whole.derived"])
    }

    static let settings: JSONObject = ["searchableAttributes": ["name", "brand"], "attributesForFaceting": ["brand", "price"],
                                       "customRanking": ["desc(rank)"]]

    static func records(_ prefix: String) -> [JSONValue] {
        (0..<60).map { i in
            ["objectID": .string("\(prefix)\(i)"), "name": .string("\(prefix) lamp number \(i)"),
             "brand": .string("Brand \(i % 4)"), "price": .int(Int64(i * 3)), "rank": .int(Int64(i % 7))]
        }
    }

    /// What the tests compare before and after damage: hits, counts and facets of a few searches.
    static func answers(_ index: SearchIndex) throws -> [String] {
        let searches: [(String, JSONObject)] = [("lamp", [:]), ("number 1", [:]), ("", ["filters": "price > 40 AND brand:\"Brand 1\""]),
                                                ("lam", ["facets": ["*"]])]
        return try searches.map { query, parameters in
                var object: JSONObject = parameters
                object["hitsPerPage"] = 100
                let response = try index.search(query, object)
                return "\(response.nbHits) \(response.objectIDs) \(response.facets.map { "\($0)" } ?? "")"
            }
    }

    /// Whether the derived file on disk is whole and this index's (`read` accepts it).
    static func derivedFileIsValid(_ index: SearchIndex) throws -> Bool {
        let configuration = try IndexConfiguration(settings: index.settings)
        return SnapshotFile.read(from: index.store.derivedPath, indexID: index.store.indexID, configuration: configuration,
                                 generations: 0...(try index.store.generation())) != nil
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case randomBytesOfTheSameSize, randomBytes, emptyFile, truncatedHeader, truncatedPayload, oneByteMissing, oneByteMore,
             flippedMagic, flippedFormatVersion, flippedIdentity, flippedGeneration, flippedLength, flippedChecksum,
             flippedHeaderChecksum, flippedFirstPayloadByte, flippedMiddleByte, flippedLastByte, headerOnly
        var testDescription: String { rawValue }

        func apply(to bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
            func flipped(_ offset: Int) -> [UInt8] {
                var copy = bytes
                copy[offset] ^= 0x10
                return copy
            }
            switch self {
            case .randomBytesOfTheSameSize: return (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case .randomBytes: return (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case .emptyFile: return []
            case .truncatedHeader: return Array(bytes.prefix(40))
            case .truncatedPayload: return Array(bytes.prefix(64 + (bytes.count - 64) / 2))
            case .oneByteMissing: return Array(bytes.dropLast())
            case .oneByteMore: return bytes + [0]
            case .flippedMagic: return flipped(3)
            case .flippedFormatVersion: return flipped(12)
            case .flippedIdentity: return flipped(20)
            case .flippedGeneration: return flipped(32)
            case .flippedLength: return flipped(41)
            case .flippedChecksum: return flipped(50)
            case .flippedHeaderChecksum: return flipped(60)
            case .flippedFirstPayloadByte: return flipped(64)
            case .flippedMiddleByte: return flipped(64 + (bytes.count - 64) / 2)
            case .flippedLastByte: return flipped(bytes.count - 1)
            case .headerOnly: return Array(bytes.prefix(64))
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedDerivedFileIsRebuiltAndAnswersStayRight(damage: Damage) throws {
        let directory = TemporaryDirectory()
        let expected: [String]
        let derived: URL
        do {
            let index = try SearchEngine(directory: directory.url).index("things")
            try index.setSettings(FileIntegrityTests.settings)
            try index.saveObjects(FileIntegrityTests.records("red"))
            expected = try FileIntegrityTests.answers(index)
            #expect(try FileIntegrityTests.derivedFileIsValid(index))
            derived = URL(fileURLWithPath: index.store.derivedPath)
        }
        var generator = SeededGenerator(seed: UInt64(Damage.allCases.firstIndex(of: damage)!))
        let original = [UInt8](try Data(contentsOf: derived))
        try Data(damage.apply(to: original, using: &generator)).write(to: derived)

        let reopened = try SearchEngine(directory: directory.url).index("things")
        #expect(try FileIntegrityTests.answers(reopened) == expected)
        // Rebuilt on open, so the next open reads it again.
        #expect(try FileIntegrityTests.derivedFileIsValid(reopened))
    }

    /// A derived file large enough for its postings and forward index to be mapped rather than
    /// copied, and for its checksum to be computed in several pieces: opened, the large arrays
    /// are views of the file and answer as the built index did; a byte flipped in the first
    /// piece, the second, or the short last one is caught by the checksum and the file rebuilt.
    /// (The damaged file replaces the good one by rename, as the engine's own writes do: a
    /// mapped file is never changed in place.)
    @Test func aLargeDerivedFileIsMappedAndItsDamageCaught() throws {
        let directory = TemporaryDirectory()
        let records: [JSONValue] = (0..<20_000).map { i in
            ["objectID": .string("r\(i)"), "name": .string("lamp \(i % 97) shade \(i % 13) bulb \(i) stand \(i % 31)"),
             "brand": .string("Brand \(i % 40)"), "price": .int(Int64(i % 500)), "rank": .int(Int64(i % 7))]
        }
        let expected: [String]
        let derived: URL
        do {
            let index = try SearchEngine(directory: directory.url).index("big")
            try index.setSettings(FileIntegrityTests.settings)
            try index.saveObjects(records)
            // The process that wrote it searches the stored file too, mapped, not the arrays it built.
            #expect(index.live.state.base.postingDocs.isMapped)
            expected = try FileIntegrityTests.answers(index)
            derived = URL(fileURLWithPath: index.store.derivedPath)
        }
        let reopened = try SearchEngine(directory: directory.url).index("big")
        let base = reopened.live.state.base
        #expect(base.postingDocs.isMapped && base.postingMasks.isMapped && base.forward.terms.isMapped)
        #expect(try FileIntegrityTests.answers(reopened) == expected)

        let original = [UInt8](try Data(contentsOf: derived))
        try #require(original.count > 64 + SnapshotFile.checksumPiece + 1_000, "\(original.count) bytes: one checksum piece only")
        // The file streamed to disk holds what the snapshot encodes in memory.
        #expect(Array(original.dropFirst(64)) == reopened.live.state.base.encoded())
        for offset in [100, 64 + SnapshotFile.checksumPiece + 100, original.count - 5] {
            var damaged = original
            damaged[offset] ^= 0x01
            try Data(damaged).write(to: derived, options: .atomic)
            let afterDamage = try SearchEngine(directory: directory.url).index("big")
            #expect(try FileIntegrityTests.answers(afterDamage) == expected, "byte \(offset) of \(original.count)")
            #expect(try FileIntegrityTests.derivedFileIsValid(afterDamage))
            #expect([UInt8](try Data(contentsOf: derived)) == original, "rebuilt as it was")
        }
    }

    @Test func anotherIndexsDerivedFileIsNotUsed() throws {
        let directory = TemporaryDirectory()
        let expected: [String]
        do {
            let engine = try SearchEngine(directory: directory.url)
            // Same settings, same number of records, same sequence of writes: the same
            // generation and fingerprint. Only the identity tells the files apart.
            let mine = try engine.index("mine")
            let other = try engine.index("other")
            for (index, prefix) in [(mine, "red"), (other, "blue")] {
                try index.setSettings(FileIntegrityTests.settings)
                try index.saveObjects(FileIntegrityTests.records(prefix))
            }
            #expect(try mine.store.generation() == other.store.generation())
            #expect(mine.store.indexID != other.store.indexID)
            expected = try FileIntegrityTests.answers(mine)
            let configuration = try IndexConfiguration(settings: mine.settings)
            #expect(SnapshotFile.read(from: other.store.derivedPath, indexID: mine.store.indexID, configuration: configuration,
                                      generations: 0...(try mine.store.generation())) == nil)
            try FileManager.default.removeItem(atPath: mine.store.derivedPath)
            try FileManager.default.copyItem(atPath: other.store.derivedPath, toPath: mine.store.derivedPath)
        }
        let reopened = try SearchEngine(directory: directory.url).index("mine")
        #expect(try FileIntegrityTests.answers(reopened) == expected)
        #expect(try reopened.search("blue").nbHits == 0)
        #expect(try FileIntegrityTests.derivedFileIsValid(reopened))
    }

    @Test func aDerivedFileFromAnEarlierGenerationIsNotUsed() throws {
        let directory = TemporaryDirectory()
        let engine = try SearchEngine(directory: directory.url)
        let index = try engine.index("things")
        try index.saveObjects(FileIntegrityTests.records("red"))
        let older = try Data(contentsOf: URL(fileURLWithPath: index.store.derivedPath))
        try index.saveObjects([["objectID": "new", "name": "green lamp"]])
        try older.write(to: URL(fileURLWithPath: index.store.derivedPath))
        let reopened = try SearchEngine(directory: directory.url).index("things")
        #expect(try reopened.search("green").objectIDs == ["new"])
        #expect(reopened.recordCount == 61)
    }

    @Test func textMadeByAnotherTokenizerVersionIsRefilledOnTheNextWrite() throws {
        let directory = TemporaryDirectory()
        let index = try SearchEngine(directory: directory.url).index("things")
        try index.saveObjects([["objectID": "1", "name": "STRAẞE"]])
        let file = directory.url.appendingPathComponent("things.index.sqlite").path
        func storedVersion() throws -> String {
            let statement = try SQLiteConnection(path: file).statement("SELECT value FROM meta WHERE key = 'tokenizerVersion'")
            return try statement.step() ? statement.string(0) : "none"
        }
        #expect(try storedVersion() == String(Tokenizer.version))
        // As an index written before the version was kept.
        try SQLiteConnection(path: file).execute("DELETE FROM meta WHERE key = 'tokenizerVersion'")
        try index.saveObjects([["objectID": "2", "name": "Straße"]])
        #expect(try storedVersion() == String(Tokenizer.version))
        #expect(try index.store.ftsMatch(words: ["strasse"], lastIsPrefix: false) == ["1", "2"])
        #expect(Set(try index.search("strasse").objectIDs) == ["1", "2"])
    }

    // MARK: Temporary files

    /// The id of a process that has ended.
    static func endedProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func temporaryFilesOfAKilledRebuildAreRemovedOnOpen() throws {
        let directory = TemporaryDirectory()
        do { try SearchEngine(directory: directory.url).index("things").saveObjects(FileIntegrityTests.records("red")) }
        let folder = directory.url.path
        let dead = try FileIntegrityTests.endedProcessID()
        let alive = ProcessInfo.processInfo.processIdentifier
        let stale = ["things.index.derived.\(dead).12345.tmp", "things.index.sqlite.\(dead).7.tmp", "things.index.sqlite.\(dead).7.tmp-wal"]
        let oldButAlive = "things.index.derived.\(alive).99.tmp"
        let kept = ["things.index.derived.\(alive).42.tmp",        // this process may be writing it
                    "things.index.derived.notes", "other.index.derived.\(dead).1.tmp", "things.index.derived.x.1.tmp"]
        for name in stale + kept + [oldButAlive] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("partial".utf8)))
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * 24 * 3600)],
                                              ofItemAtPath: folder + "/" + oldButAlive)
        let index = try SearchEngine(directory: directory.url).index("things")
        #expect(index.recordCount == 60)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        for name in stale + [oldButAlive] { #expect(!left.contains(name), "\(name) is left") }
        for name in kept { #expect(left.contains(name), "\(name) was removed") }
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        let directory = TemporaryDirectory()
        let index = try SearchEngine(directory: directory.url).index("things")
        try index.saveObjects(FileIntegrityTests.records("red"))
        try index.setSettings(FileIntegrityTests.settings)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.contains(".tmp") }, "\(names)")
    }

    // MARK: The database file

    /// Opens `things` in `directory` after `damage` was done to its closed database file, and
    /// returns the error.
    static func openError(after damage: (URL) throws -> Void) throws -> SearchError? {
        let directory = TemporaryDirectory()
        do {
            let index = try SearchEngine(directory: directory.url).index("things")
            try index.saveObjects((0..<300).map { ["objectID": .string("\($0)"), "text": .string(String(repeating: "word\($0) ", count: 20))] })
        }
        let file = directory.url.appendingPathComponent("things.index.sqlite")
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"), "closed: no write-ahead log")
        try damage(file)
        return expectSearchError { _ = try SearchEngine(directory: directory.url).index("things").search("word1") }
    }

    @Test func aDatabaseTruncatedToZeroBytesIsDamagedNotEmpty() throws {
        let error = try FileIntegrityTests.openError { try Data().write(to: $0) }
        #expect(error?.status == 500)
        #expect(error?.message.contains("things.index.sqlite is damaged: the file is empty (0 bytes). Restore it from a backup, or delete it and import the records again") == true, "\(error?.message ?? "")")
    }

    @Test func aDatabaseOfGarbageIsDamaged() throws {
        let error = try FileIntegrityTests.openError { file in
            var generator = SeededGenerator(seed: 3)
            try Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: file)
        }
        #expect(error?.message.contains("is damaged: the file (8192 bytes) does not start with SQLite's header") == true, "\(error?.message ?? "")")
    }

    @Test func aDatabaseCutShortIsDamaged() throws {
        let error = try FileIntegrityTests.openError { file in
            let bytes = try Data(contentsOf: file)
            try bytes.prefix(bytes.count / 2).write(to: file)
        }
        #expect(error?.message.contains("is damaged: the file holds") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("it was cut short") == true)
    }

    @Test func anotherProgramsDatabaseIsNotTakenForAnIndex() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("things.index.sqlite")
        do { try SQLiteConnection(path: file.path).execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')") }
        let error = expectSearchError { _ = try SearchEngine(directory: directory.url).index("things") }
        #expect(error?.message.contains("is a SQLite database but not an index") == true, "\(error?.message ?? "")")
        // Nothing was added to it.
        let connection = try SQLiteConnection(path: file.path)
        let statement = try connection.statement("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        #expect(try statement.step() && statement.int64(0) == 1)
    }

    @Test func aNewIndexIsCreatedWholeAndAnIndexFromBeforeTheIdentityGetsOne() throws {
        let directory = TemporaryDirectory()
        let index = try SearchEngine(directory: directory.url).index("fresh")
        #expect(index.recordCount == 0)
        #expect(index.store.indexID.count == 32)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".tmp") }.isEmpty)
        // An index made before indexID existed gets one when it is opened.
        let old = directory.url.appendingPathComponent("old.index.sqlite").path
        do {
            let connection = try SQLiteConnection(path: old)
            try connection.execute(RecordStore.schemaSQL + "DELETE FROM meta WHERE key = 'indexID';")
        }
        let reopened = try SearchEngine(directory: directory.url).index("old")
        #expect(reopened.store.indexID.count == 32)
        #expect(reopened.store.indexID != index.store.indexID)
    }
}
