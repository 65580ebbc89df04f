/// Writes the derived index as flat arrays: little-endian, length-prefixed, each array's
/// elements 8-aligned. Into memory (`bytes`), or streamed to a sink (the derived file): then
/// small values go through a buffer and large arrays straight from their storage, so storing
/// an index never holds a second copy of it.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []
    /// Where full buffers and large arrays go (nil: everything stays in `bytes`).
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    /// Bytes already handed to the sink.
    private var flushed = 0

    init() { sink = nil }

    /// A writer that hands its bytes to `sink`, in order (call `flush()` at the end).
    init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.sink = sink
        bytes.reserveCapacity(BinaryWriter.bufferSize)
    }

    private static let bufferSize = 1 << 20

    /// Bytes written so far.
    var count: Int { flushed + bytes.count }

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        if bytes.count >= BinaryWriter.bufferSize { flush() }
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
        bytes.append(contentsOf: repeatElement(0, count: BinaryWriter.padding(at: self.count)))
        if let sink, elements.count >= BinaryWriter.bufferSize / 4 {
            flush()
            sink(elements)
            flushed += elements.count
        } else {
            bytes.append(contentsOf: elements)
            if bytes.count >= BinaryWriter.bufferSize { flush() }
        }
    }

    mutating func write(_ string: String) {
        write(array: Array(string.utf8))
    }

    /// Hands the buffered bytes to the sink.
    mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { sink($0) }
        flushed += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }

    /// The zeros before an array's elements at `offset`.
    static func padding(at offset: Int) -> Int { (8 - offset % 8) % 8 }
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
