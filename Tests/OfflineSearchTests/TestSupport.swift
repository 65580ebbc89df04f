import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI
@_exported import OfflineSearchTestSupport

/// `../shared/datasets`, beside the repository: the project's real datasets. CI has the folder;
/// a user's clone does not, so the tests that read it carry `.needsSharedDatasets`.
enum SharedDatasets {
    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/datasets")
    }
    static var isPresent: Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent("products.json").path) }
    static func records(_ file: String) throws -> [JSONValue] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        guard case .array(let records) = try JSONValue(parsingUTF8: Array(data)) else { return [] }
        return records
    }
    static func settings(_ file: String) throws -> JSONObject {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        return try JSONValue(parsingUTF8: Array(data)).objectValue ?? [:]
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test, saying why, where `../shared/datasets` is absent (a user's clone).
    static var needsSharedDatasets: Self {
        .enabled(if: SharedDatasets.isPresent, "needs ../shared/datasets (the project's real datasets, beside the repository; CI has it, a clone does not)")
    }
}

extension SearchIndex {
    func search(_ query: String, _ parameters: JSONObject = [:]) throws -> SearchResponse {
        var object = parameters
        object["query"] = .string(query)
        return try search(SearchParameters(json: object))
    }
}

extension SearchResponse {
    var objectIDs: [String] { hits.compactMap { $0["objectID"]?.stringValue } }

    /// The whole answer as JSON text, without `processingTimeMS` (the one part that may
    /// differ between two searches that must answer the same).
    var answerWithoutTiming: String {
        var response = self
        response.processingTimeMS = 0
        return response.jsonValue.jsonString
    }
}

/// How the brute-force evaluators of the tests read text, independently of the engine's
/// tokenizer: Foundation's folding, then maximal runs of letters and digits.
enum BruteForceText {
    /// Lowercase, no diacritics.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// Folded words: maximal runs of letters and digits.
    static func words(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        for character in fold(text) {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                result.append(current)
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}

/// Expects `body` to throw a `SearchError` and returns it (records an issue otherwise).
func expectSearchError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> SearchError? {
    do {
        try body()
        Issue.record("expected a SearchError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as SearchError {
        return error
    } catch {
        Issue.record("expected a SearchError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

// Helpers shared by the behaviour tests (one test per behaviour the engine promises, each on a
// small index of its own whose records are named for what they prove).

func ids(_ response: SearchResponse) -> Set<String> { Set(response.objectIDs) }

/// The first hit whose objectID is `id`.
func hit(_ response: SearchResponse, _ id: String) -> JSONValue? {
    response.hits.first { $0["objectID"]?.stringValue == id }
}

func writeFile(_ directory: TemporaryDirectory, _ name: String, _ text: String) throws -> URL {
    let url = directory.url.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
}

/// Runs `body` on a thread with a small stack (512 KB, a secondary thread's on Apple platforms)
/// and returns its result: hostile input must be refused before it runs the stack out, not only
/// on an 8 MB main thread. (Expectations are checked by the caller, on the test's own thread.)
func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let box = SmallStackResult<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    return box.value!
}

private final class SmallStackResult<T>: @unchecked Sendable {
    // @unchecked: written by the thread before it signals, read after waiting for the signal.
    var value: T?
}

