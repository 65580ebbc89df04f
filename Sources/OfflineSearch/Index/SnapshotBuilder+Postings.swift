// Scattering each document's entries into the posting lists of their terms, on one thread or two.

/// Lays each input's entries into the posting lists of their terms, documents in `order`: a
/// list's documents come sorted. From `parallelFrom` entries on, on two threads at once: one
/// fills each list from its start with the first half of the documents, in order, the other
/// from its end with the second half, last document first. Each term occurs once per
/// document, so the two meet exactly where the first half's postings of the term end.
struct PostingScatter: Sendable {
    let postingStarts: [UInt32]
    let finalID: [UInt32]
    let docStarts: [UInt32]
    let docTerms: [UInt32]
    let docMasks: [UInt16]
    let docPositions: [UInt16]

    /// From this many entries on, two threads lay them out (below, a thread costs more).
    static let parallelFrom = 1 << 20

    func scatter(order: [Int], docs: inout [UInt32], masks: inout [UInt16], positions: inout [UInt16],
                 parallelFrom: Int = PostingScatter.parallelFrom) {
        let split = docTerms.count >= parallelFrom ? order.count / 2 : order.count
        docs.withUnsafeMutableBufferPointer { docs in
            masks.withUnsafeMutableBufferPointer { masks in
                positions.withUnsafeMutableBufferPointer { positions in
                    // Unchecked: the two threads write disjoint slots of the buffers (above), and
                    // the second is waited for before they are released.
                    nonisolated(unsafe) let output = (docs, masks, positions)
                    let back = split < order.count ? BackgroundWork { [self] in
                        var cursor = Array(postingStarts.dropFirst())
                        for doc in stride(from: order.count - 1, through: split, by: -1) {
                            fill(doc: doc, input: order[doc], cursor: &cursor, ascending: false, output)
                        }
                        return true
                    } : nil
                    var cursor = postingStarts
                    for doc in 0..<split { fill(doc: doc, input: order[doc], cursor: &cursor, ascending: true, output) }
                    _ = back?.wait()
                }
            }
        }
    }

    @inline(__always)
    private func fill(doc: Int, input: Int, cursor: inout [UInt32], ascending: Bool,
                      _ output: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<UInt16>, UnsafeMutableBufferPointer<UInt16>)) {
        for i in Int(docStarts[input])..<Int(docStarts[input + 1]) {
            let term = Int(finalID[Int(docTerms[i])])
            let slot: Int
            if ascending {
                slot = Int(cursor[term])
                cursor[term] += 1
            } else {
                cursor[term] -= 1
                slot = Int(cursor[term])
            }
            output.0[slot] = UInt32(doc)
            output.1[slot] = docMasks[i]
            output.2[slot] = docPositions[i]
        }
    }
}
