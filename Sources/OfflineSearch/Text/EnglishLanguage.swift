/// The English rules behind `ignorePlurals` and `removeStopWords`: regular plurals (and a
/// few common irregular ones), and a stop-word list. Words are folded (lowercase, no accents).
enum EnglishLanguage {
    /// Other forms of `word` that count as the same word: its plural if it is singular, its
    /// singular if it is plural (both when unsure: `glass` ↔ `glasses`, `cases` → `case`/`cas`).
    static func pluralForms(of word: String) -> [String] {
        guard word.count >= 2, word.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }) else { return [] }
        if let irregular = irregular[word] { return [irregular] }
        var forms: [String] = []
        let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
        if word.hasSuffix("ies"), word.count > 4 {
            forms.append(String(word.dropLast(3)) + "y")
        }
        if word.hasSuffix("es"), word.count > 3 {
            forms.append(String(word.dropLast(2)))
        }
        if word.hasSuffix("s"), !word.hasSuffix("ss"), word.count > 2 {
            forms.append(String(word.dropLast()))
        }
        if !word.hasSuffix("s") || word.hasSuffix("ss") {
            let last = word.last!
            let beforeLast = word.dropLast().last
            if last == "y", let beforeLast, !vowels.contains(beforeLast) {
                forms.append(String(word.dropLast()) + "ies")
            } else if word.hasSuffix("s") || word.hasSuffix("x") || word.hasSuffix("z") || word.hasSuffix("ch") || word.hasSuffix("sh") {
                forms.append(word + "es")
            } else {
                forms.append(word + "s")
            }
        }
        return forms.filter { $0 != word }
    }

    private static let irregularPairs: [(String, String)] = [
        ("man", "men"), ("woman", "women"), ("child", "children"), ("person", "people"), ("mouse", "mice"),
        ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"), ("knife", "knives"), ("life", "lives"),
        ("leaf", "leaves"), ("wife", "wives"), ("half", "halves"), ("shelf", "shelves"),
    ]
    private static let irregular: [String: String] = {
        var table: [String: String] = [:]
        for (singular, plural) in irregularPairs {
            table[singular] = plural
            table[plural] = singular
        }
        return table
    }()

    /// Common English stop words (folded).
    static let stopWords: Set<String> = [
        "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at",
        "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
        "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has",
        "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in",
        "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not",
        "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own",
        "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them",
        "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until",
        "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
        "with", "would", "you", "your", "yours", "yourself", "yourselves",
    ]
}
