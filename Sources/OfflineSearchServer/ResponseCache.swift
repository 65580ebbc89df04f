import Foundation
import NIOCore
import OfflineSearch
import SearchAPI

/// Answers a search again from memory while nothing it read has changed: a UI sends the same
/// requests over and over (a keystroke erased and typed again, the empty query of every page
/// load, popular prefixes), and the answer of a search is a function of its request and of the
/// indices it reads.
///
/// An entry is found by the request as sent (method, path, query string, body bytes) and who
/// sent it (admin, search key, or the secured API key itself, whose restrictions shape the
/// answer), and holds the encoded answer with the `SearchIndex.ContentVersion` of every index
/// the request names, read before the search ran. It is used only while every one of those
/// versions is still current: any write committed to one of them since (by this server or any
/// other process on the data folder) makes it a miss, and the answer is computed again. Only
/// successful searches, multi-searches and facet-value searches are kept, never an answer
/// with a `queryID` (`clickAnalytics`: each search has its own).
///
/// Bounded by the bytes of the answers and keys it holds: past the limit the least recently
/// used entries are dropped until a quarter of it is free. A cached answer repeats the `processingTimeMS` of the search that
/// made it.
final class ResponseCache: @unchecked Sendable {
    struct Key: Hashable {
        let method: String
        let path: String
        let query: String
        let body: [UInt8]
        /// "admin", "search", or the secured API key.
        let caller: String

        var size: Int { method.utf8.count + path.utf8.count + query.utf8.count + body.count + caller.utf8.count }
    }

    /// The versions an answer was made from, by index name.
    typealias Versions = [(name: String, version: SearchIndex.ContentVersion)]

    private struct Entry {
        let answer: ByteBuffer
        let versions: Versions
        let size: Int
        var lastUse: UInt64
    }

    /// How many lookups were answered from memory and how many were not (for tests and logs).
    struct Counts: Equatable {
        var hits = 0
        var misses = 0
    }

    /// The most bytes (answers and keys) held at once.
    let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var size = 0
    private var clock: UInt64 = 0
    private var counted = Counts()

    init(capacity: Int) {
        self.capacity = capacity
    }

    var counts: Counts { lock.withLock { counted } }
    var count: Int { lock.withLock { entries.count } }

    /// The answer kept for `key`, if every index it was made from is unchanged; `currentVersion`
    /// reads an index's version now (nil, or an error: not current).
    func answer(for key: Key, currentVersion: (String) -> SearchIndex.ContentVersion?) -> ByteBuffer? {
        guard let entry = lock.withLock({ entries[key] }) else {
            lock.withLock { counted.misses += 1 }
            return nil
        }
        // Versions are read outside the lock: each costs a statement on the index's database.
        let current = entry.versions.allSatisfy { currentVersion($0.name) == $0.version }
        return lock.withLock {
            guard current else {
                counted.misses += 1
                if let stale = entries[key], stale.versions.elementsEqual(entry.versions, by: { $0 == $1 }) {
                    entries[key] = nil
                    size -= stale.size
                }
                return nil
            }
            counted.hits += 1
            clock += 1
            entries[key]?.lastUse = clock
            return entry.answer
        }
    }

    /// Keeps `answer` for `key`, made from `versions` (read before the search ran).
    func keep(_ answer: ByteBuffer, for key: Key, versions: Versions) {
        let entrySize = answer.readableBytes + key.size + 64 * (versions.count + 1)
        // One answer may take at most an eighth of the cache.
        guard entrySize <= capacity / 8 else { return }
        lock.withLock {
            clock += 1
            if let old = entries.updateValue(Entry(answer: answer, versions: versions, size: entrySize, lastUse: clock), forKey: key) {
                size -= old.size
            }
            size += entrySize
            guard size > capacity else { return }
            // The least recently used quarter goes: sorting once per quarter of the entries keeps
            // the cost of each insertion small.
            let byUse = entries.sorted { $0.value.lastUse < $1.value.lastUse }
            for (key, entry) in byUse {
                guard size > capacity * 3 / 4 else { break }
                entries[key] = nil
                size -= entry.size
            }
        }
    }
}

extension JSONValue {
    /// Whether an answer carries a `queryID` (its own, or one of a multi-search's results).
    var hasQueryID: Bool {
        self["queryID"] != nil || (self["results"]?.arrayValue ?? []).contains { $0["queryID"] != nil }
    }
}
