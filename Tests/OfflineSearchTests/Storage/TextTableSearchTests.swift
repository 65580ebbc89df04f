import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// A large index opened without a valid derived file derives it on a background thread, and
/// answers from its FTS5 table meanwhile: the records the derived index matches with typo
/// tolerance off, in the order they were added, said so in the response's `message`; what FTS5
/// cannot answer (filters) waits for the derivation.
@Suite struct TextTableSearchTests {
    static let words = ["apple", "apricot", "banana", "cherry", "red", "green", "watch", "phone", "case", "blue"]

    static func records() -> [JSONValue] {
        (0..<300).map { i in
            ["objectID": .string("r\(i)"), "name": .string("\(words[i % 10]) \(words[(i * 7 + 3) % 10])"),
             "brand": .string(["Acme", "Zeta", "Orbit"][i % 3]), "popularity": .int(Int64(i * 37 % 101)), "secret": "hidden"]
        }
    }

    /// The index written, then opened again without its derived file, its derivation held
    /// until `release` is signalled.
    static func reopenedWithoutDerivedFile(_ test: TestEngine, release: DispatchSemaphore) throws -> (before: SearchIndex, reopened: SearchIndex) {
        let index = try test.index("products", settings: [
            "searchableAttributes": ["name", "brand"], "attributesForFaceting": ["brand"],
            "customRanking": ["desc(popularity)"], "unretrievableAttributes": ["secret"], "typoTolerance": false,
        ], records: records())
        try FileManager.default.removeItem(atPath: RecordStore.derivedPath(forDatabaseAt: index.store.path))
        let reopened = try SearchIndex(name: "products", path: index.store.path, backgroundDerivationFrom: 1,
                                       beforeBackgroundDerivation: { release.wait() })
        return (index, reopened)
    }

    @Test func searchesAreAnsweredFromTheTextTableWhileTheIndexIsDerived() async throws {
        let test = try TestEngine()
        let release = DispatchSemaphore(value: 0)
        let (before, reopened) = try TextTableSearchTests.reopenedWithoutDerivedFile(test, release: release)
        #expect(reopened.live.deriving.value)
        for query in ["ap", "apple", "apple wa", "red ph", "acme", "zzz", "", "cherry green"] {
            let expected = try before.search(query, ["hitsPerPage": 1000])
            let answered = try reopened.search(query, ["hitsPerPage": 1000, "facets": ["brand"]])
            #expect(answered.message == SearchIndex.textTableMessage, "\(query)")
            #expect(ids(answered) == ids(expected) && answered.nbHits == expected.nbHits, "\(query)")
            // In the order the records were added.
            let positions = answered.objectIDs.map { Int($0.dropFirst())! }
            #expect(positions == positions.sorted(), "\(query)")
            #expect(answered.facets?.isEmpty != false && answered.exhaustiveFacetsCount == false)
        }
        // Paged, highlighted, retrieved as the settings say.
        let page = try reopened.search("apple", ["hitsPerPage": 5, "page": 1])
        // "apple" is the name's first word of r0, r10, … and its second of r1, r11, …: 60 records.
        #expect(page.objectIDs == ["r21", "r30", "r31", "r40", "r41"] && page.nbHits == 60 && page.nbPages == 12)
        let hit = try #require(page.hits.first)
        #expect(hit["secret"] == nil && hit["_highlightResult"]?["name"]?["value"]?.stringValue?.contains("<em>apple</em>") == true)

        // Filters, optional words, a narrower scope: not answered from the text table (the hits
        // would differ): such a search waits for the derivation.
        let waiting: [JSONObject] = [["filters": "brand:Acme", "hitsPerPage": 1000], ["optionalWords": ["apple"], "hitsPerPage": 1000],
                                     ["restrictSearchableAttributes": ["brand"], "hitsPerPage": 1000]]
        let answers = LockedValue<[Int: SearchResponse]>([:])
        let done = DispatchGroup()
        for (position, parameters) in waiting.enumerated() {
            done.enter()
            Thread.detachNewThread {
                if let response = try? reopened.search("apple", parameters) {
                    answers.modify { $0[position] = response }
                }
                done.leave()
            }
        }
        // Waits aside (`onThreadAside`): never on one of Swift concurrency's threads.
        #expect(try await onThreadAside { done.wait(timeout: .now() + 0.3) } == .timedOut)
        release.signal()
        try await onThreadAside { done.wait() }
        for (position, parameters) in waiting.enumerated() {
            let expected = try before.search("apple", parameters)
            let answered = try #require(answers.value[position])
            #expect(answered.message == nil && ids(answered) == ids(expected), "\(parameters)")
        }

        // Derived: answered by the search index again, ranked.
        #expect(!reopened.live.deriving.value)
        let ranked = try reopened.search("apple")
        let rankedBefore = try before.search("apple")
        #expect(ranked.message == nil && ranked.objectIDs == rankedBefore.objectIDs)
        #expect(reopened.recordCount == 300)
    }

    @Test func writesWaitForTheDerivationAndLoseNothing() async throws {
        let test = try TestEngine()
        let release = DispatchSemaphore(value: 0)
        let (_, reopened) = try TextTableSearchTests.reopenedWithoutDerivedFile(test, release: release)
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? reopened.saveObjects([["objectID": "new", "name": "zebra watch"]])
            written.signal()
        }
        #expect(try await onThreadAside { written.wait(timeout: .now() + 0.3) } == .timedOut)
        release.signal()
        try await onThreadAside { written.wait() }
        #expect(reopened.recordCount == 301)
        #expect(try reopened.search("zebra").objectIDs == ["new"])
    }
}
