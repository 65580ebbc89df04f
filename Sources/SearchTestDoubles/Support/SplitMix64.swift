import SearchAPI

/// The simulated network draws from `SplitMix64` (SearchAPI), so it draws the same delays and
/// failures on every run and on every platform.
extension SplitMix64 {
    init(seed: UInt64) { self.init(state: seed) }

    /// The generator of the `index`-th draw stream of `seed`: streams of different indices are
    /// independent, so what one request draws never shifts what the next one draws.
    init(seed: UInt64, stream index: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
        self.init(state: mixer.next())
    }
}
