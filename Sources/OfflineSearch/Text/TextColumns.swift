/// Records' FTS5 text columns (each record's folded words per searchable level, joined by
/// single spaces, as `RecordStore` stores them), in one buffer for a whole batch of records.
///
/// Gathered while the records are tokenized, a word at a time: a column per record and level
/// as an array of its own grew by doubling, word after word, and that reallocation was about a
/// twentieth of an import's CPU (measured). Here each column is gathered in a buffer kept from
/// record to record, then copied once into the batch's buffer.
struct TextColumns: Sendable {
    let levelCount: Int
    /// Every record's columns, one after the other.
    private var bytes: [UInt8] = []
    /// `ends[record * levelCount + level]`: where that column ends in `bytes` (it starts where
    /// the one before ends).
    private var ends: [Int] = []
    /// The record being gathered, per level.
    private var pending: [[UInt8]]
    /// How many records were ended.
    private(set) var count = 0

    init(levelCount: Int) {
        self.levelCount = levelCount
        pending = Array(repeating: [], count: levelCount)
    }

    /// One record's columns, as `Tokenizer.appendFoldedWords` gives them.
    init(record columns: [[UInt8]]) {
        self.init(levelCount: columns.count)
        for column in columns {
            bytes.append(contentsOf: column)
            ends.append(bytes.count)
        }
        count = 1
    }

    /// Adds a word to the current record's column at `level`.
    mutating func append(word: UnsafeBufferPointer<UInt8>, level: Int) {
        if !pending[level].isEmpty { pending[level].append(UInt8(ascii: " ")) }
        pending[level].append(contentsOf: word)
    }

    /// Ends the current record: its columns are what was appended since the last record ended.
    mutating func endRecord() {
        for level in 0..<levelCount {
            bytes.append(contentsOf: pending[level])
            ends.append(bytes.count)
            pending[level].removeAll(keepingCapacity: true)
        }
        count += 1
    }

    /// Calls `body(level, text)` for each of record `record`'s columns.
    func forEachColumn<E: Error>(ofRecord record: Int, _ body: (Int, UnsafeBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
        precondition(record >= 0 && record < count, "record \(record) of \(count)")
        try bytes.withUnsafeBufferPointer { (all: UnsafeBufferPointer<UInt8>) throws(E) in
            for level in 0..<levelCount {
                let index = record * levelCount + level
                let start = index == 0 ? 0 : ends[index - 1]
                try body(level, UnsafeBufferPointer(rebasing: all[start..<ends[index]]))
            }
        }
    }
}
