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

}

struct BinaryReaderError: Error, CustomStringConvertible {
    var description: String { "the stored derived index is truncated or corrupt" }
}

/// What `IndexSnapshot.decode` reads from (`SnapshotFile`'s reader, straight into the arrays).
protocol SnapshotReader {
    mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws(BinaryReaderError) -> T
    mutating func readArray<T: BitwiseCopyable>(of type: T.Type) throws(BinaryReaderError) -> [T]
    mutating func readString() throws(BinaryReaderError) -> String
}

extension SnapshotReader {
    mutating func readArray<T: BitwiseCopyable>() throws(BinaryReaderError) -> [T] { try readArray(of: T.self) }

}
