/// A cache bounded by bytes and by entries, least recently used out first, safe to share
/// between threads. The snapshot's caches (`WordMatchCache`, `FacetCountCache`) keep their
/// entries here; each entry says what it weighs.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let entryLimit: Int

    private struct Contents: Sendable {
        var entries: [Key: (value: Value, bytes: Int, lastUse: Int)] = [:]
        var bytes = 0
        var clock = 0
        var byteBudget: Int

        /// Lets the least recently used entries go until the cache is an eighth under its
        /// bounds, so that a full cache does not look for its oldest entry on every store.
        /// The uses alone are sorted (plain integers: sorting the entries themselves copied
        /// every key, 0.7 % of a keystroke log's time), then the entries used before the first
        /// one to stay are removed (uses are distinct: the clock ticks on each).
        mutating func evict(entryLimit: Int) {
            guard bytes > byteBudget || entries.count > entryLimit else { return }
            let (bytesTarget, countTarget) = (byteBudget - byteBudget / 8, entryLimit - entryLimit / 8)
            let uses = entries.values.map { (lastUse: $0.lastUse, bytes: $0.bytes) }.sorted { $0.lastUse < $1.lastUse }
            var (remainingBytes, remainingCount) = (bytes, entries.count)
            var goneCount = 0   // the oldest uses[..<goneCount] go
            while goneCount < uses.count, remainingBytes > bytesTarget || remainingCount > countTarget {
                remainingBytes -= uses[goneCount].bytes
                remainingCount -= 1
                goneCount += 1
            }
            guard goneCount > 0 else { return }
            if goneCount == uses.count {
                entries.removeAll()
            } else {
                let oldestKept = uses[goneCount].lastUse
                for key in entries.compactMap({ $0.value.lastUse < oldestKept ? $0.key : nil }) { entries[key] = nil }
            }
            bytes = remainingBytes
        }
    }

    private let contents: LockedValue<Contents>

    init(byteBudget: Int, entryLimit: Int) {
        self.entryLimit = entryLimit
        contents = LockedValue(Contents(byteBudget: max(0, byteBudget)))
    }

    /// How many entries are kept.
    var count: Int { contents.value.entries.count }
    /// How many bytes the entries weigh together.
    var byteCount: Int { contents.value.bytes }
    /// The most bytes the entries may weigh together (0: nothing is kept).
    var byteBudget: Int { contents.value.byteBudget }

    subscript(key: Key) -> Value? {
        contents.modify { contents in
            guard let found = contents.entries[key] else { return nil }
            contents.clock += 1
            contents.entries[key]!.lastUse = contents.clock
            return found.value
        }
    }

    /// Keeps `value`, which weighs `bytes`, unless it alone is over a quarter of the budget.
    /// When the cache is over a bound, the least recently used entries go.
    func store(_ value: Value, bytes: Int, for key: Key) {
        contents.modify { contents in
            guard bytes <= contents.byteBudget / 4 else { return }
            contents.clock += 1
            if let old = contents.entries.updateValue((value, bytes, contents.clock), forKey: key) { contents.bytes -= old.bytes }
            contents.bytes += bytes
            contents.evict(entryLimit: entryLimit)
        }
    }

    /// Sets the byte budget (negative counts as 0), letting entries go if the cache is now over it.
    func setByteBudget(_ byteBudget: Int) {
        contents.modify { contents in
            contents.byteBudget = max(0, byteBudget)
            contents.evict(entryLimit: entryLimit)
        }
    }
}
