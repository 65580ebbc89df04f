/// FNV-1a, 32 bits: a cheap hash of a short run of bytes (a word), for the word interner's
/// open-addressing table and the highlighter's variant filters. Not a hash for untrusted keys
/// of a long-lived table (it is not seeded), nor stable storage (it may change).
enum FNV1a {
    @inline(__always)
    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}
