/// Writes the derived index as flat arrays: little-endian, length-prefixed. Reading it back
/// is a few copies, which keeps opening an index fast.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Double) { write(value.bitPattern) }

    /// The count, zeros up to the next multiple of 8 bytes (so a reader can map the elements in
    /// place: the payload starts 8-aligned in the file), then the elements.
    mutating func write<T: BitwiseCopyable>(array: [T]) {
        array.withUnsafeBytes { write(count: array.count, elements: $0) }
    }

    mutating func write<T: BitwiseCopyable>(array: FlatArray<T>) {
        array.withUnsafeBytes { write(count: array.count, elements: $0) }
    }

    private mutating func write(count: Int, elements: UnsafeRawBufferPointer) {
        write(UInt64(count))
        bytes.append(contentsOf: repeatElement(0, count: BinaryWriter.padding(at: bytes.count)))
        bytes.append(contentsOf: elements)
    }

    /// The zeros before an array's elements at `offset`.
    static func padding(at offset: Int) -> Int { (8 - offset % 8) % 8 }

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
    /// An array that may stay in the file (mapped) rather than be copied.
    mutating func readFlatArray<T: BitwiseCopyable>(of type: T.Type) throws(BinaryReaderError) -> FlatArray<T>
    mutating func readString() throws(BinaryReaderError) -> String
}

extension SnapshotReader {
    mutating func readArray<T: BitwiseCopyable>() throws(BinaryReaderError) -> [T] { try readArray(of: T.self) }
    mutating func readFlatArray<T: BitwiseCopyable>() throws(BinaryReaderError) -> FlatArray<T> { try readFlatArray(of: T.self) }

}
