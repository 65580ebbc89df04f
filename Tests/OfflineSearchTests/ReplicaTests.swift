import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// Sort replicas, as the InstantSearch SortBy widget uses them: `replicas` on the primary,
/// `ranking` led by `asc(price)` / `desc(price)` on each replica, writes kept in sync.
@Suite struct ReplicaTests {
    static let records: [JSONValue] = [
        ["objectID": "a", "name": "phone case red", "price": 30, "popularity": 5],
        ["objectID": "b", "name": "phone case blue", "price": 10, "popularity": 9],
        ["objectID": "c", "name": "phone charger", "price": 20, "popularity": 1],
        ["objectID": "d", "name": "phone", "price": 500],
    ]

    func makePrimary(_ engine: TestEngine) throws -> SearchIndex {
        let primary = try engine.index("products", settings: ["searchableAttributes": ["name"], "customRanking": ["desc(popularity)"],
                                                              "attributesForFaceting": ["price"]],
                                       records: ReplicaTests.records)
        try primary.setSettings(["replicas": ["products_price_asc", "virtual(products_price_desc)"]])
        try engine.engine.index("products_price_asc").setSettings(["ranking": ["asc(price)", "typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"]])
        try engine.engine.index("products_price_desc").setSettings(["ranking": ["desc(price)", "typo", "words", "attribute", "exact", "custom"]])
        return primary
    }

    @Test func replicasAreCreatedFilledAndSortedByTheirRanking() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        let ascending = try engine.engine.existingIndex("products_price_asc")
        let descending = try engine.engine.existingIndex("products_price_desc")
        #expect(ascending.settings.values["primary"] == "products")
        #expect(ascending.settings.searchableAttributes == ["name"])
        // The primary: "phone" is a whole attribute value only in d (exact, one-word rule), then
        // desc(popularity), records without it last.
        #expect(try primary.search("phone").objectIDs == ["d", "b", "a", "c"])
        #expect(try ascending.search("phone").objectIDs == ["b", "c", "a", "d"])
        // A virtual replica sorts relevantly: by default only the most relevant (d, the exact
        // match); with relevancyStrictness 0, every match, sorted.
        #expect(try descending.search("phone").objectIDs == ["d"])
        #expect(try descending.search("phone", ["relevancyStrictness": 0]).objectIDs == ["d", "a", "c", "b"])
        #expect(try ascending.search("case").objectIDs == ["b", "a"])
    }

    /// Records with equal sort values are ranked by the rest of `ranking`, as in Algolia: here
    /// typos, proximity and exactness, before the custom ranking.
    @Test func relevanceOrdersRecordsWithEqualSortValues() throws {
        let engine = try TestEngine()
        let index = try engine.index("by_rating", settings: [
            "searchableAttributes": ["name"], "customRanking": ["desc(popularity)"], "attributesForFaceting": ["rating", "color"],
            "ranking": ["desc(rating)", "typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"],
        ], records: [
            ["objectID": "5 far", "name": "leather phone case", "rating": 5, "popularity": 9, "color": "red"],
            ["objectID": "5 typo", "name": "lether case", "rating": 5, "popularity": 8],
            ["objectID": "5 close", "name": "leather case", "rating": 5, "popularity": 1],
            ["objectID": "4 close", "name": "leather case", "rating": 4, "popularity": 10],
            ["objectID": "unrated", "name": "leather case", "popularity": 20],
        ])
        #expect(try index.search("leather case").objectIDs == ["5 close", "5 far", "5 typo", "4 close", "unrated"])
        #expect(try index.search("").objectIDs == ["5 far", "5 typo", "5 close", "4 close", "unrated"])
        #expect(try index.search("leather case", ["hitsPerPage": 2, "page": 1]).objectIDs == ["5 typo", "4 close"])
        // Optional filters count inside a run too (the filters criterion ranks before proximity).
        #expect(try index.search("leather case", ["optionalFilters": ["color:red"]]).objectIDs
            == ["5 far", "5 close", "5 typo", "4 close", "unrated"])
    }

    @Test func writesToThePrimaryReachTheReplicas() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        let ascending = try engine.engine.existingIndex("products_price_asc")
        try primary.saveObjects([["objectID": "e", "name": "phone stand", "price": 5]])
        #expect(try ascending.search("phone").objectIDs.first == "e")
        try primary.deleteObjects(["b"])
        #expect(try ascending.search("case").objectIDs == ["a"])
        var cheap = SearchParameters()
        cheap.filters = "price < 25"
        #expect(try primary.deleteBy(cheap) == 2)   // c and e
        #expect(try ascending.search("").objectIDs == ["a", "d"])
        try primary.clearObjects()
        #expect(try engine.engine.existingIndex("products_price_desc").recordCount == 0)
    }

    /// A replica takes a write to its primary at the cost of the change: the records written
    /// go to its delta, nothing is derived again.
    @Test func aReplicaTakesOnlyWhatChanged() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        let ascending = try engine.engine.existingIndex("products_price_asc")
        let rebuilds = DerivedIndex.rebuilds.value[ascending.store.path] ?? 0
        let before = ascending.deltaCount
        try primary.saveObjects([["objectID": "e", "name": "phone stand", "price": 5]])
        try primary.partialUpdateObjects([["objectID": "a", "price": 1]])
        #expect(ascending.deltaCount == before + 2)
        #expect(DerivedIndex.rebuilds.value[ascending.store.path] ?? 0 == rebuilds)
        #expect(try ascending.search("phone").objectIDs.prefix(2) == ["a", "e"])
    }

    /// A process killed after the primary's commit, before its replicas': the replicas lack
    /// the write until they are next opened, then hold exactly what the primary holds.
    @Test func aWriteLeftUndoneIsDoneWhenTheReplicaIsNextOpened() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        // What the killed process committed: the primary's transaction only.
        try primary.writeWithoutReplicas(RecordStore.Change(upserts: [["objectID": "e", "name": "phone stand", "price": 5]], deletions: ["b"]))
        #expect(try engine.engine.existingIndex("products_price_asc").search("stand").objectIDs.isEmpty)
        let restarted = try SearchEngine(directory: engine.directory.url)
        let ascending = try restarted.existingIndex("products_price_asc")
        #expect(try ascending.search("phone").objectIDs == ["e", "c", "a", "d"])
        try ReplicaTests.expectSameRecords(try restarted.existingIndex("products"), ascending)
        try ReplicaTests.expectSameRecords(try restarted.existingIndex("products"), try restarted.existingIndex("products_price_desc"))
        // A clear since (the change log starts again): every record is copied.
        try primary.writeWithoutReplicas(RecordStore.Change(clearFirst: true, upserts: [["objectID": "z", "name": "zebra", "price": 1]]))
        let again = try SearchEngine(directory: engine.directory.url)
        #expect(try again.existingIndex("products_price_desc").search("").objectIDs == ["z"])
        // The primary's next write, in a process that has the stale replica open, also brings it up.
        try primary.writeWithoutReplicas(RecordStore.Change(deletions: ["z"]))
        try again.existingIndex("products").saveObjects([["objectID": "y", "name": "yak", "price": 2]])
        #expect(try again.existingIndex("products_price_desc").search("").objectIDs == ["y"])
    }

    /// An existing index named a replica gets its primary's records in place of its own, and
    /// keeps its settings (Algolia's rule); it then follows the primary.
    @Test func anExistingIndexNamedAReplicaIsOverwritten() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        let other = try engine.index("other", settings: ["customRanking": ["asc(price)"]], records: [["objectID": "mine", "name": "own record"]])
        try primary.setSettings(["replicas": ["products_price_asc", "virtual(products_price_desc)", "other"]])
        #expect(Set(try other.search("").objectIDs) == ["a", "b", "c", "d"])
        #expect(other.settings.values["customRanking"] == ["asc(price)"])
        #expect(other.settings.values["primary"] == "products")
        try primary.deleteObjects(["a"])
        #expect(Set(try other.search("").objectIDs) == ["b", "c", "d"])
    }

    /// Random writes to a primary with two replicas, some of them left undone in the replicas
    /// (the process "killed" between the commits, a new engine opened after): after each step
    /// every replica holds the primary's records, in the same order of first insertion (the
    /// final tie-break), whatever path brought them there.
    @Test(arguments: [1, 2, 3])
    func replicasHoldThePrimarysRecordsThroughRandomWrites(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        var engine = try SearchEngine(directory: directory.url)
        var random = SeededGenerator(seed: seed)
        let primary0 = try engine.index("primary")
        try primary0.setSettings(["attributesForFaceting": ["color"], "replicas": ["by_price", "virtual(by_name)"]])
        try engine.index("by_price").setSettings(["ranking": ["asc(price)", "typo", "words", "proximity", "attribute", "exact", "custom"]])
        func record(_ id: Int) -> JSONObject {
            ["objectID": .string("r\(id)"), "name": .string("item \(id % 7) \(random.next() % 100)"),
             "price": .int(Int64(random.next() % 50)), "color": .string(["red", "blue", "green"][Int(random.next() % 3)])]
        }
        for step in 0..<150 {
            let primary = try engine.existingIndex("primary")
            let id = Int(random.next() % 60)
            let killed = random.next() % 5 == 0
            let change: RecordStore.Change
            switch random.next() % 20 {
            case 0: change = RecordStore.Change(clearFirst: true, upserts: (0..<Int(random.next() % 8)).map { _ in record(Int(random.next() % 60)) })
            case 1...5: change = RecordStore.Change(deletions: (0..<3).map { _ in "r\(random.next() % 60)" })
            case 6...8:
                var cheap = SearchParameters()
                cheap.filters = "price < \(random.next() % 10)"
                if killed {
                    change = RecordStore.Change(deletions: try primary.search("", ["filters": .string(cheap.filters!), "hitsPerPage": 1000]).objectIDs)
                } else {
                    try primary.deleteBy(cheap)
                    change = RecordStore.Change()
                }
            case 9...11: change = RecordStore.Change(upserts: [record(id)].map { var r = $0; r["price"] = .int(Int64(step)); return r })
            default: change = RecordStore.Change(upserts: (0..<Int(1 + random.next() % 4)).map { _ in record(Int(random.next() % 60)) })
            }
            if killed {
                try primary.writeWithoutReplicas(change)
                // Now and then several writes go by before a new engine opens the replicas.
                if random.next() % 3 != 0 { engine = try SearchEngine(directory: directory.url) } else { continue }
            } else if change.size > 0 || change.clearFirst {
                try primary.batch((change.clearFirst ? [BatchOperation.clear] : [])
                    + change.deletions.map { .deleteObject(objectID: $0) } + change.upserts.map { .addObject(.object($0)) })
            }
            let current = try engine.existingIndex("primary")
            for name in ["by_price", "by_name"] {
                try ReplicaTests.expectSameRecords(current, try engine.existingIndex(name), "seed \(seed), step \(step)")
            }
        }
    }

    /// Records go to the primary only (Algolia answers 400 to a record write on a replica);
    /// settings and synonyms of a replica are its own.
    @Test func aReplicaTakesNoRecordWrites() throws {
        let engine = try TestEngine()
        _ = try makePrimary(engine)
        let ascending = try engine.engine.existingIndex("products_price_asc")
        var cheap = SearchParameters()
        cheap.filters = "price < 25"
        let writes: [(String, () throws -> Void)] = [
            ("save", { try ascending.saveObjects([["objectID": "x", "name": "x"]]) }),
            ("partial update", { _ = try ascending.partialUpdateObjects([["objectID": "a", "price": 1]]) }),
            ("delete", { try ascending.deleteObjects(["a"]) }),
            ("clear", { try ascending.clearObjects() }),
            ("batch", { try ascending.batch([.deleteObject(objectID: "a")]) }),
            ("delete by", { try ascending.deleteBy(cheap) }),
        ]
        for (what, write) in writes {
            let error = #expect(throws: SearchError.self, "\(what)") { try write() }
            #expect(error?.status == 400, "\(what)")
            #expect(error?.message.contains("replica of products") == true, "\(what): \(error?.message ?? "")")
        }
        #expect(try ascending.search("").nbHits == 4)
        try ascending.setSettings(["customRanking": ["asc(name)"]])
        try ascending.saveSynonyms([["objectID": "s", "type": "synonym", "synonyms": ["phone", "mobile"]]])
        #expect(try ascending.search("mobile").nbHits == 4)
    }

    /// Algolia's rules for `replicas`, and an index dropped from the list becomes a regular
    /// index: its records stay, `primary` goes, it takes writes and no longer follows.
    @Test func replicaListRulesAndDetaching() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        let other = try engine.index("other", records: [["objectID": "o", "name": "other"]])
        let rejected: [(SearchIndex, JSONObject, String)] = [
            (other, ["replicas": ["products_price_asc"]], "already a replica of products"),
            (try engine.engine.existingIndex("products_price_asc"), ["replicas": ["another"]], "a replica cannot have replicas"),
            (other, ["replicas": ["products"]], "a primary cannot be a replica"),
        ]
        for (index, patch, message) in rejected {
            let error = #expect(throws: SearchError.self) { try index.setSettings(patch) }
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        }
        #expect(other.settings.values["replicas"] == nil)
        #expect(!engine.engine.exists("another"))

        try primary.setSettings(["replicas": ["virtual(products_price_desc)"]])
        let detached = try engine.engine.existingIndex("products_price_asc")
        #expect(detached.settings.values["primary"] == nil)
        try primary.deleteObjects(["a"])
        #expect(try detached.search("").nbHits == 4)
        try detached.saveObjects([["objectID": "mine", "name": "mine"]])
        #expect(try detached.search("").nbHits == 5)
        #expect(try engine.engine.existingIndex("products_price_desc").search("", ["relevancyStrictness": 0]).nbHits == 3)
    }

    /// A detached index that took writes of its own, listed again while the process is killed
    /// before the replica is set up: its own records never mix with the primary's.
    @Test func aDetachedIndexListedAgainIsOverwrittenEvenAfterAKill() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        try primary.setSettings(["replicas": ["virtual(products_price_desc)"]])
        let detached = try engine.engine.existingIndex("products_price_asc")
        try detached.saveObjects([["objectID": "mine", "name": "phone mine", "price": 1]])
        // The primary lists it again, and the process dies before anything reaches the replica.
        try primary.writeWithoutReplicas(RecordStore.Change(updateSettings: { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
            try stored.applying(["replicas": ["products_price_asc", "virtual(products_price_desc)"]])
        }))
        let restarted = try SearchEngine(directory: engine.directory.url)
        try restarted.existingIndex("products").saveObjects([["objectID": "e", "name": "phone stand", "price": 5]])
        let relisted = try restarted.existingIndex("products_price_asc")
        #expect(relisted.settings.values["primary"] == "products")
        try ReplicaTests.expectSameRecords(try restarted.existingIndex("products"), relisted)
        #expect(try relisted.search("mine").nbHits == 0)
    }

    /// A replica deleted while its primary lists it is made again at the primary's next write:
    /// with the primary's settings, `primary`, and every record; it then refuses direct writes.
    @Test func aDeletedReplicaIsMadeAgain() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        try engine.engine.deleteIndex("products_price_asc")
        try primary.saveObjects([["objectID": "e", "name": "phone stand", "price": 5]])
        let again = try engine.engine.existingIndex("products_price_asc")
        #expect(again.settings.values["primary"] == "products")
        #expect(again.settings.searchableAttributes == ["name"])
        try ReplicaTests.expectSameRecords(primary, again)
        #expect(throws: SearchError.self) { try again.saveObjects([["objectID": "x"]]) }
    }

    /// Two engines (two processes) bring the same replica up to date at once, one copying it
    /// whole: the marks keep either from taking it back to an older state.
    @Test func twoEnginesSyncingOneReplicaAgree() async throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        let other = try SearchEngine(directory: engine.directory.url)
        for round in 0..<20 {
            // Committed to the primary only, then both engines catch the replica up concurrently.
            try primary.writeWithoutReplicas(RecordStore.Change(clearFirst: round % 5 == 0, upserts: (0..<3).map { i in
                ["objectID": .string("r\(round)-\(i)"), "name": .string("phone \(round)"), "price": .int(Int64(round * 3 + i))]
            }, deletions: round % 5 == 0 ? [] : ["r\(round - 1)-0"]))
            let first = try engine.engine.existingIndex("products_price_asc")
            let second = try other.existingIndex("products_price_asc")
            let primaryStore = primary.store
            async let a: Void = Task.detached { try first.sync(from: primaryStore) }.value
            async let b: Void = Task.detached { try second.sync(from: primaryStore) }.value
            _ = try await (a, b)
            try ReplicaTests.expectSameRecords(primary, first, "round \(round)")
            #expect(try first.store.primaryMark()?.generation == (try primary.store.generation()), "round \(round)")
        }
    }

    /// A replica another process keeps locked past the busy timeout while its primary takes a
    /// write: the write succeeds (it is committed), and the replica catches up before its next
    /// search once the lock is gone, without a write to the primary or a new engine.
    @Test func aReplicaLockedDuringTheWriteCatchesUpBeforeItsNextSearch() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        let ascending = try engine.engine.existingIndex("products_price_asc")
        let locker = try SQLiteConnection(path: ascending.store.path)
        try locker.execute("BEGIN IMMEDIATE")
        try primary.saveObjects([["objectID": "e", "name": "phone stand", "price": 5]])
        try locker.execute("ROLLBACK")
        #expect(try ascending.search("stand").objectIDs == ["e"])
        try ReplicaTests.expectSameRecords(primary, ascending)
    }

    /// A change larger than the delta limit reaches the replicas a batch at a time, read from
    /// the primary while they write it (a streamed import of 1M records must not hold them all
    /// once per replica), with the same result as any other change.
    @Test func aLargeChangeReachesTheReplicasInBatches() throws {
        let engine = try TestEngine()
        let primary = try makePrimary(engine)
        let ascending = try engine.engine.existingIndex("products_price_asc")
        let count = IndexState.deltaLimit + RecordStore.batchSize + 5
        let many: [JSONValue] = (0..<count).map { ["objectID": .string("m\($0)"), "name": "cable", "price": .int(Int64($0 % 97))] }
        try primary.saveObjects(many)
        try primary.deleteObjects(["a"])
        try ReplicaTests.expectSameRecords(primary, ascending, "after \(count) records and a delete")
        #expect(try ascending.search("cable", ["hitsPerPage": 1]).hits.first?["price"] == 0)
        #expect(try engine.engine.existingIndex("products_price_desc").search("cable", ["hitsPerPage": 1]).hits.first?["price"] == 96)
    }

    /// The same records, in the same order of first insertion.
    static func expectSameRecords(_ primary: SearchIndex, _ replica: SearchIndex, _ comment: String = "",
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try primary.store.allRecords().map { JSONValue.object($0.record) }
        let actual = try replica.store.allRecords().map { JSONValue.object($0.record) }
        let difference = zip(actual, expected).first { $0 != $1 }.map { "\($0.jsonString) where the primary has \($1.jsonString)" }
            ?? "\(actual.count) records where the primary has \(expected.count)"
        let same = actual == expected
        #expect(same, "\(replica.name): \(comment): \(difference)", sourceLocation: sourceLocation)
        #expect(try replica.search("", ["hitsPerPage": 0]).nbHits == expected.count, "\(replica.name): \(comment)", sourceLocation: sourceLocation)
    }

    @Test func invalidRankingAndReplicasAreRejected() throws {
        let engine = try TestEngine()
        let index = try engine.index("things", records: [["objectID": "1", "name": "x"]])
        #expect(throws: SearchError.self) { try index.setSettings(["ranking": ["typo", "popularity"]]) }
        #expect(throws: SearchError.self) { try index.setSettings(["replicas": ["things"]]) }
        #expect(index.settings.ranking == nil)
    }
}

/// `relevancyStrictness` on a virtual replica (Algolia's relevant sort): the most relevant
/// matches only, in the replica's sort order.
@Suite struct RelevantSortTests {
    static let records: [JSONValue] = [
        ["objectID": "15", "name": "iPhone 15", "price": 900],
        ["objectID": "14", "name": "iPhone 14", "price": 700],
        ["objectID": "case", "name": "Case for iPhone", "price": 10],
        ["objectID": "charger", "name": "Charger for iPhone", "price": 20],
    ]

    /// A primary with a virtual replica and a standard one, both sorted by price (the virtual one
    /// in `customRanking`, as Algolia's virtual replicas are).
    func makeIndices(_ engine: TestEngine) throws -> (primary: SearchIndex, virtual: SearchIndex, standard: SearchIndex) {
        let primary = try engine.index("phones", settings: ["searchableAttributes": ["name"]], records: RelevantSortTests.records)
        try primary.setSettings(["replicas": ["virtual(phones_relevant)", "phones_exhaustive"]])
        let virtual = try engine.engine.existingIndex("phones_relevant")
        try virtual.setSettings(["customRanking": ["asc(price)"]])
        let standard = try engine.engine.existingIndex("phones_exhaustive")
        try standard.setSettings(["ranking": ["asc(price)", "typo", "words", "proximity", "attribute", "exact", "custom"]])
        return (primary, virtual, standard)
    }

    @Test(arguments: [
        // 100 (the default): the records tied with the best (iPhone at the start of the name).
        (nil, ["14", "15"]),
        (100, ["14", "15"]),
        (50, ["14", "15"]),
        (60, ["14", "15"]),
        // 60% of the matches kept at least: the next tier comes whole.
        (40, ["case", "charger", "14", "15"]),
        (0, ["case", "charger", "14", "15"]),
    ] as [(Int?, [String])])
    func onlyTheMostRelevantAreSorted(strictness: Int?, expected: [String]) throws {
        let engine = try TestEngine()
        let (_, virtual, _) = try makeIndices(engine)
        var parameters: JSONObject = [:]
        if let strictness { parameters["relevancyStrictness"] = .int(Int64(strictness)) }
        let response = try virtual.search("iphone", parameters)
        #expect(response.objectIDs == expected)
        #expect(response.nbHits == 4)
        #expect(response.nbSortedHits == expected.count)
        #expect(response.appliedRelevancyStrictness == (strictness ?? 100))
        #expect(response.jsonValue["nbSortedHits"] == .int(Int64(expected.count)))
    }

    @Test func aSettingOfTheReplicaAndOnlyOnVirtualReplicas() throws {
        let engine = try TestEngine()
        let (primary, virtual, standard) = try makeIndices(engine)
        try virtual.setSettings(["relevancyStrictness": 0])
        #expect(try virtual.search("iphone").objectIDs == ["case", "charger", "14", "15"])
        #expect(try virtual.search("iphone", ["relevancyStrictness": 100]).objectIDs == ["14", "15"])
        // A standard replica sorts exhaustively, and the primary by relevance, whatever the parameter.
        let exhaustive = try standard.search("iphone", ["relevancyStrictness": 100])
        #expect(exhaustive.objectIDs == ["case", "charger", "14", "15"])
        #expect(exhaustive.nbSortedHits == nil)
        #expect(try primary.search("iphone", ["relevancyStrictness": 100]).objectIDs == ["15", "14", "case", "charger"])
        // Without a query every record is as relevant: all sorted.
        #expect(try virtual.search("", ["relevancyStrictness": 100]).objectIDs == ["case", "charger", "14", "15"])
        let error = expectSearchError { _ = try virtual.search("iphone", ["relevancyStrictness": 101]) }
        #expect(error?.message.contains("relevancyStrictness") == true)
    }

    @Test func theSameAnswersWithRecentWritesInTheDelta() throws {
        let engine = try TestEngine()
        let (primary, virtual, _) = try makeIndices(engine)
        try primary.saveObjects([["objectID": "13", "name": "iPhone 13", "price": 500]])
        #expect(virtual.deltaCount > 0)
        let delta = try virtual.search("iphone", ["relevancyStrictness": 80])
        #expect(delta.objectIDs == ["13", "14", "15"])
        try virtual.merge()
        #expect(try virtual.search("iphone", ["relevancyStrictness": 80]).objectIDs == delta.objectIDs)
    }
}

extension SearchIndex {
    /// What a process killed between a primary's commit and its replicas' left behind: the
    /// primary's write alone, its replicas not told.
    func writeWithoutReplicas(_ change: RecordStore.Change) throws {
        live.writeLock.lock()
        defer { live.writeLock.unlock() }
        try writeLocked(change)
    }
}
