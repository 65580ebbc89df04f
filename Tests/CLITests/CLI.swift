import Foundation
import SearchAPI
import Testing
@_exported import OfflineSearchTestSupport

/// Runs the built `offline-search` binary, as scripts do.
struct CLI {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("offline-search"),
            Bundle.main.bundleURL.appendingPathComponent("offline-search"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("offline-search"),
            repository.appendingPathComponent(".build/debug/offline-search"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// Runs the binary. Unless `environment` says otherwise, `HOME` is a fresh empty folder and
    /// `XDG_DATA_HOME` is unset, so no test touches the real default data folder.
    @discardableResult
    static func run(_ arguments: [String], stdin: String? = nil, environment overrides: [String: String?] = [:],
                    in directory: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = nil
        environment["OFFLINE_SEARCH_DATASETS"] = nil
        environment["HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-home-\(UUID().uuidString)").path
        for (key, value) in overrides { environment[key] = value }
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

extension CLI {
    /// `run` on a thread of its own (`onThreadAside`): for a test that runs many commands or long
    /// ones, so that it does not hold one of the cooperative pool's threads (one per core) while
    /// the child works, and the async tests beside it can run.
    @discardableResult
    static func runAside(_ arguments: [String], stdin: String? = nil) async throws -> Output {
        try await onThreadAside { try run(arguments, stdin: stdin) }
    }
}

extension CLI {
    /// Starts `offline-search serve` with these arguments (add `--port 0` for a free port) and
    /// environment additions; returns the process and the port it listens on, its request log
    /// on standard error drained from then on so it never blocks on it.
    static func startServe(_ arguments: [String], environment additions: [String: String] = [:]) throws -> (process: Process, port: Int) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["serve"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(additions) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let (port, output) = CLI.servedPort(from: err)
        guard let port else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve printed no port: \(output)"])
        }
        err.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
        return (process, port)
    }

    /// The port `offline-search serve` listens on, read from its "Serving ... on
    /// http://127.0.0.1:PORT" note on standard error (nil if it stops first, or after 60 s),
    /// and what it wrote until then.
    static func servedPort(from stderr: Pipe) -> (port: Int?, output: String) {
        var output = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let data = stderr.fileHandleForReading.availableData
            if data.isEmpty { break }
            output += String(decoding: data, as: UTF8.self)
            if let range = output.range(of: #"http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                return (Int(output[range].split(separator: ":").last!), output)
            }
        }
        return (nil, output)
    }
}

final class DataDirectory {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-cli-\(UUID().uuidString)").path
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// `../shared/datasets`, beside the repository: the project's real datasets. CI has the folder;
/// a user's clone does not, so the tests that read it carry `.needsSharedDatasets`.
let sharedDatasets = CLI.repository.deletingLastPathComponent().appendingPathComponent("shared/datasets")

extension Trait where Self == ConditionTrait {
    /// Skips the test, saying why, where `../shared/datasets` is absent (a user's clone).
    static var needsSharedDatasets: Self {
        .enabled(if: FileManager.default.fileExists(atPath: sharedDatasets.appendingPathComponent("products.json").path),
                 "needs ../shared/datasets (the project's real datasets, beside the repository; CI has it, a clone does not)")
    }
}

/// The real products imported with their settings into a fresh data folder.
func importedProducts() throws -> DataDirectory {
    let data = DataDirectory()
    let result = try CLI.run(["import", "--data", data.path, "instant_search",
                              sharedDatasets.appendingPathComponent("products.json").path,
                              "--settings", sharedDatasets.appendingPathComponent("products.settings.json").path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Imported 3,291 records"))
    return data
}

/// The bundled (generated) products, `Datasets/instant_search.json` with its settings, imported
/// into a fresh data folder: for the tests that need a real-sized index but no particular record.
func importedBundledProducts() throws -> DataDirectory {
    let data = DataDirectory()
    let datasets = CLI.repository.appendingPathComponent("Datasets")
    let result = try CLI.run(["import", "--data", data.path, "instant_search", datasets.appendingPathComponent("instant_search.json").path,
                              "--settings", datasets.appendingPathComponent("instant_search.settings.json").path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Imported 3,000 records"))
    return data
}

/// Writes a temporary file that is removed when the value goes away.
final class TemporaryFile {
    let url: URL
    var path: String { url.path }
    init(_ text: String, suffix: String = ".json") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-\(UUID().uuidString)\(suffix)")
        try Data(text.utf8).write(to: url)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

