/// Writes the derived index as flat arrays: little-endian, length-prefixed. Reading it back
/// is a few copies, which keeps opening an index fast.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Double) { write(value.bitPattern) }

    mutating func write<T: BitwiseCopyable>(array: [T]) {
        write(UInt64(array.count))
        array.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ string: String) {
        write(array: Array(string.utf8))
    }

    mutating func write(strings: [String]) {
        write(UInt64(strings.count))
        for string in strings { write(string) }
    }
}

struct BinaryReaderError: Error, CustomStringConvertible {
    var description: String { "the stored derived index is truncated or corrupt" }
}

/// What `IndexSnapshot.decode` reads from: a buffer in memory, or a file read straight into
/// the arrays.
protocol SnapshotReader {
    mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(BinaryReaderError) -> T
    mutating func readArray<T: BitwiseCopyable>(of type: T.Type) throws(BinaryReaderError) -> [T]
    mutating func readString() throws(BinaryReaderError) -> String
}

extension SnapshotReader {
    mutating func readArray<T: BitwiseCopyable>() throws(BinaryReaderError) -> [T] { try readArray(of: T.self) }

    mutating func readStrings() throws(BinaryReaderError) -> [String] {
        let count = Int(try read(UInt64.self))
        guard count >= 0, count < 1 << 32 else { throw BinaryReaderError() }
        var result: [String] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try readString()) }
        return result
    }
}

struct BinaryReader: SnapshotReader {
    private let buffer: UnsafeBufferPointer<UInt8>
    private var offset = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(BinaryReaderError) -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= buffer.count else { throw BinaryReaderError() }
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[offset..<offset + size])))
        }
        offset += size
        return T(littleEndian: value)
    }


    mutating func readArray<T: BitwiseCopyable>(of type: T.Type) throws(BinaryReaderError) -> [T] {
        let count = Int(try read(UInt64.self))
        let size = count * MemoryLayout<T>.stride
        guard count >= 0, offset + size <= buffer.count else { throw BinaryReaderError() }
        let source = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[offset..<offset + size]))
        let result = [T](unsafeUninitializedCapacity: count) { target, initialized in
            UnsafeMutableRawBufferPointer(target).copyMemory(from: source)
            initialized = count
        }
        offset += size
        return result
    }

    mutating func readString() throws(BinaryReaderError) -> String {
        let count = Int(try read(UInt64.self))
        guard count >= 0, offset + count <= buffer.count else { throw BinaryReaderError() }
        let string = String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<offset + count]), as: UTF8.self)
        offset += count
        return string
    }

}
