/// A JSON value that keeps what Algolia clients care about: the order of object keys
/// (records are returned as they were saved) and the difference between integers and
/// floating-point numbers (`5` stays `5`, `49.99` stays `49.99`).
///
/// ```swift
/// let record = try JSONValue(parsing: #"{"name": "iPhone", "price": 699}"#)
/// record["name"]?.stringValue   // "iPhone"
/// ```
public enum JSONValue: Sendable, Hashable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or an exponent, when it fits in `Int64`.
    case int(Int64)
    /// Any other number: with a fraction or an exponent, or an integer beyond `Int64`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, its elements in order.
    case array([JSONValue])
    /// An object, its keys in their order.
    case object(JSONObject)
}

/// A JSON object whose keys keep their insertion order. Lookup is linear, which is the
/// fastest choice for the small objects records and parameters are made of.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)
    /// The members in order; no key appears twice.
    public private(set) var entries: [Element]

    /// An empty object.
    public init() { entries = [] }
    /// An object of these members, in order; a repeated key keeps its first position and
    /// takes its last value.
    public init(_ entries: [Element]) {
        self.entries = []
        self.entries.reserveCapacity(entries.count)
        for (key, value) in entries { self[key] = value }
    }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }

    /// The number of members.
    public var count: Int { entries.count }
    /// Whether the object has no members.
    public var isEmpty: Bool { entries.isEmpty }
    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }
    public func makeIterator() -> IndexingIterator<[Element]> { entries.makeIterator() }

    /// Reading a missing key gives `nil`; writing `nil` removes the key; writing an
    /// existing key replaces its value in place, keeping its position.
    public subscript(key: String) -> JSONValue? {
        get {
            // Through the buffer: iterating the entries would copy (retain and release) each one.
            entries.withUnsafeBufferPointer { entries in
                for index in entries.indices where entries[index].key == key { return entries[index].value }
                return nil
            }
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key: key, value: newValue))
            }
        }
    }

    /// Appends without checking for an existing key: for builders that know keys are new.
    public mutating func appendUnique(_ key: String, _ value: JSONValue) {
        entries.append((key: key, value: value))
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for (key, value) in lhs.entries where rhs[key] != value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, consistent with ==.
        var combined = 0
        for (key, value) in entries {
            var entryHasher = Hasher()
            entryHasher.combine(key)
            entryHasher.combine(value)
            combined ^= entryHasher.finalize()
        }
        hasher.combine(entries.count)
        hasher.combine(combined)
    }
}

extension JSONValue {
    /// The member `key` of an object; nil when it is missing or the value is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The members, when the value is an object; nil otherwise.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    /// The elements, when the value is an array; nil otherwise.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    /// The string, when the value is a string; nil otherwise (a number is not converted, see
    /// `scalarText`).
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The boolean, when the value is `true` or `false`; nil otherwise (`"true"` is a string).
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// Whether the value is `null`.
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The value as a number, for integers and doubles alike.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The value as an integer, when it is an integer or a double without a fraction.
    public var intValue: Int? {
        switch self {
        case .int(let i): return Int(exactly: i)
        case .double(let d): return Int(exactly: d)
        default: return nil
        }
    }

    /// How Algolia shows a scalar as text (in facets, highlights and `objectID`):
    /// strings as they are, numbers in their shortest form, booleans as `true`/`false`.
    /// `nil` for null, arrays and objects.
    public var scalarText: String? {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return JSONValue.formatDouble(d)
        case .bool(let b): return b ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }

    /// Walks a dotted path (`hierarchicalCategories.lvl0`) through nested objects. When
    /// the walk meets an array, the rest of the path is applied to each element and the
    /// results are gathered into an array, as Algolia does for `a.b` over `a: [{b}, {b}]`.
    public func value(atPath path: some StringProtocol) -> JSONValue? {
        let path = String(path)
        if let direct = self[path] { return direct }
        // Found by byte (a dot is one byte in UTF-8), not by Character: paths are read per record.
        guard let dot = path.utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let head = String(path[..<dot])
        let rest = path[path.utf8.index(after: dot)...]
        guard let child = self[head] else { return nil }
        switch child {
        case .object: return child.value(atPath: rest)
        case .array(let elements):
            let found = elements.compactMap { $0.value(atPath: rest) }
            return found.isEmpty ? nil : .array(found)
        default: return nil
        }
    }

    /// The value at `path`, by `value(atPath:)`'s rules, with the path split beforehand.
    package func value(at path: JSONPath) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object.value(at: path)
    }

    static func formatDouble(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let keyed = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var object = JSONObject()
            for key in keyed.allKeys { object.appendUnique(key.stringValue, try keyed.decode(JSONValue.self, forKey: key)) }
            self = .object(object)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let b = try? single.decode(Bool.self) { self = .bool(b) }
        else if let i = try? single.decode(Int64.self) { self = .int(i) }
        else if let d = try? single.decode(Double.self) { self = .double(d) }
        else { self = .string(try single.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i): var c = encoder.singleValueContainer(); try c.encode(i)
        case .double(let d): var c = encoder.singleValueContainer(); try c.encode(d)
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for element in a { try c.encode(element) }
        case .object(let o):
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in o { try c.encode(value, forKey: AnyCodingKey(key)) }
        }
    }
}

struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// A dotted path read from many records (an attribute of the settings), split once:
/// `JSONObject.value(at:)` then follows `JSONValue.value(atPath:)`'s rules without making a
/// string per record. Two paths are equal when their text is.
package struct JSONPath: Sendable, Hashable {
    package let text: String
    /// For a path with a dot, each step of the walk: the rest of the path as one key (tried
    /// first: a key may contain dots) and the key before its first dot (nil when it has none).
    /// Empty for a path without a dot (the common case, which then allocates nothing).
    fileprivate let steps: [(whole: String, head: String?)]

    package init(_ text: String) {
        self.text = text
        guard text.utf8.contains(UInt8(ascii: ".")) else {
            steps = []
            return
        }
        var steps: [(whole: String, head: String?)] = []
        var rest = Substring(text)
        while true {
            guard let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")) else {
                steps.append((String(rest), nil))
                break
            }
            steps.append((String(rest), String(rest[..<dot])))
            rest = rest[rest.utf8.index(after: dot)...]
        }
        self.steps = steps
    }

    package static func == (lhs: JSONPath, rhs: JSONPath) -> Bool { lhs.text == rhs.text }
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

extension JSONValue {
    /// Whether the two are the same JSON down to the bytes of every string and key. `==` takes
    /// canonically equivalent strings as equal (`"é"` as one scalar or as `e` and a combining
    /// accent; `";"` and the Greek question mark), as Swift's strings do, but a setting read
    /// scalar by scalar (`separatorsToIndex`, `keepDiacriticsOnCharacters`) tells them apart:
    /// what decides whether settings changed compares with this. The order of an object's keys
    /// does not count, as with `==`.
    package func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): return a.utf8.elementsEqual(b.utf8)
        case let (.array(a), .array(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case let (.object(a), .object(b)): return a.isIdentical(to: b)
        default: return false
        }
    }
}

extension JSONObject {
    /// Whether the two have the same members down to the bytes of every key and string, in any
    /// order (`JSONValue.isIdentical(to:)`).
    package func isIdentical(to other: JSONObject) -> Bool {
        guard count == other.count else { return false }
        for (key, value) in entries {
            guard let match = other.entries.first(where: { $0.key.utf8.elementsEqual(key.utf8) }),
                  match.value.isIdentical(to: value) else { return false }
        }
        return true
    }
}

extension JSONObject {
    /// The value at `path`, as `JSONValue.value(atPath:)` finds it.
    package func value(at path: JSONPath) -> JSONValue? {
        path.steps.isEmpty ? self[path.text] : value(at: path, step: 0)
    }

    private func value(at path: JSONPath, step: Int) -> JSONValue? {
        if let direct = self[path.steps[step].whole] { return direct }
        guard let head = path.steps[step].head, let child = self[head] else { return nil }
        switch child {
        case .object(let object): return object.value(at: path, step: step + 1)
        case .array(let elements):
            let found = elements.compactMap { element -> JSONValue? in
                guard case .object(let object) = element else { return nil }
                return object.value(at: path, step: step + 1)
            }
            return found.isEmpty ? nil : .array(found)
        default: return nil
        }
    }
}
