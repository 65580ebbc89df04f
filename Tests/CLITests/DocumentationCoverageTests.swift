import Foundation
import SearchAPI
import Testing

/// Every public symbol of the modules an app builds on has a doc comment: their symbol graphs
/// (`swift symbolgraph-extract`, on the modules `swift test` built) list none without one. A
/// symbol counts unless it is compiler-made (no source location), underscored, or an
/// override or default implementation (DocC shows the documentation it inherits).
@Suite struct DocumentationCoverageTests {
    static let modules = ["SearchAPI", "HeadlessSearch", "SearchTestDoubles", "OfflineSearchRemote"]

    struct Undocumented: CustomStringConvertible {
        var file: String
        var line: Int
        var symbol: String
        var description: String { "\(file):\(line) \(symbol)" }
    }

    /// The public symbols of `module` without a doc comment.
    static func undocumentedSymbols(of module: String) throws -> [Undocumented] {
        let swift = URL(fileURLWithPath: ReadmeTests.swiftc!).deletingLastPathComponent().appendingPathComponent("swift").path
        let output = TemporaryDirectory()
        #if arch(x86_64)
        let architecture = "x86_64"
        #else
        let architecture = "aarch64"
        #endif
        #if os(Linux)
        let target = "\(architecture)-unknown-linux-gnu"
        #else
        let target = "\(architecture)-apple-macosx13.0"
        #endif
        let result = try Subprocess.run(swift, ["symbolgraph-extract", "-module-name", module, "-minimum-access-level", "public",
                                                "-output-dir", output.url.path, "-target", target] + ReadmeTests.moduleFlags())
        #expect(result.status == 0, "symbolgraph-extract \(module): \(result.stderr)")
        // The module's own graph, and one per module whose types it extends (`HeadlessSearch@SearchAPI`).
        let files = try FileManager.default.contentsOfDirectory(atPath: output.url.path)
            .filter { $0 == "\(module).symbols.json" || ($0.hasPrefix("\(module)@") && $0.hasSuffix(".symbols.json")) }
        #expect(files.contains("\(module).symbols.json"), "no symbol graph for \(module): \(files)")
        let graphs = try files.map { try JSONValue(parsingUTF8: Array(Data(contentsOf: output.url.appendingPathComponent($0)))) }
        let inheriting = Set(graphs.flatMap { $0["relationships"]?.arrayValue ?? [] }.compactMap { relationship -> String? in
            let kind = relationship["kind"]?.stringValue
            return kind == "defaultImplementationOf" || kind == "overrides" ? relationship["source"]?.stringValue : nil
        })
        let repository = CLI.repository.path + "/"
        return graphs.flatMap { $0["symbols"]?.arrayValue ?? [] }.compactMap { symbol in
            guard symbol["docComment"] == nil,
                  ["public", "open"].contains(symbol["accessLevel"]?.stringValue ?? ""),
                  let uri = symbol["location"]?["uri"]?.stringValue,
                  let precise = symbol["identifier"]?["precise"]?.stringValue, !inheriting.contains(precise) else { return nil }
            let path = (symbol["pathComponents"]?.arrayValue ?? []).compactMap(\.stringValue)
            guard !(path.last ?? "").hasPrefix("_") else { return nil }
            let location = uri.replacingOccurrences(of: "file://", with: "").replacingOccurrences(of: repository, with: "")
            return Undocumented(file: location, line: (symbol["location"]?["position"]?["line"]?.intValue ?? 0) + 1,
                                symbol: path.joined(separator: "."))
        }.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }

    @Test(.enabled(if: ReadmeTests.swiftc != nil, "swiftc is not on the PATH"), arguments: modules)
    func everyPublicSymbolHasADocComment(_ module: String) throws {
        let undocumented = try Self.undocumentedSymbols(of: module)
        let list = undocumented.map(\.description).joined(separator: "\n")
        #expect(undocumented.isEmpty, "\(module): \(undocumented.count) public symbols without a doc comment:\n\(list)")
    }
}
