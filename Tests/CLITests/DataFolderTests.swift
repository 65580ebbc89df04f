import Foundation
import SearchAPI
import Testing

/// The default data folder and the demo indices, run outside the repository with an empty home.
@Suite(.serialized) struct DataFolderTests {
    let home = DataDirectory()
    var environment: [String: String?] { ["HOME": home.path, "XDG_DATA_HOME": nil] }
    var defaultFolder: String { home.path + "/.local/share/offline-search" }
    /// A working directory with no Datasets folder anywhere above it.
    let elsewhere = FileManager.default.temporaryDirectory.path

    init() throws {
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
    }

    @Test func theDefaultFolderIsUnderHOMEAndAnnouncedOnce() throws {
        let first = try CLI.run(["list"], environment: environment, in: elsewhere)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: defaultFolder))
        #expect(first.stderr.contains("Created the data folder \(defaultFolder)"), "\(first.stderr)")
        #expect(first.stdout.contains("No indices in \(defaultFolder)"))
        #expect(first.stdout.contains("instant_search"), "an empty listing names the demo indices")
        let second = try CLI.run(["list"], environment: environment, in: elsewhere)
        #expect(!second.stderr.contains("Created"), "announced once")
        let help = try CLI.run(["--help"], environment: environment)
        #expect(help.stdout.contains(defaultFolder), "\(help.stdout)")
        #expect(try CLI.run(["search", "--help"], environment: environment).stdout.contains(defaultFolder))
    }

    @Test func XDGDataHomeWins() throws {
        let xdg = DataDirectory()
        let result = try CLI.run(["list"], environment: ["HOME": home.path, "XDG_DATA_HOME": xdg.path], in: elsewhere)
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: xdg.path + "/offline-search"))
        #expect(!FileManager.default.fileExists(atPath: defaultFolder))
    }

    @Test func aDemoIndexAppearsWhenFirstNamedOutsideTheRepository() throws {
        let search = try CLI.run(["search", "instant_search", "samsung gal", "--json"], environment: environment, in: elsewhere)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(try SearchResponse(json: JSONValue(parsing: search.stdout)).nbHits > 0)
        let list = try CLI.run(["list", "--json"], environment: environment, in: elsewhere)
        let names = try JSONValue(parsing: list.stdout)["items"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names == ["instant_search"], "only the index that was named")
        let lines = #"{"indexName":"mobile_demo_movies","query":"the"}"# + "\n" + #"{"indexName":"mobile_demo_actors","query":"a"}"#
        let query = try CLI.run(["query"], stdin: lines, environment: environment, in: elsewhere)
        #expect(query.lines.count == 2)
        #expect(try query.lines.allSatisfy { try SearchResponse(json: JSONValue(parsing: $0)).nbHits > 0 }, "\(query.stdout)")
    }

    @Test func theDemoIndexIsTheBundledDataset() throws {
        let settings = try CLI.run(["settings", "instant_search"], environment: environment, in: elsewhere)
        #expect(settings.status == 0, "\(settings.stderr)")
        let bundled = try JSONValue(parsingUTF8: Array(Data(contentsOf: CLI.repository.appendingPathComponent("Datasets/instant_search.settings.json"))))
        let shown = try JSONValue(parsing: settings.stdout)
        for (key, value) in bundled.objectValue ?? [:] { #expect(shown[key] == value, "\(key)") }
        let all = try CLI.run(["search", "instant_search", "--json", "--hits-per-page", "0"], environment: environment, in: elsewhere)
        #expect(try SearchResponse(json: JSONValue(parsing: all.stdout)).nbHits == 3000)
    }

    @Test func anImportIntoTheDefaultFolderImportsOnlyTheUsersRecords() throws {
        let records = try TemporaryFile(#"[{"objectID":"1","name":"mine"}]"#)
        let result = try CLI.run(["import", "things", records.path], environment: environment, in: elsewhere)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 1 record into things (1 record in total)"), "\(result.stdout)")
        let list = try CLI.run(["list"], environment: environment, in: elsewhere)
        #expect(list.lines == ["things  1 record"], "\(list.lines)")
    }

    @Test func dataGivenExplicitlyGetsNoDemoIndex() throws {
        let data = DataDirectory()
        let result = try CLI.run(["search", "--data", data.path, "instant_search", "x"], environment: environment, in: elsewhere)
        #expect(result.status != 0)
        #expect(result.stderr.contains("Index instant_search does not exist"))
    }
}
