/// CPython's `random.Random` (MT19937, `init_by_array` seeding), enough of it to reproduce
/// `shared/bench/make_corpus.py` draw for draw: `random()`, `uniform(a, b)`, `randrange(n)`.
struct MersenneTwister {
    private var state = [UInt32](repeating: 0, count: 624)
    private var index = 624

    /// `random.Random(seed)` for a non-negative integer seed.
    init(seed: UInt64) {
        var key: [UInt32] = []
        var rest = seed
        repeat {
            key.append(UInt32(truncatingIfNeeded: rest))
            rest >>= 32
        } while rest != 0
        initByArray(key)
    }

    private mutating func initGenrand(_ s: UInt32) {
        state[0] = s
        for i in 1..<624 {
            state[i] = 1_812_433_253 &* (state[i - 1] ^ (state[i - 1] >> 30)) &+ UInt32(i)
        }
        index = 624
    }

    private mutating func initByArray(_ key: [UInt32]) {
        initGenrand(19_650_218)
        var i = 1, j = 0
        for _ in 0..<max(624, key.count) {
            state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) &* 1_664_525)) &+ key[j] &+ UInt32(j)
            i += 1; j += 1
            if i >= 624 { state[0] = state[623]; i = 1 }
            if j >= key.count { j = 0 }
        }
        for _ in 0..<623 {
            state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) &* 1_566_083_941)) &- UInt32(i)
            i += 1
            if i >= 624 { state[0] = state[623]; i = 1 }
        }
        state[0] = 0x8000_0000
    }

    mutating func nextUInt32() -> UInt32 {
        if index >= 624 {
            for k in 0..<624 {
                let y = (state[k] & 0x8000_0000) | (state[(k + 1) % 624] & 0x7FFF_FFFF)
                state[k] = state[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1) != 0 ? 0x9908_B0DF : 0)
            }
            index = 0
        }
        var y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C_5680
        y ^= (y << 15) & 0xEFC6_0000
        y ^= y >> 18
        return y
    }

    /// `random()`: 53 random bits in [0, 1).
    mutating func random() -> Double {
        let a = Double(nextUInt32() >> 5), b = Double(nextUInt32() >> 6)
        return (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `uniform(a, b)` = a + (b - a) * random()
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * random() }

    /// `randrange(n)` for 0 < n < 2^32: rejection sampling on `getrandbits(n.bit_length())`.
    mutating func randrange(_ n: Int) -> Int {
        precondition(n > 0 && n <= Int(UInt32.max))
        let bits = Int.bitWidth - n.leadingZeroBitCount
        while true {
            let r = Int(nextUInt32() >> UInt32(32 - bits))
            if r < n { return r }
        }
    }
}
