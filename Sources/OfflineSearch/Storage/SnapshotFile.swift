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
/// It is a cache of what the records in SQLite determine: it carries the SQLite generation it
/// was built from, is replaced atomically (written aside, then renamed) after each committed
/// write, and is rebuilt from the records when it is missing, stale or unreadable.
enum SnapshotFile {
    static func write(_ snapshot: IndexSnapshot, to path: String) throws {
        let bytes = snapshot.encoded()
        let temporary = path + ".\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let url = URL(fileURLWithPath: temporary)
        do {
            try Data(bytes).write(to: url)
            if rename(temporary, path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// The snapshot in the file, if it is there and matches `generation` and the settings.
    static func read(from path: String, configuration: IndexConfiguration, generation: Int64) -> IndexSnapshot? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var reader = FileReader(descriptor: descriptor)
        return IndexSnapshot.decode(from: &reader, configuration: configuration, generation: generation)
    }

    static func remove(at path: String) {
        unlink(path)
    }
}

/// Reads a snapshot file sequentially: small values through a buffer (a snapshot holds many
/// short strings), large arrays straight into their own storage (one copy from the page cache).
private struct FileReader: SnapshotReader {
    let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 18)
    private var position = 0
    private var available = 0

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Reads from the file (not the buffer) until `count` bytes are in, or fails.
    private func readFromFile(into pointer: UnsafeMutableRawPointer, count: Int) throws(BinaryReaderError) {
        var done = 0
        while done < count {
            let result = Foundation.read(descriptor, pointer + done, count - done)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw BinaryReaderError() }
            done += result
        }
    }

    private mutating func readExactly(into pointer: UnsafeMutableRawPointer, count: Int) throws(BinaryReaderError) {
        // What the buffer holds first.
        let fromBuffer = min(count, available - position)
        if fromBuffer > 0 {
            buffer.withUnsafeBytes { bytes in
                pointer.copyMemory(from: bytes.baseAddress! + position, byteCount: fromBuffer)
            }
            position += fromBuffer
        }
        let remaining = count - fromBuffer
        guard remaining > 0 else { return }
        if remaining >= buffer.count / 2 {
            try readFromFile(into: pointer + fromBuffer, count: remaining)
            return
        }
        // Refill the buffer with whatever the file gives, at least `remaining` bytes.
        var filled = 0
        let descriptor = self.descriptor
        var failed = false
        buffer.withUnsafeMutableBytes { bytes in
            while filled < remaining {
                let result = Foundation.read(descriptor, bytes.baseAddress! + filled, bytes.count - filled)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { failed = true; return }
                filled += result
            }
            (pointer + fromBuffer).copyMemory(from: bytes.baseAddress!, byteCount: remaining)
        }
        if failed { throw BinaryReaderError() }
        position = remaining
        available = filled
    }

    mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(BinaryReaderError) -> T {
        var value = T.zero
        try withUnsafeMutableBytes(of: &value) { (bytes) throws(BinaryReaderError) in
            try readExactly(into: bytes.baseAddress!, count: bytes.count)
        }
        return T(littleEndian: value)
    }

    mutating func readArray<T: BitwiseCopyable>(of type: T.Type) throws(BinaryReaderError) -> [T] {
        let count = Int(try read(UInt64.self))
        guard count >= 0, count < 1 << 40 / max(MemoryLayout<T>.stride, 1) else { throw BinaryReaderError() }
        return try readElements(count)
    }

    private mutating func readElements<T: BitwiseCopyable>(_ count: Int) throws(BinaryReaderError) -> [T] {
        guard count > 0 else { return [] }
        var failure: BinaryReaderError?
        let storage = [T](unsafeUninitializedCapacity: count) { target, initialized in
            do {
                try readExactly(into: UnsafeMutableRawPointer(target.baseAddress!), count: count * MemoryLayout<T>.stride)
                initialized = count
            } catch let error as BinaryReaderError {
                failure = error
                initialized = 0
            } catch {
                failure = BinaryReaderError()
                initialized = 0
            }
        }
        if let failure { throw failure }
        return storage
    }

    mutating func readString() throws(BinaryReaderError) -> String {
        let count = Int(try read(UInt64.self))
        guard count >= 0, count < 1 << 32 else { throw BinaryReaderError() }
        if count <= available - position {
            let string = buffer.withUnsafeBufferPointer { bytes in
                String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + count]), as: UTF8.self)
            }
            position += count
            return string
        }
        let bytes: [UInt8] = try readElements(count)
        return String(decoding: bytes, as: UTF8.self)
    }
}
