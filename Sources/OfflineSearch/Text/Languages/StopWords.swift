/// The stop words `removeStopWords` drops from a query, by language (ISO 639-1 code): English's
/// own list (`EnglishLanguage.stopWords`), the Snowball lists of Danish, Dutch, Finnish,
/// French, German, Hungarian, Italian, Norwegian, Portuguese, Russian, Spanish, Swedish and
/// Turkish, and stopwords-iso's Polish list (`StopWords+Lists.swift`, made by `make_stop_words.py`). Words are folded as the
/// query's are (lowercase, no diacritics), when a language is first used.
enum StopWords {
    /// The languages with a stop-word list.
    static var languages: [String] { ["en"] + lists.keys.sorted() }

    /// The folded stop words of these languages (those without a list add none), made once per
    /// combination of languages.
    static func words(of languages: [String]) -> Set<String> {
        let key = languages.sorted().joined(separator: ",")
        if let known = made.value[key] { return known }
        var words: Set<String> = []
        for language in Set(languages) {
            if language == "en" {
                words.formUnion(EnglishLanguage.stopWords)
            } else if let list = lists[language] {
                for word in list.split(separator: " ") { words.formUnion(Tokenizer.words(String(word), separators: .none)) }
            }
        }
        made.modify { $0[key] = words }
        return words
    }

    private static let made = LockedValue<[String: Set<String>]>([:])
}
