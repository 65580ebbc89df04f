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

    /// `column`'s words (separated by single spaces) once each, in the order they first come.
    static func distinctWords(_ column: [UInt8]) -> [UInt8] {
        var seen = Set<ArraySlice<UInt8>>()
        var words: [UInt8] = []
        words.reserveCapacity(column.count)
        for word in column.split(separator: UInt8(ascii: " ")) where seen.insert(word).inserted {
            if !words.isEmpty { words.append(UInt8(ascii: " ")) }
            words.append(contentsOf: word)
        }
        return words
    }
}
