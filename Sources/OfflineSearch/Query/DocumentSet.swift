/// A set of documents (dense ordinals 0..<capacity) as a bitmap: the currency of the query
/// pipeline. Words, filters and ranking tiers are all sets combined with AND, OR and NOT.
struct DocumentSet: Sendable, Equatable {
    private(set) var words: [UInt64]
    let capacity: Int

    init(capacity: Int, full: Bool = false) {
        self.capacity = capacity
        let count = (capacity + 63) >> 6
        words = Array(repeating: full ? ~0 : 0, count: count)
        if full { clearTail() }
    }

    private mutating func clearTail() {
        let extra = capacity & 63
        if extra != 0, !words.isEmpty { words[words.count - 1] &= (1 << UInt64(extra)) - 1 }
    }

    /// A set over the given bitmap words (`capacity` documents).
    init(capacity: Int, words: [UInt64]) {
        self.capacity = capacity
        self.words = words
    }

    @inline(__always) mutating func insert(_ doc: Int) {
        words[doc >> 6] |= 1 << UInt64(doc & 63)
    }

    @inline(__always) mutating func remove(_ doc: Int) {
        words[doc >> 6] &= ~(1 << UInt64(doc & 63))
    }

    @inline(__always) func contains(_ doc: Int) -> Bool {
        words[doc >> 6] & (1 << UInt64(doc & 63)) != 0
    }

    /// Adds every document of a sorted posting list.
    mutating func insert<C: Collection>(contentsOf docs: C) where C.Element == UInt32 {
        words.withUnsafeMutableBufferPointer { bits in
            for doc in docs { bits[Int(doc >> 6)] |= 1 << UInt64(doc & 63) }
        }
    }

    /// - Complexity: O(capacity / 64)
    var count: Int { words.withUnsafeBufferPointer { $0.populationCount } }

    /// Eight words are tested at a time (one test of their OR): an empty set is read whole.
    var isEmpty: Bool {
        words.withUnsafeBufferPointer { bits in
            var index = 0
            while index &+ 8 <= bits.count {
                let any = bits[index] | bits[index &+ 1] | bits[index &+ 2] | bits[index &+ 3]
                    | bits[index &+ 4] | bits[index &+ 5] | bits[index &+ 6] | bits[index &+ 7]
                if any != 0 { return false }
                index &+= 8
            }
            while index < bits.count {
                if bits[index] != 0 { return false }
                index &+= 1
            }
            return true
        }
    }

    /// The number of documents in `range`.
    /// - Complexity: O(range.count / 64 + 1)
    func count(in range: Range<Int>) -> Int {
        let lower = max(0, range.lowerBound), upper = min(range.upperBound, words.count << 6)
        guard lower < upper else { return 0 }
        let first = lower >> 6, last = (upper - 1) >> 6
        var total = 0
        for index in first...last {
            var word = words[index]
            if index == first { word &= UInt64.max << UInt64(lower & 63) }
            if index == last, upper & 63 != 0 { word &= (1 << UInt64(upper & 63)) - 1 }
            total += word.nonzeroBitCount
        }
        return total
    }

    /// The number of documents below `position`.
    /// - Complexity: O(position / 64)
    func count(below position: Int) -> Int {
        let whole = min(position >> 6, words.count)
        var total = words.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[..<whole]).populationCount }
        if whole < words.count, position & 63 != 0 {
            total += (words[whole] & ((1 << UInt64(position & 63)) - 1)).nonzeroBitCount
        }
        return total
    }

    /// The first document at or after `position`, nil when there is none.
    /// - Complexity: O(gap / 64)
    func first(from position: Int) -> Int? {
        guard position < capacity else { return nil }
        var index = position >> 6
        var word = words[index] & (~0 << UInt64(position & 63))
        while word == 0 {
            index += 1
            guard index < words.count else { return nil }
            word = words[index]
        }
        return index << 6 | word.trailingZeroBitCount
    }

    mutating func formIntersection(_ other: DocumentSet) {
        words.withUnsafeMutableBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                for i in 0..<a.count { a[i] &= b[i] }
            }
        }
    }

    mutating func formUnion(_ other: DocumentSet) {
        words.withUnsafeMutableBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                for i in 0..<a.count { a[i] |= b[i] }
            }
        }
    }

    mutating func subtract(_ other: DocumentSet) {
        words.withUnsafeMutableBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                for i in 0..<a.count { a[i] &= ~b[i] }
            }
        }
    }

    // The new sets are written word by word into fresh storage: a copy of `self` changed in
    // place copied every word first (a copy-on-write of the bitmap: 4 % of a keystroke log's
    // instructions, most of them in the ranking's splits, callgrind), then passed over them again.
    func intersection(_ other: DocumentSet) -> DocumentSet { combined(with: other) { $0 & $1 } }
    func union(_ other: DocumentSet) -> DocumentSet { combined(with: other) { $0 | $1 } }
    func subtracting(_ other: DocumentSet) -> DocumentSet { combined(with: other) { $0 & ~$1 } }

    /// The documents in both sets, or nil when there are none: no storage is made for an
    /// empty intersection, which the ranking's splits meet often and throw away.
    func nonEmptyIntersection(_ other: DocumentSet) -> DocumentSet? {
        let count = words.count
        // The first block of eight words the sets share a document in (eight at a time, as
        // `isEmpty` reads): the words before it are all zero in the intersection.
        let first = words.withUnsafeBufferPointer { a in
            other.words.withUnsafeBufferPointer { b -> Int? in
                var index = 0
                while index &+ 8 <= count {
                    var any: UInt64 = 0
                    for i in index..<(index &+ 8) { any |= a[i] & b[i] }
                    if any != 0 { return index }
                    index &+= 8
                }
                while index < count {
                    if a[index] & b[index] != 0 { return index }
                    index &+= 1
                }
                return nil
            }
        }
        guard let first else { return nil }
        let result = words.withUnsafeBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
                    for i in 0..<first { buffer.initializeElement(at: i, to: 0) }
                    for i in first..<count { buffer.initializeElement(at: i, to: a[i] & b[i]) }
                    initialized = count
                }
            }
        }
        return DocumentSet(capacity: capacity, words: result)
    }

    /// Adds the documents of `a` that are in `b`: `formUnion(a.intersection(b))` without
    /// making the intersection.
    mutating func formUnion(_ a: DocumentSet, intersectedWith b: DocumentSet) {
        formUnion(a, b) { $0 & $1 }
    }

    /// Adds the documents of `a` that are not in `b`: `formUnion(a.subtracting(b))` without
    /// making the difference.
    mutating func formUnion(_ a: DocumentSet, subtracting b: DocumentSet) {
        formUnion(a, b) { $0 & ~$1 }
    }

    @inline(__always)
    private mutating func formUnion(_ a: DocumentSet, _ b: DocumentSet, _ operation: (UInt64, UInt64) -> UInt64) {
        words.withUnsafeMutableBufferPointer { result in
            a.words.withUnsafeBufferPointer { a in
                b.words.withUnsafeBufferPointer { b in
                    for i in 0..<result.count { result[i] |= operation(a[i], b[i]) }
                }
            }
        }
    }

    /// Whether every document of this set is in `other` (no set made).
    func isSubset(of other: DocumentSet) -> Bool {
        words.withUnsafeBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                for i in 0..<a.count where a[i] & ~b[i] != 0 { return false }
                return true
            }
        }
    }

    /// The documents not in this set.
    func complement() -> DocumentSet {
        var result = combined(with: self) { a, _ in ~a }
        result.clearTail()
        return result
    }

    /// The set whose each word is `operation` of this set's word and `other`'s.
    @inline(__always)
    private func combined(with other: DocumentSet, _ operation: (UInt64, UInt64) -> UInt64) -> DocumentSet {
        let count = words.count
        let result = words.withUnsafeBufferPointer { a in
            other.words.withUnsafeBufferPointer { b in
                [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
                    for i in 0..<count { buffer.initializeElement(at: i, to: operation(a[i], b[i])) }
                    initialized = count
                }
            }
        }
        return DocumentSet(capacity: capacity, words: result)
    }

    /// Calls `body` with each document in increasing order; `body` returns false to stop.
    func forEach(_ body: (Int) -> Bool) {
        words.withUnsafeBufferPointer { bits in
            for index in 0..<bits.count {
                var word = bits[index]
                while word != 0 {
                    let bit = word.trailingZeroBitCount
                    if !body(index << 6 | bit) { return }
                    word &= word &- 1
                }
            }
        }
    }

    /// The documents in `range`, in increasing order.
    /// - Complexity: O(range / 64 + documents found).
    func elements(in range: Range<Int>) -> [Int] {
        var result: [Int] = []
        guard !range.isEmpty else { return result }
        words.withUnsafeBufferPointer { bits in
            for index in (range.lowerBound >> 6)...((range.upperBound - 1) >> 6) {
                var word = bits[index]
                while word != 0 {
                    let document = index << 6 | word.trailingZeroBitCount
                    word &= word &- 1
                    if range.contains(document) { result.append(document) }
                }
            }
        }
        return result
    }

    /// Documents in increasing order, skipping the first `skip`, at most `limit` of them.
    func elements(skip: Int, limit: Int) -> [Int] {
        var result: [Int] = []
        guard limit > 0 else { return result }
        var remainingSkip = skip
        words.withUnsafeBufferPointer { bits in
            for index in 0..<bits.count {
                var word = bits[index]
                // Whole words are skipped by their counts; a page from the first needs none.
                if remainingSkip > 0 {
                    let population = word.nonzeroBitCount
                    if remainingSkip >= population { remainingSkip -= population; continue }
                }
                while word != 0 {
                    let bit = word.trailingZeroBitCount
                    word &= word &- 1
                    if remainingSkip > 0 { remainingSkip -= 1; continue }
                    result.append(index << 6 | bit)
                    if result.count == limit { return }
                }
            }
        }
        return result
    }
}

extension UnsafeBufferPointer<UInt64> {
    /// How many bits are set in the words. (Summed with wrapping adds, which cannot overflow
    /// here: the loop is then vectorized, two words at a time, where a checked sum counted one
    /// word at a time (x86-64's baseline has no `popcnt`).)
    var populationCount: Int {
        var total = 0
        for word in self { total &+= word.nonzeroBitCount }
        return total
    }
}
