import Foundation
import SearchAPI
import Testing

/// The README's fenced blocks, so that what a newcomer pastes works:
/// - every `swift` block is type-checked on its own, as the `main.swift` of a package that
///   depends on this one (against the modules `swift test` built), or, for a `Package.swift`,
///   evaluated, with every product it names checked against this package's products;
/// - every `offline-search` line of the `sh` blocks runs as pasted (from a folder holding the
///   repository's `Datasets/`, with an empty HOME) and exits 0, but for `serve`, `tui` and
///   `mirror`, which run until stopped or need a remote service;
/// - the `python` blocks run against `serve` in the contract tests
///   (`Tests/Contract/test_readme_python_blocks.py`).
@Suite struct ReadmeTests {
    struct Block: CustomTestStringConvertible {
        var language: String
        var line: Int
        var text: String
        var testDescription: String { "README.md:\(line) (\(language))" }
    }

    /// The fenced blocks of a Markdown file, with the line each starts on.
    static func blocks(of url: URL) throws -> [Block] {
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [Block] = []
        var open: (language: String, line: Int, body: [String])?
        for (number, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var current = open {
                if trimmed == "```" {
                    blocks.append(Block(language: current.language, line: current.line, text: current.body.joined(separator: "\n") + "\n"))
                    open = nil
                } else {
                    current.body.append(line)
                    open = current
                }
            } else if trimmed.hasPrefix("```") {
                let language = trimmed.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
                open = (language, number + 1, [])
            }
        }
        return blocks
    }

    static let readme = CLI.repository.appendingPathComponent("README.md")
    static var readmeBlocks: [Block] { (try? blocks(of: readme)) ?? [] }

    @Test func theReadmeHasOnlyBlocksThatAreChecked() throws {
        let blocks = try Self.blocks(of: Self.readme)
        #expect(blocks.count > 5)
        for block in blocks {
            #expect(["swift", "sh", "python", "text"].contains(block.language),
                    "\(block.testDescription): a block of another language is not checked by any test")
        }
        #expect(blocks.contains { $0.language == "python" }, "the Python block is run by the contract tests")
    }

    // MARK: Swift

    static var swiftBlocks: [Block] { readmeBlocks.filter { $0.language == "swift" && !isManifest($0) } }
    static var manifestBlocks: [Block] { readmeBlocks.filter { $0.language == "swift" && isManifest($0) } }
    static func isManifest(_ block: Block) -> Bool { block.text.hasPrefix("// swift-tools-version") }

    /// `swiftc` beside `swift` on the PATH.
    static var swiftc: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The flags that let `swiftc` import this package's modules as `swift test` built them:
    /// the Swift modules, and the module maps of the C modules among their dependencies.
    static func moduleFlags() throws -> [String] {
        let products = CLI.binary.deletingLastPathComponent()
        var flags = ["-I", products.appendingPathComponent("Modules").path, "-I", products.path,
                     "-I", CLI.repository.appendingPathComponent("Sources/CSQLite").path]
        let fileManager = FileManager.default
        var maps: [String] = []
        for folder in try fileManager.contentsOfDirectory(atPath: products.path) where folder.hasSuffix(".build") {
            let map = products.appendingPathComponent(folder).appendingPathComponent("module.modulemap").path
            if fileManager.fileExists(atPath: map) { maps.append(map) }
        }
        // C targets of the dependencies that ship their own module map in `include/`.
        let checkouts = CLI.repository.appendingPathComponent(".build/checkouts")
        if let enumerator = fileManager.enumerator(at: checkouts, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where url.lastPathComponent == "module.modulemap"
                && url.deletingLastPathComponent().lastPathComponent == "include" && !url.path.contains("/Tests/") {
                maps.append(url.path)
            }
        }
        for map in maps { flags += ["-Xcc", "-fmodule-map-file=\(map)"] }
        return flags
    }

    @Test(.enabled(if: swiftc != nil, "swiftc is not on the PATH"), arguments: swiftBlocks)
    func theSwiftBlockTypeChecksOnItsOwn(_ block: Block) throws {
        let folder = TemporaryDirectory()
        let file = folder.url.appendingPathComponent("main.swift")
        try block.text.write(to: file, atomically: true, encoding: .utf8)
        let result = try Subprocess.run(Self.swiftc!, ["-typecheck", "-swift-version", "6", file.path] + Self.moduleFlags())
        #expect(result.status == 0, "\(block.testDescription) does not compile as pasted:\n\(result.stderr)\n\(block.text)")
    }

    @Test func theSwiftBlocksAreThere() {
        #expect(Self.swiftBlocks.count >= 5, "the README's Swift examples")
        #expect(Self.manifestBlocks.count == 1, "the Package.swift of a package that depends on this one")
    }

    /// The products a manifest names as `.product(name: "X", package: "Y")`.
    static func namedProducts(in manifest: String) -> [(name: String, package: String)] {
        manifest.matches(of: /\.product\(name: "([^"]+)", package: "([^"]+)"\)/).map { (String($0.1), String($0.2)) }
    }

    @Test(.enabled(if: swiftc != nil, "swift is not on the PATH"), arguments: manifestBlocks)
    func theManifestBlockEvaluatesAndNamesThisPackagesProducts(_ block: Block) throws {
        // This package's library products, read from its manifest's text (SwiftPM itself would
        // wait for the lock on .build that `swift test` holds).
        let manifest = try String(contentsOf: CLI.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let libraries = Set(manifest.matches(of: /\.library\(name: "([^"]+)"/).map { String($0.1) })
        #expect(libraries.count >= 7)

        // The block as a package of its own: a valid manifest (evaluated with a scratch folder
        // of its own, so no lock is shared).
        let swift = URL(fileURLWithPath: Self.swiftc!).deletingLastPathComponent().appendingPathComponent("swift").path
        let folder = TemporaryDirectory()
        let app = folder.url.appendingPathComponent("MyApp")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try block.text.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let theirs = try Subprocess.run(swift, ["package", "dump-package", "--package-path", app.path,
                                                "--scratch-path", folder.url.appendingPathComponent("scratch").path])
        #expect(theirs.status == 0, "\(block.testDescription) is not a valid manifest:\n\(theirs.stderr)")

        // Every product it names is one of ours, under the package name its dependency gives.
        let named = Self.namedProducts(in: block.text)
        #expect(Set(named.map(\.name)) == libraries, "the manifest lists every library product, and only those")
        let dependency = try JSONValue(parsing: theirs.stdout)["dependencies"]?.arrayValue?.first
        let identity = dependency?["fileSystem"]?.arrayValue?.first?["identity"]?.stringValue
            ?? dependency?["sourceControl"]?.arrayValue?.first?["identity"]?.stringValue
        for product in named {
            #expect(product.package.lowercased() == identity, "\(product.name): package \"\(product.package)\", the dependency's identity is \(identity ?? "none")")
        }
    }

    // MARK: The CLI

    /// The `offline-search` commands of the README's `sh` blocks, joined across `\` line ends,
    /// in order; `swift run offline-search` counts as `offline-search`.
    static func commandLines(of block: Block) -> [String] {
        var commands: [String] = []
        var pending = ""
        for raw in block.text.components(separatedBy: "\n") {
            var line = raw.trimmingCharacters(in: .whitespaces)
            let continued = line.hasSuffix("\\")
            if continued { line.removeLast() }
            pending += (pending.isEmpty ? "" : " ") + line
            if continued { continue }
            let command = pending
            pending = ""
            if command.hasPrefix("swift run offline-search ") {
                commands.append(String(command.dropFirst("swift run ".count)))
            } else if command.hasPrefix("offline-search ") || command.contains("| offline-search ") {
                commands.append(command)
            }
        }
        return commands
    }

    static let notRunHere: Set<String> = ["serve", "tui", "mirror"]

    /// The word after `offline-search` in a command line (`echo … | offline-search query …`: `query`).
    static func subcommand(of command: String) -> String {
        guard let range = command.range(of: "offline-search ") else { return "" }
        return command[range.upperBound...].split(separator: " ").first.map(String.init) ?? ""
    }

    static var shellBlocks: [Block] {
        readmeBlocks.filter { $0.language == "sh" && !commandLines(of: $0).isEmpty }
    }

    @Test(arguments: shellBlocks)
    func everyCLIExampleRunsAsPasted(_ block: Block) throws {
        let folder = TemporaryDirectory()
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // The working folder holds the bundled datasets, as the repository's root does.
        let work = folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: work.appendingPathComponent("Datasets"),
                                                   withDestinationURL: CLI.repository.appendingPathComponent("Datasets"))
        // `offline-search` on the PATH, as "Installing the CLI" puts it.
        let bin = folder.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("offline-search"), withDestinationURL: CLI.binary)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        var ran = 0
        for command in Self.commandLines(of: block) {
            if Self.notRunHere.contains(Self.subcommand(of: command)) { continue }
            let result = try Subprocess.run("/bin/sh", ["-c", command], in: work.path,
                                            environment: ["HOME": home.path, "PATH": path, "XDG_DATA_HOME": nil, "OFFLINE_SEARCH_DATASETS": nil])
            #expect(result.status == 0, "\(block.testDescription): `\(command)` failed (\(result.status)):\n\(result.stderr)")
            ran += 1
        }
        #expect(ran > 0 || Self.commandLines(of: block).allSatisfy { Self.notRunHere.contains(Self.subcommand(of: $0)) })
    }

    @Test func theMainJobIsAmongTheExamplesRun() {
        let commands = Self.shellBlocks.flatMap(Self.commandLines)
        #expect(commands.contains { $0.hasPrefix("offline-search search instant_search \"samsung gal\"") }, "\(commands)")
        #expect(commands.contains { $0.contains("| offline-search query") }, "a piped command is run too: \(commands)")
    }
}

/// Runs a program to its end and collects its output.
enum Subprocess {
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                    environment overrides: [String: String?] = [:]) throws -> CLI.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in overrides { environment[key] = value }
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes drained at once, so a chatty child never blocks on a full one.
        let stderrBox = DataBox()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            stderrBox.data = err.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        let stderrData = stderrBox.data
        process.waitUntilExit()
        return CLI.Output(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                          stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

/// What the reading thread hands back. `@unchecked Sendable`: written once on that thread
/// before it signals the semaphore, read only after the wait.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
