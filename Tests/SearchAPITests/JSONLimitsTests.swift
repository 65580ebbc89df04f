import Foundation
import Testing
import SearchAPI

/// The parser's bounds (`JSONParseLimits`), the byte-order mark and numbers beyond a double.
@Suite struct JSONLimitsTests {
    /// The parse error of `text`, or nil (an issue is recorded) when it parses.
    func parseError(_ text: String, limits: JSONParseLimits = JSONParseLimits(),
                    sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
        do {
            _ = try JSONValue(parsing: text, limits: limits)
            Issue.record("expected a JSONParseError for \(text.prefix(60))", sourceLocation: sourceLocation)
        } catch {
            return error
        }
        return nil
    }

    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test func nestingUpToTheLimitParsesAndOneMoreIsAnError() throws {
        #expect(JSONParseLimits().maxDepth == 128)
        _ = try JSONValue(parsing: JSONLimitsTests.nested(128))
        let error = try #require(parseError(JSONLimitsTests.nested(129)))
        #expect(error.line == 1 && error.column == 129)
        #expect(error.reason.contains("nested deeper than 128 levels"))
        // Scalars inside the deepest array do not count as a level.
        _ = try JSONValue(parsing: String(repeating: "[", count: 127) + "[1, \"a\", null]" + String(repeating: "]", count: 127))
    }

    @Test func stringsLongerThanTheLimitAreErrors() throws {
        var limits = JSONParseLimits()
        #expect(limits.maxStringBytes == 16 << 20)
        limits.maxStringBytes = 8
        #expect(try JSONValue(parsing: #""12345678""#, limits: limits) == "12345678")
        let plain = try #require(parseError(#"[1, "123456789"]"#, limits: limits))
        #expect(plain.column == 5)
        #expect(plain.reason == "a string longer than 8 bytes; expected at most 8")
        // With escapes, the unescaped bytes count: "é" is two.
        #expect(try JSONValue(parsing: #""123456\u00e9""#, limits: limits) == "123456é")
        #expect(parseError(#""1234567\u00e9""#, limits: limits) != nil)
        #expect(parseError(#""12\n4567\u00e9""#, limits: limits) != nil)
        // Keys are strings too.
        #expect(parseError(#"{"123456789": 1}"#, limits: limits) != nil)
    }

    @Test func arraysAndObjectsLargerThanTheLimitAreErrors() throws {
        var limits = JSONParseLimits()
        #expect(limits.maxElements == 10_000_000)
        limits.maxElements = 3
        _ = try JSONValue(parsing: "[1, 2, 3]", limits: limits)
        let array = try #require(parseError("[1, 2, 3, 4]", limits: limits))
        #expect(array.column == 11 && array.reason == "an array with more than 3 elements; expected at most 3")
        _ = try JSONValue(parsing: #"{"a": 1, "b": 2, "c": 3, "a": 4}"#, limits: limits)  // a repeated key is not a new member
        let object = try #require(parseError(#"{"a": 1, "b": 2, "c": 3, "d": 4}"#, limits: limits))
        #expect(object.reason == "an object with more than 3 members; expected at most 3")
    }

    @Test func numbersLongerThanTheLimitAreErrors() throws {
        #expect(JSONParseLimits().maxNumberLength == 1_024)
        _ = try JSONValue(parsing: "0." + String(repeating: "1", count: 1_000))
        let error = try #require(parseError("[0." + String(repeating: "1", count: 1_100) + "]"))
        #expect(error.column == 2 && error.reason == "a number of 1102 characters; expected at most 1024")
    }

    @Test(arguments: [("1e400", 1), ("-1e400", 1), ("1.5E+309", 1), ("[0, 123456789e301]", 5), (#"{"price": 1e999}"#, 11)])
    func numbersBeyondADoubleAreErrorsNotInfinity(text: String, column: Int) throws {
        let error = try #require(parseError(text))
        #expect(error.reason.contains("out of range; expected a finite number"))
        #expect(error.line == 1 && error.column == column)
    }

    @Test func theLargestDoublesStillParse() throws {
        #expect(try JSONValue(parsing: "1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
        #expect(try JSONValue(parsing: "-1e308") == .double(-1e308))
        #expect(try JSONValue(parsing: "1e-400") == .double(0))  // underflow is zero, as every parser reads it
    }

    @Test func aByteOrderMarkAtTheStartIsSkipped() throws {
        let bom = JSONValue.byteOrderMark
        #expect(try JSONValue(parsingUTF8: bom + Array(#"{"a": 1}"#.utf8)) == ["a": 1])
        #expect(try JSONValue.parseLines(utf8: bom + Array("{\"a\": 1}\n{\"a\": 2}\n".utf8)) == [["a": 1], ["a": 2]])
        #expect(try JSONValue(parsing: "\u{FEFF}[1]") == [1])
        // Columns on the first line do not count it.
        #expect {
            _ = try JSONValue(parsingUTF8: bom + Array("[1 2]".utf8))
        } throws: { error in
            (error as? JSONParseError).map { $0.line == 1 && $0.column == 4 } ?? false
        }
        // Only at the very start.
        #expect(throws: JSONParseError.self) { try JSONValue(parsingUTF8: Array(" ".utf8) + bom + Array("1".utf8)) }
    }

    @Test func anObjectWithManyKeysAndRepeatsStaysLinear() throws {
        // 200,000 members, every key written twice: quadratic duplicate detection would take minutes.
        var text = "{"
        for i in 0..<100_000 { text += "\"k\(i)\": \(i), " }
        for i in 0..<100_000 { text += "\"k\(i)\": \(i + 1), " }
        text += "\"end\": true}"
        let clock = ContinuousClock()
        let started = clock.now
        let object = try #require(try JSONValue(parsing: text).objectValue)
        #expect(clock.now - started < .seconds(20))
        #expect(object.count == 100_001)
        #expect(object.keys.prefix(3) == ["k0", "k1", "k2"])
        #expect(object["k99999"] == .int(100_000))
        // Small objects keep the same rule: the first position, the last value.
        #expect(try JSONValue(parsing: #"{"a": 1, "b": 2, "a": 3}"#).objectValue?.entries.map(\.key) == ["a", "b"])
    }
}
