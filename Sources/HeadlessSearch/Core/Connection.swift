/// A link between two components (a searcher and an interactor, an interactor and a
/// controller, an interactor and a filter state), as in InstantSearch: `connect()` starts
/// forwarding events, `disconnect()` stops it. The `connect...` methods of the interactors
/// return their connection already connected.
///
/// As in InstantSearch, a connection holds both ends weakly: keep the interactors, searchers
/// and connectors of a screen (in the screen) for as long as it is shown.
///
/// ```swift
/// let connection = hitsInteractor.connectSearcher(searcher)
/// connection.disconnect()
/// ```
@MainActor
public protocol Connection {
    /// Starts forwarding events between the two ends.
    func connect()
    /// Stops forwarding events between the two ends.
    func disconnect()
}

/// A connection made of other connections, connected and disconnected together.
@MainActor
public struct CompositeConnection: Connection {
    /// The connections grouped, connected and disconnected in this order.
    public let connections: [any Connection]

    /// Groups `connections` without connecting them (those the `connect...` methods return are
    /// connected already).
    public init(_ connections: [any Connection]) { self.connections = connections }

    /// Connects each connection, in order.
    public func connect() { connections.forEach { $0.connect() } }
    /// Disconnects each connection, in order.
    public func disconnect() { connections.forEach { $0.disconnect() } }
}

/// A connection defined by two closures.
@MainActor
struct ClosureConnection: Connection {
    let onConnect: @MainActor () -> Void
    let onDisconnect: @MainActor () -> Void

    func connect() { onConnect() }
    func disconnect() { onDisconnect() }

    /// Connects now and returns the connection.
    static func connected(connect: @escaping @MainActor () -> Void, disconnect: @escaping @MainActor () -> Void) -> ClosureConnection {
        let connection = ClosureConnection(onConnect: connect, onDisconnect: disconnect)
        connection.connect()
        return connection
    }
}
