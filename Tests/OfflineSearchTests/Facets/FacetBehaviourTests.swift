import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - Facets

@Suite struct EngineFacetTests {
    static let records: [JSONValue] = [
        ["objectID": "1", "name": "gadget", "brand": "Apple", "color": ["red", "red", "blue"], "price": 10, "inStock": true,
         "rating": 4.5, "type": "phone", "size": "S"],
        ["objectID": "2", "name": "gadget", "brand": "Samsung", "color": ["blue"], "price": 20, "inStock": false,
         "rating": 4, "type": "phone", "size": "M"],
        ["objectID": "3", "name": "gadget", "brand": "Apple", "color": ["green"], "price": 30, "inStock": true,
         "rating": 4, "type": "tablet", "size": "S"],
        ["objectID": "4", "name": "gadget", "brand": "Banana", "color": "red", "price": 40, "inStock": true,
         "rating": 3, "type": "phone"],
    ]
    static let settings: JSONObject = ["attributesForFaceting": ["brand", "color", "price", "searchable(inStock)", "afterDistinct(rating)",
                                                                 "filterOnly(type)"]]

    static func makeIndex(_ engine: TestEngine) throws -> SearchIndex {
        try engine.index(settings: settings, records: records)
    }

    static func pairs(_ counts: FacetCounts?) -> [String] { counts?.values.map { "\($0.value)=\($0.count)" } ?? [] }

    @Test func listStarAndBareString() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let list = try index.search("gadget", ["facets": ["brand"]])
        #expect(list.facets?.map(\.attribute) == ["brand"])
        #expect(EngineFacetTests.pairs(list.facet("brand")) == ["Apple=2", "Banana=1", "Samsung=1"])
        let bare = try index.search("gadget", ["facets": "brand"])
        #expect(bare.facets == list.facets)
        let star = try index.search("gadget", ["facets": "*"])
        #expect(Set(star.facets?.map(\.attribute) ?? []) == ["brand", "color", "price", "inStock", "rating"])
        #expect(star.exhaustiveFacetsCount == true)
    }

    @Test func onlyDeclaredAndCountableFacetsAreCounted() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let response = try index.search("gadget", ["facets": ["size", "type", "brand"]])
        #expect(response.facet("size") == nil)
        #expect(response.facet("type") == nil)
        #expect(response.facet("brand") != nil)
        // filterOnly still filters.
        #expect(try index.search("", ["filters": "type:tablet"]).objectIDs == ["3"])
    }

    @Test func countsCoverEveryMatchNotOnlyThePage() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let response = try index.search("gadget", ["facets": ["brand", "color"], "hitsPerPage": 1, "page": 1])
        #expect(response.hits.count == 1)
        #expect(EngineFacetTests.pairs(response.facet("brand")) == ["Apple=2", "Banana=1", "Samsung=1"])
        // Count descending, then value; an array's repeated element counts once per record.
        #expect(EngineFacetTests.pairs(response.facet("color")) == ["blue=2", "red=2", "green=1"])
        // Counts follow the query and filters.
        let filtered = try index.search("gadget", ["facets": ["brand"], "filters": "color:red"])
        #expect(EngineFacetTests.pairs(filtered.facet("brand")) == ["Apple=1", "Banana=1"])
    }

    @Test func maxValuesPerFacetAndAlphaSort() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let capped = try index.search("", ["facets": ["color", "brand"], "maxValuesPerFacet": 2])
        #expect(EngineFacetTests.pairs(capped.facet("color")) == ["blue=2", "red=2"])
        #expect(EngineFacetTests.pairs(capped.facet("brand")) == ["Apple=2", "Banana=1"])
        let alpha = try index.search("", ["facets": ["color", "brand"], "sortFacetValuesBy": "alpha"])
        #expect(EngineFacetTests.pairs(alpha.facet("color")) == ["blue=2", "green=1", "red=2"])
        #expect(EngineFacetTests.pairs(alpha.facet("brand")) == ["Apple=2", "Banana=1", "Samsung=1"])
        try index.setSettings(["maxValuesPerFacet": 1])
        #expect(EngineFacetTests.pairs(try index.search("", ["facets": ["brand"]]).facet("brand")) == ["Apple=2"])
    }

    @Test func facetsStats() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let all = try index.search("", ["facets": ["price", "rating", "brand", "inStock"]])
        #expect(all.facetsStats?["price"] == FacetStats(min: 10, max: 40, avg: 25, sum: 100))
        #expect(all.facetsStats?["rating"] == FacetStats(min: 3, max: 4.5, avg: 3.875, sum: 15.5))
        #expect(all.facetsStats?["brand"] == nil)
        #expect(all.facetsStats?["inStock"] == nil)
        let filtered = try index.search("", ["facets": ["price"], "filters": "price > 15"])
        #expect(filtered.facetsStats?["price"] == FacetStats(min: 20, max: 40, avg: 30, sum: 90))
        let json = filtered.jsonValue["facets_stats"]?["price"]
        #expect(json == ["min": 20, "max": 40, "avg": 30, "sum": 90])
    }

    @Test func numbersAndBooleansAreCountedByTheirText() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let response = try index.search("", ["facets": ["inStock", "rating", "price"]])
        #expect(EngineFacetTests.pairs(response.facet("inStock")) == ["true=3", "false=1"])
        #expect(EngineFacetTests.pairs(response.facet("rating")) == ["4=2", "3=1", "4.5=1"])
        #expect(EngineFacetTests.pairs(response.facet("price")) == ["10=1", "20=1", "30=1", "40=1"])
        #expect(response.jsonValue["facets"]?["inStock"] == ["true": 3, "false": 1])
    }

    /// Algolia leaves a requested facet out of `facets` when no matched record has a value for
    /// it (`facets` itself stays, `{}` when no facet has one): in one segment, with a recent write
    /// in the delta, and in the disjunctive counts.
    @Test func aFacetWithNoValueInTheMatchesIsLeftOut() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["attributesForFaceting": ["brand", "color"]], records: [
            ["objectID": "1", "name": "phone", "brand": "Apple", "color": "red"],
            ["objectID": "2", "name": "cable", "brand": "Apple"],
            ["objectID": "3", "name": "cable", "brand": "Samsung"],
            ["objectID": "4", "name": "lamp", "brand": "Ikea", "color": "white"],
            ["objectID": "5", "name": "lamp", "brand": "Ikea", "color": "black"],
        ])
        func check(_ cableBrands: JSONValue, refinedBrands: JSONValue) throws {
            let cables = try index.search("cable", ["facets": ["brand", "color"]])
            #expect(cables.facets?.map(\.attribute) == ["brand"])
            #expect(cables.jsonValue["facets"] == ["brand": cableBrands])
            let none = try index.search("nothing", ["facets": ["brand", "color"]])
            #expect(none.jsonValue["facets"] == .object(JSONObject()))
            // Refined away in the query, counted without the refinement: listed.
            let refined = try index.search(SearchParameters(json: ["query": "cable", "facets": ["brand", "color"],
                                                                   "facetFilters": [["brand:Ikea"]]]),
                                           disjunctiveFacets: ["brand", "color"])
            #expect(refined.jsonValue["facets"] == ["brand": refinedBrands])
        }
        try check(["Apple": 1, "Samsung": 1], refinedBrands: ["Apple": 1, "Samsung": 1, "Ikea": 0])
        // A write of one record goes to a delta segment: facets are merged over segments.
        try index.saveObjects([["objectID": "6", "name": "cable", "brand": "Belkin"]])
        try #require(index.live.state.deltaCount > 0)
        try check(["Apple": 1, "Belkin": 1, "Samsung": 1], refinedBrands: ["Apple": 1, "Belkin": 1, "Samsung": 1, "Ikea": 0])
    }
}

/// `facetingAfterDistinct` and `afterDistinct(attribute)`: facets counted on the hits `distinct` keeps.
@Suite struct FacetingAfterDistinctTests {
    static let records: [JSONValue] = [
        ["objectID": "a1", "name": "shirt", "product": "A", "brand": "Xeno", "color": "red", "rank": 6],
        ["objectID": "a2", "name": "shirt", "product": "A", "brand": "Xeno", "color": "red", "rank": 5],
        ["objectID": "a3", "name": "shirt", "product": "A", "brand": "Xeno", "color": "red", "rank": 4],
        ["objectID": "b1", "name": "shirt", "product": "B", "brand": "Xeno", "color": "blue", "rank": 3],
        ["objectID": "c1", "name": "shirt", "product": "C", "brand": "Yarn", "color": "red", "rank": 2],
        ["objectID": "n1", "name": "shirt", "brand": "Yarn", "color": "blue", "rank": 1],
    ]

    func index(_ facets: [JSONValue] = ["brand", "color"]) throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["attributesForFaceting": .array(facets), "attributeForDistinct": "product",
                                                "customRanking": ["desc(rank)"]],
                                     records: FacetingAfterDistinctTests.records)
        return (engine, index)
    }

    @Test func countsOnTheDeduplicatedHits() throws {
        let (_, index) = try index()
        let before = try index.search("shirt", ["facets": ["brand", "color"], "distinct": 1])
        #expect(EngineFacetTests.pairs(before.facet("brand")) == ["Xeno=4", "Yarn=2"])
        let after = try index.search("shirt", ["facets": ["brand", "color"], "distinct": 1, "facetingAfterDistinct": true])
        #expect(after.nbHits == 4)
        #expect(EngineFacetTests.pairs(after.facet("brand")) == ["Xeno=2", "Yarn=2"])
        #expect(EngineFacetTests.pairs(after.facet("color")) == ["blue=2", "red=2"])
        // distinct 2 keeps two of A.
        let two = try index.search("shirt", ["facets": ["color"], "distinct": 2, "facetingAfterDistinct": true])
        #expect(EngineFacetTests.pairs(two.facet("color")) == ["red=3", "blue=2"])
        // Without distinct, nothing to deduplicate.
        let plain = try index.search("shirt", ["facets": ["brand"], "facetingAfterDistinct": true])
        #expect(EngineFacetTests.pairs(plain.facet("brand")) == ["Xeno=4", "Yarn=2"])
    }

    @Test func theAfterDistinctModifierAppliesToItsAttributeOnly() throws {
        let (_, index) = try index(["brand", "afterDistinct(color)"])
        let response = try index.search("shirt", ["facets": ["color", "brand"], "distinct": true])
        #expect(response.facets?.map(\.attribute) == ["color", "brand"])
        #expect(EngineFacetTests.pairs(response.facet("color")) == ["blue=2", "red=2"])
        #expect(EngineFacetTests.pairs(response.facet("brand")) == ["Xeno=4", "Yarn=2"])
    }

    /// Search for facet values counts the same values as the search's facets would.
    @Test func facetValueSearchCountsAfterDistinctToo() throws {
        let (_, index) = try index(["searchable(brand)", "searchable(color)"])
        func counts(_ facet: String, _ parameters: JSONObject) throws -> [String] {
            var object = parameters
            object["query"] = "shirt"
            return try index.searchForFacetValues(facet: facet, parameters: SearchParameters(json: object)).facetHits.map { "\($0.value)=\($0.count)" }
        }
        #expect(try counts("brand", ["distinct": 1]) == ["Xeno=4", "Yarn=2"])
        #expect(try counts("brand", ["distinct": 1, "facetingAfterDistinct": true]) == ["Xeno=2", "Yarn=2"])
        #expect(try counts("color", ["distinct": 2, "facetingAfterDistinct": true]) == ["red=3", "blue=2"])
        let (_, modified) = try self.index(["searchable(brand)", "afterDistinct(searchable(color))"])
        let color = try modified.searchForFacetValues(facet: "color", parameters: SearchParameters(json: ["query": "shirt", "distinct": 1]))
        #expect(color.facetHits.map { "\($0.value)=\($0.count)" } == ["blue=2", "red=2"])
    }

    @Test func theSameCountsWithRecentWritesInTheDelta() throws {
        let (owner, index) = try index()
        defer { withExtendedLifetime(owner) {} }
        try index.saveObjects([["objectID": "b2", "name": "shirt", "product": "B", "brand": "Xeno", "color": "blue", "rank": 7]])
        #expect(index.deltaCount > 0)
        let parameters: JSONObject = ["facets": ["brand", "color"], "distinct": 1, "facetingAfterDistinct": true]
        let delta = try index.search("shirt", parameters)
        #expect(EngineFacetTests.pairs(delta.facet("color")) == ["blue=2", "red=2"])
        try index.merge()
        #expect(try index.search("shirt", parameters).facets == delta.facets)
    }
}
