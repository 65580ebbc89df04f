// Writing: a value's compact JSON text, as bytes or a string, and the string escapes.
//
// An answer is encoded once per keystroke (a page of hits is about 12 KB), so the writer walks
// arrays and objects through their buffers (iterating them would copy, retain and release,
// every element), writes integers digit by digit (no `String` in between) and copies each
// string's bytes in runs that need no escape.
extension JSONValue {
    /// Compact JSON text, keys in their stored order, non-ASCII characters kept as they are.
    public var jsonString: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// Compact JSON as UTF-8 bytes: the bytes of `jsonString` (a non-finite double is written
    /// `null`).
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    /// Appends the value's compact JSON, as `jsonBytes` writes it, to `out`.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): JSONValue.writeInteger(i, to: &out)
        case .double(let d):
            if d.isFinite { out.append(contentsOf: JSONValue.formatDouble(d).utf8) } else { out.append(contentsOf: "null".utf8) }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            elements.withUnsafeBufferPointer { elements in
                for index in elements.indices {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    elements[index].write(to: &out)
                }
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            object.entries.withUnsafeBufferPointer { entries in
                for index in entries.indices {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    JSONValue.writeString(entries[index].key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    entries[index].value.write(to: &out)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// An integer's decimal digits, with a leading `-` when it is negative (`Int64.min` too).
    static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // UInt64.max has 20 digits; they are made from the last.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A string in quotes, with `"`, `\` and the control characters escaped (`\n`, `\r`, `\t`,
    /// the others as `\u00XX`); every other character, non-ASCII included, as its UTF-8 bytes.
    static func writeString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // A native string lends its bytes; another (bridged from Objective-C) is made native first.
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, to: &out) }) == nil {
            var native = string
            native.withUTF8 { writeEscaped($0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard let base = bytes.baseAddress else { return }
        // Runs of bytes that need no escape are copied whole (most strings are one run); the
        // run is found eight bytes at a time, then byte by byte in a word that has an escape.
        var runStart = 0, index = 0
        while index < bytes.count {
            if index &+ 8 <= bytes.count,
               !wordNeedsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index &+= 8
                continue
            }
            let end = Swift.min(index &+ 8, bytes.count)
            while index < end {
                let byte = base[index]
                index &+= 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index &- 1 &- runStart))
                runStart = index
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                }
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: bytes.count &- runStart))
    }

    /// Whether one of a word's eight bytes is below 0x20, `"` or `\` (the classic tests for a
    /// zero byte and a byte below n, which are exact as yes-or-no answers).
    @inline(__always)
    private static func wordNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\""))), backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let below0x20 = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (below0x20 | quote | backslash) & highBits != 0
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
