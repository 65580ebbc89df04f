import SearchAPI

/// The custom data of the Rules a search applied, decoded as the app's type: a banner, a
/// message, a promotion to show with the results. InstantSearch's
/// `QueryRuleCustomDataInteractor`, on Algolia's `userData` response field.
///
/// Algolia answers with the `userData` of every Rule applied, in the order they applied. The
/// item is the first of them that decodes as `Model`: custom data of another shape (another
/// widget's) is passed over. A response without `userData` sets the item to nil, as does one
/// whose `userData` has no item that decodes; in that last case `onError` also fires a
/// `QueryRuleCustomDataDecodingError` that names each item's failing field, as the hits
/// interactor does for a hit (`HitDecodingError`). A failed search leaves the item as it was.
///
/// ```swift
/// struct Banner: Decodable { let title: String; let link: URL }
/// let banner = QueryRuleCustomDataInteractor<Banner>()
/// banner.connectSearcher(searcher)
/// banner.onItemChanged.subscribe(with: bannerView) { view, banner in view.show(banner) }
/// ```
@MainActor
public final class QueryRuleCustomDataInteractor<Model: Decodable> {
    /// The custom data of the last response taken in: its first `userData` item that decodes
    /// as `Model`; nil when there is none. The app may set it (to nil, say, when the user
    /// dismisses a banner).
    public var item: Model? {
        didSet { if oldValue != nil || item != nil { onItemChanged.fire(item) } }
    }

    /// Fired with `item` each time it is set, unless it was nil and stays nil (the last kept
    /// as `lastValue`).
    public let onItemChanged: Observer<Model?>
    /// Fired when a response's `userData` has items and none decodes as `Model`.
    public let onError: Observer<QueryRuleCustomDataDecodingError>

    /// An interactor showing `item` (none by default) until it takes a response in.
    public init(item: Model? = nil) {
        self.item = item
        onItemChanged = Observer(retainLastData: true)
        onError = Observer()
    }

    /// Takes a response in: `item` becomes the first of its `userData` items that decodes as
    /// `Model`, nil when none does (with an error event when there were items).
    /// - Complexity: one decoding attempt per `userData` item, up to the first that decodes.
    public func update(_ response: SearchResponse) {
        var failures: [QueryRuleCustomDataDecodingError.Failure] = []
        for (position, value) in (response.userData ?? []).enumerated() {
            do {
                item = try HitDecoder.decodeJSONValue(value, as: Model.self)
                return
            } catch {
                failures.append(QueryRuleCustomDataDecodingError.Failure(position: position, failure: DecodingFailure(error)))
            }
        }
        item = nil
        if !failures.isEmpty {
            onError.fire(QueryRuleCustomDataDecodingError(modelType: String(describing: Model.self), failures: failures))
        }
    }

    // MARK: Connections

    /// Takes `searcher`'s responses (the last one at once, if there is one).
    @discardableResult
    public func connectSearcher(_ searcher: HitsSearcher) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onResults.subscribePast(with: self) { interactor, response in interactor.update(response) }
        }, disconnect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            searcher.onResults.cancelSubscription(for: self)
        })
    }
}

/// A response had Rule custom data (`userData`) and none of its items decodes as the type a
/// `QueryRuleCustomDataInteractor` expects: which items, which fields, and why.
public struct QueryRuleCustomDataDecodingError: Error, CustomStringConvertible, Sendable {
    /// Why one `userData` item does not decode.
    public struct Failure: Hashable, Sendable {
        /// The item's position in the response's `userData`, from 0.
        public let position: Int
        /// The path of the field that failed (`title`, `link.url`); empty for the item itself.
        public let field: String
        /// What went wrong, from the decoder.
        public let reason: String

        init(position: Int, failure: DecodingFailure) {
            self.position = position
            field = failure.field
            reason = failure.reason
        }
    }

    /// The type the items were decoded as (`Banner`).
    public let modelType: String
    /// Each item's failure, in `userData` order.
    public let failures: [Failure]

    public var description: String {
        let items = failures.map { failure in
            let place = failure.field.isEmpty ? "the item" : "field `\(failure.field)`"
            return "item \(failure.position): \(place): \(failure.reason)"
        }
        return "no userData item decodes as \(modelType): " + items.joined(separator: "; ")
    }
}
