import Foundation
import OfflineSearch
import SearchAPI

// What the test targets share: a folder of a test's own, an engine in one, and a seeded random
// generator. Every test target imports it (`@_exported` in the target's own support file).

/// A folder of its own for one test, removed when the test is done.
package final class TemporaryDirectory: Sendable {
    package let url: URL
    package var path: String { url.path }

    package init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// An engine in a fresh folder, kept alive with it.
package struct TestEngine: Sendable {
    package let directory = TemporaryDirectory()
    package let engine: SearchEngine

    /// - Parameter analytics: how the engine counts searches (a test's own clock).
    package init(analytics: SearchAnalytics.Configuration = SearchAnalytics.Configuration()) throws {
        engine = try SearchEngine(directory: directory.url, analytics: analytics)
    }

    /// A new index with these settings and records.
    @discardableResult
    package func index(_ name: String = "test", settings: JSONObject = [:], records: [JSONValue]) throws -> SearchIndex {
        let index = try engine.index(name)
        if !settings.isEmpty { try index.setSettings(settings) }
        try index.saveObjects(records)
        return index
    }
}

/// A seeded generator (the package's one SplitMix64): tests that draw random cases draw
/// the same ones on every run and every platform.
package struct SeededGenerator: RandomNumberGenerator {
    private var base: SplitMix64

    package init(seed: UInt64) { base = SplitMix64(state: seed) }

    package mutating func next() -> UInt64 { base.next() }

    /// True `percent` times in a hundred.
    package mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    /// One of `values`, which must not be empty.
    package mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &self)! }
}

/// Runs blocking work (threads joined, semaphores waited on, child processes waited for, long
/// synchronous test bodies) on a thread of its own, so that a test never holds one of Swift
/// concurrency's few threads, which the tests beside it need.
package func onThreadAside<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
