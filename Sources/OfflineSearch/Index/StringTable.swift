/// Many strings in one byte buffer plus offsets: compact, loaded with two array reads, and
/// compared without creating `String`s. Element `i` is the `i`-th string as given.
struct StringTable: Sendable, RandomAccessCollection {
    let bytes: [UInt8]
    /// `starts[i]..<starts[i + 1]` are the bytes of string `i`; `count + 1` entries.
    let starts: [UInt32]

    init(bytes: [UInt8], starts: [UInt32]) {
        self.bytes = bytes
        self.starts = starts.isEmpty ? [0] : starts
    }

    init(_ strings: [String]) {
        var bytes: [UInt8] = []
        var starts: [UInt32] = [0]
        starts.reserveCapacity(strings.count + 1)
        for string in strings {
            bytes.append(contentsOf: string.utf8)
            starts.append(UInt32(bytes.count))
        }
        self.init(bytes: bytes, starts: starts)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.count - 1 }

    subscript(position: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range(position)]), as: UTF8.self) }
    }

    private func range(_ position: Int) -> Range<Int> { Int(starts[position])..<Int(starts[position + 1]) }

    /// Byte-wise (code point) order of two elements.
    func precedes(_ a: Int, _ b: Int) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            buffer[range(a)].lexicographicallyPrecedes(buffer[range(b)])
        }
    }

    /// Whether element `position` is exactly `string`.
    func equals(_ position: Int, _ string: String) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in buffer[range(position)].elementsEqual(string.utf8) }
    }
}
