import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

// MARK: - FTS5 agreement

@Suite struct EngineFTSAgreementTests {
    static let records: [JSONValue] = [
        ["objectID": "1", "name": "Apple iPhone 15", "tags": ["red", "phone"], "meta": ["origin": "Cupertino"]],
        ["objectID": "2", "name": "Apple Watch", "tags": ["wearable"], "notes": "apple red phone"],
        ["objectID": "3", "name": "Éclair au café", "tags": ["pastry"], "meta": ["origin": "Paris"]],
        ["objectID": "4", "name": "Red Phone Case", "tags": ["accessory", "red"]],
        ["objectID": "5", "name": "Crème brûlée", "tags": ["pastry", "dessert"], "meta": ["origin": "Lyon 2024"]],
        ["objectID": "6", "name": "Straße map", "tags": ["paper"]],
        ["objectID": "7", "name": "AT&T GoPhone", "tags": ["prepaid"]],
    ]
    static let queries = ["ap", "apple", "apple re", "red ph", "éclair", "cafe", "creme b", "2024", "paris", "phone", "go", "at t",
                          "strasse", "xyz", "red phone case", "p", "e"]

    @Test func ftsTableAgreesWithTheEngine() throws {
        let engine = try TestEngine()
        // FTS5 matches exactly or by prefix: compare with typo tolerance off.
        let index = try engine.index(settings: ["searchableAttributes": ["name", "tags", "meta.origin"], "typoTolerance": false],
                                     records: EngineFTSAgreementTests.records)
        func check(_ label: String) throws {
            for query in EngineFTSAgreementTests.queries {
                let engineHits = ids(try index.search(query, ["hitsPerPage": 1000]))
                let fts = try index.store.ftsMatch(words: Tokenizer.words(query, separators: .none), lastIsPrefix: true)
                #expect(fts == engineHits, "\(label): \(query)")
            }
        }
        try check("initial")
        try index.saveObjects([["objectID": "1", "name": "Pear phone"], ["objectID": "8", "name": "apple crumble", "tags": ["pastry"]]])
        try index.deleteObjects(["4"])
        try check("after writes")
        // Whole-word matching too.
        for query in ["apple", "red", "pastry"] {
            let engineHits = ids(try index.search(query + " ", ["hitsPerPage": 1000]))
            #expect(try index.store.ftsMatch(words: Tokenizer.words(query, separators: .none), lastIsPrefix: false) == engineHits)
        }
    }

    @Test func ftsTableAgreesWhenSearchableAttributesAreFirstSet() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["typoTolerance": false], records: EngineFTSAgreementTests.records)
        try EngineFTSAgreementTests.check(index, "every attribute")
        try index.setSettings(["searchableAttributes": ["name", "notes"]])
        try EngineFTSAgreementTests.check(index, "name and notes")
    }

    /// A write of 64 records or more is tokenized on another thread in chunks, and the writer
    /// stores each chunk's FTS5 rows as it comes: every record's row once, from its last version
    /// in the write (an objectID repeated in two chunks), a replaced record's old row removed.
    @Test func ftsTableAgreesAfterLargeWritesTokenizedInChunks() throws {
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo"]
        func record(_ id: Int, version: Int) -> JSONValue {
            ["objectID": .string("r\(id)"), "name": .string("\(words[(id + version) % words.count]) \(words[(id * 7 + version * 3) % words.count])"),
             "tags": .array([.string(words[(id * 5 + version) % words.count])])]
        }
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name", "tags"], "typoTolerance": false],
                                     records: (0..<400).map { record($0, version: 0) })
        func check(_ label: String) throws {
            for query in words + ["a", "ch", "foxtrot g", "golf h", "k"] {
                let engineHits = ids(try index.search(query, ["hitsPerPage": 1000]))
                let fts = try index.store.ftsMatch(words: Tokenizer.words(query, separators: .none), lastIsPrefix: true)
                #expect(fts == engineHits, "\(label): \(query)")
            }
        }
        // 201 records in four chunks (51, 51, 51, 48): 61 replace stored records, the rest are
        // new, and r7 comes in the first chunk and again, as another version, in the last.
        var batch = (60..<120).map { record($0, version: 1) } + (400..<539).map { record($0, version: 1) }
        batch.insert(record(7, version: 2), at: 3)
        batch.append(record(7, version: 3))
        #expect(batch.count == 201)
        try index.saveObjects(batch)
        // Written to the delta (a logged write), not derived whole with the base.
        #expect(index.deltaCount > 0)
        try check("after a large write")
        #expect(ids(try index.search(words[(7 + 3) % words.count], ["hitsPerPage": 1000])).contains("r7"))
        // Again over the records just written (their rows come from the chunked write).
        try index.saveObjects((400..<500).map { record($0, version: 4) })
        try index.deleteObjects((210..<215).map { "r\($0)" } + (410..<415).map { "r\($0)" })
        try check("after a second large write and deletes")
        try index.store.checkTextIntegrity()
    }

    /// The FTS5 table keeps which records hold each word (`detail = none`): a write tokenized
    /// for the index stores a word once per column, and a replace or a delete removes the row
    /// with its words given again, each once (`IndexConfiguration.textLayout`). No word may
    /// outlive its record, and the table stays whole.
    @Test func wordsRepeatedAcrossAttributesGoWithTheirRecord() throws {
        let engine = try TestEngine()
        let records: [JSONValue] = (0..<300).map { i in
            ["objectID": .string("r\(i)"), "name": .string("kiwi kiwi \(i % 2 == 0 ? "mango" : "plum")"), "tags": ["kiwi", "zest"],
             "notes": "kiwi mango kiwi"]
        }
        let index = try engine.index(settings: ["searchableAttributes": ["name", "tags", "notes"], "typoTolerance": false], records: records)
        func fts(_ word: String) throws -> Set<String> { try index.store.ftsMatch(words: [word], lastIsPrefix: false) }
        let all = Set((0..<300).map { "r\($0)" })
        #expect(try fts("kiwi") == all && fts("zest") == all && fts("mango") == all)
        try index.saveObjects((0..<150).map { ["objectID": .string("r\($0)"), "name": "lemon"] })
        try index.deleteObjects((150..<200).map { "r\($0)" })
        let kept = Set((200..<300).map { "r\($0)" })
        #expect(try fts("kiwi") == kept && fts("zest") == kept && fts("mango") == kept)
        #expect(try fts("plum") == Set((200..<300).filter { $0 % 2 == 1 }.map { "r\($0)" }))
        #expect(try fts("lemon") == Set((0..<150).map { "r\($0)" }))
        try index.store.checkTextIntegrity()
    }

    /// The same records saved again and again (an import run once more, a nightly sync), each
    /// with words repeated in a column: FTS5 removes a contentless `detail = none` row rightly
    /// only when given each word once, as it was stored; given its repeats, the table was
    /// damaged a few writes later ("database disk image is malformed" on the fourth import of
    /// the same 3,291 products). Every write here replaces every record.
    @Test(arguments: [30, 400])
    func recordsWithRepeatedWordsSavedAgainAndAgainLeaveTheTableWhole(count: Int) throws {
        let engine = try TestEngine()
        let words = ["cell", "phone", "with", "memory", "your", "data", "prepaid", "screen", "the", "and"]
        let records: [JSONValue] = (0..<count).map { i in
            let text = (0..<40).map { words[($0 * 7 + i) % words.count] }.joined(separator: " ")
            return ["objectID": .string("r\(i)"), "name": .string("phone \(i) phone"), "description": .string(text)]
        }
        let index = try engine.index(settings: ["searchableAttributes": ["name", "description"], "typoTolerance": false], records: records)
        for round in 1...8 {
            try index.saveObjects(records)
            do { try index.store.checkTextIntegrity() } catch {
                Issue.record("the text table is damaged after saving the records again \(round) times: \(error)")
                return
            }
        }
        #expect(try index.store.ftsMatch(words: ["memory"], lastIsPrefix: false) == Set((0..<count).map { "r\($0)" }))
    }

    /// The FTS5 text's columns keep each word once, in the order it first comes.
    @Test func aColumnKeepsEachWordOnce() {
        func distinct(_ text: String) -> String { String(decoding: IndexConfiguration.distinctWords(Array(text.utf8)), as: UTF8.self) }
        #expect(distinct("kiwi mango kiwi zest mango kiwi") == "kiwi mango zest")
        #expect(distinct("phone phone") == "phone")
        #expect(distinct("a b c") == "a b c")
        #expect(distinct("kiwi") == "kiwi" && distinct("") == "")
        #expect(distinct("café cafe café") == "café cafe")
        #expect(distinct("ab a b ab ba") == "ab a b ba", "words, not their letters")
        let many = (0..<500).map { "w\($0 % 137)" }.joined(separator: " ")
        #expect(distinct(many) == (0..<137).map { "w\($0)" }.joined(separator: " "))
    }

    static func check(_ index: SearchIndex, _ label: String) throws {
        for query in queries {
            let engineHits = ids(try index.search(query, ["hitsPerPage": 1000]))
            let fts = try index.store.ftsMatch(words: Tokenizer.words(query, separators: .none), lastIsPrefix: true)
            #expect(fts == engineHits, "\(label): \(query)")
        }
    }
}
