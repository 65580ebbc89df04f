import SearchAPI

/// Counts facet values over a set of documents from the snapshot's facet columns.
///
/// Three regimes keep large result sets cheap: every document (the stored totals), more than
/// half of them (totals minus the complement's counts), or fewer (a pass over the documents).
struct FacetCounter {
    let snapshot: IndexSnapshot

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
            counts = FacetCounter.counts(column, over: documents.words, from: near.documents, counted: near.counts)
        } else {
            counts = passCounts(column, over: documents, documentCount: documentCount)
        }
        recent.keep(RecentFacetCounts.Entry(path: column.path, documents: documents.words, population: documentCount, counts: counts))
        return counts
    }

    /// `counts` over `base` turned into the counts over `documents`: each document of `base`
    /// not in `documents` taken off, each of `documents` not in `base` added.
    static func counts(_ column: FacetColumn, over documents: [UInt64], from base: [UInt64], counted: [Int]) -> [Int] {
        var counts = counted
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

    /// Counts by a pass over `documents`, or over the others when they are fewer.
    private func passCounts(_ column: FacetColumn, over documents: DocumentSet, documentCount: Int) -> [Int] {
        let total = snapshot.documentCount
        var counts = [Int](repeating: 0, count: column.values.count)
        let countComplement = documentCount > total / 2
        let pass = countComplement ? documents.complement() : documents
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
        if countComplement {
            for id in 0..<counts.count { counts[id] = column.count(of: id) - counts[id] }
        }
        return counts
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
