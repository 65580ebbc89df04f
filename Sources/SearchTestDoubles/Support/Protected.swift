import Foundation

/// A value reachable only while holding its lock: the shared state of the doubles, which are
/// classes so that tests read it synchronously (`recorder.requests`) rather than with `await`.
/// (`Synchronization.Mutex` needs macOS 15 / iOS 18; the package supports older systems.)
final class Protected<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
