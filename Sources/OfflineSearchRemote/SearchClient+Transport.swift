import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SearchAPI

extension SearchClient {
    /// One call of the REST API: tries the hosts in the retry strategy's order until one
    /// answers, and returns the parsed JSON of a 2xx answer. The route gives the method and
    /// the path, and whether the call goes to the hosts that take reads or writes.
    /// - Throws: the answer's error for a 4xx (not retried), `.unreachable` when no host
    ///   answered (each failed, timed out or answered 5xx), `.cancelled` when the task was.
    func call(_ route: AlgoliaRoute, query: [(String, String)] = [], body: JSONValue? = nil) async throws(SearchError) -> JSONValue {
        let method = route.method.rawValue
        // Insights events go to the Insights API's hosts, any of which takes them.
        let hosts = route == .sendEvents ? insightsHosts : self.hosts
        let callType: SearchHost.CallType = route.writes || route == .sendEvents ? .write : .read
        let base = callType == .read ? configuration.readTimeout : configuration.writeTimeout
        let encodedPath = route.path
        let candidates = await hosts.hosts(for: callType)
        guard !candidates.isEmpty else {
            throw SearchError(.unreachable, "\(method) \(encodedPath): no host of the client takes \(callType == .read ? "reads" : "writes")")
        }
        var failures: [String] = []
        for (attempt, host) in candidates.enumerated() {
            if Task.isCancelled { throw .cancelled("the request to \(encodedPath)") }
            let timeout = base * (attempt + 1)
            let request = makeRequest(method, host: host, path: encodedPath, query: query, body: body)
            let result = await transport.send(request, timeout: timeout)
            let outcome: RequestAttempt.Outcome
            switch result {
            case .cancelled:
                throw .cancelled("the request to \(encodedPath)")
            case .answered(let status, _) where status >= 500:
                outcome = .serverError(status: status)
                await hosts.failed(host)
            case .answered(let status, _):
                outcome = .answered(status: status)
                await hosts.succeeded(host)
            case .networkError(let message):
                outcome = .networkError(message)
                await hosts.failed(host)
            case .timedOut:
                outcome = .timedOut
                await hosts.timedOut(host)
            }
            configuration.onAttempt?(RequestAttempt(host: host, method: method, path: encodedPath, timeout: timeout, outcome: outcome))
            switch (result, outcome) {
            case (.answered(let status, let bytes), .answered):
                return try SearchClient.decode(status: status, bytes: bytes, method: method, path: encodedPath, host: host)
            case (_, .serverError(let status)):
                failures.append("\(host) answered \(status)")
            case (_, .networkError(let message)):
                failures.append("\(host): \(message)")
            default:
                failures.append("\(host) timed out after \(timeout)")
            }
        }
        throw SearchError(.unreachable, "\(method) \(encodedPath): no host answered (\(failures.joined(separator: "; "))); "
                          + "check the network connection and the client's hosts")
    }

    private func makeRequest(_ method: String, host: SearchHost, path: String, query: [(String, String)], body: JSONValue?) -> URLRequest {
        var text = host.description + path
        if !query.isEmpty {
            text += "?" + query.map { "\(FormURLEncoding.encode($0.0))=\(FormURLEncoding.encode($0.1))" }.joined(separator: "&")
        }
        // The path segments and the query are percent-encoded above, so the URL is valid.
        var request = URLRequest(url: URL(string: text) ?? host.url)
        request.httpMethod = method
        request.setValue(configuration.appID, forHTTPHeaderField: "x-algolia-application-id")
        request.setValue(configuration.apiKey, forHTTPHeaderField: "x-algolia-api-key")
        request.setValue("OfflineSearchRemote (\(SearchClient.version))", forHTTPHeaderField: "x-algolia-agent")
        for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "content-type")
            request.httpBody = Data(body.jsonString.utf8)
        }
        return request
    }

    /// The JSON of a 2xx answer, or the error of a 4xx one (Algolia's `{"message", "status"}`).
    static func decode(status: Int, bytes: [UInt8], method: String, path: String, host: SearchHost) throws(SearchError) -> JSONValue {
        let json = try? JSONValue(parsingUTF8: bytes)
        guard (200..<300).contains(status) else {
            let message = json?["message"]?.stringValue ?? "\(method) \(path) on \(host) answered \(status)"
            let kind: SearchError.Kind = switch status {
            case 403, 401: .forbidden
            // `Index X does not exist`; otherwise an object, a synonym or a task does not.
            case 404: message.hasPrefix("Index ") ? .indexNotFound : .objectNotFound
            default: .invalidParameter
            }
            throw SearchError(kind, message, status: status)
        }
        guard let json else {
            throw SearchError(.invalidJSON, "\(method) \(path) on \(host): the answer is not JSON: \(String(decoding: bytes.prefix(120), as: UTF8.self))")
        }
        return json
    }
}
