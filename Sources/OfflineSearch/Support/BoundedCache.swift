/// A cache bounded by bytes and by entries, least recently used out first, safe to share
/// between threads. The snapshot's caches (`WordMatchCache`, `FacetCountCache`) keep their
/// entries here; each entry says what it weighs.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let byteBudget: Int
    let entryLimit: Int

    private struct Contents: Sendable {
        var entries: [Key: (value: Value, bytes: Int, lastUse: Int)] = [:]
        var bytes = 0
        var clock = 0
    }

    private let contents = LockedValue(Contents())

    init(byteBudget: Int, entryLimit: Int) {
        self.byteBudget = byteBudget
        self.entryLimit = entryLimit
    }

    /// How many entries are kept.
    var count: Int { contents.value.entries.count }
    /// How many bytes the entries weigh together.
    var byteCount: Int { contents.value.bytes }

    subscript(key: Key) -> Value? {
        contents.modify { contents in
            guard let found = contents.entries[key] else { return nil }
            contents.clock += 1
            contents.entries[key]!.lastUse = contents.clock
            return found.value
        }
    }

    /// Keeps `value`, which weighs `bytes`, unless it alone is over a quarter of the budget.
    /// When the cache is over a bound, the least recently used entries go until it is an
    /// eighth under it, so that a full cache does not look for its oldest entry on every store.
    func store(_ value: Value, bytes: Int, for key: Key) {
        guard bytes <= byteBudget / 4 else { return }
        contents.modify { contents in
            contents.clock += 1
            if let old = contents.entries.updateValue((value, bytes, contents.clock), forKey: key) { contents.bytes -= old.bytes }
            contents.bytes += bytes
            guard contents.bytes > byteBudget || contents.entries.count > entryLimit else { return }
            let (bytesTarget, countTarget) = (byteBudget - byteBudget / 8, entryLimit - entryLimit / 8)
            for (key, entry) in contents.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard contents.bytes > bytesTarget || contents.entries.count > countTarget else { break }
                contents.bytes -= entry.bytes
                contents.entries[key] = nil
            }
        }
    }
}
