import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI
import DatasetGenerator

// The engine against an independent brute-force evaluation over the raw products JSON:
// hundreds of seeded random queries (prefixLast), with and without filters, compared on
// nbHits, the set of hits and the facet counts.

private func fold(_ text: String) -> String { BruteForceText.fold(text) }
private func words(_ text: String) -> [String] { BruteForceText.words(text) }

/// One product as the brute force sees it.
private struct Product {
    let objectID: String
    let tokens: Set<String>
    let brand: String
    let categories: [String]
    let price: Double
}

/// A filter, generated as a tree so that the brute force never reads the engine's parser.
private indirect enum Filter {
    case brand(String)
    case category(String)
    case price(String, Double)
    case priceRange(Double, Double)
    case not(Filter)
    case and([Filter])
    case or([Filter])

    var isNumeric: Bool {
        switch self {
        case .price, .priceRange: true
        case .or(let children): children.allSatisfy(\.isNumeric)
        default: false
        }
    }

    func matches(_ product: Product) -> Bool {
        switch self {
        case .brand(let value): return fold(product.brand) == fold(value)
        case .category(let value): return product.categories.contains { fold($0) == fold(value) }
        case .price(let op, let bound):
            switch op {
            case "<": return product.price < bound
            case "<=": return product.price <= bound
            case "=": return product.price == bound
            case "!=": return product.price != bound
            case ">=": return product.price >= bound
            default: return product.price > bound
            }
        case .priceRange(let low, let high): return product.price >= low && product.price <= high
        case .not(let inner): return !inner.matches(product)
        case .and(let children): return children.allSatisfy { $0.matches(product) }
        case .or(let children): return children.contains { $0.matches(product) }
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The `filters` syntax.
    var text: String {
        switch self {
        case .brand(let value): return "brand:\"\(value)\""
        case .category(let value): return "categories:\"\(value)\""
        case .price(let op, let bound): return "price \(op) \(Filter.number(bound))"
        case .priceRange(let low, let high): return "price:\(Filter.number(low)) TO \(Filter.number(high))"
        case .not(let inner): return "NOT " + inner.text
        case .and(let children): return children.map(\.text).joined(separator: " AND ")
        case .or(let children): return "(" + children.map(\.text).joined(separator: " OR ") + ")"
        }
    }

    /// One element of `facetFilters` / `numericFilters`, when the leaf has a list form.
    var listElement: String? {
        switch self {
        case .brand(let value): return "brand:\(value)"
        case .category(let value): return "categories:\(value)"
        case .price(let op, let bound): return "price\(op)\(Filter.number(bound))"
        case .priceRange(let low, let high): return "price:\(Filter.number(low)) TO \(Filter.number(high))"
        case .not(.brand(let value)): return "brand:-\(value)"
        case .not(.category(let value)): return "categories:-\(value)"
        default: return nil
        }
    }

    /// `facetFilters` and `numericFilters` saying the same as this filter, when they can.
    var listParameters: JSONObject? {
        let parts: [Filter]
        if case .and(let children) = self { parts = children } else { parts = [self] }
        var facet: [JSONValue] = []
        var numeric: [JSONValue] = []
        for part in parts {
            let element: JSONValue
            if case .or(let children) = part {
                let texts = children.compactMap(\.listElement)
                guard texts.count == children.count else { return nil }
                element = .array(texts.map { .string($0) })
            } else {
                guard let text = part.listElement else { return nil }
                element = .string(text)
            }
            if part.isNumeric { numeric.append(element) } else { facet.append(element) }
        }
        var object = JSONObject()
        if !facet.isEmpty { object["facetFilters"] = .array(facet) }
        if !numeric.isEmpty { object["numericFilters"] = .array(numeric) }
        return object
    }
}

@Suite struct DifferentialTests {
    static let settings: JSONObject = [
        // The brute force below matches words exactly or as prefixes: no typo tolerance.
        "typoTolerance": false,
        "searchableAttributes": ["brand", "name", "categories", "description"],
        "attributesForFaceting": ["brand", "categories", "price"],
        "customRanking": ["desc(popularity)"],
    ]

    /// The index, and the same records as the brute force reads them.
    private static func load(_ products: Products = .shared) throws -> (TestEngine, SearchIndex, [Product]) {
        let records = try products.records()
        let engine = try TestEngine()
        let index = try engine.engine.index("products")
        try index.setSettings(settings)
        let objectIDs = try index.saveObjects(records)
        var products: [Product] = []
        for (record, objectID) in zip(records, objectIDs) {
            let brand = record["brand"]?.stringValue ?? ""
            let categories = record["categories"]?.arrayValue?.compactMap(\.stringValue) ?? []
            var tokens = Set<String>()
            for text in [brand, record["name"]?.stringValue ?? "", record["description"]?.stringValue ?? ""] + categories {
                tokens.formUnion(words(text))
            }
            products.append(Product(objectID: objectID, tokens: tokens, brand: brand, categories: categories,
                                    price: record["price"]?.doubleValue ?? .nan))
        }
        return (engine, index, products)
    }

    /// A query of 1–3 words from one record (so most queries find something), sometimes from
    /// the whole vocabulary; the last word often cut to a prefix; case and accents varied.
    private static func randomQuery(_ products: [Product], vocabulary: [String], using rng: inout SeededGenerator) -> String {
        if Int.random(in: 0..<12, using: &rng) == 0 { return "" }
        let source = products.randomElement(using: &rng)!.tokens.sorted()
        let count = Int.random(in: 1...3, using: &rng)
        var chosen: [String] = (0..<count).map { _ in
            Int.random(in: 0..<6, using: &rng) == 0 ? vocabulary.randomElement(using: &rng)! : source.randomElement(using: &rng)!
        }
        if Bool.random(using: &rng), let last = chosen.last, last.count > 1 {
            chosen[chosen.count - 1] = String(last.prefix(Int.random(in: 1..<last.count, using: &rng)))
        }
        chosen = chosen.map { word in
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return word.uppercased()
            case 1: return word.prefix(1).uppercased() + word.dropFirst()
            case 2: return word.replacingOccurrences(of: "e", with: "é")
            case 3: return word.replacingOccurrences(of: "u", with: "Ü")
            default: return word
            }
        }
        return chosen.joined(separator: " ")
    }

    /// Facet values that differ from another value only by punctuation or symbols
    /// ("Insignia™" and "Insignia\u{99}"): whether a filter on one matches the other is not
    /// what this test decides (see EngineFilterTests), so filters never use them.
    private static func ambiguousValues(_ products: [Product]) -> Set<String> {
        var byWords: [String: Set<String>] = [:]
        for product in products {
            for value in [product.brand] + product.categories { byWords[words(value).joined(separator: " "), default: []].insert(fold(value)) }
        }
        return Set(byWords.values.filter { $0.count > 1 }.flatMap { $0 })
    }

    private static func randomFacet(_ products: [Product], avoiding ambiguous: Set<String>, using rng: inout SeededGenerator) -> Filter {
        var product = products.randomElement(using: &rng)!
        var value: String
        let isBrand = product.categories.isEmpty || Bool.random(using: &rng)
        value = isBrand ? product.brand : product.categories.randomElement(using: &rng)!
        while ambiguous.contains(fold(value)) {
            product = products.randomElement(using: &rng)!
            value = isBrand ? product.brand : product.categories.randomElement(using: &rng)!
        }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: value = value.lowercased()
        case 1: value = value.uppercased()
        default: break
        }
        return isBrand ? .brand(value) : .category(value)
    }

    private static func randomNumeric(_ products: [Product], using rng: inout SeededGenerator) -> Filter {
        let price = products.randomElement(using: &rng)!.price
        let round = Double(Int.random(in: 1...500, using: &rng))
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return .price("<", round)
        case 1: return .price(">=", round)
        case 2: return .price("<=", price)
        case 3: return .price(">", price)
        case 4: return .price("=", price)
        case 5: return .price("!=", price)
        default: return .priceRange(min(round, price), max(round, price))
        }
    }

    private static func randomFilter(_ products: [Product], avoiding ambiguous: Set<String>, using rng: inout SeededGenerator) -> Filter {
        func facet() -> Filter { randomFacet(products, avoiding: ambiguous, using: &rng) }
        func numeric() -> Filter { randomNumeric(products, using: &rng) }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return facet()
        case 1: return numeric()
        case 2: return .and([facet(), numeric()])
        case 3: return .or([facet(), facet()])
        case 4: return .and([.or([facet(), facet()]), numeric()])
        case 5: return .and([.not(facet()), numeric()])
        case 6: return .and([.or([numeric(), numeric()]), facet()])
        default: return .and([facet(), .not(facet()), .or([facet(), facet(), facet()])])
        }
    }

    /// The brute-force answer: matching products, and facet counts in Algolia's order.
    private static func expected(query: String, filter: Filter?, products: [Product], vocabulary: [String])
        -> (matches: [Product], facets: [String: [String]])
    {
        let queryWords = words(query)
        var matches: [Product] = []
        if let last = queryWords.last {
            let whole = queryWords.dropLast()
            let prefixed = Set(vocabulary.filter { $0.hasPrefix(last) })
            for product in products where whole.allSatisfy({ product.tokens.contains($0) }) && !product.tokens.isDisjoint(with: prefixed) {
                matches.append(product)
            }
        } else {
            matches = products
        }
        if let filter { matches = matches.filter { filter.matches($0) } }

        var brands: [String: Int] = [:]
        var categories: [String: Int] = [:]
        for product in matches {
            brands[product.brand, default: 0] += 1
            for category in Set(product.categories) { categories[category, default: 0] += 1 }
        }
        func ordered(_ counts: [String: Int]) -> [String] {
            counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        }
        return (matches, ["brand": ordered(brands), "categories": ordered(categories)])
    }

    /// Runs `count` random cases; `filterRate` of 0...4 out of 4 get a filter.
    private static func run(seed: UInt64, count: Int, filterRate: Int, on source: Products = .shared) throws {
        let (_, index, products) = try load(source)
        let vocabulary = Array(products.reduce(into: Set<String>()) { $0.formUnion($1.tokens) }).sorted()
        let ambiguous = ambiguousValues(products)
        var rng = SeededGenerator(seed: seed)
        var nonEmpty = 0
        var failures = 0
        for caseNumber in 0..<count {
            let query = randomQuery(products, vocabulary: vocabulary, using: &rng)
            let filter = Int.random(in: 0..<4, using: &rng) < filterRate ? randomFilter(products, avoiding: ambiguous, using: &rng) : nil
            var parameters: JSONObject = ["query": .string(query), "hitsPerPage": 1000, "maxValuesPerFacet": 1000,
                                          "facets": ["brand", "categories", "price"], "attributesToHighlight": [],
                                          "attributesToRetrieve": ["brand"]]
            var filterDescription = "none"
            if let filter {
                if Bool.random(using: &rng), let list = filter.listParameters {
                    for (key, value) in list { parameters[key] = value }
                    filterDescription = JSONValue.object(list).jsonString
                } else {
                    parameters["filters"] = .string(filter.text)
                    filterDescription = filter.text
                }
            }
            let label = "seed \(seed) case \(caseNumber): query «\(query)» filter \(filterDescription)"
            let response = try index.search(SearchParameters(json: parameters))
            let truth = expected(query: query, filter: filter, products: products, vocabulary: vocabulary)
            let expectedIDs = Set(truth.matches.map(\.objectID))
            if !truth.matches.isEmpty { nonEmpty += 1 }

            var ok = true
            ok = ok && response.nbHits == truth.matches.count
            #expect(response.nbHits == truth.matches.count, "\(label)")
            let hitIDs = response.objectIDs
            #expect(Set(hitIDs).count == hitIDs.count, "duplicate hits: \(label)")
            if truth.matches.count <= 1000 {
                ok = ok && Set(hitIDs) == expectedIDs
                #expect(Set(hitIDs) == expectedIDs,
                        "\(label): missing \(expectedIDs.subtracting(hitIDs).prefix(3)), extra \(Set(hitIDs).subtracting(expectedIDs).prefix(3))")
            } else {
                ok = ok && hitIDs.count == 1000 && Set(hitIDs).isSubset(of: expectedIDs)
                #expect(hitIDs.count == 1000, "\(label)")
                #expect(Set(hitIDs).isSubset(of: expectedIDs), "\(label)")
            }
            for attribute in ["brand", "categories"] {
                let actual = response.facet(attribute)?.values.map { "\($0.value)=\($0.count)" } ?? []
                ok = ok && actual == truth.facets[attribute]
                #expect(actual == truth.facets[attribute], "\(label): facet \(attribute)")
            }
            if !truth.matches.isEmpty {
                let prices = truth.matches.map(\.price)
                let sum = prices.reduce(0, +)
                let stats = response.facetsStats?["price"]
                #expect(stats?.min == prices.min(), "\(label)")
                #expect(stats?.max == prices.max(), "\(label)")
                #expect(abs((stats?.sum ?? .nan) - sum) < 1e-6 * max(1, sum), "\(label)")
                #expect(abs((stats?.avg ?? .nan) - sum / Double(prices.count)) < 1e-6 * max(1, sum), "\(label)")
            }
            if !ok { failures += 1 }
            if failures > 5 { break }  // the first few failures say enough
        }
        // The generator must produce queries that find things, or the comparison proves little.
        #expect(nonEmpty > count / 3, "only \(nonEmpty) of \(count) cases had matches")
    }

    /// The real products of `../shared/datasets`, or the generated ones of `Datasets/`.
    enum Products {
        case shared, bundled
        func records() throws -> [JSONValue] {
            switch self {
            case .shared: return try SharedDatasets.records("products.json")
            case .bundled: return BundledDataset.named("instant_search")!.records()
            }
        }
    }

    @Test func queriesOnTheBundledProducts() throws {
        try DifferentialTests.run(seed: 0x5EED_0004, count: 150, filterRate: 2, on: .bundled)
    }

    @Test(.needsSharedDatasets) func queriesWithoutFilters() throws {
        try DifferentialTests.run(seed: 0x5EED_0001, count: 150, filterRate: 0)
    }

    @Test(.needsSharedDatasets) func queriesWithFilters() throws {
        try DifferentialTests.run(seed: 0x5EED_0002, count: 150, filterRate: 4)
    }

    @Test(.needsSharedDatasets) func queriesSometimesFiltered() throws {
        try DifferentialTests.run(seed: 0x5EED_0003, count: 150, filterRate: 2)
    }

    @Test(.needsSharedDatasets) func defaultFacetLimitKeepsTheTopValues() throws {
        try Self.checkTheDefaultFacetLimit(on: .shared)
    }

    @Test func defaultFacetLimitKeepsTheTopValuesOfTheBundledProducts() throws {
        try Self.checkTheDefaultFacetLimit(on: .bundled)
    }

    private static func checkTheDefaultFacetLimit(on source: Products) throws {
        let (_, index, products) = try DifferentialTests.load(source)
        let vocabulary = Array(products.reduce(into: Set<String>()) { $0.formUnion($1.tokens) }).sorted()
        for query in ["", "case", "ip", "black"] {
            let response = try index.search(query, ["facets": ["brand"], "hitsPerPage": 0])
            let truth = DifferentialTests.expected(query: query, filter: nil, products: products, vocabulary: vocabulary)
            let actual = response.facet("brand")?.values.map { "\($0.value)=\($0.count)" } ?? []
            #expect(actual == Array(truth.facets["brand"]!.prefix(100)), "«\(query)»")
            #expect(response.nbHits == truth.matches.count)
            #expect(response.hits.isEmpty)
        }
    }
}
