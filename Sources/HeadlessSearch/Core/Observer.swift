/// An event a view or another component subscribes to: InstantSearch's `Observer`, on the
/// main actor.
///
/// A subscription is tied to an owner object, held weakly: when the owner goes away, so does
/// the subscription, and `cancelSubscription(for:)` ends it early. Events are delivered on the
/// main actor, in subscription order, synchronously from `fire(_:)`.
///
/// ```swift
/// searcher.onResults.subscribe(with: tableView) { tableView, response in
///     tableView.reloadData()
/// }
/// for await isLoading in searcher.isLoading.values() { spinner.isHidden = !isLoading }
/// ```
@MainActor
public final class Observer<Value> {
    private enum Key: Hashable {
        case owner(ObjectIdentifier)
        case token(Int)
    }

    private struct Subscription {
        let key: Key
        /// False once the owner is gone.
        let isAlive: () -> Bool
        let deliver: (Value) -> Void
    }

    private var subscriptions: [Subscription] = []
    private var nextToken = 0

    /// When true, the last fired value is kept: `lastValue` returns it and `subscribePast`
    /// delivers it at once.
    public var retainLastData: Bool

    /// The last value fired, when `retainLastData` is true.
    public private(set) var lastValue: Value?

    /// - Parameter retainLastData: keep the last value for `lastValue` and `subscribePast`.
    public init(retainLastData: Bool = false) {
        self.retainLastData = retainLastData
    }

    /// Calls `callback` with the owner and each value fired from now on, while the owner lives.
    /// - Complexity: O(1) amortized.
    public func subscribe<Owner: AnyObject>(with owner: Owner, callback: @escaping @MainActor (Owner, Value) -> Void) {
        subscriptions.append(Subscription(
            key: .owner(ObjectIdentifier(owner)),
            isAlive: { [weak owner] in owner != nil },
            deliver: { [weak owner] value in
                guard let owner else { return }
                callback(owner, value)
            }))
    }

    /// As `subscribe(with:callback:)`, and delivers the last value at once when there is one
    /// (`retainLastData` must be true for that).
    public func subscribePast<Owner: AnyObject>(with owner: Owner, callback: @escaping @MainActor (Owner, Value) -> Void) {
        subscribe(with: owner, callback: callback)
        if let lastValue { callback(owner, lastValue) }
    }

    /// Ends every subscription made with this owner.
    public func cancelSubscription(for owner: AnyObject) {
        let key = Key.owner(ObjectIdentifier(owner))
        subscriptions.removeAll { $0.key == key }
    }

    /// Ends every subscription.
    public func cancelAllSubscriptions() {
        subscriptions.removeAll()
    }

    /// The number of live subscriptions.
    public var subscriptionsCount: Int {
        subscriptions.removeAll { !$0.isAlive() }
        return subscriptions.count
    }

    /// Delivers `value` to every live subscription, in subscription order.
    public func fire(_ value: Value) {
        if retainLastData { lastValue = value }
        subscriptions.removeAll { !$0.isAlive() }
        // A subscriber may subscribe or cancel while being called: deliver to those present now.
        for subscription in subscriptions { subscription.deliver(value) }
    }

    private func subscribeToken(_ deliver: @escaping (Value) -> Void) -> Int {
        nextToken += 1
        subscriptions.append(Subscription(key: .token(nextToken), isAlive: { true }, deliver: deliver))
        return nextToken
    }

    private func cancelToken(_ token: Int) {
        subscriptions.removeAll { $0.key == .token(token) }
    }
}

extension Observer where Value: Sendable {
    /// The values fired from now on, as an `AsyncStream` (with the last value first when
    /// `retainLastData` is true and there is one). The subscription ends when the stream's
    /// consumer stops iterating.
    ///
    /// ```swift
    /// for await response in searcher.onResults.values() { render(response) }
    /// ```
    public func values(bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy)
        if let lastValue { continuation.yield(lastValue) }
        let token = subscribeToken { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.cancelToken(token) }
        }
        return stream
    }
}
