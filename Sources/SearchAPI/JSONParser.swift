/// Where and why a JSON text could not be read.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line and column of the offending character.
    public var line: Int
    /// 1-based column of the offending character in its line, in characters (not bytes).
    public var column: Int
    /// What was wrong or expected, such as "unexpected text after the JSON value".
    public var reason: String

    public var description: String { "Invalid JSON at line \(line), column \(column): \(reason)" }
}

/// Bounds on what one parse may build, so that hostile text can exhaust neither the stack nor
/// the memory: nesting is recursion, and a number is converted by a routine whose cost grows
/// faster than its length. Beyond a bound the parse fails with the line and column.
///
/// ```swift
/// var limits = JSONParseLimits()
/// limits.maxDepth = 16
/// let value = try JSONValue(parsingUTF8: bytes, limits: limits)
/// ```
public struct JSONParseLimits: Sendable, Hashable {
    /// Arrays and objects inside one another (a scalar at the top is depth 0, `[1]` is 1).
    /// 128, as serde_json: deep enough for any record, shallow enough for a 512 KB thread stack.
    public var maxDepth = 128
    /// UTF-8 bytes of one string, after unescaping: 16 MiB (Algolia's records are at most 100 KB).
    public var maxStringBytes = 16 << 20
    /// Elements of one array or members of one object: 10,000,000 (an import file's records are
    /// read one at a time, `JSONValueSequenceReader`, and do not count against it).
    public var maxElements = 10_000_000
    /// Characters of one number: 1,024 (a double has 17 significant digits).
    public var maxNumberLength = 1_024

    /// The default limits: depth 128, strings of 16 MiB, 10,000,000 elements, numbers of
    /// 1,024 characters.
    public init() {}
}

extension JSONValue {
    /// Parses one JSON document. Objects keep their key order; a repeated key keeps the last value.
    /// A leading UTF-8 byte-order mark is skipped.
    /// - Complexity: O(n) in the length of the text.
    public init(parsing text: String, limits: JSONParseLimits = JSONParseLimits()) throws(JSONParseError) {
        self = try JSONValue(parsingUTF8: Array(text.utf8), limits: limits)
    }

    /// Parses one JSON document from UTF-8 bytes.
    public init(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>, limits: JSONParseLimits = JSONParseLimits()) throws(JSONParseError) {
        var parser = JSONParser(bytes, limits: limits)
        parser.skipByteOrderMark()
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.isAtEnd else { throw parser.error("unexpected text after the JSON value") }
        self = value
    }

    /// Parses one JSON document from an array of UTF-8 bytes.
    public init(parsingUTF8 bytes: [UInt8], limits: JSONParseLimits = JSONParseLimits()) throws(JSONParseError) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONValue(parsingUTF8: buffer, limits: limits) }
    }

    /// Parses JSON Lines: one JSON value per non-blank line. Line numbers in errors are the
    /// file's own. A leading UTF-8 byte-order mark is skipped.
    public static func parseLines(utf8 bytes: [UInt8], limits: JSONParseLimits = JSONParseLimits()) throws(JSONParseError) -> [JSONValue] {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) -> [JSONValue] in
            var reader = JSONValueSequenceReader(utf8: buffer, form: .lines, limits: limits)
            var values: [JSONValue] = []
            while let value = try reader.next() { values.append(value) }
            return values
        }
    }

    /// The UTF-8 byte-order mark (`EF BB BF`) some editors write at the start of a file.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}

struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var line = 1
    var lineStart = 0
    let limits: JSONParseLimits
    /// Cleared when the text read since it was set differs from what `jsonBytes` writes for
    /// the value read (see `JSONValueSequenceReader.lastValueIsWrittenForm`).
    var isWrittenForm = true

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONParseLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Skips a UTF-8 byte-order mark at the very start; columns on line 1 do not count it.
    mutating func skipByteOrderMark() {
        guard index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return }
        index = 3
        lineStart = 3
    }

    var isAtEnd: Bool { index >= bytes.count }
    var peek: UInt8 { bytes[index] }

    func error(_ reason: String) -> JSONParseError {
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        var column = 1
        var i = lineStart
        while i < min(index, bytes.count) {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return JSONParseError(line: line, column: column, reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1; isWrittenForm = false
            case UInt8(ascii: "\n"): index += 1; line += 1; lineStart = index; isWrittenForm = false
            default: return
            }
        }
    }

    mutating func skipInlineWhitespace() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
    }

    /// One JSON value. Containers are read with a stack of open arrays and objects, not by
    /// recursion: however deep the text, the thread's stack is not (`limits.maxDepth` bounds the
    /// depth of what is built).
    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        var open: [Bool] = []  // the open containers, innermost last: true for an object
        var arrays: [[JSONValue]] = []
        var objects: [ObjectBuilder] = []
        nextValue: while true {
            skipWhitespace()
            guard !isAtEnd else { throw error("unexpected end of input, expected a value") }
            var value: JSONValue
            switch peek {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = peek == UInt8(ascii: "{")
                guard open.count < limits.maxDepth else {
                    throw error("arrays and objects nested deeper than \(limits.maxDepth) levels; expected at most \(limits.maxDepth)")
                }
                index += 1
                skipWhitespace()
                if !isAtEnd, peek == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                } else {
                    if isObject { objects.append(ObjectBuilder(key: try parseKey())) } else { arrays.append([]) }
                    open.append(isObject)
                    continue nextValue
                }
            case UInt8(ascii: "\""): value = .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); value = .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); value = .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try parseNumber()
            default: throw error("unexpected character '\(String(decoding: [peek], as: UTF8.self))', expected a value")
            }
            // The value goes into the innermost open container; a container it closes is in
            // turn a value for the next one out.
            while let isObject = open.last {
                skipWhitespace()
                if isObject {
                    let members = objects[objects.count - 1].entries.count
                    guard objects[objects.count - 1].add(value, maxMembers: limits.maxElements) else {
                        throw error("an object with more than \(limits.maxElements) members; expected at most \(limits.maxElements)")
                    }
                    // A repeated key: written once.
                    if objects[objects.count - 1].entries.count == members { isWrittenForm = false }
                    guard !isAtEnd else { throw error("unexpected end of input in an object, expected ',' or '}'") }
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        objects[objects.count - 1].key = try parseKey()
                        continue nextValue
                    }
                    guard peek == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
                    index += 1
                    value = .object(objects.removeLast().object())
                } else {
                    guard arrays[arrays.count - 1].count < limits.maxElements else {
                        throw error("an array with more than \(limits.maxElements) elements; expected at most \(limits.maxElements)")
                    }
                    arrays[arrays.count - 1].append(value)
                    guard !isAtEnd else { throw error("unexpected end of input in an array, expected ',' or ']'") }
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        skipWhitespace()
                        guard arrays[arrays.count - 1].count < limits.maxElements else {
                            throw error("an array with more than \(limits.maxElements) elements; expected at most \(limits.maxElements)")
                        }
                        continue nextValue
                    }
                    guard peek == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
                    index += 1
                    value = .array(arrays.removeLast())
                }
                open.removeLast()
            }
            return value
        }
    }

    /// An object's key and its ':', before the member's value.
    mutating func parseKey() throws(JSONParseError) -> String {
        skipWhitespace()
        guard !isAtEnd else { throw error("unexpected end of input in an object") }
        guard peek == UInt8(ascii: "\"") else { throw error("expected a quoted key in an object") }
        let key = try parseString()
        skipWhitespace()
        guard !isAtEnd, peek == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key.prefix(60))\"") }
        index += 1
        return key
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input in a literal") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw error("invalid literal, expected '\(literal)'")
        }
        index += count
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek == UInt8(ascii: "-") { index += 1 }
        guard !isAtEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(peek) else { throw error("expected a digit in a number") }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else {
            while !isAtEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(peek) { index += 1 }
        }
        if !isAtEnd, peek == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard !isAtEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(peek) else { throw error("expected a digit after '.'") }
            while !isAtEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(peek) { index += 1 }
        }
        if !isAtEnd, peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if !isAtEnd, peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard !isAtEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(peek) else { throw error("expected a digit in the exponent") }
            while !isAtEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(peek) { index += 1 }
        }
        let length = index - start
        guard length <= limits.maxNumberLength else {
            index = start
            throw error("a number of \(length) characters; expected at most \(limits.maxNumberLength)")
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<index])
        let text = String(decoding: token, as: UTF8.self)
        if isInteger, let value = Int64(text) {
            if value == 0, token.count > 1 { isWrittenForm = false }  // -0
            return .int(value)
        }
        if isWrittenForm, !JSONParser.isWrittenForm(decimal: token) { isWrittenForm = false }
        // A number beyond a double's range would be read as infinity, which JSON cannot write
        // back: the record stored and the record indexed would differ.
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("the number \(text.prefix(40)) is out of range; expected a finite number (at most about 1.8e308 in magnitude)")
        }
        return .double(value)
    }

    mutating func parseString() throws(JSONParseError) -> String {
        let quote = index
        index += 1  // opening quote
        let start = index
        let maxBytes = limits.maxStringBytes
        var nonASCII: UInt8 = 0
        func tooLong() -> JSONParseError {
            index = quote
            return error("a string longer than \(maxBytes) bytes; expected at most \(maxBytes)")
        }
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if index - start > maxBytes { throw tooLong() }
            if byte == UInt8(ascii: "\"") {
                let source = UnsafeBufferPointer(rebasing: bytes[start..<index])
                var string = String(decoding: source, as: UTF8.self)
                // Decoding replaces bytes that are not UTF-8: the text then is not the string's.
                if isWrittenForm, nonASCII >= 0x80, !string.withUTF8({ $0.elementsEqual(source) }) { isWrittenForm = false }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            nonASCII |= byte
            index += 1
        }
        // The writer escapes `"`, `\` and control characters only (`\n`, `\r`, `\t`, else
        // `\u00` and lowercase hex): any other escape here is written otherwise.
        if nonASCII >= 0x80 { isWrittenForm = false }  // not compared with the decoded string below
        var scalars = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            if scalars.count > maxBytes { throw tooLong() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; break }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            if byte >= 0x80 { isWrittenForm = false }  // not compared with the decoded string
            if byte != UInt8(ascii: "\\") { scalars.append(byte); index += 1; continue }
            index += 1
            guard index < bytes.count else { throw error("unterminated escape in a string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/")); isWrittenForm = false
            case UInt8(ascii: "b"): scalars.append(0x08); isWrittenForm = false
            case UInt8(ascii: "f"): scalars.append(0x0C); isWrittenForm = false
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if code >= 0x20 || code == 0x09 || code == 0x0A || code == 0x0D
                    || bytes[(index - 4)..<index].contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) }) {
                    isWrittenForm = false
                }
                if (0xD800...0xDBFF).contains(code) {
                    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try parseHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            code = 0xFFFD
                        }
                    } else {
                        code = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(code) {
                    code = 0xFFFD
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw error("invalid escape '\\\(String(decoding: [escape], as: UTF8.self))' in a string")
            }
        }
        return String(decoding: scalars, as: UTF8.self)
    }

    /// Whether a number's text with a fraction (`-?int.frac`, maybe an exponent) is how the
    /// writer writes the double it reads as: no exponent, no trailing zero in the fraction, at
    /// most 15 digits (a double keeps 15 decimal digits, so its shortest form is this one) and,
    /// below 1, at most three zeros after the point (smaller numbers are written with an
    /// exponent). Integral doubles (`5.0`) are written as integers: their fraction ends with 0.
    static func isWrittenForm(decimal token: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        var point = -1
        for (offset, byte) in token.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): point = offset
            case UInt8(ascii: "-") where offset == 0: continue
            default: return false  // an exponent
            }
        }
        guard point > 0, digits <= 15, token[token.count - 1] != UInt8(ascii: "0") else { return false }
        let integerStart = token[0] == UInt8(ascii: "-") ? 1 : 0
        if point - integerStart == 1, token[integerStart] == UInt8(ascii: "0") {
            // 0.000x at the smallest: four zeros would be written 1e-05.
            var zeros = 0
            for byte in token[(point + 1)...] {
                guard byte == UInt8(ascii: "0") else { break }
                zeros += 1
            }
            if zeros > 3 { return false }
        }
        return true
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hexadecimal digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

/// The members of an object being read: the first position of each key, its last value.
private struct ObjectBuilder {
    var entries: [JSONObject.Element] = []
    /// Positions by key, once the object is large enough for a linear search to cost: a
    /// repeated key must not make a large object quadratic.
    var positions: [String: Int] = [:]
    /// The key of the member whose value is being read.
    var key: String

    init(key: String) { self.key = key }

    /// Adds the current key's value; false when the key is new and the object already has
    /// `maxMembers` members.
    mutating func add(_ value: JSONValue, maxMembers: Int) -> Bool {
        if let existing = entries.count <= 16 ? entries.firstIndex(where: { $0.key == key }) : positions[key] {
            entries[existing].value = value
            return true
        }
        guard entries.count < maxMembers else { return false }
        entries.append((key: key, value: value))
        if entries.count == 17 {
            for (position, entry) in entries.enumerated() { positions[entry.key] = position }
        } else if entries.count > 17 {
            positions[key] = entries.count - 1
        }
        return true
    }

    func object() -> JSONObject {
        var object = JSONObject()
        for entry in entries { object.appendUnique(entry.key, entry.value) }
        return object
    }
}
