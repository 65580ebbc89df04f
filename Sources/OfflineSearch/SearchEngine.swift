import Foundation
import SearchAPI

/// A set of indices persisted in one data directory (one SQLite file per index), and the
/// local implementation of `SearchService`: swap it for a remote Algolia client, or back,
/// without touching the UI code above it.
///
/// ```swift
/// let engine = try SearchEngine(directory: URL(fileURLWithPath: "/path/to/data"))
/// try engine.importRecords(into: "instant_search", from: URL(fileURLWithPath: "products.json"))
/// let response = try await engine.search(indexName: "instant_search", parameters: SearchParameters(query: "iphone"))
/// ```
public final class SearchEngine: SearchService, Sendable {
    /// What a committed write survives. Either way a write is committed in one SQLite
    /// transaction (write-ahead log), and the derived files are a cache rebuilt from it.
    public enum Durability: String, Sendable, CaseIterable {
        /// The default: a write that has returned survives the process being killed at any
        /// moment (`kill -9`, a crash): it is in the operating system's hands. A power loss or
        /// an operating-system crash may lose the last writes (never half of one). SQLite's
        /// `synchronous = NORMAL` in WAL mode: no fsync per commit.
        case processCrash
        /// A write that has returned also survives a power loss: an fsync of the write-ahead log
        /// per commit (SQLite's `synchronous = FULL`), which costs each write one disk flush
        /// (see `Benchmarks/README.md`).
        case powerLoss
    }

    /// This library's version (`offline-search --version`).
    public static let version = "0.7.0"

    public let directory: URL
    private let indices = LockedValue<[String: SearchIndex]>([:])
    /// Held while an index is opened or its files deleted: an index is never opened on a file
    /// being deleted, nor made again by a check that it exists.
    private let openLock = NSLock()
    /// Held by the operations on whole indices (delete, copy, move), one at a time: each takes
    /// index write locks and the open lock in an order the others could not cross. Writes to
    /// records, settings, synonyms and rules do not take it.
    let wholeIndexLock = NSLock()

    /// Whether every index is opened read-only (writes then fail with a clear error).
    public let readOnly: Bool
    /// What a committed write survives.
    public let durability: Durability

    /// Opens (creating it if needed) a data directory. With `readOnly`, nothing is created or
    /// written: indices are searched as they are (and other processes' writes followed); the
    /// same happens by itself for a folder or database file without write permission (a
    /// read-only file system, data shipped inside an app).
    ///
    /// `analytics` says how the searches are counted for the search analytics (kept in the
    /// folder's `analytics.sqlite`; see ``SearchAnalytics``); nil records none. A read-only
    /// engine records none either.
    ///
    /// `answersWhileDeriving`: an index of 50,000 records or more opened without a valid
    /// derived index beside its database (the first open after an upgrade, a lost or damaged
    /// file) derives it on a background thread, 13–20 s at a million products, and answers its
    /// searches from its FTS5 table meanwhile (words and prefixes as typed, in the order the
    /// records were added, said so in the response's `message`; a search with filters waits).
    /// False: the index is derived when it is opened, and every search waits for it (a
    /// one-shot command that answers one search and exits).
    ///
    /// `searchCacheSize`: see ``searchCacheSize``; nil, the default, sizes it by the index.
    public convenience init(directory: URL, readOnly: Bool = false, durability: Durability = .processCrash,
                            analytics: SearchAnalytics.Configuration? = SearchAnalytics.Configuration(),
                            answersWhileDeriving: Bool = true, searchCacheSize: Int? = nil) throws(SearchError) {
        try self.init(directory: directory, readOnly: readOnly, durability: durability, journal: .writeAheadLog, analytics: analytics,
                      answersWhileDeriving: answersWhileDeriving, searchCacheSize: searchCacheSize)
    }

    /// The most bytes of memory each index keeps of what its searches worked out, for the next
    /// keystrokes and the next users: the records each query word matched (a short prefix
    /// typed again, "samsung" asked for again at every keystroke after it), their typo
    /// candidates, facet counts over large sets of matches, and the records read for hits.
    /// Answers are the same whatever it is; only their speed changes. Nil (the default): each
    /// index's caches are bounded by its size: about 81 MiB up to 200,000 records, about 350
    /// bytes a record beyond, 350 MiB at a million (a bound, filled only by varied traffic over
    /// a large index). A number bounds them to that many bytes an index, shared by its segments
    /// (the records written since its last merge are searched apart) in proportion to their
    /// records: lower it on a phone holding a large index. 0 keeps none of these: every search works them out
    /// afresh.
    public let searchCacheSize: Int?

    /// Whether a large index opened without its derived index answers from its FTS5 table
    /// while it is derived on a background thread (see `init(directory:…)`).
    public let answersWhileDeriving: Bool

    /// The folder's search analytics and Insights events; nil when the engine records none.
    public let analytics: SearchAnalytics?

    /// The analytics database's file name in the data folder.
    static let analyticsFileName = "analytics.sqlite"

    /// How this engine's indices write: `noneWhileBuiltAside` only for the private folder in
    /// which `importRecords(into:from:)` builds a new index.
    let journal: RecordStore.Journal

    init(directory: URL, readOnly: Bool = false, durability: Durability = .processCrash, journal: RecordStore.Journal,
         analytics: SearchAnalytics.Configuration? = nil, answersWhileDeriving: Bool = true, searchCacheSize: Int? = nil) throws(SearchError) {
        if let searchCacheSize, searchCacheSize < 0 {
            throw SearchError(.invalidParameter, "searchCacheSize must be 0 (no cache) or more bytes, or nil (sized by the index); got \(searchCacheSize)")
        }
        self.searchCacheSize = searchCacheSize
        self.directory = directory
        self.answersWhileDeriving = answersWhileDeriving
        self.readOnly = readOnly
        self.durability = durability
        self.journal = journal
        self.analytics = readOnly ? nil : analytics.map {
            SearchAnalytics(store: AnalyticsStore(path: directory.appendingPathComponent(SearchEngine.analyticsFileName).path), configuration: $0)
        }
        if readOnly { return }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw SearchError(.internalError, "Cannot create the data directory \(directory.path): \(error.localizedDescription)")
        }
        // What imports killed half-way left (their folders of new indices built aside).
        if journal == .writeAheadLog { TemporaryFile.removeStale(of: buildFolderBase) }
    }

    static let fileSuffix = ".index.sqlite"

    func fileURL(for name: String) -> URL {
        directory.appendingPathComponent(FormURLEncoding.encode(name) + SearchEngine.fileSuffix)
    }

    /// The index with this name, created empty if it does not exist.
    public func index(_ name: String) throws(SearchError) -> SearchIndex {
        try validate(name)
        if let open = currentOpenIndex(name) { return open }
        let index = try openIndex(name)
        catchUpWithPrimary(index)
        return index
    }

    /// The index open under this name, unless its file was deleted or replaced since it was
    /// opened (by another process or engine on the folder: `deleteIndex` here forgets it
    /// first); then it is forgotten, so that the file there now (if any) is opened instead.
    func currentOpenIndex(_ name: String) -> SearchIndex? {
        guard let open = indices.value[name] else { return nil }
        if open.store.isStillAtPath { return open }
        openLock.withLock {
            guard indices.value[name] === open else { return }
            var all = indices.value
            all[name] = nil
            indices.value = all
        }
        return nil
    }

    /// - Parameter creating: false: `indexNotFound` rather than an empty index when its file
    ///   is not there (checked under the lock `deleteIndex` holds).
    private func openIndex(_ name: String, creating: Bool = true) throws(SearchError) -> SearchIndex {
        openLock.lock()
        defer { openLock.unlock() }
        if let open = indices.value[name] { return open }
        if !creating, !exists(name) { throw .indexNotFound(name) }
        let directory = IndexDirectory(open: { [weak self] (name: String) throws(SearchError) -> SearchIndex in
            guard let self else { throw SearchError(.internalError, "the search engine was released") }
            return try self.index(name)
        }, existing: { [weak self] name in
            try? self?.existingIndex(name)
        }, withIndicesHeld: { [weak self] body throws(SearchError) in
            guard let self else { throw SearchError(.internalError, "the search engine was released") }
            wholeIndexLock.lock()
            defer { wholeIndexLock.unlock() }
            try body()
        })
        let index = try SearchIndex(name: name, path: fileURL(for: name).path, directory: directory, readOnly: readOnly,
                                    durability: durability, journal: journal, analytics: analytics, searchCacheSize: searchCacheSize,
                                    backgroundDerivationFrom: answersWhileDeriving ? LiveIndex.deriveInBackgroundFrom : .max)
        var all = indices.value
        all[name] = index
        indices.value = all
        return index
    }

    /// A replica just opened, brought up to date with its primary (what a process killed
    /// between the primary's commit and the replica's left undone; see
    /// `SearchIndex.updateReplicas`). The primary's database is read, not its index derived.
    /// Best effort: a replica whose primary cannot be read now (locked past the busy timeout,
    /// damaged) still opens with what it holds, and the primary's next write brings it up to date.
    private func catchUpWithPrimary(_ index: SearchIndex) {
        guard !index.isReadOnly, let primaryName = index.settings.string("primary"), primaryName != index.name,
              (try? IndexName.validate(primaryName, role: "primary")) != nil, exists(primaryName),
              let primary = currentOpenIndex(primaryName)?.store ?? (try? RecordStore(path: fileURL(for: primaryName).path, readOnly: true))
        else { return }
        // Its search index being built in the background (which holds its write lock): caught
        // up before its first search that waits for it, rather than make the opening wait.
        if index.isBeingDerived {
            index.pendingSync.value = primary
            return
        }
        try? index.catchUpWithPrimary(primary)
    }

    /// Whether a read of the index `name` may wait while its search index is built in the
    /// background (`SearchIndex.isBeingDerived`): for the index open under this name, asked
    /// without the `stat` of `existingIndex`, which a search makes anyway (a server asks this
    /// before every read, to run one that may wait off its request threads). An index not open
    /// yet is opened, as `existingIndex` does; false when there is none. When another process
    /// replaced the index's file since it was opened, the one open answers: the read's own
    /// `existingIndex` then opens the new file.
    public func mayWaitForSearchIndex(_ name: String) -> Bool {
        if let open = indices.value[name] { return open.isBeingDerived }
        return (try? existingIndex(name))?.isBeingDerived == true
    }

    /// The index with this name; `SearchError.indexNotFound` (404) when it does not exist.
    public func existingIndex(_ name: String) throws(SearchError) -> SearchIndex {
        if let open = currentOpenIndex(name) { return open }
        guard exists(name) else { throw .indexNotFound(name) }
        try validate(name)
        // Not made again should it be deleted between the check and the opening.
        let index = try openIndex(name, creating: false)
        catchUpWithPrimary(index)
        return index
    }

    /// Runs a write on the index `name`: the one made when it does not exist, or with
    /// `creating: false` none (nil is returned: deleting from a missing index changes
    /// nothing). When the index is deleted (`deleteIndex`, a move of it) while the write
    /// waits for its lock, the write runs on the index as it is after the deletion instead:
    /// it would otherwise land in the deleted file and be lost.
    ///
    /// ```swift
    /// try engine.write(to: "products") { index in try index.saveObjects(records) }
    /// try engine.write(to: "products", creating: false) { index in try index.deleteObjects(["42"]) }
    /// ```
    @discardableResult
    public func write<T>(to name: String, creating: Bool = true,
                         _ body: (SearchIndex) throws(SearchError) -> T) throws(SearchError) -> T? {
        for _ in 0..<5 {
            let index: SearchIndex
            do {
                index = creating ? try self.index(name) : try existingIndex(name)
            } catch where !creating && error.kind == .indexNotFound {
                return nil
            }
            do {
                return try body(index)
            } catch where index.live.retired.value {
                continue
            }
        }
        throw SearchError(.internalError, "Index \(name) was deleted again and again while a write waited for it; try again")
    }

    /// Whether the index's file is in the folder (another process may have deleted it). For an
    /// open index, the one `stat` that tells whether its file is still there; a search asks
    /// this for every request, and making the file's URL cost more than the `stat` (2 % of a
    /// keystroke log's time, with the check `existingIndex` makes).
    public func exists(_ name: String) -> Bool {
        if currentOpenIndex(name) != nil { return true }
        return FileManager.default.fileExists(atPath: fileURL(for: name).path)
    }

    /// Names of the indices in the directory, sorted.
    public func indexNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let names = Set(files.filter { $0.hasSuffix(SearchEngine.fileSuffix) }
            .map { FormURLEncoding.decode(String($0.dropLast(SearchEngine.fileSuffix.count))) })
        return names.sorted()
    }

    /// Every index in the directory, in Algolia's list-indices shape (`GET /1/indexes`),
    /// sorted by name. A replica listed as `virtual(name)` by its primary is marked `virtual`.
    public func listIndices() throws(SearchError) -> ListIndicesResponse {
        var items: [FetchedIndex] = []
        for name in indexNames() {
            // One deleted (by another process) while listing is left out.
            do {
                items.append(try existingIndex(name).fetchedIndex())
            } catch where error.kind == .indexNotFound {
                continue
            }
        }
        var virtualReplicas: Set<String> = []
        for item in items {
            for replica in item.replicas ?? [] where replica.hasPrefix("virtual(") && replica.hasSuffix(")") {
                virtualReplicas.insert(String(replica.dropFirst("virtual(".count).dropLast()))
            }
        }
        for i in items.indices where virtualReplicas.contains(items[i].name) { items[i].virtual = true }
        return ListIndicesResponse(items: items)
    }

    /// Deletes an index and its files; a missing index is not an error (as with Algolia). A
    /// write in flight on it finishes first; one waiting for it fails, and through
    /// `write(to:)` makes the index anew.
    public func deleteIndex(_ name: String) throws(SearchError) {
        wholeIndexLock.lock()
        defer { wholeIndexLock.unlock() }
        while true {
            let open = indices.value[name]
            open?.live.writeLock.lock()
            defer { open?.live.writeLock.unlock() }
            if removeIndex(name, retiring: open) { return }
        }
    }

    /// Forgets the index and removes its files, unless the index open under the name is no
    /// longer `retiring` (opened meanwhile: false, nothing done). `retiring` (the open index,
    /// whose write lock the caller holds, under `wholeIndexLock`) takes no write from now on.
    func removeIndex(_ name: String, retiring: SearchIndex?) -> Bool {
        openLock.lock()
        defer { openLock.unlock() }
        guard indices.value[name] === retiring else { return false }
        retiring?.live.retired.value = true
        var all = indices.value
        all[name] = nil
        indices.value = all
        let path = fileURL(for: name).path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        for suffix in ["", ".lock"] {
            try? FileManager.default.removeItem(atPath: RecordStore.derivedPath(forDatabaseAt: path) + suffix)
        }
        return true
    }

    func validate(_ name: String) throws(SearchError) {
        try IndexName.validate(name, role: "index name")
    }

    // MARK: SearchService

    public func multiSearch(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) async throws(SearchError) -> [MultiSearchResult] {
        try multiSearchSync(queries, strategy: strategy)
    }

    /// `multiSearch` without suspension, for callers outside Swift concurrency (the CLI).
    /// Called from a task, it checks for cancellation between queries and between the stages
    /// of each search, and throws `SearchError.cancelled` when the task was cancelled.
    public func multiSearchSync(_ queries: [MultiSearchQuery], strategy: MultiSearchStrategy) throws(SearchError) -> [MultiSearchResult] {
        // A multi-search naming a missing index fails whole, as Algolia's does. Each index is
        // looked up once (queries on one index are the usual case: InstantSearch's disjunctive
        // faceting sends several).
        var indices: [String: SearchIndex] = [:]
        for query in queries where indices[query.indexName] == nil {
            indices[query.indexName] = try existingIndex(query.indexName)
        }
        var results: [MultiSearchResult] = []
        var enough = false
        // Queries on the same index share their query and filter work (InstantSearch's
        // disjunctive faceting repeats both).
        var contexts: [String: StateContext?] = [:]
        for query in queries {
            // A superseded search (a newer keystroke) stops here rather than running the rest.
            if Task.isCancelled { throw .cancelled("the search") }
            let index = indices[query.indexName]!   // every name was looked up above
            var context = contexts[query.indexName] ?? nil
            defer { contexts[query.indexName] = context }
            switch query {
            case .hits(_, let parameters):
                if enough {
                    var skipped = parameters
                    skipped.hitsPerPage = 0
                    // Not run as asked: not a search the analytics count.
                    results.append(.hits(try index.search(skipped, sharing: &context, counted: false)))
                    continue
                }
                let response = try index.search(parameters, sharing: &context)
                if strategy == .stopIfEnoughMatches, response.nbHits >= response.hitsPerPage { enough = true }
                results.append(.hits(response))
            case .facetValues(_, let facet, let parameters):
                results.append(.facetValues(try index.searchForFacetValues(facet: facet, parameters: parameters, sharing: &context)))
            }
        }
        return results
    }

    public func searchForFacetValues(indexName: String, facet: String, parameters: SearchParameters) async throws(SearchError) -> FacetValuesResponse {
        try existingIndex(indexName).searchForFacetValues(facet: facet, parameters: parameters)
    }
}

/// Opens indices of the same engine by name (how a primary reaches its replicas).
struct IndexDirectory: Sendable {
    let open: @Sendable (String) throws(SearchError) -> SearchIndex
    /// The index of that name if it exists (never creates one).
    let existing: @Sendable (String) -> SearchIndex?
    /// Runs `body` as one of the engine's operations on whole indices (one at a time): a change
    /// of `replicas`, which claims other indices as replicas.
    let withIndicesHeld: @Sendable (() throws(SearchError) -> Void) throws(SearchError) -> Void
}
