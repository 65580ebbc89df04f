import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - SearchService

@Suite struct EngineServiceTests {
    static func makeEngine() throws -> TestEngine {
        let engine = try TestEngine()
        _ = try engine.index("products", settings: ["attributesForFaceting": ["searchable(brand)", "color"]], records: [
            ["objectID": "p1", "name": "phone", "brand": "Apple", "color": "black"],
            ["objectID": "p2", "name": "phone case", "brand": "Apple", "color": "red"],
            ["objectID": "p3", "name": "phone", "brand": "Samsung", "color": "black"],
            ["objectID": "p4", "name": "laptop", "brand": "Applied Tech", "color": "grey"],
        ])
        _ = try engine.index("articles", records: [
            ["objectID": "a1", "title": "phone review"],
            ["objectID": "a2", "title": "laptop review"],
        ])
        return engine
    }

    /// `exists` and a multi-search ask the open index whether its file is still there: one
    /// deleted by another process is missing, and one made again there is found.
    @Test func anOpenIndexWhoseFileWasDeletedIsMissing() async throws {
        let engine = try EngineServiceTests.makeEngine()
        let service: any SearchService = engine.engine
        _ = try await service.multiSearch([.hits(indexName: "articles", parameters: SearchParameters(query: "review"))], strategy: .none)
        #expect(engine.engine.exists("articles"))
        let file = engine.directory.url.appendingPathComponent("articles.index.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        #expect(!engine.engine.exists("articles"))
        await #expect(throws: SearchError.self) {
            _ = try await service.multiSearch([
                .hits(indexName: "products", parameters: SearchParameters(query: "phone")),
                .hits(indexName: "articles", parameters: SearchParameters(query: "review")),
            ], strategy: .none)
        }
        _ = try engine.index("articles", records: [["objectID": "a3", "title": "tablet review"]])
        #expect(engine.engine.exists("articles"))
        let results = try await service.multiSearch([.hits(indexName: "articles", parameters: SearchParameters(query: "review"))], strategy: .none)
        guard case .hits(let response) = results[0] else { Issue.record("expected hits"); return }
        #expect(response.hits.compactMap { $0["objectID"]?.stringValue } == ["a3"])
    }

    @Test func multiSearchKeepsOrder() async throws {
        let engine = try EngineServiceTests.makeEngine()
        let service: any SearchService = engine.engine
        var facetParameters = SearchParameters()
        facetParameters.facetQuery = "app"
        let results = try await service.multiSearch([
            .hits(indexName: "articles", parameters: SearchParameters(query: "review")),
            .hits(indexName: "products", parameters: SearchParameters(query: "phone")),
            .facetValues(indexName: "products", facet: "brand", parameters: facetParameters),
            .hits(indexName: "articles", parameters: SearchParameters(query: "laptop")),
        ], strategy: .none)
        #expect(results.count == 4)
        #expect(results[0].searchResponse?.index == "articles")
        #expect(Set(results[0].searchResponse?.objectIDs ?? []) == ["a1", "a2"])
        #expect(results[1].searchResponse?.index == "products")
        #expect(Set(results[1].searchResponse?.objectIDs ?? []) == ["p1", "p2", "p3"])
        guard case .facetValues(let facetValues) = results[2] else {
            Issue.record("expected facet values third")
            return
        }
        #expect(facetValues.facetHits.map(\.value) == ["Apple", "Applied Tech"])
        #expect(facetValues.facetHits.map(\.count) == [2, 1])
        #expect(facetValues.facetHits.first?.highlighted == "<em>App</em>le")
        #expect(results[3].searchResponse?.objectIDs == ["a2"])

        let single = try await service.search(indexName: "products", parameters: SearchParameters(query: "laptop"))
        #expect(single.objectIDs == ["p4"])
    }

    @Test func multiSearchFromJSONRequests() async throws {
        let engine = try EngineServiceTests.makeEngine()
        let requests: [JSONValue] = [
            ["indexName": "products", "params": "query=phone&hitsPerPage=1&facets=%5B%22color%22%5D"],
            ["indexName": "products", "type": "facet", "facet": "brand", "facetQuery": "sam"],
        ]
        var queries: [MultiSearchQuery] = []
        for request in requests { queries.append(try MultiSearchQuery(json: request)) }
        let results = try await engine.engine.multiSearch(queries, strategy: .none)
        #expect(results[0].searchResponse?.nbHits == 3)
        #expect(results[0].searchResponse?.hits.count == 1)
        #expect(results[0].searchResponse?.facet("color")?["black"] == 2)
        #expect(results[1].jsonValue["facetHits"] == [["value": "Samsung", "highlighted": "<em>Sam</em>sung", "count": 1]])
    }

    @Test func aMissingIndexFailsTheWholeCallWith404() async throws {
        let engine = try EngineServiceTests.makeEngine()
        let service: any SearchService = engine.engine
        do {
            _ = try await service.multiSearch([
                .hits(indexName: "products", parameters: SearchParameters(query: "phone")),
                .hits(indexName: "missing", parameters: SearchParameters(query: "phone")),
            ], strategy: .none)
            Issue.record("expected a 404")
        } catch {
            #expect(error.kind == .indexNotFound)
            #expect(error.status == 404)
            #expect(error.message == "Index missing does not exist")
            #expect(error.jsonValue == ["message": "Index missing does not exist", "status": 404])
        }
        #expect(!engine.engine.exists("missing"))
        do {
            _ = try await service.searchForFacetValues(indexName: "missing", facet: "brand", parameters: SearchParameters())
            Issue.record("expected a 404")
        } catch {
            #expect(error.status == 404)
        }
    }

    @Test(arguments: ["color", "undeclared"])
    func facetValueSearchOnANonSearchableFacetUsesAlgoliasMessage(facet: String) async throws {
        let engine = try EngineServiceTests.makeEngine()
        let service: any SearchService = engine.engine
        do {
            _ = try await service.searchForFacetValues(indexName: "products", facet: facet, parameters: SearchParameters())
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "Cannot search in `\(facet)` attribute, you need to add `searchable(\(facet))` to attributesForFaceting.")
            #expect(error.status == 400)
        }
    }

    @Test func facetValueSearchFollowsQueryFiltersAndTags() async throws {
        let engine = try EngineServiceTests.makeEngine()
        var parameters = try SearchParameters(json: ["query": "phone", "filters": "color:black", "highlightPreTag": "<b>", "highlightPostTag": "</b>"])
        parameters.facetQuery = "a"
        let response = try await engine.engine.searchForFacetValues(indexName: "products", facet: "brand", parameters: parameters)
        #expect(response.facetHits == [FacetHit(value: "Apple", highlighted: "<b>A</b>pple", count: 1)])
    }
}
