import Foundation
import SearchAPI

/// The searchable texts of a record, by attribute: one rule for the in-memory index, the FTS5
/// table and highlighting.
enum SearchableText {
    /// Without `searchableAttributes`: every attribute, at one level, unordered.
    static let anyAttribute = SearchableAttribute(path: "", level: 0, ordered: false)

    /// Calls `body(attribute, text)` for each searchable string or number of the record, the
    /// values of one attribute (array elements, nested values) one after the other.
    static func forEach(in record: JSONObject, configuration: IndexConfiguration, _ body: (SearchableAttribute, String) -> Void) {
        guard let attributes = configuration.searchable else {
            RecordValues.forEachText(in: record) { body(anyAttribute, $0) }
            return
        }
        for attribute in attributes {
            for value in RecordValues.scalars(at: attribute.path, in: record) {
                if let text = value.scalarText { body(attribute, text) }
            }
        }
    }
}

/// Numbers distinct strings in order of first appearance.
struct StringInterner {
    private var ids: [String: UInt32] = [:]
    private(set) var strings: [String] = []

    mutating func id(of string: String) -> UInt32 {
        if let existing = ids[string] { return existing }
        let id = UInt32(strings.count)
        ids[string] = id
        strings.append(string)
        return id
    }
}

/// Numbers distinct byte strings (folded words) in order of first appearance, without making a
/// `String` per occurrence: the bytes are kept once in one buffer and found again through an
/// open-addressing table keyed by their hash. The builder's hot loop: every token of every
/// record passes here.
struct WordInterner {
    private var bytes: [UInt8] = []
    /// `starts[id]..<starts[id + 1]` are word `id`'s bytes.
    private var starts: [UInt32] = [0]
    /// Slot → id + 1 (0: empty); the table stays at most half full.
    private var slots = [UInt32](repeating: 0, count: 1024)
    private var hashes: [UInt32] = []

    var count: Int { starts.count - 1 }

    mutating func id(of word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        // FNV-1a, 32 bits: short words, and a mask of the table's size.
        var hash: UInt32 = 2_166_136_261
        for byte in word { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == hash {
                let start = Int(starts[id]), end = Int(starts[id + 1])
                if end - start == word.count, bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + start, word.baseAddress!, word.count) == 0 }) {
                    return UInt32(id)
                }
            }
            slot = (slot + 1) & mask
        }
        let id = UInt32(count)
        bytes.append(contentsOf: word)
        starts.append(UInt32(bytes.count))
        hashes.append(hash)
        slots[slot] = id + 1
        if count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(id) + 1
        }
    }

    /// The words, in id order.
    var strings: [String] {
        bytes.withUnsafeBufferPointer { buffer in
            (0..<count).map { id in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(starts[id])..<Int(starts[id + 1])]), as: UTF8.self)
            }
        }
    }
}

/// Gives each distinct word a temporary id and collects one document's entries,
/// `id << 32 | rank << 16 | posting mask`: the rank is the level and, in an ordered attribute,
/// the word's position (see `PostingRank`), so after sorting, a term's first entry holds its
/// best occurrence; the mask has the level's bit, and `PostingMask.wholeValue` for the word that
/// makes up a whole attribute value (set by the caller once the text is scanned).
private struct TermCollector: TokenSink {
    var words = WordInterner()
    var entries: [UInt64] = []
    var level = 0
    var ordered = false
    /// The next word's position inside the current attribute (array elements continue it).
    var position = 0
    /// Every document's words in order (temporary ids), each attribute value after its
    /// `ForwardIndex.marker`: the forward index, for proximity.
    var forward: [UInt32] = []
    /// Placeholder synonyms' tags (folded UTF-8), and the UTF-8 of the value being scanned when
    /// it may hold one (`<tag>`), else empty.
    var placeholderTags: Set<[UInt8]> = []
    var placeholderValue: [UInt8] = []

    mutating func token(_ folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        let id: UInt32
        if !placeholderValue.isEmpty, start > 0, end < placeholderValue.count, placeholderValue[start - 1] == UInt8(ascii: "<"),
           placeholderValue[end] == UInt8(ascii: ">"), placeholderTags.contains(Array(folded)) {
            id = Array(SynonymTable.placeholderTerm(String(decoding: folded, as: UTF8.self)).utf8).withUnsafeBufferPointer { words.id(of: $0) }
        } else {
            id = words.id(of: folded)
        }
        let rank = PostingRank.rank(level: level, position: ordered ? position : 0)
        entries.append(UInt64(id) << 32 | UInt64(rank) << 16 | UInt64(PostingMask.bit(forLevel: level)))
        forward.append(id)
        position += 1
    }
}

/// Builds an `IndexSnapshot` from records: tokenizes the searchable attributes, sorts the
/// vocabulary, lays out posting lists, facet columns and numeric columns.
///
/// - Complexity: O(total tokens + n log n) for n records.
enum SnapshotBuilder {
    struct Input: Sendable {
        var rowID: Int64
        var record: JSONObject
    }

    /// From this many records on, the facet, numeric and geo columns are built on a second
    /// thread while the words are tokenized on this one (below it, a thread costs more than it
    /// saves: a write of a few records).
    static let parallelFrom = 500

    static func build(_ inputs: [Input], configuration: IndexConfiguration, generation: Int64) -> IndexSnapshot {
        let (order, sortRuns, orderKeys) = documentOrder(inputs, configuration: configuration)
        let documentCount = order.count
        let columnWork = inputs.count >= parallelFrom
            ? BackgroundWork { columns(inputs, order: order, configuration: configuration) } : nil

        // 1. Tokens per document: (temporary term id, posting mask), one entry per term with the
        //    masks of its occurrences combined.
        var collector = TermCollector()
        collector.placeholderTags = Set(configuration.synonyms.placeholderTags.map { Array($0.utf8) })
        var docStarts: [UInt32] = [0]
        docStarts.reserveCapacity(documentCount + 1)
        var docTerms: [UInt32] = []
        var docMasks: [UInt16] = []
        var docPositions: [UInt16] = []
        var forwardStarts: [UInt32] = [0]
        forwardStarts.reserveCapacity(documentCount + 1)
        for index in order {
            collector.entries.removeAll(keepingCapacity: true)
            var currentPath: String?
            SearchableText.forEach(in: inputs[index].record, configuration: configuration) { attribute, text in
                if attribute.path != currentPath {
                    currentPath = attribute.path
                    collector.position = 0
                }
                collector.level = attribute.level
                collector.ordered = attribute.ordered
                let before = collector.entries.count
                collector.forward.append(ForwardIndex.marker(attribute: attribute.ordinal))
                collector.placeholderValue = !collector.placeholderTags.isEmpty && text.utf8.contains(UInt8(ascii: "<")) ? Array(text.utf8) : []
                Tokenizer.scan(text, separators: configuration.separators, into: &collector)
                if collector.entries.count == before + 1 { collector.entries[before] |= UInt64(PostingMask.wholeValue) }
                if collector.entries.count == before { collector.forward.removeLast() }   // no word: no value
            }
            forwardStarts.append(UInt32(collector.forward.count))
            collector.entries.sort()
            for entry in collector.entries {
                let term = UInt32(entry >> 32)
                let mask = UInt16(entry & 0xFFFF)
                if docTerms.count > Int(docStarts[docStarts.count - 1]), docTerms[docTerms.count - 1] == term {
                    docMasks[docMasks.count - 1] |= mask
                } else {
                    docTerms.append(term)
                    docMasks.append(mask)
                    docPositions.append(PostingRank.position(of: UInt16(truncatingIfNeeded: entry >> 16)))
                }
            }
            docStarts.append(UInt32(docTerms.count))
        }
        var words = collector.words.strings
        var forwardTerms = collector.forward
        collector = TermCollector()

        // 2. Sorted vocabulary and postings (documents are visited in order, so lists come sorted).
        let (terms, finalID) = TermTable.build(words)
        words = []
        forwardTerms.withUnsafeMutableBufferPointer { forward in
            for i in forward.indices where !ForwardIndex.isMarker(forward[i]) { forward[i] = finalID[Int(forward[i])] }
        }
        var postingStarts = [UInt32](repeating: 0, count: terms.count + 1)
        for term in docTerms { postingStarts[Int(finalID[Int(term)]) + 1] += 1 }
        for i in 0..<terms.count { postingStarts[i + 1] += postingStarts[i] }
        var cursor = postingStarts
        var postingDocs = [UInt32](repeating: 0, count: docTerms.count)
        var postingMasks = [UInt16](repeating: 0, count: docTerms.count)
        var postingPositions = [UInt16](repeating: 0, count: docTerms.count)
        for doc in 0..<documentCount {
            for i in Int(docStarts[doc])..<Int(docStarts[doc + 1]) {
                let term = Int(finalID[Int(docTerms[i])])
                let slot = Int(cursor[term])
                postingDocs[slot] = UInt32(doc)
                postingMasks[slot] = docMasks[i]
                postingPositions[slot] = docPositions[i]
                cursor[term] += 1
            }
        }

        // 3. Facet, numeric and geo columns.
        let (facets, numerics, geo) = columnWork?.wait() ?? columns(inputs, order: order, configuration: configuration)

        return IndexSnapshot(configuration: configuration, generation: generation, rowIDs: order.map { inputs[$0].rowID },
                             terms: terms, postingStarts: postingStarts, postingDocs: FlatArray(postingDocs),
                             postingMasks: FlatArray(postingMasks), postingPositions: PostingPositions(dense: postingPositions), sortRuns: sortRuns, forward: ForwardIndex(starts: forwardStarts, terms: FlatArray(forwardTerms)),
                             facets: facets, numerics: numerics, orderKeys: orderKeys, geo: geo)
    }

    /// The columns read from the records' values rather than their words: facets, numbers for
    /// numeric filters, and locations.
    private static func columns(_ inputs: [Input], order: [Int], configuration: IndexConfiguration)
        -> (facets: [FacetColumn], numerics: [String: NumericColumn], geo: GeoIndex) {
        let facets = configuration.facetAttributes.map { attribute in
            buildFacetColumn(attribute.path, inputs: inputs, order: order)
        }

        // Numeric columns, for every path that holds numbers.
        final class NumericColumnBuilder {
            var starts: [UInt32] = [0]
            var values: [Double] = []
            /// Closes the documents before `doc`, so `starts` has an entry per document.
            func advance(to doc: Int) {
                while starts.count <= doc { starts.append(UInt32(values.count)) }
            }
        }
        var numericBuilders: [String: NumericColumnBuilder] = [:]
        for (doc, index) in order.enumerated() {
            RecordValues.forEachNumber(in: inputs[index].record) { path, number in
                let column: NumericColumnBuilder
                if let existing = numericBuilders[path] {
                    column = existing
                } else {
                    column = NumericColumnBuilder()
                    numericBuilders[path] = column
                }
                column.advance(to: doc)
                column.values.append(number)
            }
        }
        var numerics: [String: NumericColumn] = [:]
        for (path, column) in numericBuilders {
            column.advance(to: order.count)
            numerics[path] = NumericColumn(docStarts: column.starts, values: column.values)
        }
        return (facets, numerics, GeoIndex(locations: order.map { GeoPoint.locations(of: inputs[$0].record) }))
    }

    /// Input indices in the document order (`DocumentOrder`: the sort criteria of `ranking`,
    /// `customRanking`, records missing a value last, then insertion order); for a sort replica,
    /// where each run of records with equal sort values starts in that order (plus the record
    /// count at the end); and each document's values of the order's criteria, in that order.
    static func documentOrder(_ inputs: [Input], configuration: IndexConfiguration)
        -> (order: [Int], sortRuns: [UInt32], keys: DocumentOrderKeys) {
        let criteria = configuration.documentOrder
        guard !criteria.isEmpty else {
            return (inputs.indices.sorted { inputs[$0].rowID < inputs[$1].rowID }, [], DocumentOrderKeys([], criteria: 0))
        }
        let keys: [[RankingValue?]] = inputs.map { DocumentOrder.values(of: $0.record, criteria: criteria) }
        let order = inputs.indices.sorted { a, b in
            DocumentOrder.precedes(keys[a], inputs[a].rowID, keys[b], inputs[b].rowID, criteria: criteria)
        }
        let orderedKeys = DocumentOrderKeys(order.map { keys[$0] }, criteria: criteria.count)
        let sortCount = configuration.sortCriteria.count
        guard sortCount > 0 else { return (order, [], orderedKeys) }
        var runs: [UInt32] = []
        for (position, index) in order.enumerated()
        where position == 0 || keys[index][..<sortCount] != keys[order[position - 1]][..<sortCount] {
            runs.append(UInt32(position))
        }
        runs.append(UInt32(order.count))
        return (order, runs, orderedKeys)
    }

    static func buildFacetColumn(_ path: String, inputs: [Input], order: [Int]) -> FacetColumn {
        var interner = StringInterner()
        var docStarts: [UInt32] = [0]
        docStarts.reserveCapacity(order.count + 1)
        var docValues: [UInt32] = []
        var seen: [UInt32] = []
        for index in order {
            seen.removeAll(keepingCapacity: true)
            for scalar in RecordValues.scalars(at: path, in: inputs[index].record) {
                guard let text = scalar.scalarText else { continue }
                let id = interner.id(of: text)
                if !seen.contains(id) { seen.append(id) }  // each value once per record
            }
            docValues.append(contentsOf: seen)
            docStarts.append(UInt32(docValues.count))
        }
        let values = interner.strings
        var valueStarts = [UInt32](repeating: 0, count: values.count + 1)
        for value in docValues { valueStarts[Int(value) + 1] += 1 }
        for i in 0..<values.count { valueStarts[i + 1] += valueStarts[i] }
        var cursor = valueStarts
        var valueDocs = [UInt32](repeating: 0, count: docValues.count)
        for doc in 0..<order.count {
            for i in Int(docStarts[doc])..<Int(docStarts[doc + 1]) {
                let value = Int(docValues[i])
                valueDocs[Int(cursor[value])] = UInt32(doc)
                cursor[value] += 1
            }
        }
        return FacetColumn(path: path, values: values, docStarts: docStarts, docValues: docValues,
                           valueStarts: valueStarts, valueDocs: valueDocs)
    }
}
