import SearchAPI

/// An index's Rules as committed, read once per change: each rule checked and parsed
/// (`Rule`), in objectID order. A stored rule this version cannot read (saved by a later one)
/// is kept as stored, listed by `searchRules`, and never applied.
struct RuleBook: Sendable {
    /// The generation of the write that last changed the rules (0: never written).
    let generation: Int64
    /// Every rule's JSON as stored, in objectID order.
    let stored: [JSONObject]
    /// The rules that can be applied, in objectID order.
    let rules: [Rule]

    static let empty = RuleBook(generation: 0, stored: [])

    /// The rules of `stored`, in objectID order, as written by `generation`.
    init(generation: Int64, stored: [JSONObject]) {
        self.generation = generation
        self.stored = stored.sorted { ($0["objectID"]?.scalarText ?? "") < ($1["objectID"]?.scalarText ?? "") }
        rules = self.stored.compactMap { try? Rule(json: $0) }
    }

    /// The rule's JSON with this objectID, or nil.
    func rule(_ objectID: String) -> JSONObject? {
        let position = IndexState.partition(stored.count) { (stored[$0]["objectID"]?.scalarText ?? "") < objectID }
        guard position < stored.count, stored[position]["objectID"]?.scalarText == objectID else { return nil }
        return stored[position]
    }
}
