import Foundation
import Testing

/// The engine's layering, checked on its sources: `Storage/` is the only code that sees SQLite
/// and names no type of the derived index or the search (`Index/`, `Query/`, `Ranking/`,
/// `Facets/`, `Filters/`, `Geo/`), and no source file grows past 600 lines. What still breaks a
/// rule is listed here by name, so that the list can only shrink: a new breach
/// fails, and so does an entry that no longer applies.
@Suite struct ArchitectureTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let engine = repository.appendingPathComponent("Sources/OfflineSearch")

    /// Storage files that still name types of the layers above, until a write returns a plain value.
    static let storageNamesAllowed: [String: Set<String>] = [:]
    /// Files outside `Storage/` that still use SQLite's connection (reading stored records in
    /// batches while the derived index is built).
    static let sqliteOutsideStorageAllowed: Set<String> = []
    /// Source files still over 600 lines.
    static let longFilesAllowed: Set<String> = []

    /// The Swift files under `folder`, by path relative to it.
    static func swiftFiles(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var files: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            files.append(String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1)))
        }
        return files.sorted()
    }

    /// A file's code without its comments (a doc comment may name any type).
    static func code(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    static func identifiers(_ text: String) -> Set<String> {
        Set(text.matches(of: /[A-Za-z_][A-Za-z0-9_]*/).map { String($0.0) })
    }

    @Test func storageNamesNoTypeOfTheLayersAbove() throws {
        var above = Set<String>()
        for layer in ["Index", "Query", "Ranking", "Facets", "Filters", "Geo"] {
            let folder = Self.engine.appendingPathComponent(layer)
            for file in Self.swiftFiles(under: folder) {
                let text = try Self.code(folder.appendingPathComponent(file))
                // Top-level types and their members' types (`SnapshotBuilder.Input`, the segment
                // work that `extension RecordStore` declares in Index/).
                for match in text.matches(of: /(?m)^(?:    )?(?:public |final |indirect |package |private |fileprivate )*(?:class|struct|enum|protocol|actor|typealias) ([A-Za-z_][A-Za-z0-9_]*)/) {
                    above.insert(String(match.1))
                }
            }
        }
        #expect(above.contains("IndexSnapshot") && above.contains("RelevanceRanker"), "the scan finds the layers' types")
        let storage = Self.engine.appendingPathComponent("Storage")
        // A name Storage declares itself is its own (`Change`, `Written`).
        for file in Self.swiftFiles(under: storage) {
            let text = try Self.code(storage.appendingPathComponent(file))
            for match in text.matches(of: /(?m)^\s*(?:public |final |indirect |package |private |fileprivate )*(?:class|struct|enum|protocol|actor|typealias) ([A-Za-z_][A-Za-z0-9_]*)/) {
                above.remove(String(match.1))
            }
        }
        for file in Self.swiftFiles(under: storage) {
            let named = Self.identifiers(try Self.code(storage.appendingPathComponent(file))).intersection(above)
            let allowed = Self.storageNamesAllowed[file] ?? []
            #expect(named.subtracting(allowed).isEmpty, "Storage/\(file) names \(named.subtracting(allowed).sorted()) of the layers above")
            #expect(allowed.subtracting(named).isEmpty, "Storage/\(file) no longer names \(allowed.subtracting(named).sorted()): shorten the list")
        }
    }

    @Test func onlyStorageSeesSQLite() throws {
        var seen = Set<String>()
        for file in Self.swiftFiles(under: Self.engine) where !file.hasPrefix("Storage/") {
            let used = Self.identifiers(try Self.code(Self.engine.appendingPathComponent(file)))
            if !used.isDisjoint(with: ["SQLiteConnection", "SQLiteStatement", "SQLiteError", "CSQLite"]) { seen.insert(file) }
        }
        #expect(seen == Self.sqliteOutsideStorageAllowed, "SQLite used outside Storage/: \(seen.subtracting(Self.sqliteOutsideStorageAllowed).sorted())")
        // No other module imports the system SQLite.
        let sources = Self.repository.appendingPathComponent("Sources")
        for file in Self.swiftFiles(under: sources) where !file.hasPrefix("OfflineSearch/") {
            #expect(!(try Self.code(sources.appendingPathComponent(file))).contains("import CSQLite"), "\(file) imports CSQLite")
        }
    }

    @Test func noSourceFileIsOver600Lines() throws {
        var long = Set<String>()
        for file in Self.swiftFiles(under: Self.repository.appendingPathComponent("Sources")) {
            let text = try String(contentsOf: Self.repository.appendingPathComponent("Sources/\(file)"), encoding: .utf8)
            if text.split(separator: "\n", omittingEmptySubsequences: false).count > 601 { long.insert("Sources/\(file)") }
        }
        #expect(long.subtracting(Self.longFilesAllowed).isEmpty, "over 600 lines: \(long.subtracting(Self.longFilesAllowed).sorted())")
        #expect(Self.longFilesAllowed.subtracting(long).isEmpty, "now 600 lines or fewer: \(Self.longFilesAllowed.subtracting(long).sorted()); shorten the list")
    }
}
