/// `application/x-www-form-urlencoded` as Algolia uses it in the `params` string:
/// spaces become `+`, everything outside the unreserved set is percent-encoded.
public enum FormURLEncoding {
    /// Encodes `text` for a `params` string: unreserved characters (`A-Z a-z 0-9 - _ . ~`) as
    /// they are, a space as `+`, every other UTF-8 byte as `%XX`.
    public static func encode(_ text: String) -> String {
        percentEncoded(text, space: "+")
    }

    /// Decodes `+` as a space and `%XX` escapes; a malformed escape is kept as written.
    public static func decode(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), i + 2 < utf8.count,
                      let high = hexValue(utf8[i + 1]), let low = hexValue(utf8[i + 2]) {
                bytes.append(high << 4 | low)
                i += 2
            } else {
                bytes.append(byte)
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Splits `a=1&b=2` into ordered, decoded pairs.
    public static func decodePairs(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            if let eq = part.firstIndex(of: "=") {
                return (decode(part[..<eq]), decode(part[part.index(after: eq)...]))
            }
            return (decode(part), "")
        }
    }

    /// A list as Algolia writes it in a query string (`restrictIndices`, `attributesToRetrieve`):
    /// JSON text (`["a","b"]`), or comma-separated with the blanks around each item trimmed.
    package static func list(_ text: String) -> [String] {
        if text.hasPrefix("["), let json = try? JSONValue(parsingUTF8: Array(text.utf8)), let items = json.arrayValue {
            return items.compactMap(\.stringValue)
        }
        return text.split(separator: ",").map(\.trimmingBlanks)
    }
}

/// A segment of a URL's path, as the REST API's paths carry index names, objectIDs and facet
/// names: unlike in a query string, a space is `%20` and a `+` is a plus. `AlgoliaRoute` writes
/// and reads its paths through it.
package enum PathSegmentEncoding {
    /// Unreserved characters (`A-Z a-z 0-9 - _ . ~`) as they are, every other UTF-8 byte (a
    /// space, `/`, `%`, `?`, `*`, `+`) as `%XX`: `my products/2024` is `my%20products%2F2024`.
    package static func encode(_ text: String) -> String {
        percentEncoded(text, space: "%20")
    }

    /// Decodes the `%XX` escapes, as Foundation's `removingPercentEncoding` does (a `+` stays
    /// a `+`); nil when a `%` is not followed by two hex digits or the bytes are not UTF-8, so
    /// that a malformed path is refused rather than read as another name.
    package static func decode(_ text: some StringProtocol) -> String? {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%") {
                guard i + 2 < utf8.count, let high = hexValue(utf8[i + 1]), let low = hexValue(utf8[i + 2]) else { return nil }
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        // Decoding replaces each invalid sequence with U+FFFD, so valid UTF-8 alone reads back
        // as the same bytes.
        let decoded = String(decoding: bytes, as: UTF8.self)
        return decoded.utf8.elementsEqual(bytes) ? decoded : nil
    }
}

/// Unreserved characters (`A-Z a-z 0-9 - _ . ~`) as they are, a space as `space`, every other
/// UTF-8 byte as `%XX`: the one percent-encoder of a query string and of a path.
private func percentEncoded(_ text: String, space: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 8)
    percentEncode(text, space: space, into: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Appends `text` percent-encoded (see `percentEncoded`) to `out`, byte by byte: every
/// response's `params` is written with it.
private func percentEncode(_ text: String, space: String, into out: inout [UInt8]) {
    let hex: StaticString = "0123456789ABCDEF"
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
             UInt8(ascii: "."), UInt8(ascii: "~"):
            out.append(byte)
        case UInt8(ascii: " "):
            out.append(contentsOf: space.utf8)
        default:
            out.append(UInt8(ascii: "%"))
            out.append(hex.utf8Start[Int(byte >> 4)])
            out.append(hex.utf8Start[Int(byte & 0xF)])
        }
    }
}

extension FormURLEncoding {
    /// `key=value&…` of ordered pairs, each side encoded (`encode`): a `params` string.
    package static func encodePairs(_ pairs: some Sequence<(key: String, value: String)>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            percentEncode(pair.key, space: "+", into: &out)
            out.append(UInt8(ascii: "="))
            percentEncode(pair.value, space: "+", into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The value of a hex digit, either case; nil for any other byte.
private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

extension StringProtocol {
    /// The text without the blanks at either end, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` trims them: spaces (Unicode category Zs) and tabs,
    /// not line breaks. Lists in a query string have always been trimmed so.
    var trimmingBlanks: String {
        let scalars = String(self).unicodeScalars
        let isBlank = { (scalar: Unicode.Scalar) in scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        guard let first = scalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isBlank($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
