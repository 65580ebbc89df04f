import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Writes applied incrementally (delta segments and deletions beside the base, merged when the
/// delta grows) against an index derived anew from the same records after each step: every
/// response must be the same, hits, order, facets, highlights and ranking info included. Three
/// seeds of 350 random steps: saves, replacements, partial updates, deletes, deleteBy, clears and
/// settings changes, with merges never (limit 20,000), often (40) and now and then (150).
@Suite(.serialized) struct IncrementalUpdateTests {
    static let settings: JSONObject = [
        "searchableAttributes": ["name", "brand", "unordered(description)"],
        "attributesForFaceting": ["searchable(brand)", "categories", "price", "group"],
        "customRanking": ["desc(popularity)"],
        "attributeForDistinct": "group",
    ]
    static let vocabulary = ["phone", "phones", "case", "charger", "cable", "apple", "samsung", "galaxy", "iphone", "pixel",
                             "wireless", "fast", "black", "white", "screen", "glass", "protector", "usb", "stand", "mount"]
    static let brands = ["Apple", "Samsung", "Google", "Anker", "Belkin"]
    static let categories = ["Phones", "Cases", "Chargers", "Cables", "Accessories"]

    static func record(_ id: Int, using generator: inout SeededGenerator) -> JSONValue {
        let name = (0..<Int.random(in: 1...4, using: &generator)).map { _ in generator.pick(vocabulary) }.joined(separator: " ")
        let description = (0..<Int.random(in: 0...8, using: &generator)).map { _ in generator.pick(vocabulary) }.joined(separator: " ")
        var record: JSONObject = [
            "objectID": .string("r\(id)"), "name": .string(name), "description": .string(description),
            "brand": .string(generator.pick(brands)),
            "categories": .array((0..<Int.random(in: 0...2, using: &generator)).map { _ in .string(generator.pick(categories)) }),
            "price": .int(Int64(Int.random(in: 1...20, using: &generator) * 5)),
            "group": .string("g\(Int.random(in: 0..<15, using: &generator))"),
        ]
        // Ties on the custom ranking are common, so the insertion order decides often.
        if generator.chance(85) { record["popularity"] = .int(Int64(Int.random(in: 0..<6, using: &generator))) }
        return .object(record)
    }

    static let queries: [JSONObject] = [
        ["query": "", "facets": ["brand", "categories", "price"], "getRankingInfo": true],
        ["query": "pho", "getRankingInfo": true, "hitsPerPage": 30],
        ["query": "phone case", "facets": ["*"], "getRankingInfo": true],
        ["query": "chrger", "getRankingInfo": true],
        ["query": "samsung wirel", "filters": "price < 60 AND NOT brand:Apple", "facets": ["brand"], "page": 1, "hitsPerPage": 5],
        ["query": "glass", "distinct": 1, "facets": ["group"], "getRankingInfo": true],
        ["query": "apple", "optionalFilters": ["categories:Cases"], "getRankingInfo": true],
        ["query": "cable usb fast", "optionalWords": ["fast"], "typoTolerance": "min"],
        ["query": "pixel", "sortFacetValuesBy": "alpha", "facets": ["categories"], "maxValuesPerFacet": 2],
        // Optional filter scores, attribute strategies, faceting after distinct.
        ["query": "phone", "optionalFilters": [["brand:Apple<score=3>", "categories:Cases<score=2>"], "brand:-Google<score=1>"],
         "sumOrFiltersScores": true, "getRankingInfo": true],
        ["query": "usb cable", "attributeCriteriaComputedBy": "sum", "getRankingInfo": true],
        ["query": "glass case", "attributeCriteriaComputedBy": "best", "hitsPerPage": 30],
        ["query": "", "distinct": 1, "facetingAfterDistinct": true, "facets": ["brand", "price"]],
    ]

    /// The responses, without timing, as JSON text.
    static func answers(_ index: SearchIndex) throws -> [String] {
        var answers: [String] = []
        for query in queries {
            guard case .object(var response) = try index.search(SearchParameters(json: query)).jsonValue else { continue }
            response["processingTimeMS"] = nil
            answers.append(JSONValue.object(response).jsonString)
        }
        var facetParameters = SearchParameters()
        facetParameters.facetQuery = "a"
        var values = try index.searchForFacetValues(facet: "brand", parameters: facetParameters)
        values.processingTimeMS = 0
        answers.append(values.jsonValue.jsonString)
        return answers
    }

    /// The proximity limit (`SearchIndex.proximityGroupLimit`, 8,000) decided on a tied group
    /// as a whole, not on each segment's part of it: records written into the delta of a group
    /// over the limit keep custom order among the base's (they are not split by proximity and
    /// put after them), in the index and in a sort replica, as in the index derived whole.
    @Test func theProximityLimitIsDecidedOnTheWholeGroupAcrossSegments() throws {
        let settings: JSONObject = ["searchableAttributes": ["name"], "customRanking": ["desc(popularity)"], "typoTolerance": false,
                                    "replicas": ["test_price"]]
        let fillers = ["", "x ", "x y ", "x y z "]
        // The sort replica's first run (price 9) is small; the group over the limit is in its second.
        func record(_ id: Int, popularity: Int) -> JSONValue {
            ["objectID": .string("r\(id)"), "name": .string("alpha \(fillers[id % fillers.count])beta"),
             "popularity": .int(Int64(popularity)), "price": id < 10 ? 9 : 5]
        }
        let base = (0..<(SearchIndex.proximityGroupLimit + 500)).map { record($0, popularity: $0 % 100) }
        // Far apart, and the most popular: first in custom order.
        let written = (0..<40).map { record(100_000 + $0 * 4 + 3, popularity: 1_000 + $0) }
        let incremental = try TestEngine()
        let index = try incremental.index(settings: settings, records: base)
        try incremental.engine.index("test_price").setSettings(["ranking": ["desc(price)", "typo", "geo", "words", "filters", "proximity",
                                                                            "attribute", "exact", "custom"]])
        try index.saveObjects(written)
        #expect(index.deltaCount == written.count)
        #expect(try incremental.engine.existingIndex("test_price").deltaCount == written.count)
        let rebuilt = try TestEngine()
        try rebuilt.engine.index("test").setSettings(settings)
        try rebuilt.engine.index("test_price").setSettings(["ranking": ["desc(price)", "typo", "geo", "words", "filters", "proximity",
                                                                        "attribute", "exact", "custom"]])
        try rebuilt.engine.index("test").saveObjects(base + written)
        for name in ["test", "test_price"] {
            for parameters: JSONObject in [["hitsPerPage": 50, "getRankingInfo": true],
                                           ["hitsPerPage": 50, "attributeCriteriaComputedBy": "sum"],
                                           ["hitsPerPage": 10, "page": 3]] {
                let answer = try incremental.engine.existingIndex(name).search("alpha beta", parameters)
                let expected = try rebuilt.engine.existingIndex(name).search("alpha beta", parameters)
                #expect(answer.objectIDs == expected.objectIDs, "\(name) \(parameters)")
                #expect(answer.nbHits == expected.nbHits)
            }
        }
        // The records written come first, as their popularity says.
        #expect(try index.search("alpha beta", ["hitsPerPage": 5]).objectIDs == ["r100159", "r100155", "r100151", "r100147", "r100143"])
    }

    /// A query whose first words match nothing in one segment (its later words are then not
    /// matched there, `CandidateMatcher`) and something in another answers as the index derived
    /// whole from the same records: hits, highlights, ranking info, facets, typo modes.
    @Test func aQueryThatFindsNothingInOneSegmentAnswersAsTheWholeIndex() throws {
        let settings: JSONObject = ["searchableAttributes": ["name", "brand"], "attributesForFaceting": ["brand"],
                                    "customRanking": ["desc(popularity)"], "ignorePlurals": true]
        let base: [JSONValue] = (0..<40).map { ["objectID": .string("b\($0)"), "name": .string($0 % 2 == 0 ? "black sofa" : "blue lamp"),
                                                "brand": "Acme", "popularity": .int(Int64($0))] }
        let written: [JSONValue] = [["objectID": "w1", "name": "purple sofa", "brand": "Luxe", "popularity": 5],
                                    ["objectID": "w2", "name": "purple lamp", "brand": "Luxe", "popularity": 7]]
        let incremental = try TestEngine()
        let index = try incremental.index(settings: settings, records: base)
        try index.saveObjects(written)
        #expect(index.deltaCount == written.count)
        let rebuilt = try TestEngine()
        let whole = try rebuilt.index(settings: settings, records: base + written)
        for (query, parameters): (String, JSONObject) in [
            ("purple sofa", ["getRankingInfo": true, "facets": ["brand"]]),
            ("purple sfoa ", ["getRankingInfo": true]),
            ("purple sfoa ", ["typoTolerance": "min"]),
            ("purple lam", ["removeWordsIfNoResults": "firstWords"]),
            ("purple blue lamp", ["removeWordsIfNoResults": "lastWords", "facets": ["brand"]]),
        ] {
            func answer(_ index: SearchIndex) throws -> String {
                guard case .object(var response) = try index.search(query, parameters).jsonValue else { return "" }
                response["processingTimeMS"] = nil
                return JSONValue.object(response).jsonString
            }
            #expect(try answer(index) == answer(whole), "\(query) \(parameters)")
        }
        #expect(try index.search("purple sofa").objectIDs == ["w1"])
    }

    /// `DocumentSet.count(in:)`, which bounds the groups of a sort replica's run, counts what
    /// `elements(in:)` lists, at word boundaries and inside one word.
    @Test func aDocumentSetCountsTheDocumentsInARange() {
        var generator = SeededGenerator(seed: 7)
        var set = DocumentSet(capacity: 300)
        for document in 0..<300 where generator.chance(40) { set.insert(document) }
        for range in [0..<0, 0..<300, 0..<64, 64..<128, 3..<5, 63..<65, 10..<290, 128..<300, 250..<400, 299..<300] {
            #expect(set.count(in: range) == set.elements(in: range.clamped(to: 0..<300)).count, "\(range)")
        }
    }

    @Test(arguments: [(seed: UInt64(1), deltaLimit: 20_000), (seed: UInt64(2), deltaLimit: 40), (seed: UInt64(3), deltaLimit: 150)])
    func randomWritesAnswerAsARebuiltIndex(seed: UInt64, deltaLimit: Int) async throws {
        // Run on a thread of its own, where no test is current: the problems come back here.
        let problems = try await onThreadAside { try IncrementalUpdateTests.randomWrites(seed: seed, deltaLimit: deltaLimit) }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Writes of hundreds of new records at a time: their segments are merged on a background
    /// thread while the next writes and the searches go on (and, past the delta limit, the whole
    /// index is merged in the background too), and every answer is still the rebuilt index's.
    @Test(arguments: [(seed: UInt64(4), deltaLimit: 20_000), (seed: UInt64(5), deltaLimit: 1_500)])
    func largeWritesMergedInTheBackgroundAnswerAsARebuiltIndex(seed: UInt64, deltaLimit: Int) async throws {
        #expect(IndexState.mergedInWriteUpTo < 2 * 150, "the segments of two large writes are merged in the background")
        let problems = try await onThreadAside {
            try IncrementalUpdateTests.randomWrites(seed: seed, deltaLimit: deltaLimit, steps: 90, newRecords: 150...320)
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The first step whose answers differ, if any. `newRecords`: how many records a step that
    /// adds new ones adds.
    static func randomWrites(seed: UInt64, deltaLimit: Int, steps stepCount: Int = 350, newRecords: ClosedRange<Int> = 5...25) throws -> [String] {
        let previousLimit = IndexState.deltaLimitSetting.value
        IndexState.deltaLimitSetting.value = deltaLimit
        defer { IndexState.deltaLimitSetting.value = previousLimit }
        var generator = SeededGenerator(seed: seed)
        let incremental = try TestEngine()
        let rebuilt = try TestEngine()
        let index = try incremental.index(settings: IncrementalUpdateTests.settings,
                                          records: (0..<120).map { IncrementalUpdateTests.record($0, using: &generator) })
        let reference = try rebuilt.engine.index("test")
        try reference.setSettings(IncrementalUpdateTests.settings)
        var nextID = 120
        var steps: [String] = []
        for step in 0..<stepCount {
            let existing = try index.store.allRecords().map { $0.record["objectID"]!.stringValue! }
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<35:
                // New records and replacements of existing ones.
                var records: [JSONValue] = []
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    if generator.chance(50), let id = existing.randomElement(using: &generator) {
                        records.append(IncrementalUpdateTests.record(Int(id.dropFirst())!, using: &generator))
                    } else {
                        records.append(IncrementalUpdateTests.record(nextID, using: &generator))
                        nextID += 1
                    }
                }
                try index.saveObjects(records)
                steps.append("save \(records.map { $0["objectID"]!.stringValue! })")
            case 35..<60:
                let ids = (0..<Int.random(in: 1...3, using: &generator)).compactMap { _ in existing.randomElement(using: &generator) }
                try index.deleteObjects(ids)
                steps.append("delete \(ids)")
            case 60..<80:
                let updates: [JSONValue] = (0..<Int.random(in: 1...3, using: &generator)).compactMap { _ in
                    existing.randomElement(using: &generator).map { id in
                        ["objectID": .string(id), "popularity": .int(Int64(Int.random(in: 0..<6, using: &generator))),
                         "name": .string(generator.pick(IncrementalUpdateTests.vocabulary))]
                    }
                }
                _ = try index.partialUpdateObjects(updates)
                steps.append("partial \(updates.map { $0["objectID"]!.stringValue! })")
            case 80..<88:
                let brand = generator.pick(IncrementalUpdateTests.brands)
                var parameters = SearchParameters()
                parameters.filters = "brand:\(brand) AND price > 80"
                let deleted = try index.deleteBy(parameters)
                steps.append("deleteBy \(brand): \(deleted)")
            case 88..<90:
                try index.clearObjects()
                try index.saveObjects((0..<30).map { _ in
                    defer { nextID += 1 }
                    return IncrementalUpdateTests.record(nextID, using: &generator)
                })
                steps.append("clear")
            case 90..<93:
                let patch: JSONObject = switch Int.random(in: 0..<4, using: &generator) {
                case 0: ["customRanking": ["desc(popularity)"]]
                case 1: ["customRanking": ["asc(price)", "desc(popularity)"]]
                case 2: ["searchableAttributes": generator.chance(50) ? ["name", "brand", "unordered(description)"] : ["unordered(description)", "name"]]
                default: ["ignorePlurals": .bool(generator.chance(50))]
                }
                try index.setSettings(patch)
                try reference.setSettings(patch)
                steps.append("settings \(JSONValue.object(patch).jsonString)")
            default:
                let ids = (0..<Int.random(in: newRecords, using: &generator)).map { _ in
                    defer { nextID += 1 }
                    return IncrementalUpdateTests.record(nextID, using: &generator)
                }
                try index.saveObjects(ids)
                steps.append("save \(ids.count) new")
                if newRecords.lowerBound > IndexState.mergedInWriteUpTo / 2 {
                    // At once, while the segments of this write and the one before are merged in
                    // the background: records of both deleted and replaced.
                    let gone = (0..<3).compactMap { _ in existing.randomElement(using: &generator) } + [ids[0], ids[ids.count / 2]].map { $0["objectID"]!.stringValue! }
                    try index.deleteObjects(gone)
                    let replaced = ids[ids.count - 1]["objectID"]!.stringValue!
                    try index.saveObjects([IncrementalUpdateTests.record(Int(replaced.dropFirst())!, using: &generator)])
                    steps.append("then delete \(gone), replace \(replaced)")
                }
            }
            // The reference: every record, in the incremental index's insertion (rowid) order,
            // derived anew.
            try reference.saveObjects(try index.store.allRecords().map { .object($0.record) }, replaceExisting: true)
            let got = try IncrementalUpdateTests.answers(index)
            let expected = try IncrementalUpdateTests.answers(reference)
            for (position, (answer, wanted)) in zip(got, expected).enumerated() where answer != wanted {
                index.waitForMerge()
                return ["step \(step) (\(steps.suffix(3))), query \(position): \(answer.prefix(3000))\n  expected: \(wanted.prefix(3000))"]
            }
            if index.recordCount != reference.recordCount {
                index.waitForMerge()
                return ["step \(step) (\(steps.suffix(3))): \(index.recordCount) records, expected \(reference.recordCount)"]
            }
        }
        index.waitForMerge()
        return []
    }

    /// A write of one record to a large index leaves the base alone: the delta holds it.
    @Test func aSmallWriteGoesToTheDelta() throws {
        var generator = SeededGenerator(seed: 3)
        let engine = try TestEngine()
        let index = try engine.index(settings: IncrementalUpdateTests.settings,
                                     records: (0..<500).map { IncrementalUpdateTests.record($0, using: &generator) })
        let base = index.live.state.base
        try index.saveObjects([IncrementalUpdateTests.record(7, using: &generator), IncrementalUpdateTests.record(900, using: &generator)])
        try index.deleteObjects(["r8"])
        let state = index.live.state
        #expect(state.base === base)
        #expect(state.deltaCount == 2)
        #expect(state.segments[0].removedCount == 2)
        #expect(index.recordCount == 500)
        // Another engine on the folder opens the stored base and reads the change log.
        let other = try SearchEngine(directory: engine.directory.url).index("test")
        #expect(other.live.state.deltaCount == 2)
        #expect(try IncrementalUpdateTests.answers(other) == IncrementalUpdateTests.answers(index))
    }

    /// The change log is pruned to the stored derived file's generation when the index is
    /// derived anew: it holds the deletions since the last merge, not since the index was made.
    /// An engine whose index is older than the log's start (another process) still follows
    /// every write, through the stored file.
    @Test func theChangeLogIsPrunedAtAMergeAndOlderReadersStillFollow() throws {
        let directory = TemporaryDirectory()
        let writer = try SearchEngine(directory: directory.url).index("log")
        try writer.saveObjects((0..<100).map { ["objectID": .string("r\($0)"), "name": "thing"] })
        let reader = try SearchEngine(directory: directory.url).index("log")
        #expect(try reader.search("thing").nbHits == 100)
        func loggedRemovals() throws -> Int64 {
            let connection = try SQLiteConnection(path: writer.store.path, readOnly: true)
            let statement = try connection.statement("SELECT (SELECT count(*) FROM removed_records) + (SELECT count(*) FROM removed_objects)")
            return try statement.step() ? statement.int64(0) : -1
        }
        try writer.deleteObjects((0..<10).map { "r\($0)" })
        #expect(try loggedRemovals() == 20)
        try writer.merge()
        #expect(try loggedRemovals() == 0)
        #expect(try reader.search("thing").nbHits == 90)
        try writer.deleteObjects(["r10", "r11"])
        #expect(try loggedRemovals() == 4)
        #expect(try reader.search("thing").nbHits == 88)
        #expect(try SearchEngine(directory: directory.url).index("log").search("thing").nbHits == 88)
    }
}
