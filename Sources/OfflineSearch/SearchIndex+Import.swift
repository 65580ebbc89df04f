import Foundation
import SearchAPI

// Adding records: saveObjects and the imports of a file, a text or parsed records.
extension SearchIndex {
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
        try write(RecordStore.Change(clearFirst: replaceExisting, upserts: objects))
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
    /// `settings` and `rules`, as `importRecords(_:replaceExisting:settings:rules:)`.
    public func importRecords(from url: URL, replaceExisting: Bool = false, settings patch: JSONObject? = nil,
                              rules: [JSONObject]? = nil) throws(SearchError) -> ImportReport {
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
                                     replaceExisting: replaceExisting, settings: patch, rules: rules)
        }
        guard let file = MappedFile(descriptor: descriptor, length: Int(status.st_size)) else { throw failure() }
        let bytes = UnsafeBufferPointer(start: file.base.assumingMemoryBound(to: UInt8.self), count: file.length)
        return try importRecords(utf8: bytes, source: url.path, replaceExisting: replaceExisting, settings: patch, rules: rules) { read in
            file.release(0..<read)
        }
    }

    /// Imports the records of a JSON array or JSON Lines text (standard input, a file read by
    /// the caller), a batch at a time as `importRecords(from:)`.
    public func importRecords(utf8 text: [UInt8], source: String, replaceExisting: Bool = false,
                              settings patch: JSONObject? = nil, rules: [JSONObject]? = nil) throws(SearchError) -> ImportReport {
        try text.withUnsafeBufferPointer { buffer throws(SearchError) in
            try importRecords(utf8: buffer, source: source, replaceExisting: replaceExisting, settings: patch, rules: rules)
        }
    }

    /// Saves parsed records (`readRecords(from:)`), reporting how many got a generated objectID.
    ///
    /// With `settings` (a partial settings object, as `setSettings` takes), the settings and the
    /// records are committed in one transaction: a process killed during the import leaves the
    /// old records under the old settings, or the new records under the new settings. `rules`
    /// are saved in the same transaction (each replacing the rule with its objectID; with
    /// `replaceExisting`, only they remain), every one checked first.
    public func importRecords(_ records: [JSONValue], replaceExisting: Bool = false,
                              settings patch: JSONObject? = nil, rules: [JSONObject]? = nil) throws(SearchError) -> ImportReport {
        let generated = records.count { record in record["objectID"] == nil || record["objectID"]?.isNull == true }
        var objects: [JSONObject] = []
        objects.reserveCapacity(records.count)
        for (position, record) in records.enumerated() {
            objects.append(try SearchIndex.normalizedRecord(record, position: position))
        }
        if let patch { try checkReplicaList(patch) }
        let rulesChange = try importedRules(rules, replaceExisting: replaceExisting, settings: patch)
        try write(RecordStore.Change(clearFirst: replaceExisting, upserts: objects, updateSettings: patch.map(settingsUpdate),
                                     updateRules: rulesChange))
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
                       settings patch: JSONObject?, rules: [JSONObject]? = nil, released: (@Sendable (Int) -> Void)? = nil,
                       streamFrom: Int = IndexState.deltaLimit, batchSize: Int = RecordStore.batchSize) throws(SearchError) -> ImportReport {
        if let patch { try checkReplicaList(patch) }
        let rulesChange = try importedRules(rules, replaceExisting: replaceExisting, settings: patch)
        let reader = RecordReader(bytes, source: source, released: released)
        var first: [JSONObject]? = try reader.read(upTo: streamFrom + 1).records
        var change = RecordStore.Change(clearFirst: replaceExisting, updateSettings: patch.map(settingsUpdate), updateRules: rulesChange)
        var next: BackgroundWork<Result<RecordStore.Change.RecordBatch, SearchError>>?
        // The reader reads `bytes`: nothing may still parse them when this returns.
        defer { _ = next?.wait() }
        if first!.count <= streamFrom {
            change.upserts = first!
        } else {
            // The rest of the file as the first records were: a hint, not a limit.
            change.expectedBatchedRecords = Int(Double(reader.position) * Double(bytes.count) / Double(max(reader.bytesRead, 1)))
            change.upsertBatches = { () throws(SearchError) -> RecordStore.Change.RecordBatch? in
                let batch: RecordStore.Change.RecordBatch
                if let records = first {
                    first = nil
                    batch = RecordStore.Change.RecordBatch(records: records)
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
    final class RecordReader: @unchecked Sendable {
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
        func read(upTo count: Int, bodies: Bool = false) throws(SearchError) -> RecordStore.Change.RecordBatch {
            var batch = RecordStore.Change.RecordBatch(records: [])
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
    static func readBytes(of descriptor: Int32, path: String) throws(SearchError) -> [UInt8] {
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
}

extension SearchIndex {
    /// An import's rules as a change of the stored ones (nil: none given), checked against the
    /// settings the import leaves.
    func importedRules(_ rules: [JSONObject]?, replaceExisting: Bool,
                       settings patch: JSONObject?) throws(SearchError) -> (@Sendable ([JSONObject]) throws(SearchError) -> [JSONObject])? {
        guard let rules else { return nil }
        let settings = try patch.map { patch throws(SearchError) in try self.settings.applying(patch) }
        return try rulesUpdate(rules, clearExisting: replaceExisting, settings: settings)
    }
}
