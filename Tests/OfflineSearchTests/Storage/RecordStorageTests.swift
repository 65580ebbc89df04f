import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - Records, import and persistence

@Suite struct EngineRecordTests {
    @Test func objectIDIsKeptStringifiedOrGenerated() throws {
        let engine = try TestEngine()
        let index = try engine.engine.index("ids")
        let saved = try index.saveObjects([
            ["objectID": "sku-1", "name": "kept string"],
            ["objectID": 42, "name": "numeric integer"],
            ["name": "generated one"],
            ["objectID": nil, "name": "generated two"],
        ])
        #expect(saved.count == 4)
        #expect(saved[0] == "sku-1")
        #expect(saved[1] == "42")
        #expect(!saved[2].isEmpty && !saved[3].isEmpty && saved[2] != saved[3])
        #expect(index.recordCount == 4)

        let numeric = try index.search("numeric")
        #expect(numeric.hits.first?["objectID"] == .string("42"))
        #expect(try index.object("42")?["objectID"] == .string("42"))

        let generated = try index.search("generated")
        #expect(ids(generated) == [saved[2], saved[3]])
        #expect(try index.object(saved[2])?["name"] == "generated one")
    }

    @Test func invalidObjectIDsAreRejected() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "first"]])
        for bad: JSONValue in [["objectID": true], ["objectID": ["a"]], ["objectID": ""]] {
            let error = expectSearchError { try index.saveObjects([["objectID": "2", "name": "second"], bad]) }
            #expect(error?.kind == .invalidParameter)
            #expect(error?.message.contains("record 2") == true)
        }
        #expect(index.recordCount == 1)
        #expect(try index.search("second").nbHits == 0)
    }

    @Test func sameObjectIDReplacesTheRecord() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "old red"], ["objectID": "2", "name": "other"]])
        try index.saveObjects([["objectID": "1", "name": "new blue"]])
        #expect(index.recordCount == 2)
        #expect(try index.search("old").nbHits == 0)
        #expect(try index.search("red").nbHits == 0)
        #expect(try index.search("blue").objectIDs == ["1"])
        #expect(try index.object("1") == ["objectID": "1", "name": "new blue"])
        // Within one batch the last version wins.
        try index.saveObjects([["objectID": "3", "name": "draft"], ["objectID": "3", "name": "final"]])
        #expect(index.recordCount == 3)
        #expect(try index.search("draft").nbHits == 0)
        #expect(try index.search("final").objectIDs == ["3"])
    }

    @Test func importOfInvalidJSONNamesLineAndColumnAndKeepsNothing() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "a", "name": "apple"], ["objectID": "b", "name": "banana"]])
        let file = try writeFile(engine.directory, "broken.json", """
            [
              {"objectID": "c", "name": "cherry"},
              {"objectID": "d", "name": }
            ]
            """)
        let error = expectSearchError { try index.importFile(at: file) }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.status == 400)
        #expect(error?.message.contains("line 3, column 29") == true, "\(error?.message ?? "")")
        #expect(index.recordCount == 2)
        #expect(try index.search("cherry").nbHits == 0)
        #expect(try index.search("apple").objectIDs == ["a"])
        #expect(try index.search("").nbHits == 2)
    }

    @Test func importOfInvalidJSONLinesNamesTheFilesLine() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "a", "name": "apple"]])
        let file = try writeFile(engine.directory, "broken.jsonl", """
            {"objectID":"c","name":"cherry"}
            {"objectID":"d","name":"date",}
            {"objectID":"e","name":"elder"}
            """)
        let error = expectSearchError { try index.importFile(at: file) }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message.contains("line 2, column 31") == true, "\(error?.message ?? "")")
        #expect(index.recordCount == 1)
        #expect(try index.search("cherry").nbHits == 0)
    }

    @Test func importOfValidFilesArrayAndLines() throws {
        let engine = try TestEngine()
        let index = try engine.engine.index("import")
        let array = try writeFile(engine.directory, "records.json", #"[{"objectID":"1","name":"one"},{"objectID":"2","name":"two"}]"#)
        let lines = try writeFile(engine.directory, "records.jsonl", "{\"objectID\":\"3\",\"name\":\"three\"}\n\n{\"objectID\":\"1\",\"name\":\"uno\"}\n")
        #expect(try index.importFile(at: array) == 2)
        #expect(try index.importFile(at: lines) == 2)
        #expect(index.recordCount == 3)
        #expect(try index.search("uno").objectIDs == ["1"])
        #expect(try index.search("one").nbHits == 0)
        // replaceExisting keeps only the file's records.
        #expect(try index.importFile(at: array, replaceExisting: true) == 2)
        #expect(index.recordCount == 2)
        #expect(try index.search("three").nbHits == 0)
    }

    @Test func aNonObjectElementIsRejectedWithItsPosition() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "a", "name": "apple"]])
        let file = try writeFile(engine.directory, "mixed.json", #"[{"objectID": "e", "name": "elder"}, {"objectID": "f"}, 5]"#)
        let error = expectSearchError { try index.importFile(at: file) }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message.contains("record 3") == true, "\(error?.message ?? "")")
        #expect(index.recordCount == 1)
        #expect(try index.search("elder").nbHits == 0)

        let direct = expectSearchError { try index.saveObjects([["objectID": "g"], "text"]) }
        #expect(direct?.message.contains("record 2") == true)
        #expect(index.recordCount == 1)
    }

    @Test func reopenedEngineSearchesWithoutReimporting() throws {
        let directory = TemporaryDirectory()
        do {
            let engine = try SearchEngine(directory: directory.url)
            let index = try engine.index("books")
            try index.setSettings(["searchableAttributes": ["title"], "attributesForFaceting": ["genre"],
                                   "customRanking": ["desc(rank)"], "hitsPerPage": 2])
            try index.saveObjects([
                ["objectID": "low", "title": "Dune Messiah", "genre": "scifi", "rank": 1, "summary": "sandworm"],
                ["objectID": "high", "title": "Dune", "genre": "scifi", "rank": 9],
                ["objectID": "other", "title": "Emma", "genre": "classic", "rank": 5],
            ])
        }
        let reopened = try SearchEngine(directory: directory.url)
        #expect(reopened.exists("books"))
        #expect(reopened.indexNames() == ["books"])
        let index = try reopened.existingIndex("books")
        #expect(index.recordCount == 3)
        // Settings persisted, and the index derived from them.
        #expect(index.settings.searchableAttributes == ["title"])
        #expect(index.settings.customRanking == ["desc(rank)"])
        #expect(index.settings.hitsPerPage == 2)
        let dune = try index.search("dune", ["facets": ["genre"]])
        #expect(dune.objectIDs == ["high", "low"])
        #expect(dune.facet("genre")?["scifi"] == 2)
        #expect(try index.search("sandworm").nbHits == 0)
        #expect(try index.search("").hits.count == 2)

        // A write after reopening is persisted too.
        try index.saveObjects([["objectID": "new", "title": "Dune Prequel", "rank": 5]])
        let again = try SearchEngine(directory: directory.url)
        #expect(try again.existingIndex("books").search("dune").objectIDs == ["high", "new"])
    }

    @Test func missingIndexIsNotFoundAndNotCreated() throws {
        let engine = try TestEngine()
        let error = expectSearchError { _ = try engine.engine.existingIndex("nope") }
        #expect(error?.kind == .indexNotFound)
        #expect(error?.status == 404)
        #expect(error?.message == "Index nope does not exist")
        #expect(!engine.engine.exists("nope"))
    }
}
