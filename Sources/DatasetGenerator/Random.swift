import SearchAPI

/// The generator's draws come from `SplitMix64` (SearchAPI): each record gets its own generator
/// seeded from (seed, kind, index), so record `i` never depends on how many records are made.
extension SplitMix64 {
    /// A generator for one record of one kind.
    init(seed: UInt64, salt: UInt64, index: Int) {
        self.init(state: SplitMix64.mix(SplitMix64.mix(seed ^ salt) &+ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
    }

    /// Uniform in 0..<bound (bound > 0). Multiply-shift: no modulo bias worth caring about
    /// and no platform-dependent rejection loop.
    mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// An index in 0..<count with Zipf-like weights 1/(i+1)^s, via a precomputed table.
    mutating func pick(_ table: ZipfTable) -> Int { table.index(for: unit()) }

    /// Log-uniform in [low, high]: many small values, a long tail of large ones.
    mutating func logUniform(_ low: Double, _ high: Double) -> Double {
        low * exponential(unit() * logarithm(high / low))
    }
}

/// Cumulative Zipf weights for picking "popular first" items.
struct ZipfTable: Sendable {
    let cumulative: [Double]

    init(count: Int, exponent: Double = 1.0) {
        var total = 0.0
        var values: [Double] = []
        values.reserveCapacity(count)
        for i in 0..<count {
            total += 1.0 / power(Double(i + 1), exponent)
            values.append(total)
        }
        cumulative = values.map { $0 / total }
    }

    func index(for u: Double) -> Int {
        var low = 0, high = cumulative.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] > u { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

/// A stable 64-bit hash of a string (FNV-1a, then mixed): `Hasher` is seeded per process.
func stableHash(_ text: String, _ seed: UInt64) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
    for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return SplitMix64.mix(h)
}

// Pure-Swift math so results are bit-identical everywhere (libm implementations differ
// across platforms in the last ulp, which would change rounded prices on some machines).

/// e^x for the small ranges used here.
func exponential(_ x: Double) -> Double {
    // Range reduction: x = k·ln2 + r, |r| ≤ ln2/2, then a Taylor series for e^r.
    let ln2 = 0.693_147_180_559_945_3
    let k = (x / ln2).rounded()
    let r = x - k * ln2
    var term = 1.0, sum = 1.0
    for n in 1...20 {
        term *= r / Double(n)
        sum += term
    }
    return sum * power2(Int(k))
}

/// ln(x) for x > 0.
func logarithm(_ x: Double) -> Double {
    // x = m·2^e with m in [1, 2); ln m via atanh series: ln m = 2·atanh((m-1)/(m+1)).
    let e = x.exponent
    let m = x.significand
    let t = (m - 1) / (m + 1)
    let t2 = t * t
    var term = t, sum = 0.0
    var n = 1.0
    for _ in 0..<30 {
        sum += term / n
        term *= t2
        n += 2
    }
    return 2 * sum + Double(e) * 0.693_147_180_559_945_3
}

func power(_ base: Double, _ exponent: Double) -> Double {
    if exponent == 1 { return base }
    return exponential(exponent * logarithm(base))
}

private func power2(_ k: Int) -> Double { Double(sign: .plus, exponent: k, significand: 1.0) }
