import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// Faceting as a search UI uses it: facet-value search, disjunctive faceting the way
// InstantSearch sends it and in one call, hierarchical facets, facets_stats,
// maxValuesPerFacet, sortFacetValuesBy, `facets: ["*"]`, and deleteBy. Expected values come
// from a brute force over the records built here, never from the engine.

// MARK: - Helpers

private func folded(_ text: String) -> String { BruteForceText.fold(text) }
private func foldedWords(_ text: String) -> [String] { BruteForceText.words(text) }

/// "value=count" in Algolia's order: count descending, then value.
private func countOrder(_ counts: [String: Int]) -> [String] {
    counts.filter { $0.value > 0 }
        .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        .map { "\($0.key)=\($0.value)" }
}

private func pairs(_ counts: FacetCounts?) -> [String] { counts?.values.map { "\($0.value)=\($0.count)" } ?? [] }

private func tally<S: Sequence>(_ values: S) -> [String: Int] where S.Element == String {
    values.reduce(into: [:]) { $0[$1, default: 0] += 1 }
}


/// The suite every faceting test sits in (`swift test --filter FacetingTests`).
@Suite struct FacetingTests {}

extension FacetingTests {
    // MARK: - A product catalogue

    struct Product: Sendable {
        let objectID: String
        let name: String
        let brand: String
        let category: String
        let price: Double
        let rating: Int
        let tags: [String]
        let sku: String

        var json: JSONValue {
            ["objectID": .string(objectID), "name": .string(name), "brand": .string(brand), "category": .string(category),
             "price": .double(price), "rating": .int(Int64(rating)), "_tags": .array(tags.map { .string($0) }), "sku": .string(sku)]
        }

        /// The single-word prefix query the tests use ("" matches everything).
        func matches(query: String) -> Bool {
            query.isEmpty || foldedWords(name).contains { $0.hasPrefix(folded(query)) }
        }

        /// 240 products. Nokia only makes laptops, so a Nokia refinement next to a Phones filter
        /// finds nothing.
        static let catalogue: [Product] = (0..<240).map { i in
            let brands = ["Apple", "Samsung", "Google", "Sony", "Xiaomi"]
            let categories = ["Phones", "Tablets", "Laptops", "Cameras"]
            var brand = brands[(i * 7 + i / 5) % 5]
            var category = categories[(i / 3) % 4]
            if i % 11 == 0 { brand = "Nokia"; category = "Laptops" }
            let model = ["pro", "mini", "max", "lite"][(i / 2) % 4]
            var tags: [String] = []
            if i % 5 == 0 { tags.append("promo") }
            if i % 7 == 0 { tags.append("new") }
            return Product(objectID: "p\(i)", name: "\(brand) \(model) \(category.lowercased())", brand: brand, category: category,
                           price: Double((i * 37) % 1000) + 0.5, rating: i % 5 + 1, tags: tags, sku: "SKU-\(i)")
        }

        static let settings: JSONObject = [
            "searchableAttributes": ["name"],
            "attributesForFaceting": ["brand", "searchable(category)", "afterDistinct(rating)", "price", "filterOnly(sku)", "_tags"],
        ]

        static func makeIndex(_ engine: TestEngine, name: String = "products") throws -> SearchIndex {
            try engine.index(name, settings: settings, records: catalogue.map(\.json))
        }
    }

    // MARK: - Search for facet values

    @Suite struct FacetValueSearchTests {
        /// Brand → (number of records, names used): "Samsung" and "Samsung Galaxy" share a word,
        /// "Samsonite" shares a prefix, "Électrolux" needs folding, and twelve "Brand NN" all
        /// count 1 (ties, and more than maxFacetHits).
        static let records: [JSONValue] = {
            var records: [JSONValue] = []
            func add(_ brand: String, _ count: Int, price: Int, names: [String]) {
                for k in 0..<count {
                    records.append(["objectID": .string("\(brand)-\(k)"), "brand": .string(brand), "category": "Devices",
                                    "name": .string(names[k % names.count]), "price": .int(Int64(price + 100 * k)), "color": "black"])
                }
            }
            add("Samsung", 5, price: 100, names: ["phone", "tablet"])
            add("Samsung Galaxy", 3, price: 200, names: ["phone"])
            add("Samsonite", 1, price: 50, names: ["suitcase"])
            add("Galanz", 2, price: 300, names: ["oven", "phone"])
            add("Électrolux", 2, price: 400, names: ["vacuum"])
            add("Apple", 4, price: 150, names: ["phone", "laptop"])
            for n in 1...12 { add("Brand " + (n < 10 ? "0\(n)" : "\(n)"), 1, price: 10 * n, names: ["gadget"]) }
            return records
        }()

        static func makeIndex(_ engine: TestEngine, settings: JSONObject = [:]) throws -> SearchIndex {
            var all: JSONObject = ["searchableAttributes": ["name"],
                                   "attributesForFaceting": ["searchable(brand)", "category", "filterOnly(price)"]]
            for (key, value) in settings { all[key] = value }
            return try engine.index(settings: all, records: records)
        }

        static func facetSearch(_ index: SearchIndex, _ facetQuery: String?, _ parameters: JSONObject = [:]) throws -> FacetValuesResponse {
            var object = parameters
            if let facetQuery { object["facetQuery"] = .string(facetQuery) }
            return try index.searchForFacetValues(facet: "brand", parameters: SearchParameters(json: object))
        }

        /// The brute-force answer for a facet query over the records matching `keep`: a value
        /// with a word that starts with the (one-word) query within its typo allowance (Algolia's
        /// defaults: 1 typo from 4 letters, 2 from 8; the reference distance of TypoToleranceTests).
        static func expected(_ facetQuery: String, limit: Int = 10, keep: (JSONValue) -> Bool = { _ in true }) -> [String] {
            let query = Array(folded(facetQuery).utf8)
            let allowed = query.count >= 8 ? 2 : query.count >= 4 ? 1 : 0
            func matches(_ word: String) -> Bool {
                let word = Array(word.utf8)
                return (0...word.count).contains { referenceTypos(Array(word[0..<$0]), query) <= allowed }
            }
            let brands = records.filter(keep).compactMap { $0["brand"]?.stringValue }
                .filter { brand in query.isEmpty || foldedWords(brand).contains(where: matches) }
            return Array(countOrder(tally(brands)).prefix(limit))
        }

        @Test(arguments: [
            ("sam", ["Samsung=5", "Samsung Galaxy=3", "Samsonite=1"]),
            ("SAM", ["Samsung=5", "Samsung Galaxy=3", "Samsonite=1"]),
            ("samsung", ["Samsung=5", "Samsung Galaxy=3"]),
            ("gal", ["Samsung Galaxy=3", "Galanz=2"]),
            ("Galax", ["Samsung Galaxy=3", "Galanz=2"]),   // galan·z is one typo away
            ("samsnug", ["Samsung=5", "Samsung Galaxy=3"]),  // a transposition
            ("Galaxi", ["Samsung Galaxy=3"]),
            ("aple", ["Apple=4"]),
            ("apl", []),   // under 4 letters: no typo
            ("elec", ["Électrolux=2"]),
            ("ÉLEC", ["Électrolux=2"]),
            ("électrolux", ["Électrolux=2"]),
            ("sung", []),
            ("zzz", []),
        ])
        func matchesAPrefixOfAnyWordIgnoringCaseAndAccentsWithTypos(facetQuery: String, expected: [String]) throws {
            let engine = try TestEngine()
            let index = try FacetValueSearchTests.makeIndex(engine)
            let response = try FacetValueSearchTests.facetSearch(index, facetQuery)
            let actual = response.facetHits.map { "\($0.value)=\($0.count)" }
            #expect(actual == expected)
            #expect(actual == FacetValueSearchTests.expected(facetQuery))
        }

        @Test(arguments: [
            ("sam", "phone", "price >= 200"),
            ("sam", "", "price < 300"),
            ("", "phone", ""),
            ("gal", "phone", "NOT brand:Galanz"),
            ("a", "", "price:100 TO 400"),
        ])
        func countsCoverTheRecordsMatchingTheQueryAndFilters(facetQuery: String, query: String, filter: String) throws {
            let engine = try TestEngine()
            let index = try FacetValueSearchTests.makeIndex(engine)
            var parameters: JSONObject = ["query": .string(query)]
            if !filter.isEmpty { parameters["filters"] = .string(filter) }
            let response = try FacetValueSearchTests.facetSearch(index, facetQuery, parameters)
            // The brute force for these few filters.
            func keep(_ record: JSONValue) -> Bool {
                let name = record["name"]?.stringValue ?? ""
                let price = record["price"]?.doubleValue ?? .nan
                let brand = record["brand"]?.stringValue ?? ""
                let queryOK = query.isEmpty || foldedWords(name).contains { $0.hasPrefix(query) }
                let filterOK: Bool = switch filter {
                case "price >= 200": price >= 200
                case "price < 300": price < 300
                case "NOT brand:Galanz": folded(brand) != "galanz"
                case "price:100 TO 400": price >= 100 && price <= 400
                default: true
                }
                return queryOK && filterOK
            }
            let expected = FacetValueSearchTests.expected(facetQuery, keep: keep)
            #expect(response.facetHits.map { "\($0.value)=\($0.count)" } == expected)
            #expect(!expected.isEmpty)
            // Values whose every record is filtered out are not offered.
            #expect(response.facetHits.allSatisfy { $0.count > 0 })
        }

        @Test func maxFacetHitsDefaultsToTenAndTiesAreByValue() throws {
            let engine = try TestEngine()
            let index = try FacetValueSearchTests.makeIndex(engine)
            let byDefault = try FacetValueSearchTests.facetSearch(index, "brand")
            #expect(byDefault.facetHits.map(\.value) == (1...10).map { "Brand " + ($0 < 10 ? "0\($0)" : "\($0)") })
            #expect(byDefault.facetHits.allSatisfy { $0.count == 1 })
            let three = try FacetValueSearchTests.facetSearch(index, "brand", ["maxFacetHits": 3])
            #expect(three.facetHits.map(\.value) == ["Brand 01", "Brand 02", "Brand 03"])
            let all = try FacetValueSearchTests.facetSearch(index, "brand", ["maxFacetHits": 100])
            #expect(all.facetHits.count == 12)
            #expect(all.facetHits.map { "\($0.value)=\($0.count)" } == FacetValueSearchTests.expected("brand", limit: 100))
            // Above Algolia's maximum of 100: a parameter error, not a silent cap.
            let error = expectSearchError { _ = try FacetValueSearchTests.facetSearch(index, "brand", ["maxFacetHits": 101]) }
            #expect(error?.kind == .invalidParameter)
            #expect(error?.message.contains("maxFacetHits") == true)
        }

        /// `maxFacetHits` is an index setting as well as a parameter (GET settings lists it,
        /// default 10); the parameter wins.
        @Test func maxFacetHitsFromTheSettings() throws {
            let engine = try TestEngine()
            let index = try FacetValueSearchTests.makeIndex(engine, settings: ["maxFacetHits": 4])
            let fromSettings = try FacetValueSearchTests.facetSearch(index, "brand")
            do {
                #expect(fromSettings.facetHits.map(\.value) == ["Brand 01", "Brand 02", "Brand 03", "Brand 04"])
            }
            let overridden = try FacetValueSearchTests.facetSearch(index, "brand", ["maxFacetHits": 6])
            #expect(overridden.facetHits.count == 6)
        }

        @Test func emptyFacetQueryReturnsTheTopValues() throws {
            let engine = try TestEngine()
            let index = try FacetValueSearchTests.makeIndex(engine)
            let empty = try FacetValueSearchTests.facetSearch(index, "")
            let absent = try FacetValueSearchTests.facetSearch(index, nil)
            let expected = FacetValueSearchTests.expected("")
            #expect(expected.count == 10)
            #expect(empty.facetHits.map { "\($0.value)=\($0.count)" } == expected)
            #expect(absent.facetHits == empty.facetHits)
            // Nothing typed, nothing highlighted.
            #expect(empty.facetHits.allSatisfy { $0.highlighted == $0.value })
            #expect(empty.exhaustiveFacetsCount)
        }

        /// Search for facet values is typo-tolerant as a query is (Algolia's own helper tests
        /// find `Peanuts` from `Peanutz`), with the request's typo settings.
        @Test func typosAreToleratedAsInAQuery() throws {
            let engine = try TestEngine()
            let index = try engine.index(settings: ["attributesForFaceting": ["searchable(brand)"]], records: [
                ["objectID": "1", "brand": "Peanuts"], ["objectID": "2", "brand": "Peanuts"], ["objectID": "3", "brand": "Pecans"],
            ])
            func search(_ facetQuery: String, _ parameters: JSONObject = [:]) throws -> [String] {
                var object = parameters
                object["facetQuery"] = .string(facetQuery)
                return try index.searchForFacetValues(facet: "brand", parameters: SearchParameters(json: object))
                    .facetHits.map { "\($0.value)=\($0.count):\($0.highlighted)" }
            }
            #expect(try search("Peanutz") == ["Peanuts=2:<em>Peanuts</em>"])
            #expect(try search("peanut") == ["Peanuts=2:<em>Peanut</em>s"])
            #expect(try search("Peanutz", ["typoTolerance": false]).isEmpty)
            #expect(try search("Peanutz", ["minWordSizefor1Typo": 8]).isEmpty)
            #expect(try search("Pecanz", ["disableTypoToleranceOnWords": ["pecanz"]]).isEmpty)
            #expect(try search("Pecanz") == ["Pecans=1:<em>Pecans</em>"])
        }

        @Test func highlightedWrapsTheTypedPrefixWithDefaultOrCustomTags() throws {
            let engine = try TestEngine()
            let index = try FacetValueSearchTests.makeIndex(engine)
            func highlights(_ facetQuery: String, _ parameters: JSONObject = [:], in index: SearchIndex) throws -> [String: String] {
                let response = try FacetValueSearchTests.facetSearch(index, facetQuery, parameters)
                return Dictionary(uniqueKeysWithValues: response.facetHits.map { ($0.value, $0.highlighted) })
            }
            #expect(try highlights("sam", in: index) == ["Samsung": "<em>Sam</em>sung", "Samsung Galaxy": "<em>Sam</em>sung Galaxy",
                                                         "Samsonite": "<em>Sam</em>sonite"])
            #expect(try highlights("GAL", in: index) == ["Samsung Galaxy": "Samsung <em>Gal</em>axy", "Galanz": "<em>Gal</em>anz"])
            // The original characters are wrapped, accents and case as stored.
            #expect(try highlights("elec", in: index) == ["Électrolux": "<em>Élec</em>trolux"])
            let custom: JSONObject = ["highlightPreTag": "<mark class=\"hit\">", "highlightPostTag": "</mark>"]
            #expect(try highlights("gal", custom, in: index) == ["Samsung Galaxy": "Samsung <mark class=\"hit\">Gal</mark>axy",
                                                                 "Galanz": "<mark class=\"hit\">Gal</mark>anz"])

            // Tags from the settings are honoured too, and a parameter still wins over them.
            let other = try TestEngine()
            let configured = try FacetValueSearchTests.makeIndex(other, settings: ["highlightPreTag": "[", "highlightPostTag": "]"])
            #expect(try highlights("sams", in: configured) == ["Samsung": "[Sams]ung", "Samsung Galaxy": "[Sams]ung Galaxy",
                                                               "Samsonite": "[Sams]onite"])
            // `samso·nite` is one typo from `samsu`: matched with a typo, the word is wrapped whole.
            #expect(try highlights("samsu", in: configured) == ["Samsung": "[Samsu]ng", "Samsung Galaxy": "[Samsu]ng Galaxy",
                                                                "Samsonite": "[Samsonite]"])
            #expect(try highlights("samsu", ["highlightPreTag": "<b>", "highlightPostTag": "</b>", "typoTolerance": false], in: configured)
                    == ["Samsung": "<b>Samsu</b>ng", "Samsung Galaxy": "<b>Samsu</b>ng Galaxy"])
        }

        @Test(arguments: ["category", "price", "Brand", "color", "name"])
        func aFacetThatIsNotSearchableIsRejectedWithAlgoliasMessage(facet: String) throws {
            let engine = try TestEngine()
            let index = try FacetValueSearchTests.makeIndex(engine)
            let error = expectSearchError {
                _ = try index.searchForFacetValues(facet: facet, parameters: SearchParameters(json: ["facetQuery": "a"]))
            }
            #expect(error?.message == "Cannot search in `\(facet)` attribute, you need to add `searchable(\(facet))` to attributesForFaceting.")
            #expect(error?.status == 400)
        }

        @Test func throughMultiSearchAsAFacetRequest() async throws {
            let engine = try TestEngine()
            _ = try FacetValueSearchTests.makeIndex(engine)
            let queries = try [
                MultiSearchQuery(json: ["indexName": "test", "type": "facet", "facet": "brand", "facetQuery": "brand", "maxFacetHits": 4]),
                MultiSearchQuery(json: ["indexName": "test", "type": "facet", "facet": "brand", "facetQuery": "sam",
                                        "params": "query=phone&highlightPreTag=%3Cb%3E&highlightPostTag=%3C%2Fb%3E"]),
            ]
            let results = try await engine.engine.multiSearch(queries, strategy: .none)
            guard results.count == 2, case .facetValues(let first) = results[0], case .facetValues(let second) = results[1] else {
                Issue.record("expected two facet-value results, got \(results)")
                return
            }
            #expect(first.facetHits.map(\.value) == ["Brand 01", "Brand 02", "Brand 03", "Brand 04"])
            // "phone": Samsung 0, 2, 4 and the three Samsung Galaxy.
            #expect(second.facetHits == [FacetHit(value: "Samsung", highlighted: "<b>Sam</b>sung", count: 3),
                                         FacetHit(value: "Samsung Galaxy", highlighted: "<b>Sam</b>sung Galaxy", count: 3)])
        }
    }

    // MARK: - Disjunctive faceting

    @Suite struct DisjunctiveFacetingTests {
        /// Brute force: the products matching the query, the conjunctive constraints and the given
        /// brand / category OR-refinements (an empty set means "not refined").
        static func matching(query: String, brands: Set<String>, categories: Set<String>, maxPrice: Double?) -> [Product] {
            Product.catalogue.filter { product in
                product.matches(query: query)
                    && (brands.isEmpty || brands.contains(product.brand))
                    && (categories.isEmpty || categories.contains(product.category))
                    && (maxPrice.map { product.price <= $0 } ?? true)
            }
        }

        /// InstantSearch's merge: hits and conjunctive facets from the first response, each
        /// disjunctive facet's counts from its own query, refined values missing from them shown
        /// with count 0.
        static func merged(_ counts: FacetCounts?, refined: [String]) -> [String] {
            var result = pairs(counts)
            for value in refined where counts?[value] == nil { result.append("\(value)=0") }
            return result
        }

        /// The hits query with an OR-group for brand (Nokia is refined but makes no phones) and a
        /// conjunctive category; then the facet-only query for brand without its refinements.
        @Test(arguments: ["", "pro"])
        func multiSearchAsInstantSearchSendsItAndTheOneCallAgree(query: String) async throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let refinedBrands = ["Apple", "Samsung", "Nokia"]
            let hitsRequest: JSONValue = [
                "indexName": "products", "query": .string(query), "hitsPerPage": 1000, "page": 0,
                "facets": ["brand", "category"],
                "facetFilters": [.array(refinedBrands.map { .string("brand:\($0)") }), "category:Phones"],
                "numericFilters": ["price<=800"],
            ]
            // As the helper writes it: URL-encoded params, `facets` a plain string.
            let brandRequest: JSONValue = [
                "indexName": "products",
                "params": .string("query=\(query)&hitsPerPage=0&page=0&facets=brand"
                    + "&facetFilters=%5B%22category%3APhones%22%5D&numericFilters=%5B%22price%3C%3D800%22%5D"),
            ]
            let results = try await engine.engine.multiSearch([try MultiSearchQuery(json: hitsRequest), try MultiSearchQuery(json: brandRequest)],
                                                              strategy: .none)
            let hits = try #require(results.first?.searchResponse)
            let brandCounts = try #require(results.last?.searchResponse)

            let hitsTruth = DisjunctiveFacetingTests.matching(query: query, brands: Set(refinedBrands), categories: ["Phones"], maxPrice: 800)
            let brandTruth = DisjunctiveFacetingTests.matching(query: query, brands: [], categories: ["Phones"], maxPrice: 800)
            #expect(hits.nbHits == hitsTruth.count)
            #expect(hitsTruth.count > 0)
            #expect(Set(hits.objectIDs) == Set(hitsTruth.map(\.objectID)))
            #expect(pairs(hits.facet("category")) == countOrder(tally(hitsTruth.map(\.category))))
            #expect(pairs(hits.facet("brand")) == countOrder(tally(hitsTruth.map(\.brand))))

            #expect(brandCounts.hits.isEmpty)
            #expect(brandCounts.nbHits == brandTruth.count)
            #expect(brandCounts.facets?.map(\.attribute) == ["brand"])
            let expectedBrands = countOrder(tally(brandTruth.map(\.brand)))
            #expect(pairs(brandCounts.facet("brand")) == expectedBrands)
            #expect(brandCounts.facet("brand")?["Nokia"] == nil)
            let merged = DisjunctiveFacetingTests.merged(brandCounts.facet("brand"), refined: refinedBrands)
            #expect(merged == expectedBrands + ["Nokia=0"])

            // The same in one call.
            let parameters = try SearchParameters(json: hitsRequest.objectValue!)
            let oneCall = try index.search(parameters, disjunctiveFacets: ["brand"])
            #expect(pairs(oneCall.facet("brand")) == merged)
            #expect(pairs(oneCall.facet("category")) == pairs(hits.facet("category")))
            #expect(oneCall.nbHits == hits.nbHits)
            #expect(oneCall.objectIDs == hits.objectIDs)
            #expect(oneCall.facets?.map(\.attribute) == ["brand", "category"])
        }

        /// Two OR-refined facets: InstantSearch sends three queries; each facet's counts ignore only
        /// its own refinements.
        @Test func twoDisjunctiveFacets() async throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let brands = ["Sony", "Google"], categories = ["Phones", "Cameras"]
            let brandGroup: JSONValue = .array(brands.map { .string("brand:\($0)") })
            let categoryGroup: JSONValue = .array(categories.map { .string("category:\($0)") })
            func request(_ facetFilters: [JSONValue], facets: JSONValue, hitsPerPage: Int) throws -> MultiSearchQuery {
                try MultiSearchQuery(json: ["indexName": "products", "query": "", "facets": facets, "hitsPerPage": .int(Int64(hitsPerPage)),
                                            "facetFilters": .array(facetFilters + ["_tags:-new"]), "numericFilters": ["price>=100"]])
            }
            let results = try await engine.engine.multiSearch([
                try request([brandGroup, categoryGroup], facets: ["brand", "category", "rating"], hitsPerPage: 1000),
                try request([categoryGroup], facets: "brand", hitsPerPage: 0),
                try request([brandGroup], facets: "category", hitsPerPage: 0),
            ], strategy: .none)
            let responses = results.compactMap(\.searchResponse)
            try #require(responses.count == 3)

            func truth(brands: Set<String>, categories: Set<String>) -> [Product] {
                Product.catalogue.filter {
                    (brands.isEmpty || brands.contains($0.brand)) && (categories.isEmpty || categories.contains($0.category))
                        && !$0.tags.contains("new") && $0.price >= 100
                }
            }
            let all = truth(brands: Set(brands), categories: Set(categories))
            #expect(responses[0].nbHits == all.count)
            #expect(pairs(responses[0].facet("rating")) == countOrder(tally(all.map { String($0.rating) })))
            let brandCounts = countOrder(tally(truth(brands: [], categories: Set(categories)).map(\.brand)))
            let categoryCounts = countOrder(tally(truth(brands: Set(brands), categories: []).map(\.category)))
            #expect(pairs(responses[1].facet("brand")) == brandCounts)
            #expect(pairs(responses[2].facet("category")) == categoryCounts)
            // Every refined value still matches, so nothing is added with count 0.
            #expect(brands.allSatisfy { responses[1].facet("brand")?[$0] ?? 0 > 0 })

            var parameters = try SearchParameters(json: ["query": "", "facets": ["brand", "category", "rating"], "hitsPerPage": 1000,
                                                         "facetFilters": [brandGroup, categoryGroup, "_tags:-new"], "numericFilters": ["price>=100"]])
            let oneCall = try index.search(parameters, disjunctiveFacets: ["brand", "category"])
            #expect(pairs(oneCall.facet("brand")) == brandCounts)
            #expect(pairs(oneCall.facet("category")) == categoryCounts)
            #expect(pairs(oneCall.facet("rating")) == pairs(responses[0].facet("rating")))
            #expect(oneCall.nbHits == all.count)
            #expect(Set(oneCall.objectIDs) == Set(all.map(\.objectID)))

            // A facet not refined at all, asked as disjunctive: its counts are the full request's.
            parameters.facetFilters = .list([.anyOf(brands.map { "brand:\($0)" })])
            let unrefinedCategory = try index.search(parameters, disjunctiveFacets: ["category"])
            let plain = try index.search(parameters)
            #expect(unrefinedCategory.facets == plain.facets)
        }

        /// The string form of facetFilters (`(a,b),c`) is read the same way as the nested arrays.
        @Test func stringFormFacetFilters() throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            func run(_ facetFilters: JSONValue) throws -> SearchResponse {
                try index.search(SearchParameters(json: ["facets": ["brand", "category"], "hitsPerPage": 1000, "facetFilters": facetFilters]),
                                 disjunctiveFacets: ["brand"])
            }
            let string = try run("(brand:Apple,brand:Nokia),category:Phones")
            let arrays = try run([["brand:Apple", "brand:Nokia"], "category:Phones"])
            #expect(string.facets == arrays.facets)
            #expect(string.objectIDs == arrays.objectIDs)
            let phones = Product.catalogue.filter { $0.category == "Phones" }
            #expect(pairs(string.facet("brand")) == countOrder(tally(phones.map(\.brand))) + ["Nokia=0"])
            // category is not disjunctive: counted over the hits.
            #expect(pairs(string.facet("category")) == ["Phones=\(phones.filter { $0.brand == "Apple" }.count)"])
        }

        /// A refined value that still matches but falls beyond maxValuesPerFacet is not a value
        /// that "no longer matches": it keeps its real count rather than 0.
        @Test func refinedValuesBeyondMaxValuesPerFacetKeepTheirCounts() throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let parameters = try SearchParameters(json: ["facets": ["brand"], "maxValuesPerFacet": 2, "hitsPerPage": 0,
                                                         "facetFilters": [["brand:Apple", "brand:Nokia", "brand:Xiaomi"]]])
            let response = try index.search(parameters, disjunctiveFacets: ["brand"])
            let counts = tally(Product.catalogue.map(\.brand))
            let top = Array(countOrder(counts).prefix(2))
            #expect(Array(pairs(response.facet("brand")).prefix(2)) == top)
            #expect(response.nbHits == counts["Apple"]! + counts["Nokia"]! + counts["Xiaomi"]!)
            do {
                #expect(response.facet("brand")?["Nokia"] == counts["Nokia"])
                #expect(response.facet("brand")?["Xiaomi"] == counts["Xiaomi"])
            }
        }

        /// A refined value written in another case than stored is the same value: it is not added
        /// again with count 0; a refined value absent from the index is.
        @Test func refinedValuesAreComparedAsFacetValues() throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let parameters = try SearchParameters(json: [
                "facets": ["brand"], "facetFilters": [["brand:apple", "brand:Motorola"], "category:Tablets"], "hitsPerPage": 0,
            ])
            let response = try index.search(parameters, disjunctiveFacets: ["brand"])
            let tablets = Product.catalogue.filter { $0.category == "Tablets" }
            #expect(pairs(response.facet("brand")) == countOrder(tally(tablets.map(\.brand))) + ["Motorola=0"])
            #expect(response.nbHits == tablets.filter { $0.brand == "Apple" }.count)
        }
    }

    // MARK: - Hierarchical facets

    @Suite struct HierarchicalFacetTests {
        static let lvl = ["hierarchicalCategories.lvl0", "hierarchicalCategories.lvl1", "hierarchicalCategories.lvl2"]

        /// Paths and how many records sit at each.
        static let paths: [([String], Int)] = [
            (["Electronics", "Electronics > Phones", "Electronics > Phones > Cases"], 6),
            (["Electronics", "Electronics > Phones", "Electronics > Phones > Chargers"], 4),
            (["Electronics", "Electronics > Phones"], 2),
            (["Electronics", "Electronics > Laptops", "Electronics > Laptops > Gaming"], 3),
            (["Electronics", "Electronics > Laptops"], 5),
            (["Home", "Home > Kitchen", "Home > Kitchen > Knives"], 7),
            (["Home", "Home > Kitchen", "Home > Kitchen > Phones"], 1),  // a leaf named like another branch
            (["Home", "Home > Garden"], 3),
            (["Books"], 2),
        ]

        static var records: [(id: String, path: [String])] {
            var result: [(String, [String])] = []
            for (p, (path, count)) in paths.enumerated() {
                for k in 0..<count { result.append(("h\(p)-\(k)", path)) }
            }
            return result
        }

        static func makeIndex(_ engine: TestEngine) throws -> SearchIndex {
            let json: [JSONValue] = records.map { record in
                var categories = JSONObject()
                for (level, value) in record.path.enumerated() { categories["lvl\(level)"] = .string(value) }
                return ["objectID": .string(record.id), "name": "thing", "hierarchicalCategories": .object(categories)]
            }
            return try engine.index(settings: ["attributesForFaceting": .array(lvl.map { .string($0) })], records: json)
        }

        static func counts(level: Int, over records: [(id: String, path: [String])]) -> [String] {
            countOrder(tally(records.compactMap { $0.path.count > level ? $0.path[level] : nil }))
        }

        @Test func unfilteredLevelsAddUp() throws {
            let engine = try TestEngine()
            let index = try HierarchicalFacetTests.makeIndex(engine)
            let response = try index.search("", ["facets": .array(HierarchicalFacetTests.lvl.map { .string($0) }), "hitsPerPage": 0])
            let all = HierarchicalFacetTests.records
            #expect(response.nbHits == all.count)
            for level in 0..<3 {
                #expect(pairs(response.facet(HierarchicalFacetTests.lvl[level])) == HierarchicalFacetTests.counts(level: level, over: all))
            }
            // A parent's count is at least the sum of its children's (records may stop at the parent).
            for level in 0..<2 {
                for parent in response.facet(HierarchicalFacetTests.lvl[level])?.values ?? [] {
                    let children = (response.facet(HierarchicalFacetTests.lvl[level + 1])?.values ?? [])
                        .filter { $0.value.hasPrefix(parent.value + " > ") }
                    let stopping = all.filter { $0.path.count == level + 1 && $0.path[level] == parent.value }.count
                    #expect(children.map(\.count).reduce(0, +) + stopping == parent.count, "\(parent.value)")
                }
            }
        }

        @Test(arguments: [
            ["filters": "hierarchicalCategories.lvl1:\"Electronics > Phones\""],
            ["filters": "hierarchicalCategories.lvl1:'electronics > PHONES'"],
            ["facetFilters": [["hierarchicalCategories.lvl1:Electronics > Phones"]]],
        ] as [JSONObject])
        func refiningALevelNarrowsTheNextToItsChildren(filter: JSONObject) throws {
            let engine = try TestEngine()
            let index = try HierarchicalFacetTests.makeIndex(engine)
            var parameters = filter
            parameters["facets"] = .array(HierarchicalFacetTests.lvl.map { .string($0) })
            parameters["hitsPerPage"] = 100
            let response = try index.search("", parameters)
            let inside = HierarchicalFacetTests.records.filter { $0.path.count > 1 && $0.path[1] == "Electronics > Phones" }
            #expect(response.nbHits == inside.count)
            #expect(Set(response.objectIDs) == Set(inside.map(\.id)))
            #expect(pairs(response.facet(HierarchicalFacetTests.lvl[0])) == ["Electronics=\(inside.count)"])
            #expect(pairs(response.facet(HierarchicalFacetTests.lvl[1])) == ["Electronics > Phones=\(inside.count)"])
            let children = response.facet(HierarchicalFacetTests.lvl[2])?.values ?? []
            #expect(children.map { "\($0.value)=\($0.count)" } == ["Electronics > Phones > Cases=6", "Electronics > Phones > Chargers=4"])
            #expect(children.allSatisfy { $0.value.hasPrefix("Electronics > Phones > ") })
            #expect(children.map(\.count).reduce(0, +) == inside.filter { $0.path.count > 2 }.count)

            // The menu also shows the refined level's siblings: lvl1 counted as a disjunctive facet.
            if filter["facetFilters"] != nil {
                let withSiblings = try index.search(SearchParameters(json: parameters), disjunctiveFacets: [HierarchicalFacetTests.lvl[1]])
                #expect(pairs(withSiblings.facet(HierarchicalFacetTests.lvl[1]))
                        == HierarchicalFacetTests.counts(level: 1, over: HierarchicalFacetTests.records))
                #expect(pairs(withSiblings.facet(HierarchicalFacetTests.lvl[2])) == pairs(response.facet(HierarchicalFacetTests.lvl[2])))
            }
        }

        /// A refined lvl1 must not leak values of another branch whose leaf has the same name.
        @Test func refiningAParentDoesNotMatchALeafOfTheSameName() throws {
            let engine = try TestEngine()
            let index = try HierarchicalFacetTests.makeIndex(engine)
            let response = try index.search("", ["filters": "hierarchicalCategories.lvl2:\"Home > Kitchen > Phones\"",
                                                 "facets": .array(HierarchicalFacetTests.lvl.map { .string($0) })])
            #expect(response.objectIDs == ["h6-0"])
            #expect(pairs(response.facet(HierarchicalFacetTests.lvl[0])) == ["Home=1"])
            // Not a prefix or word match: "Electronics > Phones" is a whole value.
            let partial = try index.search("", ["filters": "hierarchicalCategories.lvl1:Phones"])
            #expect(partial.nbHits == 0)
        }
    }

    // MARK: - facets_stats, maxValuesPerFacet, sortFacetValuesBy, facets "*"

    @Suite struct FacetCountOptionsTests {
        @Test(arguments: [
            ("", "category:Phones AND price >= 100"),
            ("pro", "brand:Sony OR brand:Apple"),
            ("", "_tags:promo AND NOT brand:Nokia"),
            ("mini", ""),
        ])
        func facetsStatsCoverTheFilteredSet(query: String, filter: String) throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            var parameters: JSONObject = ["facets": ["price", "rating", "brand"], "hitsPerPage": 0]
            if !filter.isEmpty { parameters["filters"] = .string(filter) }
            let response = try index.search(query, parameters)
            let matches = Product.catalogue.filter { product in
                guard product.matches(query: query) else { return false }
                switch filter {
                case "category:Phones AND price >= 100": return product.category == "Phones" && product.price >= 100
                case "brand:Sony OR brand:Apple": return ["Sony", "Apple"].contains(product.brand)
                case "_tags:promo AND NOT brand:Nokia": return product.tags.contains("promo") && product.brand != "Nokia"
                default: return true
                }
            }
            try #require(!matches.isEmpty)
            #expect(response.nbHits == matches.count)
            for (attribute, values) in [("price", matches.map(\.price)), ("rating", matches.map { Double($0.rating) })] {
                let stats = try #require(response.facetsStats?[attribute], "\(attribute)")
                let sum = values.reduce(0, +)
                #expect(stats.min == values.min())
                #expect(stats.max == values.max())
                #expect(abs(stats.sum - sum) < 1e-6)
                #expect(abs(stats.avg - sum / Double(values.count)) < 1e-9)
            }
            #expect(response.facetsStats?["brand"] == nil)
        }

        @Test(arguments: [1, 3, 5, 100])
        func maxValuesPerFacetKeepsTheMostFrequent(limit: Int) throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let response = try index.search("", ["facets": ["brand", "price"], "maxValuesPerFacet": .int(Int64(limit)),
                                                 "filters": "price < 500"])
            let matches = Product.catalogue.filter { $0.price < 500 }
            #expect(pairs(response.facet("brand")) == Array(countOrder(tally(matches.map(\.brand))).prefix(limit)))
            #expect(response.facet("price")?.values.count == min(limit, Set(matches.map(\.price)).count))
            // The cap is on values shown, not on what facets_stats covers.
            #expect(response.facetsStats?["price"]?.min == matches.map(\.price).min())
            #expect(response.facetsStats?["price"]?.max == matches.map(\.price).max())
        }

        @Test func sortFacetValuesByAlphaOrCount() throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let matches = Product.catalogue.filter { $0.matches(query: "max") }
            let counts = tally(matches.map(\.brand))
            let byCount = try index.search("max", ["facets": ["brand"]])
            #expect(pairs(byCount.facet("brand")) == countOrder(counts))
            let byAlpha = try index.search("max", ["facets": ["brand"], "sortFacetValuesBy": "alpha"])
            #expect(pairs(byAlpha.facet("brand")) == counts.keys.sorted().map { "\($0)=\(counts[$0]!)" })
            // The counts are the same; only the order differs (and differs here).
            #expect(pairs(byAlpha.facet("brand")) != pairs(byCount.facet("brand")))
            // From the settings, and a parameter overrides them.
            try index.setSettings(["sortFacetValuesBy": "alpha"])
            #expect(pairs(try index.search("max", ["facets": ["brand"]]).facet("brand")) == pairs(byAlpha.facet("brand")))
            #expect(pairs(try index.search("max", ["facets": ["brand"], "sortFacetValuesBy": "count"]).facet("brand"))
                    == pairs(byCount.facet("brand")))
        }

        @Test(arguments: [["*"], ["*", "brand"], ["brand", "*", "sku"]] as [[String]])
        func starReturnsEveryDeclaredFacetThatIsNotFilterOnly(facets: [String]) throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let response = try index.search("", ["facets": .array(facets.map { .string($0) }), "hitsPerPage": 0])
            let attributes = response.facets?.map(\.attribute) ?? []
            #expect(Set(attributes) == ["brand", "category", "rating", "price", "_tags"])
            #expect(attributes.count == Set(attributes).count, "no facet twice: \(attributes)")
            #expect(response.facet("sku") == nil)
            #expect(pairs(response.facet("_tags")) == countOrder(tally(Product.catalogue.flatMap(\.tags))))
            #expect(pairs(response.facet("category")) == countOrder(tally(Product.catalogue.map(\.category))))
        }

        @Test func starWithoutDeclaredTagsLeavesThemOut() throws {
            let engine = try TestEngine()
            let index = try engine.index(settings: ["attributesForFaceting": ["brand", "filterOnly(category)"]],
                                         records: Product.catalogue.prefix(30).map(\.json))
            let response = try index.search("", ["facets": "*"])
            #expect(response.facets?.map(\.attribute) == ["brand"])
            // Tags still filter.
            #expect(try index.search("", ["tagFilters": ["promo"]]).nbHits == Product.catalogue.prefix(30).filter { $0.tags.contains("promo") }.count)
        }
    }

    // MARK: - deleteBy

    struct DeleteByCase: Sendable, CustomTestStringConvertible {
        let parameters: JSONObject
        let predicate: @Sendable (Product) -> Bool
        init(_ parameters: JSONObject, _ predicate: @escaping @Sendable (Product) -> Bool) {
            self.parameters = parameters
            self.predicate = predicate
        }
        var testDescription: String { JSONValue.object(parameters).jsonString }
    }

    @Suite struct DeleteByTests {
        static let cases: [DeleteByCase] = [
            DeleteByCase(["filters": "brand:apple AND price < 300"]) { $0.brand == "Apple" && $0.price < 300 },
            DeleteByCase(["facetFilters": [["brand:Sony", "brand:GOOGLE"], "category:-Phones"]]) {
                ["Sony", "Google"].contains($0.brand) && $0.category != "Phones"
            },
            DeleteByCase(["numericFilters": ["price>=900"]]) { $0.price >= 900 },
            DeleteByCase(["tagFilters": [["promo", "new"]]]) { $0.tags.contains("promo") || $0.tags.contains("new") },
            DeleteByCase(["filters": "NOT _tags:promo", "numericFilters": ["rating=5"]]) { !$0.tags.contains("promo") && $0.rating == 5 },
            DeleteByCase(["filters": "sku:SKU-7 OR sku:\"sku-42\""]) { $0.sku == "SKU-7" || $0.sku == "SKU-42" },
            DeleteByCase(["filters": "brand:Motorola"]) { _ in false },
        ]

        @Test(arguments: DeleteByTests.cases)
        func deletesExactlyTheMatchingRecords(deleteCase: DeleteByCase) throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let doomed = Set(Product.catalogue.filter(deleteCase.predicate).map(\.objectID))
            let kept = Set(Product.catalogue.map(\.objectID)).subtracting(doomed)

            let deleted = try index.deleteBy(SearchParameters(json: deleteCase.parameters))
            #expect(deleted == doomed.count)
            #expect(index.recordCount == kept.count)
            let everything = try index.search("", ["hitsPerPage": 1000, "facets": ["brand"]])
            #expect(everything.nbHits == kept.count)
            #expect(Set(everything.objectIDs) == kept)
            let remaining = Product.catalogue.filter { kept.contains($0.objectID) }
            #expect(pairs(everything.facet("brand")) == countOrder(tally(remaining.map(\.brand))))
            // Deleted records are gone by id and by the same filter; the others are still found by words.
            for id in doomed.sorted().prefix(10) { #expect(try index.object(id) == nil, "\(id)") }
            #expect(try index.search(SearchParameters(json: deleteCase.parameters)).nbHits == 0)
            for product in remaining.prefix(5) {
                #expect(try index.object(product.objectID) != nil)
                #expect(try index.search(product.name, ["hitsPerPage": 1000]).objectIDs.contains(product.objectID), "\(product.name)")
            }
            // Doing it again deletes nothing.
            #expect(try index.deleteBy(SearchParameters(json: deleteCase.parameters)) == 0)
        }

        @Test(arguments: [
            [:],
            ["facetFilters": []],
            ["hitsPerPage": 10, "facets": ["brand"]],
        ] as [JSONObject])
        func withoutAFilterNothingIsDeleted(parameters: JSONObject) throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let error = expectSearchError { _ = try index.deleteBy(SearchParameters(json: parameters)) }
            #expect(error?.status == 400)
            #expect(index.recordCount == Product.catalogue.count)
        }

        @Test(arguments: [
            ["filters": "brand:Apple OR price < 100"],
            ["filters": "NOT (brand:Apple OR brand:Sony)"],
            ["filters": "brand:Apple AND"],
            ["numericFilters": ["price>>5"]],
            ["facetFilters": ["brand:Apple", "brandSony"]],
        ] as [JSONObject])
        func aBadFilterIsAnErrorAndNothingIsDeleted(parameters: JSONObject) throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let error = expectSearchError { _ = try index.deleteBy(SearchParameters(json: parameters)) }
            #expect(error?.kind == .invalidFilter)
            #expect(error?.status == 400)
            #expect(index.recordCount == Product.catalogue.count)
            #expect(try index.search("", ["filters": "brand:Apple"]).nbHits == Product.catalogue.filter { $0.brand == "Apple" }.count)
        }

        @Test func aQueryIsRejected() throws {
            let engine = try TestEngine()
            let index = try Product.makeIndex(engine)
            let error = expectSearchError { _ = try index.deleteBy(SearchParameters(json: ["query": "pro", "filters": "brand:Apple"])) }
            #expect(error?.status == 400)
            #expect(index.recordCount == Product.catalogue.count)
        }
    }
}
