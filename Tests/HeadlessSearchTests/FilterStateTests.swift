import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI

/// FilterState: its `filters` string (strict grammar, quoting, numbers), its groups, and a
/// property test: random states select in the engine exactly the records that evaluating the
/// state in Swift selects.
@MainActor
@Suite struct FilterStateTests {
    static let brand = "brand"

    @Test(arguments: [
        (Filter.facet(.init(attribute: "brand", stringValue: "Apple")), #""brand":"Apple""#),
        (.facet(.init(attribute: "brand", stringValue: #"say "hi" \ bye"#)), #""brand":"say \"hi\" \\ bye""#),
        (.facet(.init(attribute: "name with space", stringValue: "AND")), #""name with space":"AND""#),
        (.facet(.init(attribute: "free_shipping", boolValue: true)), #""free_shipping":true"#),
        (.facet(.init(attribute: "rating", floatValue: 4)), #""rating":4"#),
        (.facet(.init(attribute: "brand", stringValue: "-dash", isNegated: true)), #"NOT "brand":"-dash""#),
        (.numeric(.init(attribute: "price", operator: .greaterThanOrEqual, value: 10)), #""price" >= 10"#),
        (.numeric(.init(attribute: "price", operator: .notEquals, value: -3.25)), #""price" != -3.25"#),
        (.numeric(.init(attribute: "price", range: 0.00001...20.5)), #""price":0.00001 TO 20.5"#),
        (.numeric(.init(attribute: "price", operator: .lessThan, value: 1e16, isNegated: true)), #"NOT "price" < 10000000000000000"#),
        (.tag(.init(value: "new")), #""_tags":"new""#),
        (.tag(.init(value: "new", isNegated: true)), #"NOT "_tags":"new""#),
    ])
    func oneFilter(_ filter: Filter, _ expected: String) {
        #expect(filter.filterString == expected)
    }

    @Test(arguments: [
        (0.1, "0.1"), (1e-5, "0.00001"), (1.5e-7, "0.00000015"), (1e16, "10000000000000000"),
        (-2.5e20, "-250000000000000000000"), (123.456, "123.456"), (-0.0, "0"), (42, "42"),
    ])
    func numbersAreWrittenInPlainDecimals(_ value: Double, _ expected: String) {
        #expect(FilterSyntax.number(value) == expected)
        #expect(Double(FilterSyntax.number(value)) == value)
    }

    @Test func groupsCombineAsAConjunctionOfDisjunctions() {
        let filterState = FilterState()
        filterState[or: "brand"].add(Filter.Facet(attribute: "brand", stringValue: "Apple"),
                                     Filter.Facet(attribute: "brand", stringValue: "Sony"))
        filterState[and: "misc"].add(Filter.Numeric(attribute: "price", operator: .lessThan, value: 500),
                                     Filter.Tag(value: "refurbished", isNegated: true))
        let ratings: OrGroupAccessor<Filter.Numeric> = filterState[or: "rating"]
        ratings.add(Filter.Numeric(attribute: "rating", operator: .equals, value: 4))
        filterState[hierarchical: "categories"].set(["cat.lvl0", "cat.lvl1"])
        filterState[hierarchical: "categories"].set([Filter.Facet(attribute: "cat.lvl0", stringValue: "Phones"),
                                                     Filter.Facet(attribute: "cat.lvl1", stringValue: "Phones > Cases")])
        #expect(filterState.filters.filtersString == #"("brand":"Apple" OR "brand":"Sony") AND "price" < 500 AND NOT "_tags":"refurbished" AND "rating" = 4 AND "cat.lvl1":"Phones > Cases""#)

        // An OR group holds one filter type: Algolia cannot OR a facet with a number.
        let facetGroup = FilterGroup.ID.or(name: "brand", filterType: .facet)
        #expect(filterState.filters.add(.numeric(.init(attribute: "price", operator: .lessThan, value: 3)), toGroupWithID: facetGroup) == false)
        // Removing the last filter of a group removes the group.
        filterState[or: "rating", type: Filter.Numeric.self].removeAll()
        #expect(!filterState.filters.groupIDs.contains(.or(name: "rating", filterType: .numeric)))
        filterState[hierarchical: "categories"].removeAll()
        #expect(filterState.filters.hierarchicalFilters.isEmpty)
        #expect(filterState.filters.hierarchicalAttributes["categories"] == ["cat.lvl0", "cat.lvl1"])
    }

    @Test func changesArePublishedOnNotifyChange() {
        let filterState = FilterState()
        let changes = EventLog(filterState.onChange)
        filterState[and: "x"].add(Filter.Tag(value: "a"))
        filterState[and: "x"].toggle(Filter.Tag(value: "b"))
        #expect(changes.count == 0)
        filterState.notifyChange()
        #expect(changes.values.map(\.filtersString) == [#""_tags":"a" AND "_tags":"b""#])
    }

    @Test(arguments: [
        (["brand:Apple OR brand:Sony", #""price" < 100"#], #"(brand:Apple OR brand:Sony) AND "price" < 100"#),
        (["(brand:Apple OR brand:Sony) AND free:true", "x:y"], "(brand:Apple OR brand:Sony) AND free:true AND x:y"),
        ([#"brand:"A OR B""#, "x:y"], #"brand:"A OR B" AND x:y"#),
        (["  ", nil, "x:y"], "x:y"),
        ([nil, ""], nil),
    ] as [([String?], String?)])
    func handSetFiltersAreANDedWithTheState(_ parts: [String?], _ expected: String?) {
        #expect(FilterSyntax.and(parts) == expected)
    }

    // MARK: - Property test

    /// 240 records with values that need quoting and escaping, arrays, missing attributes,
    /// booleans, multi-valued numbers, tags in two cases, and a two-level hierarchy.
    static let brands = ["Apple", "Bang & Olufsen", "O'Reilly", #"say "hi""#, #"back\slash"#, "AND", "-dash", "(paren)",
                         "a:b", "NOT", "OR", "Ünïcode", "x > y", "two  spaces", "Sony", #"trailing\"#, #"back\"quote"#]
    static let colors = ["red", "Blue", "dark red", "green", "TO", "1"]
    static let tags = ["new", "New", "sale", "last piece", #"a"quote"#]
    static let categories = ["Phones", "Audio", "TV & Home"]

    static func records() -> [JSONValue] {
        var generator = SeededGenerator(seed: 7)
        return (0..<240).map { (i: Int) -> JSONValue in
            var record = JSONObject()
            record["objectID"] = .string("r\(i)")
            record["name"] = .string("record \(i)")
            if i % 11 != 0 { record["brand"] = .string(brands[Int.random(in: 0..<brands.count, using: &generator)]) }
            let colorCount = Int.random(in: 0...3, using: &generator)
            record["color"] = .array((0..<colorCount).map { _ in .string(colors.randomElement(using: &generator)!) })
            record["free"] = .bool(Bool.random(using: &generator))
            if i % 7 != 0 { record["price"] = .double(Double(Int.random(in: -500...50_000, using: &generator)) / 100) }
            record["rating"] = .int(Int64(Int.random(in: 1...5, using: &generator)))
            record["sizes"] = .array((0..<Int.random(in: 0...2, using: &generator)).map { _ in .double(Double(Int.random(in: 70...90, using: &generator)) / 2) })
            record["_tags"] = .array((0..<Int.random(in: 0...2, using: &generator)).map { _ in .string(tags.randomElement(using: &generator)!) })
            let top = categories[i % categories.count]
            let sub = "\(top) > \(["Cases", "Chargers"][i % 2])"
            record["cat"] = ["lvl0": .string(top), "lvl1": .string(sub)]
            return .object(record)
        }
    }

    static let settings: JSONObject = ["searchableAttributes": ["name"],
                                       "attributesForFaceting": ["brand", "color", "free", "cat.lvl0", "cat.lvl1"]]

    static let numericAttributes = ["price", "rating", "sizes"]

    /// A random filter of a kind, drawn from values the records have (in random case) or not.
    static func randomFilter(_ kind: Filter.Kind, using generator: inout SeededGenerator) -> Filter {
        let negated = Int.random(in: 0..<4, using: &generator) == 0
        switch kind {
        case .facet:
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: return .facet(.init(attribute: "free", boolValue: Bool.random(using: &generator), isNegated: negated))
            case 1, 2:
                var value = colors.randomElement(using: &generator)!
                if Bool.random(using: &generator) { value = value.uppercased() }
                return .facet(.init(attribute: "color", stringValue: value, isNegated: negated))
            default:
                var value = Int.random(in: 0..<10, using: &generator) == 0 ? "Absent brand" : brands.randomElement(using: &generator)!
                if Bool.random(using: &generator) { value = value.lowercased() }
                return .facet(.init(attribute: "brand", stringValue: value, isNegated: negated))
            }
        case .numeric:
            let attribute = numericAttributes.randomElement(using: &generator)!
            let bound = { (generator: inout SeededGenerator) -> Double in
                switch attribute {
                case "rating": Double(Int.random(in: 0...6, using: &generator))
                case "sizes": Double(Int.random(in: 68...92, using: &generator)) / 2
                default: Double(Int.random(in: -1000...60_000, using: &generator)) / 100
                }
            }
            if Int.random(in: 0..<3, using: &generator) == 0 {
                let a = bound(&generator)
                let b = bound(&generator)
                return .numeric(.init(attribute: attribute, range: min(a, b)...max(a, b), isNegated: negated))
            }
            let op = Filter.Numeric.Operator.allCases.randomElement(using: &generator)!
            return .numeric(.init(attribute: attribute, operator: op, value: bound(&generator), isNegated: negated))
        case .tag:
            let value = Int.random(in: 0..<8, using: &generator) == 0 ? "absent" : tags.randomElement(using: &generator)!
            return .tag(.init(value: value, isNegated: negated))
        }
    }

    static func randomFilters(using generator: inout SeededGenerator) -> Filters {
        var filters = Filters()
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            let name = ["a", "b", "brand"].randomElement(using: &generator)!
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let kind = Filter.Kind.allCases.randomElement(using: &generator)!
                    filters.add(randomFilter(kind, using: &generator), toGroupWithID: .and(name: name))
                }
            case 4:
                let top = categories.randomElement(using: &generator)!
                var path = [Filter.Facet(attribute: "cat.lvl0", stringValue: top)]
                if Bool.random(using: &generator) {
                    path.append(Filter.Facet(attribute: "cat.lvl1", stringValue: "\(top) > \(["Cases", "Chargers"].randomElement(using: &generator)!)"))
                }
                filters.setHierarchicalAttributes(["cat.lvl0", "cat.lvl1"], forGroupNamed: name)
                filters.setHierarchicalFilters(path, forGroupNamed: name)
            default:
                let kind = Filter.Kind.allCases.randomElement(using: &generator)!
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    filters.add(randomFilter(kind, using: &generator), toGroupWithID: .or(name: name, filterType: kind))
                }
            }
        }
        return filters
    }

    /// The values under a path, arrays flattened.
    nonisolated static func values(_ record: JSONValue, _ path: String) -> [JSONValue] {
        guard let value = record.value(atPath: path) else { return [] }
        if case .array(let elements) = value { return elements }
        return [value]
    }

    /// Algolia's semantics, evaluated directly on the record.
    nonisolated static func matches(_ filter: Filter, _ record: JSONValue) -> Bool {
        let positive: Bool
        switch filter {
        case .facet(let facet):
            let wanted = facet.value.description.lowercased()
            positive = values(record, facet.attribute).contains { $0.scalarText?.lowercased() == wanted }
        case .numeric(let numeric):
            let numbers = values(record, numeric.attribute).compactMap(\.doubleValue)
            switch numeric.value {
            case .range(let range): positive = numbers.contains { range.contains($0) }
            case .comparison(let op, let bound):
                positive = numbers.contains { value in
                    switch op {
                    case .lessThan: value < bound
                    case .lessThanOrEqual: value <= bound
                    case .equals: value == bound
                    case .notEquals: value != bound
                    case .greaterThanOrEqual: value >= bound
                    case .greaterThan: value > bound
                    }
                }
            }
        case .tag(let tag):
            positive = values(record, "_tags").contains { $0.stringValue == tag.value }
        }
        return filter.isNegated ? !positive : positive
    }

    nonisolated static func matches(_ filters: Filters, _ record: JSONValue) -> Bool {
        filters.groups.allSatisfy { group in
            switch group.id {
            case .and, .hierarchical: group.filters.allSatisfy { matches($0, record) }
            case .or: group.filters.contains { matches($0, record) }
            }
        }
    }

    /// Hand-written `filters` a searcher may carry, with their meaning.
    static let handWritten: [(text: String, matches: @Sendable (JSONValue) -> Bool)] = [
        ("rating >= 3", { values($0, "rating").compactMap(\.doubleValue).contains { $0 >= 3 } }),
        ("free:true OR color:red", { values($0, "free") == [.bool(true)] || values($0, "color").contains("red") }),
        ("NOT _tags:sale", { !values($0, "_tags").contains("sale") }),
    ]

    /// The shape Algolia requires: ANDs of single filters and parenthesized OR groups, with
    /// NOT only before a single filter; every quoted string closed.
    static func isStrictConjunctionOfDisjunctions(_ text: String) -> Bool {
        var tokens: [String] = []
        var characters = Array(text)[...]
        while let first = characters.first {
            if first == " " { characters.removeFirst(); continue }
            if first == "(" || first == ")" { tokens.append(String(first)); characters.removeFirst(); continue }
            var token = ""
            var inQuote = false
            while let c = characters.first, inQuote || (c != " " && c != "(" && c != ")") {
                characters.removeFirst()
                token.append(c)
                if inQuote, c == "\\", let next = characters.first { token.append(next); characters.removeFirst(); continue }
                if c == "\"" { inQuote.toggle() }
            }
            if inQuote { return false }
            tokens.append(token)
        }
        var depth = 0
        var previous = ""
        for token in tokens {
            switch token {
            case "(":
                if previous == "NOT" || depth > 0 { return false }
                depth += 1
            case ")":
                depth -= 1
                if depth < 0 { return false }
            case "AND": if depth > 0 { return false }
            case "OR": if depth == 0 { return false }
            default: break
            }
            previous = token
        }
        return depth == 0
    }

    @Test func randomFilterStatesSelectInTheEngineWhatTheyMeanInSwift() async throws {
        let test = try TestEngine()
        let records = Self.records()
        try test.index("catalogue", settings: Self.settings, records: records)
        var generator = SeededGenerator(seed: 2024)
        var nonEmptyResults = 0
        var differentFromAll = 0
        for round in 0..<300 {
            let filters = Self.randomFilters(using: &generator)
            let stateText = filters.filtersString
            if let stateText {
                #expect(Self.isStrictConjunctionOfDisjunctions(stateText), "not Algolia's strict shape: \(stateText)")
            }
            var handWritten: (text: String, matches: @Sendable (JSONValue) -> Bool)?
            if round % 4 == 3 { handWritten = Self.handWritten[round / 4 % Self.handWritten.count] }
            var parameters = SearchParameters()
            parameters.filters = FilterSyntax.and([handWritten?.text, stateText])
            parameters.hitsPerPage = 1000
            parameters.attributesToRetrieve = ["objectID"]
            let expected = Set(records.filter { record in
                Self.matches(filters, record) && (handWritten?.matches(record) ?? true)
            }.compactMap { $0["objectID"]?.stringValue })
            let response: SearchResponse
            do {
                response = try await test.engine.search(indexName: "catalogue", parameters: parameters)
            } catch {
                Issue.record("the engine rejects \(parameters.filters ?? "nil"): \(error)")
                continue
            }
            #expect(Set(response.objectIDs) == expected, "filters: \(parameters.filters ?? "nil")")
            if !expected.isEmpty { nonEmptyResults += 1 }
            if expected.count != records.count { differentFromAll += 1 }
        }
        // The cases drawn are not degenerate: many select something, many do filter.
        #expect(nonEmptyResults > 100)
        #expect(differentFromAll > 150)
    }
}
