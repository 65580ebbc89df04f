/// SplitMix64 (Steele, Lea & Flood 2014): a small, fast generator whose whole output follows
/// from its seed, so a simulated network draws the same delays and failures on every run and
/// on every platform (`SystemRandomNumberGenerator` cannot be seeded).
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The generator of the `index`-th draw stream of `seed`: streams of different indices are
    /// independent, so what one request draws never shifts what the next one draws.
    init(seed: UInt64, stream index: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<1` with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
