/// Writes filters in Algolia's strict `filters` grammar: what Algolia itself accepts, not what
/// a lenient parser lets through.
///
/// - Attribute names and string values are double-quoted, with `\` and `"` escaped by a
///   backslash, so any value (spaces, quotes, `AND`, a leading `-`, parentheses) is one token.
/// - Numbers are written in plain decimal notation (no exponent).
/// - A conjunction is written flat, `A AND B AND (C OR D)`: Algolia rejects parentheses around
///   ANDs, ANDs inside ORs, and NOT before a group, so none of them is ever produced.
public enum FilterSyntax {
    /// `"text"` with `\` and `"` escaped.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\\" || character == "\"" { result.append("\\") }
            result.append(character)
        }
        result.append("\"")
        return result
    }

    /// A number in plain decimal notation: `10`, `9.99`, `0.00001`, `-3`.
    ///
    /// Infinite values are written as the largest finite number of their sign, so
    /// `price < .infinity` keeps its meaning; NaN, which no record value equals or orders
    /// against, is written as 0.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "0" }
        if value.isInfinite { return number(value < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude) }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let text = String(value)
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else {
            return text
        }
        var mantissa = Substring(text[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        let digits = Array(mantissa.filter { $0 != "." })
        let newPoint = point + exponent
        var expanded: String
        if newPoint <= 0 {
            expanded = "0." + String(repeating: "0", count: -newPoint) + String(digits)
        } else if newPoint >= digits.count {
            expanded = String(digits) + String(repeating: "0", count: newPoint - digits.count)
        } else {
            expanded = String(digits[..<newPoint]) + "." + String(digits[newPoint...])
        }
        if expanded.contains(".") {
            while expanded.hasSuffix("0") { expanded.removeLast() }
            if expanded.hasSuffix(".") { expanded.removeLast() }
        }
        return negative ? "-" + expanded : expanded
    }

    /// One filter: `"brand":"Apple"`, `"free_shipping":true`, `"price" >= 10`,
    /// `"price":10 TO 20`, `"_tags":"new"`, each possibly preceded by `NOT `.
    public static func render(_ filter: Filter) -> String {
        let body: String
        switch filter {
        case .facet(let facet):
            let value: String
            switch facet.value {
            case .string(let text): value = quoted(text)
            case .number(let number): value = self.number(number)
            case .bool(let flag): value = flag ? "true" : "false"
            }
            body = "\(quoted(facet.attribute)):\(value)"
        case .numeric(let numeric):
            switch numeric.value {
            case .comparison(let op, let value):
                body = "\(quoted(numeric.attribute)) \(op.rawValue) \(number(value))"
            case .range(let range):
                body = "\(quoted(numeric.attribute)):\(number(range.lowerBound)) TO \(number(range.upperBound))"
            }
        case .tag(let tag):
            body = "\(quoted("_tags")):\(quoted(tag.value))"
        }
        return filter.isNegated ? "NOT " + body : body
    }

    /// ANDs `filters` expressions (each valid on its own, such as a hand-written `filters`
    /// parameter and a `FilterState`'s), keeping the result valid: an expression that is an OR
    /// at its top level is parenthesized, the others are joined as they are. Blank and nil
    /// expressions are skipped; nil when nothing is left.
    ///
    /// ```swift
    /// FilterSyntax.and(["brand:Apple OR brand:Sony", "price < 100"])
    /// // "(brand:Apple OR brand:Sony) AND price < 100"
    /// ```
    public static func and(_ expressions: [String?]) -> String? {
        let parts = expressions.compactMap { $0?.trimmingSpaces }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        if parts.count == 1 { return parts[0] }
        return parts.map { hasTopLevelOr($0) ? "(\($0))" : $0 }.joined(separator: " AND ")
    }

    /// True when `expression` has an `OR` outside parentheses and quotes.
    static func hasTopLevelOr(_ expression: String) -> Bool {
        let characters = Array(expression)
        var depth = 0
        var quote: Character?
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == "\\" { index += 2; continue }
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if depth == 0, character == "O", index + 1 < characters.count, characters[index + 1] == "R" {
                let before = index == 0 ? " " : characters[index - 1]
                let after = index + 2 < characters.count ? characters[index + 2] : " "
                if (before.isWhitespace || before == ")") && (after.isWhitespace || after == "(") { return true }
            }
            index += 1
        }
        return false
    }
}
