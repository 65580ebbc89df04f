import Testing
@testable import OfflineSearch

// MARK: - Helpers

private func f(_ attribute: String, _ value: String) -> FilterExpression { .facet(attribute: attribute, value: value) }
private func n(_ attribute: String, _ comparison: NumericComparison, _ value: Double) -> FilterExpression {
    .numeric(attribute: attribute, comparison: comparison, value: value)
}
private func r(_ attribute: String, _ lower: Double, _ upper: Double) -> FilterExpression {
    .numericRange(attribute: attribute, lower: lower, upper: upper)
}
private func t(_ tag: String) -> FilterExpression { .tag(tag) }

struct FilterValidCase: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: FilterExpression?
    init(_ text: String, _ expected: FilterExpression?) {
        self.text = text
        self.expected = expected
    }
    var testDescription: String { "«\(text)»" }
}

struct FilterInvalidCase: Sendable, CustomTestStringConvertible {
    let text: String
    let position: Int?
    let fragment: String
    init(_ text: String, _ position: Int?, _ fragment: String) {
        self.text = text
        self.position = position
        self.fragment = fragment
    }
    var testDescription: String { "«\(text)»" }
}

struct FilterListCase: Sendable, CustomTestStringConvertible {
    let list: [FilterListElement]
    let expected: FilterExpression?
    init(_ list: [FilterListElement], _ expected: FilterExpression?) {
        self.list = list
        self.expected = expected
    }
    var testDescription: String { "\(list)" }
}

struct FilterListErrorCase: Sendable, CustomTestStringConvertible {
    let list: [FilterListElement]
    let fragment: String
    init(_ list: [FilterListElement], _ fragment: String) {
        self.list = list
        self.fragment = fragment
    }
    var testDescription: String { "\(list)" }
}

struct FilterSplitCase: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: [FilterListElement]
    init(_ text: String, _ expected: [FilterListElement]) {
        self.text = text
        self.expected = expected
    }
    var testDescription: String { "«\(text)»" }
}

struct FilterStringFormCase: Sendable, CustomTestStringConvertible {
    let parameter: String
    let text: String
    let expected: FilterExpression?
    init(_ parameter: String, _ text: String, _ expected: FilterExpression?) {
        self.parameter = parameter
        self.text = text
        self.expected = expected
    }
    var testDescription: String { "\(parameter) «\(text)»" }
}

private func expectFilterError(
    _ body: () throws(FilterError) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
) -> FilterError? {
    do {
        try body()
        Issue.record("expected a FilterError", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

// MARK: - `filters` grammar

@Suite("filters string grammar")
struct FiltersGrammarTests {
    static let valid: [FilterValidCase] = [
        // Blank input.
        FilterValidCase("", nil),
        FilterValidCase("   \t\n ", nil),
        // Facets.
        FilterValidCase("brand:Apple", f("brand", "Apple")),
        FilterValidCase("  brand:Apple  ", f("brand", "Apple")),
        FilterValidCase("brand : Apple", f("brand", "Apple")),
        FilterValidCase("brand:\"Apple Inc\"", f("brand", "Apple Inc")),
        FilterValidCase("brand:'Apple Inc'", f("brand", "Apple Inc")),
        FilterValidCase(#"title:"say \"hi\"""#, f("title", #"say "hi""#)),
        FilterValidCase(#"title:'it\'s'"#, f("title", "it's")),
        FilterValidCase(#"path:"a\\b""#, f("path", #"a\b"#)),
        FilterValidCase(#"path:"C:\dir""#, f("path", #"C:\dir"#)),
        FilterValidCase("title:\"AND\"", f("title", "AND")),
        FilterValidCase("brand:\"\"", f("brand", "")),
        FilterValidCase("url:http://x.com/a?b=c", f("url", "http://x.com/a?b=c")),
        FilterValidCase("inStock:true", f("inStock", "true")),
        FilterValidCase("inStock:false", f("inStock", "false")),
        FilterValidCase("count:12", f("count", "12")),
        FilterValidCase("count:-5", f("count", "-5")),
        FilterValidCase("hierarchicalCategories.lvl0:Electronics", f("hierarchicalCategories.lvl0", "Electronics")),
        FilterValidCase("\"my attr\":value", f("my attr", "value")),
        FilterValidCase("'my attr':\"my value\"", f("my attr", "my value")),
        FilterValidCase("brand:Été", f("brand", "Été")),
        // Numeric comparisons.
        FilterValidCase("price < 10", n("price", .less, 10)),
        FilterValidCase("price<=10", n("price", .lessOrEqual, 10)),
        FilterValidCase("price = 10", n("price", .equal, 10)),
        FilterValidCase("price != 10", n("price", .notEqual, 10)),
        FilterValidCase("price>=10.5", n("price", .greaterOrEqual, 10.5)),
        FilterValidCase("price > -3", n("price", .greater, -3)),
        FilterValidCase("price>-3", n("price", .greater, -3)),
        FilterValidCase("price>1e3", n("price", .greater, 1000)),
        FilterValidCase("price >= -0.25", n("price", .greaterOrEqual, -0.25)),
        FilterValidCase("price >= +5", n("price", .greaterOrEqual, 5)),
        FilterValidCase("price>.5", n("price", .greater, 0.5)),
        FilterValidCase("price <2.5E-1", n("price", .less, 0.25)),
        FilterValidCase("'my attr' > 3", n("my attr", .greater, 3)),
        FilterValidCase("stats.views >= 100", n("stats.views", .greaterOrEqual, 100)),
        // Ranges.
        FilterValidCase("price:10 TO 20", r("price", 10, 20)),
        FilterValidCase("price:-5.5 TO 5", r("price", -5.5, 5)),
        FilterValidCase("price: 1 TO 2", r("price", 1, 2)),
        FilterValidCase("price:1e2   TO\t1e3", r("price", 100, 1000)),
        FilterValidCase("(price:1 TO 2)", r("price", 1, 2)),
        // algoliasearch-helper writes its ranges with a lowercase `to`; Algolia takes it.
        FilterValidCase("price:10 to 20", r("price", 10, 20)),
        FilterValidCase("price:10 to 20 AND rating:1 TO 2", .and([r("price", 10, 20), r("rating", 1, 2)])),
        // Tags.
        FilterValidCase("_tags:published", t("published")),
        FilterValidCase("_tags:\"with space\"", t("with space")),
        FilterValidCase("\"_tags\":x", t("x")),
        FilterValidCase("published", t("published")),
        FilterValidCase("public OR user_42", .or([t("public"), t("user_42")])),
        FilterValidCase("_tags:a OR _tags:b", .or([t("a"), t("b")])),
        // NOT.
        FilterValidCase("NOT brand:Apple", .not(f("brand", "Apple"))),
        FilterValidCase("NOT price < 10", .not(n("price", .less, 10))),
        FilterValidCase("NOT _tags:draft", .not(t("draft"))),
        FilterValidCase("NOT price:1 TO 5", .not(r("price", 1, 5))),
        FilterValidCase("category:Book AND NOT category:Ebook", .and([f("category", "Book"), .not(f("category", "Ebook"))])),
        FilterValidCase("NOT brand:Apple OR NOT brand:Samsung", .or([.not(f("brand", "Apple")), .not(f("brand", "Samsung"))])),
        // Boolean structure.
        FilterValidCase("brand:Apple AND price < 10", .and([f("brand", "Apple"), n("price", .less, 10)])),
        FilterValidCase("brand:Apple OR brand:Samsung", .or([f("brand", "Apple"), f("brand", "Samsung")])),
        FilterValidCase("a:b AND c:d AND e:f", .and([f("a", "b"), f("c", "d"), f("e", "f")])),
        FilterValidCase(
            "a:1 AND (b:2 OR b:3) AND (c:4 OR c:5)",
            .and([f("a", "1"), .or([f("b", "2"), f("b", "3")]), .or([f("c", "4"), f("c", "5")])])
        ),
        FilterValidCase("(brand:A OR brand:B) AND price > 5", .and([.or([f("brand", "A"), f("brand", "B")]), n("price", .greater, 5)])),
        FilterValidCase(
            "(price < 10 OR price > 100) AND (brand:A OR NOT brand:B)",
            .and([.or([n("price", .less, 10), n("price", .greater, 100)]), .or([f("brand", "A"), .not(f("brand", "B"))])])
        ),
        FilterValidCase(
            "price < 10 AND (category:Book OR NOT category:Ebook)",
            .and([n("price", .less, 10), .or([f("category", "Book"), .not(f("category", "Ebook"))])])
        ),
        FilterValidCase("((brand:Apple))", f("brand", "Apple")),
        FilterValidCase("( brand:Apple )", f("brand", "Apple")),
        FilterValidCase("(brand:Apple)AND(price>5)", .and([f("brand", "Apple"), n("price", .greater, 5)])),
        FilterValidCase("brand:Apple\tAND\nprice>5", .and([f("brand", "Apple"), n("price", .greater, 5)])),
        FilterValidCase("a:1 AND (b:2 AND c:3)", .and([f("a", "1"), f("b", "2"), f("c", "3")])),
        FilterValidCase("(a:1 AND b:2) AND c:3", .and([f("a", "1"), f("b", "2"), f("c", "3")])),
        FilterValidCase("a:1 OR (a:2 OR a:3)", .or([f("a", "1"), f("a", "2"), f("a", "3")])),
        FilterValidCase("(a:1 OR a:2) OR a:3", .or([f("a", "1"), f("a", "2"), f("a", "3")])),
        FilterValidCase("price:10 TO 20 OR price < 5", .or([r("price", 10, 20), n("price", .less, 5)])),
        FilterValidCase("price:10 TO 20 AND price != 15", .and([r("price", 10, 20), n("price", .notEqual, 15)])),
        FilterValidCase(
            "rating = 4 AND (genre:comedy OR genre:drama) AND NOT _tags:hidden",
            .and([n("rating", .equal, 4), .or([f("genre", "comedy"), f("genre", "drama")]), .not(t("hidden"))])
        ),
        FilterValidCase("brand:\"Apple Inc\" OR brand:'Sam sung'", .or([f("brand", "Apple Inc"), f("brand", "Sam sung")])),
        // Scores are accepted and dropped.
        FilterValidCase("brand:Apple<score=3> OR brand:Samsung<score=1>", .or([f("brand", "Apple"), f("brand", "Samsung")])),
        FilterValidCase("brand:\"Apple Inc\"<score=2>", f("brand", "Apple Inc")),
        // Keywords glued to a value are part of the value.
        FilterValidCase("brand:AND", f("brand", "AND")),
        FilterValidCase("brand:AppleAND", f("brand", "AppleAND")),
    ]

    @Test(arguments: valid)
    func parsesValidFilters(_ testCase: FilterValidCase) throws {
        let result = try FilterParser.parse(testCase.text)
        #expect(result == testCase.expected)
    }

    static let invalid: [FilterInvalidCase] = [
        FilterInvalidCase("brand:", 7, "unexpected end of input at col 7; expected a value after 'brand:'"),
        FilterInvalidCase("brand:   ", 10, "expected a value after 'brand:'"),
        FilterInvalidCase("brand: AND x:y", 8, "unexpected token 'AND' at col 8; expected a value after 'brand:'"),
        FilterInvalidCase("brand:)", 7, "unexpected token ')' at col 7; expected a value after 'brand:'"),
        FilterInvalidCase("brand:(A OR B)", 7, "to match several values write (brand:A OR brand:B)"),
        FilterInvalidCase("brand:Apple AND", 16, "unexpected end of input at col 16; expected a filter after AND"),
        FilterInvalidCase("brand:Apple OR", 15, "expected a filter after OR"),
        FilterInvalidCase("AND brand:Apple", 1, "unexpected token 'AND' at col 1; expected a filter such as brand:Apple"),
        FilterInvalidCase("brand:A OR OR brand:B", 12, "unexpected token 'OR' at col 12; expected a filter after OR"),
        FilterInvalidCase("brand:A AND AND brand:B", 13, "unexpected token 'AND' at col 13"),
        FilterInvalidCase("(brand:Apple", 13, "unexpected end of input at col 13; expected ')' to close the '(' at col 1"),
        FilterInvalidCase("(a:1 OR (b:2 OR b:3)", 21, "expected ')' to close the '(' at col 1"),
        FilterInvalidCase("brand:Apple)", 12, "unexpected token ')' at col 12; there is no matching '('"),
        FilterInvalidCase("()", 1, "empty parentheses at col 1"),
        FilterInvalidCase("a:1 AND ( )", 9, "empty parentheses at col 9"),
        FilterInvalidCase("( AND a:1)", 3, "expected a filter after '('"),
        FilterInvalidCase("price = 3 OR brand:Apple", 11, "OR between different filter types (numeric and facet) is not allowed at col 11; Algolia only allows ORs between filters of the same type"),
        FilterInvalidCase("_tags:x OR brand:Y", 9, "OR between different filter types (tag and facet)"),
        FilterInvalidCase("price > 5 OR _tags:x", 11, "(numeric and tag)"),
        FilterInvalidCase("a:1 AND (a:2 OR a:3 OR price<4)", 21, "(facet and numeric)"),
        FilterInvalidCase("NOT (brand:A OR brand:B)", 1, "NOT cannot be applied to a parenthesized group at col 1"),
        FilterInvalidCase("a:1 AND NOT(a:2)", 9, "NOT cannot be applied to a parenthesized group"),
        FilterInvalidCase("NOT NOT brand:A", 5, "unexpected token 'NOT' at col 5; expected a filter after NOT"),
        FilterInvalidCase("NOT", 4, "unexpected end of input at col 4; expected a filter after NOT"),
        FilterInvalidCase("a:1 OR (b:2 AND c:3)", 13, "AND inside an OR group is not allowed at col 13"),
        FilterInvalidCase("a:1 OR b:2 AND c:3", 12, "AND inside an OR group is not allowed at col 12"),
        FilterInvalidCase("(a:1 AND b:2) OR c:3", 6, "AND inside an OR group"),
        FilterInvalidCase("a:1 AND (b:2 OR (c:3 AND d:4))", 22, "AND inside an OR group"),
        FilterInvalidCase("price == 5", 7, "unknown operator '==' at col 7; expected one of <, <=, =, !=, >=, >"),
        FilterInvalidCase("price => 5", 7, "unknown operator '=>'"),
        FilterInvalidCase("price ! 5", 7, "unknown operator '!'"),
        FilterInvalidCase("price < abc", 9, "unexpected token 'abc' at col 9; expected a number after 'price <'"),
        FilterInvalidCase("price <", 8, "unexpected end of input at col 8; expected a number after 'price <'"),
        FilterInvalidCase("price >= 5x", 10, "expected a number after 'price >='"),
        FilterInvalidCase("price < 1e999", 9, "out of range"),
        FilterInvalidCase("price < inf", 9, "expected a number"),
        FilterInvalidCase("brand:Apple and price<5", 13, "unexpected token 'and' at col 13; expected AND or OR (boolean operators must be uppercase)"),
        FilterInvalidCase("brand:Apple or brand:Samsung", 13, "boolean operators must be uppercase"),
        FilterInvalidCase("not brand:A", 1, "boolean operators must be uppercase"),
        FilterInvalidCase("brand:Apple Inc", 13, "unexpected token 'Inc' at col 13; expected AND or OR"),
        FilterInvalidCase("brand:A NOT brand:B", 9, "expected AND or OR before NOT"),
        FilterInvalidCase("brand:A (brand:B)", 9, "unexpected token '(' at col 9; expected AND or OR"),
        FilterInvalidCase("brand:\"Apple", 7, "unterminated quoted string starting at col 7"),
        FilterInvalidCase("\"my attr:x", 1, "unterminated quoted string"),
        FilterInvalidCase("price:10 TO", 12, "unexpected end of input at col 12; expected a number after 'TO'"),
        FilterInvalidCase("price:10 TO abc", 13, "unexpected token 'abc' at col 13; expected a number after 'TO'"),
        FilterInvalidCase("price:abc TO 10", 7, "the range lower bound 'abc' at col 7 is not a number"),
        FilterInvalidCase("price:abc to 10", 7, "the range lower bound 'abc' at col 7 is not a number"),
        FilterInvalidCase("price:10 to", 12, "unexpected end of input at col 12; expected a number after 'TO'"),
        FilterInvalidCase(":Apple", 1, "an attribute name is missing"),
        FilterInvalidCase(">= 5", 1, "unexpected token '>=' at col 1"),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidFilters(_ testCase: FilterInvalidCase) {
        let error = expectFilterError { () throws(FilterError) in _ = try FilterParser.parse(testCase.text) }
        guard let error else { return }
        #expect(error.parameter == "filters")
        #expect(error.position == testCase.position)
        #expect(error.message.contains(testCase.fragment), "message was: \(error.message)")
        #expect(error.description == "filters: \(error.message)")
        if let position = testCase.position {
            #expect(error.message.contains("col \(position)"), "message should name the column: \(error.message)")
        }
    }

    @Test func usesTheGivenParameterName() {
        let error = expectFilterError { () throws(FilterError) in _ = try FilterParser.parse("brand:", parameter: "optionalFilters") }
        #expect(error?.parameter == "optionalFilters")
        #expect(error?.description.hasPrefix("optionalFilters: ") == true)
    }

    @Test func columnsCountCharactersNotBytes() {
        let error = expectFilterError { () throws(FilterError) in _ = try FilterParser.parse("brand:Été OR") }
        #expect(error?.position == 13)
    }
}

// MARK: - String form splitting

@Suite("list string form")
struct SplitStringFormTests {
    static let valid: [FilterSplitCase] = [
        FilterSplitCase("", []),
        FilterSplitCase("   ", []),
        FilterSplitCase("brand:Apple", [.single("brand:Apple")]),
        FilterSplitCase("a:b,c:d", [.single("a:b"), .single("c:d")]),
        FilterSplitCase(" a:b ,  c:d ", [.single("a:b"), .single("c:d")]),
        FilterSplitCase("(a,b),c", [.anyOf(["a", "b"]), .single("c")]),
        FilterSplitCase("c,( a , b )", [.single("c"), .anyOf(["a", "b"])]),
        FilterSplitCase("(a,b),(c,d)", [.anyOf(["a", "b"]), .anyOf(["c", "d"])]),
        FilterSplitCase("(a)", [.anyOf(["a"])]),
        FilterSplitCase("brand:\"Apple, Inc\",x:y", [.single("brand:\"Apple, Inc\""), .single("x:y")]),
        FilterSplitCase("(\"a,b\",c)", [.anyOf(["\"a,b\"", "c"])]),
        FilterSplitCase(#"a\,b"#, [.single("a,b")]),
        FilterSplitCase(#"\-tag,-other"#, [.single(#"\-tag"#), .single("-other")]),
        FilterSplitCase(#"\(x\)"#, [.single("(x)")]),
        FilterSplitCase("size:M(40)", [.single("size:M(40)")]),
        FilterSplitCase("price:10 TO 20,price!=15", [.single("price:10 TO 20"), .single("price!=15")]),
    ]

    @Test(arguments: valid)
    func splits(_ testCase: FilterSplitCase) throws {
        #expect(try FilterListParser.splitStringForm(testCase.text, parameter: "tagFilters") == testCase.expected)
    }

    static let invalid: [FilterInvalidCase] = [
        FilterInvalidCase("a,,b", 3, "unexpected token ',' at col 3; expected a filter"),
        FilterInvalidCase("a,", 3, "unexpected end of input at col 3; expected a filter"),
        FilterInvalidCase(",a", 1, "expected a filter"),
        FilterInvalidCase("(a,b", 5, "expected ')' to close the '(' at col 1"),
        FilterInvalidCase("(a,)", 4, "expected a filter"),
        FilterInvalidCase("()", 1, "empty parentheses at col 1"),
        FilterInvalidCase("((a))", 2, "nested parentheses are not allowed at col 2"),
        FilterInvalidCase("(a,b)c", 6, "expected ',' after ')'"),
        FilterInvalidCase("\"abc", 1, "unterminated quoted string starting at col 1"),
    ]

    @Test(arguments: invalid)
    func rejects(_ testCase: FilterInvalidCase) {
        let error = expectFilterError { () throws(FilterError) in
            _ = try FilterListParser.splitStringForm(testCase.text, parameter: "tagFilters")
        }
        guard let error else { return }
        #expect(error.parameter == "tagFilters")
        #expect(error.position == testCase.position)
        #expect(error.message.contains(testCase.fragment), "message was: \(error.message)")
    }

    static let stringForms: [FilterStringFormCase] = [
        FilterStringFormCase("tagFilters", "(a,b),c", .and([.or([t("a"), t("b")]), t("c")])),
        FilterStringFormCase("tagFilters", "a,-b", .and([t("a"), .not(t("b"))])),
        FilterStringFormCase("tagFilters", "published", t("published")),
        FilterStringFormCase("tagFilters", "(a)", t("a")),
        FilterStringFormCase("tagFilters", "", nil),
        FilterStringFormCase("facetFilters", "brand:Apple", f("brand", "Apple")),
        FilterStringFormCase("facetFilters", "brand:Apple,type:-phone", .and([f("brand", "Apple"), .not(f("type", "phone"))])),
        FilterStringFormCase("facetFilters", "(brand:Apple,brand:Samsung),type:phone", .and([.or([f("brand", "Apple"), f("brand", "Samsung")]), f("type", "phone")])),
        FilterStringFormCase("facetFilters", "brand:\"Apple, Inc\"", f("brand", "Apple, Inc")),
        FilterStringFormCase("numericFilters", "price>10,price<=20", .and([n("price", .greater, 10), n("price", .lessOrEqual, 20)])),
        FilterStringFormCase("numericFilters", "(price<10,price>100)", .or([n("price", .less, 10), n("price", .greater, 100)])),
        FilterStringFormCase("optionalFilters", "brand:Apple<score=2>,brand:-Samsung", .and([f("brand", "Apple"), .not(f("brand", "Samsung"))])),
    ]

    @Test(arguments: stringForms)
    func parsesStringForms(_ testCase: FilterStringFormCase) throws {
        #expect(try FilterListParser.parseString(testCase.text, parameter: testCase.parameter) == testCase.expected)
    }
}

// MARK: - facetFilters / optionalFilters

@Suite("facetFilters and optionalFilters")
struct FacetFiltersParserTests {
    static let valid: [FilterListCase] = [
        FilterListCase([], nil),
        FilterListCase([.anyOf([])], nil),
        FilterListCase([.single("brand:Apple")], f("brand", "Apple")),
        FilterListCase([.single("brand:Apple"), .single("type:phone")], .and([f("brand", "Apple"), f("type", "phone")])),
        FilterListCase([.anyOf(["brand:Apple", "brand:Samsung"]), .single("type:phone")], .and([.or([f("brand", "Apple"), f("brand", "Samsung")]), f("type", "phone")])),
        FilterListCase([.anyOf(["brand:Apple"])], f("brand", "Apple")),
        FilterListCase([.anyOf(["brand:Apple"]), .anyOf([]), .single("a:b")], .and([f("brand", "Apple"), f("a", "b")])),
        FilterListCase([.single("brand:-Apple")], .not(f("brand", "Apple"))),
        FilterListCase([.single(#"brand:\-Apple"#)], f("brand", "-Apple")),
        FilterListCase([.single(#"count:\-12"#)], f("count", "-12")),
        FilterListCase([.single("count:12")], f("count", "12")),
        FilterListCase([.single("inStock:true")], f("inStock", "true")),
        FilterListCase([.single("url:http://a.b/c")], f("url", "http://a.b/c")),
        FilterListCase([.single("brand:\"Apple Inc\"")], f("brand", "Apple Inc")),
        FilterListCase([.single("brand:-\"Apple Inc\"")], .not(f("brand", "Apple Inc"))),
        FilterListCase([.single("brand:\"-Apple\"")], f("brand", "-Apple")),
        FilterListCase([.single(#"title:"say \"hi\"""#)], f("title", #"say "hi""#)),
        FilterListCase([.single("brand:Apple Inc")], f("brand", "Apple Inc")),
        FilterListCase([.single("_tags:x")], t("x")),
        FilterListCase([.single("_tags:-x")], .not(t("x"))),
        FilterListCase([.single("hierarchicalCategories.lvl1:Audio > Headphones")], f("hierarchicalCategories.lvl1", "Audio > Headphones")),
        FilterListCase([.single("  brand : Apple  ")], f("brand", "Apple")),
        FilterListCase([.single("\"my attr\":x")], f("my attr", "x")),
        FilterListCase([.single("brand:Apple<score=2>")], f("brand", "Apple")),
        FilterListCase([.anyOf(["brand:-Apple", "brand:Samsung"])], .or([.not(f("brand", "Apple")), f("brand", "Samsung")])),
    ]

    @Test(arguments: valid)
    func parsesFacetFilters(_ testCase: FilterListCase) throws {
        #expect(try FilterListParser.facetFilters(testCase.list) == testCase.expected)
    }

    @Test(arguments: valid)
    func optionalFiltersParseLikeFacetFilters(_ testCase: FilterListCase) throws {
        #expect(try FilterListParser.optionalFilters(testCase.list) == testCase.expected)
    }

    static let invalid: [FilterListErrorCase] = [
        FilterListErrorCase([.single("foo")], "'foo' is not a facet filter; expected attribute:value"),
        FilterListErrorCase([.anyOf(["brand:Apple", "oops"])], "'oops' is not a facet filter"),
        FilterListErrorCase([.single(":x")], "':x' has no attribute name before ':'"),
        FilterListErrorCase([.single("brand:")], "'brand:' has no value after 'brand:'"),
        FilterListErrorCase([.single("brand:-")], "has no value"),
        FilterListErrorCase([.single("")], "'' is not a facet filter"),
    ]

    @Test(arguments: invalid)
    func rejectsFacetFilters(_ testCase: FilterListErrorCase) {
        let error = expectFilterError { () throws(FilterError) in _ = try FilterListParser.facetFilters(testCase.list) }
        #expect(error?.parameter == "facetFilters")
        #expect(error?.position == nil)
        #expect(error?.message.contains(testCase.fragment) == true, "message was: \(error?.message ?? "-")")
        #expect(error?.description.hasPrefix("facetFilters: '") == true)
    }

    @Test func optionalFiltersErrorsNameTheirParameter() {
        let error = expectFilterError { () throws(FilterError) in _ = try FilterListParser.optionalFilters([.single("foo")]) }
        #expect(error?.description == "optionalFilters: 'foo' is not a facet filter; expected attribute:value, such as brand:Apple")
    }
}

// MARK: - numericFilters

@Suite("numericFilters")
struct NumericFiltersParserTests {
    static let valid: [FilterListCase] = [
        FilterListCase([], nil),
        FilterListCase([.single("price<10")], n("price", .less, 10)),
        FilterListCase([.single("price <= 10")], n("price", .lessOrEqual, 10)),
        FilterListCase([.single("price=10")], n("price", .equal, 10)),
        FilterListCase([.single("price!=10")], n("price", .notEqual, 10)),
        FilterListCase([.single("price>=10")], n("price", .greaterOrEqual, 10)),
        FilterListCase([.single("price>10")], n("price", .greater, 10)),
        FilterListCase([.single(" price > -1.5 ")], n("price", .greater, -1.5)),
        FilterListCase([.single("price>2e3")], n("price", .greater, 2000)),
        FilterListCase([.single("price:10 TO 20")], r("price", 10, 20)),
        FilterListCase([.single("price: -1 TO 1e2")], r("price", -1, 100)),
        FilterListCase([.single("price:10 to 20")], r("price", 10, 20)),
        FilterListCase([.single("stats.views>=100")], n("stats.views", .greaterOrEqual, 100)),
        FilterListCase([.anyOf(["price<10", "price>100"])], .or([n("price", .less, 10), n("price", .greater, 100)])),
        FilterListCase([.anyOf(["price<10", "price>100"]), .single("rating>=4")], .and([.or([n("price", .less, 10), n("price", .greater, 100)]), n("rating", .greaterOrEqual, 4)])),
        FilterListCase([.anyOf(["price:1 TO 2"])], r("price", 1, 2)),
    ]

    @Test(arguments: valid)
    func parsesNumericFilters(_ testCase: FilterListCase) throws {
        #expect(try FilterListParser.numericFilters(testCase.list) == testCase.expected)
    }

    static let invalid: [FilterListErrorCase] = [
        FilterListErrorCase([.single("price")], "'price' is not a numeric filter"),
        FilterListErrorCase([.single("price:10")], "'price:10' is not a numeric filter; expected attribute OP number"),
        FilterListErrorCase([.single("price >> 5")], "'price >> 5' is not a valid numeric filter: unknown operator '>>'"),
        FilterListErrorCase([.single("price < abc")], "expected a number after 'price <'"),
        FilterListErrorCase([.single("price:10 TO")], "expected a number after 'TO'"),
        FilterListErrorCase([.single("")], "'' is not a valid numeric filter: empty filter"),
        FilterListErrorCase([.single("price<5 AND rating>3")], "expected the end of the filter"),
        FilterListErrorCase([.anyOf(["price<5", "_tags:x"])], "'_tags:x' is not a numeric filter"),
    ]

    @Test(arguments: invalid)
    func rejectsNumericFilters(_ testCase: FilterListErrorCase) {
        let error = expectFilterError { () throws(FilterError) in _ = try FilterListParser.numericFilters(testCase.list) }
        #expect(error?.parameter == "numericFilters")
        #expect(error?.message.contains(testCase.fragment) == true, "message was: \(error?.message ?? "-")")
    }
}

// MARK: - tagFilters

@Suite("tagFilters")
struct TagFiltersParserTests {
    static let valid: [FilterListCase] = [
        FilterListCase([], nil),
        FilterListCase([.single("published")], t("published")),
        FilterListCase([.single("Published")], t("Published")),
        FilterListCase([.single("-draft")], .not(t("draft"))),
        FilterListCase([.single(#"\-draft"#)], t("-draft")),
        FilterListCase([.single("  spaced tag  ")], t("spaced tag")),
        FilterListCase([.single("\"quoted tag\"")], t("quoted tag")),
        FilterListCase([.single("a:b")], t("a:b")),
        FilterListCase([.single("promo<score=3>")], t("promo")),
        FilterListCase([.anyOf(["a", "b"]), .single("c")], .and([.or([t("a"), t("b")]), t("c")])),
        FilterListCase([.anyOf(["a", "-b"])], .or([t("a"), .not(t("b"))])),
        FilterListCase([.anyOf(["a"]), .single("-c")], .and([t("a"), .not(t("c"))])),
    ]

    @Test(arguments: valid)
    func parsesTagFilters(_ testCase: FilterListCase) throws {
        #expect(try FilterListParser.tagFilters(testCase.list) == testCase.expected)
    }

    static let invalid: [FilterListErrorCase] = [
        FilterListErrorCase([.single("")], "'' is an empty tag; expected a tag name"),
        FilterListErrorCase([.single("   ")], "is an empty tag"),
        FilterListErrorCase([.single("-")], "'-' is an empty tag"),
        FilterListErrorCase([.anyOf(["a", ""])], "is an empty tag"),
    ]

    @Test(arguments: invalid)
    func rejectsTagFilters(_ testCase: FilterListErrorCase) {
        let error = expectFilterError { () throws(FilterError) in _ = try FilterListParser.tagFilters(testCase.list) }
        #expect(error?.parameter == "tagFilters")
        #expect(error?.message.contains(testCase.fragment) == true, "message was: \(error?.message ?? "-")")
    }
}

// MARK: - Helpers on the AST

@Suite("FilterExpression helpers")
struct FilterExpressionHelperTests {
    @Test func allOfCombinesAndFlattens() {
        #expect(FilterExpression.allOf([nil, nil]) == nil)
        #expect(FilterExpression.allOf([t("a"), nil]) == t("a"))
        #expect(FilterExpression.allOf([.and([t("a"), t("b")]), t("c")]) == .and([t("a"), t("b"), t("c")]))
        #expect(FilterExpression.allOf([.or([t("a"), t("b")]), f("x", "y")]) == .and([.or([t("a"), t("b")]), f("x", "y")]))
    }

    @Test func kinds() {
        #expect(f("a", "b").kind == .facet)
        #expect(n("a", .less, 1).kind == .numeric)
        #expect(r("a", 1, 2).kind == .numeric)
        #expect(t("a").kind == .tag)
        #expect(FilterExpression.not(t("a")).kind == .tag)
        #expect(FilterExpression.and([t("a"), t("b")]).kind == nil)
    }

    @Test func parserDispatchesOnParameterName() throws {
        #expect(try FilterListParser.parse([.single("a")], parameter: "tagFilters") == t("a"))
        let error = expectFilterError { () throws(FilterError) in _ = try FilterListParser.parse([], parameter: "filters") }
        #expect(error?.message.contains("unknown filter parameter") == true)
    }

    @Test func errorDescriptionFormat() {
        let error = FilterError(parameter: "filters", position: 12, message: "unexpected token 'OR' at col 12; expected a filter such as brand:Apple")
        #expect(error.description == "filters: unexpected token 'OR' at col 12; expected a filter such as brand:Apple")
    }
}

@Suite("optionalFilters scores")
struct OptionalFilterScoreParsingTests {
    @Test func scoresAreKeptPerFilterAndGroup() throws {
        let groups = try FilterListParser.scoredOptionalFilters([
            .single("brand:Apple<score=3>"), .anyOf(["color:red", "color:\"dark blue\"<score=2>"]), .single("_tags:new<score=0>"),
            .single("brand:-Huawei<score=65535>"), .anyOf([]),
        ])
        #expect(groups == [
            [ScoredFilter(filter: .facet(attribute: "brand", value: "Apple"), score: 3)],
            [ScoredFilter(filter: .facet(attribute: "color", value: "red"), score: 1),
             ScoredFilter(filter: .facet(attribute: "color", value: "dark blue"), score: 2)],
            [ScoredFilter(filter: .tag("new"), score: 0)],
            [ScoredFilter(filter: .not(.facet(attribute: "brand", value: "Huawei")), score: 65_535)],
        ])
        // A score inside the quotes is part of the value.
        #expect(try FilterListParser.scoredOptionalFilters([.single("brand:\"A<score=3>\"")])
            == [[ScoredFilter(filter: .facet(attribute: "brand", value: "A<score=3>"), score: 1)]])
    }

    @Test func aScoreOutOfRangeNamesTheFilter() {
        let error = expectFilterError { () throws(FilterError) in _ = try FilterListParser.scoredOptionalFilters([.single("brand:Apple<score=65536>")]) }
        #expect(error?.description == "optionalFilters: 'brand:Apple<score=65536>' has the score 65536; expected a whole number from 0 to 65535")
    }
}
