import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - Paging

@Suite struct EnginePagingTests {
    /// r00…r24, ranked in that order, in three groups.
    static func makeIndex(_ engine: TestEngine, settings: JSONObject = [:]) throws -> SearchIndex {
        var all: JSONObject = ["customRanking": ["asc(n)"], "attributesForFaceting": ["group"]]
        for (key, value) in settings { all[key] = value }
        let records: [JSONValue] = (0..<25).map { i in
            ["objectID": .string(String(format: "r%02d", i)), "name": "item", "n": .int(Int64(i)), "group": .string("g\(i % 3)")]
        }
        return try engine.index(settings: all, records: records)
    }

    static func names(_ range: Range<Int>) -> [String] { range.map { String(format: "r%02d", $0) } }

    @Test func pagesAndHitsPerPage() throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine)
        let first = try index.search("item", ["hitsPerPage": 10])
        #expect(first.objectIDs == EnginePagingTests.names(0..<10))
        #expect(first.nbHits == 25)
        #expect(first.nbPages == 3)
        #expect(first.page == 0)
        #expect(first.hitsPerPage == 10)
        let last = try index.search("item", ["hitsPerPage": 10, "page": 2])
        #expect(last.objectIDs == EnginePagingTests.names(20..<25))
        #expect(last.page == 2)
        let beyond = try index.search("item", ["hitsPerPage": 10, "page": 3])
        #expect(beyond.hits.isEmpty)
        #expect(beyond.nbHits == 25)
        #expect(beyond.page == 3)
        // Default 20, and a hitsPerPage setting.
        #expect(try index.search("").hits.count == 20)
        try index.setSettings(["hitsPerPage": 4])
        #expect(try index.search("", ["page": 1]).objectIDs == EnginePagingTests.names(4..<8))
    }

    @Test func hitsPerPageZeroGivesCountsAndFacetsOnly() throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine)
        let response = try index.search("item", ["hitsPerPage": 0, "facets": "group"])
        #expect(response.hits.isEmpty)
        #expect(response.nbHits == 25)
        #expect(response.hitsPerPage == 0)
        #expect(response.facet("group")?["g0"] == 9)
        #expect(response.facet("group")?["g1"] == 8)
        #expect(response.facet("group")?["g2"] == 8)
        // Also from a URL-encoded params string, as InstantSearch sends it.
        let viaParams = try index.search(SearchParameters(json: ["params": "query=item&hitsPerPage=0&page=0&facets=group"]))
        #expect(viaParams.hits.isEmpty)
        #expect(viaParams.facet("group")?["g0"] == 9)
    }

    @Test func offsetAndLength() throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine)
        let response = try index.search("item", ["offset": 3, "length": 4])
        #expect(response.objectIDs == EnginePagingTests.names(3..<7))
        #expect(response.offset == 3)
        #expect(response.length == 4)
        #expect(response.nbHits == 25)
        #expect(response.jsonValue["offset"] == 3)
        #expect(response.jsonValue["length"] == 4)
        let tail = try index.search("item", ["offset": 22, "length": 10])
        #expect(tail.objectIDs == EnginePagingTests.names(22..<25))
        let error = expectSearchError { _ = try index.search("item", ["length": 4]) }
        #expect(error?.kind == .invalidParameter)
        #expect(error?.message.contains("length") == true)
    }

    @Test(arguments: [
        (10, 1000, 3),
        (7, 1000, 4),
        (25, 1000, 1),
        (26, 1000, 1),
        (1000, 1000, 1),
        (1, 1000, 25),
        (10, 15, 2),
        (4, 15, 4),
        (1, 5, 5),
        (10, 30, 3),
    ])
    func nbPagesFormula(hitsPerPage: Int, paginationLimitedTo: Int, expected: Int) throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine, settings: ["paginationLimitedTo": .int(Int64(paginationLimitedTo))])
        let response = try index.search("item", ["hitsPerPage": .int(Int64(hitsPerPage))])
        let ceilHits = (25 + hitsPerPage - 1) / hitsPerPage
        let ceilLimit = (paginationLimitedTo + hitsPerPage - 1) / hitsPerPage
        #expect(expected == min(ceilHits, ceilLimit))
        #expect(response.nbPages == expected)
        #expect(response.nbHits == 25)
    }

    @Test func paginationLimitedToCapsTheResults() throws {
        let engine = try TestEngine()
        let index = try EnginePagingTests.makeIndex(engine, settings: ["paginationLimitedTo": 15])
        let second = try index.search("item", ["hitsPerPage": 10, "page": 1])
        #expect(second.objectIDs == EnginePagingTests.names(10..<15))
        #expect(second.nbHits == 25)
        #expect(try index.search("item", ["hitsPerPage": 10, "page": 2]).hits.isEmpty)
        #expect(try index.search("item", ["offset": 12, "length": 10]).objectIDs == EnginePagingTests.names(12..<15))
        #expect(try index.search("item", ["offset": 20, "length": 3]).hits.isEmpty)
    }
}
