import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - Concurrency

@Suite struct EngineConcurrencyTests {
    static let baseCount = 40
    static let batchCount = 6
    static let batchSize = 10

    static func batch(_ k: Int) -> [JSONValue] {
        (0..<batchSize).map { i in ["objectID": .string("b\(k)-\(i)"), "name": "widget", "batch": .string("\(k)")] }
    }

    /// The objectIDs after `k` batches.
    static func expectedIDs(afterBatches k: Int) -> Set<String> {
        var result = Set((0..<baseCount).map { "base-\($0)" })
        for b in 0..<k { for i in 0..<batchSize { result.insert("b\(b + 1)-\(i)") } }
        return result
    }

    @Test func searchesDuringImportsSeeWholeBatchesOnly() async throws {
        let engine = try TestEngine()
        let base: [JSONValue] = (0..<EngineConcurrencyTests.baseCount).map { ["objectID": .string("base-\($0)"), "name": "widget", "batch": "0"] }
        let index = try engine.index(settings: ["attributesForFaceting": ["batch"]], records: base)
        let valid = Set((0...EngineConcurrencyTests.batchCount).map { EngineConcurrencyTests.baseCount + $0 * EngineConcurrencyTests.batchSize })

        let observed = try await withThrowingTaskGroup(of: [Int].self) { group in
            group.addTask {
                for k in 1...EngineConcurrencyTests.batchCount {
                    try index.saveObjects(EngineConcurrencyTests.batch(k))
                    await Task.yield()
                }
                return []
            }
            for _ in 0..<8 {
                group.addTask {
                    var seen: [Int] = []
                    for _ in 0..<20 {
                        let response = try index.search("widget", ["hitsPerPage": 1000, "facets": ["batch"]])
                        seen.append(response.nbHits)
                        #expect(valid.contains(response.nbHits), "partial state: nbHits \(response.nbHits)")
                        #expect(response.hits.count == response.nbHits)
                        let k = (response.nbHits - EngineConcurrencyTests.baseCount) / EngineConcurrencyTests.batchSize
                        #expect(ids(response) == EngineConcurrencyTests.expectedIDs(afterBatches: k))
                        let counts = response.facet("batch")
                        #expect(counts?["0"] == EngineConcurrencyTests.baseCount)
                        #expect(counts?.values.count == k + 1)
                        #expect(counts?.values.map(\.count).reduce(0, +) == response.nbHits)
                        await Task.yield()
                    }
                    return seen
                }
            }
            var all: [Int] = []
            for try await seen in group { all += seen }
            return all
        }
        #expect(observed.count == 8 * 20)
        #expect(index.recordCount == EngineConcurrencyTests.baseCount + EngineConcurrencyTests.batchCount * EngineConcurrencyTests.batchSize)
        #expect(try index.search("widget").nbHits == index.recordCount)
    }
}

/// Two engines on one folder, as two processes: an index one deletes (or deletes and makes
/// again) is not searched or written from its old file by the other.
@Suite struct DeletedElsewhereTests {
    @Test func anIndexDeletedByAnotherEngineIsGoneAndOneMadeAgainIsTheNewOne() throws {
        let test = try TestEngine()
        let held = try test.index("x", records: [["objectID": "old", "name": "phone"]])
        #expect(try test.engine.existingIndex("x").search(SearchParameters(query: "phone")).nbHits == 1)

        let other = try SearchEngine(directory: test.directory.url)
        try other.deleteIndex("x")
        #expect(!test.engine.exists("x"))
        #expect(throws: SearchError.self) { try test.engine.existingIndex("x") }
        #expect(try test.engine.listIndices().items.isEmpty)
        // A write through the handle opened before would go to the unlinked file: refused, nothing lost silently.
        let refused = #expect(throws: SearchError.self) { try held.saveObjects([["objectID": "lost", "name": "phone"]]) }
        #expect(refused?.status == 404 && refused?.message.contains("deleted") == true)

        try other.index("x").saveObjects([["objectID": "new", "name": "phone"]])
        let again = try test.engine.existingIndex("x")
        #expect(again !== held)
        let hits = try again.search(SearchParameters(query: "phone")).hits.compactMap { $0["objectID"]?.stringValue }
        #expect(hits == ["new"])
        // Written through this engine now, the other sees it.
        try test.engine.index("x").saveObjects([["objectID": "mine", "name": "phone"]])
        #expect(try other.existingIndex("x").search(SearchParameters(query: "phone")).nbHits == 2)
    }

    @Test func anIndexReplacedWithNoLookupBetweenIsTheNewOne() throws {
        let test = try TestEngine()
        let held = try test.index("x", records: [["objectID": "old", "name": "phone"]])
        let other = try SearchEngine(directory: test.directory.url)
        try other.deleteIndex("x")
        try other.index("x").saveObjects([["objectID": "new", "name": "phone"]])
        // The file at the path exists: another one.
        let refused = #expect(throws: SearchError.self) { try held.saveObjects([["objectID": "lost", "name": "phone"]]) }
        #expect(refused?.status == 404)
        let hits = try test.engine.existingIndex("x").search(SearchParameters(query: "phone")).hits.compactMap { $0["objectID"]?.stringValue }
        #expect(hits == ["new"])
        #expect(try other.existingIndex("x").search(SearchParameters(query: "phone")).nbHits == 1)
    }

    @Test func aHandleToAnIndexThisEngineDeletedOrMovedRefusesWrites() throws {
        let test = try TestEngine()
        let deleted = try test.index("gone", records: [["objectID": "1", "name": "phone"]])
        try test.engine.deleteIndex("gone")
        #expect(throws: SearchError.self) { try deleted.saveObjects([["objectID": "2", "name": "phone"]]) }
        #expect(!test.engine.exists("gone"))

        let source = try test.index("source", records: [["objectID": "1", "name": "phone"]])
        try test.engine.moveIndex("source", to: "destination")
        #expect(throws: SearchError.self) { try source.saveObjects([["objectID": "2", "name": "phone"]]) }
        #expect(try test.engine.existingIndex("destination").search(SearchParameters(query: "phone")).nbHits == 1)
        #expect(!test.engine.exists("source"))
    }
}
