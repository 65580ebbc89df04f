import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - Query semantics

@Suite struct EngineQueryTests {
    @Test func everyWordMustMatchSomeAttribute() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [
            ["objectID": "red apple", "name": "apple", "color": "red"],
            ["objectID": "green apple", "name": "apple", "color": "green"],
            ["objectID": "red cherry", "name": "red cherry"],
        ])
        #expect(ids(try index.search("apple red")) == ["red apple"])
        #expect(ids(try index.search("red")) == ["red apple", "red cherry"])
        #expect(ids(try index.search("apple")) == ["red apple", "green apple"])
        #expect(try index.search("apple red cherry").nbHits == 0)
    }

    static let jerky: [JSONValue] = [["objectID": "jerky", "name": "Beef jerky"], ["objectID": "jam", "name": "Jam tart"]]

    @Test(arguments: [
        ("je b", QueryType.prefixLast, [String]()),
        ("je b", .prefixAll, ["jerky"]),
        ("je b", .prefixNone, []),
        ("beef je", .prefixLast, ["jerky"]),
        ("beef je", .prefixNone, []),
        ("jerky beef", .prefixNone, ["jerky"]),
        ("jerk", .prefixNone, []),   // with typo tolerance off (see below): "jerky" is one typo away
        ("be jer", .prefixAll, ["jerky"]),
        ("ja", .prefixLast, ["jam"]),
        ("j", .prefixLast, ["jerky", "jam"]),
    ])
    func queryType(query: String, type: QueryType, expected: [String]) throws {
        let engine = try TestEngine()
        let index = try engine.index(records: EngineQueryTests.jerky)
        #expect(ids(try index.search(query, ["queryType": .string(type.rawValue), "typoTolerance": false])) == Set(expected))
    }

    @Test func queryTypeFromSettings() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["queryType": "prefixAll"], records: EngineQueryTests.jerky)
        #expect(try index.search("je b").objectIDs == ["jerky"])
        #expect(try index.search("je b", ["queryType": "prefixLast"]).nbHits == 0)
    }

    @Test func trailingSpaceMakesTheLastWordWhole() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["typoTolerance": false], records: EngineQueryTests.jerky)
        #expect(try index.search("jerk").objectIDs == ["jerky"])
        #expect(try index.search("jerk ").nbHits == 0)
        #expect(try index.search("jerky ").objectIDs == ["jerky"])
        #expect(try index.search("beef jerk ").nbHits == 0)
        // With typo tolerance (the default), the whole word "jerk" is one letter from "jerky".
        #expect(try index.search("jerk ", ["typoTolerance": true]).objectIDs == ["jerky"])
    }

    @Test func emptyQueryReturnsEveryRecord() throws {
        let engine = try TestEngine()
        let records: [JSONValue] = (0..<30).map { ["objectID": .string("r\($0)"), "n": .int(Int64($0))] }
        let index = try engine.index(records: records)
        let response = try index.search("", ["hitsPerPage": 100])
        #expect(response.nbHits == 30)
        #expect(response.hits.count == 30)
        #expect(try index.search("   ").nbHits == 30)
    }
}
