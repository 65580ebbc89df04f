import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Input that could exhaust the stack, the memory or the time: each bound, and what lies just
/// inside it, on a small stack where recursion would matter.
@Suite struct HostileInputTests {
    static func nested(_ depth: Int, open: String, close: String, inner: String = "") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    // MARK: JSON

    @Test func jsonNestedAHundredThousandDeepIsAnErrorEvenOnASmallStack() {
        let texts = [HostileInputTests.nested(100_000, open: "[", close: "]"),
                     HostileInputTests.nested(100_000, open: #"{"a":"#, close: "}", inner: "1"),
                     String(repeating: "[", count: 100_000)]
        let refused = onSmallStack {
            texts.map { text in
                ((try? JSONValue(parsing: text)) == nil, (try? JSONValue.parseLines(utf8: Array(text.utf8))) == nil)
            }
        }
        #expect(refused.allSatisfy { $0 == (true, true) })
        // The deepest value accepted is also written, read back and hashed on a small stack, and
        // the deepest record (the record's own object is a level) is indexed and searched.
        let (tooDeep, roundTrips, indexed, refusedRecord) = onSmallStack {
            let tooDeep = (try? JSONValue(parsing: HostileInputTests.nested(65, open: #"{"k":["#, close: "]}"))) == nil
            guard let deepest = try? JSONValue(parsing: HostileInputTests.nested(64, open: #"{"k":["#, close: "]}", inner: #""needle""#)),
                  let deepestRecord = try? JSONValue(parsing: HostileInputTests.nested(63, open: #"{"k":["#, close: "]}", inner: #""needle""#)),
                  let engine = try? TestEngine(),
                  let index = try? engine.index(records: [["objectID": "deep", "k": deepestRecord]])
            else { return (tooDeep, false, false, "") }
            let roundTrips = (try? JSONValue(parsing: deepest.jsonString)) == deepest && Set([deepest]).count == 1
            var refused = "saved"
            do { try index.saveObjects([["objectID": "deeper", "k": deepest]]) } catch { refused = "\(error)" }
            return (tooDeep, roundTrips, (try? index.search("needle").objectIDs) == ["deep"], refused)
        }
        #expect(tooDeep && roundTrips && indexed)
        // The index is built on a thread of its own, whose stack is 512 KB on Apple platforms.
        let built = onSmallStack {
            guard let record = (try? JSONValue(parsing: HostileInputTests.nested(63, open: #"{"k":["#, close: "]}", inner: #""needle""#)))?.objectValue,
                  let configuration = try? IndexConfiguration(settings: IndexSettings(json: ["attributesForFaceting": ["k"]]))
            else { return 0 }
            return SnapshotBuilder.build([.init(rowID: 1, record: ["objectID": "deep", "k": .object(record)])], configuration: configuration,
                                         generation: 1).documentCount
        }
        #expect(built == 1)
        #expect(refusedRecord.hasPrefix("record 1: k.k[0].k[0].k[0].k[0].k[0].k[0…") && refusedRecord.hasSuffix("is nested deeper than 128 levels; expected at most 128"), "\(refusedRecord)")
    }

    // MARK: query

    @Test func aQueryLongerThan512BytesIsAlgoliasError() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "lamp"]])
        let long = String(repeating: "a", count: 513)
        // From JSON the reader refuses it; built in Swift, the search does.
        for error in [expectSearchError { _ = try SearchParameters(json: ["query": .string(long)]) },
                      expectSearchError { _ = try index.search(SearchParameters(query: long)) }] {
            #expect(error?.status == 400)
            #expect(error?.message == #"Invalid value for "query" parameter, expected a string of at most 512 bytes, got 513 bytes"#)
        }
        #expect(try index.search(String(repeating: "a", count: 512)).nbHits == 0)
        // Bytes, not characters: 257 "é" are 514 bytes.
        #expect(expectSearchError { _ = try SearchParameters(urlEncoded: "query=" + FormURLEncoding.encode(String(repeating: "é", count: 257))) }?.status == 400)
        #expect(try index.search(String(repeating: "é", count: 256)).nbHits == 0)
        // facetQuery too.
        #expect(expectSearchError { _ = try SearchParameters(json: ["facetQuery": .string(long)]) }?.message.contains(#""facetQuery""#) == true)
    }

    @Test func aTenMegabyteQueryIsRefusedAtOnce() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "lamp"]])
        let huge = String(repeating: "lamp ", count: 2_000_000)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(expectSearchError { _ = try SearchParameters(urlEncoded: "hitsPerPage=1&query=" + FormURLEncoding.encode(huge)) }?.status == 400)
        #expect(expectSearchError { _ = try index.search(SearchParameters(query: huge)) }?.status == 400)
        #expect(clock.now - started < .seconds(10))
    }

    @Test func theLongestQueryOfShortWordsSearchesOnASmallStack() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "lamb lamp lame"], ["objectID": "2", "name": "lamp"]])
        // 102 words with one typo each (the typo tiers walk every word) and 256 one-letter words.
        let typos = Array(repeating: "lamo", count: 102).joined(separator: " ")
        let letters = Array(repeating: "l", count: 256).joined(separator: " ")
        #expect(typos.utf8.count <= 512 && letters.utf8.count <= 512)
        let results = onSmallStack {
            [typos, letters].map { query in
                (try? index.search(query, ["getRankingInfo": true, "queryType": "prefixAll"]))
                    .map { ($0.nbHits, $0.hits.first?["_rankingInfo"]?["nbTypos"]) }
            }
        }
        #expect(results[0]?.0 == 2)
        #expect(results[0]?.1 == .int(102))
        #expect(results[1]?.0 == 2)
    }

    // MARK: filters

    @Test func filtersNestedDeeperThan32AreAnErrorNotACrash() throws {
        #expect(FilterParser.maxNestingDepth == 32)
        let deepest = HostileInputTests.nested(32, open: "(", close: ")", inner: "brand:A")
        #expect(onSmallStack { try? FilterParser.parse(deepest) } == .facet(attribute: "brand", value: "A"))
        let tooDeep = HostileInputTests.nested(33, open: "(", close: ")", inner: "brand:A")
        #expect(throws: FilterError(parameter: "filters", position: 33, message: "parentheses nested deeper than 32 levels at col 33; expected at most 32 (a filter needs two at most, such as (A OR B) AND C)")) {
            try FilterParser.parse(tooDeep)
        }
        // The report of the issue: 7,484 parentheses overflowed the stack.
        let results = onSmallStack {
            [HostileInputTests.nested(7_484, open: "(", close: ")", inner: "brand:A"),
             String(repeating: "(", count: 100_000),
             String(repeating: "(a:b OR ", count: 50_000)].map { text in
                (try? FilterParser.parse(text)) == nil
            }
        }
        #expect(results == [true, true, true])
    }

    @Test func filtersAreBoundedByTheirNumberNotTheirLength() throws {
        #expect(FilterParser.maxFilters == 1_000)
        // A UI's disjunctive filter: far longer than 512 bytes, well within the bounds.
        let values = (0..<1_000).map { "brand:\"Brand number \($0)\"" }
        let thousand = "(" + values.joined(separator: " OR ") + ")"
        #expect(thousand.utf8.count > 20_000)
        guard case .or(let children)? = try FilterParser.parse(thousand) else {
            Issue.record("expected an OR group")
            return
        }
        #expect(children.count == 1_000)
        var error: FilterError?
        do { _ = try FilterParser.parse(thousand + " AND price > 1") } catch let thrown { error = thrown }
        #expect(error?.message == "more than 1000 filters (the next starts at col \(thousand.count + 6)); expected at most 1000")
        #expect(error?.position == thousand.count + 6)
    }

    @Test(arguments: ["facetFilters", "numericFilters", "tagFilters", "optionalFilters"])
    func listFiltersAreBoundedByTheirNumberOfElements(parameter: String) throws {
        let element = parameter == "numericFilters" ? "price>1" : parameter == "tagFilters" ? "tag" : "brand:A"
        let inner = Array(repeating: element, count: 500)
        // As arrays: 1,000 elements (in OR groups or not) pass, 1,001 do not.
        _ = try FilterListParser.parse([.anyOf(inner), .anyOf(inner)], parameter: parameter)
        #expect(throws: FilterError(parameter: parameter, position: nil, message: "1001 filters; expected at most 1000")) {
            try FilterListParser.parse([.anyOf(inner), .anyOf(inner), .single(element)], parameter: parameter)
        }
        // As strings.
        let text = Array(repeating: element, count: 1_000).joined(separator: ",")
        _ = try FilterListParser.parseString(text, parameter: parameter)
        #expect(throws: FilterError.self) { try FilterListParser.parseString(text + ",(" + element + ")", parameter: parameter) }
        // Through a search, the error is the 400 of an invalid filter.
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1"]])
        let list: JSONValue = .array(Array(repeating: .string(element), count: 1_001))
        let searchError = expectSearchError { _ = try index.search("", [parameter: list]) }
        #expect(searchError?.kind == .invalidFilter && searchError?.status == 400)
        #expect(searchError?.message == "\(parameter): 1001 filters; expected at most 1000")
    }

    // MARK: records

    @Test func objectIDsWithNulAndControlCharactersAreWholeStrings() throws {
        let engine = try TestEngine()
        let ids = ["a", "a\u{0}b", "a\u{0}", "\u{0}", "a\u{1}b", "tab\there", "line\nbreak"]
        let index = try engine.index(records: ids.enumerated().map { ["objectID": .string($1), "n": .int(Int64($0))] })
        #expect(index.recordCount == ids.count)
        for (n, id) in ids.enumerated() {
            #expect(try index.object(id)?["n"] == .int(Int64(n)), "\(id.debugDescription)")
        }
        #expect(Set(try index.search("", ["hitsPerPage": 100]).objectIDs) == Set(ids))
        // Replacing and deleting address the whole string too.
        try index.saveObjects([["objectID": "a\u{0}b", "n": 100]])
        try index.deleteObjects(["a"])
        #expect(try index.object("a") == nil)
        #expect(try index.object("a\u{0}b")?["n"] == 100)
        #expect(try index.object("a\u{0}")?["n"] == 2)
        #expect(index.recordCount == ids.count - 1)
        // And they survive reopening (the derived index is rebuilt from the stored rows).
        let reopened = try SearchEngine(directory: engine.directory.url).index("test")
        try FileManager.default.removeItem(at: engine.directory.url.appendingPathComponent("test.index.derived"))
        let rebuilt = try SearchEngine(directory: engine.directory.url).index("test")
        for opened in [reopened, rebuilt] {
            #expect(Set(try opened.search("", ["hitsPerPage": 100]).objectIDs) == Set(ids).subtracting(["a"]))
        }
    }

    @Test func recordsJSONCannotStoreAreRefusedBeforeAnythingIsStored() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "kept", "price": 1]])
        // Built in Swift: the path to the number is named.
        for (record, path) in [(["objectID": "1", "price": .double(.infinity)] as JSONValue, "price"),
                               (["objectID": "2", "a": [1, ["b": .double(-.infinity)]]], "a[1].b"),
                               (["objectID": "3", "x": ["y": ["z": .double(.nan)]]], "x.y.z")] {
            let error = expectSearchError { try index.saveObjects([["objectID": "ok"], record]) }
            #expect(error?.kind == .invalidJSON)
            #expect(error?.message.hasPrefix("record 2: \(path) is ") == true, "\(error?.message ?? "")")
        }
        // A string longer than the parser reads back would be stored and never read again.
        let long = expectSearchError { try index.saveObjects([["objectID": "long", "text": .string(String(repeating: "x", count: (16 << 20) + 1))]]) }
        #expect(long?.message == "record 1: text holds a string longer than 16777216 bytes; expected at most 16777216")
        // From a file: the line and column of the number.
        let file = engine.directory.url.appendingPathComponent("huge.json")
        try Data("[{\"objectID\": \"ok\"},\n {\"objectID\": \"big\", \"price\": 1e400}]".utf8).write(to: file)
        let error = expectSearchError { try index.importFile(at: file) }
        #expect(error?.message.contains("line 2, column 31: the number 1e400 is out of range") == true, "\(error?.message ?? "")")
        #expect(index.recordCount == 1)
        #expect(try index.object("big") == nil)
    }

    @Test func importFilesStartingWithAByteOrderMarkAreRead() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [])
        let bom = Data(JSONValue.byteOrderMark)
        let array = engine.directory.url.appendingPathComponent("array.json")
        try (bom + Data(#"[{"objectID": "1", "name": "lamp"}]"#.utf8)).write(to: array)
        let lines = engine.directory.url.appendingPathComponent("lines.jsonl")
        try (bom + Data("{\"objectID\": \"2\", \"name\": \"desk\"}\n{\"objectID\": \"3\"}\n".utf8)).write(to: lines)
        #expect(try index.importFile(at: array) == 1)
        #expect(try index.importFile(at: lines) == 2)
        #expect(index.recordCount == 3)
        #expect(try index.search("lamp").objectIDs == ["1"])
    }
}
