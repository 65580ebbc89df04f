import Testing
@testable import OfflineSearch

/// The posting lists of an import at 1M products are laid out on two threads, one filling each
/// list from its start, the other from its end (`PostingScatter`): the lists must be exactly
/// those one thread lays out, their documents in order.
@Suite struct PostingScatterTests {
    @Test(arguments: [1, 2, 3, 50, 777]) func twoThreadsLayOutWhatOneDoes(inputCount: Int) {
        var generator = SeededGenerator(seed: UInt64(inputCount))
        let termCount = Int.random(in: 1...40, using: &generator)
        // Inputs with distinct terms each, some with none; final ids a permutation.
        var docStarts: [UInt32] = [0], docTerms: [UInt32] = [], docMasks: [UInt16] = [], docPositions: [UInt16] = []
        var counts = [UInt32](repeating: 0, count: termCount)
        for _ in 0..<inputCount {
            for term in (0..<termCount).shuffled(using: &generator).prefix(Int.random(in: 0...min(termCount, 6), using: &generator)) {
                docTerms.append(UInt32(term))
                docMasks.append(UInt16.random(in: 0...UInt16.max, using: &generator))
                docPositions.append(UInt16.random(in: 0...UInt16.max, using: &generator))
                counts[term] += 1
            }
            docStarts.append(UInt32(docTerms.count))
        }
        let finalID = (0..<termCount).map(UInt32.init).shuffled(using: &generator)
        var postingStarts = [UInt32](repeating: 0, count: termCount + 1)
        for term in 0..<termCount { postingStarts[Int(finalID[term]) + 1] = counts[term] }
        for i in 0..<termCount { postingStarts[i + 1] += postingStarts[i] }
        let order = (0..<inputCount).shuffled(using: &generator)
        let scatter = PostingScatter(postingStarts: postingStarts, finalID: finalID, docStarts: docStarts, docTerms: docTerms,
                                     docMasks: docMasks, docPositions: docPositions)
        func laidOut(parallelFrom: Int) -> ([UInt32], [UInt16], [UInt16]) {
            let count = docTerms.count
            var docs = [UInt32](repeating: .max, count: count), masks = [UInt16](repeating: 0, count: count)
            var positions = [UInt16](repeating: 0, count: count)
            scatter.scatter(order: order, docs: &docs, masks: &masks, positions: &positions, parallelFrom: parallelFrom)
            return (docs, masks, positions)
        }
        let one = laidOut(parallelFrom: .max), two = laidOut(parallelFrom: 0)
        #expect(one.0 == two.0)
        #expect(one.1 == two.1)
        #expect(one.2 == two.2)
        #expect(!one.0.contains(.max))
        // Each list's documents ascend, and each posting is its input's entry.
        for term in 0..<termCount {
            let list = Array(two.0[Int(postingStarts[term])..<Int(postingStarts[term + 1])])
            #expect(list == list.sorted() && Set(list).count == list.count)
            for (offset, doc) in list.enumerated() {
                let input = order[Int(doc)]
                let entry = (Int(docStarts[input])..<Int(docStarts[input + 1])).first { Int(finalID[Int(docTerms[$0])]) == term }
                #expect(entry.map { docMasks[$0] } == two.1[Int(postingStarts[term]) + offset])
            }
        }
    }
}

/// An import sizes its largest columns once from an estimate of its record count
/// (`SnapshotAccumulator.expectedInputs`): a tenth more than the estimate, never more than an
/// eighth of the machine's memory, however far off the estimate is.
@Suite struct ColumnReservationTests {
    @Test func roomIsTheEstimateAndATenthBoundedByMemory() {
        #expect(SnapshotAccumulator.room(expecting: 1_000_000, bytesPerInput: 450, memory: 24 << 30) == 1_100_000)
        // 50M inputs of 450 bytes would be 22 GB: on a 4 GB phone, 512 MB of room.
        let room = SnapshotAccumulator.room(expecting: 50_000_000, bytesPerInput: 450, memory: 4 << 30)
        #expect(room == (512 << 20) / 450)
        #expect(SnapshotAccumulator.room(expecting: 10, bytesPerInput: 0, memory: 1 << 30) == 11)
    }
}
