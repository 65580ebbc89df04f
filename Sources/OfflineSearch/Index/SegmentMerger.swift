import Foundation
import SearchAPI

/// Merges the live documents of segments into one snapshot from what they laid out, the way
/// Lucene merges segments: the document order by merging the segments' orders, the vocabulary by
/// merging their sorted term tables, each posting list by merging the segments' lists (each
/// already in document order), the forward index and the columns copied document by document.
/// No record is read or tokenized again, and nothing per document is kept besides the result:
/// O(postings) time, the memory of the snapshot made. The result is byte for byte the snapshot
/// the live documents' records would build (`SegmentMergeTests`).
enum SegmentMerger {
    /// The segments' live documents (their `live` sets) in one snapshot.
    static func merge(_ sources: [IndexState.Segment], configuration: IndexConfiguration, generation: Int64) -> IndexSnapshot {
        let order = documentOrder(sources, configuration: configuration)
        // Each source document's new number (`.max`: not kept).
        var newDocument = sources.map { [UInt32](repeating: .max, count: $0.snapshot.documentCount) }
        for (position, entry) in order.enumerated() { newDocument[entry.source][entry.document] = UInt32(position) }

        let words = mergedPostings(sources, newDocument: newDocument)
        var forwardStarts: [UInt32] = [0]
        forwardStarts.reserveCapacity(order.count + 1)
        var forwardTerms: [UInt32] = []
        forwardTerms.reserveCapacity(sources.reduce(0) { $0 + $1.snapshot.forward.terms.count })
        // Per source, hoisted out of the loops over documents (a struct taken from an array per
        // document retains each of its arrays).
        let forwards = sources.map(\.snapshot.forward)
        for entry in order {
            let forward = forwards[entry.source].terms
            let start = Int(forwards[entry.source].starts[entry.document]), end = Int(forwards[entry.source].starts[entry.document + 1])
            for i in start..<end {
                let term = forward[i]
                forwardTerms.append(ForwardIndex.isMarker(term) ? term : words.termIDs[entry.source][Int(term)])
            }
            forwardStarts.append(UInt32(forwardTerms.count))
        }
        let orderKeys = mergedOrderKeys(sources, order: order, criteria: configuration.documentOrder.count)
        let geos = sources.map(\.snapshot.geo)
        return IndexSnapshot(configuration: configuration, generation: generation,
                             rowIDs: order.map { sources[$0.source].snapshot.rowIDs[$0.document] },
                             terms: words.terms, postingStarts: words.postingStarts, postingDocs: FlatArray(words.postingDocs),
                             postingMasks: FlatArray(words.postingMasks), postingPositions: PostingPositions(dense: words.postingPositions),
                             sortRuns: orderKeys.sortRuns(sortCount: configuration.sortCriteria.count),
                             forward: ForwardIndex(starts: forwardStarts, terms: FlatArray(forwardTerms)),
                             facets: mergedFacets(sources, order: order, configuration: configuration),
                             numerics: mergedNumerics(sources, order: order), orderKeys: orderKeys,
                             geo: GeoIndex(locations: order.map { entry in
                                 guard !geos[entry.source].docStarts.isEmpty else { return [] }
                                 return (Int(geos[entry.source].docStarts[entry.document])..<Int(geos[entry.source].docStarts[entry.document + 1]))
                                     .compactMap { GeoPoint(lat: geos[entry.source].lats[$0], lng: geos[entry.source].lngs[$0]) }
                             }))
    }

    struct Entry {
        var source: Int
        var document: Int
    }

    /// The kept documents of every source in the document order (`DocumentOrder`). Each source
    /// is in that order already: the largest is taken whole and each other's documents are
    /// placed into it by binary search, then merged in one pass.
    static func documentOrder(_ sources: [IndexState.Segment], configuration: IndexConfiguration) -> [Entry] {
        let criteria = configuration.documentOrder
        func kept(_ source: Int) -> [Entry] {
            let live = sources[source].live
            return (0..<sources[source].snapshot.documentCount).filter { live?.contains($0) ?? true }.map { Entry(source: source, document: $0) }
        }
        func precedes(_ a: Entry, _ b: Entry) -> Bool {
            if a.source == b.source { return a.document < b.document }
            let x = sources[a.source].snapshot, y = sources[b.source].snapshot
            if criteria.isEmpty { return x.rowIDs[a.document] < y.rowIDs[b.document] }
            return DocumentOrder.precedes(x.orderKeys.values(of: a.document), x.rowIDs[a.document],
                                          y.orderKeys.values(of: b.document), y.rowIDs[b.document], criteria: criteria)
        }
        let bySize = sources.indices.sorted { sources[$0].snapshot.documentCount > sources[$1].snapshot.documentCount }
        guard let largest = bySize.first else { return [] }
        var order = kept(largest)
        for source in bySize.dropFirst() {
            let incoming = kept(source)
            guard !incoming.isEmpty else { continue }
            // Where each incoming document goes: nondecreasing, as the incoming are in order.
            var merged: [Entry] = []
            merged.reserveCapacity(order.count + incoming.count)
            var next = 0
            for entry in incoming {
                let position = next + IndexState.partition(order.count - next) { precedes(order[next + $0], entry) }
                merged.append(contentsOf: order[next..<position])
                merged.append(entry)
                next = position
            }
            merged.append(contentsOf: order[next...])
            order = merged
        }
        return order
    }

    struct Words {
        var terms: TermTable
        /// Per source, its term ids as the merged snapshot's (`.max`: no posting kept).
        var termIDs: [[UInt32]]
        var postingStarts: [UInt32]
        var postingDocs: [UInt32]
        var postingMasks: [UInt16]
        var postingPositions: [UInt16]
    }

    /// The merged vocabulary (the words of kept documents only, sorted) and posting lists.
    static func mergedPostings(_ sources: [IndexState.Segment], newDocument: [[UInt32]]) -> Words {
        let tables = sources.map(\.snapshot.terms)
        var termIDs = tables.map { [UInt32](repeating: .max, count: $0.count) }
        var bytes: [UInt8] = [], starts: [UInt32] = [0]
        var postingStarts: [UInt32] = [0]
        let total = sources.reduce(0) { $0 + $1.snapshot.postingDocs.count }
        var docs: [UInt32] = [], masks: [UInt16] = [], positions: [UInt16] = []
        docs.reserveCapacity(total)
        masks.reserveCapacity(total)
        positions.reserveCapacity(total)
        var heads = [Int](repeating: 0, count: sources.count)
        // One word's postings per source, mapped to the new documents: (doc, mask, position).
        var lists: [[(UInt32, UInt16, UInt16)]] = Array(repeating: [], count: sources.count)
        // The tables' bytes, copied where pointers to them stay valid throughout.
        let tableBytes = tables.map { table in
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, table.bytes.count))
            _ = copy.initialize(from: table.bytes)
            return UnsafeBufferPointer(copy)
        }
        defer { for buffer in tableBytes { buffer.deallocate() } }
        func word(_ source: Int, _ term: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: tableBytes[source][Int(tables[source].starts[term])..<Int(tables[source].starts[term + 1])])
        }
        // A term's postings of kept documents, as (new document, mask, position).
        func forEachKeptPosting(of source: Int, term: Int, _ body: (UInt32, UInt16, UInt16) -> Void) {
            let snapshot = sources[source].snapshot
            for posting in Int(snapshot.postingStarts[term])..<Int(snapshot.postingStarts[term + 1]) {
                let document = newDocument[source][Int(snapshot.postingDocs[posting])]
                guard document != .max else { continue }
                body(document, snapshot.postingMasks[posting], snapshot.postingPositions.position(ofPosting: posting))
            }
        }
        var holders: [Int] = []
        var cursors = [Int](repeating: 0, count: sources.count)
        while true {
            // The smallest word among the sources' next ones, and which sources have it.
            var smallest: (source: Int, term: Int)?
            holders.removeAll(keepingCapacity: true)
            for source in sources.indices where heads[source] < tables[source].count {
                let term = heads[source]
                let comparison = smallest.map { compare(word(source, term), word($0.source, $0.term)) } ?? -1
                if comparison < 0 {
                    smallest = (source, term)
                    holders.removeAll(keepingCapacity: true)
                    holders.append(source)
                } else if comparison == 0 {
                    holders.append(source)
                }
            }
            guard let smallest else { break }
            let before = docs.count
            if holders.count == 1 {
                // Most words: one source's list, already in the new order.
                forEachKeptPosting(of: holders[0], term: smallest.term) { document, mask, position in
                    docs.append(document)
                    masks.append(mask)
                    positions.append(position)
                }
            } else {
                for source in holders {
                    lists[source].removeAll(keepingCapacity: true)
                    forEachKeptPosting(of: source, term: heads[source]) { lists[source].append(($0, $1, $2)) }
                    cursors[source] = 0
                }
                // Each list is in the new order: merge them.
                while true {
                    var pick: Int?
                    for source in holders where cursors[source] < lists[source].count {
                        if pick == nil || lists[source][cursors[source]].0 < lists[pick!][cursors[pick!]].0 { pick = source }
                    }
                    guard let pick else { break }
                    let (document, mask, position) = lists[pick][cursors[pick]]
                    docs.append(document)
                    masks.append(mask)
                    positions.append(position)
                    cursors[pick] += 1
                }
            }
            if docs.count > before {
                // Kept: a word of some kept document.
                let id = UInt32(starts.count - 1)
                bytes.append(contentsOf: word(smallest.source, smallest.term))
                starts.append(UInt32(bytes.count))
                postingStarts.append(UInt32(docs.count))
                for source in holders { termIDs[source][heads[source]] = id }
            }
            for source in holders { heads[source] += 1 }
        }
        return Words(terms: TermTable(bytes: bytes, starts: starts), termIDs: termIDs, postingStarts: postingStarts,
                     postingDocs: docs, postingMasks: masks, postingPositions: positions)
    }

    /// Compares byte strings as `TermTable` orders them.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let shared = min(a.count, b.count)
        if shared > 0 {
            let result = memcmp(a.baseAddress!, b.baseAddress!, shared)
            if result != 0 { return Int(result) }
        }
        return a.count - b.count
    }

    /// Each facet column, its value ids numbered in order of first appearance in the documents.
    static func mergedFacets(_ sources: [IndexState.Segment], order: [Entry], configuration: IndexConfiguration) -> [FacetColumn] {
        configuration.facetAttributes.indices.map { f in
            let columns = sources.map { $0.snapshot.facets[f] }
            let docStartsOf = columns.map(\.docStarts), docValuesOf = columns.map(\.docValues)
            var ids = columns.map { [UInt32](repeating: .max, count: $0.values.count) }
            var idOfValue: [String: UInt32] = [:]
            var values: [String] = []
            var docStarts: [UInt32] = [0]
            docStarts.reserveCapacity(order.count + 1)
            var docValues: [UInt32] = []
            for entry in order {
                let starts = docStartsOf[entry.source]
                for i in Int(starts[entry.document])..<Int(starts[entry.document + 1]) {
                    let value = Int(docValuesOf[entry.source][i])
                    if ids[entry.source][value] == .max {
                        let text = columns[entry.source].values[value]
                        if let known = idOfValue[text] {
                            ids[entry.source][value] = known
                        } else {
                            let id = UInt32(values.count)
                            idOfValue[text] = id
                            values.append(text)
                            ids[entry.source][value] = id
                        }
                    }
                    docValues.append(ids[entry.source][value])
                }
                docStarts.append(UInt32(docValues.count))
            }
            return FacetColumn(path: configuration.facetAttributes[f].path, values: values, docStarts: docStarts, docValues: docValues)
        }
    }

    /// Each numeric path's values per document; a path no kept document has is left out.
    static func mergedNumerics(_ sources: [IndexState.Segment], order: [Entry]) -> [String: NumericColumn] {
        let paths = Set(sources.flatMap { $0.snapshot.numerics.keys })
        var columns: [String: NumericColumn] = [:]
        for path in paths {
            let startsOf = sources.map { $0.snapshot.numerics[path]?.docStarts ?? [] }
            let valuesOf = sources.map { $0.snapshot.numerics[path]?.values ?? [] }
            var docStarts: [UInt32] = [0]
            docStarts.reserveCapacity(order.count + 1)
            var values: [Double] = []
            for entry in order {
                if !startsOf[entry.source].isEmpty {
                    let start = Int(startsOf[entry.source][entry.document]), end = Int(startsOf[entry.source][entry.document + 1])
                    values.append(contentsOf: valuesOf[entry.source][start..<end])
                }
                docStarts.append(UInt32(values.count))
            }
            if !values.isEmpty { columns[path] = NumericColumn(docStarts: docStarts, values: values) }
        }
        return columns
    }

    /// The documents' values of the document order's criteria (texts kept for a criterion
    /// only when a kept document has a text value for it, as `DocumentOrderKeys` builds them).
    static func mergedOrderKeys(_ sources: [IndexState.Segment], order: [Entry], criteria: Int) -> DocumentOrderKeys {
        var kinds = [[UInt8]](repeating: [], count: criteria)
        var numbers = [[Double]](repeating: [], count: criteria)
        var texts: [StringTable] = []
        let keysOf = sources.map(\.snapshot.orderKeys)
        for c in 0..<criteria {
            let kindsOf = keysOf.map { $0.kinds[c] }, numbersOf = keysOf.map { $0.numbers[c] }
            kinds[c].reserveCapacity(order.count)
            numbers[c].reserveCapacity(order.count)
            var hasText = false
            for entry in order {
                let kind = kindsOf[entry.source][entry.document]
                kinds[c].append(kind)
                numbers[c].append(numbersOf[entry.source][entry.document])
                if kind == 2 { hasText = true }
            }
            texts.append(StringTable(hasText ? order.map { entry in
                kindsOf[entry.source][entry.document] == 2 ? keysOf[entry.source].texts[c][entry.document] : ""
            } : []))
        }
        return DocumentOrderKeys(kinds: kinds, numbers: numbers, texts: texts)
    }
}
