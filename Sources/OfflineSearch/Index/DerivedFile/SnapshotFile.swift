import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The derived index kept beside the SQLite database (`NAME.index.derived`), so opening an
/// index maps flat arrays from a file instead of walking SQLite blob pages: each array's
/// elements start 8-aligned, so the largest are used in place (`FlatArray`).
///
/// It is a cache of what the records in SQLite determine, and it is never trusted blindly: a
/// 64-byte header says what it is and what it was derived from, and a checksum covers the rest.
///
/// ```
/// offset  size  field (little-endian)
///      0     8  magic "OSDERIVD"
///      8     4  header version (2)
///     12     4  payload format (IndexSnapshot.formatVersion)
///     16    16  the index's identity (its `indexID`, a random id SQLite keeps from its creation)
///     32     8  the SQLite generation the payload was derived from
///     40     8  payload length in bytes (the file is exactly 64 + this)
///     48     8  payload checksum (`payloadChecksum`: XXH64 of the XXH64s of its 4 MiB pieces)
///     56     8  header checksum (XXH64 of bytes 0..<56)
///     64        payload (IndexSnapshot.encoded())
/// ```
///
/// Any mismatch — another format, another index's file, a generation the change log does not
/// reach back to (see `RecordStore.catchUp`), a truncated,
/// extended or damaged file — makes `read` return nil, and the caller rebuilds the file from the
/// records. The file is replaced atomically (written aside, then renamed) when the index is
/// derived anew (a write that rebuilds it, or a merge), not after each commit: an index opened
/// later reads it, then the writes committed since from the change log.
enum SnapshotFile {
    static let magic: [UInt8] = Array("OSDERIVD".utf8)
    /// 2: the payload checksum is computed by pieces (verified on every core at open).
    static let headerVersion: UInt32 = 2
    static let headerSize = 64

    /// What the header records about the payload.
    struct Header {
        var formatVersion: UInt32
        var identity: (UInt64, UInt64)
        var generation: Int64
        var payloadLength: UInt64
        var payloadChecksum: UInt64

        func encoded() -> [UInt8] {
            var writer = BinaryWriter()
            for byte in SnapshotFile.magic { writer.write(byte) }
            writer.write(SnapshotFile.headerVersion)
            writer.write(formatVersion)
            writer.write(identity.0)
            writer.write(identity.1)
            writer.write(generation)
            writer.write(payloadLength)
            writer.write(payloadChecksum)
            writer.write(XXHash64.hash(writer.bytes))
            return writer.bytes
        }

        /// The header in `bytes`, nil unless its magic, version and checksum are right.
        init?(decoding bytes: [UInt8]) {
            guard bytes.count == SnapshotFile.headerSize, bytes.starts(with: SnapshotFile.magic) else { return nil }
            func field<T: FixedWidthInteger>(_ offset: Int, _ type: T.Type) -> T {
                bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
            }
            guard field(8, UInt32.self) == SnapshotFile.headerVersion,
                  field(56, UInt64.self) == XXHash64.hash(Array(bytes[0..<56])) else { return nil }
            self.init(formatVersion: field(12, UInt32.self), identity: (field(16, UInt64.self), field(24, UInt64.self)),
                      generation: field(32, Int64.self), payloadLength: field(40, UInt64.self), payloadChecksum: field(48, UInt64.self))
        }

        init(formatVersion: UInt32, identity: (UInt64, UInt64), generation: Int64, payloadLength: UInt64, payloadChecksum: UInt64) {
            self.formatVersion = formatVersion
            self.identity = identity
            self.generation = generation
            self.payloadLength = payloadLength
            self.payloadChecksum = payloadChecksum
        }
    }

    /// The 16 bytes that stand for an index's `indexID` in the header.
    static func identity(of indexID: String) -> (UInt64, UInt64) {
        let bytes = Array(indexID.utf8)
        return (XXHash64.hash(bytes, seed: 1), XXHash64.hash(bytes, seed: 2))
    }

    /// Writes the file aside, then renames it into place. Returns its size and payload checksum.
    @discardableResult
    static func write(_ snapshot: IndexSnapshot, indexID: String, to path: String) throws -> (size: Int, checksum: UInt64) {
        let writing = try Writing(to: path)
        writing.encode { snapshot.encode(into: &$0) }
        return try writing.finish(indexID: indexID, generation: snapshot.generation)
    }

    /// A derived file being written: made aside, its payload streamed after a blank header (its
    /// length and checksum are known at the end) and hashed by pieces on the way, in order, by
    /// one thread at a time; then `finish` writes the header in place, syncs the file and
    /// renames it over `path`. The payload may be encoded in parts, on different threads, as
    /// they are ready (an import's postings while its forward index is laid out). Released
    /// unfinished, the file is removed.
    final class Writing: @unchecked Sendable {
        // @unchecked: used by one thread at a time; a thread hands it over by finishing the work
        // the next one waits for (`BackgroundWork`).
        let path: String
        private let temporary: String
        private let output: Output
        private var writer: BinaryWriter
        /// How many parts were encoded so far (the caller's count: see `SnapshotAccumulator`).
        private(set) var partsEncoded = 0
        private var finished = false

        /// Where the payload's bytes go: hashed, then written.
        private final class Output {
            let descriptor: Int32
            var hasher = PieceHasher()
            var failure: (any Error)?
            init(descriptor: Int32) { self.descriptor = descriptor }
        }

        init(to path: String) throws {
            self.path = path
            temporary = TemporaryFile.path(besides: path)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let output = Output(descriptor: descriptor)
            self.output = output
            writer = BinaryWriter { bytes in
                guard output.failure == nil else { return }
                output.hasher.update(bytes)
                do { try SnapshotFile.writeAll(bytes, to: output.descriptor) } catch { output.failure = error }
            }
            // On failure `deinit` closes and removes the file (every property is set by now).
            try SnapshotFile.writeAll([UInt8](repeating: 0, count: headerSize), to: descriptor)
        }

        deinit {
            close(output.descriptor)
            if !finished { unlink(temporary) }
        }

        /// Encodes the next part of the payload (a write error is reported by `finish`).
        func encode(_ part: (inout BinaryWriter) -> Void) {
            part(&writer)
            partsEncoded += 1
        }

        /// Writes the header, syncs the file and renames it into place. Returns its size and
        /// payload checksum. On failure the file is removed.
        func finish(indexID: String, generation: Int64) throws -> (size: Int, checksum: UInt64) {
            do {
                writer.flush()
                if let failure = output.failure { throw failure }
                let header = Header(formatVersion: IndexSnapshot.formatVersion, identity: identity(of: indexID), generation: generation,
                                    payloadLength: UInt64(writer.count), payloadChecksum: output.hasher.finalize())
                let headerBytes = header.encoded()
                var headerWritten: Int
                repeat {
                    headerWritten = headerBytes.withUnsafeBytes { pwrite(output.descriptor, $0.baseAddress!, $0.count, 0) }
                } while headerWritten < 0 && errno == EINTR
                guard headerWritten == headerSize else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                // On disk before it takes the old file's place: a write error the system reports
                // only when the data reaches the disk fails here, not in a later search.
                guard fsync(output.descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                if rename(temporary, path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                finished = true
                return (headerSize + writer.count, header.payloadChecksum)
            } catch {
                unlink(temporary)
                finished = true
                throw error
            }
        }
    }

    fileprivate static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
        try bytes.withUnsafeBytes { try writeAll($0, to: descriptor) }
    }

    fileprivate static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var done = 0
        while done < buffer.count {
            let result = Foundation.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            done += result
        }
    }

    /// The snapshot in the file, if the file is there, whole, this index's, derived at one of
    /// `generations` under the same settings, and its checksum holds.
    ///
    /// The file is mapped, not read: the payload's checksum is computed from the mapping (each
    /// piece released from this process's memory once hashed), the small arrays are copied out,
    /// and the largest (postings, the forward index) stay views of the mapping, loaded page by
    /// page as searches touch them. The derived file is only ever replaced whole (written aside,
    /// then renamed), so the mapped file never changes under the views.
    ///
    /// With `writtenChecksum` (the file this process just wrote, its checksum as written), the
    /// payload is not hashed again when the header holds that checksum, and nil is returned
    /// unless the file could be mapped (a copy would only add to the snapshot built).
    static func read(from path: String, indexID: String, configuration: IndexConfiguration,
                     generations: ClosedRange<Int64>, writtenChecksum: UInt64? = nil) -> IndexSnapshot? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let fileSize = Int64(status.st_size)
        guard fileSize >= Int64(headerSize), fileSize <= Int64(Int.max) else { return nil }
        var headerBytes = [UInt8](repeating: 0, count: headerSize)
        let headerRead = headerBytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, headerSize, 0) }
        guard headerRead == headerSize, let header = Header(decoding: headerBytes),
              header.formatVersion == IndexSnapshot.formatVersion,
              header.identity == identity(of: indexID),
              generations.contains(header.generation),
              header.payloadLength <= UInt64(Int.max), fileSize - Int64(headerSize) == Int64(header.payloadLength),
              let file = MappedFile(descriptor: descriptor, length: Int(fileSize)),
              writtenChecksum == nil || (file.isMapped && header.payloadChecksum == writtenChecksum)
        else { return nil }
        let payload = headerSize..<Int(fileSize)
        var reader = MappedReader(file: file, range: payload)
        // Decoding checks counts against what is left, so damage cannot make it read past the
        // end or allocate more than the file holds; the checksum, computed after (the pages the
        // copies touched are then in memory already), says whether it was damaged. Nothing of
        // the snapshot is used before both hold.
        let snapshot = IndexSnapshot.decode(from: &reader, configuration: configuration, generation: header.generation)
        guard let snapshot, reader.isAtEnd,
              writtenChecksum != nil || checksum(of: file, payload) == header.payloadChecksum else {
            file.release(0..<file.length)
            return nil
        }
        if writtenChecksum != nil { file.release(0..<file.length) }
        return snapshot
    }

    /// The size of the pieces the payload checksum is computed from.
    static let checksumPiece = 4 << 20

    /// The payload's checksum: XXH64 of the little-endian XXH64s of its `checksumPiece`-byte
    /// pieces, so that opening a large index verifies the pieces on every core at once.
    static func payloadChecksum(_ payload: UnsafeRawBufferPointer, release: (@Sendable (Range<Int>) -> Void)? = nil) -> UInt64 {
        let pieces = (payload.count + checksumPiece - 1) / checksumPiece
        let allocated = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(pieces, 1))
        defer { allocated.deallocate() }
        // Unchecked: each iteration reads its own piece of the (unchanging) payload and writes
        // its own slot of `digests`; `concurrentPerform` returns when all are done.
        nonisolated(unsafe) let digests = allocated
        nonisolated(unsafe) let bytes = payload
        DispatchQueue.concurrentPerform(iterations: pieces) { piece in
            let range = piece * checksumPiece..<min((piece + 1) * checksumPiece, bytes.count)
            digests[piece] = XXHash64.hash(UnsafeRawBufferPointer(rebasing: bytes[range]))
            release?(range)
        }
        return combined(digests.prefix(pieces))
    }

    /// The payload checksum from its pieces' XXH64s, in order (one rule for `payloadChecksum`
    /// and `PieceHasher`).
    static func combined(_ digests: some Sequence<UInt64>) -> UInt64 {
        var list = BinaryWriter()
        for digest in digests { list.write(digest) }
        return XXHash64.hash(list.bytes)
    }

    /// `payloadChecksum` of `range` of the mapping, each piece released from memory once hashed.
    private static func checksum(of file: MappedFile, _ range: Range<Int>) -> UInt64 {
        payloadChecksum(UnsafeRawBufferPointer(start: file.base + range.lowerBound, count: range.count)) { piece in
            file.release(piece.lowerBound + range.lowerBound..<piece.upperBound + range.lowerBound)
        }
    }

    static func remove(at path: String) {
        unlink(path)
    }
}

/// `SnapshotFile.payloadChecksum`, computed as the payload streams by (while it is written).
struct PieceHasher {
    private var digests: [UInt64] = []
    private var piece = XXHash64()
    private var inPiece = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while !rest.isEmpty {
            let taken = min(rest.count, SnapshotFile.checksumPiece - inPiece)
            piece.update(UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            inPiece += taken
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            if inPiece == SnapshotFile.checksumPiece { endPiece() }
        }
    }

    private mutating func endPiece() {
        digests.append(piece.finalize())
        piece = XXHash64()
        inPiece = 0
    }

    mutating func finalize() -> UInt64 {
        if inPiece > 0 { endPiece() }
        return SnapshotFile.combined(digests)
    }
}

/// Reads a snapshot's payload from its mapping: values and small arrays are copied, large
/// arrays asked for as `FlatArray` stay in the mapping. Counts are checked against the bytes
/// left, so no count can make it read past the payload or allocate more than the file holds.
private struct MappedReader: SnapshotReader {
    let file: MappedFile
    private var position: Int
    private let end: Int

    /// Arrays from this size on are left in the mapping (smaller ones are copied: a page each
    /// would cost more than it saves).
    static let mappedFrom = 1 << 16

    init(file: MappedFile, range: Range<Int>) {
        self.file = file
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position == end }

    private mutating func take(_ count: Int) throws(BinaryReaderError) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= end - position else { throw BinaryReaderError() }
        defer { position += count }
        return UnsafeRawBufferPointer(start: file.base + position, count: count)
    }

    mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(BinaryReaderError) -> T {
        T(littleEndian: try take(MemoryLayout<T>.size).loadUnaligned(as: T.self))
    }

    /// An array's count (checked against the bytes left) and its elements' offset, past the
    /// padding that aligns them.
    private mutating func arrayHeader(stride: Int) throws(BinaryReaderError) -> (count: Int, offset: Int) {
        let stored = try read(UInt64.self)
        _ = try take(BinaryWriter.padding(at: position - SnapshotFile.headerSize))
        guard stored <= UInt64((end - position) / max(stride, 1)) else { throw BinaryReaderError() }
        return (Int(stored), position)
    }

    mutating func readArray<T: BitwiseCopyable>(of type: T.Type) throws(BinaryReaderError) -> [T] {
        let (count, _) = try arrayHeader(stride: MemoryLayout<T>.stride)
        return try copy(count)
    }

    mutating func readFlatArray<T: BitwiseCopyable>(of type: T.Type) throws(BinaryReaderError) -> FlatArray<T> {
        let (count, offset) = try arrayHeader(stride: MemoryLayout<T>.stride)
        guard count * MemoryLayout<T>.stride >= MappedReader.mappedFrom, offset % MemoryLayout<T>.alignment == 0 else {
            return FlatArray(try copy(count))
        }
        _ = try take(count * MemoryLayout<T>.stride)
        return FlatArray(mapping: file, offset: offset, count: count)
    }

    /// The next `count` elements, copied out of the mapping.
    private mutating func copy<T: BitwiseCopyable>(_ count: Int) throws(BinaryReaderError) -> [T] {
        let bytes = try take(count * MemoryLayout<T>.stride)
        return [T](unsafeUninitializedCapacity: count) { target, initialized in
            UnsafeMutableRawBufferPointer(target).copyMemory(from: bytes)
            initialized = count
        }
    }

    mutating func readString() throws(BinaryReaderError) -> String {
        let (count, _) = try arrayHeader(stride: 1)
        return String(decoding: try take(count), as: UTF8.self)
    }
}
