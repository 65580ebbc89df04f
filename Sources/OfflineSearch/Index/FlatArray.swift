import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only array of plain values that is either an ordinary Swift array (an index built in
/// memory) or a view of a memory-mapped derived file (an index opened from disk), so opening a
/// large index maps its largest arrays instead of reading them: pages are loaded as searches
/// touch them, and the operating system can drop them again under memory pressure.
struct FlatArray<Element: BitwiseCopyable & Sendable>: Sendable, RandomAccessCollection {
    private enum Storage: @unchecked Sendable {
        // @unchecked: `mapped` points into `MappedFile`'s read-only mapping, which lives as long
        // as the file object does and is never written.
        case owned([Element])
        case mapped(MappedFile, UnsafeBufferPointer<Element>)
    }

    private let storage: Storage

    init(_ array: [Element]) { storage = .owned(array) }

    /// `count` elements at `offset` bytes into `file`'s mapping (aligned for `Element`).
    init(mapping file: MappedFile, offset: Int, count: Int) {
        let start = (file.base + offset).bindMemory(to: Element.self, capacity: count)
        storage = .mapped(file, UnsafeBufferPointer(start: start, count: count))
    }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .owned(let array): array.count
        case .mapped(_, let buffer): buffer.count
        }
    }

    @inline(__always)
    subscript(position: Int) -> Element {
        switch storage {
        case .owned(let array):
            return array[position]
        case .mapped(_, let buffer):
            // Checked as an array is: damage that slipped past the checksum traps, never reads
            // outside the mapping.
            precondition(position >= 0 && position < buffer.count, "FlatArray index out of range")
            return buffer[position]
        }
    }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        switch storage {
        case .owned(let array): try array.withUnsafeBufferPointer(body)
        case .mapped(let file, let buffer): try withExtendedLifetime(file) { try body(buffer) }
        }
    }

    /// The bytes to store (`BinaryWriter`).
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { try body(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the elements are read from a mapped file.
    var isMapped: Bool {
        if case .mapped = storage { return true }
        return false
    }
}

/// A file mapped read-only into memory, unmapped when the last view of it goes. Where the
/// system cannot map it, the file is read into memory instead (the views work the same).
final class MappedFile: Sendable {
    // Sendable: the bytes are read-only and unchanging for the object's lifetime.
    nonisolated(unsafe) let base: UnsafeRawPointer
    let length: Int
    /// Mapped (else read into an allocation of this object's).
    let isMapped: Bool

    /// The first `length` bytes of the open file; nil when they can be neither mapped nor read.
    init?(descriptor: Int32, length: Int) {
        guard length > 0 else { return nil }
        let address = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0)
        if let address, address != MAP_FAILED {
            base = UnsafeRawPointer(address)
            isMapped = true
        } else {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 16)
            var done = 0
            while done < length {
                let result = pread(descriptor, buffer + done, length - done, off_t(done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { break }
                done += result
            }
            guard done == length else {
                buffer.deallocate()
                return nil
            }
            base = UnsafeRawPointer(buffer)
            isMapped = false
        }
        self.length = length
    }

    deinit {
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), length)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    /// Tells the system the pages of `range` need not stay in this process's memory (they are
    /// read from the file again when touched): what was hashed at open does not count against
    /// the process's resident memory. (On Linux they leave at once; Darwin may keep them until
    /// memory is needed.)
    func release(_ range: Range<Int>) {
        guard isMapped else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // Clamped: past the mapping, madvise would drop whatever memory follows it.
        let start = (max(0, range.lowerBound) + page - 1) / page * page
        let end = min(range.upperBound, length) / page * page
        guard end > start else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
    }
}
