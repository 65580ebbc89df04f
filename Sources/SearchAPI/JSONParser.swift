/// Where and why a JSON text could not be read.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line and column of the offending character.
    public var line: Int
    public var column: Int
    public var reason: String

    public var description: String { "Invalid JSON at line \(line), column \(column): \(reason)" }
}

extension JSONValue {
    /// Parses one JSON document. Objects keep their key order; a repeated key keeps the last value.
    /// - Complexity: O(n) in the length of the text.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONValue(parsingUTF8: Array(text.utf8))
    }

    /// Parses one JSON document from UTF-8 bytes.
    public init(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.isAtEnd else { throw parser.error("unexpected text after the JSON value") }
        self = value
    }

    public init(parsingUTF8 bytes: [UInt8]) throws(JSONParseError) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONValue(parsingUTF8: buffer) }
    }

    /// Parses JSON Lines: one JSON value per non-blank line. Line numbers in errors are the
    /// file's own.
    public static func parseLines(utf8 bytes: [UInt8]) throws(JSONParseError) -> [JSONValue] {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) -> [JSONValue] in
            var parser = JSONParser(buffer)
            var values: [JSONValue] = []
            while true {
                parser.skipWhitespace()
                if parser.isAtEnd { return values }
                let line = parser.line
                values.append(try parser.parseValue(depth: 0))
                parser.skipInlineWhitespace()
                if !parser.isAtEnd, parser.peek != UInt8(ascii: "\n"), parser.peek != UInt8(ascii: "\r") {
                    throw parser.error("expected a new line after the JSON value that starts on line \(line)")
                }
            }
        }
    }
}

struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var line = 1
    var lineStart = 0
    static let maxDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"): index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    mutating func skipInlineWhitespace() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
        guard !isAtEnd else { throw error("unexpected end of input, expected a value") }
        switch peek {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(String(decoding: [peek], as: UTF8.self))', expected a value")
        }
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

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var entries: [JSONObject.Element] = []
        skipWhitespace()
        if !isAtEnd, peek == UInt8(ascii: "}") { index += 1; return .object(JSONObject()) }
        while true {
            skipWhitespace()
            guard !isAtEnd else { throw error("unexpected end of input in an object") }
            guard peek == UInt8(ascii: "\"") else { throw error("expected a quoted key in an object") }
            let key = try parseString()
            skipWhitespace()
            guard !isAtEnd, peek == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if let existing = entries.firstIndex(where: { $0.key == key }) {
                entries[existing].value = value
            } else {
                entries.append((key: key, value: value))
            }
            skipWhitespace()
            guard !isAtEnd else { throw error("unexpected end of input in an object, expected ',' or '}'") }
            if peek == UInt8(ascii: ",") { index += 1; continue }
            if peek == UInt8(ascii: "}") { index += 1; break }
            throw error("expected ',' or '}' in an object")
        }
        var object = JSONObject()
        for entry in entries { object.appendUnique(entry.key, entry.value) }
        return .object(object)
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if !isAtEnd, peek == UInt8(ascii: "]") { index += 1; return .array([]) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard !isAtEnd else { throw error("unexpected end of input in an array, expected ',' or ']'") }
            if peek == UInt8(ascii: ",") { index += 1; continue }
            if peek == UInt8(ascii: "]") { index += 1; break }
            throw error("expected ',' or ']' in an array")
        }
        return .array(elements)
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
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text) else { throw error("number out of range") }
        return .double(value)
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            index += 1
        }
        var scalars = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; break }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            if byte != UInt8(ascii: "\\") { scalars.append(byte); index += 1; continue }
            index += 1
            guard index < bytes.count else { throw error("unterminated escape in a string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
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

// MARK: - Writing

extension JSONValue {
    /// Compact JSON text, keys in their stored order, non-ASCII characters kept as they are.
    public var jsonString: String { String(decoding: jsonBytes, as: UTF8.self) }

    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d.isFinite { out.append(contentsOf: JSONValue.formatDouble(d).utf8) } else { out.append(contentsOf: "null".utf8) }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (i, entry) in object.entries.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(entry.key, to: &out)
                out.append(UInt8(ascii: ":"))
                entry.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\\"))
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
