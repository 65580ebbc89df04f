import Foundation
import SearchAPI

/// One index: its records, settings and search. Searches run concurrently from any task or
/// thread; writes are serialized, and each is one transaction: a search sees the index
/// before or after a write, never half of it.
///
/// ```swift
/// let engine = try SearchEngine(directory: URL(fileURLWithPath: "data"))
/// let index = try engine.index("products")
/// try index.saveObjects([["objectID": "1", "name": "iPhone 15"]])
/// let response = try index.search(SearchParameters(query: "iph"))
/// ```
public final class SearchIndex: Sendable {
    public let name: String
    let store: IndexStore
    let current: LockedValue<IndexState>
    /// Serializes writes and lets a reader wait for a write in flight.
    let writeLock = NSLock()
    /// Whether a merge of the delta into a new base runs in the background.
    private let merging = LockedValue(false)
    /// Whether delta segments are being merged in the background.
    private let mergingSegments = LockedValue(false)

    /// Opens the other indices of the engine, for replicas (nil for an index on its own).
    private let directory: IndexDirectory?
    /// The primary's store when bringing this replica up to date after a primary's write
    /// failed: tried again before this index's next search (or the primary's next write).
    private let pendingMirror = LockedValue<IndexStore?>(nil)

    init(name: String, path: String, directory: IndexDirectory? = nil, readOnly: Bool = false,
         durability: SearchEngine.Durability = .processCrash, journal: IndexStore.Journal = .writeAheadLog) throws(SearchError) {
        self.name = name
        self.directory = directory
        store = try IndexStore(path: path, readOnly: readOnly, durability: durability, journal: journal)
        current = LockedValue(try store.currentState())
    }

    /// Whether writes fail (the index was opened read-only, or its folder cannot be written).
    public var isReadOnly: Bool { store.isReadOnly }

    /// Follows writes committed by other processes (or other engines on the same folder): when
    /// the database's generation moved past the current state's, reads what the writes since
    /// changed (the change log). Costs one `PRAGMA data_version` when nothing changed.
    func followCommittedWrites() throws(SearchError) {
        if let primary = pendingMirror.value { retryMirror(from: primary) }
        guard try store.committedGeneration() != current.value.generation else { return }
        writeLock.lock()
        defer { writeLock.unlock() }
        try followCommittedWritesLocked()
    }

    /// What a search of this index answers from: this index (another index made later under
    /// the same name differs) at the last write committed to it by any process (records,
    /// settings, synonyms and rules alike), and, for a replica, its primary likewise (whose
    /// settings say whether it is a virtual replica). Two searches with equal parameters and
    /// equal versions give the same answer, so a cache of answers can key on it (the server's
    /// response cache does). Nil while a replica waits to be brought up to date with its
    /// primary: its next search changes it. A replica whose primary does not exist is versioned
    /// as an index of its own (its searches read no primary).
    ///
    /// Read before the search it stands for: a write committed in between makes the version
    /// older than the answer, never newer (the search follows every write committed before it
    /// starts; its primary's too, as this does, when it can be read), so a cache only misses.
    public func contentVersion() throws(SearchError) -> ContentVersion? {
        guard pendingMirror.value == nil else { return nil }
        var version = ContentVersion(indexID: store.indexID, generation: try store.committedGeneration())
        if let primaryName = current.value.configuration.settings.string("primary"), let primary = directory?.existing(primaryName) {
            guard primary.pendingMirror.value == nil else { return nil }
            version.primaryID = primary.store.indexID
            // What the search reads of it: its settings as followed now (as a search does).
            try? primary.followCommittedWrites()
            version.primaryGeneration = primary.current.value.generation
        }
        return version
    }

    /// See `contentVersion()`.
    public struct ContentVersion: Hashable, Sendable {
        let indexID: String
        let generation: Int64
        var primaryID: String?
        var primaryGeneration: Int64?
    }

    /// `followCommittedWrites`, the caller holding `writeLock` (a write of this process in
    /// flight has then been published).
    private func followCommittedWritesLocked() throws(SearchError) {
        guard try store.committedGeneration() != current.value.generation else { return }
        current.value = try store.catchUp(current.value)
        mergeIfNeeded()
        mergeSegmentsIfNeeded()
    }

    /// Applies a committed write to the in-memory index; the caller holds `writeLock`. The write
    /// is committed whatever happens here, so it is never reported as failed: should catching
    /// up fail (reading the change log or deriving the index), the in-memory index stays as it
    /// was and the next search catches up (`followCommittedWrites`), or reports why it cannot.
    private func publish(_ written: IndexStore.Written) {
        switch written {
        case .rebuilt(let snapshot):
            current.value = IndexState(base: snapshot)
        case .logged(_, let written):
            guard let state = try? store.catchUp(current.value, written: written) else { return }
            current.value = state
        }
        mergeIfNeeded()
        mergeSegmentsIfNeeded()
    }

    /// Merges delta segments two by two on a background thread while some are to be merged
    /// (`IndexState.mergeablePair`): a write returns once its own segment is in, and searches
    /// go on meanwhile. Each merged pair replaces its two segments under the write lock, less
    /// the documents writes removed from them meanwhile. Not while the whole index is being
    /// merged (that merge replaces the segments).
    private func mergeSegmentsIfNeeded() {
        guard !merging.value, current.value.mergeablePair != nil, mergingSegments.modify({ running in
            defer { running = true }
            return !running
        }) else { return }
        Thread.detachNewThread { [self] in
            while true {
                // The flag goes down only once nothing is left to merge, so `waitForMerge` never
                // returns while a pair waits, and a write published meanwhile starts a thread.
                let finished = mergingSegments.modify { running -> Bool in
                    guard merging.value || current.value.mergeablePair == nil else { return false }
                    running = false
                    return true
                }
                if finished { return }
                guard let (pair, configuration, generation) = nextPairToMerge() else { continue }
                let merged = IndexState.Segment(merging: [pair.older, pair.newer], configuration: configuration, generation: generation)
                writeLock.lock()
                if let replaced = current.value.replacing([pair.older, pair.newer], with: merged) { current.value = replaced }
                writeLock.unlock()
            }
        }
    }

    /// The current state's next pair of segments to merge, with what their merge needs: only
    /// those are held while they are merged (not the state, nor its base, which a merge of the
    /// whole index may replace meanwhile).
    private func nextPairToMerge() -> (pair: (older: IndexState.Segment, newer: IndexState.Segment), configuration: IndexConfiguration,
                                       generation: Int64)? {
        let state = current.value
        guard let position = state.mergeablePair else { return nil }
        return ((older: state.segments[position], newer: state.segments[position + 1]), state.configuration, state.generation)
    }

    /// Starts a merge when the delta has grown past `IndexState.deltaLimit`: every segment is
    /// merged into a new base on a background thread (searches and writes go on meanwhile), its
    /// file stored, and it becomes the current state's base (`installMerged`); another starts
    /// at once if the writes meanwhile took the delta past the limit again.
    private func mergeIfNeeded() {
        guard current.value.needsMerge, merging.modify({ running in
            defer { running = true }
            return !running
        }) else { return }
        Thread.detachNewThread { [self] in
            installMerged()
            merging.value = false
            // What the writes meanwhile left to merge.
            mergeSegmentsIfNeeded()
            mergeIfNeeded()
        }
    }

    /// Merges every segment into a new base and makes it the current state's base: the
    /// segments written meanwhile stay as they are, and what writes removed from the merged ones
    /// meanwhile is removed from it (nothing is read again: `IndexState.replacingBase`). Dropped
    /// when a write derived the index whole meanwhile (the current state is newer).
    private func installMerged() {
        let before = current.value
        // From the segments' snapshots (`SegmentMerger`): no record read or tokenized again.
        let base = IndexState.Segment(merging: before.segments, configuration: before.configuration, generation: before.generation).snapshot
        guard current.value.segments[0].snapshot === before.segments[0].snapshot else { return }
        let merged = IndexState.Segment(snapshot: store.storeMerged(base))
        // Off the lock: removing what writes removed meanwhile, and later writes, need it.
        merged.prepareRowIndex()
        writeLock.lock()
        defer { writeLock.unlock() }
        if let replaced = current.value.replacingBase(before.segments, with: merged) { current.value = replaced }
    }

    /// The most records written since the index was last merged whole (the delta) before a
    /// merge folds it into a new base in the background. A search over a larger delta costs a
    /// little more (`Benchmarks/README.md`); a merge costs about the whole index's postings.
    public static var deltaLimit: Int {
        get { IndexState.deltaLimit }
        set { IndexState.deltaLimitSetting.value = max(1, newValue) }
    }

    /// The largest group of records tied on the criteria before proximity that the proximity
    /// criterion splits (8,000); a larger one keeps custom order. For measurements: `Int.max`
    /// splits every group (the benchmark's `OFFLINE_SEARCH_PROXIMITY_LIMIT`).
    public static var proximityGroupLimit: Int {
        get { RelevanceRanker.proximityGroupLimit }
        set { RelevanceRanker.proximityGroupLimitSetting.value = max(0, newValue) }
    }

    /// How many records the delta holds now (written since the index was last derived whole).
    public var deltaCount: Int { current.value.deltaCount }

    /// Waits until no merge runs (of the whole index, or of delta segments).
    public func waitForMerge() {
        while merging.value || mergingSegments.value { Thread.sleep(forTimeInterval: 0.005) }
    }

    /// Merges every segment into a new base now, folding the delta in (what a background
    /// merge does when the delta outgrows `deltaLimit`), and waits for it.
    public func merge() throws(SearchError) {
        // One merge of the whole index at a time: this one takes the background merge's turn.
        while true {
            waitForMerge()
            if merging.modify({ running in defer { running = true }; return !running }) { break }
        }
        installMerged()
        merging.value = false
        mergeSegmentsIfNeeded()
    }

    /// The number of records.
    public var recordCount: Int { current.value.documentCount }

    /// This index as list-indices reports it (Algolia's `FetchedIndex`).
    public func fetchedIndex() throws(SearchError) -> FetchedIndex {
        let statistics = try store.statistics()
        let settings = self.settings
        return FetchedIndex(
            name: name, createdAt: statistics.createdAt, updatedAt: statistics.updatedAt, entries: recordCount,
            dataSize: statistics.dataSize, fileSize: statistics.fileSize, lastBuildTimeS: statistics.lastBuildTimeS,
            primary: settings.string("primary"),
            replicas: settings.stringList("replicas").flatMap { $0.isEmpty ? nil : $0 })
    }

    // MARK: Writing

    /// Adds records, replacing those with the same `objectID` (Algolia's `saveObjects`).
    /// A record without `objectID` gets a generated one; a numeric `objectID` is kept as its
    /// string form. With `replaceExisting`, every other record is removed in the same
    /// transaction (Algolia's `replaceAllObjects`).
    /// - Returns: the objectIDs, in order.
    @discardableResult
    public func saveObjects(_ records: [JSONValue], replaceExisting: Bool = false) throws(SearchError) -> [String] {
        var objects: [JSONObject] = []
        objects.reserveCapacity(records.count)
        for (position, record) in records.enumerated() {
            objects.append(try SearchIndex.normalizedRecord(record, position: position))
        }
        try write(IndexStore.Change(clearFirst: replaceExisting, upserts: objects))
        return objects.map { $0["objectID"]!.stringValue! }
    }

    /// Imports a file: a JSON array of records, or JSON Lines (one record per line).
    /// Invalid JSON is reported with its line and column, and nothing of the import is kept.
    @discardableResult
    public func importFile(at url: URL, replaceExisting: Bool = false) throws(SearchError) -> Int {
        try importRecords(from: url, replaceExisting: replaceExisting).recordCount
    }

    /// What an import did.
    public struct ImportReport: Sendable, Hashable {
        /// How many records the file held (all saved).
        public var recordCount: Int
        /// How many of them had no `objectID` and got a generated one: importing the same file
        /// again adds those again.
        public var generatedObjectIDs: Int
    }

    /// `importFile(at:replaceExisting:)`, reporting how many records got a generated objectID.
    ///
    /// The file is read a batch of records at a time while the import's one transaction runs
    /// (mapped, its pages released once read): the memory an import takes is bounded by a batch
    /// and the index being built, not by the file. Invalid JSON or an invalid record anywhere in
    /// the file rejects the whole import, with its line and column; nothing is kept. With
    /// `settings`, as `importRecords(_:replaceExisting:settings:)`.
    public func importRecords(from url: URL, replaceExisting: Bool = false, settings patch: JSONObject? = nil) throws(SearchError) -> ImportReport {
        let descriptor = open(url.path, O_RDONLY)
        func failure() -> SearchError {
            SearchError(.invalidParameter, "Cannot read \(url.path): \(String(cString: strerror(errno)))")
        }
        guard descriptor >= 0 else { throw failure() }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure() }
        // A pipe, a FIFO, a device (`<(zcat …)`, /dev/stdin): its size says nothing; read it to
        // its end. An empty regular file has nothing to map.
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else {
            return try importRecords(utf8: try SearchIndex.readBytes(of: descriptor, path: url.path), source: url.path,
                                     replaceExisting: replaceExisting, settings: patch)
        }
        guard let file = MappedFile(descriptor: descriptor, length: Int(status.st_size)) else { throw failure() }
        let bytes = UnsafeBufferPointer(start: file.base.assumingMemoryBound(to: UInt8.self), count: file.length)
        return try importRecords(utf8: bytes, source: url.path, replaceExisting: replaceExisting, settings: patch) { read in
            file.release(0..<read)
        }
    }

    /// Imports the records of a JSON array or JSON Lines text (standard input, a file read by
    /// the caller), a batch at a time as `importRecords(from:)`.
    public func importRecords(utf8 text: [UInt8], source: String, replaceExisting: Bool = false,
                              settings patch: JSONObject? = nil) throws(SearchError) -> ImportReport {
        try text.withUnsafeBufferPointer { buffer throws(SearchError) in
            try importRecords(utf8: buffer, source: source, replaceExisting: replaceExisting, settings: patch)
        }
    }

    /// Saves parsed records (`readRecords(from:)`), reporting how many got a generated objectID.
    ///
    /// With `settings` (a partial settings object, as `setSettings` takes), the settings and the
    /// records are committed in one transaction: a process killed during the import leaves the
    /// old records under the old settings, or the new records under the new settings.
    public func importRecords(_ records: [JSONValue], replaceExisting: Bool = false,
                              settings patch: JSONObject? = nil) throws(SearchError) -> ImportReport {
        let generated = records.count { record in record["objectID"] == nil || record["objectID"]?.isNull == true }
        var objects: [JSONObject] = []
        objects.reserveCapacity(records.count)
        for (position, record) in records.enumerated() {
            objects.append(try SearchIndex.normalizedRecord(record, position: position))
        }
        if let patch { try checkReplicaList(patch) }
        try write(IndexStore.Change(clearFirst: replaceExisting, upserts: objects, updateSettings: patch.map(settingsUpdate)))
        return ImportReport(recordCount: objects.count, generatedObjectIDs: generated)
    }

    /// The streamed import: `released(n)` is told when the first `n` bytes are parsed.
    ///
    /// A file of at most `IndexState.deltaLimit` records is read whole and written as any
    /// `saveObjects` of that size (into the delta of a large index); a larger one is streamed,
    /// and the index derived anew, as a write of that size would be anyway. While the writer
    /// stores a batch, the next one is parsed, checked and turned into its stored text on
    /// another thread. (`streamFrom` and `batchSize` are for tests.)
    func importRecords(utf8 bytes: UnsafeBufferPointer<UInt8>, source: String, replaceExisting: Bool,
                       settings patch: JSONObject?, released: (@Sendable (Int) -> Void)? = nil,
                       streamFrom: Int = IndexState.deltaLimit, batchSize: Int = IndexStore.batchSize) throws(SearchError) -> ImportReport {
        if let patch { try checkReplicaList(patch) }
        let reader = RecordReader(bytes, source: source, released: released)
        var first: [JSONObject]? = try reader.read(upTo: streamFrom + 1).records
        var change = IndexStore.Change(clearFirst: replaceExisting, updateSettings: patch.map(settingsUpdate))
        var next: BackgroundWork<Result<IndexStore.Change.RecordBatch, SearchError>>?
        // The reader reads `bytes`: nothing may still parse them when this returns.
        defer { _ = next?.wait() }
        if first!.count <= streamFrom {
            change.upserts = first!
        } else {
            // The rest of the file as the first records were: a hint, not a limit.
            change.expectedBatchedRecords = Int(Double(reader.position) * Double(bytes.count) / Double(max(reader.bytesRead, 1)))
            change.upsertBatches = { () throws(SearchError) -> IndexStore.Change.RecordBatch? in
                let batch: IndexStore.Change.RecordBatch
                if let records = first {
                    first = nil
                    batch = IndexStore.Change.RecordBatch(records: records)
                } else {
                    batch = try (next?.wait() ?? Result { () throws(SearchError) in try reader.read(upTo: batchSize, bodies: true) }).get()
                }
                next = batch.records.isEmpty ? nil : BackgroundWork { Result { () throws(SearchError) in try reader.read(upTo: batchSize, bodies: true) } }
                return batch.records.isEmpty ? nil : batch
            }
        }
        try write(change)
        return ImportReport(recordCount: reader.position, generatedObjectIDs: reader.generated)
    }

    /// Reads an import's records a batch at a time, checked as `saveObjects` checks them.
    private final class RecordReader: @unchecked Sendable {
        // @unchecked: used by one thread at a time (the import waits for the batch read ahead
        // before reading on), and `bytes` outlives it (the import waits before returning).
        private var reader: JSONValueSequenceReader
        private let bytes: UnsafeBufferPointer<UInt8>
        private let source: String
        private let released: (@Sendable (Int) -> Void)?
        /// Records read so far, and how many of them had no objectID.
        private(set) var position = 0
        private(set) var generated = 0
        /// The bytes read so far.
        var bytesRead: Int { reader.bytesRead }

        init(_ bytes: UnsafeBufferPointer<UInt8>, source: String, released: (@Sendable (Int) -> Void)?) {
            reader = JSONValueSequenceReader(utf8: bytes)
            self.bytes = bytes
            self.source = source
            self.released = released
        }

        /// Up to `count` records (none after the last), with their stored text if `bodies`.
        func read(upTo count: Int, bodies: Bool = false) throws(SearchError) -> IndexStore.Change.RecordBatch {
            var batch = IndexStore.Change.RecordBatch(records: [])
            do {
                while batch.records.count < count, let record = try reader.next() {
                    if record["objectID"] == nil || record["objectID"]?.isNull == true { generated += 1 }
                    let object = try SearchIndex.normalizedRecord(record, position: position)
                    batch.records.append(object)
                    if bodies {
                        // The record's text as it came when it is what writing the record gives
                        // (compact, an objectID string of its own): copied, not written again. (Read
                        // from the mapped file a second time: a file rewritten during its own import
                        // is not supported, its parse would be torn already.)
                        if reader.lastValueIsWrittenForm, case .string? = record["objectID"] {
                            batch.bodies.append(Array(UnsafeBufferPointer(rebasing: bytes[reader.lastValueRange])))
                        } else {
                            batch.bodies.append(JSONValue.object(object).jsonBytes)
                        }
                    }
                    position += 1
                }
            } catch let error as JSONParseError {
                throw SearchError(.invalidJSON, "\(source): \(error.description)")
            } catch let error as SearchError {
                throw error
            } catch {
                throw SearchError(.internalError, "\(error)")
            }
            released?(reader.bytesRead)
            return batch
        }
    }

    /// Reads a file of records (a JSON array or JSON Lines) without saving it, so a caller can
    /// check it before anything is written.
    public static func readRecords(from url: URL) throws(SearchError) -> [JSONValue] {
        try parseRecords(try readBytes(of: url), source: url.path)
    }

    /// A file's bytes, read straight into one array (a `Data` converted to an array would hold
    /// the file twice: at 1M products, 600 MB more at the import's peak).
    static func readBytes(of url: URL) throws(SearchError) -> [UInt8] {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else {
            throw SearchError(.invalidParameter, "Cannot read \(url.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        return try readBytes(of: descriptor, path: url.path)
    }

    /// The bytes of an open file, read to its end (a pipe's too).
    private static func readBytes(of descriptor: Int32, path: String) throws(SearchError) -> [UInt8] {
        func failure() -> SearchError {
            SearchError(.invalidParameter, "Cannot read \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure() }
        // One byte more than the file, so reading to its end never grows (and copies) the array
        // unless the file grew meanwhile.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var done = 0
        while true {
            if done == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count / 2))) }
            let result = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, $0.count - done) }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { throw failure() }
            if result == 0 { break }
            done += result
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    /// Reads a JSON array of records or JSON Lines (a leading UTF-8 byte-order mark is skipped).
    public static func parseRecords(_ bytes: [UInt8], source: String) throws(SearchError) -> [JSONValue] {
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) -> [JSONValue] in
                var reader = JSONValueSequenceReader(utf8: buffer)
                var records: [JSONValue] = []
                while let record = try reader.next() { records.append(record) }
                return records
            }
        } catch {
            throw SearchError(.invalidJSON, "\(source): \(error.description)")
        }
    }

    static func normalizedRecord(_ record: JSONValue, position: Int) throws(SearchError) -> JSONObject {
        guard case .object(var object) = record else {
            throw SearchError(.invalidJSON, "record \(position + 1): expected a JSON object, got \(record.jsonString.prefix(60))")
        }
        switch object["objectID"] {
        case nil, .null?:
            object["objectID"] = .string(UUID().uuidString.lowercased())
        case .string(let id)?:
            if id.isEmpty { throw SearchError(.invalidParameter, "record \(position + 1): objectID must not be empty") }
        case .int?, .double?:
            object["objectID"] = .string(object["objectID"]!.scalarText!)
        case let other?:
            throw SearchError(.invalidParameter, "record \(position + 1): objectID must be a string or a number, got \(other.jsonString.prefix(60))")
        }
        if let problem = storageProblem(in: object) {
            throw SearchError(.invalidJSON, "record \(position + 1): \(problem)")
        }
        return object
    }

    /// What keeps a record (one built in Swift: the parser refuses these in text) from being
    /// stored as it is, nil when nothing does. It is stored as JSON text and read back by the
    /// parser, so it must be text the parser reads back the same: no infinite or NaN number
    /// (JSON would store null while the index holds the number), and no more nesting, longer
    /// strings or more elements than `JSONParseLimits` allows.
    static func storageProblem(in object: JSONObject) -> String? {
        let limits = JSONParseLimits()
        // Iterative (a record built in Swift has no depth limit); paths are built only for the
        // containers walked, not for every value.
        var pending: [(path: String, depth: Int, entries: [(key: String, value: JSONValue)])] = [("", 1, object.entries)]
        while let (path, depth, entries) = pending.popLast() {
            if entries.count > limits.maxElements {
                return "\(path.isEmpty ? "the record" : path) has \(entries.count) elements; expected at most \(limits.maxElements)"
            }
            for (key, value) in entries {
                if key.utf8.count > limits.maxStringBytes || value.stringValue.map({ $0.utf8.count > limits.maxStringBytes }) == true {
                    return "\(path)\(key.prefix(40)) holds a string longer than \(limits.maxStringBytes) bytes; expected at most \(limits.maxStringBytes)"
                }
                switch value {
                case .double(let number) where !number.isFinite:
                    return "\(path)\(key) is \(number); expected a finite number (JSON cannot store it)"
                case .array, .object:
                    guard depth < limits.maxDepth else {
                        let shown = path.count > 80 ? path.prefix(30) + "…" + path.suffix(40) : Substring(path)
                        return "\(shown)\(key) is nested deeper than \(limits.maxDepth) levels; expected at most \(limits.maxDepth)"
                    }
                    if case .object(let child) = value {
                        pending.append((path + key + ".", depth + 1, child.entries))
                    } else if let elements = value.arrayValue, elements.contains(where: SearchIndex.needsStorageCheck) || elements.count > limits.maxElements {
                        pending.append((path + key, depth + 1, elements.enumerated().map { ("[\($0.offset)]", $0.element) }))
                    }
                default:
                    continue
                }
            }
        }
        return nil
    }

    private static func needsStorageCheck(_ value: JSONValue) -> Bool {
        switch value {
        case .double(let number): !number.isFinite
        case .string(let text): text.utf8.count > JSONParseLimits().maxStringBytes
        case .array, .object: true
        default: false
        }
    }

    /// Deletes records by objectID; unknown ids are ignored.
    public func deleteObjects(_ objectIDs: [String]) throws(SearchError) {
        try write(IndexStore.Change(deletions: objectIDs))
    }

    /// Removes every record; settings stay.
    public func clearObjects() throws(SearchError) {
        try write(IndexStore.Change(clearFirst: true))
    }

    /// The settings as set (Algolia names, unimplemented ones kept).
    public var settings: IndexSettings { current.value.configuration.settings }

    /// Applies a partial settings object (`null` resets a setting). Changing searchable,
    /// faceting or ranking settings re-derives the index in the same transaction.
    ///
    /// `replicas` (`name` or `virtual(name)`) creates the replicas that do not exist yet, with
    /// this index's settings (and `primary`), fills them with this index's records, and from then
    /// on every write here is applied to them too. A replica keeps its own settings, typically a
    /// `ranking` led by `asc(price)` or `desc(price)` (a sort).
    ///
    /// The patch is applied to the settings stored when the write transaction starts, under
    /// the database's write lock: concurrent changes from other processes are kept.
    public func setSettings(_ patch: JSONObject) throws(SearchError) {
        try checkReplicaList(patch)
        try write(IndexStore.Change(updateSettings: settingsUpdate(patch)))
    }

    /// The stored settings with `patch` applied, checked; for `IndexStore.Change`.
    private func settingsUpdate(_ patch: JSONObject) -> @Sendable (IndexSettings) throws(SearchError) -> IndexSettings {
        let name = self.name
        return { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
            let settings = try stored.applying(patch)
            let configuration = try IndexConfiguration(settings: settings)
            if configuration.replicas.contains(name) {
                throw SearchError(.invalidParameter, "replicas: an index cannot be its own replica (\(name))")
            }
            // Settings that would make every search fail are rejected now, not at the next search:
            // an empty search reads every setting a search parameter can also set.
            _ = try SearchRequest(SearchParameters(), configuration: configuration)
            return settings
        }
    }

    /// Adds synonyms (Algolia's synonym objects — `{"objectID", "type": "synonym", "synonyms"}`,
    /// `{"objectID", "type": "oneWaySynonym", "input", "synonyms"}` — or plain groups of words),
    /// replacing those with the same `objectID`; with `replaceExisting`, all others are removed.
    /// They are kept in the `synonyms` setting.
    ///
    /// ```swift
    /// try index.saveSynonyms([["objectID": "tv", "type": "synonym", "synonyms": ["tv", "television"]]])
    /// ```
    public func saveSynonyms(_ synonyms: [JSONValue], replaceExisting: Bool = false) throws(SearchError) {
        let patch = settingsUpdate([:])
        // Merged with the synonyms stored when the write starts (another process's are kept).
        try write(IndexStore.Change(updateSettings: { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
            var kept: [JSONValue] = replaceExisting ? [] : (stored.values["synonyms"]?.arrayValue ?? [])
            for synonym in synonyms {
                if let id = synonym["objectID"] { kept.removeAll { $0["objectID"] == id } }
                kept.append(synonym)
            }
            return try patch(try stored.applying(["synonyms": .array(kept)]))
        }))
    }

    // MARK: Replicas

    /// This index's replicas, opened.
    func replicaIndices() throws(SearchError) -> [SearchIndex] {
        guard let directory else { return [] }
        var replicas: [SearchIndex] = []
        for name in current.value.configuration.replicas where name != self.name { replicas.append(try directory.open(name)) }
        return replicas
    }

    /// Brings each replica up to date with this index, after a write here: each reads what it
    /// lacks from this index's change log and applies it in one transaction of its own, with
    /// the mark of the state it now holds (`mirror`). A replica not set up yet (newly listed, or
    /// its `primary` is not this index: a kill came between this index's settings and its own,
    /// or it was deleted and is made again) gets this index's settings when it has none, and
    /// `primary`; having no mark of this index, it then gets every record, replacing its own (as
    /// Algolia overwrites an existing index named a replica).
    ///
    /// The replicas are databases of their own, so their transactions are not the primary's
    /// (SQLite commits atomically per file). What a process killed in between leaves undone is
    /// done when the replica is next opened, or at the primary's next write: the mark says what
    /// the replica holds, the change log what it lacks, so nothing committed is lost. For the same
    /// reason a replica that cannot be brought up to date now (locked by another process past the
    /// busy timeout, say) does not fail the write, which is committed: it is left to those.
    private func updateReplicas() {
        guard let directory, !isReadOnly else { return }
        for name in current.value.configuration.replicas where name != self.name {
            do {
                let replica = try directory.open(name)
                try replica.followCommittedWrites()
                let replicaSettings = replica.settings
                if replicaSettings.string("primary") != self.name {
                    if replicaSettings.values.isEmpty {
                        var initial = settings.values
                        initial["replicas"] = nil
                        initial["primary"] = .string(self.name)
                        try replica.setSettings(initial)
                    } else {
                        try replica.setSettings(["primary": .string(self.name)])
                    }
                }
                try replica.mirror(store)
            } catch {
                // Committed here: the replica tries again before its next search, and at this
                // index's next write.
                directory.existing(name)?.pendingMirror.value = store
                continue
            }
        }
    }

    /// Applies what `primary` changed since the state this index holds as its replica (its
    /// mark), in one transaction that also records the state now held: the records written and
    /// deleted since, or every record, replacing these, when it holds no mark of `primary`'s
    /// (a mark is only written here, and any other write of records removes it). The
    /// transaction checks the mark is still the one read: another process doing the same
    /// meanwhile makes it read again.
    func mirror(_ primary: IndexStore) throws(SearchError) {
        writeLock.lock()
        defer { writeLock.unlock() }
        pendingMirror.value = nil
        for _ in 0..<5 {
            let held = try store.mirrorMark()
            // Written inside the primary's read transaction: a large change is read from the
            // primary a batch at a time as it is written here.
            let applied = try primary.withChangeForReplica(holding: held) { change, mark throws(SearchError) -> Bool in
                var mirrored = change
                mirrored.mirror = IndexStore.Change.Mirror(expected: held, new: mark)
                guard let written = try store.writeIfCurrent(sized(mirrored)) else { return false }
                publish(written)
                return true
            }
            if applied != false { return }   // nil: already up to date
        }
        throw SearchError(.internalError, "Replica \(name) kept changing while it was brought up to date; try again")
    }

    /// A catching up that failed after a primary's write, tried again (best effort: a search
    /// answers with what the replica holds, and it stays pending when this fails too).
    private func retryMirror(from primary: IndexStore) {
        // A primary deleted (or made again) meanwhile is not followed: its next write, if any,
        // brings this replica up to date.
        guard primary.isStillAtPath else {
            pendingMirror.value = nil
            return
        }
        do { try mirror(primary) } catch { pendingMirror.value = primary }
    }

    /// Brings this index up to date with `primary` (the store of the index its `primary` setting
    /// names) when that index lists it (what a process killed between the two commits left
    /// undone); when the engine opens it (`SearchEngine.catchUpWithPrimary`).
    func catchUpWithPrimary(_ primary: IndexStore) throws(SearchError) {
        guard try IndexConfiguration(settings: try primary.settings()).replicas.contains(name) else { return }
        try mirror(primary)
    }

    /// The primary this index is a replica of: the index its `primary` setting names, when that
    /// index lists it in its `replicas` (a primary deleted, or one that dropped it from its list,
    /// leaves a regular index).
    func primaryName() -> String? {
        guard let directory, let primaryName = settings.string("primary"), primaryName != name,
              let primary = directory.existing(primaryName), primary.current.value.configuration.replicas.contains(name)
        else { return nil }
        return primaryName
    }

    /// Records are written to a primary, never to its replicas (Algolia answers 400 "cannot apply
    /// the batch operation on a replica index"): they would differ from the primary's.
    func refuseRecordWritesOnReplica() throws(SearchError) {
        guard let primary = primaryName() else { return }
        throw SearchError(.invalidParameter, "Cannot write records to \(name): it is a replica of \(primary), and a replica takes its "
            + "records from its primary only (Algolia: cannot apply the batch operation on a replica index). Write to \(primary); "
            + "its replicas follow")
    }

    /// Algolia's rules for `replicas`: a replica has one primary, a replica has no replicas, and
    /// a primary is no replica.
    private func checkReplicaList(_ patch: JSONObject) throws(SearchError) {
        guard let directory, let list = patch["replicas"], !list.isNull else { return }
        let names = try IndexConfiguration(settings: IndexSettings(stored: ["replicas": list])).replicas
        guard !names.isEmpty else { return }
        if let primary = primaryName() {
            throw SearchError(.invalidParameter, "replicas: \(name) is a replica of \(primary), and a replica cannot have replicas")
        }
        for replicaName in names where replicaName != name {
            guard let replica = directory.existing(replicaName) else { continue }
            if let other = replica.primaryName(), other != name {
                throw SearchError(.invalidParameter, "replicas: \(replicaName) is already a replica of \(other); remove it from the replicas of \(other) first")
            }
            if !replica.current.value.configuration.replicas.isEmpty {
                throw SearchError(.invalidParameter, "replicas: \(replicaName) has replicas of its own, and a primary cannot be a replica")
            }
        }
    }

    func write(_ change: IndexStore.Change) throws(SearchError) {
        if change.writesRecords { try refuseRecordWritesOnReplica() }
        try write { () throws(SearchError) in change }
    }

    /// Computes a change from the stored state and applies it, both under the write lock (a
    /// read-modify-write such as a partial update sees no other write in between); then the
    /// replicas follow (`updateReplicas`).
    func write(_ compute: () throws(SearchError) -> IndexStore.Change) throws(SearchError) {
        let listedBefore = Set(current.value.configuration.replicas)
        do {
            writeLock.lock()
            defer { writeLock.unlock() }
            try writeLocked(try compute())
        }
        detachReplicas(listedBefore.subtracting(current.value.configuration.replicas))
        updateReplicas()
    }

    /// Indices dropped from `replicas` become regular indices, as with Algolia: their records
    /// stay, their `primary` setting and their mark of this index go (listed again, they are
    /// overwritten whole).
    private func detachReplicas(_ names: Set<String>) {
        guard let directory, !isReadOnly else { return }
        for name in names.sorted() {
            guard let replica = directory.existing(name), replica.settings.string("primary") == self.name else { continue }
            var detach = IndexStore.Change(updateSettings: { (stored: IndexSettings) throws(SearchError) -> IndexSettings in
                try stored.applying(["primary": .null])
            })
            detach.forgetsMirror = true
            // Best effort, as `updateReplicas`: this index's write is committed. A replica left
            // attached keeps `primary`, but no longer listed, it is a regular index (`primaryName`).
            try? replica.write(detach)
        }
    }

    /// A read-modify-write that no other process's write can slip into: `compute` reads the
    /// stored state and returns the change; it is written only if nothing was committed since
    /// the generation it read from, else computed again (a few times, then an error).
    func writeReadModified(_ compute: () throws(SearchError) -> IndexStore.Change) throws(SearchError) {
        try refuseRecordWritesOnReplica()
        let listedBefore = Set(current.value.configuration.replicas)
        var applied = false
        do {
            writeLock.lock()
            defer { writeLock.unlock() }
            for _ in 0..<5 {
                let generation = try store.committedGeneration()
                var change = try compute()
                change.expectedGeneration = generation
                if let written = try store.writeIfCurrent(sized(change)) {
                    publish(written)
                    applied = true
                    break
                }
            }
        }
        guard applied else {
            throw SearchError(.internalError, "Index \(name) kept changing during the update; try again")
        }
        detachReplicas(listedBefore.subtracting(current.value.configuration.replicas))
        updateReplicas()
    }

    /// Applies a change; the caller holds `writeLock`.
    private func writeLocked(_ change: IndexStore.Change) throws(SearchError) {
        publish(try store.write(sized(change)))
    }

    /// The change, marked to derive the index anew when it is larger than the base: a delta
    /// the size of the index would cost every later write as much as a rebuild does.
    private func sized(_ change: IndexStore.Change) -> IndexStore.Change {
        var change = change
        change.deriveAnew = change.deriveAnew || change.size > current.value.base.documentCount
        return change
    }

    /// Deletes every record that matches the filters (Algolia's `deleteBy`): `filters`,
    /// `facetFilters`, `numericFilters` and `tagFilters`, combined by AND. At least one filter
    /// is required (deleting everything is `clearObjects()`), and no query.
    /// - Returns: how many records were deleted.
    @discardableResult
    public func deleteBy(_ parameters: SearchParameters) throws(SearchError) -> Int {
        guard parameters.query.isEmpty else {
            throw SearchError(.invalidParameter, "query: deleteBy deletes by filters only; remove the query")
        }
        try refuseRecordWritesOnReplica()
        let deleted = try deleteMatching(parameters)
        if deleted > 0 { updateReplicas() }
        return deleted
    }

    private func deleteMatching(_ parameters: SearchParameters) throws(SearchError) -> Int {
        writeLock.lock()
        defer { writeLock.unlock() }
        // The rowids come from the current snapshot; the write checks, under the database's
        // write lock, that no other process committed since (else it catches up and retries).
        for _ in 0..<5 {
            try followCommittedWritesLocked()
            let state = current.value
            var request = try SearchRequest(parameters, configuration: state.configuration)
            guard request.filter != nil || request.geo != nil else {
                throw SearchError(.invalidParameter,
                                  "deleteBy: expected filters, facetFilters, numericFilters, tagFilters or a geo area (aroundLatLng, insideBoundingBox, insidePolygon); to delete every record, clear the index")
            }
            // Filters and the geo area, as a search without words selects them.
            let context = StateContext(state: state)
            request.geo = context.resolved(request.geo)
            var rowIDs: [Int64] = []
            for (segment, segmentContext) in zip(state.segments, context.segments) {
                var documents = DocumentSet(capacity: segment.snapshot.documentCount, full: true)
                if let filter = request.filter { documents.formIntersection(segmentContext.filters.documents(matching: filter)) }
                if let geo = request.geo { documents.formIntersection(segmentContext.documents(matching: geo)) }
                if let live = segment.live { documents.formIntersection(live) }
                documents.forEach { document in
                    rowIDs.append(segment.snapshot.rowIDs[document])
                    return true
                }
            }
            guard !rowIDs.isEmpty else { return 0 }
            if let written = try store.writeIfCurrent(sized(IndexStore.Change(deletedRowIDs: rowIDs, expectedGeneration: state.generation))) {
                publish(written)
                return rowIDs.count
            }
        }
        throw SearchError(.internalError, "Index \(name) kept changing during deleteBy; try again")
    }

    // MARK: Reading

    /// The record with this objectID, or nil.
    public func object(_ objectID: String) throws(SearchError) -> JSONObject? {
        try store.record(objectID: objectID)
    }

    /// Runs one search (Algolia's `POST /1/indexes/{index}/query`).
    public func search(_ parameters: SearchParameters) throws(SearchError) -> SearchResponse {
        var context: StateContext?
        return try search(parameters, sharing: &context)
    }

    /// Runs one search, reusing the candidate and filter work in `context` from earlier queries
    /// of the same call (a multi-search). The context is replaced when the index has changed.
    func search(_ parameters: SearchParameters, sharing context: inout StateContext?) throws(SearchError) -> SearchResponse {
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<3 {
            try followCommittedWrites()
            let state = current.value
            if context?.state !== state { context = StateContext(state: state) }
            if var response = try search(parameters, context: context!) {
                let elapsed = clock.now - started
                response.processingTimeMS = Int(elapsed.components.seconds * 1000) + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
                return response
            }
            // A write committed after this snapshot was taken: retry on the snapshot of what is
            // committed now (`followCommittedWrites` waits for a write of this process in flight).
            context = nil
        }
        throw SearchError(.internalError, "Index \(name) kept changing during the search; try again")
    }

    /// InstantSearch's disjunctive faceting in one call: the response to `parameters`, except
    /// that each facet in `disjunctiveFacets` is counted with the request's filters minus that
    /// facet's own refinements (the `facetFilters` OR-groups made only of `attribute:value`
    /// for it), so the UI can offer the other values of an OR-refined facet. Refined values that
    /// no longer match are listed with count 0, and refined values past `maxValuesPerFacet` are
    /// listed after the top values with their counts (so the UI can always show them checked). Shares the query and filter work between the
    /// counts, so the whole costs little more than one search.
    ///
    /// ```swift
    /// var parameters = SearchParameters(query: "phone")
    /// parameters.facets = ["brand", "categories"]
    /// parameters.facetFilters = .list([.anyOf(["brand:Apple", "brand:Samsung"]), .single("categories:Phones")])
    /// let response = try index.search(parameters, disjunctiveFacets: ["brand"])
    /// ```
    public func search(_ parameters: SearchParameters, disjunctiveFacets: [String]) throws(SearchError) -> SearchResponse {
        var context: StateContext?
        var response = try search(parameters, sharing: &context)
        guard var facets = response.facets else { return response }
        let requested = parameters.facets ?? []
        for attribute in disjunctiveFacets where requested.contains(attribute) || requested.contains("*") {
            // Absent from `facets` when no value matched with its refinements applied.
            let position = facets.firstIndex(where: { $0.attribute == attribute })
            let (otherFilters, refined) = try DisjunctiveFaceting.removingRefinements(of: attribute, from: parameters.facetFilters)
            var countQuery = parameters
            countQuery.facetFilters = otherFilters
            countQuery.facets = [attribute]
            countQuery.hitsPerPage = 0
            countQuery.page = 0
            countQuery.offset = nil
            countQuery.length = nil
            // Every value's count (up to Algolia's 1000), so refined values past the cut keep theirs.
            countQuery.maxValuesPerFacet = 1000
            let all = try search(countQuery, sharing: &context).facet(attribute)?.values ?? []
            let limit = parameters.maxValuesPerFacet ?? settings.maxValuesPerFacet ?? 100
            var values = Array(all.prefix(limit))
            for value in refined where !values.contains(where: { Tokenizer.facetKey($0.value) == Tokenizer.facetKey(value) }) {
                let known = all.first { Tokenizer.facetKey($0.value) == Tokenizer.facetKey(value) }
                values.append(known ?? (value: value, count: 0))
            }
            if let position {
                facets[position].values = values
            } else if !all.isEmpty {
                facets.append(FacetCounts(attribute: attribute, values: values))
            }
        }
        response.facets = facets
        return response
    }

    /// The search on one state; nil when the store has moved past it.
    private func search(_ parameters: SearchParameters, context: StateContext) throws(SearchError) -> SearchResponse? {
        let state = context.state
        let configuration = state.configuration
        var request = try SearchRequest(parameters, configuration: configuration)
        var automaticRadius: Double?
        if let geo = request.geo, geo.center != nil, case .automatic = geo.radius {
            request.geo = context.resolved(geo)
            if case .metres(let radius)? = request.geo?.radius { automaticRadius = radius }
        }
        var matches = context.matching(request)
        if matches.allSatisfy({ $0.documents.isEmpty }) {
            // removeWordsIfNoResults: retry with more and more words optional.
            for words in request.wordRemoval.fallbacks(for: request.words) {
                request.words = words
                matches = context.matching(request)
                if !matches.allSatisfy({ $0.documents.isEmpty }) { break }
            }
        }
        var nbHits = matches.reduce(0) { $0 + $1.documents.count }
        if Task.isCancelled { throw .cancelled("the search") }
        let single = matches.count == 1

        var response = SearchResponse()
        func countFacets(_ attributes: [String], over matches: [SegmentMatch]) {
            guard !attributes.isEmpty else { return }
            let counted = matches.count == 1
                ? FacetCounter(snapshot: state.base).facets(attributes, over: matches[0].documents, documentCount: matches[0].documents.count,
                                                            maxValues: request.maxValuesPerFacet, sort: request.sortFacetValuesBy)
                : SegmentedSearch.facets(attributes, matches: matches, state: state, maxValues: request.maxValuesPerFacet,
                                         sort: request.sortFacetValuesBy)
            // In the order of the request's facets, whichever were counted first.
            let all = (response.facets ?? []) + counted.facets
            response.facets = request.facets.compactMap { attribute in all.first { $0.attribute == attribute } }
            for (attribute, stats) in counted.stats { response.facetsStats = (response.facetsStats ?? [:]).merging([attribute: stats]) { $1 } }
            response.exhaustiveFacetsCount = true
        }
        // Every segment has the same facet columns (the same settings).
        let distinctPath = request.distinct > 0 ? configuration.attributeForDistinct.flatMap { state.base.facetColumn($0)?.path } : nil
        // `facetingAfterDistinct` (every facet) or `afterDistinct(attribute)`: counted on the hits
        // distinct keeps, once they are known.
        let afterDistinct = distinctPath == nil ? [] : request.facets.filter { attribute in
            request.facetingAfterDistinct || configuration.facet(attribute)?.afterDistinct == true
        }
        countFacets(request.facets.filter { !afterDistinct.contains($0) }, over: matches)
        if Task.isCancelled { throw .cancelled("the search") }

        let (boosts, geo) = context.rankingInputs(request)
        // A virtual replica's relevant sort: only the most relevant matches, then in sort order.
        var ranked = matches
        var criteria = configuration.relevanceOrder
        let strictness = try relevantSortStrictness(parameters, settings: configuration.settings)
        if let strictness {
            let selected = SegmentedSearch.relevantSelection(matches, boosts: boosts, geo: geo, criteria: criteria, strictness: strictness)
            for index in ranked.indices { ranked[index].documents = selected[index] }
            criteria = []
            nbHits = ranked.reduce(0) { $0 + $1.documents.count }
        }
        var docs: [(segment: Int, document: Int)]
        if let path = distinctPath, single, let groups = state.base.facetColumn(path) {
            // Facets are counted before distinct (Algolia's default); nbHits after it.
            let (page, total, kept) = RelevanceRanker.distinctPage(of: ranked[0].documents, candidates: ranked[0].candidates, boosts: boosts[0],
                                                                   geo: geo[0], criteria: criteria, sortRuns: state.base.sortRuns,
                                                                   groups: groups, perGroup: request.distinct, start: request.start, count: request.count)
            (docs, nbHits) = (page.map { (0, $0) }, total)
            countFacets(afterDistinct, over: [SegmentMatch(documents: kept, candidates: nil)])
        } else if let path = distinctPath, !single {
            let kept: [DocumentSet]
            (docs, nbHits, kept) = SegmentedSearch.distinctPage(ranked, boosts: boosts, geo: geo, criteria: criteria, state: state, groupPath: path,
                                                                perGroup: request.distinct, start: request.start, count: request.count)
            countFacets(afterDistinct, over: kept.map { SegmentMatch(documents: $0, candidates: nil) })
        } else if single {
            // A sort replica (`ranking` led by asc/desc): the sort first, relevance within equal values.
            docs = RelevanceRanker.page(of: ranked[0].documents, candidates: ranked[0].candidates, boosts: boosts[0], geo: geo[0],
                                        criteria: criteria, sortRuns: state.base.sortRuns,
                                        start: request.start, count: request.count).map { (0, $0) }
        } else {
            docs = SegmentedSearch.page(ranked, boosts: boosts, geo: geo, criteria: criteria, state: state, start: request.start, count: request.count)
        }
        var records: [JSONObject] = []
        if !docs.isEmpty {
            guard let fetched = try store.records(rowIDs: docs.map { state.rowID(segment: $0.segment, document: $0.document) },
                                                  generation: state.generation) else {
                return nil
            }
            records = fetched
        }
        let builders = matches.map { HitBuilder(request: request, configuration: configuration, candidates: $0.candidates) }
        response.hits = zip(records, docs).map { record, doc in builders[doc.segment].hit(for: record) }
        if parameters.getRankingInfo == true {
            for (position, doc) in docs.enumerated() {
                guard case .object(var hit) = response.hits[position] else { continue }
                hit["_rankingInfo"] = RankingInfo.json(for: doc.document, candidates: matches[doc.segment].candidates,
                                                       boosts: boosts[doc.segment], geo: geo[doc.segment],
                                                       userScore: state.documentCount - state.ordinal(segment: doc.segment, document: doc.document))
                response.hits[position] = .object(hit)
            }
        }
        if let strictness {
            // Relevant sort: the hits are the relevant ones (`nbSortedHits`); `nbHits` counts every match.
            response.nbSortedHits = nbHits
            response.appliedRelevancyStrictness = strictness
            if distinctPath == nil { response.nbHits = matches.reduce(0) { $0 + $1.documents.count } } else { response.nbHits = nbHits }
        } else {
            response.nbHits = nbHits
        }
        response.page = request.page
        response.hitsPerPage = request.hitsPerPage
        if parameters.offset != nil {
            response.offset = request.start
            response.length = request.count
        }
        if request.hitsPerPage > 0 {
            let pages = (nbHits + request.hitsPerPage - 1) / request.hitsPerPage
            let limit = (request.paginationLimitedTo + request.hitsPerPage - 1) / request.hitsPerPage
            response.nbPages = min(pages, limit)
        }
        response.query = parameters.query
        response.params = parameters.urlEncoded
        response.automaticRadius = automaticRadius.map { String(Int($0)) }
        response.index = name
        if parameters.clickAnalytics == true { response.queryID = SearchIndex.queryID() }
        return response
    }

    /// `relevancyStrictness` (0–100, by default 100) when this index is a virtual replica (its
    /// primary lists it as `virtual(name)`): its sorts are relevant sorts. Nil otherwise. The
    /// primary's settings as last committed, by any process (as this process last read them
    /// when the primary cannot be read now: the replica's search still answers).
    private func relevantSortStrictness(_ parameters: SearchParameters, settings: IndexSettings) throws(SearchError) -> Int? {
        guard let primaryName = settings.string("primary"), let primary = directory?.existing(primaryName) else { return nil }
        try? primary.followCommittedWrites()
        guard primary.current.value.configuration.virtualReplicas.contains(name) else { return nil }
        return try (parameters.other["relevancyStrictness"] ?? settings.values["relevancyStrictness"]).map { value throws(SearchError) in
            try ParameterReader(name: "relevancyStrictness", value: value).int(in: 0...100)
        } ?? 100
    }

    static func queryID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
    }

    /// Searches the values of a `searchable()` facet (Algolia's search for facet values):
    /// values with a word that starts with each word of `facetQuery`, or does so within the
    /// typos the request's typo tolerance allows (as a query word: `Peanutz` finds `Peanuts`),
    /// counted over the records that match the request's query and filters, most frequent first.
    public func searchForFacetValues(facet: String, parameters: SearchParameters) throws(SearchError) -> FacetValuesResponse {
        var context: StateContext?
        return try searchForFacetValues(facet: facet, parameters: parameters, sharing: &context)
    }

    func searchForFacetValues(facet: String, parameters: SearchParameters,
                              sharing context: inout StateContext?) throws(SearchError) -> FacetValuesResponse {
        let clock = ContinuousClock()
        let started = clock.now
        try followCommittedWrites()
        let state = current.value
        if context?.state !== state { context = StateContext(state: state) }
        let configuration = state.configuration
        guard let attribute = configuration.facet(facet), attribute.searchable, state.base.facetColumn(facet) != nil else {
            throw SearchError(.invalidParameter,
                              "Cannot search in `\(facet)` attribute, you need to add `searchable(\(facet))` to attributesForFaceting.")
        }
        let request = try SearchRequest(parameters, configuration: configuration)
        var matches = context!.matching(request)
        if Task.isCancelled { throw .cancelled("the search") }
        // `facetingAfterDistinct` or `afterDistinct(facet)`: the values of the hits distinct keeps.
        if request.distinct > 0, request.facetingAfterDistinct || attribute.afterDistinct,
           let path = configuration.attributeForDistinct.flatMap({ state.base.facetColumn($0)?.path }) {
            let (boosts, geo) = context!.rankingInputs(request)
            let kept = SegmentedSearch.distinctPage(matches, boosts: boosts, geo: geo, criteria: configuration.relevanceOrder, state: state,
                                                    groupPath: path, perGroup: request.distinct, start: 0, count: 0).kept
            matches = kept.map { SegmentMatch(documents: $0, candidates: nil) }
        }
        let counts = SegmentedSearch.valueCounts(facet, matches: matches, state: state)
        let separators = configuration.separators
        let facetWords = QueryWords.parse(parameters.facetQuery ?? "", queryType: .prefixAll, separators: separators)
        let valueWords = facetWords.isEmpty ? [] : counts.map { Tokenizer.words($0.value, separators: separators) }
        var highlighter = HighlightBuilder(words: facetWords, preTag: request.highlightPreTag, postTag: request.highlightPostTag,
                                           separators: separators)
        highlighter.variantTerms = SearchIndex.typoVariants(of: facetWords, among: valueWords, policy: request.typoPolicy)
        var hits: [FacetHit] = []
        for (position, (value, count)) in counts.enumerated() {
            if !facetWords.isEmpty {
                let tokens = valueWords[position]
                guard facetWords.indices.allSatisfy({ i in
                    tokens.contains { $0.hasPrefix(facetWords[i].folded) || highlighter.variantTerms[i].contains($0) }
                }) else { continue }
            }
            let highlighted = highlighter.highlight(value)["value"]?.stringValue ?? value
            hits.append(FacetHit(value: value, highlighted: highlighted, count: count))
        }
        hits.sort { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
        let elapsed = clock.now - started
        let maxFacetHits = parameters.maxFacetHits ?? configuration.settings.int("maxFacetHits").map { min(max($0, 1), 100) } ?? 10
        return FacetValuesResponse(facetHits: Array(hits.prefix(maxFacetHits)), exhaustiveFacetsCount: true,
                                   processingTimeMS: Int(elapsed.components.attoseconds / 1_000_000_000_000_000))
    }
}

extension SearchIndex {
    /// For each facet query word, the words of the facet values that it matches only with
    /// typos, found as a query word's are (`TypoCandidates` over the values' own vocabulary,
    /// within `policy`'s typos for that word).
    /// - Complexity: O(w log w) for the w distinct words of the values, plus the typo walk.
    static func typoVariants(of words: [QueryWord], among valueWords: [[String]], policy: TypoPolicy) -> [Set<String>] {
        let limits = words.map { policy.maxTypos(for: $0) }
        guard limits.contains(where: { $0 > 0 }) else { return words.map { _ in [] } }
        let vocabulary = TermTable.build(Array(Set(valueWords.joined()))).0
        return words.indices.map { i in
            Set(TypoCandidates.find(words[i].folded, isPrefix: words[i].isPrefix, maxTypos: limits[i], in: vocabulary)
                .map { vocabulary.term($0.term) })
        }
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

/// Opens indices of the same engine by name (how a primary reaches its replicas).
struct IndexDirectory: Sendable {
    let open: @Sendable (String) throws(SearchError) -> SearchIndex
    /// The index of that name if it exists (never creates one).
    let existing: @Sendable (String) -> SearchIndex?
}

/// A value behind a lock: readers take the current value, writers replace it whole.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func modify<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&stored) }
    }
}
