import SearchAPI

// SearchableText: which texts of a record are searched, attribute by attribute.

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
        var scalars: [JSONValue] = []
        for attribute in attributes {
            scalars.removeAll(keepingCapacity: true)
            RecordValues.appendScalars(at: attribute.lookup, in: record, to: &scalars)
            for value in scalars {
                if let text = value.scalarText { body(attribute, text) }
            }
        }
    }
}

extension IndexConfiguration {
    /// How the store makes a record's FTS5 text under these settings: a column per searchable
    /// level, each the level's words folded by the tokenizer (the words the in-memory index
    /// holds, from the same rule), each word once, in the order it first comes.
    ///
    /// Once: a write tokenized for the index stores a word once per column
    /// (`TermCollector.texts`), and this text is what removes a stored row (FTS5's 'delete' of
    /// a contentless row is given the row's columns again). Given its words with their repeats,
    /// SQLite's FTS5 (3.40, `detail = none`) damaged the table a few writes later: the fourth
    /// import of the same 3,291 products failed with "database disk image is malformed".
    var textLayout: RecordStore.TextLayout {
        let configuration = self
        return RecordStore.TextLayout(levelCount: levelCount, separators: separators) { record in
            var columns = [[UInt8]](repeating: [], count: configuration.levelCount)
            SearchableText.forEach(in: record, configuration: configuration) { attribute, text in
                let separators = attribute.splitsCamelCase ? configuration.separators.splittingCamelCase : configuration.separators
                Tokenizer.appendFoldedWords(of: text, separators: separators, to: &columns[attribute.level])
                // A compound's parts are words of the record too (`decompoundedAttributes`).
                if let compounds = attribute.compounds {
                    for word in Tokenizer.words(text, separators: separators) {
                        for part in compounds.parts(of: word) {
                            if !columns[attribute.level].isEmpty { columns[attribute.level].append(UInt8(ascii: " ")) }
                            columns[attribute.level].append(contentsOf: part.utf8)
                        }
                    }
                }
            }
            return TextColumns(record: columns.map(IndexConfiguration.distinctWords))
        }
    }

    /// `column`'s words (separated by spaces) once each, in the order they first come: the
    /// column itself, uncopied, when no word repeats.
    /// - Complexity: O(bytes), a small hash table of the words on the stack.
    static func distinctWords(_ column: [UInt8]) -> [UInt8] {
        column.withUnsafeBufferPointer { bytes -> [UInt8] in
            var wordCount = 1
            for byte in bytes where byte == UInt8(ascii: " ") { wordCount += 1 }
            guard wordCount > 1 else { return column }
            var capacity = 16
            while capacity < 2 * wordCount { capacity <<= 1 }
            // A slot from the hash's high bits: FNV-1a's low bits depend on the bytes' low bits only.
            let shift = UInt64(64 - capacity.trailingZeroBitCount)
            return withUnsafeTemporaryAllocation(of: (hash: UInt64, start: Int, length: Int).self, capacity: capacity) { table in
                table.initialize(repeating: (0, -1, 0))
                defer { table.deinitialize() }
                /// The words kept so far, once a word repeats (until then, the column's prefix).
                var distinct: [UInt8]?
                var start = 0
                while start < bytes.count {
                    var end = start
                    var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a
                    while end < bytes.count, bytes[end] != UInt8(ascii: " ") {
                        hash = (hash ^ UInt64(bytes[end])) &* 0x100_0000_01b3
                        end += 1
                    }
                    defer { start = end + 1 }
                    guard end > start else { continue }
                    var slot = Int(truncatingIfNeeded: hash >> shift)
                    var repeated = false
                    while table[slot].start >= 0 {
                        let seen = table[slot]
                        if seen.hash == hash, seen.length == end - start,
                           (0..<seen.length).allSatisfy({ bytes[seen.start + $0] == bytes[start + $0] }) {
                            repeated = true
                            break
                        }
                        slot = (slot + 1) & (capacity - 1)
                    }
                    if repeated {
                        // Every word before this one was a first: they are the column up to here.
                        if distinct == nil { distinct = Array(bytes[0..<max(0, start - 1)]) }
                        continue
                    }
                    table[slot] = (hash, start, end - start)
                    if distinct != nil {
                        if !distinct!.isEmpty { distinct!.append(UInt8(ascii: " ")) }
                        distinct!.append(contentsOf: bytes[start..<end])
                    }
                }
                return distinct ?? column
            }
        }
    }
}
