import SearchAPI

// Parsers for the list-shaped filter parameters: facetFilters, numericFilters, tagFilters
// and optionalFilters. Each arrives as a string or as nested arrays: the outer list is an
// AND, an inner array is an OR.
//
// Element syntax:
// - facetFilters / optionalFilters: `attr:value` (split at the first colon); `attr:-value`
//   negates; `attr:\-value` is the literal value "-value"; a value wrapped in double quotes
//   is unquoted (`brand:"Apple Inc"`, escapes \" and \\); `_tags:x` is `.tag("x")`;
//   a trailing `<score=N>` (0–65,535) is the filter's score in `optionalFilters`
//   (`scoredOptionalFilters`), and dropped from the expression.
// - numericFilters: `attr<n`, `attr <= n`, `attr=n`, `attr!=n`, `attr>=n`, `attr>n`,
//   `attr:lo TO hi` or `attr:lo to hi` (same rules as in `filters`).
// - tagFilters: `tag`; `-tag` negates; `\-tag` is the literal tag "-tag"; surrounding double
//   quotes are stripped; a trailing `<score=N>` is dropped.
// Empty inner arrays are ignored. Errors from elements have no position; their message quotes
// the element.

/// One entry of a list-shaped filter parameter: `.single` (ANDed with its siblings) or `.anyOf`
/// (ORed together). The same type the request models use, so parameters pass straight through.
public typealias FilterListElement = FilterListItem

/// An optional filter and its score (`brand:Apple<score=3>`; 1 when it has none): a record
/// matching it gets the score, and records rank by their total (Algolia's filter scoring).
public struct ScoredFilter: Sendable, Hashable {
    /// Algolia's range of scores.
    public static let scores = 0...65_535

    public var filter: FilterExpression
    public var score: Int

    public init(filter: FilterExpression, score: Int) {
        self.filter = filter
        self.score = score
    }
}

public enum FilterListParser {
    public static func facetFilters(_ list: [FilterListElement]) throws(FilterError) -> FilterExpression? {
        try combine(list, parameter: "facetFilters") { (element) throws(FilterError) in try facetElement(element, parameter: "facetFilters") }
    }

    public static func numericFilters(_ list: [FilterListElement]) throws(FilterError) -> FilterExpression? {
        try combine(list, parameter: "numericFilters") { (element) throws(FilterError) in try numericElement(element, parameter: "numericFilters") }
    }

    public static func tagFilters(_ list: [FilterListElement]) throws(FilterError) -> FilterExpression? {
        try combine(list, parameter: "tagFilters") { (element) throws(FilterError) in try tagElement(element, parameter: "tagFilters") }
    }

    /// Parsed like facetFilters (scores are dropped: `scoredOptionalFilters` keeps them).
    public static func optionalFilters(_ list: [FilterListElement]) throws(FilterError) -> FilterExpression? {
        try combine(list, parameter: "optionalFilters") { (element) throws(FilterError) in try facetElement(element, parameter: "optionalFilters") }
    }

    /// `optionalFilters` with their scores (Algolia's filter scoring): one group per AND-ed
    /// element (an OR group holds several filters), each filter with its `<score=N>`, 1 when
    /// it has none. Empty OR groups are left out.
    ///
    /// ```swift
    /// try FilterListParser.scoredOptionalFilters([.single("brand:Apple<score=3>"), .anyOf(["color:red", "color:blue<score=2>"])])
    /// // [[brand:Apple 3], [color:red 1, color:blue 2]]
    /// ```
    public static func scoredOptionalFilters(_ list: [FilterListElement]) throws(FilterError) -> [[ScoredFilter]] {
        let parameter = "optionalFilters"
        let count = list.reduce(0) { $0 + filterCount($1) }
        guard count <= FilterParser.maxFilters else {
            throw FilterError(parameter: parameter, position: nil,
                              message: "\(count) filters; expected at most \(FilterParser.maxFilters)")
        }
        var groups: [[ScoredFilter]] = []
        for entry in list {
            let texts: [String]
            switch entry {
            case .single(let text): texts = [text]
            case .anyOf(let values): texts = values
            }
            var group: [ScoredFilter] = []
            for text in texts {
                group.append(ScoredFilter(filter: try facetElement(text, parameter: parameter),
                                          score: try score(of: text, parameter: parameter)))
            }
            if !group.isEmpty { groups.append(group) }
        }
        return groups
    }

    /// The `<score=N>` at the end of a filter, 1 when there is none.
    static func score(of text: String, parameter: String) throws(FilterError) -> Int {
        let chars = trimmed(text)
        let stripped = FilterStringParser.strippingScoreSuffix(chars)
        guard stripped.count < chars.count else { return 1 }
        let digits = String(chars[(stripped.count + "<score=".count)..<(chars.count - 1)])
        guard let score = Int(digits), ScoredFilter.scores.contains(score) else {
            throw FilterError(parameter: parameter, position: nil,
                              message: "'\(FilterStringParser.shorten(text))' has the score \(FilterStringParser.shorten(digits)); expected a whole number from 0 to 65535")
        }
        return score
    }

    /// Dispatches on the parameter name ("facetFilters", "numericFilters", "tagFilters",
    /// "optionalFilters"). Any other name throws.
    public static func parse(_ list: [FilterListElement], parameter: String) throws(FilterError) -> FilterExpression? {
        switch parameter {
        case "facetFilters": return try facetFilters(list)
        case "numericFilters": return try numericFilters(list)
        case "tagFilters": return try tagFilters(list)
        case "optionalFilters": return try optionalFilters(list)
        default:
            throw FilterError(parameter: parameter, position: nil, message: "unknown filter parameter '\(parameter)'; expected facetFilters, numericFilters, tagFilters or optionalFilters")
        }
    }

    /// Convenience: `splitStringForm` followed by `parse(_:parameter:)`.
    public static func parseString(_ text: String, parameter: String) throws(FilterError) -> FilterExpression? {
        try parse(try splitStringForm(text, parameter: parameter), parameter: parameter)
    }

    /// The string form: a single filter ("brand:Apple"), a comma-separated list
    /// ("a:b,c:d" = AND), and parenthesized OR groups ("(a,b),c" = (a OR b) AND c).
    ///
    /// Rules: elements are trimmed; commas, '(' and ')' inside double quotes are literal;
    /// `\,`, `\(` and `\)` are a literal comma/parenthesis (the backslash is removed), any other
    /// backslash sequence is passed through unchanged (so `\-` still reaches the element
    /// parser); '(' only opens a group at the start of an element and ')' only closes one
    /// inside a group (elsewhere both are literal). Groups don't nest. Empty or blank text
    /// gives an empty list; an empty element or group is an error.
    public static func splitStringForm(_ text: String, parameter: String) throws(FilterError) -> [FilterListElement] {
        let chars = Array(text)
        var result: [FilterListElement] = []
        var count = 0
        var i = 0

        func fail(_ message: String) -> FilterError {
            FilterError(parameter: parameter, position: i + 1, message: message)
        }
        func skipWhitespace() {
            while i < chars.count, chars[i].isWhitespace { i += 1 }
        }
        /// Reads one element up to an unquoted, unescaped ',' (or ')' inside a group).
        func readElement(inGroup: Bool) throws(FilterError) -> String {
            skipWhitespace()
            let start = i
            var element = ""
            var inQuotes = false
            var quoteStart = 0
            while i < chars.count {
                let c = chars[i]
                if c == "\\", i + 1 < chars.count {
                    let next = chars[i + 1]
                    if next == "," || next == "(" || next == ")" {
                        element.append(next)
                    } else {
                        element.append(c)
                        element.append(next)
                    }
                    i += 2
                    continue
                }
                if c == "\"" {
                    if !inQuotes { quoteStart = i }
                    inQuotes.toggle()
                } else if !inQuotes {
                    if c == "," { break }
                    if inGroup && c == ")" { break }
                    if c == "(" && i == start {
                        throw fail(inGroup
                            ? "nested parentheses are not allowed at col \(i + 1); expected a filter (groups can't be nested: write (a,b),c)"
                            : "unexpected token '(' at col \(i + 1)")
                    }
                }
                element.append(c)
                i += 1
            }
            if inQuotes {
                i = quoteStart
                throw fail("unterminated quoted string starting at col \(quoteStart + 1); expected a closing \"")
            }
            while let last = element.last, last.isWhitespace { element.removeLast() }
            if element.isEmpty {
                let found = i < chars.count ? "token '\(chars[i])'" : "end of input"
                throw fail("unexpected \(found) at col \(i + 1); expected a filter (empty filters are not allowed)")
            }
            return element
        }

        skipWhitespace()
        if i == chars.count { return [] }
        while true {
            skipWhitespace()
            if i < chars.count, chars[i] == "(" {
                let open = i
                i += 1
                skipWhitespace()
                if i < chars.count, chars[i] == ")" {
                    i = open
                    throw fail("empty parentheses at col \(open + 1); expected filters inside ( ), such as (a,b)")
                }
                var group: [String] = []
                while true {
                    group.append(try readElement(inGroup: true))
                    guard i < chars.count else {
                        throw fail("unexpected end of input at col \(i + 1); expected ')' to close the '(' at col \(open + 1)")
                    }
                    i += 1 // ',' or ')'
                    if chars[i - 1] == ")" { break }
                }
                result.append(.anyOf(group))
                skipWhitespace()
                if i < chars.count && chars[i] != "," {
                    throw fail("unexpected token '\(chars[i])' at col \(i + 1); expected ',' after ')'")
                }
            } else {
                result.append(.single(try readElement(inGroup: false)))
            }
            count += result.last.map(FilterListParser.filterCount) ?? 0
            if count > FilterParser.maxFilters {
                throw fail("more than \(FilterParser.maxFilters) filters by col \(i); expected at most \(FilterParser.maxFilters)")
            }
            if i == chars.count { return result }
            i += 1 // ','
        }
    }

    /// The filters in one element of a list: 1, or the size of an OR group.
    private static func filterCount(_ element: FilterListElement) -> Int {
        switch element {
        case .single: 1
        case .anyOf(let values): values.count
        }
    }

    // MARK: - Combining

    private static func combine(
        _ list: [FilterListElement],
        parameter: String,
        _ parseElement: (String) throws(FilterError) -> FilterExpression
    ) throws(FilterError) -> FilterExpression? {
        let count = list.reduce(0) { $0 + filterCount($1) }
        guard count <= FilterParser.maxFilters else {
            throw FilterError(parameter: parameter, position: nil,
                              message: "\(count) filters; expected at most \(FilterParser.maxFilters)")
        }
        var conjuncts: [FilterExpression] = []
        for entry in list {
            switch entry {
            case .single(let text):
                conjuncts.append(try parseElement(text))
            case .anyOf(let texts):
                var disjuncts: [FilterExpression] = []
                for text in texts { disjuncts.append(try parseElement(text)) }
                switch disjuncts.count {
                case 0: continue
                case 1: conjuncts.append(disjuncts[0])
                default: conjuncts.append(.or(disjuncts))
                }
            }
        }
        switch conjuncts.count {
        case 0: return nil
        case 1: return conjuncts[0]
        default: return .and(conjuncts)
        }
    }

    // MARK: - Elements

    private static func trimmed(_ text: String) -> [Character] {
        var chars = Array(text)
        while let last = chars.last, last.isWhitespace { chars.removeLast() }
        let leading = chars.prefix(while: { $0.isWhitespace }).count
        return Array(chars.dropFirst(leading))
    }

    /// Handles `-value` (negated), `\-value` (literal dash), surrounding double quotes and a
    /// `<score=N>` suffix. Returns the value and whether it is negated, or nil if it's empty.
    private static func signedValue(_ raw: [Character]) -> (value: String, negated: Bool)? {
        var chars = FilterStringParser.strippingScoreSuffix(raw)
        var negated = false
        if chars.first == "-" {
            negated = true
            chars.removeFirst()
        } else if chars.count >= 2, chars[0] == "\\", chars[1] == "-" {
            chars.removeFirst()
        }
        if chars.count >= 2, chars.first == "\"", chars.last == "\"" {
            var unquoted = ""
            var i = 1
            while i < chars.count - 1 {
                if chars[i] == "\\", i + 1 < chars.count - 1, chars[i + 1] == "\"" || chars[i + 1] == "\\" {
                    unquoted.append(chars[i + 1])
                    i += 2
                } else {
                    unquoted.append(chars[i])
                    i += 1
                }
            }
            return (unquoted, negated)
        }
        if chars.isEmpty { return nil }
        return (String(chars), negated)
    }

    static func facetElement(_ text: String, parameter: String) throws(FilterError) -> FilterExpression {
        let chars = trimmed(text)
        let shown = FilterStringParser.shorten(text)
        guard let colon = chars.firstIndex(of: ":") else {
            throw FilterError(parameter: parameter, position: nil, message: "'\(shown)' is not a facet filter; expected attribute:value, such as brand:Apple")
        }
        var attributeChars = Array(chars[..<colon])
        while let last = attributeChars.last, last.isWhitespace { attributeChars.removeLast() }
        if attributeChars.count >= 2, attributeChars.first == "\"", attributeChars.last == "\"" {
            attributeChars = Array(attributeChars.dropFirst().dropLast())
        }
        guard !attributeChars.isEmpty else {
            throw FilterError(parameter: parameter, position: nil, message: "'\(shown)' has no attribute name before ':'; expected attribute:value, such as brand:Apple")
        }
        let attribute = String(attributeChars)
        let rawValue = Array(chars[(colon + 1)...].drop(while: { $0.isWhitespace }))
        guard let (value, negated) = signedValue(rawValue) else {
            throw FilterError(parameter: parameter, position: nil, message: "'\(shown)' has no value after '\(attribute):'; expected attribute:value, such as brand:Apple")
        }
        let leaf: FilterExpression = attribute == "_tags" ? .tag(value) : .facet(attribute: attribute, value: value)
        return negated ? .not(leaf) : leaf
    }

    static func numericElement(_ text: String, parameter: String) throws(FilterError) -> FilterExpression {
        let shown = FilterStringParser.shorten(text)
        let example = "expected attribute OP number (OP one of <, <=, =, !=, >=, >), such as price>=10, or attribute:lower TO upper, such as price:10 TO 20"
        var parser = FilterStringParser(text: text, parameter: parameter)
        let expression: FilterExpression
        let kind: FilterKind
        do {
            (expression, kind) = try parser.parseSingleFilter()
        } catch {
            throw FilterError(parameter: parameter, position: nil, message: "'\(shown)' is not a valid numeric filter: \(error.message)")
        }
        guard kind == .numeric else {
            throw FilterError(parameter: parameter, position: nil, message: "'\(shown)' is not a numeric filter; \(example)")
        }
        return expression
    }

    static func tagElement(_ text: String, parameter: String) throws(FilterError) -> FilterExpression {
        let shown = FilterStringParser.shorten(text)
        guard let (value, negated) = signedValue(trimmed(text)) else {
            throw FilterError(parameter: parameter, position: nil, message: "'\(shown)' is an empty tag; expected a tag name, such as published or -draft")
        }
        return negated ? .not(.tag(value)) : .tag(value)
    }
}
