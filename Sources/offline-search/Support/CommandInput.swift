import ArgumentParser
import Foundation
import SearchAPI

/// A failure at run time (a file that cannot be read, a missing index): printed as
/// `Error: <message>` without the usage text, which is for mistakes in the command line.
/// Engine errors (`SearchError`) print the same way.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads a JSON file (a settings file): unreadable or invalid JSON is a `CommandFailure`
/// naming the file, with the line and column of a syntax error.
func readJSONFile(_ path: String) throws -> JSONValue {
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
        throw CommandFailure("Cannot read \(path): \(error.localizedDescription)")
    }
    var bytes = Array(data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    do { return try JSONValue(parsingUTF8: bytes) } catch { throw CommandFailure("\(path): \(error)") }
}

/// Reads a settings file: a JSON object.
func readSettingsFile(_ path: String) throws -> JSONObject {
    guard case .object(let object) = try readJSONFile(path) else {
        throw CommandFailure("\(path): expected a JSON object of settings, such as {\"searchableAttributes\": [\"name\"]}")
    }
    return object
}

/// Parses an option's JSON object; a mistake is a `ValidationError`, so the subcommand's usage
/// is shown. Call it from `validate()`.
func parseJSONObjectOption(_ text: String, option: String, example: String) throws -> JSONObject {
    do {
        guard case .object(let object) = try JSONValue(parsing: text) else {
            throw ValidationError("\(option): expected a JSON object such as \(example)")
        }
        return object
    } catch let error as JSONParseError {
        throw ValidationError("\(option): \(error)")
    }
}

/// The rules of a JSON file: one rule object, or an array of them.
func readRulesFile(_ path: String) throws -> [JSONObject] {
    switch try readJSONFile(path) {
    case .object(let rule): return [rule]
    case .array(let elements):
        return try elements.enumerated().map { position, element in
            guard let rule = element.objectValue else {
                throw CommandFailure("\(path): rules[\(position)]: expected a rule object, got \(element.jsonString.prefix(60))")
            }
            return rule
        }
    default:
        throw CommandFailure("\(path): expected a rule object or an array of rules")
    }
}
