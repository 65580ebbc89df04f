import Foundation
import SearchAPI

/// Requests and the answers a real service gave them, saved as a JSON file that a
/// `ReplayingSearchService` serves back with no engine and no network.
///
/// The file is indented JSON a person can read and diff, each entry the request and the
/// response as Algolia's REST API carries them:
///
/// ```json
/// {
///   "format": "SearchTestDoubles.ReplayFixture",
///   "version": 1,
///   "entries": [
///     {
///       "request": {"operation": "multiSearch", "body": {"requests": [{"indexName": "movies", "query": "star"}], "strategy": "none"}},
///       "response": {"results": [{"hits": [...], "nbHits": 12, ...}]}
///     }
///   ]
/// }
/// ```
///
/// Record one from the local engine (or a remote client) and save it:
///
/// ```swift
/// let fixture = try await ReplayFixture.record([
///     .multiSearch([.hits(indexName: "movies", parameters: SearchParameters(query: "star"))]),
/// ], from: engine)
/// try fixture.write(to: fixtureURL)
/// ```
public struct ReplayFixture: Sendable, Hashable {
    /// One request and its answer.
    public struct Entry: Sendable, Hashable {
        /// The call as it was made.
        public var request: ServiceRequest
        /// What the service answered.
        public var response: ServiceResponse

        /// An entry of `request` and the `response` it got.
        public init(request: ServiceRequest, response: ServiceResponse) {
            self.request = request
            self.response = response
        }
    }

    /// The entries in the order they were recorded.
    public var entries: [Entry]

    /// A fixture of these entries (none by default).
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    static let formatName = "SearchTestDoubles.ReplayFixture"
    static let version = 1

    /// Sends each request to `service`, in order, and keeps its answer; the first error stops
    /// the recording and is thrown.
    public static func record(_ requests: [ServiceRequest], from service: any SearchService) async throws(SearchError) -> ReplayFixture {
        var fixture = ReplayFixture()
        for request in requests {
            fixture.entries.append(Entry(request: request, response: try await request.send(to: service)))
        }
        return fixture
    }

    // MARK: Writing

    /// The file's content, as `write(to:)` saves it: the same entries always give the same text.
    public var jsonText: String {
        let document: JSONValue = [
            "format": .string(Self.formatName),
            "version": .int(Int64(Self.version)),
            "entries": .array(entries.map { ["request": $0.request.jsonValue, "response": $0.response.jsonValue] }),
        ]
        return document.fixtureText() + "\n"
    }

    /// Saves the fixture as a JSON file, replacing the file if there is one.
    public func write(to url: URL) throws(SearchError) {
        do {
            try Data(jsonText.utf8).write(to: url, options: .atomic)
        } catch {
            throw SearchError(.internalError, "\(url.path): the replay fixture could not be written: \(error.localizedDescription)")
        }
    }

    // MARK: Reading

    /// Reads a fixture file that `write(to:)` saved (or a person wrote in the same form). An
    /// error names the file and where it is wrong: the line and column of a JSON syntax
    /// error, or the entry (from 0) and field of a request or response that does not read.
    public init(contentsOf url: URL) throws(SearchError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SearchError(.invalidParameter, "\(url.path): the replay fixture could not be read: \(error.localizedDescription)")
        }
        try self.init(jsonText: String(decoding: data, as: UTF8.self), source: url.path)
    }

    /// Reads a fixture from its text; `source` names it in error messages.
    public init(jsonText: String, source: String = "replay fixture") throws(SearchError) {
        let document: JSONValue
        do throws(JSONParseError) { document = try JSONValue(parsing: jsonText) } catch {
            throw SearchError(.invalidJSON, "\(source): invalid JSON at line \(error.line), column \(error.column): \(error.reason)")
        }
        guard case .object(let object) = document else {
            throw SearchError(.invalidJSON, "\(source): expected a JSON object with \"format\": \"\(Self.formatName)\" and \"entries\"")
        }
        guard object["format"]?.stringValue == Self.formatName else {
            throw SearchError(.invalidJSON, "\(source): not a replay fixture: expected \"format\": \"\(Self.formatName)\"")
        }
        guard object["version"]?.intValue == Self.version else {
            throw SearchError(.invalidJSON, "\(source): version \(object["version"]?.jsonString ?? "(missing)") is not supported; this library reads version \(Self.version)")
        }
        guard case .array(let elements)? = object["entries"] else {
            throw SearchError(.invalidJSON, "\(source): entries: expected an array of {\"request\": ..., \"response\": ...}")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            let place = "\(source): entry \(position)"
            guard let requestJSON = element["request"], let responseJSON = element["response"] else {
                throw SearchError(.invalidJSON, "\(place): expected an object with \"request\" and \"response\"")
            }
            do throws(SearchError) {
                let request = try ServiceRequest(json: requestJSON)
                entries.append(Entry(request: request, response: try ServiceResponse(json: responseJSON, answering: request)))
            } catch {
                throw SearchError(.invalidJSON, "\(place): \(error.message)")
            }
        }
        self.entries = entries
    }
}
