import Foundation

/// Runs work on another thread; `wait()` returns its result.
final class BackgroundWork<Result: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written once by the worker before `done` is signalled and read
    // only after waiting on `done`.
    private let done = DispatchSemaphore(value: 0)
    private var result: Result?
    private var waited = false

    init(_ work: @escaping @Sendable () -> Result) {
        Thread.detachNewThread {
            self.result = work()
            self.done.signal()
        }
    }

    func wait() -> Result {
        if !waited {
            done.wait()
            waited = true
        }
        return result!
    }
}
