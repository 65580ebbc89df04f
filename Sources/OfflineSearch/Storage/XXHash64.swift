/// XXH64 (Yann Collet's xxHash, 64-bit), fed in pieces: the checksum of the derived file's
/// payload, computed while the file is written and while it is read back. Fast enough to be
/// bound by memory bandwidth, and any flipped byte changes the result.
///
/// ```swift
/// var hasher = XXHash64()
/// bytes.withUnsafeBytes { hasher.update($0) }
/// let checksum = hasher.finalize()
/// ```
struct XXHash64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private let seed: UInt64
    private var lanes: (UInt64, UInt64, UInt64, UInt64)
    private var length: UInt64 = 0
    /// Input not yet hashed: less than one 32-byte stripe.
    private var pending: [UInt8] = []

    init(seed: UInt64 = 0) {
        self.seed = seed
        lanes = (seed &+ XXHash64.prime1 &+ XXHash64.prime2, seed &+ XXHash64.prime2, seed, seed &- XXHash64.prime1)
        pending.reserveCapacity(32)
    }

    /// The hash of one whole buffer.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hasher = XXHash64(seed: seed)
        hasher.update(bytes)
        return hasher.finalize()
    }

    static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    @inline(__always) private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    @inline(__always) private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always) private static func merge(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        (accumulator ^ round(0, lane)) &* prime1 &+ prime4
    }

    @inline(__always) private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Hashes whole stripes of `bytes` from `offset`; returns where the unhashed tail starts.
    private mutating func stripes(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Int {
        var offset = offset
        var (v1, v2, v3, v4) = lanes
        while bytes.count - offset >= 32 {
            v1 = XXHash64.round(v1, XXHash64.word(bytes, offset))
            v2 = XXHash64.round(v2, XXHash64.word(bytes, offset + 8))
            v3 = XXHash64.round(v3, XXHash64.word(bytes, offset + 16))
            v4 = XXHash64.round(v4, XXHash64.word(bytes, offset + 24))
            offset += 32
        }
        lanes = (v1, v2, v3, v4)
        return offset
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(32 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            offset = taken
            guard pending.count == 32 else { return }
            let stripe = pending
            _ = stripe.withUnsafeBytes { stripes($0, from: 0) }
            pending.removeAll(keepingCapacity: true)
        }
        offset = stripes(bytes, from: offset)
        pending.append(contentsOf: bytes[offset...])
    }

    func finalize() -> UInt64 {
        var hash: UInt64
        if length >= 32 {
            let (v1, v2, v3, v4) = lanes
            hash = XXHash64.rotate(v1, 1) &+ XXHash64.rotate(v2, 7) &+ XXHash64.rotate(v3, 12) &+ XXHash64.rotate(v4, 18)
            hash = XXHash64.merge(hash, v1)
            hash = XXHash64.merge(hash, v2)
            hash = XXHash64.merge(hash, v3)
            hash = XXHash64.merge(hash, v4)
        } else {
            hash = seed &+ XXHash64.prime5
        }
        hash &+= length
        pending.withUnsafeBytes { tail in
            var offset = 0
            while tail.count - offset >= 8 {
                hash ^= XXHash64.round(0, XXHash64.word(tail, offset))
                hash = XXHash64.rotate(hash, 27) &* XXHash64.prime1 &+ XXHash64.prime4
                offset += 8
            }
            if tail.count - offset >= 4 {
                hash ^= UInt64(UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) &* XXHash64.prime1
                hash = XXHash64.rotate(hash, 23) &* XXHash64.prime2 &+ XXHash64.prime3
                offset += 4
            }
            while offset < tail.count {
                hash ^= UInt64(tail[offset]) &* XXHash64.prime5
                hash = XXHash64.rotate(hash, 11) &* XXHash64.prime1
                offset += 1
            }
        }
        hash ^= hash >> 33
        hash &*= XXHash64.prime2
        hash ^= hash >> 29
        hash &*= XXHash64.prime3
        hash ^= hash >> 32
        return hash
    }
}
