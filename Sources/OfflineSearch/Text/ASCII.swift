extension Sequence<UInt8> {
    /// Whether every byte is ASCII (below 0x80): UTF-8 text that the byte-wise fast paths
    /// (folding, typo walks, highlighting) may read without Unicode rules.
    var isASCII: Bool { allSatisfy { $0 < 0x80 } }
}
