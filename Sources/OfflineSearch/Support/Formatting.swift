// Small formatting helpers the engine shares: a response's milliseconds, zero-padded numbers.

extension Duration {
    /// The duration in whole milliseconds, rounded down (a response's `processingTimeMS`).
    var wholeMilliseconds: Int {
        Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
}

extension String {
    /// The string with zeros in front, to `length` characters (hexadecimal ids, `U+` codes).
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
