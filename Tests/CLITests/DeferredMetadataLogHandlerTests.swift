import Foundation
import Logging
import Testing
@testable import offline_search

/// `serve`'s log handler writes the lines `StreamLogHandler` writes, with the metadata of the
/// moment, though setting a key no longer formats anything.
@Suite struct DeferredMetadataLogHandlerTests {
    /// What a `StreamLogHandler` writes, kept.
    final class Lines: TextOutputStream, @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func write(_ string: String) { lock.withLock { text += string } }
        var all: [String] { lock.withLock { text.split(separator: "\n").map { String($0.drop { $0 != " " }) } } }   // no timestamp
    }

    @Test func linesAreThoseOfTheStreamHandlerWithTheMetadataOfTheMoment() {
        let (deferred, direct) = (Lines(), Lines())
        var logger = Logger(label: "t") { DeferredMetadataLogHandler(StreamLogHandler(label: $0, stream: deferred, metadataProvider: nil)) }
        var reference = Logger(label: "t") { StreamLogHandler(label: $0, stream: direct, metadataProvider: nil) }
        logger.info("none")
        reference.info("none")
        logger[metadataKey: "hb.request.id"] = "1"
        reference[metadataKey: "hb.request.id"] = "1"
        logger.info("set", metadata: ["path": "/1/indexes"])
        reference.info("set", metadata: ["path": "/1/indexes"])
        // An explicit value wins over the handler's, as in StreamLogHandler.
        logger.info("explicit", metadata: ["hb.request.id": "2"])
        reference.info("explicit", metadata: ["hb.request.id": "2"])
        // A copy is a value: its key does not reach the original.
        var copy = logger
        copy[metadataKey: "copy"] = "yes"
        logger[metadataKey: "hb.request.id"] = nil
        reference[metadataKey: "hb.request.id"] = nil
        logger.info("removed")
        reference.info("removed")
        logger.logLevel = .warning
        logger.info("filtered")
        #expect(deferred.all == direct.all)
        #expect(deferred.all.count == 4)
        #expect(deferred.all[1].contains("hb.request.id=1") && deferred.all[1].contains("path=/1/indexes"), "\(deferred.all)")
        #expect(deferred.all[2].contains("hb.request.id=2") && !deferred.all[2].contains("hb.request.id=1"), "\(deferred.all)")
        #expect(copy[metadataKey: "hb.request.id"] == "1" && logger[metadataKey: "copy"] == nil)
    }

    /// A metadata provider's values override the handler's and yield to a message's, as in
    /// `StreamLogHandler`.
    @Test func aProviderRanksBetweenTheHandlerAndTheMessage() {
        let provider = Logger.MetadataProvider { ["task": "provided", "shared": "provided"] }
        let (deferred, direct) = (Lines(), Lines())
        var logger = Logger(label: "t") { DeferredMetadataLogHandler(StreamLogHandler(label: $0, stream: deferred, metadataProvider: provider)) }
        var reference = Logger(label: "t") { StreamLogHandler(label: $0, stream: direct, metadataProvider: provider) }
        logger[metadataKey: "shared"] = "handler"
        reference[metadataKey: "shared"] = "handler"
        logger.info("one", metadata: ["task": "explicit"])
        reference.info("one", metadata: ["task": "explicit"])
        #expect(deferred.all == direct.all)
        #expect(deferred.all.first?.contains("shared=provided task=explicit") == true, "\(deferred.all)")
    }
}
