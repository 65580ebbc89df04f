import Testing
@testable import OfflineSearch
import SearchAPI
import DatasetGenerator

/// `FacetTally` counts in overlapping batches: its counts equal one document at a time, for
/// sets that end anywhere in a batch and for documents taken off as well as added.
@Suite struct FacetTallyTests {
    static let records = DatasetGenerator(seed: 5).records(.products, count: 3000)

    /// Each value's count after adding each `(document, step)` in turn, one at a time.
    func oneByOne(_ column: FacetColumn, _ additions: [(document: Int, step: Int)], from start: [Int]) -> [Int] {
        var counts = start
        for (document, step) in additions {
            for i in Int(column.docStarts[document])..<Int(column.docStarts[document + 1]) { counts[Int(column.docValues[i])] += step }
        }
        return counts
    }

    @Test(arguments: ["brand", "categories"])
    func batchedCountsAreOneByOneCounts(path: String) throws {
        guard case .object(let settings) = DatasetGenerator.settings(for: .products) else { throw SearchError(.invalidParameter, "settings") }
        let engine = try TestEngine()
        let snapshot = try engine.index("products", settings: settings, records: Self.records).live.state.base
        let column = try #require(snapshot.facetColumn(path))
        var generator = SplitMix64(state: 17)
        let batch = FacetTally.batchSize, stages = FacetTally.stages
        // Every way a tally can end: empty, within the first batch, at and around each batch's
        // end up to past the ring of stages, and far past it.
        let sizes = [0, 1, batch - 1, batch, batch + 1, 2 * batch, 2 * batch + 1, stages * batch - 1, stages * batch,
                     stages * batch + 1, (stages + 1) * batch + 3, 1000, snapshot.documentCount]
        for size in sizes {
            var documents = Array(0..<snapshot.documentCount)
            for index in documents.indices.reversed() { documents.swapAt(index, Int(generator.next() % UInt64(index + 1))) }
            let additions = documents.prefix(size).sorted().map { (document: $0, step: generator.next() % 3 == 0 ? -1 : 1) }
            let start = (0..<column.values.count).map { _ in Int(generator.next() % 100) }
            var counts = start
            column.withTally(into: &counts) { tally in
                for (document, step) in additions { tally.add(document, step) }
            }
            #expect(counts == oneByOne(column, additions, from: start), "\(path): \(size) documents")
        }
    }

    /// Which passes a counter batches by default: only over a column larger than the caches
    /// (`FacetTally.batchedColumnBytes`; slots: `FacetSlots.batchedBytes`), and only when they
    /// visit at most one document in `FacetTally.sparseGap` of the index's.
    @Test func onlySparsePassesOverALargeColumnAreBatched() throws {
        guard case .object(let settings) = DatasetGenerator.settings(for: .products) else { throw SearchError(.invalidParameter, "settings") }
        let engine = try TestEngine()
        let snapshot = try engine.index("products", settings: settings, records: Self.records).live.state.base
        let small = try #require(snapshot.facetColumn("brand"))
        // A column of one value per document, just over the threshold (a 1M index's brand is 8 MB).
        let documents = FacetTally.batchedColumnBytes / (2 * MemoryLayout<UInt32>.stride) + 1
        let largeWithSlots = FacetColumn(path: "large", values: ["a", "b"], docStarts: (0...documents).map(UInt32.init),
                                         docValues: (0..<documents).map { UInt32($0 & 1) }, valueStarts: [0, 0, 0], valueDocs: []).withSlots()
        // Its slots are a byte a document: half a MiB, under `FacetSlots.batchedBytes`.
        #expect(largeWithSlots.slots?.stride == 1)
        #expect(!FacetCounter(snapshot: snapshot).countsInBatches(largeWithSlots, visits: 1), "slots of \(largeWithSlots.byteCount) bytes")
        let large = largeWithSlots.withoutSlots
        #expect(large.byteCount > FacetTally.batchedColumnBytes)
        #expect(small.withoutSlots.byteCount <= FacetTally.batchedColumnBytes)
        let counter = FacetCounter(snapshot: snapshot)
        let sparse = snapshot.documentCount / FacetTally.sparseGap
        #expect(counter.countsInBatches(large, visits: sparse))
        #expect(!counter.countsInBatches(large, visits: sparse + 1), "a denser pass reads the column in order")
        #expect(small.slots == nil)
        #expect(!counter.countsInBatches(small, visits: 1), "a small column is in the caches")
        // Slots over `FacetSlots.batchedBytes` (a 1M index's brand: 2 MB) are counted ahead in a sparse pass.
        let slotted = snapshot.documentCount * 4
        let largeSlots = FacetColumn(path: "slots", values: (0..<300).map { "v\($0)" }, docStarts: (0...slotted).map(UInt32.init),
                                     docValues: (0..<slotted).map { UInt32($0 % 300) }, valueStarts: [UInt32](repeating: 0, count: 301), valueDocs: []).withSlots()
        #expect(largeSlots.slots?.stride == 2)
        let manyDocuments = FacetSlots.batchedBytes / 2 + 1
        let overSlots = FacetColumn(path: "over", values: (0..<300).map { "v\($0)" }, docStarts: (0...manyDocuments).map(UInt32.init),
                                    docValues: (0..<manyDocuments).map { UInt32($0 % 300) }, valueStarts: [UInt32](repeating: 0, count: 301), valueDocs: [])
        #expect(overSlots.byteCount > FacetSlots.batchedBytes)
        #expect(counter.countsInBatches(overSlots, visits: sparse))
        #expect(!counter.countsInBatches(overSlots, visits: sparse + 1))
        #expect(!counter.countsInBatches(largeSlots, visits: sparse), "slots of \(largeSlots.byteCount) bytes are in the caches")
        #expect(FacetCounter(snapshot: snapshot, batching: .always).countsInBatches(small, visits: snapshot.documentCount))
    }
}
