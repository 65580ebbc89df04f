import Foundation
import SearchAPI

// The forward index's words: laid out in document order, and spilled to a temporary file meanwhile.

/// The words of the forward index as accumulated (temporary term ids, per input), to be laid
/// out in document order with the final ids.
struct ForwardWords {
    /// The words not spilled, after those in `spill`.
    var inMemory: [UInt32]
    /// `starts[i]..<starts[i + 1]`: input i's words, counted from the first word spilled.
    var starts: [UInt32]
    var spill: ForwardSpill?

    /// The forward index in document order, with the final term ids. Fails only when spilled
    /// words cannot be read back. Its words are moved out (`self` is left without them), so
    /// they are mapped in place, not copied.
    mutating func layOut(order: [Int], finalID: [UInt32]) throws(SearchError) -> (starts: [UInt32], terms: [UInt32]) {
        var forward = inMemory
        inMemory = []
        var spilled: MappedFile?
        let spilledCount = spill?.count ?? 0
        if let spill, spill.count > 0 {
            // Read back only now: while the postings were laid out, these words were not in memory.
            spilled = spill.mapped()
            if spilled == nil {
                throw SearchError(.internalError, "Cannot read back the temporary file of the index being built: \(String(cString: strerror(errno)))")
            }
        }
        if spilled == nil, order.elementsEqual(0..<(starts.count - 1)) {
            // Already in document order: map the ids in place.
            forward.withUnsafeMutableBufferPointer { forward in
                for i in forward.indices where !ForwardIndex.isMarker(forward[i]) { forward[i] = finalID[Int(forward[i])] }
            }
            return (starts, forward)
        }
        // Each document's words in the new order: where they start.
        var forwardStarts: [UInt32] = [0]
        forwardStarts.reserveCapacity(order.count + 1)
        for input in order {
            forwardStarts.append(forwardStarts[forwardStarts.count - 1] + starts[input + 1] - starts[input])
        }
        var forwardTerms = [UInt32](repeating: 0, count: Int(forwardStarts[forwardStarts.count - 1]))
        // Words `0..<spilledCount` are in the file, the rest in `forward`. The file is read
        // in `passes` slices of inputs, each released once copied: the documents' order
        // jumps across the whole file, which would otherwise be in memory at once.
        let inputCount = starts.count - 1
        let passes = spilled == nil ? 1 : 8
        let spilledWords = spilled.map { UnsafeBufferPointer(start: $0.base.assumingMemoryBound(to: UInt32.self), count: $0.length / 4) }
            ?? UnsafeBufferPointer(start: nil, count: 0)
        forward.withUnsafeBufferPointer { forward in
            forwardTerms.withUnsafeMutableBufferPointer { terms in
                for pass in 0..<passes {
                    let inputs = (inputCount * pass / passes)..<(inputCount * (pass + 1) / passes)
                    for (doc, input) in order.enumerated() where inputs.contains(input) {
                        var target = Int(forwardStarts[doc])
                        for i in Int(starts[input])..<Int(starts[input + 1]) {
                            let term = i < spilledCount ? spilledWords[i] : forward[i - spilledCount]
                            terms[target] = ForwardIndex.isMarker(term) ? term : finalID[Int(term)]
                            target += 1
                        }
                    }
                    if let spilled, !inputs.isEmpty {
                        spilled.release(Int(starts[inputs.lowerBound]) * 4..<Int(starts[inputs.upperBound]) * 4)
                    }
                }
            }
        }
        withExtendedLifetime(spilled) {}
        return (forwardStarts, forwardTerms)
    }
}

/// Words of the forward index written aside while a large index is accumulated, to an
/// unlinked temporary file (gone with the process, whatever happens), and mapped back to be laid
/// out: they are not in memory while the postings are built, the builder's peak (measured:
/// 300 MB of the 1.7 GB a 1M-record import peaked at).
final class ForwardSpill {
    private let descriptor: Int32
    /// Words written.
    private(set) var count = 0

    /// A file beside `path` (named as `TemporaryFile` names them, so one left by a process
    /// killed before it was unlinked is removed at the next open), else in the system's
    /// temporary folder; nil when neither can be made.
    init?(beside path: String?) {
        let candidates: [String?] = [path.map(TemporaryFile.path(besides:)),
                          FileManager.default.temporaryDirectory.appendingPathComponent(
                              "offline-search-forward.\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp").path]
        for case let candidate? in candidates {
            let descriptor = open(candidate, O_RDWR | O_CREAT | O_EXCL, 0o600)
            if descriptor >= 0 {
                unlink(candidate)
                self.descriptor = descriptor
                return
            }
        }
        return nil
    }

    deinit { close(descriptor) }

    /// Appends words; false when the file cannot take them (a full disk).
    func append(_ words: [UInt32]) -> Bool {
        words.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let result = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(count * 4 + done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return false }
                done += result
            }
            count += words.count
            return true
        }
    }

    /// The words written, mapped (or read) into memory.
    func mapped() -> MappedFile? {
        MappedFile(descriptor: descriptor, length: count * 4)
    }
}
