/// `application/x-www-form-urlencoded` as Algolia uses it in the `params` string:
/// spaces become `+`, everything outside the unreserved set is percent-encoded.
public enum FormURLEncoding {
    /// Encodes `text` for a `params` string: unreserved characters (`A-Z a-z 0-9 - _ . ~`) as
    /// they are, a space as `+`, every other UTF-8 byte as `%XX`.
    public static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF")
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                 UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out.append("+")
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return out
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

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
