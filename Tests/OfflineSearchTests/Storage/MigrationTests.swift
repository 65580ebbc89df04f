import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// A data folder written by version 0.7.0 (before the change log and the delta segments:
/// `Fixtures/data-0.7.0`, 40 generated products imported by that version's benchmark tool)
/// opens after the change: the database gains the change log, the derived file of the older
/// format is derived anew, and the index answers as one made now from the same records.
@Suite struct MigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/data-0.7.0")

    @Test func aFolderWrittenByVersion070OpensAndTakesIncrementalWrites() throws {
        let directory = TemporaryDirectory()
        for file in ["products.index.sqlite", "products.index.derived"] {
            try FileManager.default.copyItem(at: MigrationTests.fixture.appendingPathComponent(file),
                                             to: directory.url.appendingPathComponent(file))
        }
        let index = try SearchEngine(directory: directory.url).index("products")
        #expect(index.recordCount == 40)
        #expect(!index.settings.values.isEmpty)

        // The same records and settings, imported now.
        let fresh = try TestEngine()
        let reference = try fresh.engine.index("products")
        try reference.setSettings(index.settings.values)
        try reference.saveObjects(try index.store.allRecords().map { .object($0.record) })
        func answers(_ index: SearchIndex) throws -> [String] {
            try ["", "sam", "phone case", "wireless charger"].map { query in
                guard case .object(var response) = try index.search(query, ["getRankingInfo": true, "facets": ["*"]]).jsonValue
                else { return "" }
                response["processingTimeMS"] = nil
                return JSONValue.object(response).jsonString
            }
        }
        #expect(try answers(index) == answers(reference))

        // The first write re-reads every record, since the folder's words were made by an older
        // tokenizer (`Tokenizer.version`); the next writes go to the delta (the change log was
        // added on open), and survive a reopen.
        let records = try index.store.allRecords().map(\.record)
        var retokenized = records[1]
        retokenized["name"] = "Retokenized record"
        try index.saveObjects([.object(retokenized)])
        try reference.saveObjects([.object(retokenized)])
        #expect(index.deltaCount == 0)
        var changed = records[0]
        changed["name"] = "Migrated record"
        try index.saveObjects([.object(changed)])
        try reference.saveObjects([.object(changed)])
        #expect(index.deltaCount == 1)
        #expect(try answers(index) == answers(reference))
        let reopened = try SearchEngine(directory: directory.url).index("products")
        #expect(reopened.deltaCount == 1)
        #expect(try answers(reopened) == answers(reference))
        #expect(try reopened.search("migrated").nbHits == 1)
    }
}
