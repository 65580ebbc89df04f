import Foundation
import SearchAPI

// What a record must be to be stored: a JSON object with a string objectID, within JSON's limits.
extension SearchIndex {
    static func normalizedRecord(_ record: JSONValue, position: Int) throws(SearchError) -> JSONObject {
        guard case .object(var object) = record else {
            throw SearchError(.invalidJSON, "record \(position + 1): expected a JSON object, got \(record.jsonString.prefix(60))")
        }
        switch object["objectID"] {
        case nil, .null?:
            object["objectID"] = .string(UUID().uuidString.lowercased())
        case .string(let id)?:
            if id.isEmpty { throw SearchError(.invalidParameter, "record \(position + 1): objectID must not be empty") }
        case .int?, .double?:
            object["objectID"] = .string(object["objectID"]!.scalarText!)
        case let other?:
            throw SearchError(.invalidParameter, "record \(position + 1): objectID must be a string or a number, got \(other.jsonString.prefix(60))")
        }
        if let problem = storageProblem(in: object) {
            throw SearchError(.invalidJSON, "record \(position + 1): \(problem)")
        }
        return object
    }

    /// What keeps a record (one built in Swift: the parser refuses these in text) from being
    /// stored as it is, nil when nothing does. It is stored as JSON text and read back by the
    /// parser, so it must be text the parser reads back the same: no infinite or NaN number
    /// (JSON would store null while the index holds the number), and no more nesting, longer
    /// strings or more elements than `JSONParseLimits` allows.
    static func storageProblem(in object: JSONObject) -> String? {
        let limits = JSONParseLimits()
        // Iterative (a record built in Swift has no depth limit); paths are built only for the
        // containers walked, not for every value.
        var pending: [(path: String, depth: Int, entries: [(key: String, value: JSONValue)])] = [("", 1, object.entries)]
        while let (path, depth, entries) = pending.popLast() {
            if entries.count > limits.maxElements {
                return "\(path.isEmpty ? "the record" : path) has \(entries.count) elements; expected at most \(limits.maxElements)"
            }
            for (key, value) in entries {
                if key.utf8.count > limits.maxStringBytes || value.stringValue.map({ $0.utf8.count > limits.maxStringBytes }) == true {
                    return "\(path)\(key.prefix(40)) holds a string longer than \(limits.maxStringBytes) bytes; expected at most \(limits.maxStringBytes)"
                }
                switch value {
                case .double(let number) where !number.isFinite:
                    return "\(path)\(key) is \(number); expected a finite number (JSON cannot store it)"
                case .array, .object:
                    guard depth < limits.maxDepth else {
                        let shown = path.count > 80 ? path.prefix(30) + "…" + path.suffix(40) : Substring(path)
                        return "\(shown)\(key) is nested deeper than \(limits.maxDepth) levels; expected at most \(limits.maxDepth)"
                    }
                    if case .object(let child) = value {
                        pending.append((path + key + ".", depth + 1, child.entries))
                    } else if let elements = value.arrayValue, elements.contains(where: SearchIndex.needsStorageCheck) || elements.count > limits.maxElements {
                        pending.append((path + key, depth + 1, elements.enumerated().map { ("[\($0.offset)]", $0.element) }))
                    }
                default:
                    continue
                }
            }
        }
        return nil
    }

    static func needsStorageCheck(_ value: JSONValue) -> Bool {
        switch value {
        case .double(let number): !number.isFinite
        case .string(let text): text.utf8.count > JSONParseLimits().maxStringBytes
        case .array, .object: true
        default: false
        }
    }
}
