extension JSONValue {
    /// JSON text indented by two spaces per level, keys in their stored order (as
    /// `jsonString`, with `": "` after keys); empty arrays and objects stay on one line.
    ///
    /// ```swift
    /// let value: JSONValue = ["hits": [], "nbHits": 0]
    /// print(value.prettyJSONString)   // {\n  "hits": [],\n  "nbHits": 0\n}
    /// ```
    public var prettyJSONString: String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writePretty(to: &out, depth: 0)
        return String(decoding: out, as: UTF8.self)
    }

    private func writePretty(to out: inout [UInt8], depth: Int) {
        func newline(_ depth: Int) {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        switch self {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                element.writePretty(to: &out, depth: depth + 1)
            }
            newline(depth)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (i, entry) in object.entries.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                JSONValue.writeString(entry.key, to: &out)
                out.append(contentsOf: ": ".utf8)
                entry.value.writePretty(to: &out, depth: depth + 1)
            }
            newline(depth)
            out.append(UInt8(ascii: "}"))
        default:
            write(to: &out)
        }
    }
}
