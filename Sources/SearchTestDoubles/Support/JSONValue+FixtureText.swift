import SearchAPI

extension JSONValue {
    /// The value with every object's keys in sorted order, recursively.
    func sortingKeys() -> JSONValue {
        switch self {
        case .array(let elements): .array(elements.map { $0.sortingKeys() })
        case .object(let object):
            .object(JSONObject(object.entries.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value.sortingKeys()) }))
        default: self
        }
    }

    /// Indented text for a fixture file a person reads and diffs: keys in their stored order,
    /// two spaces per level. Unlike `jsonString`, a double without a fraction is written `5.0`,
    /// so it reads back as a double and a replayed response equals the recorded one.
    func fixtureText() -> String {
        var out = ""
        writeFixtureText(to: &out, indent: "")
        return out
    }

    private func writeFixtureText(to out: inout String, indent: String) {
        switch self {
        case .double(let d) where d.isFinite && d == d.rounded() && abs(d) < 1e15:
            out += String(Int64(d)) + ".0"
        case .array(let elements) where !elements.isEmpty:
            let inner = indent + "  "
            out += "[\n"
            for (position, element) in elements.enumerated() {
                out += inner
                element.writeFixtureText(to: &out, indent: inner)
                out += position == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let object) where !object.isEmpty:
            let inner = indent + "  "
            out += "{\n"
            for (position, entry) in object.entries.enumerated() {
                out += inner + JSONValue.string(entry.key).jsonString + ": "
                entry.value.writeFixtureText(to: &out, indent: inner)
                out += position == object.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        default:
            out += jsonString
        }
    }
}
