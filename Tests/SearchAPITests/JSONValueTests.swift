import Foundation
import Testing
import SearchAPI
@testable import DatasetGenerator

// MARK: - Parser

@Suite struct JSONParserTests {
    @Test func objectKeysKeepTheirOrder() throws {
        let value = try JSONValue(parsing: #"{"zeta": 1, "alpha": 2, "mid": {"y": 1, "b": 2, "x": 3}}"#)
        #expect(value.objectValue?.keys == ["zeta", "alpha", "mid"])
        #expect(value["mid"]?.objectValue?.keys == ["y", "b", "x"])
        // Written back in the same order.
        #expect(value.jsonString == #"{"zeta":1,"alpha":2,"mid":{"y":1,"b":2,"x":3}}"#)
    }

    @Test func aRepeatedKeyKeepsItsFirstPositionAndLastValue() throws {
        let value = try JSONValue(parsing: #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == .int(3))
    }

    @Test(arguments: [
        ("5", JSONValue.int(5)),
        ("-17", .int(-17)),
        ("0", .int(0)),
        ("-0", .int(0)),
        ("9223372036854775807", .int(Int64.max)),
        ("5.0", .double(5)),
        ("49.99", .double(49.99)),
        ("1e3", .double(1000)),
        ("-2.5E-1", .double(-0.25)),
        ("9223372036854775808", .double(9223372036854775808)),
    ])
    func integersStayIntegersAndFractionsStayDoubles(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
    }

    @Test func scalarsAndLiterals() throws {
        let value = try JSONValue(parsing: #"[true, false, null, "x", [], {}]"#)
        #expect(value == .array([.bool(true), .bool(false), .null, .string("x"), .array([]), .object(JSONObject())]))
    }

    @Test(arguments: [
        (#""a\"b""#, "a\"b"),
        (#""back\\slash""#, "back\\slash"),
        (#""a\/b""#, "a/b"),
        (#""tab\there""#, "tab\there"),
        (#""line\nbreak\r""#, "line\nbreak\r"),
        (#""\b\f""#, "\u{08}\u{0C}"),
        (#""\u00e9t\u00C9""#, "étÉ"),
        (#""\u20ac""#, "€"),
        (#""smile \ud83d\ude00!""#, "smile 😀!"),
        (#""\uD83C\uDDEB\uD83C\uDDF7""#, "🇫🇷"),
        (#""raw é and 😀""#, "raw é and 😀"),
        (#""lone \ud83d high""#, "lone \u{FFFD} high"),
        (#""lone \ude00 low""#, "lone \u{FFFD} low"),
    ])
    func stringEscapes(json: String, expected: String) throws {
        #expect(try JSONValue(parsing: json) == .string(expected))
    }

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let column: Int
        var testDescription: String { text.debugDescription }
    }

    @Test(arguments: [
        InvalidCase(text: #"{"a": }"#, line: 1, column: 7),
        InvalidCase(text: "[1, 2,]", line: 1, column: 7),
        InvalidCase(text: "[1 2]", line: 1, column: 4),
        InvalidCase(text: #"{"a" 1}"#, line: 1, column: 6),
        InvalidCase(text: "{a: 1}", line: 1, column: 2),
        InvalidCase(text: #""abc"#, line: 1, column: 5),
        InvalidCase(text: "tru", line: 1, column: 1),
        InvalidCase(text: "01", line: 1, column: 2),
        InvalidCase(text: "1.", line: 1, column: 3),
        InvalidCase(text: "-x", line: 1, column: 2),
        InvalidCase(text: "{\"a\": 1} x", line: 1, column: 10),
        InvalidCase(text: "", line: 1, column: 1),
        // Multi-line: the line of the error and the column inside that line.
        InvalidCase(text: "{\n  \"a\": 1,\n  \"b\" 2\n}", line: 3, column: 7),
        InvalidCase(text: "[\n  1,\n  2,\n\n     ]", line: 5, column: 6),
        InvalidCase(text: "{\r\n  \"name\": \"x\",\r\n  \"price\": 4..5\r\n}", line: 3, column: 14),
        // Columns count characters, not UTF-8 bytes.
        InvalidCase(text: "{\"é😀\": x}", line: 1, column: 8),
        InvalidCase(text: "[\"ok\",\n\"unterminated", line: 2, column: 14),
    ])
    func errorsNameLineAndColumn(_ invalid: InvalidCase) {
        #expect {
            _ = try JSONValue(parsing: invalid.text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            #expect(error.line == invalid.line, "line")
            #expect(error.column == invalid.column, "column")
            #expect(error.description.contains("line \(invalid.line), column \(invalid.column)"))
            #expect(!error.reason.isEmpty)
            return true
        }
    }

    @Test func invalidEscapeIsReportedAtTheEscape() {
        #expect {
            _ = try JSONValue(parsing: #""bad \x escape""#)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            // The backslash is column 6, the x column 7; either is a fair place to point at.
            #expect(error.line == 1)
            #expect((6...8).contains(error.column))
            return error.reason.contains("escape")
        }
    }

    @Test func unescapedControlCharacterInAStringIsAnError() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "\"a\u{01}b\"") }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "\"a\nb\"") }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
    }
}

// MARK: - JSON Lines

@Suite struct JSONLinesTests {
    @Test func oneValuePerLineBlankLinesSkipped() throws {
        let text = "{\"objectID\":\"1\",\"n\":1}\n\n  {\"objectID\":\"2\",\"n\":2.5}  \r\n{\"objectID\":\"3\"}"
        let values = try JSONValue.parseLines(utf8: Array(text.utf8))
        #expect(values.count == 3)
        #expect(values.map { $0["objectID"]?.stringValue } == ["1", "2", "3"])
        #expect(values[1]["n"] == .double(2.5))
    }

    @Test func aValueMaySpanLines() throws {
        let values = try JSONValue.parseLines(utf8: Array("{\"a\":\n 1}\n{\"a\": 2}\n".utf8))
        #expect(values == [["a": 1], ["a": 2]])
    }

    @Test func emptyInputIsNoValues() throws {
        #expect(try JSONValue.parseLines(utf8: Array("\n \n".utf8)).isEmpty)
    }

    @Test(arguments: [
        ("{\"a\":1}\n{\"a\":2}\n\n{\"a\": }\n", 4, 7),
        ("{\"a\":1}\n{\"a\":2} {\"a\":3}\n", 2, 9),
        ("{\"a\":1}\n[1,\n2,,]\n", 3, 3),
    ])
    func errorsNameTheFilesLineAndColumn(text: String, line: Int, column: Int) {
        #expect {
            _ = try JSONValue.parseLines(utf8: Array(text.utf8))
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            #expect(error.line == line)
            #expect(error.column == column)
            return true
        }
    }
}

// MARK: - Writer

@Suite struct JSONWriterTests {
    @Test func compactOutputKeepsIntsAndDoubles() {
        let value: JSONValue = ["int": 5, "double": 49.99, "whole double": .double(5), "negative": -3, "big": .double(1e20),
                                "bool": true, "null": nil, "list": [1, "two"]]
        #expect(value.jsonString
            == #"{"int":5,"double":49.99,"whole double":5,"negative":-3,"big":1e+20,"bool":true,"null":null,"list":[1,"two"]}"#)
    }

    @Test func stringsAreEscapedAndNonASCIIKept() {
        let value = JSONValue.string("q\"b\\s\nt\tr\r\u{01}é😀</em>")
        #expect(value.jsonString == #""q\"b\\s\nt\tr\r\u0001é😀</em>""#)
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1_000_000, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1_234_567_890, Int64.max - 1, Int64.max])
    func integersAreWrittenAsTheirDecimalDigits(value: Int64) {
        #expect(JSONValue.int(value).jsonString == String(value))
    }

    @Test func everyControlCharacterIsEscapedAndNoOtherByte() throws {
        for scalar in 0..<0x20 {
            let written = JSONValue.string("a\(Character(UnicodeScalar(UInt8(scalar))))b").jsonString
            let expected = [0x0A: #"\n"#, 0x0D: #"\r"#, 0x09: #"\t"#][scalar] ?? String(format: "\\u%04x", scalar)
            #expect(written == "\"a\(expected)b\"", "U+\(String(scalar, radix: 16))")
            #expect(try JSONValue(parsing: written) == .string("a\(Character(UnicodeScalar(UInt8(scalar))))b"))
        }
        // DEL, `/` and non-ASCII pass through as their bytes.
        #expect(JSONValue.string("\u{7F}/ü").jsonBytes == [UInt8(ascii: "\"")] + Array("\u{7F}/ü".utf8) + [UInt8(ascii: "\"")])
    }

    @Test func escapesAtTheEdgesOfAStringAndBetweenRuns() {
        #expect(JSONValue.string("").jsonString == #""""#)
        #expect(JSONValue.string("\"").jsonString == #""\"""#)
        #expect(JSONValue.string("\\\\").jsonString == #""\\\\""#)
        #expect(JSONValue.string("\nab\"cd\\").jsonString == #""\nab\"cd\\""#)
        // A long string (not stored inline) with escapes in the middle of long runs.
        let run = String(repeating: "Galaxy ", count: 40)
        #expect(JSONValue.string(run + "\"" + run).jsonString == "\"" + run + #"\""# + run + "\"")
    }

    /// The writer finds escapes eight bytes at a time: one at every offset of a word, in strings
    /// of every length around a word's, is written as a byte-by-byte escaper writes it.
    @Test func escapesAtEveryOffsetOfAWord() throws {
        func escapedByteByByte(_ text: String) -> String {
            var result: [UInt8] = [UInt8(ascii: "\"")]
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): result += Array(#"\""#.utf8)
                case UInt8(ascii: "\\"): result += Array(#"\\"#.utf8)
                case 0x0A: result += Array(#"\n"#.utf8)
                case 0x0D: result += Array(#"\r"#.utf8)
                case 0x09: result += Array(#"\t"#.utf8)
                case ..<0x20: result += Array(String(format: "\\u%04x", byte).utf8)
                default: result.append(byte)
                }
            }
            return String(decoding: result + [UInt8(ascii: "\"")], as: UTF8.self)
        }
        // Neighbours one off the escaped bytes (`!`, `#`, `[`, `]`) and non-ASCII ones (`¢` is
        // C2 A2, `Ü` C3 9C, `é` C3 A9) around them, and two escapes in one word.
        let specials = ["\"", "\\", "\n", "\u{01}", "\u{1F}", " ", "~", "\u{7F}", "!#[]", "¢Ü", "é\"é", "\"\\", "a\u{0}b\tc"]
        for special in specials {
            for (filler, other) in [("a", "b"), ("é", "¢"), ("]", "#")] {
                for before in 0..<18 {
                    for after in [0, 1, 7, 8, 9] {
                        let text = String(repeating: filler, count: before) + special + String(repeating: other, count: after)
                        let written = JSONValue.string(text).jsonString
                        #expect(written == escapedByteByByte(text), "\(before) + \(special.debugDescription) + \(after)")
                        #expect(try JSONValue(parsing: written) == .string(text))
                    }
                }
            }
        }
    }

    @Test func emptyAndNestedContainers() {
        let value: JSONValue = ["a": [], "o": [:], "n": [[[]], [[:]], ["k": ["k": [1, [2]]]]]]
        #expect(value.jsonString == #"{"a":[],"o":{},"n":[[[]],[{}],{"k":{"k":[1,[2]]}}]}"#)
    }

    @Test func nonFiniteDoublesAreWrittenAsNull() {
        #expect(JSONValue.array([.double(.infinity), .double(.nan)]).jsonString == "[null,null]")
    }

    @Test func roundTrip() throws {
        let original: JSONValue = [
            "objectID": "a\"1",
            "name": "Crème brûlée 🍮 \\ / \n",
            "price": 12.75,
            "stock": 3,
            "tags": ["x", 1, 2.5, false, nil, ["nested"]],
            "meta": ["z": ["deep": [["k": "v"]]], "a": [:]],
            "control": "\u{00}\u{1F}",
        ]
        let text = original.jsonString
        let parsed = try JSONValue(parsing: text)
        #expect(parsed == original)
        #expect(parsed.jsonString == text)
        #expect(parsed.objectValue?.keys == original.objectValue?.keys)
        #expect(parsed["meta"]?.objectValue?.keys == ["z", "a"])
        // Bytes and string agree.
        #expect(try JSONValue(parsingUTF8: original.jsonBytes) == original)
    }

    @Test func codableEncodingIsValidJSON() throws {
        let original: JSONValue = ["a": [1, 2.5, "x", true, nil]]
        let data = try JSONEncoder().encode(original)
        #expect(try JSONValue(parsingUTF8: Array(data)) == original)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == original)
    }
}

// MARK: - Paths and accessors

@Suite struct JSONValuePathTests {
    static let record: JSONValue = [
        "name": "Phone",
        "price": 10,
        "hierarchicalCategories": ["lvl0": "Electronics", "lvl1": "Electronics > Phones"],
        "a": ["b": ["c": 42]],
        "variants": [["color": "red", "size": 1], ["color": "blue"], ["size": 3], "scalar"],
        "dotted.key": "literal",
    ]

    struct PathCase: Sendable, CustomTestStringConvertible {
        let path: String
        let expected: JSONValue?
        init(_ path: String, _ expected: JSONValue) { self.path = path; self.expected = expected }
        init(missing path: String) { self.path = path; expected = nil }
        var testDescription: String { path }
    }

    @Test(arguments: [
        PathCase("name", "Phone"),
        PathCase("hierarchicalCategories.lvl0", "Electronics"),
        PathCase("hierarchicalCategories.lvl1", "Electronics > Phones"),
        PathCase(missing: "hierarchicalCategories.lvl9"),
        PathCase("a.b.c", 42),
        PathCase("a.b", ["c": 42]),
        PathCase(missing: "a.b.c.d"),
        PathCase("variants.color", ["red", "blue"]),
        PathCase("variants.size", [1, 3]),
        PathCase(missing: "variants.weight"),
        PathCase("dotted.key", "literal"),
        PathCase(missing: "price.currency"),
        PathCase(missing: "missing"),
    ])
    func valueAtPath(_ test: PathCase) {
        #expect(JSONValuePathTests.record.value(atPath: test.path) == test.expected)
        // Split beforehand (how the index reads attributes from every record): the same.
        #expect(JSONValuePathTests.record.value(at: JSONPath(test.path)) == test.expected)
    }

    /// Paths with dots in odd places, keys holding dots at every depth: a path split
    /// beforehand finds what `value(atPath:)` finds.
    @Test func aPathSplitBeforehandFindsWhatTheDottedPathFinds() throws {
        let record = try JSONValue(parsing: #"""
            {"": {"a": 1, "": 2}, "a": {"": 3, "b.c": 4, "b": {"c": 5, ".d": 6}}, "a.": 7, ".a": 8, "a.b": {"c": 9},
             "list": [{"x": {"y": 10}}, [{"x": 11}], {"x.y": 12}, null, {"x": [{"y": 13}, {"y": null}]}],
             "é": {"ü": 14}}
            """#)
        let paths = ["", ".", "..", "a", "a.", ".a", "a..b", "a.b", "a.b.c", "a.b.c.d", "a.b..d", "a.b.c.", "a.b.c", "a.b.c", ".a.",
                     "list", "list.x", "list.x.y", "list.x.y.z", "list.x.", "é", "é.ü", "é.ü.x", "missing", "missing.a"]
        for path in paths {
            #expect(record.value(at: JSONPath(path)) == record.value(atPath: path), "\(path)")
        }
        #expect(JSONValue.int(1).value(at: JSONPath("a")) == nil)
        #expect(JSONPath("a.b") == JSONPath("a.b"))
        #expect(JSONPath("a.b") != JSONPath("a"))
    }

    @Test func accessors() {
        #expect(JSONValue.int(5).doubleValue == 5)
        #expect(JSONValue.double(5).intValue == 5)
        #expect(JSONValue.double(5.5).intValue == nil)
        #expect(JSONValue.string("5").intValue == nil)
        #expect(JSONValue.int(7).scalarText == "7")
        #expect(JSONValue.double(4.5).scalarText == "4.5")
        #expect(JSONValue.double(3).scalarText == "3")
        #expect(JSONValue.bool(true).scalarText == "true")
        #expect(JSONValue.null.scalarText == nil)
        #expect(JSONValue.array([]).scalarText == nil)
    }

    @Test func objectSubscriptReplacesInPlaceAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = "two"
        object["d"] = 4
        object["a"] = nil
        #expect(object.keys == ["b", "c", "d"])
        #expect(object["b"] == "two")
        // Equality ignores key order.
        #expect(object == ["d": 4, "c": 3, "b": "two"])
    }
}

// MARK: - SearchParameters

@Suite struct SearchParametersTests {
    private func parameters(_ object: JSONObject) throws -> SearchParameters { try SearchParameters(json: object) }

    @Test func typedValues() throws {
        let p = try parameters(["query": "phone", "page": 2, "hitsPerPage": 5, "facets": ["brand", "type"],
                                "getRankingInfo": true, "queryType": "prefixAll", "sortFacetValuesBy": "alpha"])
        #expect(p.query == "phone")
        #expect(p.page == 2)
        #expect(p.hitsPerPage == 5)
        #expect(p.facets == ["brand", "type"])
        #expect(p.getRankingInfo == true)
        #expect(p.queryType == .prefixAll)
        #expect(p.sortFacetValuesBy == .alpha)
    }

    @Test(arguments: [
        (JSONValue.string("5"), 5),
        (.string(" 7 "), 7),
        (.int(0), 0),
        (.double(3.0), 3),
        (.int(1000), 1000),
    ])
    func hitsPerPageAcceptsNumbersAndNumericStrings(value: JSONValue, expected: Int) throws {
        #expect(try parameters(["hitsPerPage": value]).hitsPerPage == expected)
    }

    @Test(arguments: [
        (JSONValue.array(["brand", "type"]), ["brand", "type"]),
        (.string(#"["brand","type"]"#), ["brand", "type"]),
        (.string("brand,type"), ["brand", "type"]),
        (.string("brand, type"), ["brand", "type"]),
        (.string("brand"), ["brand"]),
        (.string("*"), ["*"]),
        (.string(""), []),
        (.array([]), []),
    ])
    func facetsAcceptListsJSONTextCommaTextAndABareString(value: JSONValue, expected: [String]) throws {
        #expect(try parameters(["facets": value]).facets == expected)
    }

    @Test func booleansAsStrings() throws {
        #expect(try parameters(["getRankingInfo": "true", "clickAnalytics": "false"]).getRankingInfo == true)
        #expect(try parameters(["clickAnalytics": "false"]).clickAnalytics == false)
        #expect(try parameters(["clickAnalytics": 1]).clickAnalytics == true)
    }

    @Test func numbersGivenToStringParametersBecomeText() throws {
        #expect(try parameters(["query": 123]).query == "123")
    }

    @Test func filterListsAsArraysOrJSONText() throws {
        let nested = try parameters(["facetFilters": [["brand:Apple", "brand:Samsung"], "type:phone"]])
        #expect(nested.facetFilters == .list([.anyOf(["brand:Apple", "brand:Samsung"]), .single("type:phone")]))
        let text = try parameters(["facetFilters": .string(#"[["brand:Apple","brand:Samsung"],"type:phone"]"#)])
        #expect(text.facetFilters == nested.facetFilters)
        let plain = try parameters(["numericFilters": "price>10,price<20"])
        #expect(plain.numericFilters == .string("price>10,price<20"))
        #expect(try parameters(["numericFilters": [5]]).numericFilters == .list([.single("5")]))
    }

    @Test func filterListsNestedDeeperJoinTheOrOfTheirGroup() throws {
        // Algolia evaluates deeper arrays: each one's strings are alternatives of the group.
        let deep = try parameters(["facetFilters": [["brand:Apple", ["brand:Samsung", ["brand:Sony"]]], "type:phone", [["color:red"]]]])
        #expect(deep.facetFilters == .list([.anyOf(["brand:Apple", "brand:Samsung", "brand:Sony"]), .single("type:phone"), .anyOf(["color:red"])]))
        let text = try parameters(["facetFilters": .string(#"[["brand:Apple",["brand:Samsung",["brand:Sony"]]],"type:phone",[["color:red"]]]"#)])
        #expect(text.facetFilters == deep.facetFilters)
    }

    @Test func otherKnownParametersAreKept() throws {
        let p = try parameters(["typoTolerance": "min", "distinct": 1, "analytics": false])
        #expect(p.other["typoTolerance"] == "min")
        #expect(p.other["distinct"] == 1)
        #expect(p.other["analytics"] == false)
    }

    @Test func requestKeysAreIgnored() throws {
        let p = try parameters(["indexName": "products", "type": "default", "query": "x"])
        #expect(p.query == "x")
        #expect(p.other.isEmpty)
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let object: JSONObject
        let name: String
        let message: String?
        var testDescription: String { JSONValue.object(object).jsonString }
    }

    @Test(arguments: [
        BadCase(object: ["hitsPerPage": "abc"], name: "hitsPerPage", message: #"hitsPerPage: expected an integer from 0 to 1000, got "abc""#),
        BadCase(object: ["hitsPerPage": 1001], name: "hitsPerPage", message: "hitsPerPage: expected an integer from 0 to 1000, got 1001"),
        BadCase(object: ["hitsPerPage": -1], name: "hitsPerPage", message: nil),
        BadCase(object: ["hitsPerPage": 2.5], name: "hitsPerPage", message: nil),
        BadCase(object: ["page": "first"], name: "page", message: nil),
        BadCase(object: ["length": 1001], name: "length", message: nil),
        BadCase(object: ["maxValuesPerFacet": 1001], name: "maxValuesPerFacet", message: nil),
        BadCase(object: ["maxFacetHits": 101], name: "maxFacetHits", message: nil),
        BadCase(object: ["queryType": "prefixSome"], name: "queryType", message: nil),
        BadCase(object: ["sortFacetValuesBy": "random"], name: "sortFacetValuesBy", message: nil),
        BadCase(object: ["getRankingInfo": "yes"], name: "getRankingInfo", message: nil),
        BadCase(object: ["facets": ["brand": 1]], name: "facets", message: nil),
        BadCase(object: ["facets": [["nested"]]], name: "facets", message: nil),
        BadCase(object: ["facets": "[not json"], name: "facets", message: nil),
        BadCase(object: ["query": ["a"]], name: "query", message: nil),
        BadCase(object: ["facetFilters": [[["deep", 5, ["x": 1]]]]], name: "facetFilters", message: nil),
        BadCase(object: ["params": 5], name: "params", message: nil),
        BadCase(object: ["hitsPerPag": 5], name: "hitsPerPag", message: "Unknown parameter: hitsPerPag"),
        BadCase(object: ["colour": "red"], name: "colour", message: "Unknown parameter: colour"),
    ])
    func badValuesNameTheParameter(_ bad: BadCase) {
        #expect {
            _ = try SearchParameters(json: bad.object)
        } throws: { error in
            guard let error = error as? SearchError else { return false }
            #expect(error.kind == .invalidParameter)
            #expect(error.status == 400)
            #expect(error.message.contains(bad.name))
            if let message = bad.message { #expect(error.message == message) }
            return true
        }
    }

    @Test func urlEncodedParams() throws {
        let p = try SearchParameters(urlEncoded: "query=samsung+galaxy%20s7&hitsPerPage=5&page=1&facets=%5B%22brand%22%2C%22type%22%5D&getRankingInfo=true")
        #expect(p.query == "samsung galaxy s7")
        #expect(p.hitsPerPage == 5)
        #expect(p.page == 1)
        #expect(p.facets == ["brand", "type"])
        #expect(p.getRankingInfo == true)
    }

    @Test func urlEncodedListsAsCommaTextAndFiltersAsJSON() throws {
        let p = try SearchParameters(urlEncoded: "facets=brand,type&attributesToRetrieve=name%2Cprice&facetFilters=%5B%5B%22brand%3AApple%22%2C%22brand%3ASamsung%22%5D%5D&filters=price+%3E+10")
        #expect(p.facets == ["brand", "type"])
        #expect(p.attributesToRetrieve == ["name", "price"])
        #expect(p.facetFilters == .list([.anyOf(["brand:Apple", "brand:Samsung"])]))
        #expect(p.filters == "price > 10")
    }

    @Test func urlEncodedErrorsNameTheParameter() {
        #expect {
            _ = try SearchParameters(urlEncoded: "query=x&hitsPerPage=abc")
        } throws: { error in
            (error as? SearchError)?.message == #"hitsPerPage: expected an integer from 0 to 1000, got "abc""#
        }
        #expect {
            _ = try SearchParameters(urlEncoded: "query=x&nope=1")
        } throws: { error in
            (error as? SearchError)?.message == "Unknown parameter: nope"
        }
    }

    @Test func bodyKeysWinOverParams() throws {
        let p = try SearchParameters(json: ["params": "query=from+params&hitsPerPage=3", "query": "from body"])
        #expect(p.query == "from body")
        #expect(p.hitsPerPage == 3)
    }

    @Test func urlEncodedEchoUsesPlusForSpacesAndJSONForArrays() throws {
        var p = SearchParameters(query: "samsung galaxy")
        p.hitsPerPage = 5
        p.facets = ["brand", "type"]
        #expect(p.urlEncoded == "query=samsung+galaxy&hitsPerPage=5&facets=%5B%22brand%22%2C%22type%22%5D")
    }

    @Test func urlEncodedEchoOfEveryKind() throws {
        let p = try SearchParameters(json: ["query": "a&b=c ü", "facetFilters": [["brand:A B"], "x:y"], "getRankingInfo": true,
                                            "filters": "price < 10", "typoTolerance": false])
        let echo = p.urlEncoded
        #expect(echo.hasPrefix("query=a%26b%3Dc+%C3%BC&"))
        #expect(echo.contains("filters=price+%3C+10"))
        #expect(echo.contains("facetFilters=%5B%5B%22brand%3AA+B%22%5D%2C%22x%3Ay%22%5D"))
        #expect(echo.contains("getRankingInfo=true"))
        #expect(echo.contains("typoTolerance=false"))
        #expect(!echo.contains(" "))
    }

    @Test func urlEncodedEchoReadsBackToTheSameParameters() throws {
        let original = try SearchParameters(json: [
            "query": "ipad mini +", "page": 1, "hitsPerPage": 0, "facets": ["brand", "categories"],
            "attributesToRetrieve": ["name", "-price"], "attributesToSnippet": ["description:5"],
            "highlightPreTag": "<b class=\"x\">", "filters": "brand:\"Apple Inc\" AND price > 10",
            "facetFilters": [["brand:Apple", "brand:Samsung"], "type:phone"], "numericFilters": ["price>=1"],
            "queryType": "prefixNone", "sortFacetValuesBy": "alpha", "maxValuesPerFacet": 7, "clickAnalytics": true,
        ])
        let decoded = try SearchParameters(urlEncoded: original.urlEncoded)
        #expect(decoded == original)
    }
}

// MARK: - SearchResponse

@Suite struct SearchResponseTests {
    static func sample() -> SearchResponse {
        var response = SearchResponse()
        response.hits = [["objectID": "1", "name": "Phone", "_highlightResult": ["name": ["value": "<em>Ph</em>one", "matchLevel": "full",
                                                                                     "matchedWords": ["ph"], "fullyHighlighted": false]]]]
        response.nbHits = 42
        response.page = 1
        response.nbPages = 3
        response.hitsPerPage = 20
        response.facets = [FacetCounts(attribute: "brand", values: [(value: "Zeta", count: 9), (value: "Apple", count: 3), (value: "Beta", count: 3)]),
                           FacetCounts(attribute: "price", values: [(value: "10", count: 2), (value: "2.5", count: 1)])]
        response.facetsStats = ["price": FacetStats(min: 2.5, max: 10, avg: 7.5, sum: 22.5)]
        response.exhaustiveFacetsCount = true
        response.query = "ph"
        response.params = "query=ph&facets=%5B%22brand%22%5D"
        response.index = "products"
        response.processingTimeMS = 3
        return response
    }

    @Test func minimalResponseHasAlgoliasShape() throws {
        var response = SearchResponse()
        response.index = "NAME"
        let expected = try JSONValue(parsing: #"{"hits":[],"page":0,"nbHits":0,"nbPages":0,"hitsPerPage":20,"exhaustiveNbHits":true,"exhaustiveTypo":true,"exhaustive":{"nbHits":true,"typo":true},"query":"","params":"","index":"NAME","renderingContent":{},"processingTimeMS":0}"#)
        #expect(response.jsonValue == expected)
    }

    @Test func everyDocumentedFieldIsPresent() throws {
        let object = try #require(SearchResponseTests.sample().jsonValue.objectValue)
        for key in ["hits", "nbHits", "page", "nbPages", "hitsPerPage", "processingTimeMS", "query", "params", "index",
                    "exhaustiveNbHits", "exhaustiveTypo", "exhaustive", "renderingContent", "facets", "facets_stats",
                    "exhaustiveFacetsCount"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["nbHits"] == 42)
        #expect(object["exhaustive"] == ["nbHits": true, "typo": true, "facetsCount": true])
        // Facet values keep their order (count desc, then value).
        #expect(object["facets"]?["brand"]?.objectValue?.keys == ["Zeta", "Apple", "Beta"])
        #expect(object["facets"]?["brand"]?["Zeta"] == 9)
        #expect(object["facets_stats"] == ["price": ["min": 2.5, "max": 10, "avg": 7.5, "sum": 22.5]])
        // Whole numbers are written without a fraction.
        #expect(object["facets_stats"]?["price"]?["max"] == .int(10))
    }

    @Test func offsetAndLengthOnlyWhenSet() throws {
        var response = SearchResponse()
        #expect(response.jsonValue["offset"] == nil)
        #expect(response.jsonValue["length"] == nil)
        response.offset = 5
        response.length = 2
        #expect(response.jsonValue["offset"] == 5)
        #expect(response.jsonValue["length"] == 2)
        #expect(try SearchResponse(json: response.jsonValue) == response)
    }

    @Test func decodesBackFromItsJSON() throws {
        let original = SearchResponseTests.sample()
        let decoded = try SearchResponse(json: try JSONValue(parsing: original.jsonValue.jsonString))
        #expect(decoded == original)
        #expect(decoded.facet("brand")?.values.map(\.value) == ["Zeta", "Apple", "Beta"])
    }

    @Test func decodesBackThroughCodable() throws {
        let original = SearchResponseTests.sample()
        let data = try JSONEncoder().encode(original)
        let decoded = try JSONDecoder().decode(SearchResponse.self, from: data)
        #expect(decoded.nbHits == original.nbHits)
        #expect(decoded.page == original.page)
        #expect(decoded.nbPages == original.nbPages)
        #expect(decoded.hitsPerPage == original.hitsPerPage)
        #expect(decoded.query == original.query)
        #expect(decoded.params == original.params)
        #expect(decoded.index == original.index)
        #expect(decoded.processingTimeMS == original.processingTimeMS)
        #expect(decoded.hits == original.hits)
        #expect(decoded.facetsStats == original.facetsStats)
        #expect(decoded.exhaustiveFacetsCount == true)
        // Counts per value survive (JSONDecoder may not keep key order).
        for facet in original.facets ?? [] {
            let counts = decoded.facet(facet.attribute)
            #expect(counts != nil)
            for (value, count) in facet.values { #expect(counts?[value] == count) }
        }
        // And straight from the engine's own text.
        let fromText = try JSONDecoder().decode(SearchResponse.self, from: Data(original.jsonValue.jsonString.utf8))
        #expect(fromText.nbHits == 42)
        #expect(fromText.facetsStats?["price"] == FacetStats(min: 2.5, max: 10, avg: 7.5, sum: 22.5))
    }

    @Test func decodesAlgoliasOwnMinimalResponse() throws {
        let text = #"{"hits":[],"page":0,"nbHits":0,"nbPages":0,"hitsPerPage":20,"exhaustiveNbHits":true,"exhaustiveTypo":true,"exhaustive":{"nbHits":true,"typo":true},"query":"","params":"","index":"NAME","renderingContent":{},"processingTimeMS":1}"#
        let viaJSON = try SearchResponse(json: try JSONValue(parsing: text))
        let viaCodable = try JSONDecoder().decode(SearchResponse.self, from: Data(text.utf8))
        #expect(viaJSON == viaCodable)
        #expect(viaJSON.index == "NAME")
        #expect(viaJSON.processingTimeMS == 1)
        #expect(viaJSON.facets == nil)
    }

    @Test func missingNbHitsIsAnError() {
        #expect(throws: SearchError.self) { try SearchResponse(json: ["hits": []]) }
        #expect(throws: SearchError.self) { try SearchResponse(json: ["nbHits": "many"]) }
        #expect(throws: SearchError.self) { try SearchResponse(json: [1, 2]) }
    }
}

// MARK: - IndexSettings

@Suite struct IndexSettingsTests {
    @Test func legacyNamesAreReadAsCurrentOnes() throws {
        let settings = try IndexSettings(json: ["attributesToIndex": ["name", "unordered(description)"],
                                               "numericAttributesToIndex": ["price"], "slaves": ["products_price_asc"]])
        #expect(settings.searchableAttributes == ["name", "unordered(description)"])
        #expect(settings.values["attributesToIndex"] == nil)
        #expect(settings.values["numericAttributesForFiltering"] == ["price"])
        #expect(settings.values["replicas"] == ["products_price_asc"])
        #expect(settings.values["slaves"] == nil)
    }

    /// `../shared/datasets/products.settings.json`, beside the repository (CI has it, a clone does not).
    static let sharedProductsSettings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/datasets/products.settings.json")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: IndexSettingsTests.sharedProductsSettings.path),
                   "needs ../shared/datasets (the project's real datasets, beside the repository; CI has it, a clone does not)"))
    func theRealProductsSettingsUseTheLegacyName() throws {
        let object = try #require(try JSONValue(parsingUTF8: Array(Data(contentsOf: Self.sharedProductsSettings))).objectValue)
        let settings = try IndexSettings(json: object)
        #expect(settings.searchableAttributes?.first == "brand")
        #expect(settings.customRanking == ["desc(popularity)"])
    }

    @Test func nullResetsASetting() throws {
        let settings = try IndexSettings(json: ["customRanking": ["desc(popularity)"], "hitsPerPage": 5, "searchableAttributes": ["name"]])
        let reset = try settings.applying(["customRanking": nil, "attributesToIndex": nil])
        #expect(reset.customRanking == nil)
        #expect(reset.searchableAttributes == nil)
        #expect(reset.hitsPerPage == 5)
        #expect(reset.withDefaults["customRanking"] == .null)
        #expect(reset.withDefaults["hitsPerPage"] == 5)
        // A reset setting is gone, so its default shows again.
        let hitsReset = try reset.applying(["hitsPerPage": nil])
        #expect(hitsReset.values["hitsPerPage"] == nil)
        #expect(hitsReset.withDefaults["hitsPerPage"] == 20)
    }

    @Test func patchesReplaceSettingsAndStoredUnknownOnesAreKept() throws {
        let settings = try IndexSettings(json: ["hitsPerPage": 5])
        let patched = try settings.applying(["hitsPerPage": 7])
        #expect(patched.hitsPerPage == 7)
        // Settings read back from storage are not rejected, even one this version does not know.
        let stored = IndexSettings(stored: ["hitsPerPage": 5, "someFutureSetting": ["x": 1], "attributesForFacetting": ["a"]])
        #expect(stored.values["someFutureSetting"] == ["x": 1])
        #expect(stored.attributesForFaceting == ["a"])
        #expect(try stored.applying(["hitsPerPage": 9]).values["someFutureSetting"] == ["x": 1])
    }

    @Test func unknownSettingsAreRejectedWithTheNearestName() {
        for (sent, suggestion) in [("hitsPerPge", "hitsPerPage"), ("HitsPerPage", "hitsPerPage"),
                                   ("atributesForFaceting", "attributesForFaceting"), ("customRankin", "customRanking")] {
            #expect(throws: SearchError(.invalidParameter, "Unknown setting \(sent); did you mean \(suggestion)?")) {
                _ = try IndexSettings(json: [sent: 1])
            }
        }
        #expect(throws: SearchError(.invalidParameter, "Unknown setting zzzzzzzz")) { _ = try IndexSettings(json: ["zzzzzzzz": 1]) }
        // Nothing of a rejected patch is applied.
        let settings = try? IndexSettings(json: ["hitsPerPage": 5])
        #expect(throws: SearchError.self) { _ = try settings?.applying(["hitsPerPage": 6, "nope": 1]) }
    }

    static let acceptedSettings: [JSONObject] = [
        ["typoTolerance": "min"], ["typoTolerance": false], ["typoTolerance": "false"], ["distinct": true], ["distinct": 2],
        ["ignorePlurals": ["en", "fr"]], ["ignorePlurals": "true"], ["removeStopWords": true], ["optionalWords": "the"],
        ["optionalWords": ["the", "a"]], ["alternativesAsExact": ["multiWordsSynonym"]], ["userData": [1, "x"]],
        ["renderingContent": ["facetOrdering": [:]]], ["attributesForFacetting": ["brand"]], ["relevancyStrictness": 90],
        ["hitsPerPage": nil], ["version": 1], ["decompoundQuery": true], ["mode": "keywordSearch"],
    ]

    @Test(arguments: IndexSettingsTests.acceptedSettings)
    func knownSettingsOfEveryShapeAreAccepted(patch: JSONObject) throws {
        _ = try IndexSettings(json: patch)
    }

    @Test func withDefaultsFillsEverythingIn() throws {
        let defaults = IndexSettings().withDefaults
        #expect(defaults["hitsPerPage"] == 20)
        #expect(defaults["maxValuesPerFacet"] == 100)
        #expect(defaults["paginationLimitedTo"] == 1000)
        #expect(defaults["queryType"] == "prefixLast")
        #expect(defaults["highlightPreTag"] == "<em>")
        #expect(defaults["highlightPostTag"] == "</em>")
        #expect(defaults["snippetEllipsisText"] == "…")
        #expect(defaults["ranking"] == ["typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"])
        #expect(defaults["searchableAttributes"] == .null)
        #expect(defaults["attributesForFaceting"] == [])
        let set = try IndexSettings(json: ["hitsPerPage": 50, "attributesToIndex": ["name"]]).withDefaults
        #expect(set["hitsPerPage"] == 50)
        #expect(set["searchableAttributes"] == ["name"])
        #expect(set["attributesToIndex"] == nil)
        #expect(set["maxValuesPerFacet"] == 100)
    }

    static let badSettings: [(JSONObject, String)] = [
        (["searchableAttributes": "name"], "searchableAttributes"),
        (["attributesToIndex": [1]], "attributesToIndex"),
        (["hitsPerPage": "5"], "hitsPerPage"),
        (["hitsPerPage": 0], "hitsPerPage"),
        (["distinct": "x"], "distinct"),
        (["minProximity": 0], "minProximity"),
        (["typoTolerance": "sometimes"], "typoTolerance"),
        (["alternativesAsExact": ["plurals"]], "alternativesAsExact"),
        (["ignorePlurals": 1], "ignorePlurals"),
        (["attributesForFacetting": "brand"], "attributesForFacetting"),
        (["customRanking": "desc(x)"], "customRanking"),
        (["hitsPerPage": "many"], "hitsPerPage"),
        (["hitsPerPage": 1001], "hitsPerPage"),
        (["paginationLimitedTo": -1], "paginationLimitedTo"),
        (["queryType": "prefixFirst"], "queryType"),
        (["highlightPreTag": 1], "highlightPreTag"),
    ]

    @Test(arguments: IndexSettingsTests.badSettings)
    func badSettingsNameTheSetting(patch: JSONObject, name: String) {
        #expect {
            _ = try IndexSettings(json: patch)
        } throws: { error in
            guard let error = error as? SearchError else { return false }
            return error.kind == .invalidParameter && error.message.hasPrefix(name + ":")
        }
    }

    @Test func typedReads() throws {
        let settings = try IndexSettings(json: ["hitsPerPage": 12, "queryType": "prefixNone", "sortFacetValuesBy": "alpha"])
        #expect(settings.hitsPerPage == 12)
        #expect(settings.queryType == .prefixNone)
        #expect(settings.sortFacetValuesBy == .alpha)
    }
}

// MARK: - Values one at a time

/// `JSONValueSequenceReader`: an import's records, read one at a time from the whole text, with
/// the errors (and their lines and columns) parsing the text at once gives.
@Suite struct JSONValueSequenceReaderTests {
    static func read(_ text: String, form: JSONValueSequenceReader.Form? = nil) throws(JSONParseError) -> [JSONValue] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) -> [JSONValue] in
            var reader = JSONValueSequenceReader(utf8: buffer, form: form)
            var values: [JSONValue] = []
            while let value = try reader.next() { values.append(value) }
            #expect(reader.bytesRead <= bytes.count)
            return values
        }
    }

    @Test(arguments: [
        ("[]", []),
        (" \n[ ]\n ", []),
        ("\u{FEFF}[{\"a\":1}, 2 ,\"x\"]\n", [["a": 1], 2, "x"]),
        ("[[1,2],{\"b\":[]}]", [[1, 2], ["b": []]]),
        ("{\"a\":1}\n\n{\"a\":2}\r\n3", [["a": 1], ["a": 2], 3]),
        ("", []),
        ("  \n ", []),
    ] as [(String, [JSONValue])])
    func readsArraysAndLines(text: String, expected: [JSONValue]) throws {
        #expect(try JSONValueSequenceReaderTests.read(text) == expected)
    }

    @Test func linesMayStartWithAnArray() throws {
        #expect(try JSONValueSequenceReaderTests.read("[1]\n[2]", form: .lines) == [[1], [2]])
        #expect(try JSONValue.parseLines(utf8: Array("[1]\n{\"a\":2}".utf8)) == [[1], ["a": 2]])
    }

    /// The same errors as parsing the whole text, at the same line and column.
    @Test(arguments: ["[1,]", "[1 2]", "[1]x", "[", "[1,", "[{\"a\":1},\n {\"a\": }]", "{\"a\":1} {\"b\":2}"])
    func errorsAreThoseOfTheWholeText(text: String) throws {
        var whole: JSONParseError?
        do {
            if text.hasPrefix("[") { _ = try JSONValue(parsing: text) } else { _ = try JSONValue.parseLines(utf8: Array(text.utf8)) }
        } catch { whole = error }
        var streamed: JSONParseError?
        do { _ = try JSONValueSequenceReaderTests.read(text) } catch { streamed = error }
        #expect(streamed != nil)
        #expect(streamed?.line == whole?.line && streamed?.column == whole?.column, "\(String(describing: streamed)) vs \(String(describing: whole))")
    }
}

/// A value's text is copied as it came (an import stores it so) only when it is what writing
/// the value gives: `lastValueIsWrittenForm` may miss a text that is (it is cautious about
/// numbers), never accept one that is not.
@Suite struct WrittenFormTests {
    /// Random JSON text: values written compactly or not, with escapes, numbers in many forms,
    /// repeated keys, non-ASCII and invalid UTF-8.
    struct RandomJSON {
        /// The dataset generator's: seeded, the same on every platform.
        var generator: SplitMix64
        init(seed: UInt64) { generator = SplitMix64(state: seed) }

        mutating func chance(_ percent: Int) -> Bool { generator.below(100) < percent }
        mutating func pick<T>(_ values: [T]) -> T { generator.pick(values) }
        mutating func count(_ range: ClosedRange<Int>) -> Int { range.lowerBound + generator.below(range.count) }

        mutating func space() -> [UInt8] { chance(8) ? Array(pick([" ", "\n", "\t", "\r\n", "  "]).utf8) : [] }

        mutating func string() -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "\"")]
            for _ in 0..<count(0...6) {
                let piece: [UInt8] = chance(85)
                    ? Array(pick(["a", "Zz", "phone", "é", "e\u{301}", "日本", "/", "<b>", "x y", "'"]).utf8)
                    : pick([Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\/"#.utf8), Array(#"\u00e9"#.utf8),
                            Array(#"\u0001"#.utf8), Array(#"\b"#.utf8), [0xFF], [0xC3], [0xE2, 0x82]])
                out += piece
            }
            return out + [UInt8(ascii: "\"")]
        }

        mutating func number() -> [UInt8] {
            Array(pick(["0", "-0", "7", "-12", "21449", "49.99", "0.5", "-0.25", "5.0", "5.50", "0.0001", "0.00001", "1e3", "2E-2",
                        "12345678901234.5", "1234567890123456.5", "0.30000000000000004", "99999999999999999999", "3.14159",
                        "100.001", "-0.001"]).utf8)
        }

        mutating func value(depth: Int) -> [UInt8] {
            switch generator.below(depth < 3 ? 10 : 6) {
            case 0, 1: return string()
            case 2, 3: return number()
            case 4: return Array(pick(["true", "false", "null"]).utf8)
            case 5: return string()
            case 6, 7:
                var out: [UInt8] = [UInt8(ascii: "[")] + space()
                for i in 0..<count(0...3) {
                    if i > 0 { out += space() + [UInt8(ascii: ",")] + space() }
                    out += value(depth: depth + 1)
                }
                return out + space() + [UInt8(ascii: "]")]
            default:
                return object(depth: depth)
            }
        }

        mutating func object(depth: Int) -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "{")] + space()
            for i in 0..<count(0...4) {
                if i > 0 { out += space() + [UInt8(ascii: ",")] + space() }
                let key: [UInt8] = chance(80) ? Array("\"\(pick(["objectID", "name", "a", "b", "é", "e\u{301}"]))\"".utf8) : string()
                out += key + space() + [UInt8(ascii: ":")] + space() + value(depth: depth + 1)
            }
            return out + space() + [UInt8(ascii: "}")]
        }
    }

    @Test func aTextTakenAsWrittenIsWhatWritingItsValueGives() throws {
        var random = RandomJSON(seed: 71)
        var accepted = 0, total = 0
        for _ in 0..<300 {
            var text: [UInt8] = Array("[".utf8)
            for i in 0..<random.count(1...8) {
                if i > 0 { text += random.space() + Array(",".utf8) + random.space() }
                text += random.chance(70) ? random.object(depth: 0) : random.value(depth: 0)
            }
            text += Array("]".utf8)
            try text.withUnsafeBufferPointer { buffer throws in
                var reader = JSONValueSequenceReader(utf8: buffer)
                while let value = try reader.next() {
                    total += 1
                    let taken = Array(buffer[reader.lastValueRange])
                    // The range is the value's whole text: it parses to the same value.
                    #expect(try JSONValue(parsingUTF8: taken) == value)
                    if reader.lastValueIsWrittenForm {
                        accepted += 1
                        #expect(taken == value.jsonBytes, "\(String(decoding: taken, as: UTF8.self))")
                    }
                }
            }
        }
        // Neither always nor never: the check is exercised both ways.
        #expect(accepted > total / 10 && accepted < total * 9 / 10, "\(accepted) of \(total)")
    }

    /// What the writer writes is taken as written (values it writes in one form only).
    @Test func writtenTextIsTakenAsWritten() throws {
        let values: [JSONValue] = [
            ["objectID": "p0", "name": "AT&T GoPhone - Samsung \"Galaxy\" \\ Express", "price": 49.99, "popularity": 21449,
             "categories": ["Cell Phones", "Prepaid"], "rating": 0.5, "free": true, "none": nil, "nested": ["a": [1, -2.25, []], "b": [:]]],
            ["objectID": "日本", "é": "e\u{301}", "small": 0.0001, "large": 12345678901234.5, "negative": -0.001],
            [], [:], "text", 0, -7, 3.5,
        ]
        for value in values {
            let text = value.jsonBytes
            try text.withUnsafeBufferPointer { buffer throws in
                var reader = JSONValueSequenceReader(utf8: buffer, form: .lines)
                #expect(try reader.next() == value)
                #expect(reader.lastValueIsWrittenForm, "\(value.jsonString)")
                #expect(reader.lastValueRange == 0..<text.count)
            }
        }
    }
}

// MARK: - Identity

/// `isIdentical(to:)`: equality down to the bytes of every string, which is what decides
/// whether settings changed. `==` follows Swift's strings, which take canonically equivalent
/// text as equal.
@Suite struct JSONIdentityTests {
    static let equivalentPairs: [(JSONValue, JSONValue)] = [
        (.string(";"), .string("\u{37E}")),                              // the Greek question mark
        (.string("caf\u{E9}"), .string("cafe\u{301}")),                 // é as one scalar, as e and an accent
        (["k": "\u{E9}"], ["k": "e\u{301}"]),
        (["\u{E9}": 1], ["e\u{301}": 1]),                               // the key
        ([["a": ["x", ";"]]], [["a": ["x", "\u{37E}"]]]),
    ]

    @Test(arguments: equivalentPairs)
    func canonicallyEquivalentTextIsEqualButNotIdentical(a: JSONValue, b: JSONValue) {
        #expect(a == b)
        #expect(!a.isIdentical(to: b))
        #expect(!b.isIdentical(to: a))
        #expect(a.isIdentical(to: a) && b.isIdentical(to: b))
    }

    @Test func identicalIgnoresTheOrderOfKeysAsEqualityDoes() throws {
        let a = try JSONValue(parsing: #"{"x": 1, "y": [1, 2.5, "z", null, true], "o": {"p": "q", "r": "s"}}"#)
        let b = try JSONValue(parsing: #"{"o": {"r": "s", "p": "q"}, "y": [1, 2.5, "z", null, true], "x": 1}"#)
        #expect(a == b && a.isIdentical(to: b) && b.isIdentical(to: a))
        // An element's order in an array counts.
        #expect(!JSONValue.array([1, 2]).isIdentical(to: [2, 1]))
    }

    static let differentPairs: [(JSONValue, JSONValue)] = [
        (.int(1), .double(1)),
        (.double(0), .double(-0.0)),
        (.null, .bool(false)),
        (["a": 1], ["a": 1, "b": 2]),
        (["a": 1, "b": 2], ["a": 1, "c": 2]),
        ([1, 2], [1, 2, 3]),
        (.string(""), .null),
    ]

    @Test(arguments: differentPairs)
    func differentValuesAreNotIdentical(a: JSONValue, b: JSONValue) {
        #expect(!a.isIdentical(to: b))
        #expect(!b.isIdentical(to: a))
    }

    @Test func settingsCompareByTheirBytes() throws {
        let semicolon = try IndexSettings(json: ["separatorsToIndex": ";", "searchableAttributes": ["name"]])
        let greek = try IndexSettings(json: ["separatorsToIndex": "\u{37E}", "searchableAttributes": ["name"]])
        #expect(semicolon == greek)
        #expect(!semicolon.isIdentical(to: greek))
        #expect(semicolon.isIdentical(to: try IndexSettings(json: ["searchableAttributes": ["name"], "separatorsToIndex": ";"])))
    }
}
