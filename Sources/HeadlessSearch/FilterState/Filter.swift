/// One filter of a `FilterState`: on a facet value, on a number, or on a tag, possibly
/// negated. As InstantSearch's `Filter.Facet`, `Filter.Numeric` and `Filter.Tag`.
///
/// ```swift
/// let apple = Filter.Facet(attribute: "brand", stringValue: "Apple")
/// let cheap = Filter.Numeric(attribute: "price", operator: .lessThan, value: 100)
/// let midRange = Filter.Numeric(attribute: "price", range: 100...500)
/// let notRefurbished = !Filter.Tag(value: "refurbished")
/// ```
public enum Filter: Hashable, Sendable {
    case facet(Facet)
    case numeric(Numeric)
    case tag(Tag)

    /// The three filter types Algolia's `filters` grammar distinguishes: an OR group holds
    /// one type.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case facet
        case numeric
        case tag
    }

    /// A facet filter: `attribute:value` (Algolia's facet filter; values compare
    /// case-insensitively, array attributes match when one element does).
    public struct Facet: FilterType {
        /// The value a facet filter matches.
        public enum ValueType: Hashable, Sendable, CustomStringConvertible {
            case string(String)
            case number(Double)
            case bool(Bool)

            /// The value as Algolia shows it in facet counts (`"Apple"`, `"4"`, `"true"`).
            public var description: String {
                switch self {
                case .string(let text): text
                case .number(let number): FilterSyntax.number(number)
                case .bool(let flag): flag ? "true" : "false"
                }
            }
        }

        public let attribute: String
        public let value: ValueType
        public var isNegated: Bool

        public init(attribute: String, value: ValueType, isNegated: Bool = false) {
            self.attribute = attribute
            self.value = value
            self.isNegated = isNegated
        }

        public init(attribute: String, stringValue: String, isNegated: Bool = false) {
            self.init(attribute: attribute, value: .string(stringValue), isNegated: isNegated)
        }

        public init(attribute: String, floatValue: Double, isNegated: Bool = false) {
            self.init(attribute: attribute, value: .number(floatValue), isNegated: isNegated)
        }

        public init(attribute: String, boolValue: Bool, isNegated: Bool = false) {
            self.init(attribute: attribute, value: .bool(boolValue), isNegated: isNegated)
        }

        public var filter: Filter { .facet(self) }
        public init?(_ filter: Filter) {
            guard case .facet(let facet) = filter else { return nil }
            self = facet
        }
    }

    /// A numeric filter: `attribute OP value` or `attribute:lower TO upper` (inclusive).
    /// A record matches when one of its numbers under `attribute` satisfies the condition.
    public struct Numeric: FilterType {
        /// Algolia's numeric comparison operators.
        public enum Operator: String, Hashable, Sendable, CaseIterable {
            case lessThan = "<"
            case lessThanOrEqual = "<="
            case equals = "="
            case notEquals = "!="
            case greaterThanOrEqual = ">="
            case greaterThan = ">"

            /// The operator with its operands swapped (`a < b` is `b > a`).
            public var inverse: Operator {
                switch self {
                case .lessThan: .greaterThan
                case .lessThanOrEqual: .greaterThanOrEqual
                case .equals: .equals
                case .notEquals: .notEquals
                case .greaterThanOrEqual: .lessThanOrEqual
                case .greaterThan: .lessThan
                }
            }
        }

        public enum ValueType: Hashable, Sendable {
            case comparison(Operator, Double)
            case range(ClosedRange<Double>)
        }

        public let attribute: String
        public let value: ValueType
        public var isNegated: Bool

        public init(attribute: String, value: ValueType, isNegated: Bool = false) {
            self.attribute = attribute
            self.value = value
            self.isNegated = isNegated
        }

        public init(attribute: String, operator: Operator, value: Double, isNegated: Bool = false) {
            self.init(attribute: attribute, value: .comparison(`operator`, value), isNegated: isNegated)
        }

        public init(attribute: String, range: ClosedRange<Double>, isNegated: Bool = false) {
            self.init(attribute: attribute, value: .range(range), isNegated: isNegated)
        }

        public var filter: Filter { .numeric(self) }
        public init?(_ filter: Filter) {
            guard case .numeric(let numeric) = filter else { return nil }
            self = numeric
        }
    }

    /// A tag filter: `_tags:value` (tags compare exactly, case included).
    public struct Tag: FilterType {
        public var attribute: String { "_tags" }
        public let value: String
        public var isNegated: Bool

        public init(value: String, isNegated: Bool = false) {
            self.value = value
            self.isNegated = isNegated
        }

        public var filter: Filter { .tag(self) }
        public init?(_ filter: Filter) {
            guard case .tag(let tag) = filter else { return nil }
            self = tag
        }
    }

    /// The attribute the filter is on (`_tags` for a tag filter).
    public var attribute: String {
        switch self {
        case .facet(let facet): facet.attribute
        case .numeric(let numeric): numeric.attribute
        case .tag(let tag): tag.attribute
        }
    }

    public var isNegated: Bool {
        switch self {
        case .facet(let facet): facet.isNegated
        case .numeric(let numeric): numeric.isNegated
        case .tag(let tag): tag.isNegated
        }
    }

    /// Facet, numeric or tag: the filter types an OR group of Algolia's `filters` cannot mix.
    public var kind: Filter.Kind {
        switch self {
        case .facet: .facet
        case .numeric: .numeric
        case .tag: .tag
        }
    }

    /// The filter in Algolia's `filters` syntax, quoted and escaped: `"brand":"Apple"`,
    /// `"price" < 100`, `"price":10 TO 20`, `NOT "_tags":"refurbished"`.
    public var filterString: String { FilterSyntax.render(self) }
}


/// What the three filter structures share.
public protocol FilterType: Hashable, Sendable {
    var attribute: String { get }
    var isNegated: Bool { get set }
    /// The filter, type-erased.
    var filter: Filter { get }
    /// The filter of this type, or nil when `filter` is of another type.
    init?(_ filter: Filter)
}

extension FilterType {
    /// The filter of this type's kind (facet, numeric or tag).
    public static var kind: Filter.Kind {
        switch Self.self {
        case is Filter.Numeric.Type: .numeric
        case is Filter.Tag.Type: .tag
        default: .facet
        }
    }

    /// The filter negated: `!Filter.Facet(attribute: "brand", stringValue: "Apple")` is `NOT brand:Apple`.
    public static prefix func ! (filter: Self) -> Self {
        var negated = filter
        negated.isNegated.toggle()
        return negated
    }
}

extension Filter: CustomStringConvertible {
    public var description: String { filterString }
}
