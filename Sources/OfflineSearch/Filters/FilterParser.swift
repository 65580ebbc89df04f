// Parser for Algolia's `filters` string grammar (no Foundation).
//
//   expression := orGroup
//   orGroup    := andGroup ( "OR" andGroup )*
//   andGroup   := unary ( "AND" unary )*
//   unary      := "(" orGroup ")" | "NOT" filter | filter
//   filter     := attribute ":" facetValue
//               | attribute ":" number ("TO" | "to") number
//               | attribute op number            op: < <= = != >= >
//               | attribute                      (a bare value is a tag, as in Algolia)
//   attribute  := quoted | run of characters other than whitespace ( ) : < > = !
//   facetValue := quoted | run of characters other than whitespace and )
//
// Then Algolia's restrictions are applied: the result must be a conjunction of
// disjunctions (no AND inside OR), NOT only applies to a single filter, and all filters of
// one OR group have the same type (facet, numeric or tag).
//
// Extras, accepted for compatibility and documented for the evaluator:
// - A bare value (`public OR user_42`, `"my tag"`) is a tag filter, like `_tags:public`.
// - A score suffix on a facet or tag value (`brand:Apple<score=3>`, `brand:"Apple"<score=3>`)
//   is kept beside the AST (`FilterParser.parseScored`), not in it: it ranks (filter scoring),
//   it does not select.
// - Whitespace is allowed around ':' (`brand : Apple`); lowercase and/or/not are rejected.
// - Parentheses around ANDs are accepted and flattened (`(A AND B) AND C`).

/// Entry point for the `filters` parameter.
///
/// Bounded by structure, not by length (a UI's disjunctive filters are often long): at most
/// `maxFilters` filters and `maxNestingDepth` levels of parentheses.
public enum FilterParser {
    /// Filters in one filter parameter: 1,000, Algolia's "number of filters" limit. The same
    /// bound applies to the list forms (`facetFilters` and the others), counting every element.
    public static let maxFilters = 1_000
    /// Parentheses inside one another in `filters`: 32. A valid filter needs two at most
    /// (`(A OR B) AND C`); the bound keeps the recursive parser within a 512 KB thread stack
    /// even in a debug build (about 9 KB a level there; 56 levels overflowed).
    public static let maxNestingDepth = 32

    /// Parses an Algolia `filters` string. Returns nil for empty or whitespace-only text.
    /// - Parameters:
    ///   - text: the `filters` string.
    ///   - parameter: the parameter name used in error messages.
    public static func parse(_ text: String, parameter: String = "filters") throws(FilterError) -> FilterExpression? {
        var parser = FilterStringParser(text: text, parameter: parameter)
        return try parser.parseExpression()
    }

    /// Parses an Algolia `filters` string, with the score written after each scored facet or tag
    /// filter (`company:Google<score=3>`): the leaf filter → its score.
    public static func parseScored(_ text: String, parameter: String = "filters") throws(FilterError) -> (FilterExpression?, [FilterExpression: Int]) {
        var parser = FilterStringParser(text: text, parameter: parameter)
        let expression = try parser.parseExpression()
        return (expression, parser.scores)
    }
}

/// Character-level recursive-descent parser shared by `FilterParser` and `FilterListParser`.
struct FilterStringParser {
    let chars: [Character]
    let parameter: String
    var index = 0
    /// Open parentheses around the current position, and filters read so far (see the limits
    /// on `FilterParser`).
    private var depth = 0
    private var filterCount = 0
    /// The scores written after facet and tag values (`<score=N>`), by leaf filter.
    private(set) var scores: [FilterExpression: Int] = [:]

    init(text: String, parameter: String) {
        self.chars = Array(text)
        self.parameter = parameter
    }

    /// Intermediate tree that remembers where operators were, for error messages.
    private indirect enum Node {
        case leaf(FilterExpression, FilterKind)
        /// `firstOperator` is the column of the leftmost AND in the group.
        case and([Node], firstOperator: Int)
        /// Each item carries the column of the OR in front of it (0 for the first item).
        case or([(node: Node, operatorColumn: Int)])
    }

    // MARK: Entry points

    /// Parses a whole `filters` expression; nil when the text is blank.
    mutating func parseExpression() throws(FilterError) -> FilterExpression? {
        skipWhitespace()
        if isAtEnd { return nil }
        let node = try parseOr(after: nil)
        skipWhitespace()
        if !isAtEnd {
            // parseOr only stops at the end of input or at ')'.
            throw fail("unexpected token ')' at col \(column(index)); there is no matching '(' before it", at: index)
        }
        return try validateTop(node)
    }

    /// Parses exactly one filter (no booleans, no parentheses) spanning the whole text.
    mutating func parseSingleFilter() throws(FilterError) -> (FilterExpression, FilterKind) {
        skipWhitespace()
        if isAtEnd {
            throw fail("empty filter; expected a filter such as price>=10", at: index)
        }
        let result = try parseFilter()
        skipWhitespace()
        if !isAtEnd {
            throw unexpected(at: index, expected: "the end of the filter")
        }
        return result
    }

    // MARK: Boolean structure

    private mutating func parseOr(after context: String?) throws(FilterError) -> Node {
        var items: [(node: Node, operatorColumn: Int)] = [(try parseAnd(after: context), 0)]
        while let op = try peekOperator(), op.word == "OR" {
            index = op.end
            items.append((try parseAnd(after: "OR"), op.column))
        }
        if items.count == 1 { return items[0].node }
        var flat: [(node: Node, operatorColumn: Int)] = []
        for item in items {
            if case .or(let nested) = item.node {
                for (offset, inner) in nested.enumerated() {
                    flat.append((inner.node, offset == 0 ? item.operatorColumn : inner.operatorColumn))
                }
            } else {
                flat.append(item)
            }
        }
        return .or(flat)
    }

    private mutating func parseAnd(after context: String?) throws(FilterError) -> Node {
        var items: [Node] = [try parseUnary(after: context)]
        var firstAnd = Int.max
        while let op = try peekOperator(), op.word == "AND" {
            index = op.end
            firstAnd = min(firstAnd, op.column)
            items.append(try parseUnary(after: "AND"))
        }
        if items.count == 1 { return items[0] }
        var flat: [Node] = []
        for item in items {
            if case .and(let nested, let first) = item {
                flat.append(contentsOf: nested)
                firstAnd = min(firstAnd, first)
            } else {
                flat.append(item)
            }
        }
        return .and(flat, firstOperator: firstAnd)
    }

    private mutating func parseUnary(after context: String?) throws(FilterError) -> Node {
        skipWhitespace()
        let expected = context.map { "a filter after \($0), such as brand:Apple" } ?? "a filter such as brand:Apple"
        guard let c = current else { throw unexpected(at: index, expected: expected) }
        if c == "(" {
            let open = index
            guard depth < FilterParser.maxNestingDepth else {
                throw fail("parentheses nested deeper than \(FilterParser.maxNestingDepth) levels at col \(column(open)); expected at most \(FilterParser.maxNestingDepth) (a filter needs two at most, such as (A OR B) AND C)", at: open)
            }
            depth += 1
            defer { depth -= 1 }
            index += 1
            skipWhitespace()
            if current == ")" {
                throw fail("empty parentheses at col \(column(open)); expected a filter inside ( ), such as (brand:Apple OR brand:Samsung)", at: open)
            }
            let node = try parseOr(after: "'('")
            skipWhitespace()
            guard current == ")" else {
                throw fail("unexpected end of input at col \(column(index)); expected ')' to close the '(' at col \(column(open))", at: index)
            }
            index += 1
            return node
        }
        if c == ")" { throw unexpected(at: index, expected: expected) }
        let word = wordText(at: index)
        if word == "AND" || word == "OR" { throw unexpected(at: index, expected: expected) }
        if word == "and" || word == "or" || word == "not" {
            throw fail("unexpected token '\(word)' at col \(column(index)); boolean operators must be uppercase (AND, OR, NOT); to filter on this word write _tags:\(word) or quote it", at: index)
        }
        if word == "NOT" {
            let notIndex = index
            index += 3
            skipWhitespace()
            guard let next = current else {
                throw unexpected(at: index, expected: "a filter after NOT, such as NOT brand:Apple")
            }
            if next == "(" {
                throw fail("NOT cannot be applied to a parenthesized group at col \(column(notIndex)); Algolia only allows NOT before a single filter, such as NOT brand:Apple", at: notIndex)
            }
            let nextWord = wordText(at: index)
            if next == ")" || nextWord == "AND" || nextWord == "OR" || nextWord == "NOT" {
                throw unexpected(at: index, expected: "a filter after NOT, such as NOT brand:Apple")
            }
            let (expression, kind) = try parseFilter()
            return .leaf(.not(expression), kind)
        }
        let (expression, kind) = try parseFilter()
        return .leaf(expression, kind)
    }

    /// Looks at the next AND/OR without consuming it. Returns nil at the end of input or
    /// before ')'; throws for anything else that is not AND or OR.
    private mutating func peekOperator() throws(FilterError) -> (word: String, column: Int, end: Int)? {
        skipWhitespace()
        guard let c = current, c != ")" else { return nil }
        let start = index
        if c == "(" {
            throw fail("unexpected token '(' at col \(column(start)); expected AND or OR before '('", at: start)
        }
        let word = wordText(at: start)
        if word == "AND" || word == "OR" {
            return (word, column(start), start + word.count)
        }
        let shown = tokenText(at: start)
        let col = column(start)
        switch word {
        case "and", "or", "And", "Or":
            throw fail("unexpected token '\(shown)' at col \(col); expected AND or OR (boolean operators must be uppercase)", at: start)
        case "NOT", "not":
            throw fail("unexpected token '\(shown)' at col \(col); expected AND or OR before NOT, such as brand:Apple AND NOT brand:Samsung", at: start)
        case "TO", "to":
            throw fail("unexpected token '\(shown)' at col \(col); expected AND or OR (a range is written attribute:lower TO upper, with numeric bounds)", at: start)
        default:
            if let separator = shown.firstIndex(where: { $0 == ":" || Self.isOperatorCharacter($0) }), separator != shown.startIndex {
                // `hierarchical categories:Phones`: the attribute name has a space.
                var end = start
                while end > 0, chars[end - 1].isWhitespace { end -= 1 }
                var begin = end
                while begin > 0, !chars[begin - 1].isWhitespace, chars[begin - 1] != "(" { begin -= 1 }
                let attribute = String(chars[begin..<end]) + " " + shown[..<separator]
                throw fail("unexpected token '\(shown)' at col \(col); expected AND or OR (an attribute name that contains spaces "
                    + "must be quoted, such as \"\(attribute)\"\(shown[separator...]))", at: start)
            }
            throw fail("unexpected token '\(shown)' at col \(col); expected AND or OR (quote values that contain spaces, such as brand:\"Apple Inc\")", at: start)
        }
    }

    // MARK: Single filters

    private static func isOperatorCharacter(_ c: Character) -> Bool {
        c == "<" || c == ">" || c == "=" || c == "!"
    }

    private mutating func parseFilter() throws(FilterError) -> (FilterExpression, FilterKind) {
        let start = index
        guard let first = current else {
            throw unexpected(at: index, expected: "a filter such as brand:Apple")
        }
        filterCount += 1
        guard filterCount <= FilterParser.maxFilters else {
            throw fail("more than \(FilterParser.maxFilters) filters (the next starts at col \(column(start))); expected at most \(FilterParser.maxFilters)", at: start)
        }
        let attribute: String
        if first == "\"" || first == "'" {
            attribute = try parseQuoted()
        } else {
            while let c = current, !c.isWhitespace, c != ":", c != "(", c != ")", !Self.isOperatorCharacter(c) {
                index += 1
            }
            if index == start {
                throw unexpected(at: start, expected: "a filter such as brand:Apple (an attribute name is missing)")
            }
            attribute = String(chars[start..<index])
        }
        let attributeText = String(chars[start..<index])
        let afterAttribute = index
        skipWhitespace()
        guard let c = current, c == ":" || Self.isOperatorCharacter(c) else {
            // A bare value is a tag filter: `public` means `_tags:public`.
            index = afterAttribute
            return (.tag(attribute), .tag)
        }
        if c == ":" {
            index += 1
            return try parseFacetValue(attribute: attribute, attributeText: attributeText)
        }
        // Numeric comparison.
        let operatorStart = index
        while let o = current, Self.isOperatorCharacter(o) { index += 1 }
        let operatorText = String(chars[operatorStart..<index])
        guard let comparison = NumericComparison(rawValue: operatorText) else {
            throw fail("unknown operator '\(operatorText)' at col \(column(operatorStart)); expected one of <, <=, =, !=, >=, > (or ':' for a facet value)", at: operatorStart)
        }
        let label = "'\(attributeText) \(operatorText)'"
        skipWhitespace()
        let numberStart = index
        guard let number = try readNumber(expected: "a number after \(label)") else {
            throw unexpected(at: numberStart, expected: "a number after \(label)")
        }
        return (.numeric(attribute: attribute, comparison: comparison, value: number), .numeric)
    }

    private mutating func parseFacetValue(attribute: String, attributeText: String) throws(FilterError) -> (FilterExpression, FilterKind) {
        let label = "'\(attributeText):'"
        let hadSpace = skipWhitespace()
        guard let c = current else {
            throw unexpected(at: index, expected: "a value after \(label)")
        }
        if c == ")" {
            throw unexpected(at: index, expected: "a value after \(label)")
        }
        if c == "(" {
            throw fail("unexpected token '(' at col \(column(index)); expected a value after \(label) (to match several values write (\(attributeText):A OR \(attributeText):B))", at: index)
        }
        let isTag = attribute == "_tags"
        if c == "\"" || c == "'" {
            let value = try parseQuoted()
            let leaf: FilterExpression = isTag ? .tag(value) : .facet(attribute: attribute, value: value)
            if let score = skipScoreSuffix() { scores[leaf] = score }
            return (leaf, isTag ? .tag : .facet)
        }
        let valueStart = index
        while let v = current, !v.isWhitespace, v != ")" { index += 1 }
        var value = Array(chars[valueStart..<index])
        let valueText = String(value)
        if hadSpace && (valueText == "AND" || valueText == "OR" || valueText == "NOT") {
            throw fail("unexpected token '\(valueText)' at col \(column(valueStart)); expected a value after \(label) (quote the value if it is literally \(valueText))", at: valueStart)
        }
        let score = Self.scoreSuffix(value)
        value = Self.strippingScoreSuffix(value)
        let text = String(value)

        // `attr:lower TO upper`; Algolia also takes a lowercase `to` (algoliasearch-helper
        // writes its numeric ranges that way).
        let save = index
        let spaceBeforeTo = skipWhitespace()
        if spaceBeforeTo && (wordText(at: index) == "TO" || wordText(at: index) == "to") {
            guard let lower = Self.number(text) else {
                throw fail("the range lower bound '\(text)' at col \(column(valueStart)) is not a number; expected attribute:lower TO upper, such as price:10 TO 20", at: valueStart)
            }
            index += 2
            skipWhitespace()
            let upperStart = index
            guard let upper = try readNumber(expected: "a number after 'TO'") else {
                throw unexpected(at: upperStart, expected: "a number after 'TO' (ranges are written attribute:lower TO upper)")
            }
            return (.numericRange(attribute: attribute, lower: lower, upper: upper), .numeric)
        }
        index = save
        let leaf: FilterExpression = isTag ? .tag(text) : .facet(attribute: attribute, value: text)
        if let score { scores[leaf] = score }
        return (leaf, isTag ? .tag : .facet)
    }

    /// Reads a number token (up to whitespace or a parenthesis). Returns nil when there is
    /// no token at all; throws when the token is not a number.
    private mutating func readNumber(expected: String) throws(FilterError) -> Double? {
        let start = index
        while let c = current, !c.isWhitespace, c != "(", c != ")" { index += 1 }
        if index == start { return nil }
        let text = String(chars[start..<index])
        guard let value = Self.number(text) else {
            if Self.looksNumeric(text) {
                throw fail("number '\(text)' at col \(column(start)) is out of range; expected a finite number", at: start)
            }
            throw fail("unexpected token '\(Self.shorten(text))' at col \(column(start)); expected \(expected)", at: start)
        }
        return value
    }

    /// Reads a quoted string starting at the current quote character. Backslash escapes the
    /// quote characters and itself; any other backslash sequence is kept verbatim.
    private mutating func parseQuoted() throws(FilterError) -> String {
        let open = index
        let quote = chars[index]
        index += 1
        var result = ""
        while true {
            guard let c = current else {
                throw fail("unterminated quoted string starting at col \(column(open)); expected a closing \(quote)", at: open)
            }
            if c == "\\" {
                guard index + 1 < chars.count else {
                    throw fail("unterminated quoted string starting at col \(column(open)); expected a closing \(quote)", at: open)
                }
                let next = chars[index + 1]
                if next == "\"" || next == "'" || next == "\\" {
                    result.append(next)
                } else {
                    result.append(c)
                    result.append(next)
                }
                index += 2
                continue
            }
            index += 1
            if c == quote { return result }
            result.append(c)
        }
    }

    /// Skips a `<score=N>` suffix directly after a quoted value, if present, and returns N
    /// (at most 65,535, Algolia's largest score).
    private mutating func skipScoreSuffix() -> Int? {
        let prefix: [Character] = Array("<score=")
        guard index + prefix.count < chars.count, Array(chars[index..<(index + prefix.count)]) == prefix else { return nil }
        var j = index + prefix.count
        let digitsStart = j
        while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
        guard j > digitsStart, j < chars.count, chars[j] == ">" else { return nil }
        let score = Int(String(chars[digitsStart..<j])).map { min($0, 65_535) } ?? 65_535
        index = j + 1
        return score
    }

    /// The N of a trailing `<score=N>` (at most 65,535), when `strippingScoreSuffix` removes one.
    static func scoreSuffix(_ value: [Character]) -> Int? {
        let stripped = strippingScoreSuffix(value)
        guard stripped.count < value.count else { return nil }
        let digits = value[(stripped.count + "<score=".count)..<(value.count - 1)]
        return Int(String(digits)).map { min($0, 65_535) } ?? 65_535
    }

    // MARK: Shared helpers (also used by FilterListParser)

    /// Removes a trailing `<score=N>` from a value, unless that would leave it empty.
    static func strippingScoreSuffix(_ value: [Character]) -> [Character] {
        guard value.last == ">", let open = value.lastIndex(of: "<"), open > 0 else { return value }
        let inner = value[(open + 1)..<(value.count - 1)]
        let key: [Character] = Array("score=")
        guard inner.count > key.count, Array(inner.prefix(key.count)) == key else { return value }
        let digits = inner.dropFirst(key.count)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return value }
        return Array(value[..<open])
    }

    /// True when `text` has the shape of a decimal number: optional sign, digits with an
    /// optional fraction (or a leading-dot fraction), optional exponent.
    static func looksNumeric(_ text: String) -> Bool {
        let s = Array(text.unicodeScalars)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < s.count, s[i].value >= 48, s[i].value <= 57 { i += 1 }
            return i - start
        }
        if i < s.count, s[i] == "+" || s[i] == "-" { i += 1 }
        var mantissa = digits()
        if i < s.count, s[i] == "." {
            i += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if i < s.count, s[i] == "e" || s[i] == "E" {
            i += 1
            if i < s.count, s[i] == "+" || s[i] == "-" { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == s.count
    }

    /// Parses a finite decimal number, or nil.
    static func number(_ text: String) -> Double? {
        guard looksNumeric(text) else { return nil }
        var normalized = text
        if normalized.hasPrefix("+") { normalized.removeFirst() }
        guard let value = Double(normalized), value.isFinite else { return nil }
        return value
    }

    static func shorten(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    // MARK: Validation

    private func validateTop(_ node: Node) throws(FilterError) -> FilterExpression {
        switch node {
        case .leaf(let expression, _):
            return expression
        case .or(let items):
            return try validateOr(items)
        case .and(let children, _):
            var result: [FilterExpression] = []
            for child in children {
                switch child {
                case .leaf(let expression, _): result.append(expression)
                case .or(let items): result.append(try validateOr(items))
                case .and: result.append(try validateTop(child)) // unreachable: ANDs are flattened
                }
            }
            return .and(result)
        }
    }

    private func validateOr(_ items: [(node: Node, operatorColumn: Int)]) throws(FilterError) -> FilterExpression {
        var result: [FilterExpression] = []
        var firstKind: FilterKind?
        for item in items {
            switch item.node {
            case .and(_, let firstAnd):
                throw fail("AND inside an OR group is not allowed at col \(firstAnd); Algolia only accepts ANDs of OR groups, such as (A OR B) AND (C OR D)", at: firstAnd - 1)
            case .or(let nested):
                // unreachable: ORs are flattened
                result.append(try validateOr(nested))
            case .leaf(let expression, let kind):
                if let firstKind, firstKind != kind {
                    throw fail("OR between different filter types (\(firstKind.rawValue) and \(kind.rawValue)) is not allowed at col \(item.operatorColumn); Algolia only allows ORs between filters of the same type", at: item.operatorColumn - 1)
                }
                firstKind = firstKind ?? kind
                result.append(expression)
            }
        }
        return .or(result)
    }

    // MARK: Scanning

    var isAtEnd: Bool { index >= chars.count }
    var current: Character? { index < chars.count ? chars[index] : nil }
    func column(_ i: Int) -> Int { i + 1 }

    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = index
        while let c = current, c.isWhitespace { index += 1 }
        return index > start
    }

    /// The run of characters at `i` up to whitespace or a parenthesis.
    func wordText(at i: Int) -> String {
        var j = i
        while j < chars.count, !chars[j].isWhitespace, chars[j] != "(", chars[j] != ")" { j += 1 }
        return String(chars[i..<j])
    }

    /// A short description of the token at `i`, for messages.
    func tokenText(at i: Int) -> String {
        guard i < chars.count else { return "" }
        if chars[i] == "(" || chars[i] == ")" { return String(chars[i]) }
        let word = wordText(at: i)
        return Self.shorten(word.isEmpty ? String(chars[i]) : word)
    }

    func fail(_ message: String, at i: Int) -> FilterError {
        FilterError(parameter: parameter, position: column(i), message: message)
    }

    /// "unexpected end of input at col N; expected X" or "unexpected token 'T' at col N; expected X".
    func unexpected(at i: Int, expected: String) -> FilterError {
        if i >= chars.count {
            return fail("unexpected end of input at col \(column(i)); expected \(expected)", at: i)
        }
        return fail("unexpected token '\(tokenText(at: i))' at col \(column(i)); expected \(expected)", at: i)
    }
}
