/// The vocabulary: every indexed word once, sorted by its UTF-8 bytes, so the words that start
/// with a prefix form one contiguous range of term ids. Stored as one byte buffer plus offsets
/// (no per-word objects), which keeps it compact and quick to load.
struct TermTable: Sendable {
    let bytes: [UInt8]
    /// `starts[i]..<starts[i + 1]` are the bytes of term `i`; `count + 1` entries.
    let starts: [UInt32]

    var count: Int { starts.count - 1 }

    init(bytes: [UInt8], starts: [UInt32]) {
        self.bytes = bytes
        self.starts = starts
    }

    /// Builds the table from distinct words, returning the table and, for each input word,
    /// its term id.
    static func build(_ words: [String]) -> (TermTable, [UInt32]) {
        let utf8 = words.map { Array($0.utf8) }
        let order = utf8.indices.sorted { utf8[$0].lexicographicallyPrecedes(utf8[$1]) }
        var bytes: [UInt8] = []
        var starts: [UInt32] = [0]
        starts.reserveCapacity(words.count + 1)
        var idOf = [UInt32](repeating: 0, count: words.count)
        for (rank, index) in order.enumerated() {
            bytes.append(contentsOf: utf8[index])
            starts.append(UInt32(bytes.count))
            idOf[index] = UInt32(rank)
        }
        return (TermTable(bytes: bytes, starts: starts), idOf)
    }

    func term(_ id: Int) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(starts[id])..<Int(starts[id + 1])]), as: UTF8.self)
        }
    }

    /// Compares term `id` with `key`: negative, zero or positive. When `prefixOnly`, a term
    /// that starts with `key` compares equal.
    @inline(__always)
    private func compare(_ id: Int, _ key: UnsafeBufferPointer<UInt8>, _ buffer: UnsafeBufferPointer<UInt8>, prefixOnly: Bool) -> Int {
        let start = Int(starts[id])
        let end = Int(starts[id + 1])
        let length = end - start
        let shared = min(length, key.count)
        for i in 0..<shared {
            let a = buffer[start + i]
            let b = key[i]
            if a != b { return a < b ? -1 : 1 }
        }
        if length == key.count { return 0 }
        if length < key.count { return -1 }
        return prefixOnly ? 0 : 1
    }

    /// The id of exactly `word`, if indexed.
    /// - Complexity: O(log n · |word|)
    func id(of word: String) -> Int? {
        // One search, for the first term not before the word: it is the word or none is (a
        // request looks up each plural form of its new words, dozens with every language's).
        func find(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
            bytes.withUnsafeBufferPointer { buffer in
                let low = lowerBound(key, buffer, prefixOnly: false)
                return low < count && compare(low, key, buffer, prefixOnly: false) == 0 ? low : nil
            }
        }
        if let found = word.utf8.withContiguousStorageIfAvailable(find) { return found }
        return Array(word.utf8).withUnsafeBufferPointer(find)
    }

    /// The ids of the words that start with `prefix`.
    /// - Complexity: O(log n · |prefix|)
    func ids(withPrefix prefix: String) -> Range<Int> {
        range(prefix, prefixOnly: true)
    }

    /// The id past the run of terms that start with the same `length` bytes as term `id`
    /// (`length` at most that term's length). Found by galloping from `id`: a run of r terms
    /// costs O(log r) comparisons of `length` bytes, however large the table.
    func endOfRun(sharingPrefixOf id: Int, length: Int) -> Int {
        endOfRun(from: id) { bytes, prefixStart, start, end in
            guard end - start >= length else { return false }
            for i in 0..<length where bytes[start + i] != bytes[prefixStart + i] { return false }
            return true
        }
    }

    /// The id past the run of terms that start with the same `length` bytes as term `id` and
    /// go on with a byte below `byte` (term `id` must be one of them): the first term from `id`
    /// on that no longer starts with those bytes, or goes on with `byte` or above. Sorted by
    /// bytes, such terms come first among the terms from `id` on that share the prefix.
    /// - Complexity: O(log r) comparisons of `length + 1` bytes for a run of r terms.
    func endOfRun(sharingPrefixOf id: Int, length: Int, nextByteBelow byte: UInt8) -> Int {
        endOfRun(from: id) { bytes, prefixStart, start, end in
            guard end - start > length, bytes[start + length] < byte else { return false }
            for i in 0..<length where bytes[start + i] != bytes[prefixStart + i] { return false }
            return true
        }
    }

    /// The id past the run from `id` of terms for which `belongs` holds: `belongs` holds for
    /// `id` and, once it fails, fails for every later term. It is given the table's bytes, where
    /// term `id`'s bytes start, and the range of the bytes of the term it is asked about.
    /// Found by galloping from `id`.
    @inline(__always)
    private func endOfRun(from id: Int, where belongs: (_ bytes: UnsafeBufferPointer<UInt8>, _ prefixStart: Int,
                                                        _ start: Int, _ end: Int) -> Bool) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                let prefixStart = Int(starts[id])
                func shares(_ other: Int) -> Bool { belongs(bytes, prefixStart, Int(starts[other]), Int(starts[other + 1])) }
                // `low` belongs; `high` does not, or is the end of the table.
                var low = id
                var step = 1
                var high = id + 1
                while high < count, shares(high) {
                    low = high
                    step <<= 1
                    high = id + step
                }
                high = min(high, count)
                while high - low > 1 {
                    let middle = (low + high) >> 1
                    if shares(middle) { low = middle } else { high = middle }
                }
                return high
            }
        }
    }

    /// The first term that `compare` does not put before `key`.
    @inline(__always)
    private func lowerBound(_ key: UnsafeBufferPointer<UInt8>, _ buffer: UnsafeBufferPointer<UInt8>, prefixOnly: Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) >> 1
            if compare(mid, key, buffer, prefixOnly: prefixOnly) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func range(_ word: String, prefixOnly: Bool) -> Range<Int> {
        range(Array(word.utf8), prefixOnly: prefixOnly)
    }

    private func range(_ key: [UInt8], prefixOnly: Bool) -> Range<Int> {
        key.withUnsafeBufferPointer { key in
            bytes.withUnsafeBufferPointer { buffer in
                var low = lowerBound(key, buffer, prefixOnly: prefixOnly)
                let lower = low
                var high = count
                while low < high {
                    let mid = (low + high) >> 1
                    if compare(mid, key, buffer, prefixOnly: prefixOnly) <= 0 { low = mid + 1 } else { high = mid }
                }
                return lower..<low
            }
        }
    }
}
