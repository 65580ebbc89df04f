/// Evaluates a filter expression to the set of documents it matches, from the snapshot's
/// facet and numeric columns (never from record JSON).
///
/// Semantics as Algolia's: facet values compare case- and diacritic-insensitively, tags
/// exactly; an array attribute matches when any element does; a record without the attribute
/// never matches a positive filter and does match its negation. A facet filter on an attribute
/// that is not in `attributesForFaceting` matches nothing, as with Algolia, and so does a numeric
/// filter that `numericAttributesForFiltering` does not allow.
///
/// Results are memoized per expression for the evaluator's lifetime, so the queries of one
/// multi-search that share filters (InstantSearch's disjunctive faceting) evaluate them once.
final class FilterEvaluator {
    let snapshot: IndexSnapshot
    private var memo: [FilterExpression: DocumentSet] = [:]

    init(snapshot: IndexSnapshot) { self.snapshot = snapshot }

    func documents(matching expression: FilterExpression) -> DocumentSet {
        if let known = memo[expression] { return known }
        let result = evaluate(expression)
        memo[expression] = result
        return result
    }

    private func evaluate(_ expression: FilterExpression) -> DocumentSet {
        let capacity = snapshot.documentCount
        switch expression {
        case .and(let children):
            var result = DocumentSet(capacity: capacity, full: true)
            for child in children {
                result.formIntersection(documents(matching: child))
                if result.isEmpty { break }
            }
            return result
        case .or(let children):
            var result = DocumentSet(capacity: capacity)
            for child in children { result.formUnion(documents(matching: child)) }
            return result
        case .not(let inner):
            return documents(matching: inner).complement()
        case .facet(let attribute, let value):
            return facetDocuments(attribute: attribute, ids: snapshot.facetColumn(attribute).map { Array($0.ids(matching: value)) })
        case .tag(let tag):
            guard let column = snapshot.facetColumn("_tags") else { return DocumentSet(capacity: capacity) }
            let ids = column.values.indices.filter { column.values.equals($0, tag) }.map { UInt32($0) }
            return facetDocuments(attribute: "_tags", ids: ids)
        case .numeric(let attribute, let comparison, let bound):
            guard snapshot.configuration.numericFiltering?.allows(attribute, comparison) ?? true else { return DocumentSet(capacity: capacity) }
            return numericDocuments(attribute) { value in
                switch comparison {
                case .less: value < bound
                case .lessOrEqual: value <= bound
                case .equal: value == bound
                case .notEqual: value != bound
                case .greaterOrEqual: value >= bound
                case .greater: value > bound
                }
            }
        case .numericRange(let attribute, let lower, let upper):
            guard snapshot.configuration.numericFiltering?.allows(attribute, nil) ?? true else { return DocumentSet(capacity: capacity) }
            return numericDocuments(attribute) { $0 >= lower && $0 <= upper }
        }
    }

    private func facetDocuments(attribute: String, ids: [UInt32]?) -> DocumentSet {
        var result = DocumentSet(capacity: snapshot.documentCount)
        guard let column = snapshot.facetColumn(attribute), let ids else { return result }
        for id in ids { result.insert(contentsOf: column.documents(of: Int(id))) }
        return result
    }

    /// Documents with at least one number under `attribute` that satisfies `predicate`.
    /// `!=` follows the same rule: a record matches when one of its values differs.
    private func numericDocuments(_ attribute: String, _ predicate: (Double) -> Bool) -> DocumentSet {
        var result = DocumentSet(capacity: snapshot.documentCount)
        guard let column = snapshot.numerics[attribute] else { return result }
        column.docStarts.withUnsafeBufferPointer { starts in
            column.values.withUnsafeBufferPointer { values in
                for doc in 0..<snapshot.documentCount {
                    for i in Int(starts[doc])..<Int(starts[doc + 1]) where predicate(values[i]) {
                        result.insert(doc)
                        break
                    }
                }
            }
        }
        return result
    }
}
