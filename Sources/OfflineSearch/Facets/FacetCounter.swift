import SearchAPI

/// Counts facet values over a set of documents from the snapshot's facet columns.
///
/// Three regimes keep large result sets cheap: every document (the stored totals), more than
/// half of them (totals minus the complement's counts), or fewer (a pass over the documents).
struct FacetCounter {
    let snapshot: IndexSnapshot

    /// Count per value id of `column` over `documents`.
    /// - Complexity: O(min(|documents|, n - |documents|) × values per document + n / 64).
    func counts(_ column: FacetColumn, over documents: DocumentSet, documentCount: Int) -> [Int] {
        let total = snapshot.documentCount
        var counts = [Int](repeating: 0, count: column.values.count)
        if documentCount == total {
            for id in 0..<counts.count { counts[id] = column.count(of: id) }
            return counts
        }
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

    /// The response's `facets` and `facets_stats` for the requested attributes.
    func facets(_ attributes: [String], over documents: DocumentSet, documentCount: Int,
                maxValues: Int, sort: FacetSortOrder) -> (facets: [FacetCounts], stats: [String: FacetStats]) {
        var facets: [FacetCounts] = []
        var stats: [String: FacetStats] = [:]
        for attribute in attributes {
            guard let column = snapshot.facetColumn(attribute) else { continue }
            let counts = counts(column, over: documents, documentCount: documentCount)
            var ids = counts.indices.filter { counts[$0] > 0 }
            switch sort {
            case .count:
                ids.sort { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : column.values.precedes($0, $1) }
            case .alpha:
                ids.sort { column.values.precedes($0, $1) }
            }
            facets.append(FacetCounts(attribute: attribute,
                                      values: ids.prefix(maxValues).map { (value: column.values[$0], count: counts[$0]) }))
            if column.isNumeric, !ids.isEmpty {
                var minimum = Double.infinity, maximum = -Double.infinity, sum = 0.0, n = 0
                for id in ids {
                    let number = column.numbers[id]
                    minimum = min(minimum, number)
                    maximum = max(maximum, number)
                    sum += number * Double(counts[id])
                    n += counts[id]
                }
                stats[attribute] = FacetStats(min: minimum, max: maximum, avg: n > 0 ? sum / Double(n) : 0, sum: sum)
            }
        }
        return (facets, stats)
    }
}
