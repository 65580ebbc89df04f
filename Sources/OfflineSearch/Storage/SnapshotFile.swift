import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The derived index kept beside the SQLite database (`NAME.index.derived`), so opening an
/// index reads flat arrays straight from a file instead of walking SQLite blob pages.
///
/// It is a cache of what the records in SQLite determine, and it is never trusted blindly: a
/// 64-byte header says what it is and what it was derived from, and a checksum covers the rest.
///
/// ```
/// offset  size  field (little-endian)
///      0     8  magic "OSDERIVD"
///      8     4  header version (1)
///     12     4  payload format (IndexSnapshot.formatVersion)
///     16    16  the index's identity (its `indexID`, a random id SQLite keeps from its creation)
///     32     8  the SQLite generation the payload was derived from
///     40     8  payload length in bytes (the file is exactly 64 + this)
///     48     8  payload checksum (XXH64)
///     56     8  header checksum (XXH64 of bytes 0..<56)
///     64        payload (IndexSnapshot.encoded())
/// ```
///
/// Any mismatch — another format, another index's file, a generation the change log does not
/// reach back to (see `IndexStore.catchUp`), a truncated,
/// extended or damaged file — makes `read` return nil, and the caller rebuilds the file from the
/// records. The file is replaced atomically (written aside, then renamed) when the index is
/// derived anew (a write that rebuilds it, or a merge), not after each commit: an index opened
/// later reads it, then the writes committed since from the change log.
enum SnapshotFile {
    static let magic: [UInt8] = Array("OSDERIVD".utf8)
    static let headerVersion: UInt32 = 1
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

    static func write(_ snapshot: IndexSnapshot, indexID: String, to path: String) throws {
        let payload = snapshot.encoded()
        let header = Header(formatVersion: IndexSnapshot.formatVersion, identity: identity(of: indexID), generation: snapshot.generation,
                            payloadLength: UInt64(payload.count), payloadChecksum: XXHash64.hash(payload))
        let temporary = TemporaryFile.path(besides: path)
        do {
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(descriptor) }
            try writeAll(header.encoded(), to: descriptor)
            try writeAll(payload, to: descriptor)
            if rename(temporary, path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                done += result
            }
        }
    }

    /// The snapshot in the file, if the file is there, whole, this index's, derived at one of
    /// `generations` under the same settings, and its checksum holds.
    static func read(from path: String, indexID: String, configuration: IndexConfiguration,
                     generations: ClosedRange<Int64>) -> IndexSnapshot? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let fileSize = Int64(status.st_size)
        var headerBytes = [UInt8](repeating: 0, count: headerSize)
        let headerRead = headerBytes.withUnsafeMutableBytes { FileReader.readFully(descriptor, into: $0.baseAddress!, count: headerSize) }
        guard headerRead == headerSize, let header = Header(decoding: headerBytes),
              header.formatVersion == IndexSnapshot.formatVersion,
              header.identity == identity(of: indexID),
              generations.contains(header.generation),
              header.payloadLength <= UInt64(Int.max), fileSize - Int64(headerSize) == Int64(header.payloadLength)
        else { return nil }
        var reader = FileReader(descriptor: descriptor, payloadLength: Int(header.payloadLength))
        // Decoding checks counts against what is left, so damage cannot make it read past the
        // end or allocate more than the file holds; the checksum then says whether it was damaged.
        guard let snapshot = IndexSnapshot.decode(from: &reader, configuration: configuration, generation: header.generation),
              reader.finish() == header.payloadChecksum
        else { return nil }
        return snapshot
    }

    static func remove(at path: String) {
        unlink(path)
    }
}

/// Reads a snapshot's payload sequentially: small values through a buffer (a snapshot holds
/// many short strings), large arrays straight into their own storage (one copy from the page
/// cache). Every byte read from the file goes through the checksum.
private struct FileReader: SnapshotReader {
    let descriptor: Int32
    /// Payload bytes not handed out yet: no count may ask for more.
    private var remaining: Int
    /// Payload bytes not read from the file yet.
    private var unread: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 18)
    private var position = 0
    private var available = 0
    private var hasher = XXHash64()

    init(descriptor: Int32, payloadLength: Int) {
        self.descriptor = descriptor
        remaining = payloadLength
        unread = payloadLength
    }

    /// Reads up to `count` bytes, retrying short reads; returns how many were read.
    static func readFully(_ descriptor: Int32, into pointer: UnsafeMutableRawPointer, count: Int) -> Int {
        var done = 0
        while done < count {
            let result = Foundation.read(descriptor, pointer + done, count - done)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { break }
            done += result
        }
        return done
    }

    /// Reads exactly `count` payload bytes from the file (hashing them), or fails.
    private mutating func readFromFile(into pointer: UnsafeMutableRawPointer, count: Int) throws(BinaryReaderError) {
        guard count <= unread, FileReader.readFully(descriptor, into: pointer, count: count) == count else { throw BinaryReaderError() }
        unread -= count
        hasher.update(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private mutating func readExactly(into pointer: UnsafeMutableRawPointer, count: Int) throws(BinaryReaderError) {
        guard count <= remaining else { throw BinaryReaderError() }
        remaining -= count
        // What the buffer holds first.
        let fromBuffer = min(count, available - position)
        if fromBuffer > 0 {
            buffer.withUnsafeBytes { bytes in
                pointer.copyMemory(from: bytes.baseAddress! + position, byteCount: fromBuffer)
            }
            position += fromBuffer
        }
        let rest = count - fromBuffer
        guard rest > 0 else { return }
        if rest >= buffer.count / 2 {
            try readFromFile(into: pointer + fromBuffer, count: rest)
            return
        }
        // Refill the buffer: as much as it holds, or what is left of the payload.
        let refill = min(buffer.count, unread)
        guard refill >= rest else { throw BinaryReaderError() }
        let descriptor = self.descriptor
        let filled = buffer.withUnsafeMutableBytes { FileReader.readFully(descriptor, into: $0.baseAddress!, count: refill) }
        guard filled == refill else { throw BinaryReaderError() }
        unread -= refill
        buffer.withUnsafeBytes { bytes in
            hasher.update(UnsafeRawBufferPointer(rebasing: bytes[0..<refill]))
            (pointer + fromBuffer).copyMemory(from: bytes.baseAddress!, byteCount: rest)
        }
        position = rest
        available = refill
    }

    mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(BinaryReaderError) -> T {
        var value = T.zero
        try withUnsafeMutableBytes(of: &value) { (bytes) throws(BinaryReaderError) in
            try readExactly(into: bytes.baseAddress!, count: bytes.count)
        }
        return T(littleEndian: value)
    }

    /// A stored count, checked against the bytes left: damage cannot ask for more memory than
    /// the file holds.
    private mutating func readCount(stride: Int) throws(BinaryReaderError) -> Int {
        let stored = try read(UInt64.self)
        guard stored <= UInt64(remaining / max(stride, 1)) else { throw BinaryReaderError() }
        return Int(stored)
    }

    mutating func readArray<T: BitwiseCopyable>(of type: T.Type) throws(BinaryReaderError) -> [T] {
        try readElements(try readCount(stride: MemoryLayout<T>.stride))
    }

    private mutating func readElements<T: BitwiseCopyable>(_ count: Int) throws(BinaryReaderError) -> [T] {
        guard count > 0 else { return [] }
        var failure: BinaryReaderError?
        let storage = [T](unsafeUninitializedCapacity: count) { target, initialized in
            do throws(BinaryReaderError) {
                try readExactly(into: UnsafeMutableRawPointer(target.baseAddress!), count: count * MemoryLayout<T>.stride)
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return storage
    }

    mutating func readString() throws(BinaryReaderError) -> String {
        let count = try readCount(stride: 1)
        if count <= available - position {
            remaining -= count
            let string = buffer.withUnsafeBufferPointer { bytes in
                String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + count]), as: UTF8.self)
            }
            position += count
            return string
        }
        let bytes: [UInt8] = try readElements(count)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The checksum of the whole payload, once decoding is done: nil when decoding did not use
    /// every byte (the file holds something else than what its header says).
    mutating func finish() -> UInt64? {
        guard remaining == 0, unread == 0 else { return nil }
        return hasher.finalize()
    }
}
