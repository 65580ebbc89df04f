import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Imports read a batch of records at a time (memory bounded by a batch, one
/// tokenization for the index and its FTS5 text). The streamed import must leave exactly what
/// saving the same records at once leaves: the same answers (hits, order, facets, highlights,
/// ranking info), the same FTS5 matches, and nothing at all when the file is invalid anywhere.
/// Small thresholds (stream past 50 records, batches of 40) make a few hundred records stream.
@Suite struct StreamedImportTests {
    static let settings = IncrementalUpdateTests.settings

    static func records(_ ids: some Sequence<Int>, seed: UInt64) -> [JSONValue] {
        var generator = SeededGenerator(seed: seed)
        return ids.map { IncrementalUpdateTests.record($0, using: &generator) }
    }

    static func text(_ records: [JSONValue], lines: Bool) -> [UInt8] {
        let body = lines ? records.map(\.jsonString).joined(separator: "\n")
            : "[\n" + records.map(\.jsonString).joined(separator: ",\n") + "\n]"
        return Array(body.utf8)
    }

    @discardableResult
    static func importStreamed(_ index: SearchIndex, _ text: [UInt8], replace: Bool = false,
                               settings: JSONObject? = nil) throws -> SearchIndex.ImportReport {
        try text.withUnsafeBufferPointer { buffer in
            try index.importRecords(utf8: buffer, source: "records.json", replaceExisting: replace, settings: settings,
                                    streamFrom: 50, batchSize: 40)
        }
    }

    /// What the FTS5 table finds for every word of the records' vocabulary, exactly and as a prefix.
    static func textMatches(_ index: SearchIndex) throws -> [Set<String>] {
        let words = IncrementalUpdateTests.vocabulary + IncrementalUpdateTests.brands.map { $0.lowercased() } + ["g1", "ph", "s"]
        return try words.flatMap { word in
            [try index.store.ftsMatch(words: [word], lastIsPrefix: false), try index.store.ftsMatch(words: [word], lastIsPrefix: true)]
        }
    }

    static func expectSameIndex(_ streamed: SearchIndex, _ reference: SearchIndex, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(streamed.recordCount == reference.recordCount, sourceLocation: sourceLocation)
        #expect(try IncrementalUpdateTests.answers(streamed) == IncrementalUpdateTests.answers(reference), sourceLocation: sourceLocation)
        #expect(try textMatches(streamed) == textMatches(reference), sourceLocation: sourceLocation)
    }

    /// Into a new index, as a JSON array and as JSON Lines; objectIDs repeated within a batch and
    /// across batches (the last version is kept, at the first one's place, and the FTS5 table
    /// holds only its text).
    @Test(arguments: [false, true]) func aStreamedImportAnswersAsSavingTheRecords(lines: Bool) throws {
        var records = StreamedImportTests.records(0..<300, seed: 11)
        records += StreamedImportTests.records([5, 77, 120, 299], seed: 12)   // across batches
        records.insert(StreamedImportTests.records([200], seed: 13)[0], at: 202)  // within one
        let engine = try TestEngine(), other = try TestEngine()   // answers name their index: one name
        let streamed = try engine.index(settings: StreamedImportTests.settings, records: [])
        let report = try StreamedImportTests.importStreamed(streamed, StreamedImportTests.text(records, lines: lines))
        #expect(report.recordCount == records.count)
        #expect(streamed.recordCount == 300)
        let reference = try other.index(settings: StreamedImportTests.settings, records: records)
        try StreamedImportTests.expectSameIndex(streamed, reference)
        // Derived anew in the import's transaction: no delta, and the stored file answers the same.
        #expect(streamed.live.state.deltaCount == 0)
        let reopened = try SearchEngine(directory: engine.directory.url).index("test")
        #expect(try IncrementalUpdateTests.answers(reopened) == IncrementalUpdateTests.answers(reference))
    }

    /// Into an index holding records: those the file does not name stay (their text too), those
    /// it names are replaced.
    @Test func aStreamedAppendKeepsAndReplacesStoredRecords() throws {
        let first = StreamedImportTests.records(0..<100, seed: 21)
        let more = StreamedImportTests.records(50..<250, seed: 22)
        let engine = try TestEngine(), other = try TestEngine()
        let streamed = try engine.index(settings: StreamedImportTests.settings, records: first)
        try StreamedImportTests.importStreamed(streamed, StreamedImportTests.text(more, lines: false))
        let reference = try other.index(settings: StreamedImportTests.settings, records: first)
        try reference.saveObjects(more)
        #expect(streamed.recordCount == 250)
        try StreamedImportTests.expectSameIndex(streamed, reference)
    }

    /// Stored records named twice in the file, in different batches (the FTS5 table is filled
    /// again), and new searchable attributes without `--replace` (the untouched records' text is
    /// written again into the new table).
    @Test func aStreamedAppendWithRepeatsAndNewSearchableAttributes() throws {
        let first = StreamedImportTests.records(0..<100, seed: 61)
        var more = StreamedImportTests.records(80..<200, seed: 62)
        more += StreamedImportTests.records([85, 150], seed: 63)
        let patch: JSONObject = ["searchableAttributes": ["brand", "name"]]
        let engine = try TestEngine(), other = try TestEngine()
        let streamed = try engine.index(settings: StreamedImportTests.settings, records: first)
        try StreamedImportTests.importStreamed(streamed, StreamedImportTests.text(more, lines: false), settings: patch)
        let reference = try other.index(settings: StreamedImportTests.settings, records: first)
        try reference.setSettings(patch)
        try reference.saveObjects(more)
        #expect(streamed.recordCount == 200)
        try StreamedImportTests.expectSameIndex(streamed, reference)
    }

    /// A named pipe (`offline-search import idx <(zcat records.json.gz)`): its size says nothing,
    /// so it is read to its end, not mapped.
    @Test func aNamedPipeIsReadToItsEnd() throws {
        let directory = TemporaryDirectory()
        let pipe = directory.url.appendingPathComponent("records.fifo")
        try #require(mkfifo(pipe.path, 0o600) == 0)
        let text = StreamedImportTests.text(StreamedImportTests.records(0..<120, seed: 71), lines: true)
        let writer = Thread {
            let descriptor = open(pipe.path, O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
            close(descriptor)
        }
        writer.start()
        let engine = try TestEngine()
        let index = try engine.engine.index("piped")
        let report = try index.importRecords(from: pipe)
        #expect(report.recordCount == 120)
        #expect(index.recordCount == 120)
    }

    /// `--replace --settings` with new searchable attributes (a new FTS5 table): one transaction,
    /// the old records gone, the new ones under the new settings.
    @Test func aStreamedReplaceWithNewSearchableAttributes() throws {
        let old = StreamedImportTests.records(0..<100, seed: 31)
        let new = StreamedImportTests.records(60..<260, seed: 32)
        let patch: JSONObject = ["searchableAttributes": ["unordered(description)", "brand"], "customRanking": ["asc(price)"]]
        let engine = try TestEngine(), other = try TestEngine()
        let streamed = try engine.index(settings: StreamedImportTests.settings, records: old)
        try StreamedImportTests.importStreamed(streamed, StreamedImportTests.text(new, lines: true), replace: true, settings: patch)
        let reference = try other.index(settings: StreamedImportTests.settings, records: [])
        try reference.setSettings(patch)
        try reference.saveObjects(new)
        #expect(streamed.settings.customRanking == ["asc(price)"])
        try StreamedImportTests.expectSameIndex(streamed, reference)
    }

    /// Invalid JSON, or an invalid record, late in the file: the error names the line (or the
    /// record), and nothing of the import is kept: not the batches written before it, not the
    /// settings sent with it.
    @Test func anErrorLateInTheFileKeepsNothing() throws {
        let engine = try TestEngine()
        let index = try engine.index("kept", settings: StreamedImportTests.settings, records: StreamedImportTests.records(0..<100, seed: 41))
        let before = try IncrementalUpdateTests.answers(index)
        let generation = index.live.state.generation
        let records = StreamedImportTests.records(1000..<1300, seed: 42)

        var broken = records.map(\.jsonString)
        broken[250] = #"{"objectID": "bad", "name": }"#
        let text = Array(("[\n" + broken.joined(separator: ",\n") + "\n]").utf8)
        do {
            try StreamedImportTests.importStreamed(index, text, replace: true, settings: ["hitsPerPage": 7])
            Issue.record("an invalid file was imported")
        } catch let error as SearchError {
            #expect(error.kind == .invalidJSON)
            #expect(error.message.contains("records.json: Invalid JSON at line 252, column 29"), "\(error.message)")
        }

        var wrongID = records
        wrongID[260] = ["objectID": true, "name": "x"]
        do {
            try StreamedImportTests.importStreamed(index, StreamedImportTests.text(wrongID, lines: true))
            Issue.record("a record with a boolean objectID was imported")
        } catch let error as SearchError {
            #expect(error.message.contains("record 261: objectID must be a string or a number"), "\(error.message)")
        }

        #expect(index.recordCount == 100)
        #expect(index.settings.values["hitsPerPage"] == nil)
        #expect(index.live.state.generation == generation)
        #expect(try IncrementalUpdateTests.answers(index) == before)
        #expect(try IncrementalUpdateTests.answers(SearchEngine(directory: engine.directory.url).index("kept")) == before)
    }

    /// The forward index's words written to a temporary file as they are accumulated, and read
    /// back to be laid out, give the very snapshot kept in memory gives, whatever the document
    /// order (a custom ranking reorders the records; none keeps them in insertion order).
    @Test(arguments: [true, false]) func spilledWordsLayOutAsWordsInMemory(customRanking: Bool) throws {
        var settings = StreamedImportTests.settings
        if !customRanking { settings["customRanking"] = nil }
        let configuration = try IndexConfiguration(settings: IndexSettings(json: settings))
        let inputs = StreamedImportTests.records(0..<400, seed: 51).enumerated().map { position, record in
            SnapshotBuilder.Input(rowID: Int64(position + 1), record: record.objectValue!)
        }
        var inMemory = SnapshotAccumulator(configuration: configuration)
        var spilled = SnapshotAccumulator(configuration: configuration, spillFrom: 64)
        for batch in stride(from: 0, to: inputs.count, by: 37).map({ inputs[$0..<min($0 + 37, inputs.count)] }) {
            inMemory.add(Array(batch))
            spilled.add(Array(batch))
        }
        let expected = try inMemory.finish(generation: 3)
        let actual = try spilled.finish(generation: 3)
        #expect(actual.encoded() == expected.encoded())
        #expect(actual.encoded() == SnapshotBuilder.build(inputs, configuration: configuration, generation: 3).encoded())

        // Inputs superseded by later ones with the same rowid, spilled or not: the snapshot of
        // the inputs kept.
        var replaced = inputs
        for position in [3, 150, 399] { replaced[position].record["name"] = "replaced version" }
        var superseding = SnapshotAccumulator(configuration: configuration, spillFrom: 64)
        superseding.add(inputs)
        superseding.add([3, 150, 399].map { replaced[$0] })
        for position in [3, 150, 399] { superseding.supersede(inputAt: position) }
        #expect(try superseding.finish(generation: 3).encoded()
            == SnapshotBuilder.build(replaced, configuration: configuration, generation: 3).encoded())
    }
}
