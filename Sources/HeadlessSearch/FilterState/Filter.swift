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
    /// A filter on a facet value (`brand:Apple`).
    case facet(Facet)
    /// A filter on a number (`price < 100`, `price:10 TO 20`).
    case numeric(Numeric)
    /// A filter on a tag (`_tags:refurbished`).
    case tag(Tag)

    /// The three filter types Algolia's `filters` grammar distinguishes: an OR group holds
    /// one type.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// `Filter.Facet` filters.
        case facet
        /// `Filter.Numeric` filters.
        case numeric
        /// `Filter.Tag` filters.
        case tag
    }

    /// A facet filter: `attribute:value` (Algolia's facet filter; values compare
    /// case-insensitively, array attributes match when one element does).
    public struct Facet: FilterType {
        /// The value a facet filter matches.
        public enum ValueType: Hashable, Sendable, CustomStringConvertible {
            /// A string (`brand:Apple`).
            case string(String)
            /// A number (`rating:4`).
            case number(Double)
            /// A boolean (`free_shipping:true`).
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

        /// The facet attribute filtered on.
        public let attribute: String
        /// The value the attribute must have (or, negated, must not have).
        public let value: ValueType
        /// Whether the filter excludes the records with the value (`NOT brand:Apple`).
        public var isNegated: Bool

        /// A filter on `value` of `attribute`, negated when `isNegated`.
        public init(attribute: String, value: ValueType, isNegated: Bool = false) {
            self.attribute = attribute
            self.value = value
            self.isNegated = isNegated
        }

        /// A filter on a string value of `attribute`.
        public init(attribute: String, stringValue: String, isNegated: Bool = false) {
            self.init(attribute: attribute, value: .string(stringValue), isNegated: isNegated)
        }

        /// A filter on a number value of `attribute`.
        public init(attribute: String, floatValue: Double, isNegated: Bool = false) {
            self.init(attribute: attribute, value: .number(floatValue), isNegated: isNegated)
        }

        /// A filter on a boolean value of `attribute`.
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
            /// `<`: less than.
            case lessThan = "<"
            /// `<=`: less than or equal to.
            case lessThanOrEqual = "<="
            /// `=`: equal to.
            case equals = "="
            /// `!=`: not equal to.
            case notEquals = "!="
            /// `>=`: greater than or equal to.
            case greaterThanOrEqual = ">="
            /// `>`: greater than.
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

        /// The condition a numeric filter sets: a comparison or a range.
        public enum ValueType: Hashable, Sendable {
            /// `attribute OP value`.
            case comparison(Operator, Double)
            /// `attribute:lower TO upper`, both bounds included.
            case range(ClosedRange<Double>)
        }

        /// The numeric attribute filtered on.
        public let attribute: String
        /// The condition one of the attribute's numbers must satisfy.
        public let value: ValueType
        /// Whether the filter excludes the records that satisfy the condition (`NOT price < 100`).
        public var isNegated: Bool

        /// A filter with `value` as its condition, negated when `isNegated`.
        public init(attribute: String, value: ValueType, isNegated: Bool = false) {
            self.attribute = attribute
            self.value = value
            self.isNegated = isNegated
        }

        /// A comparison: `attribute operator value`.
        public init(attribute: String, operator: Operator, value: Double, isNegated: Bool = false) {
            self.init(attribute: attribute, value: .comparison(`operator`, value), isNegated: isNegated)
        }

        /// A range: `attribute:lower TO upper`, both bounds included.
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
        /// Always `_tags`, Algolia's attribute of tags.
        public var attribute: String { "_tags" }
        /// The tag a record's `_tags` must hold (or, negated, must not hold).
        public let value: String
        /// Whether the filter excludes the records with the tag (`NOT _tags:refurbished`).
        public var isNegated: Bool

        /// A filter on the tag `value`, negated when `isNegated`.
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

    /// Whether the filter excludes the records it describes (`NOT ...`).
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
    /// The attribute the filter is on.
    var attribute: String { get }
    /// Whether the filter excludes the records it describes (`NOT ...`).
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
