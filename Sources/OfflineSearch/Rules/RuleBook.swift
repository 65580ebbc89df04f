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
    /// Each rule's condition patterns as words, for the separators they were split with.
    private let compiled = LockedValue<(separators: TokenizerRules, patterns: [[RulePattern?]])?>(nil)

    static let empty = RuleBook(generation: 0, stored: [])

    /// The rules of `stored`, in objectID order, as written by `generation`.
    init(generation: Int64, stored: [JSONObject]) {
        self.generation = generation
        self.stored = stored.sorted { ($0["objectID"]?.scalarText ?? "") < ($1["objectID"]?.scalarText ?? "") }
        rules = self.stored.compactMap { try? Rule(json: $0) }
    }

    /// Each rule's condition patterns (`rules[i].conditions[j].pattern`), split into words as the
    /// index splits text: made once per set of rules and separators.
    func patterns(separators: TokenizerRules) -> [[RulePattern?]] {
        if let known = compiled.value, known.separators == separators { return known.patterns }
        let patterns = rules.map { rule in rule.conditions.map { $0.pattern.map { RulePattern($0, separators: separators) } } }
        compiled.value = (separators, patterns)
        return patterns
    }

    /// The rule's JSON with this objectID, or nil.
    func rule(_ objectID: String) -> JSONObject? {
        let position = IndexState.partition(stored.count) { (stored[$0]["objectID"]?.scalarText ?? "") < objectID }
        guard position < stored.count, stored[position]["objectID"]?.scalarText == objectID else { return nil }
        return stored[position]
    }
}
