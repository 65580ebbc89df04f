import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// Filters against an independent brute-force evaluator over the raw records.
//
// The dataset is built here (seeded), so that every hard case is present on purpose: facet
// values that differ only by case or accents ("Nestlé" / "NESTLE"), by punctuation kept in the
// value ("L'Oréal"), array facets with repeated elements, missing attributes, empty arrays,
// numeric arrays, booleans, case-sensitive `_tags` and a nested `meta.color`.
//
// Hundreds of random expressions that Algolia ALLOWS (a conjunction of single filters, NOT
// single filter, and OR-groups of filters of one type) are sent as `filters`, as
// `facetFilters`/`numericFilters`/`tagFilters` nested arrays, or split between both, and the
// engine's objectIDs, nbHits, facet counts and facets_stats are compared with the evaluator.
//
// Semantics the evaluator implements (Algolia's filters):
// - attribute names are case-sensitive (`Brand:x` matches nothing);
// - facet values compare case- and diacritic-insensitively (lowercase, accents stripped,
//   punctuation kept); tags compare exactly;
// - an array matches when any element matches; a record without the attribute never matches a
//   positive filter and always matches its NOT;
// - numeric `attr != x` is, as documented in Filters/FilterEvaluator.swift, "the record has a
//   value that differs from x": `sizes: [3, 4]` matches `sizes != 3`, and a record without
//   `sizes` (or with `sizes: []`) does not. `NOT sizes = 3` is the complement of `sizes = 3`
//   and so does match records without sizes. `numericNotEqualIsAnyValueDiffers` pins this.
// - facet counts are per exact value text (as the engine documents in FacetColumn), each value
//   once per record, ordered by count descending then value (UTF-8 byte order).

private typealias FilterRandom = SeededGenerator

// MARK: - The brute force

/// Facet-value key: lowercase, no diacritics, punctuation kept (Foundation's folding, not the engine's).
private func facetFold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
}

/// The values under a dotted path, arrays flattened, nulls and objects skipped.
private func rawValues(_ path: String, in record: JSONValue) -> [JSONValue] {
    var current: [JSONValue] = [record]
    for key in path.split(separator: ".") {
        var next: [JSONValue] = []
        for value in current {
            if case .object(let object) = value, let child = object[String(key)] { next.append(child) }
        }
        current = next
    }
    var result: [JSONValue] = []
    func flatten(_ value: JSONValue) {
        switch value {
        case .array(let elements): elements.forEach(flatten)
        case .null, .object: break
        default: result.append(value)
        }
    }
    current.forEach(flatten)
    return result
}

/// A scalar as a facet value: strings as they are, booleans `true`/`false`.
private func facetTexts(_ path: String, in record: JSONValue) -> [String] {
    rawValues(path, in: record).compactMap { value in
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }
}

private func numbers(_ path: String, in record: JSONValue) -> [Double] {
    rawValues(path, in: record).compactMap { value in
        switch value {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
}

private func compare(_ value: Double, _ op: String, _ bound: Double) -> Bool {
    switch op {
    case "<": value < bound
    case "<=": value <= bound
    case "=": value == bound
    case "!=": value != bound
    case ">=": value >= bound
    default: value > bound
    }
}

private func numberText(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}

/// Facet counts in Algolia's order, as "value=count".
private func orderedCounts(_ counts: [String: Int]) -> [String] {
    counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        .map { "\($0.key)=\($0.value)" }
}

// MARK: - Filters as the generator builds them

/// One single filter: how it is written in `filters`, in the list parameters, and what it means.
private struct Leaf {
    enum Kind { case facet, numeric, tag }
    let kind: Kind
    /// In the `filters` grammar.
    let text: String
    /// The list parameter that can carry it, with its positive and negated element
    /// (nil when that list cannot say it).
    let listParameter: String
    let element: String
    let negatedElement: String?
    /// Only ever used positively (a filter whose NOT this test does not decide).
    let positiveOnly: Bool
    let test: @Sendable (JSONValue) -> Bool
}

private enum Term {
    case single(Leaf)
    case not(Leaf)
    case anyOf([Leaf])

    var text: String {
        switch self {
        case .single(let leaf): leaf.text
        case .not(let leaf): "NOT " + leaf.text
        case .anyOf(let leaves): "(" + leaves.map(\.text).joined(separator: " OR ") + ")"
        }
    }

    func matches(_ record: JSONValue) -> Bool {
        switch self {
        case .single(let leaf): leaf.test(record)
        case .not(let leaf): !leaf.test(record)
        case .anyOf(let leaves): leaves.contains { $0.test(record) }
        }
    }

    /// (parameter, element) when a list parameter can say this term.
    var listForm: (String, JSONValue)? {
        switch self {
        case .single(let leaf): return (leaf.listParameter, .string(leaf.element))
        case .not(let leaf): return leaf.negatedElement.map { (leaf.listParameter, .string($0)) }
        case .anyOf(let leaves):
            let parameter = leaves[0].listParameter
            guard leaves.allSatisfy({ $0.listParameter == parameter }) else { return nil }
            return (parameter, .array(leaves.map { .string($0.element) }))
        }
    }
}

// MARK: - The dataset

private enum Pools {
    /// Brands: several differ only by case or accents, two by case/accents with punctuation kept.
    static let brands = ["Samsung", "samsung", "SAMSUNG", "Nestlé", "Nestle", "NESTLÉ", "Café Bleu", "cafe bleu",
                         "L'Oréal", "l'oreal", "Dr. Oetker", "Sony", "Zoë", "ZOE"]
    static let tagsList = ["red", "Red", "blue", "Éco", "eco", "ECO", "large size", "Large Size", "small-size", "über", "Uber"]
    static let colors = ["red", "Red", "grün", "GRUN", "blue", "Bleu"]
    static let tags = ["new", "New", "sale", "SALE", "featured", "clearance", "über"]
    /// Values no record has.
    static let absentFacetValues = ["Nokia", "purple", "Dr Oetker"]
    static let absentTags = ["NEW", "Featured", "uber"]
}

private enum Dataset {
    static let settings: JSONObject = [
        "searchableAttributes": ["name"],
        "attributesForFaceting": ["brand", "tags_list", "price", "filterOnly(sizes)", "in_stock", "meta.color"],
    ]

    static func records(count: Int, seed: UInt64) -> [JSONValue] {
        var rng = FilterRandom(seed: seed)
        var records: [JSONValue] = []
        for i in 0..<count {
            var record: JSONObject = ["objectID": .string("r\(i)"), "name": .string("item \(i)")]
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<90: record["brand"] = .string(rng.pick(Pools.brands))
            case 90..<93: record["brand"] = .null
            default: break
            }
            if rng.chance(90) {
                // 0–3 elements, sometimes repeated (a value counts once per record).
                let elements = (0..<Int.random(in: 0...3, using: &rng)).map { _ in rng.pick(Pools.tagsList) }
                record["tags_list"] = .array(elements.map { .string($0) })
            }
            if rng.chance(85) {
                record["price"] = rng.chance(70) ? .int(Int64.random(in: 1...200, using: &rng))
                    : .double(Double(Int.random(in: 0...400, using: &rng)) / 2 + 0.5)
            }
            if rng.chance(80) {
                record["sizes"] = .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in .int(Int64.random(in: 1...12, using: &rng)) })
            }
            if rng.chance(85) { record["in_stock"] = .bool(rng.chance(50)) }
            if rng.chance(85) {
                record["_tags"] = .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in .string(rng.pick(Pools.tags)) })
            }
            if rng.chance(80) {
                record["meta"] = rng.chance(85) ? ["color": .string(rng.pick(Pools.colors)), "weight": 2] : ["weight": 3]
            }
            records.append(.object(record))
        }
        return records
    }
}

// MARK: - The generator

private struct FilterGenerator {
    var rng: FilterRandom
    let prices: [Double]

    /// A facet value as a user would type it: as stored, lowercased, uppercased or without accents.
    mutating func variant(_ value: String) -> String {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: value.lowercased()
        case 1: value.uppercased()
        case 2: value.folding(options: .diacriticInsensitive, locale: nil)
        default: value
        }
    }

    /// `attr:value`, the value bare when it can be, else in double or single quotes.
    mutating func facetText(_ attribute: String, _ value: String) -> String {
        let bare = value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        if bare && rng.chance(60) { return "\(attribute):\(value)" }
        if !value.contains("'") && rng.chance(30) { return "\(attribute):'\(value)'" }
        return "\(attribute):\"\(value)\""
    }

    mutating func facet(_ attribute: String, _ pool: [String]) -> Leaf {
        let value = variant(rng.chance(8) ? rng.pick(Pools.absentFacetValues) : rng.pick(pool))
        let key = facetFold(value)
        return Leaf(kind: .facet, text: facetText(attribute, value), listParameter: "facetFilters",
                    element: "\(attribute):\(value)", negatedElement: "\(attribute):-\(value)", positiveOnly: false,
                    test: { record in facetTexts(attribute, in: record).contains { facetFold($0) == key } })
    }

    mutating func boolean() -> Leaf {
        let value = rng.chance(50) ? "true" : "false"
        return Leaf(kind: .facet, text: "in_stock:\(value)", listParameter: "facetFilters", element: "in_stock:\(value)",
                    negatedElement: "in_stock:-\(value)", positiveOnly: false,
                    test: { record in facetTexts("in_stock", in: record).contains(value) })
    }

    /// An attribute name in the wrong case: not a facet, matches nothing.
    mutating func wrongCaseAttribute() -> Leaf {
        let attribute = rng.pick(["Brand", "BRAND", "Tags_list", "Meta.color"])
        let value = rng.pick(Pools.brands + Pools.colors)
        return Leaf(kind: .facet, text: facetText(attribute, value), listParameter: "facetFilters",
                    element: "\(attribute):\(value)", negatedElement: nil, positiveOnly: true, test: { _ in false })
    }

    mutating func bound(_ attribute: String) -> Double {
        if attribute == "sizes" { return Double(Int.random(in: 0...13, using: &rng)) }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return Double(Int.random(in: 0...210, using: &rng))
        case 1: return Double(Int.random(in: 0...420, using: &rng)) / 2
        default: return rng.pick(prices)  // an exact stored value, so = and != are interesting
        }
    }

    mutating func numeric() -> Leaf {
        let attribute = rng.chance(60) ? "price" : "sizes"
        if rng.chance(25) {
            let a = bound(attribute), b = bound(attribute)
            let low = min(a, b), high = max(a, b)
            let text = "\(attribute):\(numberText(low)) TO \(numberText(high))"
            return Leaf(kind: .numeric, text: text, listParameter: "numericFilters", element: text, negatedElement: nil,
                        positiveOnly: false,
                        test: { record in numbers(attribute, in: record).contains { $0 >= low && $0 <= high } })
        }
        let op = rng.pick(["<", "<=", "=", "!=", ">=", ">"])
        let value = bound(attribute)
        let spaced = rng.chance(50)
        let text = spaced ? "\(attribute) \(op) \(numberText(value))" : "\(attribute)\(op)\(numberText(value))"
        return Leaf(kind: .numeric, text: text, listParameter: "numericFilters", element: "\(attribute)\(op)\(numberText(value))",
                    negatedElement: nil, positiveOnly: false,
                    test: { record in numbers(attribute, in: record).contains { compare($0, op, value) } })
    }

    mutating func tag() -> Leaf {
        let tag = rng.chance(12) ? rng.pick(Pools.absentTags) : rng.pick(Pools.tags)
        let text = rng.chance(70) ? "_tags:\(tag)" : "_tags:\"\(tag)\""
        // As tagFilters or as a `_tags:` facet filter: both are tag filters.
        let asFacet = rng.chance(30)
        return Leaf(kind: .tag, text: text, listParameter: asFacet ? "facetFilters" : "tagFilters",
                    element: asFacet ? "_tags:\(tag)" : tag, negatedElement: asFacet ? "_tags:-\(tag)" : "-\(tag)",
                    positiveOnly: false, test: { record in facetTexts("_tags", in: record).contains(tag) })
    }

    mutating func leaf(of kind: Leaf.Kind) -> Leaf {
        switch kind {
        case .numeric: return numeric()
        case .tag: return tag()
        case .facet:
            switch Int.random(in: 0..<20, using: &rng) {
            case 0..<8: return facet("brand", Pools.brands)
            case 8..<13: return facet("tags_list", Pools.tagsList)
            case 13..<16: return facet("meta.color", Pools.colors)
            case 16..<19: return boolean()
            default: return wrongCaseAttribute()
            }
        }
    }

    mutating func kind() -> Leaf.Kind {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<5: .facet
        case 5..<8: .numeric
        default: .tag
        }
    }

    mutating func term() -> Term {
        let roll = Int.random(in: 0..<100, using: &rng)
        if roll < 45 { return .single(leaf(of: kind())) }
        if roll < 65 {
            var candidate = leaf(of: kind())
            while candidate.positiveOnly { candidate = leaf(of: kind()) }
            return .not(candidate)
        }
        let groupKind = kind()
        return .anyOf((0..<Int.random(in: 2...3, using: &rng)).map { _ in leaf(of: groupKind) })
    }

    mutating func expression() -> [Term] {
        (0..<Int.random(in: 1...4, using: &rng)).map { _ in term() }
    }
}

// MARK: - Tests

@Suite struct FilterDifferentialTests {
    /// The request for one expression: all of it in `filters` (mode 0), all of it in the list
    /// parameters when they can say it (mode 1), or each term where it can go (mode 2).
    private static func parameters(for terms: [Term], mode: Int, rng: inout FilterRandom) -> (JSONObject, String) {
        var filterTerms: [Term] = []
        var lists: [String: [JSONValue]] = [:]
        let allListable = terms.allSatisfy { $0.listForm != nil }
        for term in terms {
            let useList: Bool
            switch mode {
            case 0: useList = false
            case 1: useList = allListable
            default: useList = term.listForm != nil && rng.chance(50)
            }
            if useList, let (parameter, element) = term.listForm {
                lists[parameter, default: []].append(element)
            } else {
                filterTerms.append(term)
            }
        }
        var object: JSONObject = ["hitsPerPage": 1000, "maxValuesPerFacet": 1000, "facets": ["brand", "tags_list", "price"],
                                  "attributesToRetrieve": ["objectID"], "attributesToHighlight": []]
        var description: [String] = []
        if !filterTerms.isEmpty {
            let text = filterTerms.map(\.text).joined(separator: " AND ")
            object["filters"] = .string(text)
            description.append("filters: \(text)")
        }
        for (parameter, elements) in lists.sorted(by: { $0.key < $1.key }) {
            // A lone single element is sometimes sent as a bare string, as clients do.
            if elements.count == 1, case .string = elements[0], rng.chance(30) {
                object[parameter] = elements[0]
            } else {
                object[parameter] = .array(elements)
            }
            description.append("\(parameter): \(object[parameter]!.jsonString)")
        }
        return (object, description.joined(separator: " + "))
    }

    private static func run(seed: UInt64, count: Int) throws {
        let records = Dataset.records(count: 400, seed: 0xDA7A_5E7)
        let engine = try TestEngine()
        let index = try engine.index(settings: Dataset.settings, records: records)
        let prices = Array(Set(records.flatMap { numbers("price", in: $0) })).sorted()
        var generator = FilterGenerator(rng: FilterRandom(seed: seed), prices: prices)
        var rng = FilterRandom(seed: seed ^ 0xFFFF)
        var failures = 0, someButNotAll = 0
        for caseNumber in 0..<count {
            let terms = generator.expression()
            let (parameters, description) = parameters(for: terms, mode: caseNumber % 3, rng: &rng)
            let label = "seed \(seed) case \(caseNumber): \(description)"
            let response: SearchResponse
            do {
                response = try index.search(SearchParameters(json: parameters))
            } catch {
                Issue.record("\(label): unexpected error \(error)")
                failures += 1
                if failures > 5 { break }
                continue
            }
            let matches = records.filter { record in terms.allSatisfy { $0.matches(record) } }
            let expectedIDs = Set(matches.compactMap { $0["objectID"]?.stringValue })
            if !matches.isEmpty && matches.count < records.count { someButNotAll += 1 }

            var ok = response.nbHits == matches.count && Set(response.objectIDs) == expectedIDs
                && response.objectIDs.count == expectedIDs.count
            #expect(response.nbHits == matches.count, "\(label)")
            #expect(Set(response.objectIDs) == expectedIDs,
                    "\(label): missing \(expectedIDs.subtracting(response.objectIDs).sorted().prefix(4)), extra \(Set(response.objectIDs).subtracting(expectedIDs).sorted().prefix(4))")
            for attribute in ["brand", "tags_list"] {
                var counts: [String: Int] = [:]
                for record in matches {
                    for value in Set(facetTexts(attribute, in: record)) { counts[value, default: 0] += 1 }
                }
                let actual = response.facet(attribute)?.values.map { "\($0.value)=\($0.count)" } ?? []
                ok = ok && actual == orderedCounts(counts)
                #expect(actual == orderedCounts(counts), "\(label): facet \(attribute)")
            }
            let matchedPrices = matches.compactMap { numbers("price", in: $0).first }
            if matchedPrices.isEmpty {
                #expect(response.facetsStats?["price"] == nil, "\(label)")
            } else {
                let sum = matchedPrices.reduce(0, +)
                let stats = response.facetsStats?["price"]
                let statsOK = stats?.min == matchedPrices.min() && stats?.max == matchedPrices.max()
                    && abs((stats?.sum ?? .nan) - sum) < 1e-9 * max(1, sum)
                    && abs((stats?.avg ?? .nan) - sum / Double(matchedPrices.count)) < 1e-9 * max(1, sum)
                ok = ok && statsOK
                #expect(statsOK, "\(label): facets_stats \(String(describing: stats)), expected min \(matchedPrices.min()!) max \(matchedPrices.max()!) sum \(sum)")
            }
            if !ok { failures += 1 }
            if failures > 5 { break }  // the first few failures say enough
        }
        // The generator must produce selective filters, or the comparison proves little.
        #expect(someButNotAll > count / 3, "only \(someButNotAll) of \(count) cases selected some but not all records")
    }

    @Test(arguments: [UInt64(0xF117_0001), 0xF117_0002, 0xF117_0003])
    func randomFiltersAgreeWithBruteForce(seed: UInt64) throws {
        try FilterDifferentialTests.run(seed: seed, count: 150)
    }

    /// The dataset really has the cases the random test is meant to exercise.
    @Test func datasetHasTheHardCases() {
        let records = Dataset.records(count: 400, seed: 0xDA7A_5E7)
        let brands = Set(records.flatMap { facetTexts("brand", in: $0) })
        #expect(brands.isSuperset(of: ["Nestlé", "NESTLÉ", "Nestle", "L'Oréal", "l'oreal"]))
        #expect(records.contains { $0["brand"] == nil } && records.contains { $0["brand"] == .null })
        #expect(records.contains { $0["price"] == nil } && records.contains { $0["sizes"] == nil })
        #expect(records.contains { $0["sizes"] == .array([]) })
        #expect(records.contains { record in
            let values = facetTexts("tags_list", in: record)
            return Set(values).count < values.count
        })
        #expect(records.contains { $0["meta"] != nil && $0["meta"]?["color"] == nil })
    }

    /// The `!=` choice stated at the top of this file, on hand-made records.
    @Test func numericNotEqualIsAnyValueDiffers() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["attributesForFaceting": ["filterOnly(sizes)"]], records: [
            ["objectID": "only3", "sizes": [3]],
            ["objectID": "3and4", "sizes": [3, 4]],
            ["objectID": "only4", "sizes": [4]],
            ["objectID": "scalar3", "sizes": 3],
            ["objectID": "empty", "sizes": []],
            ["objectID": "missing"],
        ])
        func ids(_ parameters: JSONObject) throws -> Set<String> { Set(try index.search("", parameters).objectIDs) }
        #expect(try ids(["filters": "sizes != 3"]) == ["3and4", "only4"])
        #expect(try ids(["numericFilters": ["sizes!=3"]]) == ["3and4", "only4"])
        #expect(try ids(["filters": "NOT sizes = 3"]) == ["only4", "empty", "missing"])
        #expect(try ids(["filters": "sizes = 3"]) == ["only3", "3and4", "scalar3"])
        #expect(try ids(["filters": "NOT sizes != 3"]) == ["only3", "scalar3", "empty", "missing"])
        #expect(try ids(["filters": "sizes:3 TO 3"]) == ["only3", "3and4", "scalar3"])
    }

    /// Algolia's restrictions, through a real search: a SearchError of kind invalidFilter whose
    /// message names `filters` and the column of the offending operator; the valid forms beside
    /// them are accepted.
    @Test(arguments: [
        ("price = 3 OR brand:Samsung", 11),
        ("brand:Samsung OR _tags:new", 15),
        ("in_stock:true OR price > 5", 15),
        ("brand:Sony AND (_tags:sale OR sizes:1 TO 3)", 28),
        ("(meta.color:red OR price < 10) AND _tags:new", 17),
        ("NOT (brand:Samsung OR brand:Sony)", 1),
        ("in_stock:true AND NOT (_tags:new OR _tags:sale)", 19),
        ("brand:Sony OR (tags_list:red AND price < 3)", 30),
        ("(brand:Sony AND in_stock:true) OR brand:Samsung", 13),
        ("brand:Sony OR tags_list:red AND _tags:new", 29),
        ("(price < 5 OR price > 100) AND (brand:Sony OR (brand:Zoë AND in_stock:false))", 58),
    ])
    func disallowedCombinationsAreInvalidFilterErrors(filter: String, column: Int) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: Dataset.settings, records: Dataset.records(count: 20, seed: 1))
        do {
            let response = try index.search("", ["filters": .string(filter), "facetFilters": ["brand:Sony"]])
            Issue.record("«\(filter)» was accepted: \(response.nbHits) hits")
        } catch let error as SearchError {
            #expect(error.kind == .invalidFilter, "«\(filter)»: \(error.message)")
            #expect(error.status == 400)
            #expect(error.message.hasPrefix("filters:"), "«\(filter)»: \(error.message)")
            #expect(error.message.contains("col \(column)"), "«\(filter)»: \(error.message)")
        }
    }

    @Test(arguments: [
        "brand:Sony AND (_tags:sale OR _tags:new) AND (price < 5 OR sizes:1 TO 3)",
        "(brand:Sony OR meta.color:red OR in_stock:true) AND NOT _tags:new",
        "NOT price < 10 AND NOT brand:'Café Bleu' AND (_tags:\"über\" OR _tags:SALE)",
    ])
    func allowedCombinationsAreAccepted(filter: String) throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: Dataset.settings, records: Dataset.records(count: 20, seed: 1))
        _ = try index.search("", ["filters": .string(filter)])
    }
}
