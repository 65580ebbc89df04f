import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - Filters

@Suite struct EngineFilterTests {
    @Test(arguments: [
        ("brand:apple", ["1", "3"]),
        ("brand:APPLE", ["1", "3"]),
        ("brand:\"Apple\"", ["1", "3"]),
        ("brand:'samsung'", ["2"]),
        ("Brand:Apple", []),
        ("color:red", ["1", "4"]),
        ("inStock:true", ["1", "3", "4"]),
        ("inStock:false", ["2"]),
        ("price < 25", ["1", "2"]),
        ("price<=20", ["1", "2"]),
        ("price >= 30", ["3", "4"]),
        ("price = 20", ["2"]),
        ("price != 20", ["1", "3", "4"]),
        ("price > 40", []),
        ("price:10 TO 30", ["1", "2", "3"]),
        ("price:10 to 30", ["1", "2", "3"]),
        ("rating = 4.5", ["1"]),
        ("brand:Apple AND price > 15", ["3"]),
        ("brand:Samsung OR brand:Banana", ["2", "4"]),
        ("(brand:Samsung OR brand:Banana) AND price < 30", ["2"]),
        ("price < 15 OR price > 35", ["1", "4"]),
        ("NOT brand:Apple", ["2", "4"]),
        ("brand:Apple AND NOT color:green", ["1"]),
        ("type:tablet", ["3"]),
        ("size:S", []),
    ])
    func filters(filter: String, expected: [String]) throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        #expect(ids(try index.search("gadget", ["filters": .string(filter)])) == Set(expected))
    }

    /// Facet values compare case- and diacritic-insensitively (as in Algolia), but they are
    /// still whole values: punctuation and symbols are part of them.
    @Test func facetValuesDifferingOnlyByPunctuationAreDifferentValues() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["attributesForFaceting": ["brand", "categories"]], records: [
            ["objectID": "ampersand", "brand": "AT&T", "categories": ["Cases & Clips"]],
            ["objectID": "space", "brand": "AT T", "categories": ["Cases Clips"]],
            ["objectID": "trademark", "brand": "Insignia™", "categories": ["Cases, Clips"]],
            ["objectID": "plain", "brand": "Insignia", "categories": ["cases & clips"]],
            ["objectID": "accent", "brand": "Café", "categories": ["x"]],
        ])
        // What is certain: case and accents do not matter.
        #expect(ids(try index.search("", ["filters": "brand:CAFE"])) == ["accent"])
        #expect(ids(try index.search("", ["filters": "categories:\"CASES & CLIPS\""])).isSuperset(of: ["ampersand", "plain"]))
        do {
            let ampersand = try index.search("", ["filters": "brand:\"AT&T\""])
            #expect(ids(ampersand) == ["ampersand"])
            let space = try index.search("", ["filters": "brand:\"AT T\""])
            #expect(ids(space) == ["space"])
            let plain = try index.search("", ["filters": "brand:Insignia"])
            #expect(ids(plain) == ["plain"])
            let trademark = try index.search("", ["facetFilters": ["brand:Insignia™"]])
            #expect(ids(trademark) == ["trademark"])
            let category = try index.search("", ["filters": "categories:\"Cases & Clips\""])
            #expect(ids(category) == ["ampersand", "plain"])
        }
    }

    @Test func facetFiltersNumericFiltersAndTheirCombination() throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        func search(_ parameters: JSONObject) throws -> Set<String> { ids(try index.search("", parameters)) }
        #expect(try search(["facetFilters": [["brand:Samsung", "brand:Banana"], "inStock:true"]]) == ["4"])
        #expect(try search(["facetFilters": ["brand:Apple"]]) == ["1", "3"])
        #expect(try search(["facetFilters": "brand:Apple"]) == ["1", "3"])
        #expect(try search(["facetFilters": ["brand:-Apple"]]) == ["2", "4"])
        #expect(try search(["facetFilters": [["color:green", "color:blue"]]]) == ["1", "2", "3"])
        // Deeper arrays are alternatives of the group that holds them, as in Algolia.
        #expect(try search(["facetFilters": [["brand:Samsung", ["brand:Banana", ["brand:Apple"]]], "inStock:true"]]) == ["1", "3", "4"])
        #expect(try search(["facetFilters": [[["brand:Samsung"], ["brand:Banana"]]]]) == ["2", "4"])
        #expect(try search(["numericFilters": ["price>=20", "price<=30"]]) == ["2", "3"])
        #expect(try search(["numericFilters": [["price<15", "price>35"]]]) == ["1", "4"])
        #expect(try search(["numericFilters": ["price:20 TO 30"]]) == ["2", "3"])
        #expect(try search(["numericFilters": ["price:20 to 30"]]) == ["2", "3"])
        #expect(try search(["numericFilters": "price:20 to 30"]) == ["2", "3"])
        // filters AND facetFilters AND numericFilters.
        #expect(try search(["filters": "inStock:true", "facetFilters": ["brand:Apple"], "numericFilters": ["price>15"]]) == ["3"])
        #expect(try search(["filters": "brand:Samsung", "facetFilters": ["brand:Apple"]]) == [])
    }

    @Test(arguments: [
        ("filters", JSONValue.string("brand:Apple AND"), "col 16"),
        ("filters", .string("brand:Apple OR price < 5"), "col "),
        ("filters", .string("(brand:Apple"), "col "),
        ("filters", .string("brand:Apple and brand:Samsung"), "col 13"),
        ("numericFilters", .array(["price>>5"]), "price>>5"),
        ("facetFilters", .string("brandApple"), "brandApple"),
    ])
    func badFiltersAreInvalidFilterErrorsWithPosition(parameter: String, value: JSONValue, fragment: String) throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let error = expectSearchError { _ = try index.search("", [parameter: value]) }
        #expect(error?.kind == .invalidFilter)
        #expect(error?.status == 400)
        #expect(error?.message.hasPrefix(parameter + ":") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        ("hitsPerPage", JSONValue.string("abc")),
        ("hitsPerPage", .int(1001)),
        ("page", .int(-1)),
        ("attributesToSnippet", .array(["description:many"])),
        ("queryType", .string("prefixMiddle")),
        ("madeUpParameter", .int(1)),
    ])
    func badParametersAreInvalidParameterErrorsNamingThem(name: String, value: JSONValue) throws {
        let engine = try TestEngine()
        let index = try EngineFacetTests.makeIndex(engine)
        let error = expectSearchError { _ = try index.search("gadget", [name: value]) }
        #expect(error?.kind == .invalidParameter)
        #expect(error?.status == 400)
        #expect(error?.message.contains(name) == true, "\(error?.message ?? "")")
    }
}

/// `numericAttributesForFiltering` (and its former name `numericAttributesToIndex`).
@Suite struct NumericAttributesForFilteringTests {
    func index(_ attributes: JSONValue, name: String = "numericAttributesForFiltering") throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        var settings = EngineFacetTests.settings
        settings[name] = attributes
        return (engine, try engine.index(settings: settings, records: EngineFacetTests.records))
    }

    @Test(arguments: [
        // Listed: every comparison.
        ("price < 25", ["1", "2"]),
        ("price:10 TO 20", ["1", "2"]),
        // equalOnly: = and != only; a comparison or a range matches nothing, its negation every record.
        ("rating = 4", ["2", "3"]),
        ("rating != 4", ["1", "4"]),
        ("rating > 3", []),
        ("rating:3 TO 5", []),
        ("NOT rating > 3", ["1", "2", "3", "4"]),
        // Not listed: nothing to compare.
        ("inStockCount > 0", []),
        ("size = 1", []),
    ])
    func onlyTheListedAttributesFilter(filter: String, expected: [String]) throws {
        let (_, index) = try index(["price", "equalOnly(rating)"])
        #expect(ids(try index.search("gadget", ["filters": .string(filter)])) == Set(expected))
    }

    @Test func unlistedAttributesMatchNothingInEveryFilterParameter() throws {
        let (_, index) = try index(["rating"])
        #expect(try index.search("gadget", ["numericFilters": ["price<25"]]).nbHits == 0)
        #expect(try index.search("gadget", ["numericFilters": ["rating>=4"]]).nbHits == 3)
        // Facet filters are not numeric filters: unchanged.
        #expect(ids(try index.search("gadget", ["facetFilters": ["price:20"]])) == ["2"])
    }

    @Test func anEmptyListOrTheFormerNameOrAnAttributeThatDoesNotExist() throws {
        #expect(try index([]).1.search("gadget", ["filters": "price < 25"]).nbHits == 2)
        #expect(try index(["equalOnly(price)"], name: "numericAttributesToIndex").1.search("gadget", ["filters": "price < 25"]).nbHits == 0)
        // Algolia's way to turn numeric filtering off.
        #expect(try index(["_no_numeric_attributes_"]).1.search("gadget", ["filters": "price = 20"]).nbHits == 0)
    }

    @Test func theSameAnswersWithRecentWritesInTheDelta() throws {
        let (owner, index) = try index(["price", "equalOnly(rating)"])
        defer { withExtendedLifetime(owner) {} }
        try index.saveObjects([["objectID": "5", "name": "gadget", "price": 15, "rating": 4]])
        #expect(index.deltaCount > 0)
        #expect(ids(try index.search("gadget", ["filters": "price < 25 AND rating = 4"])) == ["2", "5"])
        #expect(try index.search("gadget", ["filters": "rating >= 4"]).nbHits == 0)
    }

    @Test func anInvalidEntryIsRejectedWhenSet() throws {
        let (owner, index) = try index(["price"])
        defer { withExtendedLifetime(owner) {} }
        let error = expectSearchError { try index.setSettings(["numericAttributesForFiltering": ["equalOnly()"]]) }
        #expect(error?.message == "numericAttributesForFiltering: invalid entry \"equalOnly()\"; expected an attribute name or equalOnly(attribute)")
    }
}
