import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI
import DatasetGenerator

extension FacetColumn {
    /// The same column without its slots: counted from `docStarts`, as a column whose values do
    /// not fit slots is.
    var withoutSlots: FacetColumn {
        FacetColumn(path: path, values: values, numbers: numbers, docStarts: docStarts, docValues: docValues,
                    valueStarts: valueStarts, valueDocs: valueDocs, idsByKey: idsByKey, slots: nil)
    }
}

/// `FacetSlots` hold each document's value ids in one word: the ids read back are the column's,
/// counts from them are counts from `docStarts`, and a column that does not fit has none. The
/// tests' index is small, so its columns get no slots of their own (`FacetSlots.batchedBytes`);
/// the tests make them with `withSlots()`.
@Suite struct FacetSlotsTests {
    static let records = DatasetGenerator(seed: 29).records(.products, count: 3000)

    /// The ids in `document`'s word, in order.
    func ids(_ slots: FacetSlots, _ document: Int) -> [Int] {
        var word: UInt64 = 0
        for byte in 0..<slots.stride { word |= UInt64(slots.bytes[document * slots.stride + byte]) << UInt64(8 * byte) }
        var ids: [Int] = []
        for _ in 0..<slots.idsPerDocument {
            let stored = Int(word & ((1 << UInt64(slots.idBits)) - 1))
            if stored != 0 { ids.append(stored - 1) }
            word >>= UInt64(slots.idBits)
        }
        return ids
    }

    func snapshot() throws -> IndexSnapshot {
        guard case .object(let settings) = DatasetGenerator.settings(for: .products) else { throw SearchError(.invalidParameter, "settings") }
        let engine = try TestEngine()
        return try engine.index("products", settings: settings, records: Self.records).live.state.base
    }

    @Test(arguments: ["brand", "categories", "price"])
    func eachDocumentsWordHoldsItsValues(path: String) throws {
        let snapshot = try snapshot()
        let column = try #require(snapshot.facetColumn(path))
        #expect(column.slots == nil, "\(path): slots of \(snapshot.documentCount) records would fit a core's cache")
        let slots = try #require(column.withSlots().slots, "\(path): \(column.values.count) values fit slots")
        #expect(slots.idBits == (column.values.count < 256 ? 8 : 16))
        var most = 0
        for document in 0..<snapshot.documentCount {
            let values = (Int(column.docStarts[document])..<Int(column.docStarts[document + 1])).map { Int(column.docValues[$0]) }
            most = max(most, values.count)
            #expect(ids(slots, document) == values, "\(path), document \(document)")
        }
        #expect(slots.idsPerDocument == max(most, 1))
        #expect(slots.bytes.count == snapshot.documentCount * slots.stride)
    }

    /// Sets that end anywhere in a batch of `FacetSlots.batchSize`, counted ahead and one by one,
    /// adding and taking off: the counts of a pass over `docStarts`.
    @Test(arguments: ["brand", "categories", "price"], [false, true])
    func countsAreThoseOfTheColumnsDocuments(path: String, ahead: Bool) throws {
        let snapshot = try snapshot()
        let column = try #require(snapshot.facetColumn(path))
        let slots = try #require(column.withSlots().slots)
        let batch = FacetSlots.batchSize
        var generator = SplitMix64(state: 41)
        for size in [0, 1, batch - 1, batch, batch + 1, 2 * batch - 1, 2 * batch, 2 * batch + 1, 3 * batch + 5, 1000, snapshot.documentCount] {
            var order = Array(0..<snapshot.documentCount)
            for index in order.indices.reversed() { order.swapAt(index, Int(generator.next() % UInt64(index + 1))) }
            var documents = DocumentSet(capacity: snapshot.documentCount)
            for document in order.prefix(size) { documents.insert(document) }
            let step = size % 2 == 0 ? 1 : -1
            let start = (0..<column.values.count).map { _ in Int(generator.next() % 1000) }
            var expected = start
            documents.forEach { document in
                for i in Int(column.docStarts[document])..<Int(column.docStarts[document + 1]) { expected[Int(column.docValues[i])] += step }
                return true
            }
            var counts = start
            documents.words.withUnsafeBufferPointer { words in
                counts.withUnsafeMutableBufferPointer { counts in
                    slots.add(wordCount: words.count, step: step, to: counts, ahead: ahead) { words[$0] }
                }
            }
            #expect(counts == expected, "\(path): \(size) documents, step \(step)")
        }
    }

    /// The facet counts of searches are the same with and without slots.
    @Test func searchesCountTheSameWithoutSlots() throws {
        let snapshot = try snapshot()
        let total = snapshot.documentCount
        var generator = SplitMix64(state: 7)
        for path in ["brand", "categories", "price"] {
            let column = try #require(snapshot.facetColumn(path)?.withSlots())
            #expect(column.slots != nil)
            // (Not 100 %: every record is counted from the stored totals, with or without slots.)
            for share: UInt64 in [1, 20, 45, 55, 80, 99] {
                var documents = DocumentSet(capacity: total)
                for document in 0..<total where generator.next() % 100 < share { documents.insert(document) }
                // Without the recent sets: each way is a pass of its own.
                snapshot.facetCounts.setByteBudget(0)
                let with = FacetCounter(snapshot: snapshot, batching: .always).counts(column, over: documents, documentCount: documents.count)
                let without = FacetCounter(snapshot: snapshot, batching: .always).counts(column.withoutSlots, over: documents, documentCount: documents.count)
                #expect(with == without, "\(path) over \(share) % of the records")
            }
        }
    }

    /// Every word shape counts as the column's own arrays do: 1, 2, 4 and 8 bytes, 8 ids of 8
    /// bits and 4 of 16, up to the largest ids (254 and 65,534), records with none, ahead and not.
    @Test(arguments: [(values: 255, most: 1), (values: 255, most: 3), (values: 255, most: 8), (values: 65_535, most: 1),
                      (values: 65_535, most: 2), (values: 65_535, most: 4), (values: 300, most: 3)])
    func everyShapeCountsAsTheColumn(values: Int, most: Int) throws {
        var generator = SplitMix64(state: UInt64(values * 10 + most))
        let records = 3_000
        var starts: [UInt32] = [0], ids: [UInt32] = []
        for record in 0..<records {
            // Records with no value, and the largest ids, among the others.
            let count = record % 7 == 0 ? 0 : (record % 5 == 0 ? most : 1 + Int(generator.next() % UInt64(most)))
            var chosen = Set<UInt32>()
            if record % 11 == 0, count > 0 { chosen.insert(UInt32(values - 1)) }
            while chosen.count < count { chosen.insert(UInt32(generator.next() % UInt64(values))) }
            ids.append(contentsOf: chosen.sorted())
            starts.append(UInt32(ids.count))
        }
        let column = FacetColumn(path: "shape", values: (0..<values).map { "v\($0)" }, docStarts: starts, docValues: ids).withSlots()
        let slots = try #require(column.slots)
        #expect(slots.idsPerDocument == most)
        for share: UInt64 in [2, 30, 70] {
            var documents = DocumentSet(capacity: records)
            for record in 0..<records where generator.next() % 100 < share { documents.insert(record) }
            var expected = [Int](repeating: 0, count: values)
            documents.forEach { record in
                for i in Int(starts[record])..<Int(starts[record + 1]) { expected[Int(ids[i])] += 1 }
                return true
            }
            for ahead in [false, true] {
                var counts = [Int](repeating: 0, count: values)
                documents.words.withUnsafeBufferPointer { words in
                    counts.withUnsafeMutableBufferPointer { counts in
                        slots.add(wordCount: words.count, step: 1, to: counts, ahead: ahead) { words[$0] }
                    }
                }
                #expect(counts == expected, "\(values) values, \(most) a record, \(share) %, ahead: \(ahead)")
            }
        }
    }

    /// A column of too many values, or a document of more ids than a word holds, has no slots;
    /// the word is the narrowest that holds the most ids of a document. A column built with
    /// its index has slots only when they are larger than `FacetSlots.batchedBytes`.
    @Test func shapes() {
        func column(values: Int, idsPerDocument: [Int]) -> FacetSlots? {
            var starts: [UInt32] = [0], ids: [UInt32] = []
            for (document, count) in idsPerDocument.enumerated() {
                for k in 0..<count { ids.append(UInt32((document * 7 + k) % values)) }
                starts.append(UInt32(ids.count))
            }
            return FacetColumn(path: "shape", values: (0..<values).map { "\($0)" }, docStarts: starts, docValues: ids).withSlots().slots
        }
        /// "idBits idsPerDocument stride", or "none".
        func shape(_ slots: FacetSlots?) -> String { slots.map { "\($0.idBits) \($0.idsPerDocument) \($0.stride)" } ?? "none" }
        #expect(shape(column(values: 255, idsPerDocument: [1, 0, 1])) == "8 1 1")
        #expect(shape(column(values: 256, idsPerDocument: [1, 0, 1])) == "16 1 2")
        #expect(shape(column(values: 65_535, idsPerDocument: [1])) == "16 1 2")
        #expect(column(values: 65_536, idsPerDocument: [1]) == nil, "ids of more than 16 bits")
        #expect(shape(column(values: 66, idsPerDocument: [3, 2])) == "8 3 4")
        #expect(shape(column(values: 66, idsPerDocument: [5, 1])) == "8 5 8")
        #expect(shape(column(values: 66, idsPerDocument: [8])) == "8 8 8")
        #expect(column(values: 66, idsPerDocument: [9, 1]) == nil, "nine ids of 8 bits")
        #expect(shape(column(values: 300, idsPerDocument: [4])) == "16 4 8")
        #expect(column(values: 300, idsPerDocument: [5]) == nil, "five ids of 16 bits")
        #expect(shape(column(values: 10, idsPerDocument: [0, 0])) == "8 1 1", "no values at all: words of zeros")
        #expect(shape(column(values: 10, idsPerDocument: [])) == "none", "no documents: no bytes to keep")
        // Made with a column only when larger than a core's cache: a byte a record, over 1 MiB.
        func built(records: Int) -> FacetColumn {
            FacetColumn(path: "size", values: ["a", "b"], docStarts: (0...records).map(UInt32.init), docValues: (0..<records).map { UInt32($0 & 1) })
        }
        #expect(built(records: FacetSlots.batchedBytes).slots == nil)
        #expect(built(records: FacetSlots.batchedBytes + 1).slots?.bytes.count == FacetSlots.batchedBytes + 1)
        #expect(FacetColumn(path: "size", values: ["a", "b"], docStarts: (0...(FacetSlots.batchedBytes + 1)).map(UInt32.init),
                            docValues: (0...FacetSlots.batchedBytes).map { UInt32($0 & 1) }, slots: false).slots == nil, "slots: false")
        // Read back: only a shape that fits the documents.
        let bytes = FlatArray<UInt8>([1, 0, 2, 0])
        #expect(FacetSlots(idBits: 16, idsPerDocument: 1, bytes: bytes, documentCount: 2) != nil)
        #expect(FacetSlots(idBits: 16, idsPerDocument: 1, bytes: bytes, documentCount: 3) == nil)
        #expect(FacetSlots(idBits: 8, idsPerDocument: 1, bytes: bytes, documentCount: 2) == nil)
        #expect(FacetSlots(idBits: 12, idsPerDocument: 1, bytes: bytes, documentCount: 4) == nil)
        #expect(FacetSlots(idBits: 8, idsPerDocument: 0, bytes: bytes, documentCount: 4) == nil)
        #expect(FacetSlots(idBits: 16, idsPerDocument: 5, bytes: bytes, documentCount: 0) == nil)
    }

    /// Slots are stored in the derived file and read back with the same words (a snapshot
    /// whose columns were given slots, written and read as an index's derived file is).
    @Test func slotsAreStoredAndReadBack() throws {
        let snapshot = try snapshot()
        let slotted = IndexSnapshot(configuration: snapshot.configuration, generation: snapshot.generation, rowIDs: snapshot.rowIDs,
                                    terms: snapshot.terms, postingStarts: snapshot.postingStarts, postingDocs: snapshot.postingDocs,
                                    postingMasks: snapshot.postingMasks, postingPositions: snapshot.postingPositions,
                                    sortRuns: snapshot.sortRuns, forward: snapshot.forward, facets: snapshot.facets.map { $0.withSlots() },
                                    numerics: snapshot.numerics, orderKeys: snapshot.orderKeys, geo: snapshot.geo)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("products.index.derived").path
        _ = try SnapshotFile.write(slotted, indexID: "slots", to: path)
        let read = try #require(SnapshotFile.read(from: path, indexID: "slots", configuration: snapshot.configuration,
                                                  generations: snapshot.generation...snapshot.generation))
        for path in ["brand", "categories", "price"] {
            let built = try #require(slotted.facetColumn(path)?.slots), back = try #require(read.facetColumn(path)?.slots)
            #expect(built.idBits == back.idBits && built.idsPerDocument == back.idsPerDocument && built.stride == back.stride, "\(path)")
            #expect(Array(built.bytes) == Array(back.bytes), "\(path)")
        }
        // And columns without slots are read back without them.
        let unslotted = directory.appendingPathComponent("plain.derived").path
        _ = try SnapshotFile.write(snapshot, indexID: "slots", to: unslotted)
        let readPlain = try #require(SnapshotFile.read(from: unslotted, indexID: "slots", configuration: snapshot.configuration,
                                                       generations: snapshot.generation...snapshot.generation))
        #expect(readPlain.facets.allSatisfy { $0.slots == nil })
    }
}
