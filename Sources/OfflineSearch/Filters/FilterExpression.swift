// The one AST every Algolia filter language (`filters`, `facetFilters`, `numericFilters`,
// `tagFilters`, `optionalFilters`) is parsed into. Parsing and validation live in
// FilterParser.swift and FilterListParser.swift; evaluation against the index lives elsewhere.
//
// Conventions the evaluator can rely on:
// - `.and` / `.or` always hold at least two children and are flattened (no `.and` directly
//   inside `.and`, no `.or` directly inside `.or`). A one-element group collapses to its element.
// - `.not` only ever wraps a single leaf (`.facet`, `.numeric`, `.numericRange` or `.tag`).
// - Facet values are kept exactly as written after unquoting/unescaping. Booleans and numbers
//   written as facet values stay text: `inStock:true` is `.facet("inStock", "true")`,
//   `count:12` is `.facet("count", "12")`, `brand:-5` is `.facet("brand", "-5")`.
// - `.numeric` / `.numericRange` values are always finite.

/// A numeric comparison operator, spelled as in Algolia's syntax.
public enum NumericComparison: String, Sendable, Hashable, CaseIterable {
    case less = "<"
    case lessOrEqual = "<="
    case equal = "="
    case notEqual = "!="
    case greaterOrEqual = ">="
    case greater = ">"
}

/// A parsed and validated filter.
public indirect enum FilterExpression: Sendable, Hashable {
    /// All children must match. Always two or more children, never directly nested.
    case and([FilterExpression])
    /// Any child must match. Always two or more children, never directly nested.
    /// In the `filters` grammar all children are of one filter type (see `FilterKind`).
    case or([FilterExpression])
    /// Negation of a single leaf filter.
    case not(FilterExpression)
    /// attr:value — facet values compare case-insensitively later; value text is kept as
    /// written (unquoted, unescaped).
    case facet(attribute: String, value: String)
    /// attr OP number
    case numeric(attribute: String, comparison: NumericComparison, value: Double)
    /// attr:lower TO upper, inclusive on both ends. `lower > upper` is accepted (matches nothing).
    case numericRange(attribute: String, lower: Double, upper: Double)
    /// _tags:value, a bare value in `filters`, or a tag in tagFilters; tags compare
    /// case-sensitively later.
    case tag(String)
}

/// The three filter types Algolia distinguishes. An OR group in `filters` may only mix
/// filters of one type.
public enum FilterKind: String, Sendable, Hashable {
    case facet
    case numeric
    case tag
}

extension FilterExpression {
    /// The filter type of a leaf (or of the leaf under a `.not`); nil for `.and` / `.or`.
    public var kind: FilterKind? {
        switch self {
        case .facet: return .facet
        case .numeric, .numericRange: return .numeric
        case .tag: return .tag
        case .not(let inner): return inner.kind
        case .and, .or: return nil
        }
    }

    /// ANDs several optional expressions (e.g. the results of `filters`, `facetFilters`,
    /// `numericFilters` and `tagFilters`, which Algolia combines with AND), flattening
    /// nested ANDs. Returns nil when every input is nil.
    public static func allOf(_ expressions: [FilterExpression?]) -> FilterExpression? {
        var parts: [FilterExpression] = []
        for case let expression? in expressions {
            if case .and(let children) = expression {
                parts.append(contentsOf: children)
            } else {
                parts.append(expression)
            }
        }
        switch parts.count {
        case 0: return nil
        case 1: return parts[0]
        default: return .and(parts)
        }
    }
}

/// A filter that could not be parsed, with enough detail to fix it.
public struct FilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// "filters", "facetFilters", "numericFilters", "tagFilters" or "optionalFilters".
    public var parameter: String
    /// 1-based character position in the filter string, when known. For the list forms
    /// (`facetFilters` etc. given as arrays) element errors have no position; the message
    /// quotes the offending element instead.
    public var position: Int?
    /// What was found and what was expected, e.g.
    /// "unexpected token 'OR' at col 12; expected a filter such as brand:Apple".
    public var message: String
    /// "<parameter>: <message>".
    public var description: String

    public init(parameter: String, position: Int?, message: String) {
        self.parameter = parameter
        self.position = position
        self.message = message
        self.description = "\(parameter): \(message)"
    }
}
