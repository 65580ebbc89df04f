import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// The durable side: the FTS5 table follows every kind of write, and the derived index is
/// reloaded, or rebuilt when it is missing.
@Suite struct StorageTests {
    static let records: [JSONValue] = [
        ["objectID": "a", "name": "Alpha lamp"],
        ["objectID": "b", "name": "Bravo lamp"],
        ["objectID": "c", "name": "Charlie desk"],
    ]

    /// The FTS5 answer and the engine's answer for one word, as objectID sets.
    func agree(_ index: SearchIndex, _ word: String, _ expected: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fts = try index.store.ftsMatch(words: [word], lastIsPrefix: false)
        let engine = Set(try index.search(word, ["hitsPerPage": 1000, "queryType": "prefixNone"]).objectIDs)
        #expect(fts == expected, "FTS5 for \(word)", sourceLocation: sourceLocation)
        #expect(engine == expected, "engine for \(word)", sourceLocation: sourceLocation)
    }

    @Test func replacingAndDeletingRecordsKeepsFTS5InStep() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: StorageTests.records)
        try agree(index, "lamp", ["a", "b"])
        // Replace b: its old words must leave FTS5, its new ones arrive.
        try index.saveObjects([["objectID": "b", "name": "Bravo chair"]])
        try agree(index, "lamp", ["a"])
        try agree(index, "chair", ["b"])
        // The same objectID twice in one batch: the last version wins everywhere.
        try index.saveObjects([["objectID": "c", "name": "Charlie sofa"], ["objectID": "c", "name": "Charlie stool"]])
        try agree(index, "desk", [])
        try agree(index, "sofa", [])
        try agree(index, "stool", ["c"])
        try index.deleteObjects(["a", "missing"])
        try agree(index, "alpha", [])
        #expect(index.recordCount == 2)
        try index.clearObjects()
        try agree(index, "charlie", [])
        #expect(index.recordCount == 0)
    }

    @Test func anIndexReopensFromItsStoredDerivedIndexOrRebuildsIt() throws {
        let directory = TemporaryDirectory()
        do {
            let engine = try SearchEngine(directory: directory.url)
            let index = try engine.index("things")
            try index.setSettings(["searchableAttributes": ["name"], "customRanking": ["desc(rank)"]])
            try index.saveObjects([["objectID": "1", "name": "red lamp", "rank": 1], ["objectID": "2", "name": "red desk", "rank": 2]])
        }
        // A new engine on the same directory answers without re-importing.
        let reopened = try SearchEngine(directory: directory.url).index("things")
        #expect(try reopened.search("red").objectIDs == ["2", "1"])
        #expect(reopened.settings.customRanking == ["desc(rank)"])

        // A lost derived index is rebuilt from the records on open.
        let derived = directory.url.appendingPathComponent("things.index.derived")
        #expect(FileManager.default.fileExists(atPath: derived.path))
        try FileManager.default.removeItem(at: derived)
        let rebuilt = try SearchEngine(directory: directory.url).index("things")
        #expect(try rebuilt.search("red").objectIDs == ["2", "1"])
        #expect(try rebuilt.search("lamp").objectIDs == ["1"])
        #expect(FileManager.default.fileExists(atPath: derived.path))

        // A corrupt one too.
        try Data("not a snapshot".utf8).write(to: derived)
        #expect(try SearchEngine(directory: directory.url).index("things").search("red").nbHits == 2)
    }

    @Test func facetsAndFiltersAnswerTheSameAfterReopening() throws {
        let directory = TemporaryDirectory()
        let parameters: JSONObject = ["facets": ["brand", "price"], "filters": "(brand:ÉCHO OR brand:\"Brand 1\") AND price > 20", "hitsPerPage": 10]
        let before: SearchResponse
        do {
            let index = try SearchEngine(directory: directory.url).index("shop")
            try index.setSettings(["attributesForFaceting": ["brand", "price"]])
            var records: [JSONValue] = []
            for i in 0..<50 {
                let brand: JSONValue = .string(i % 3 == 0 ? "Écho" : "Brand \(i % 5)")
                let record: JSONObject = ["objectID": .string("\(i)"), "name": .string("item \(i)"), "brand": brand,
                                          "price": .double(Double(i) + 0.5)]
                records.append(.object(record))
            }
            try index.saveObjects(records)
            before = try index.search("item", parameters)
        }
        let after = try SearchEngine(directory: directory.url).index("shop").search("item", parameters)
        #expect(before.nbHits > 0)
        #expect(after.nbHits == before.nbHits)
        #expect(after.objectIDs == before.objectIDs)
        #expect(after.facets == before.facets)
        #expect(after.facetsStats == before.facetsStats)
    }

    @Test func aFailedWriteKeepsEverythingAsItWas() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: StorageTests.records)
        let invalid: [JSONValue] = [["objectID": "d", "name": "Delta"], ["objectID": ["not", "a", "string"]]]
        #expect(throws: SearchError.self) { try index.saveObjects(invalid) }
        #expect(index.recordCount == 3)
        try agree(index, "delta", [])
        #expect(throws: SearchError.self) { try index.setSettings(["customRanking": ["sideways(x)"]]) }
        #expect(index.settings.customRanking == nil)
        #expect(try index.search("lamp").nbHits == 2)
    }
}

@Suite struct FacetCounterSelectionTests {
    @Test(arguments: [0, 1, 5, 100, 2000])
    func smallestEqualsAFullSortPrefix(k: Int) {
        var generator = SystemRandomNumberGenerator()
        let elements = (0..<1500).map { _ in Int.random(in: 0..<400, using: &generator) }
        let expected = Array(elements.sorted().prefix(k))
        #expect(FacetCounter.smallest(k, of: elements, by: <) == expected)
    }
}

@Suite struct PostingPositionsTests {
    /// The sparse table answers every posting's position as the dense array would.
    @Test(arguments: [0, 1, 63, 64, 65, 1000])
    func sparseTableMatchesTheDenseArray(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count))
        for zeros in [0, 50, 95, 100] {
            let dense = (0..<count).map { _ in generator.chance(zeros) ? UInt16(0) : UInt16.random(in: 1...999, using: &generator) }
            let table = PostingPositions(dense: dense)
            #expect(dense.indices.allSatisfy { table.position(ofPosting: $0) == dense[$0] }, "\(count) postings, \(zeros)% zeros")
            #expect(table.positions.count == dense.filter { $0 != 0 }.count)
        }
    }

    /// A cursor started at any posting reads the positions from there in turn, as the table
    /// answers them one by one.
    @Test(arguments: [0, 1, 63, 64, 65, 1000])
    func aCursorReadsThePositionsInTurn(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count) + 7)
        for zeros in [0, 50, 95, 100] {
            let dense = (0..<count).map { _ in generator.chance(zeros) ? UInt16(0) : UInt16.random(in: 1...999, using: &generator) }
            let table = PostingPositions(dense: dense)
            for start in Set([0, count / 3, max(count - 1, 0), 63, 64, 65].filter { $0 <= count }) {
                // A few past the end too: a cursor there reads 0.
                let read = table.withCursor(at: start) { cursor in (start..<(count + 3)).map { _ in cursor.next() } }
                #expect(read == Array(dense[start...]) + [0, 0, 0], "\(count) postings, \(zeros)% zeros, from \(start)")
            }
        }
    }
}
