import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// A large index's file keeps the postings of its shortest, costliest prefixes collected
/// (`PrefixPostings`): what it stores must be what collecting gives, and a search that merges
/// them must answer as one that collects them.
@Suite struct PrefixPostingsTests {
    static let settings: JSONObject = [
        "searchableAttributes": ["name", "brand", "unordered(description)"],
        "attributesForFaceting": ["brand"],
        "customRanking": ["desc(rank)"],
    ]

    /// Enough records for the file to store prefixes (`PrefixPostings.minimumDocuments`), with
    /// words that make some one- and two-letter prefixes common and others rare.
    static func records(count: Int = PrefixPostings.minimumDocuments + 2_000, from start: Int = 0) -> [JSONValue] {
        let adjectives = ["black", "blue", "bright", "classic", "compact", "smart", "silver", "steel", "zesty"]
        let nouns = ["lamp", "laptop", "light", "case", "charger", "stand", "cable"]
        return (start..<(start + count)).map { i in
            let adjective = adjectives[i % 8 == 7 && i % 5 == 0 ? 8 : i % 8]
            let noun = nouns[(i / 8) % nouns.count]
            return ["objectID": .string("r\(i)"), "name": .string("\(adjective) \(noun) \(i % 101)"),
                    "brand": .string(["Acme", "Bolt", "Crest", "Delta"][i % 4]),
                    "description": .string("a \(noun) made of steel, \(adjective) and light; model \(i % 37)"),
                    "rank": .int(Int64(i % 13))]
        }
    }

    static func parameters(_ query: String, _ extra: JSONObject = [:]) -> SearchParameters {
        var object: JSONObject = ["query": .string(query), "facets": ["brand"], "getRankingInfo": true, "hitsPerPage": 30,
                                  "attributesToHighlight": ["name", "description"]]
        for (key, value) in extra { object[key] = value }
        return try! SearchParameters(json: object)
    }

    static let searches: [SearchParameters] = {
        let queries = ["b", "c", "s", "l", "m", "bl", "ca", "st", "sm", "li", "black c", "smart l", "compact ca", "steel s",
                       "lamp b", "lamp c", "lamp a", "case s", "z", "ze", "a", "x"]
        return queries.map { parameters($0) }
            + queries.prefix(6).map { parameters($0, ["restrictSearchableAttributes": ["name"]]) }
            + queries.prefix(4).map { parameters($0, ["filters": "brand:Bolt", "page": 2]) }
    }()

    static func answers(_ index: SearchIndex) throws -> [String] {
        try searches.map { try index.search($0).answerWithoutTiming }
    }

    @Test func theShortPrefixesOfALargeIndexAreStoredAsCollected() throws {
        let engine = try TestEngine()
        let index = try engine.index("products", settings: Self.settings, records: Self.records())
        let base = index.live.state.base
        let entries = base.prefixPostings.entries
        let stored = entries.map { base.terms.term($0.terms.lowerBound) }
        #expect(entries.map(\.terms) == PrefixPostings.prefixRanges(of: base))
        // Common ones, of one and of two letters (every description has "steel", "light",
        // "made"); not the rarer ones ("black" and "blue" are in a quarter of the names).
        for prefix in ["b", "c", "s", "l", "st", "li", "ma"] {
            #expect(entries.contains { $0.terms == base.terms.ids(withPrefix: prefix) }, "\"\(prefix)\" is stored (\(stored))")
        }
        for prefix in ["z", "ze", "x", "bl", "sm"] {
            #expect(!entries.contains { $0.terms == base.terms.ids(withPrefix: prefix) }, "\"\(prefix)\" is not stored")
        }
        for entry in entries {
            #expect(entry.allowed == PostingMask.levels)
            #expect(2 * base.postingCount(of: entry.terms) >= base.documentCount)
            var collector = PostingCollector(snapshot: base)
            var documents = [UInt64](repeating: 0, count: (base.documentCount + 63) >> 6)
            collector.collect(entry.terms, allowed: entry.allowed, wholeValueOnly: false, recordLevels: true, into: &documents)
            #expect(Array(entry.documents) == documents)
            #expect(Array(entry.levelBits) == collector.levelBits)
            #expect(Array(entry.ranks) == collector.ranks)
            #expect(!entry.ranks.isEmpty, "name and brand are ordered: ranks are kept")
        }
    }

    /// Records with many common prefixes store the costliest `maximumCount`: the one-letter
    /// prefixes of the many words (each has the postings of its 26 two-letter ones), then others
    /// of as many postings as there are records.
    @Test func atMostSixtyFourPrefixesAreStored() throws {
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        // 3 first letters × 26 second letters: 78 two-letter prefixes in every record.
        let words = ["b", "d", "f"].flatMap { first in letters.map { first + $0 + "x" } }.joined(separator: " ")
        let records: [JSONValue] = (0..<PrefixPostings.minimumDocuments).map { i in
            ["objectID": .string("r\(i)"), "name": .string("item \(i)"), "description": .string(words)]
        }
        let engine = try TestEngine()
        let index = try engine.index("many", settings: ["searchableAttributes": ["name", "unordered(description)"]], records: records)
        let base = index.live.state.base
        let ranges = PrefixPostings.prefixRanges(of: base)
        #expect(ranges.count == PrefixPostings.maximumCount)
        for letter in ["b", "d", "f"] {
            #expect(ranges.contains(base.terms.ids(withPrefix: letter)), "\"\(letter)\" is among the costliest")
        }
        #expect(base.prefixPostings.entries.map(\.terms) == ranges)
    }

    /// A small index's file stores none (read back from the file, not the snapshot built).
    @Test func aSmallIndexStoresNoPrefixes() throws {
        let engine = try TestEngine()
        _ = try engine.index("products", settings: Self.settings, records: Self.records(count: 2_000))
        let reopened = try SearchEngine(directory: engine.directory.url).existingIndex("products")
        let base = reopened.live.state.base
        #expect(base.documentCount == 2_000)
        #expect(PrefixPostings.prefixRanges(of: base).isEmpty)
        #expect(base.prefixPostings.entries.isEmpty)
    }

    /// Where the levels are: some ordered (ranks kept, positions looked up), the first one
    /// unordered (its words' levels decide by their bitmaps), every one ordered
    /// (positions read in turn), or one level for every attribute (no ranks).
    enum Layout: String, CaseIterable, CustomTestStringConvertible {
        case someOrdered, unorderedFirst, everyOrdered, oneLevel
        var testDescription: String { rawValue }
        var settings: JSONObject {
            var settings = PrefixPostingsTests.settings
            switch self {
            case .someOrdered: break
            // The best level of a record's words is then its level bits', not its ranks'.
            case .unorderedFirst: settings["searchableAttributes"] = ["unordered(name)", "brand", "description"]
            case .everyOrdered: settings["searchableAttributes"] = ["name", "brand", "description"]
            case .oneLevel: settings["searchableAttributes"] = nil
            }
            return settings
        }
    }

    /// The same searches on the file's snapshot (prefixes merged: into a word's own collector
    /// when the word is kept, into the query's with nothing kept) and on one derived in memory
    /// from the same records (read-only, the file removed: prefixes collected), before and after
    /// a write adds a segment.
    @Test(arguments: Layout.allCases)
    func answersFromStoredPrefixesAreTheAnswersCollectedAfresh(layout: Layout) throws {
        let engine = try TestEngine()
        let index = try engine.index("products", settings: layout.settings, records: Self.records())
        try #require(!index.live.state.base.prefixPostings.entries.isEmpty)
        #expect((index.live.state.base.configuration.orderedLevelMask != 0) == (layout != .oneLevel))

        func collectedAfresh() throws -> [String] {
            try? FileManager.default.removeItem(atPath: index.store.derivedPath)
            let readOnly = try SearchEngine(directory: engine.directory.url, readOnly: true).existingIndex("products")
            #expect(readOnly.live.state.base.prefixPostings.entries.isEmpty, "derived in memory, without the file's prefixes")
            return try Self.answers(readOnly)
        }
        func expectSame(_ merged: [String], _ collected: [String], _ how: String) {
            for (position, search) in Self.searches.enumerated() {
                // Compared as a flag: a failure names the search, not two pages of JSON.
                let same = merged[position] == collected[position]
                #expect(same, "\"\(search.query)\" (search \(position)) differs \(how)")
            }
        }
        let mergesBefore = PrefixPostings.merges.modify { $0 }
        let kept = try Self.answers(index)
        let mergesKept = PrefixPostings.merges.modify { $0 }
        #expect(mergesKept > mergesBefore, "the stored prefixes were merged")
        let uncached = try SearchEngine(directory: engine.directory.url, readOnly: true, searchCacheSize: 0).existingIndex("products")
        try #require(!uncached.live.state.base.prefixPostings.entries.isEmpty)
        let notKept = try Self.answers(uncached)
        #expect(PrefixPostings.merges.modify { $0 } > mergesKept, "merged with nothing kept")
        let collected = try collectedAfresh()
        expectSame(kept, collected, "with the stored prefixes")
        expectSame(notKept, collected, "with the stored prefixes and nothing kept")

        // A write: its records are a segment beside the base, whose prefixes still serve.
        try index.saveObjects(Self.records(count: 300, from: 40_000))
        #expect(!index.live.state.base.prefixPostings.entries.isEmpty)
        let keptAfterWrite = try Self.answers(index)
        expectSame(keptAfterWrite, try collectedAfresh(), "after a write")
        #expect(keptAfterWrite != kept, "the write shows in the answers")
    }
}
