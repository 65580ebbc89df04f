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

/// Runs `count` pieces of work in order on another thread; `result(i)` returns the `i`th once it
/// is done, while the later ones go on. One thread asks for the results (not `Sendable`: two
/// waiting on one piece would wait for ever).
final class ChunkedBackgroundWork<Result: Sendable> {
    // @unchecked: a slot's result is written once by the worker before its semaphore is
    // signalled, and read only after waiting on it.
    private final class Slot: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result?
    }
    private let slots: [Slot]
    private var waited: [Bool]

    init(count: Int, _ work: @escaping @Sendable (Int) -> Result) {
        let slots = (0..<count).map { _ in Slot() }
        self.slots = slots
        waited = Array(repeating: false, count: count)
        Thread.detachNewThread {
            for (piece, slot) in slots.enumerated() {
                slot.result = work(piece)
                slot.done.signal()
            }
        }
    }

    func result(_ piece: Int) -> Result {
        if !waited[piece] {
            slots[piece].done.wait()
            waited[piece] = true
        }
        return slots[piece].result!
    }
}

/// A value a `BackgroundWork` mutates in place: a class, because a struct the worker captured
/// while its owner still held it would be copied whole at the first change. One thread touches
/// it at a time: the owner hands it over by starting the work and takes it back after `wait()`.
final class WorkerOwned<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }

    /// Moves `value` in, leaving `placeholder` in its place (the box then holds the only reference).
    init(taking value: inout Value, leaving placeholder: Value) {
        self.value = placeholder
        swap(&self.value, &value)
    }

    /// The value, leaving `placeholder` behind (the caller then holds the only reference).
    func take(leaving placeholder: Value) -> Value {
        var taken = placeholder
        swap(&taken, &value)
        return taken
    }
}
