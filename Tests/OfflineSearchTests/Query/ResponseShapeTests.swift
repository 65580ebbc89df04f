import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - Response

@Suite struct EngineResponseTests {
    @Test func responseEchoesTheRequest() throws {
        let engine = try TestEngine()
        let index = try engine.index("my index", records: [["objectID": "1", "name": "red shoe"], ["objectID": "2", "name": "red hat"]])
        let response = try index.search("red sh", ["hitsPerPage": 5, "facets": ["brand"]])
        #expect(response.query == "red sh")
        #expect(response.params == "query=red+sh&hitsPerPage=5&facets=%5B%22brand%22%5D")
        #expect(response.index == "my index")
        #expect(response.nbHits == 1)
        #expect(response.queryID == nil)
        let json = try #require(response.jsonValue.objectValue)
        for key in ["hits", "nbHits", "page", "nbPages", "hitsPerPage", "processingTimeMS", "query", "params", "index",
                    "exhaustiveNbHits", "exhaustiveTypo", "exhaustive", "renderingContent"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(try SearchResponse(json: response.jsonValue) == response)
    }

    @Test func clickAnalyticsAddsAQueryID() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "red shoe"]])
        let first = try #require(try index.search("red", ["clickAnalytics": true]).queryID)
        let second = try #require(try index.search("red", ["clickAnalytics": true]).queryID)
        #expect(first.count == 32)
        #expect(first.allSatisfy { $0.isHexDigit })
        #expect(first != second)
    }
}
