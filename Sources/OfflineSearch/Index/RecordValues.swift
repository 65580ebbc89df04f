import SearchAPI

/// How the engine reads values out of a record: one place for paths, arrays and scalars.
enum RecordValues {
    /// Appends the scalars at `path` to `scalars`, arrays (at any depth) flattened in order.
    /// Nulls are skipped. Run for every record and attribute: the caller reuses `scalars`.
    static func appendScalars(at path: JSONPath, in record: JSONObject, to scalars: inout [JSONValue]) {
        guard let value = record.value(at: path) else { return }
        flatten(value, into: &scalars)
    }

    static func flatten(_ value: JSONValue, into result: inout [JSONValue]) {
        switch value {
        case .array(let elements): for element in elements { flatten(element, into: &result) }
        case .null, .object: break
        default: result.append(value)
        }
    }

    /// The first scalar at `path` (arrays flattened), if any.
    static func firstScalar(at path: JSONPath, in record: JSONObject) -> JSONValue? {
        guard let value = record.value(at: path) else { return nil }
        return firstScalar(in: value)
    }

    private static func firstScalar(in value: JSONValue) -> JSONValue? {
        switch value {
        case .array(let elements):
            for element in elements { if let found = firstScalar(in: element) { return found } }
            return nil
        case .null, .object: return nil
        default: return value
        }
    }

    /// Calls `body` with every searchable text of a record when no `searchableAttributes` are
    /// set: every string and number, depth first, `objectID` excepted.
    static func forEachText(in record: JSONObject, _ body: (String) -> Void) {
        for (key, value) in record where key != "objectID" { forEachText(in: value, body) }
    }

    private static func forEachText(in value: JSONValue, _ body: (String) -> Void) {
        switch value {
        case .object(let object): for (_, child) in object { forEachText(in: child, body) }
        case .array(let elements): for element in elements { forEachText(in: element, body) }
        case .null: break
        default: if let text = value.scalarText { body(text) }
        }
    }

    /// Calls `body` with every numeric value of a record and its dotted path (array elements
    /// under their array's path), for numeric filters on any attribute.
    static func forEachNumber(in record: JSONObject, _ body: (String, Double) -> Void) {
        for (key, value) in record where key != "objectID" { forEachNumber(in: value, path: key, depth: 0, body) }
    }

    private static func forEachNumber(in value: JSONValue, path: String, depth: Int, _ body: (String, Double) -> Void) {
        guard depth < 8 else { return }
        switch value {
        case .int, .double: body(path, value.doubleValue!)
        case .object(let object):
            for (key, child) in object { forEachNumber(in: child, path: path + "." + key, depth: depth + 1, body) }
        case .array(let elements):
            for element in elements { forEachNumber(in: element, path: path, depth: depth + 1, body) }
        default: break
        }
    }
}

/// A `customRanking` value: numbers and booleans sort numerically, strings alphabetically.
enum RankingValue: Comparable, Sendable {
    case number(Double)
    case text(String)

    init?(_ value: JSONValue) {
        switch value {
        case .int, .double: self = .number(value.doubleValue!)
        case .bool(let b): self = .number(b ? 1 : 0)
        case .string(let s): self = .text(s)
        default: return nil
        }
    }
}
