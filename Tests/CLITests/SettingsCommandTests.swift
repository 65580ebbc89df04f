import Foundation
import SearchAPI
import Testing

@Suite(.serialized) struct SettingsCommandTests {
    @Test func settingsAreShownWithDefaultsAndChanged() throws {
        let data = DataDirectory()
        let set = try CLI.run(["settings", "--data", data.path, "things", "--create", "--set", #"{"attributesToIndex":["name"],"hitsPerPage":7}"#])
        #expect(set.status == 0, "\(set.stderr)")
        let settings = try JSONValue(parsing: set.stdout)
        #expect(settings["searchableAttributes"] == ["name"])
        #expect(settings["hitsPerPage"] == 7)
        #expect(settings["paginationLimitedTo"] == 1000)
        let pretty = try CLI.run(["settings", "--data", data.path, "things", "--pretty"])
        #expect(pretty.lines.count > 10)
        #expect(try JSONValue(parsing: pretty.stdout) == settings)
        let missing = try CLI.run(["settings", "--data", data.path, "nothing"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("Index nothing does not exist"))
    }

    @Test func settingsOnAMissingIndexFailWithoutCreatingItUnlessAskedTo() throws {
        let data = DataDirectory()
        let typo = try CLI.run(["settings", "--data", data.path, "prodcts", "--set", #"{"hitsPerPage":5}"#])
        #expect(typo.status != 0)
        #expect(typo.stderr.contains("Index prodcts does not exist"), "\(typo.stderr)")
        #expect(typo.stderr.contains("404"), "\(typo.stderr)")
        #expect(try CLI.run(["list", "--data", data.path]).stdout.contains("No indices in"), "no index is made from a typo")
        let created = try CLI.run(["settings", "--data", data.path, "products", "--create", "--set", #"{"hitsPerPage":5}"#])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try CLI.run(["list", "--data", data.path]).lines == ["products  0 records"])
        let alone = try CLI.run(["settings", "--data", data.path, "products", "--create"])
        #expect(alone.status != 0)
        #expect(alone.stderr.contains("--create goes with --set"), "\(alone.stderr)")
    }

    static let rejected: [(patch: String, message: String)] = [
        (#"{"hitsPerPge":5}"#, "Unknown setting hitsPerPge; did you mean hitsPerPage?"),
        (#"{"hitsPerPage":"5"}"#, #"hitsPerPage: expected an integer from 1 to 1000, got "5""#),
        (#"{"minProximity":0}"#, "minProximity: expected an integer from 1 to 7, got 0"),
        (#"{"distinct":"x"}"#, #"distinct: expected true, false or an integer from 0 to 4, got "x""#),
        (#"{"attributesToSnippet":["description:-5"]}"#, #"attributesToSnippet: invalid entry "description:-5""#),
        (#"{"customRanking":"desc(price)"}"#, "customRanking: expected an array of strings"),
        (#"{"queryType":"prefixFirst"}"#, #"queryType: expected one of "prefixLast", "prefixAll", "prefixNone""#),
        (#"{"replicas":["\#(String(repeating: "r", count: 300))"]}"#, "replicas: replica name: expected 1 to 256 bytes, got 300"),
        (#"{"hitsPerPage":5,"typoTolerence":true}"#, "Unknown setting typoTolerence; did you mean typoTolerance?"),
    ]

    @Test(arguments: rejected)
    func aWrongSettingIsRejectedAndNothingIsStored(patch: String, message: String) throws {
        let data = DataDirectory()
        #expect(try CLI.run(["settings", "--data", data.path, "things", "--create", "--set", #"{"hitsPerPage":3}"#]).status == 0)
        let before = try CLI.run(["settings", "--data", data.path, "things"]).stdout
        let result = try CLI.run(["settings", "--data", data.path, "things", "--set", patch])
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try CLI.run(["settings", "--data", data.path, "things"]).stdout == before, "nothing of the patch is stored")
        // Searching still works.
        #expect(try CLI.run(["search", "--data", data.path, "things", "x"]).status == 0)
        // A rejected change to a missing index does not create it.
        #expect(try CLI.run(["settings", "--data", data.path, "other", "--set", patch]).status != 0)
        #expect(try CLI.run(["settings", "--data", data.path, "other", "--create", "--set", patch]).status != 0)
        #expect(try CLI.run(["list", "--data", data.path]).lines == ["things  0 records"])
    }

    @Test func legacyAndUnappliedSettingsAreAccepted() throws {
        let data = DataDirectory()
        let result = try CLI.run(["settings", "--data", data.path, "things", "--create", "--set",
                                  #"{"attributesForFacetting":["brand"],"attributesToIndex":["name"],"camelCaseAttributes":["name"],"userData":{"a":1},"version":2}"#])
        #expect(result.status == 0, "\(result.stderr)")
        let settings = try JSONValue(parsing: result.stdout)
        #expect(settings["attributesForFaceting"] == ["brand"])
        #expect(settings["searchableAttributes"] == ["name"])
        #expect(settings["attributesForFacetting"] == nil)
        #expect(settings["userData"] == ["a": 1])
    }

    @Test func badJSONShowsTheSettingsUsage() throws {
        let data = DataDirectory()
        let result = try CLI.run(["settings", "--data", data.path, "things", "--set", #"{"hitsPerPage": 5"#])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--set: Invalid JSON at line 1, column 18"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: offline-search settings"), "\(result.stderr)")
    }

    @Test(.needsSharedDatasets) func theRealDatasetsSettingsFilesAreAccepted() throws {
        let data = DataDirectory()
        for name in ["products", "movies"] {
            let file = sharedDatasets.appendingPathComponent("\(name).settings.json").path
            let records = try TemporaryFile(#"[{"objectID":"1"}]"#)
            let result = try CLI.run(["import", "--data", data.path, name, records.path, "--settings", file])
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
    }
}
