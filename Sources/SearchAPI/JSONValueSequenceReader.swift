// JSONValueSequenceReader: the values of a JSON array or of JSON Lines, read one at a time.

/// Reads the values of a JSON array, or of JSON Lines, one at a time: an import holds one
/// batch of parsed records, not the whole file's. Errors give the line and column in the whole
/// text, as parsing it at once would.
///
/// ```swift
/// var reader = JSONValueSequenceReader(utf8: buffer)
/// while let record = try reader.next() { ... }
/// ```
///
/// The array's elements are not counted against `JSONParseLimits.maxElements`: they are not
/// held together.
public struct JSONValueSequenceReader {
    /// How the text holds its values.
    public enum Form: Sendable {
        /// One JSON array; its elements are the values.
        case array
        /// One JSON value per non-blank line.
        case lines
    }

    /// The form read: the one passed to `init`, or the one found in the text.
    public let form: Form
    private var parser: JSONParser
    private var started = false
    private var finished = false

    /// A reader of `bytes`, which must outlive it. Without `form`, text whose first character
    /// (after a byte-order mark and whitespace) is `[` is an array, anything else JSON Lines.
    public init(utf8 bytes: UnsafeBufferPointer<UInt8>, form: Form? = nil, limits: JSONParseLimits = JSONParseLimits()) {
        parser = JSONParser(bytes, limits: limits)
        parser.skipByteOrderMark()
        if let form {
            self.form = form
        } else {
            var probe = parser
            probe.skipWhitespace()
            self.form = !probe.isAtEnd && probe.peek == UInt8(ascii: "[") ? .array : .lines
        }
    }

    /// How many bytes of the text have been read: the values before are parsed (a caller may
    /// release the memory behind them).
    public var bytesRead: Int { parser.index }

    /// Where the value `next` returned last stands in the text, and whether that text is
    /// exactly what `jsonBytes` writes for the value (compact, escapes only where and as the
    /// writer writes them, numbers as it writes them, no repeated key, valid UTF-8): a caller
    /// that stores the value's text can then copy it rather than write it out again. It may
    /// be false for such a text (numbers are judged cautiously), never true for another.
    package private(set) var lastValueRange = 0..<0
    package private(set) var lastValueIsWrittenForm = false

    /// The next value, or nil after the last.
    public mutating func next() throws(JSONParseError) -> JSONValue? {
        guard !finished else { return nil }
        switch form {
        case .lines:
            parser.skipWhitespace()
            if parser.isAtEnd { finished = true; return nil }
            let line = parser.line
            let value = try parseValue()
            parser.skipInlineWhitespace()
            if !parser.isAtEnd, parser.peek != UInt8(ascii: "\n"), parser.peek != UInt8(ascii: "\r") {
                throw parser.error("expected a new line after the JSON value that starts on line \(line)")
            }
            return value
        case .array:
            parser.skipWhitespace()
            if !started {
                started = true
                guard !parser.isAtEnd, parser.peek == UInt8(ascii: "[") else { throw parser.error("expected a JSON array") }
                parser.index += 1
                parser.skipWhitespace()
                if !parser.isAtEnd, parser.peek == UInt8(ascii: "]") {
                    parser.index += 1
                    try finish()
                    return nil
                }
            } else {
                guard !parser.isAtEnd else { throw parser.error("unexpected end of input in an array, expected ',' or ']'") }
                switch parser.peek {
                case UInt8(ascii: ","):
                    parser.index += 1
                    parser.skipWhitespace()
                case UInt8(ascii: "]"):
                    parser.index += 1
                    try finish()
                    return nil
                default:
                    throw parser.error("expected ',' or ']' in an array")
                }
            }
            return try parseValue()
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        let start = parser.index
        parser.isWrittenForm = true
        let value = try parser.parseValue()
        lastValueRange = start..<parser.index
        lastValueIsWrittenForm = parser.isWrittenForm
        return value
    }

    /// After the array's `]`: only whitespace may follow.
    private mutating func finish() throws(JSONParseError) {
        finished = true
        parser.skipWhitespace()
        guard parser.isAtEnd else { throw parser.error("unexpected text after the JSON value") }
    }
}
