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
/// used answers are dropped. A cached answer repeats the `processingTimeMS` of the search that
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

    /// The versions an answer was made from, by index name (sorted by name).
    typealias Versions = [(name: String, version: SearchIndex.ContentVersion)]

    /// An answer kept, in the list of entries from the most to the least recently used.
    private final class Entry {
        let key: Key
        let answer: ByteBuffer
        let versions: Versions
        /// The searches the answer holds, recorded in the analytics again each time it is sent.
        let searches: [AnsweredSearch]
        let size: Int
        // The links do not own: `entries` does (a chain of owning links would be released
        // recursively, one stack frame per entry).
        weak var newer: Entry?
        weak var older: Entry?

        init(key: Key, answer: ByteBuffer, versions: Versions, searches: [AnsweredSearch], size: Int) {
            self.key = key
            self.answer = answer
            self.versions = versions
            self.searches = searches
            self.size = size
        }
    }

    /// How many lookups were answered from memory and how many were not (for tests).
    struct Counts: Equatable {
        var hits = 0
        var misses = 0
    }

    /// The most bytes (answers' storage and keys) held at once.
    let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    /// The most and the least recently used entries.
    private var newest: Entry?
    private var oldest: Entry?
    private var size = 0
    private var counted = Counts()

    init(capacity: Int) {
        self.capacity = capacity
    }

    var counts: Counts { lock.withLock { counted } }
    var count: Int { lock.withLock { entries.count } }

    /// The answer kept for `key`, if every index it was made from is unchanged; `currentVersion`
    /// reads an index's version now (nil: not current).
    func answer(for key: Key, currentVersion: (String) -> SearchIndex.ContentVersion?) -> ByteBuffer? {
        kept(for: key, currentVersion: currentVersion)?.answer
    }

    /// `answer(for:currentVersion:)` with the searches the answer holds.
    func kept(for key: Key, currentVersion: (String) -> SearchIndex.ContentVersion?) -> (answer: ByteBuffer, searches: [AnsweredSearch])? {
        let found = lock.withLock {
            let entry = entries[key]
            if entry == nil { counted.misses += 1 }
            return entry
        }
        guard let entry = found else { return nil }
        // Versions are read outside the lock: each costs a statement on the index's database.
        let current = entry.versions.allSatisfy { currentVersion($0.name) == $0.version }
        return lock.withLock {
            guard current else {
                counted.misses += 1
                if entries[key] === entry { remove(entry) }
                return nil
            }
            counted.hits += 1
            if entries[key] === entry {
                unlink(entry)
                pushNewest(entry)
            }
            return (entry.answer, entry.searches)
        }
    }

    /// Keeps `answer` for `key`, made from `versions` (read before the search ran), with the
    /// searches it answers (for the analytics).
    func keep(_ answer: ByteBuffer, for key: Key, versions: Versions, searches: [AnsweredSearch] = []) {
        let entrySize = answer.capacity + key.size + 64 * (versions.count + 2) + 64 * searches.count
        // One answer may take at most an eighth of the cache.
        guard entrySize <= capacity / 8 else { return }
        let entry = Entry(key: key, answer: answer, versions: versions, searches: searches, size: entrySize)
        lock.withLock {
            if let old = entries[key] { remove(old) }
            entries[key] = entry
            pushNewest(entry)
            size += entrySize
            while size > capacity, let last = oldest { remove(last) }
        }
    }

    // The list, under `lock`.

    private func remove(_ entry: Entry) {
        unlink(entry)
        entries[entry.key] = nil
        size -= entry.size
    }

    private func unlink(_ entry: Entry) {
        let newer = entry.newer
        let older = entry.older
        if let older { older.newer = newer } else { oldest = newer }
        if let newer { newer.older = older } else { newest = older }
        entry.newer = nil
        entry.older = nil
    }

    private func pushNewest(_ entry: Entry) {
        entry.older = newest
        entry.newer = nil
        if let newest { newest.newer = entry } else { oldest = entry }
        newest = entry
    }
}

extension JSONValue {
    /// Whether an answer carries a `queryID` (its own, or one of a multi-search's results).
    var hasQueryID: Bool {
        self["queryID"] != nil || (self["results"]?.arrayValue ?? []).contains { $0["queryID"] != nil }
    }
}

/// A hits search a kept answer holds: what the analytics need to count it again when the
/// answer is sent from memory.
struct AnsweredSearch: Sendable {
    let indexName: String
    let parameters: SearchParameters
    let nbHits: Int
    let objectIDs: [String]
}
