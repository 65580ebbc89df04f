import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Deleting, copying and moving whole indices while other threads write to them: no write
/// that returned is lost, a deletion never comes back as an empty index, and a copy is of one
/// state. Threads (not tasks): the engine's writes block, as the server's run off Swift
/// concurrency's threads; they are joined aside (`onThreadAside`), never on one of those.
@Suite struct WholeIndexOperationTests {
    /// Runs `work` on `count` threads at once and waits for all of them.
    static func onThreads(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) async throws {
        let group = DispatchGroup()
        for thread in 0..<count {
            group.enter()
            Thread.detachNewThread {
                work(thread)
                group.leave()
            }
        }
        try await onThreadAside { group.wait() }
    }

    /// Every objectID of every index in the engine.
    static func allObjectIDs(_ engine: SearchEngine) throws -> Set<String> {
        var found = Set<String>()
        for name in engine.indexNames() {
            let page = try engine.existingIndex(name).browse(SearchParameters())
            for hit in page.response.hits { if let id = hit["objectID"]?.stringValue { found.insert(id) } }
        }
        return found
    }

    @Test func aHandleToADeletedIndexRefusesWritesAndTheEngineWritesToTheIndexMadeAnew() throws {
        let test = try TestEngine()
        let old = try test.index("a", records: [["objectID": "1"]])
        try test.engine.deleteIndex("a")
        #expect(throws: SearchError.self) { try old.saveObjects([["objectID": "lost"]]) }
        #expect(!test.engine.exists("a"))
        try test.engine.write(to: "a") { index throws(SearchError) in try index.saveObjects([["objectID": "2"]]) }
        #expect(try test.engine.existingIndex("a").recordCount == 1)
        // A deletion alone does not make an index.
        try test.engine.deleteIndex("a")
        let deleted: Void? = try test.engine.write(to: "a", creating: false) { index throws(SearchError) in try index.deleteObjects(["2"]) }
        #expect(deleted == nil && !test.engine.exists("a"))
    }

    @Test func savesBesideMovesOfTheirIndexAreNeverLost() async throws {
        let test = try TestEngine()
        try test.index("source", records: [["objectID": "seed"]])
        let saved = LockedValue<Set<String>>([])
        try await WholeIndexOperationTests.onThreads(3) { thread in
            if thread == 0 {
                // The source moved away again and again, while the others save to it.
                for round in 0..<15 {
                    try? test.engine.moveIndex("source", to: "moved-\(round)")
                    Thread.sleep(forTimeInterval: 0.002)
                }
                return
            }
            for i in 0..<60 {
                let id = "t\(thread)-\(i)"
                let done = try? test.engine.write(to: "source") { index throws(SearchError) in try index.saveObjects([["objectID": .string(id)]]) }
                if done != nil { _ = saved.modify { $0.insert(id) } }
            }
        }
        let found = try WholeIndexOperationTests.allObjectIDs(test.engine)
        #expect(saved.value.count == 120)
        #expect(saved.value.subtracting(found).isEmpty, "saved, answered, then lost: \(saved.value.subtracting(found).sorted().prefix(10))")
    }

    @Test func deletionsBesideADeleteOfTheirIndexNeverMakeItAgain() async throws {
        for _ in 0..<5 {
            let test = try TestEngine()
            try test.index("gone", records: (0..<50).map { ["objectID": .string("\($0)")] })
            try await WholeIndexOperationTests.onThreads(3) { thread in
                if thread == 0 {
                    Thread.sleep(forTimeInterval: 0.003)
                    try? test.engine.deleteIndex("gone")
                    return
                }
                for i in 0..<50 where i % 2 == thread - 1 {
                    _ = try? test.engine.write(to: "gone", creating: false) { index throws(SearchError) in try index.deleteObjects(["\(i)"]) }
                }
            }
            #expect(!test.engine.exists("gone"))
        }
    }

    @Test func aCopyIsOfOneStateOfItsSource() async throws {
        let test = try TestEngine()
        // Each write changes the records and the settings together (one transaction): a copy
        // of one state has as many records as its `userData` says.
        try test.index("source", settings: ["userData": ["count": 0]], records: [])
        try await WholeIndexOperationTests.onThreads(2) { thread in
            if thread == 0 {
                for count in 1...40 {
                    _ = try? test.engine.write(to: "source") { index throws(SearchError) in
                        try index.importRecords([["objectID": .string("r\(count)")]], settings: ["userData": ["count": .int(Int64(count))]])
                    }
                }
                return
            }
            for round in 0..<20 { try? test.engine.copyIndex("source", to: "copy-\(round)") }
        }
        for round in 0..<20 {
            let copy = try test.engine.existingIndex("copy-\(round)")
            #expect(copy.settings.values["userData"]?["count"]?.intValue == copy.recordCount, "copy-\(round)")
        }
    }
}
