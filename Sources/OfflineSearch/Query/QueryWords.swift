import SearchAPI

/// One word of the query, with how it may match.
struct QueryWord: Sendable, Hashable {
    /// Folded, as the tokenizer indexes words.
    var folded: String
    /// As the user typed it (for `matchedWords`).
    var original: String
    /// Matches any indexed word that starts with it (`queryType`), not only the word itself.
    var isPrefix: Bool
}

enum QueryWords {
    /// The query's words under `queryType`. With `prefixLast`, the last word is a prefix only
    /// while the user is still typing it: a query that ends with a space or punctuation has
    /// no prefix word.
    static func parse(_ query: String, queryType: QueryType) -> [QueryWord] {
        let tokens = Tokenizer.tokens(query)
        let utf8 = Array(query.utf8)
        return tokens.enumerated().map { index, token in
            let original = String(decoding: utf8[token.start..<token.end], as: UTF8.self)
            let isPrefix: Bool
            switch queryType {
            case .prefixAll: isPrefix = true
            case .prefixNone: isPrefix = false
            case .prefixLast: isPrefix = index == tokens.count - 1 && token.end == utf8.count
            }
            return QueryWord(folded: token.folded, original: original, isPrefix: isPrefix)
        }
    }
}
