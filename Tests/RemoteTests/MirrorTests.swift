import Foundation
import OfflineSearch
@testable import OfflineSearchMirror
import OfflineSearchRemote
import SearchAPI
import Testing

/// Mirroring an index served on loopback into a local data folder.
@Suite struct MirrorTests {
    /// The queries a mirror must answer as its source does.
    static let queries: [SearchParameters] = [
        .query(""),
        .query("phone"),
        .query("mobile"), // a synonym
        .query("televsion"), // a typo
        .query("blu") { $0.facets = ["brand", "category", "price"] },
        .query("") { $0.filters = "brand:Nova AND price < 50"; $0.hitsPerPage = 50 },
        .query("cable") { $0.page = 1; $0.hitsPerPage = 2 },
    ]

    static func answers(_ service: some SearchService, _ indexName: String = "products") async throws -> [String] {
        var answers: [String] = []
        for parameters in queries {
            var response = try await service.search(indexName: indexName, parameters: parameters)
            response.index = nil
            answers.append(response.comparable)
        }
        return answers
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aMirrorAnswersAsItsSource() async throws {
        let scene = try await MirrorScene(products: 130)
        let (source, server, client, mirror) = (scene.source, scene.server, scene.client, scene.mirror)

        let updates = Locked<[MirrorProgress]>([])
        let report = try await IndexMirror(source: client, target: mirror).mirror(indexName: "products", pageSize: 50) { progress in
            updates.withLock { $0.append(progress) }
        }
        #expect(report.recordsCopied == 130 && report.synonymsCopied == 2)
        #expect(try await Self.answers(mirror) == (try await Self.answers(source)))
        #expect(try await mirror.getSettings(indexName: "products") == (try await source.getSettings(indexName: "products")))
        #expect(!mirror.exists(MirrorReport.temporaryName(for: "products")))

        let progress = updates.withLock { $0 }
        #expect(progress.filter { $0.phase == .records }.map(\.recordsCopied) == [0, 50, 100, 130])
        #expect(progress.last?.phase == .done)
        #expect(progress.contains { $0.totalRecords == 130 })
        await server.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func aFilteredMirrorIntoAnotherNameCopiesTheMatchingRecords() async throws {
        let scene = try await MirrorScene(products: 40)
        let (source, server, client, mirror) = (scene.source, scene.server, scene.client, scene.mirror)
        let report = try await IndexMirror(source: client, target: mirror).mirror(indexName: "products", into: "acme", filters: "brand:Acme")
        var acme = SearchParameters()
        acme.filters = "brand:Acme"
        let expected = try source.existingIndex("products").search(acme).nbHits
        #expect(expected == 12)
        #expect(report.recordsCopied == expected)
        let copied = try await mirror.search(indexName: "acme", parameters: SearchParameters())
        #expect(copied.nbHits == expected && copied.hits.allSatisfy { $0["brand"] == "Acme" })
        #expect(!mirror.exists("products"))
        await server.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func anInterruptedMirrorLeavesThePreviousCopySearchable() async throws {
        let scene = try await MirrorScene(products: 60)
        let (source, server, client, mirror) = (scene.source, scene.server, scene.client, scene.mirror)
        try await IndexMirror(source: client, target: mirror).mirror(indexName: "products")
        let before = try await Self.answers(mirror)

        // The source changes; the next mirror is cut off when the server stops mid-copy.
        try source.index("products").saveObjects(Fixture.products(400).dropFirst(60).map { $0 })
        let stopping = Locked<Task<Void, Never>?>(nil)
        do {
            try await IndexMirror(source: client, target: mirror).mirror(indexName: "products", pageSize: 4) { progress in
                guard progress.phase == .records, progress.recordsCopied >= 8 else { return }
                stopping.withLock { task in
                    if task == nil { task = Task { await server.stop() } }
                }
            }
            Issue.record("the mirror finished although the server stopped")
        } catch {
            #expect(error.kind == .unreachable)
        }
        await stopping.withLock { $0 }?.value
        #expect(try mirror.existingIndex("products").recordCount == 60)
        #expect(try await Self.answers(mirror) == before)
        #expect(!mirror.exists(MirrorReport.temporaryName(for: "products")), "the temporary index is dropped")

        // Back online, a second run copies everything again and swaps it in.
        try await server.start()
        let report = try await IndexMirror(source: client, target: mirror).mirror(indexName: "products")
        #expect(report.recordsCopied == 400)
        #expect(try await Self.answers(mirror) == (try await Self.answers(source)))
        await server.stop()
    }

    @Test func theEngineMirrorsIntoItselfUnderAnotherName() async throws {
        let folder = TemporaryDirectory()
        let engine = try Fixture.engine(in: folder, products: 25)
        try await IndexMirror(source: engine, target: engine).mirror(indexName: "products", into: "products_offline", pageSize: 7)
        #expect(try await Self.answers(engine, "products_offline") == (try await Self.answers(engine)))
    }

    @Test func settingsThisVersionDoesNotKnowAndReplicasAreLeftOut() {
        let (settings, ignored) = IndexMirror<SearchEngine, SearchEngine>.mirrorable([
            "searchableAttributes": ["name"], "attributesToIndex": ["title"], "replicas": ["products_by_price"],
            "someSettingFromTheFuture": true, "customRanking": ["desc(popularity)"],
        ])
        #expect(settings == ["searchableAttributes": ["name"], "attributesToIndex": ["title"], "customRanking": ["desc(popularity)"]])
        #expect(ignored == ["someSettingFromTheFuture"])
    }

    @Test func progressSaysTheRateAndTheTimeLeft() {
        var progress = MirrorProgress(phase: .records, recordsCopied: 2000, totalRecords: 5000, elapsed: .seconds(4))
        #expect(progress.recordsPerSecond == 500)
        #expect(progress.remaining == .seconds(6))
        progress.totalRecords = nil
        #expect(progress.remaining == nil, "unknown before the first page")
        #expect(MirrorProgress(phase: .settings, recordsCopied: 0, totalRecords: 10, elapsed: .zero).remaining == nil)
    }
}
