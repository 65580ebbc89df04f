import Foundation
import SearchAPI
import Testing

/// `offline-search rules` and `import --rules` on the bundled products and their four rules.
@Suite struct RulesCommandTests {
    static var datasets: URL { CLI.repository.appendingPathComponent("Datasets") }
    static var rulesFile: String { datasets.appendingPathComponent("instant_search.rules.json").path }

    func ruleIDs(_ data: DataDirectory, _ index: String = "instant_search") throws -> [String] {
        let listed = try CLI.run(["rules", "--data", data.path, index])
        #expect(listed.status == 0, "\(listed.stderr)")
        return (try JSONValue(parsing: listed.stdout).arrayValue ?? []).compactMap { $0["objectID"]?.stringValue }
    }

    @Test func theRulesCommandSavesSearchesAndClears() throws {
        let data = try importedBundledProducts()
        #expect(try ruleIDs(data).isEmpty)
        let saved = try CLI.run(["rules", "--data", data.path, "instant_search", "--set", Self.rulesFile])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try ruleIDs(data) == ["appliances-redirect", "brand-filter", "promote-iphone", "tv-week-banner"])
        let found = try CLI.run(["rules", "--data", data.path, "instant_search", "--search", "banner"])
        #expect(try JSONValue(parsing: found.stdout)["hits"]?.arrayValue?.compactMap { $0["objectID"]?.stringValue } == ["tv-week-banner"])
        let tv = try CLI.run(["search", "--data", data.path, "instant_search", "tv", "--json"])
        #expect(try JSONValue(parsing: tv.stdout)["userData"]?.arrayValue?.first?["title"] == "TV week")
        // A wrong rule: refused, with its name and field, and nothing changes.
        let bad = try TemporaryFile(#"[{"objectID": "ok", "consequence": {}}, {"objectID": "bad", "consequence": {"hide": "x"}}]"#, suffix: ".json")
        let refused = try CLI.run(["rules", "--data", data.path, "instant_search", "--set", bad.path])
        #expect(refused.status != 0 && refused.stderr.contains("rules[1]") && refused.stderr.contains("hide"), "\(refused.stderr)")
        #expect(try ruleIDs(data).count == 4)
        #expect(try CLI.run(["rules", "--data", data.path, "instant_search", "--clear"]).status == 0)
        #expect(try ruleIDs(data).isEmpty)
        let missing = try CLI.run(["rules", "--data", data.path, "nothing"])
        #expect(missing.status != 0 && missing.stderr.contains("404"))
        #expect(try CLI.run(["rules", "--data", data.path, "instant_search", "--search", "x", "--clear"]).status != 0)
    }

    @Test func anImportCommitsItsRulesWithTheRecords() throws {
        let data = DataDirectory()
        let imported = try CLI.run(["import", "--data", data.path, "instant_search", Self.datasets.appendingPathComponent("instant_search.json").path,
                                    "--settings", Self.datasets.appendingPathComponent("instant_search.settings.json").path,
                                    "--rules", Self.rulesFile])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try ruleIDs(data).count == 4)
        // A rules file with a wrong rule fails the import whole: no index is made.
        let bad = try TemporaryFile(#"{"objectID": "bad", "consequence": {"promote": [{"objectID": "1", "position": -1}]}}"#, suffix: ".json")
        let refused = try CLI.run(["import", "--data", data.path, "other", Self.datasets.appendingPathComponent("instant_search.json").path,
                                   "--rules", bad.path])
        #expect(refused.status != 0 && refused.stderr.contains("position"), "\(refused.stderr)")
        let list = try CLI.run(["list", "--data", data.path, "--json"])
        #expect(!list.stdout.contains("\"other\""))
    }
}
