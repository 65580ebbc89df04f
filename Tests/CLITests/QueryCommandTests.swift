import Foundation
import SearchAPI
import Testing

@Suite(.serialized) struct QueryCommandTests {
    @Test(.needsSharedDatasets) func answersEveryLineInOrderAndReportsErrorsInline() throws {
        let data = try importedProducts()
        let input = """
            {"indexName":"instant_search","query":"iphone","hitsPerPage":2}
            not json
            {"indexName":"missing","query":"x"}

            {"indexName":"instant_search","hitsPerPage":"lots"}
            {"indexName":"instant_search","filters":"brand:Apple AND"}
            [1,2]
            {"indexName":"instant_search","type":"facet","facet":"brand","facetQuery":"sam"}
            {"indexName":"instant_search","query":"","hitsPerPage":0,"facets":"brand"}
            """ + "\n   \n"
        let result = try CLI.run(["query", "--data", data.path], stdin: input)
        #expect(result.status == 0, "every line was answered, so the status is 0")
        let lines = try result.lines.map { try JSONValue(parsing: $0) }
        try #require(lines.count == 10, "one answer per input line, blank lines included")
        #expect(try SearchResponse(json: lines[0]).hits.count == 2)
        #expect(lines[1]["status"] == 400)
        #expect(lines[2]["status"] == 404)
        #expect(lines[2]["message"]?.stringValue == "Index missing does not exist")
        #expect(lines[3]["status"] == 400)
        #expect(lines[3]["message"]?.stringValue?.hasPrefix("empty line") == true)
        #expect(lines[4]["message"]?.stringValue?.contains("hitsPerPage") == true)
        #expect(lines[5]["message"]?.stringValue?.contains("filters") == true)
        #expect(lines[6]["status"] == 400)
        // brand is not searchable() in these settings: Algolia's message.
        #expect(lines[7]["message"]?.stringValue == "Cannot search in `brand` attribute, you need to add `searchable(brand)` to attributesForFaceting.")
        let facetOnly = try SearchResponse(json: lines[8])
        #expect(facetOnly.hits.isEmpty && facetOnly.nbHits == 3291 && facetOnly.facet("brand") != nil)
        #expect(lines[9]["status"] == 400)
    }

    @Test(.needsSharedDatasets) func acceptsAlgoliasMultiSearchBody() throws {
        let data = try importedProducts()
        let input = #"""
            {"requests":[{"indexName":"instant_search","query":"ipad","hitsPerPage":1},{"indexName":"instant_search","params":"query=kindle&hitsPerPage=2"}],"strategy":"none"}
            {"requests":[{"indexName":"instant_search","query":"ipad"},{"indexName":"instant_search","query":"kindle"}],"strategy":"stopIfEnoughMatches"}
            {"requests":"nope"}
            """#
        let result = try CLI.run(["query", "--data", data.path], stdin: input)
        let lines = try result.lines.map { try JSONValue(parsing: $0) }
        try #require(lines.count == 3)
        let results = try #require(lines[0]["results"]?.arrayValue)
        #expect(results.count == 2)
        #expect(try SearchResponse(json: results[0]).query == "ipad")
        #expect(try SearchResponse(json: results[1]).hits.count == 2)
        let stopped = try #require(lines[1]["results"]?.arrayValue)
        #expect(try SearchResponse(json: stopped[1]).hits.isEmpty, "stopIfEnoughMatches: the first query found enough")
        #expect(lines[2]["status"] == 400)
    }

    @Test func strictExitsNonZeroWhenALineFailed() throws {
        let data = try importedBundledProducts()
        let good = #"{"indexName":"instant_search","query":"ipad"}"#
        #expect(try CLI.run(["query", "--data", data.path, "--strict"], stdin: good + "\n").status == 0)
        let failed = try CLI.run(["query", "--data", data.path, "--strict"], stdin: good + "\n{\"indexName\":\"missing\"}\n")
        #expect(failed.status == 1)
        #expect(failed.lines.count == 2, "every line is still answered")
        #expect(failed.stderr.contains("1 line answered with an error"))
        let help = try CLI.run(["query", "--help"])
        #expect(help.stdout.contains("--strict") && help.stdout.contains("exit status is 0"))
    }

    /// `--open` opens the named indexes before the first line is read (so that no answer's time
    /// is an opening): a missing one fails the command at once, with no line read.
    @Test func opensTheNamedIndexesBeforeTheFirstLine() throws {
        let data = DataDirectory()
        let corpus = try TemporaryFile(#"[{"objectID":"1","name":"red lamp"},{"objectID":"2","name":"chair"}]"#, suffix: ".json")
        let request = #"{"indexName":"things","query":"lamp"}"# + "\n"
        #expect(try CLI.run(["query", "--data", data.path, "--corpus", corpus.path, "--index-name", "things"], stdin: "").status == 0)
        let answered = try CLI.run(["query", "--data", data.path, "--open", "things", "--timing"], stdin: request)
        #expect(answered.status == 0, "\(answered.stderr)")
        let response = try JSONValue(parsing: try #require(answered.lines.first))
        #expect(response["nbHits"] == 1)
        #expect(response["processingTimeNS"]?.intValue != nil)
        #expect(try CLI.run(["query", "--data", data.path, "--open", "things"], stdin: "").status == 0)
        // With no line to read, only an opening before the first line can fail.
        let missing = try CLI.run(["query", "--data", data.path, "--open", "things", "--open", "nope"], stdin: "")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--open nope") && missing.stderr.contains("404"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)
    }

    /// `--corpus` (what the peers' harness runs) imports the file with its settings into a new
    /// index, and replaces the records of an existing one, before answering.
    @Test func importsItsCorpusWithItsSettingsFirst() throws {
        let data = DataDirectory()
        func corpus(_ names: [String]) throws -> TemporaryFile {
            try TemporaryFile("[" + names.enumerated().map { #"{"objectID":"\#($0.offset)","name":"\#($0.element)","rank":\#($0.offset)}"# }
                .joined(separator: ",") + "]", suffix: ".json")
        }
        let settings = try TemporaryFile(#"{"searchableAttributes":["name"],"customRanking":["desc(rank)"],"hitsPerPage":2}"#, suffix: ".json")
        let request = #"{"indexName":"things","query":"lamp"}"# + "\n"
        let first = try corpus(["red lamp", "blue lamp", "green lamp", "chair"])
        let answered = try CLI.run(["query", "--data", data.path, "--corpus", first.path, "--index-name", "things", "--settings", settings.path],
                                   stdin: request)
        #expect(answered.status == 0, "\(answered.stderr)")
        let response = try SearchResponse(json: JSONValue(parsing: try #require(answered.lines.first)))
        #expect(response.nbHits == 3)
        #expect(response.hits.map { $0["objectID"] } == ["2", "1"], "hitsPerPage and customRanking from the settings")
        let second = try corpus(["lamp shade"])
        let again = try CLI.run(["query", "--data", data.path, "--corpus", second.path, "--index-name", "things"], stdin: request)
        #expect(try SearchResponse(json: JSONValue(parsing: try #require(again.lines.first))).nbHits == 1, "the records replaced")
    }
}
