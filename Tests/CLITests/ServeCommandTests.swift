import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SearchAPI
import Testing

/// `offline-search serve` end to end: the built binary, a real port, a signal to stop it.
@Suite(.serialized) struct ServeCommandTests {
    @Test func refusesToServeWithoutKeysOnANonLoopbackAddress() throws {
        let result = try CLI.run(["serve", "--host", "0.0.0.0", "--port", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("without keys"), "\(result.stderr)")
    }

    @Test(arguments: [["--admin-key", ""], ["--admin-key", "admin", "--search-key", ""], ["--search-key", "  "]])
    func refusesAnEmptyKeyWithAUsageError(keys: [String]) throws {
        let result = try CLI.run(["serve", "--port", "0"] + keys)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("Refusing to serve with an empty --"), "\(result.stderr)")
    }

    @Test(arguments: [["--search-cache", "-1"], ["--search-cache", "65537"], ["--response-cache", "-1"]])
    func refusesACacheSizeOutOfRange(option: [String]) throws {
        // "=": ArgumentParser reads a separate "-1" as an option.
        let result = try CLI.run(["serve", "--port", "0", "\(option[0])=\(option[1])"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("\(option[0]) must be from 0 (off) to 65536 MiB, got \(option[1])"), "\(result.stderr)")
    }

    @Test func servesTheDefaultFolderWhereADemoIndexAppearsWhenNamedAndStopsOnSIGTERM() async throws {
        let home = DataDirectory()
        let process = Process()
        process.executableURL = CLI.binary
        // A search cache of 1 MiB an index: answers as with the default.
        process.arguments = ["serve", "--port", "0", "--admin-key", "admin", "--search-cache", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = nil
        environment["HOME"] = home.path
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let (port, note) = CLI.servedPort(from: err)
        var output = note
        let bound = try #require(port, "no port in: \(output)")

        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(bound)/1/indexes/mobile_demo_actors/query")!)
        request.httpMethod = "POST"
        request.setValue("admin", forHTTPHeaderField: "X-Algolia-API-Key")
        request.setValue("any", forHTTPHeaderField: "X-Algolia-Application-Id")
        request.httpBody = Data(#"{"query":"","hitsPerPage":1}"#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let answer = try JSONValue(parsingUTF8: Array(data))
        #expect(answer["nbHits"] == 2000)

        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // One log line per request: method, path, status, time.
        output += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(output.contains("POST /1/indexes/mobile_demo_actors/query 200"), "\(output)")
    }
}
