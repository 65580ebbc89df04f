import Logging

/// A log handler that keeps its metadata as set and hands it to another handler only when a
/// message is logged.
///
/// `serve` logs through swift-log's `StreamLogHandler`, which writes out its whole metadata
/// (`prettify`) whenever one key is set. Hummingbird sets one, the request's ID, for every
/// request, so the server paid for a formatted string that the request log never printed. Here
/// setting a key only stores it: the lines are the same, written with the metadata of the
/// moment.
struct DeferredMetadataLogHandler<Base: LogHandler>: LogHandler {
    private var base: Base
    var metadata: Logger.Metadata = [:]
    /// The base handler's provider, taken from it: its values rank between this handler's
    /// metadata and a message's own, as in `StreamLogHandler`.
    var metadataProvider: Logger.MetadataProvider?

    init(_ base: Base) {
        self.base = base
        metadataProvider = base.metadataProvider
        self.base.metadataProvider = nil
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, provided in provided }
        }
        guard !merged.isEmpty else { return base.log(event: event) }
        var event = event
        event.metadata = merged.merging(event.metadata ?? [:]) { _, explicit in explicit }
        base.log(event: event)
    }
}
