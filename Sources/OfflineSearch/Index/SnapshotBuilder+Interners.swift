import Foundation

// The builder's interners: ids for distinct strings (facet values) and for distinct folded words.

/// Numbers distinct strings in order of first appearance.
struct StringInterner {
    private var ids: [String: UInt32] = [:]
    private(set) var strings: [String] = []

    mutating func id(of string: String) -> UInt32 {
        if let existing = ids[string] { return existing }
        let id = UInt32(strings.count)
        ids[string] = id
        strings.append(string)
        return id
    }
}

/// Numbers distinct byte strings (folded words) in order of first appearance, without making a
/// `String` per occurrence: the bytes are kept once in one buffer and found again through an
/// open-addressing table keyed by their hash. The builder's hot loop: every token of every
/// record passes here.
struct WordInterner {
    private var bytes: [UInt8] = []
    /// `starts[id]..<starts[id + 1]` are word `id`'s bytes.
    private var starts: [UInt32] = [0]
    /// Slot → id + 1 (0: empty); the table stays at most half full.
    private var slots = [UInt32](repeating: 0, count: 1024)
    private var hashes: [UInt32] = []

    var count: Int { starts.count - 1 }

    mutating func id(of word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        // Short words, and a mask of the table's size.
        let hash = FNV1a.hash(word)
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == hash {
                let start = Int(starts[id]), end = Int(starts[id + 1])
                if end - start == word.count, bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + start, word.baseAddress!, word.count) == 0 }) {
                    return UInt32(id)
                }
            }
            slot = (slot + 1) & mask
        }
        let id = UInt32(count)
        bytes.append(contentsOf: word)
        starts.append(UInt32(bytes.count))
        hashes.append(hash)
        slots[slot] = id + 1
        if count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(id) + 1
        }
    }

    /// The words, in id order.
    var strings: [String] {
        bytes.withUnsafeBufferPointer { buffer in
            (0..<count).map { id in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(starts[id])..<Int(starts[id + 1])]), as: UTF8.self)
            }
        }
    }
}
