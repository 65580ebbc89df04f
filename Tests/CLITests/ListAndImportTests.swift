import Foundation
import SearchAPI
import Testing

@Suite(.serialized) struct ListAndImportTests {
    @Test func importOfInvalidJSONNamesLineAndColumnAndKeepsNothing() throws {
        let data = DataDirectory()
        let good = try TemporaryFile(#"[{"objectID":"1","name":"kept"}]"#)
        let bad = try TemporaryFile("[\n{\"objectID\":\"2\",\"name\":\"new\"},\n{\"objectID\":\"3\" \"name\":\"broken\"}\n]")
        #expect(try CLI.run(["import", "--data", data.path, "things", good.path]).status == 0)
        let failed = try CLI.run(["import", "--data", data.path, "things", bad.path])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("line 3, column 17"), "\(failed.stderr)")
        #expect(try CLI.run(["list", "--data", data.path]).lines == ["things  1 record"])
    }

    @Test func reimportingRecordsWithoutObjectIDsWarns() throws {
        let data = DataDirectory()
        let file = try TemporaryFile(#"[{"name":"a"},{"name":"b"},{"objectID":"3","name":"c"}]"#)
        let first = try CLI.run(["import", "--data", data.path, "things", file.path])
        #expect(first.stdout.hasPrefix("Imported 3 records into things (3 records in total)"), "\(first.stdout)")
        #expect(first.stderr.contains("Note: 2 records had no objectID"), "warned before anything is duplicated: \(first.stderr)")
        let second = try CLI.run(["import", "--data", data.path, "things", file.path])
        #expect(second.stdout.hasPrefix("Imported 3 records into things (5 records in total)"), "\(second.stdout)")
        #expect(second.stderr.contains("Note: 2 records had no objectID"), "\(second.stderr)")
        let replaced = try CLI.run(["import", "--data", data.path, "things", file.path, "--replace"])
        #expect(replaced.stdout.hasPrefix("Imported 3 records into things (3 records in total)"))
        #expect(!replaced.stderr.contains("objectID"))
    }

    @Test func aFailedImportLeavesNoIndexBehind() throws {
        let data = DataDirectory()
        let bad = try TemporaryFile("[\n{\"objectID\":\"1\"},\n{\"objectID\": }\n]")
        for file in ["/nonexistent/records.json", bad.path] {
            let result = try CLI.run(["import", "--data", data.path, "things", file])
            #expect(result.status != 0)
            #expect(try CLI.run(["list", "--data", data.path]).stdout.contains("No indices"), "\(file)")
        }
        // In the default folder, a failed import under a demo name does not hide the demo index.
        let home = DataDirectory()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let environment: [String: String?] = ["HOME": home.path]
        #expect(try CLI.run(["import", "mobile_demo_actors", "/nonexistent.json"], environment: environment).status != 0)
        let search = try CLI.run(["search", "mobile_demo_actors", "--json", "--hits-per-page", "0"], environment: environment)
        #expect(try SearchResponse(json: JSONValue(parsing: search.stdout)).nbHits == 2000)
    }

    @Test func importReadsStandardInput() throws {
        let data = DataDirectory()
        let result = try CLI.run(["import", "--data", data.path, "things", "-"], stdin: #"{"objectID":"1","name":"a"}"# + "\n" + #"{"objectID":"2","name":"b"}"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 2 records into things"))
    }

    @Test func listJSONIsAlgoliasListIndicesShape() throws {
        let data = DataDirectory()
        let empty = try CLI.run(["list", "--data", data.path, "--json"])
        #expect(try JSONValue(parsing: empty.stdout) == ["items": [], "nbPages": 1])
        #expect(try CLI.run(["list", "--data", data.path]).stdout.contains("No indices in \(data.path)"))
        let records = try TemporaryFile(#"[{"objectID":"1","name":"one","price":3},{"objectID":"2","name":"two","price":1}]"#)
        #expect(try CLI.run(["import", "--data", data.path, "shop", records.path]).status == 0)
        #expect(try CLI.run(["settings", "--data", data.path, "shop", "--set", #"{"replicas":["shop_price_asc"]}"#]).status == 0)
        let listed = try JSONValue(parsing: CLI.run(["list", "--data", data.path, "--json"]).stdout)
        let response = try JSONDecoder().decode(ListIndicesResponse.self, from: Data(listed.jsonString.utf8))
        #expect(response.items.map(\.name) == ["shop", "shop_price_asc"])
        let shop = response.items[0]
        #expect(shop.entries == 2 && shop.dataSize > 20 && shop.fileSize > shop.dataSize)
        #expect(shop.createdAt.hasSuffix("Z") && shop.updatedAt >= shop.createdAt)
        #expect(shop.replicas == ["shop_price_asc"] && shop.numberOfPendingTasks == 0 && !shop.pendingTask)
        #expect(response.items[1].primary == "shop")
        let readable = try CLI.run(["list", "--data", data.path])
        #expect(readable.lines == ["shop            2 records", "shop_price_asc  2 records (replica of shop)"], "\(readable.lines)")
    }

    @Test func versionAndHelp() throws {
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let help = try CLI.run(["--help"])
        #expect(!help.stdout.contains("over SQLite FTS5"))
        for command in ["import", "search", "query", "settings", "list", "generate"] { #expect(help.stdout.contains(command)) }
    }

    @Test(arguments: [["suggest", "--help"], ["serch", "iphone"], ["help", "sarch"]])
    func anUnknownCommandIsAnErrorNotTheRootHelp(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stdout) \(result.stderr)")
        #expect(result.stderr.lowercased().contains("unknown command"), "\(result.stderr)")
    }

    @Test func helpOnAKnownCommandStillWorks() throws {
        let result = try CLI.run(["help", "search"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE: offline-search search"), "\(result.stdout)")
    }

    @Test func generateIsDeterministic() throws {
        let first = try CLI.run(["generate", "products", "--count", "50", "--seed", "7"])
        let second = try CLI.run(["generate", "products", "--count", "50", "--seed", "7"])
        let other = try CLI.run(["generate", "products", "--count", "50", "--seed", "8"])
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout != other.stdout)
        #expect(try JSONValue(parsing: first.stdout).arrayValue?.count == 50)
        #expect(try CLI.run(["generate", "nonsense"]).status != 0)
    }

    @Test func theBundledDatasetsAreWhatTheGeneratorMakes() async throws {
        let folder = DataDirectory()
        // About a minute in a debug build: run on a thread of its own (`CLI.runAside`).
        let result = try await CLI.runAside(["generate", "--bundled", folder.path])
        #expect(result.status == 0)
        for name in ["instant_search", "instantsearch_query_suggestions", "mobile_demo_actors", "mobile_demo_movies"] {
            for suffix in [".json", ".settings.json"] {
                let made = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + name + suffix))
                let committed = try Data(contentsOf: CLI.repository.appendingPathComponent("Datasets/" + name + suffix))
                #expect(made == committed, "Datasets/\(name)\(suffix) is not what `generate --bundled` makes; regenerate it")
            }
        }
        let rules = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/instant_search.rules.json"))
        #expect(rules == (try Data(contentsOf: CLI.repository.appendingPathComponent("Datasets/instant_search.rules.json"))),
                "Datasets/instant_search.rules.json is not what `generate --bundled` makes; regenerate it")
    }
}
