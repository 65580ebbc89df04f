/// SplitMix64 (Steele, Lea & Flood 2014): a small, fast generator whose whole output follows
/// from its seed, identical on every platform (`SystemRandomNumberGenerator` cannot be
/// seeded). The one copy in the package: the dataset generator, the simulated network of the
/// test doubles, the tests and the benchmarks draw from it. Package access: not part of the API.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package var state: UInt64

    /// A generator that starts from `state` (the seed).
    package init(state: UInt64) { self.state = state }

    /// SplitMix64's output function: a well-mixed 64-bit value of `value` (also a hash step).
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<1` with 53 random bits.
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}
