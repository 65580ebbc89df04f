import Foundation

/// Task IDs and timestamps of write answers. A local write is published when its call returns,
/// so a task ID only has to be unique and increasing; every task is `published`.
final class TaskClock: @unchecked Sendable {
    // @unchecked: `last` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var last: Int64

    init() { last = Int64(Date().timeIntervalSince1970 * 1000) }

    /// A new task ID.
    func next() -> Int64 {
        lock.withLock {
            last += 1
            return last
        }
    }

    /// Now, as Algolia writes dates: ISO 8601 with milliseconds, UTC (`2026-11-23T17:50:56.123Z`).
    static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
