import Foundation

/// A value behind a lock: readers take the current value, writers replace it whole.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func modify<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&stored) }
    }
}
