import CPrefetch
import SearchAPI

/// Counts facet values over a set of documents from the snapshot's facet columns.
///
/// Three regimes keep large result sets cheap: every document (the stored totals), more than
/// half of them (totals minus the complement's counts), or fewer (a pass over the documents).
struct FacetCounter {
    /// Which passes over a column read it in batches (with a `FacetTally`, or its slots ahead).
    enum Batching {
        /// Passes over a column larger than `FacetTally.batchedColumnBytes` (its slots: than
        /// `FacetSlots.batchedBytes`) that visit few of its documents
        /// (`FacetTally.sparseGap`); the others one document at a time.
        case largeSparsePasses
        /// Every pass (for tests: the columns of a small index are counted in batches too).
        case always
    }

    let snapshot: IndexSnapshot
    var batching = Batching.largeSparsePasses

    /// Whether a pass visiting `visits` of `column`'s documents counts them in batches.
    func countsInBatches(_ column: FacetColumn, visits: Int) -> Bool {
        switch batching {
        case .always: true
        case .largeSparsePasses:
            column.byteCount > (column.slots == nil ? FacetTally.batchedColumnBytes : FacetSlots.batchedBytes)
                && visits <= snapshot.documentCount / FacetTally.sparseGap
        }
    }

    /// Count per value id of `column` over `documents`.
    /// - Complexity: O(min(|documents|, n - |documents|, |documents Δ a recent set|) × values
    ///   per document + n / 64 × recent sets compared).
    func counts(_ column: FacetColumn, over documents: DocumentSet, documentCount: Int) -> [Int] {
        let total = snapshot.documentCount
        if documentCount == total {
            return (0..<column.values.count).map { column.count(of: $0) }
        }
        guard documentCount >= RecentFacetCounts.smallestSet else { return passCounts(column, over: documents, documentCount: documentCount) }
        let recent = snapshot.facetCounts.recent
        let passVisits = min(documentCount, total - documentCount)
        let counts: [Int]
        if let (near, visits) = recent.nearest(column.path, to: documents.words, population: documentCount, within: passVisits) {
            // The very set kept (a user who types a letter and deletes it): kept once.
            guard visits > 0 else { return near.counts }
            counts = FacetCounter.counts(column, over: documents.words, from: near.documents, counted: near.counts,
                                         inBatches: countsInBatches(column, visits: visits))
        } else {
            counts = passCounts(column, over: documents, documentCount: documentCount)
        }
        recent.keep(RecentFacetCounts.Entry(path: column.path, documents: documents.words, population: documentCount, counts: counts))
        return counts
    }

    /// `counts` over `base` turned into the counts over `documents`: each document of `base`
    /// not in `documents` taken off, each of `documents` not in `base` added.
    static func counts(_ column: FacetColumn, over documents: [UInt64], from base: [UInt64], counted: [Int], inBatches: Bool) -> [Int] {
        var counts = counted
        if let slots = column.slots {
            documents.withUnsafeBufferPointer { documents in
                base.withUnsafeBufferPointer { base in
                    counts.withUnsafeMutableBufferPointer { counts in
                        slots.add(wordCount: documents.count, step: -1, to: counts, ahead: inBatches) { base[$0] & ~documents[$0] }
                        slots.add(wordCount: documents.count, step: 1, to: counts, ahead: inBatches) { documents[$0] & ~base[$0] }
                    }
                }
            }
            return counts
        }
        guard inBatches else {
            column.docStarts.withUnsafeBufferPointer { starts in
                column.docValues.withUnsafeBufferPointer { values in
                    counts.withUnsafeMutableBufferPointer { counts in
                        documents.withUnsafeBufferPointer { documents in
                            base.withUnsafeBufferPointer { base in
                                for index in 0..<documents.count {
                                    var gone = base[index] & ~documents[index]
                                    var added = documents[index] & ~base[index]
                                    while gone != 0 {
                                        let doc = index << 6 | gone.trailingZeroBitCount
                                        gone &= gone - 1
                                        for i in Int(starts[doc])..<Int(starts[doc + 1]) { counts[Int(values[i])] -= 1 }
                                    }
                                    while added != 0 {
                                        let doc = index << 6 | added.trailingZeroBitCount
                                        added &= added - 1
                                        for i in Int(starts[doc])..<Int(starts[doc + 1]) { counts[Int(values[i])] += 1 }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return counts
        }
        changeInBatches(column, over: documents, from: base, counts: &counts)
        return counts
    }

    /// Counts by a pass over `documents`, or over the others when they are fewer.
    private func passCounts(_ column: FacetColumn, over documents: DocumentSet, documentCount: Int) -> [Int] {
        let total = snapshot.documentCount
        var counts = [Int](repeating: 0, count: column.values.count)
        let countComplement = documentCount > total / 2
        let pass = countComplement ? documents.complement() : documents
        let inBatches = countsInBatches(column, visits: countComplement ? total - documentCount : documentCount)
        if let slots = column.slots {
            pass.words.withUnsafeBufferPointer { words in
                counts.withUnsafeMutableBufferPointer { counts in
                    slots.add(wordCount: words.count, step: 1, to: counts, ahead: inBatches) { words[$0] }
                }
            }
        } else if inBatches {
            FacetCounter.addInBatches(column, of: pass, to: &counts)
        } else {
            column.docStarts.withUnsafeBufferPointer { starts in
                column.docValues.withUnsafeBufferPointer { values in
                    counts.withUnsafeMutableBufferPointer { counts in
                        pass.forEach { doc in
                            for i in Int(starts[doc])..<Int(starts[doc + 1]) { counts[Int(values[i])] += 1 }
                            return true
                        }
                    }
                }
            }
        }
        if countComplement {
            for id in 0..<counts.count { counts[id] = column.count(of: id) - counts[id] }
        }
        return counts
    }

    /// Adds the values of `pass`'s documents to `counts` with a `FacetTally`. Out of line, so
    /// that the one-by-one loops beside its calls compile as they did without it.
    @inline(never)
    private static func addInBatches(_ column: FacetColumn, of pass: DocumentSet, to counts: inout [Int]) {
        column.withTally(into: &counts) { tally in
            pass.forEach { doc in
                tally.add(doc, 1)
                return true
            }
        }
    }

    /// `counts(_:over:from:counted:inBatches:)` with a `FacetTally`, out of line as
    /// `addInBatches` is.
    @inline(never)
    private static func changeInBatches(_ column: FacetColumn, over documents: [UInt64], from base: [UInt64], counts: inout [Int]) {
        column.withTally(into: &counts) { tally in
            documents.withUnsafeBufferPointer { documents in
                base.withUnsafeBufferPointer { base in
                    for index in 0..<documents.count {
                        var gone = base[index] & ~documents[index]
                        var added = documents[index] & ~base[index]
                        while gone != 0 {
                            tally.add(index << 6 | gone.trailingZeroBitCount, -1)
                            gone &= gone - 1
                        }
                        while added != 0 {
                            tally.add(index << 6 | added.trailingZeroBitCount, 1)
                            added &= added - 1
                        }
                    }
                }
            }
        }
    }

    /// The response's `facets` and `facets_stats` for the requested attributes. As in Algolia,
    /// an attribute with no value in `documents` is left out (not an empty object).
    func facets(_ attributes: [String], over documents: DocumentSet, documentCount: Int,
                maxValues: Int, sort: FacetSortOrder) -> (facets: [FacetCounts], stats: [String: FacetStats]) {
        var facets: [FacetCounts] = []
        var stats: [String: FacetStats] = [:]
        for attribute in attributes {
            guard let column = snapshot.facetColumn(attribute) else { continue }
            let counts = counts(column, over: documents, documentCount: documentCount)
            let ids = counts.indices.filter { counts[$0] > 0 }
            guard !ids.isEmpty else { continue }
            let top: [Int]
            switch sort {
            case .count:
                top = FacetCounter.smallest(maxValues, of: ids) {
                    counts[$0] != counts[$1] ? counts[$0] > counts[$1] : column.values.precedes($0, $1)
                }
            case .alpha:
                top = FacetCounter.smallest(maxValues, of: ids) { column.values.precedes($0, $1) }
            }
            facets.append(FacetCounts(attribute: attribute, values: top.map { (value: column.values[$0], count: counts[$0]) }))
            if column.isNumeric {
                stats[attribute] = FacetCounter.stats(ids.map { (column.numbers[$0], counts[$0]) })
            }
        }
        return (facets, stats)
    }

    /// `facets_stats` of a numeric facet from its matched values and their counts.
    static func stats(_ values: [(number: Double, count: Int)]) -> FacetStats {
        var minimum = Double.infinity, maximum = -Double.infinity, sum = 0.0, n = 0
        for (number, count) in values {
            minimum = min(minimum, number)
            maximum = max(maximum, number)
            sum += number * Double(count)
            n += count
        }
        return FacetStats(min: minimum, max: maximum, avg: n > 0 ? sum / Double(n) : 0, sum: sum)
    }

    /// The first `k` elements of `elements` in the order of `areInIncreasingOrder`, sorted,
    /// without sorting them all (a bounded max-heap): a facet with 50,000 distinct prices
    /// needs only its top 100.
    /// - Complexity: O(n log k)
    static func smallest<Element>(_ k: Int, of elements: [Element], by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        guard k > 0 else { return [] }
        guard elements.count > k * 4 else { return Array(elements.sorted(by: areInIncreasingOrder).prefix(k)) }
        // heap[0] is the largest of the k kept so far.
        var heap: [Element] = []
        heap.reserveCapacity(k)
        func siftUp(_ index: Int) {
            var child = index
            while child > 0 {
                let parent = (child - 1) / 2
                guard areInIncreasingOrder(heap[parent], heap[child]) else { return }
                heap.swapAt(parent, child)
                child = parent
            }
        }
        func siftDown(_ index: Int) {
            var parent = index
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < heap.count, areInIncreasingOrder(heap[largest], heap[left]) { largest = left }
                if right < heap.count, areInIncreasingOrder(heap[largest], heap[right]) { largest = right }
                if largest == parent { return }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        for element in elements {
            if heap.count < k {
                heap.append(element)
                siftUp(heap.count - 1)
            } else if areInIncreasingOrder(element, heap[0]) {
                heap[0] = element
                siftDown(0)
            }
        }
        return heap.sorted(by: areInIncreasingOrder)
    }
}

extension FacetColumn {
    /// The bytes a pass over the column reads from: its slots, or its documents' starts and values.
    var byteCount: Int { slots?.bytes.count ?? MemoryLayout<UInt32>.stride * (docStarts.count + docValues.count) }

    /// Calls `body` with a tally that adds to `counts` (value id → count) the values of the
    /// documents it is given, each with its own step (+1 or -1).
    func withTally(into counts: inout [Int], _ body: (inout FacetTally) -> Void) {
        docStarts.withUnsafeBufferPointer { starts in
            docValues.withUnsafeBufferPointer { values in
                counts.withUnsafeMutableBufferPointer { counts in
                    withUnsafeTemporaryAllocation(of: FacetTally.Pending.self, capacity: FacetTally.stages * FacetTally.batchSize) { pending in
                        var tally = FacetTally(starts: starts, values: values, counts: counts, pending: pending)
                        body(&tally)
                        tally.flush()
                    }
                }
            }
        }
    }
}

/// Counts the values of documents read from a facet column, in batches that overlap.
///
/// A large index's column is far larger than the processor's caches, and the documents of a
/// small set are far apart in it: reading one document's values is two waits on memory, one
/// for where its values start, then one for the values. Counted one by one, each document
/// waited for both in turn (at 1M records, the first searches of words with a few thousand
/// records spent a quarter of their time in the facet pass). Here each document's start is
/// asked for when it is added; when the next batch is full, the starts of its batch are read
/// and its values asked for; when the one after is full, it is counted. So the waits of up to
/// three batches overlap. The counts are those of one by one: the same additions in the same
/// order, made later. A tally must not be copied (a copy's documents would not be counted).
struct FacetTally {
    struct Pending {
        var document: Int
        var step: Int
        /// Where its values are in the column's `docValues`, once its start has been read.
        var valueIndices: Range<Int> = 0..<0
    }

    /// Documents in a batch: enough for the waits of a batch to overlap (a core has a
    /// dozen or more reads from memory in flight at a time). Not tuned.
    static let batchSize = 16
    /// The batches held: one filling (its starts asked for), one whose starts were asked for,
    /// one whose values were asked for (counted before its place is filled again).
    static let stages = 3

    /// A column of more bytes than this is counted in batches, a smaller one one document at a
    /// time: it is likely to be in the processor's caches, where batches only add work. At
    /// 100k records (columns of 2 MB at most) counting in batches made a keystroke log 8–12 %
    /// slower in each of three pairs; 1M records make columns of 8 MB and more. 4 MiB is a
    /// value chosen between the two, not measured.
    static let batchedColumnBytes = 4 << 20
    /// A pass that visits more than one document in this many reads the column almost in
    /// order (16 starts share a cache line), which the processor fetches ahead by itself:
    /// such a pass goes one document at a time.
    static let sparseGap = 16

    let starts: UnsafeBufferPointer<UInt32>
    let values: UnsafeBufferPointer<UInt32>
    let counts: UnsafeMutableBufferPointer<Int>
    /// `stages` batches end to end; batch n is at `(n % stages) * batchSize`.
    let pending: UnsafeMutableBufferPointer<Pending>
    /// The batch being filled, and how many documents it holds.
    private var batch = 0
    private var held = 0

    fileprivate init(starts: UnsafeBufferPointer<UInt32>, values: UnsafeBufferPointer<UInt32>,
                     counts: UnsafeMutableBufferPointer<Int>, pending: UnsafeMutableBufferPointer<Pending>) {
        precondition(pending.count >= Self.stages * Self.batchSize)
        self.starts = starts
        self.values = values
        self.counts = counts
        self.pending = pending
    }

    /// Adds `step` to the count of each value of `document` (at the latest when the tally is
    /// flushed).
    @inline(__always)
    mutating func add(_ document: Int, _ step: Int) {
        if let base = starts.baseAddress { cprefetch_read(base + document) }
        pending[(batch % Self.stages) &* Self.batchSize &+ held] = Pending(document: document, step: step)
        held &+= 1
        guard held == Self.batchSize else { return }
        // The batch before this one: its starts have come, its values are asked for; the one
        // before that: its values have come, it is counted (its place is the next batch's).
        if batch >= 1 { requestValues(batch: batch - 1, filled: Self.batchSize) }
        if batch >= 2 { count(batch: batch - 2, filled: Self.batchSize) }
        batch &+= 1
        held = 0
    }

    /// Counts every document added.
    mutating func flush() {
        if batch >= 1 { requestValues(batch: batch - 1, filled: Self.batchSize) }
        if batch >= 2 { count(batch: batch - 2, filled: Self.batchSize) }
        requestValues(batch: batch, filled: held)
        if batch >= 1 { count(batch: batch - 1, filled: Self.batchSize) }
        count(batch: batch, filled: held)
        batch = 0
        held = 0
    }

    /// Reads the starts of a batch's documents (asked for a batch ago) and asks for their values.
    private func requestValues(batch: Int, filled: Int) {
        let first = (batch % Self.stages) * Self.batchSize
        for index in first..<(first + filled) {
            let document = pending[index].document
            let range = Int(starts[document])..<Int(starts[document + 1])
            pending[index].valueIndices = range
            if let base = values.baseAddress { cprefetch_read(base + range.lowerBound) }
        }
    }

    /// Counts a batch's values (asked for a batch ago).
    private func count(batch: Int, filled: Int) {
        let first = (batch % Self.stages) * Self.batchSize
        for index in first..<(first + filled) {
            let step = pending[index].step
            for i in pending[index].valueIndices { counts[Int(values[i])] += step }
        }
    }
}
