/// Every index setting Algolia knows, with the JSON type each takes: the one place that checks
/// a settings change, for the Swift API, the CLI and the server alike. A setting this engine
/// does not apply yet is still known here, so it is accepted, stored and returned.
///
/// Checks are strict, as Algolia's settings endpoint is: `{"hitsPerPage": "5"}` is a string,
/// not an integer. (Search parameters are read leniently instead, since `params` strings carry
/// every value as text.) An unknown name is rejected with the nearest known one.
public enum SettingsSchema {
    /// What a setting's value must be.
    public enum ValueType: Sendable, Hashable {
        /// An array of strings (`searchableAttributes`).
        case stringList
        /// A string (`highlightPreTag`).
        case string
        /// `true` or `false` (`advancedSyntax`).
        case bool
        /// A JSON object (`customNormalization`).
        case object
        /// Any JSON value (`userData`).
        case anyValue
        /// An integer in the range (`hitsPerPage`, 1 to 1000).
        case integer(ClosedRange<Int>)
        /// One of these strings.
        case oneOf([String])
        /// An array of these strings.
        case listOf([String])
        /// `true`, `false` or an integer in the range (`distinct`).
        case boolOrInteger(ClosedRange<Int>)
        /// `true`, `false` or one of these strings (`typoTolerance`).
        case boolOrOneOf([String])
        /// `true`, `false`, or an array of language codes (`ignorePlurals`, `removeStopWords`).
        case boolOrLanguages
        /// A string or an array of strings (`optionalWords`).
        case stringOrStringList
        /// An array of any JSON values (the engine's `synonyms`, checked where they are read).
        case array
    }

    /// Algolia's index settings (`baseIndexSettings` and `indexSettingsAsSearchParams` of its
    /// OpenAPI spec), plus `primary` (set on a replica) and `synonyms` (where this engine keeps
    /// the index's synonyms), and the legacy `version`.
    public static let settings: [String: ValueType] = [
        // Attributes
        "searchableAttributes": .stringList, "attributesForFaceting": .stringList,
        "unretrievableAttributes": .stringList, "attributesToRetrieve": .stringList,
        "numericAttributesForFiltering": .stringList, "attributeForDistinct": .string,
        // Ranking
        "ranking": .stringList, "customRanking": .stringList, "replicas": .stringList, "primary": .string,
        "relevancyStrictness": .integer(0...100),
        // Faceting and pagination
        "maxValuesPerFacet": .integer(0...1000), "sortFacetValuesBy": .oneOf(["count", "alpha"]),
        "maxFacetHits": .integer(1...100), "hitsPerPage": .integer(1...1000), "paginationLimitedTo": .integer(0...20000),
        // Highlighting and snippeting
        "attributesToHighlight": .stringList, "attributesToSnippet": .stringList,
        "highlightPreTag": .string, "highlightPostTag": .string, "snippetEllipsisText": .string,
        "restrictHighlightAndSnippetArrays": .bool, "replaceSynonymsInHighlight": .bool,
        // Typos
        "typoTolerance": .boolOrOneOf(["min", "strict", "true", "false"]),
        "minWordSizefor1Typo": .integer(0...1000), "minWordSizefor2Typos": .integer(0...1000),
        "allowTyposOnNumericTokens": .bool, "disableTypoToleranceOnAttributes": .stringList,
        "disableTypoToleranceOnWords": .stringList, "separatorsToIndex": .string,
        // Languages
        "ignorePlurals": .boolOrLanguages, "removeStopWords": .boolOrLanguages, "queryLanguages": .stringList,
        "indexLanguages": .stringList, "camelCaseAttributes": .stringList, "decompoundedAttributes": .object,
        "decompoundQuery": .bool, "keepDiacriticsOnCharacters": .string, "customNormalization": .object,
        "attributesToTransliterate": .stringList,
        // Query strategy
        "queryType": .oneOf(["prefixLast", "prefixAll", "prefixNone"]),
        "removeWordsIfNoResults": .oneOf(["none", "lastWords", "firstWords", "allOptional"]),
        "advancedSyntax": .bool, "advancedSyntaxFeatures": .listOf(["exactPhrase", "excludeWords"]),
        "optionalWords": .stringOrStringList, "disableExactOnAttributes": .stringList,
        "exactOnSingleWordQuery": .oneOf(["attribute", "none", "word"]),
        "alternativesAsExact": .listOf(["ignorePlurals", "singleWordSynonym", "multiWordsSynonym"]),
        "disablePrefixOnAttributes": .stringList, "minProximity": .integer(1...7),
        "distinct": .boolOrInteger(0...4),
        "attributeCriteriaComputedByMinProximity": .bool,
        "attributeCriteriaComputedBy": .oneOf(["best", "minProximity", "sum"]),
        "mode": .oneOf(["neuralSearch", "keywordSearch"]), "semanticSearch": .object,
        // Rules, personalization, re-ranking, performance, display
        "enableRules": .bool, "enablePersonalization": .bool, "enableReRanking": .bool,
        "reRankingApplyFilter": .stringOrStringList, "allowCompressionOfIntegerArray": .bool,
        "responseFields": .stringList, "renderingContent": .object, "userData": .anyValue,
        // Kept by this engine / legacy
        "synonyms": .array, "version": .integer(0...Int(Int32.max)),
    ]

    /// Older names Algolia still reads, and the current name each stands for.
    public static let legacyNames: [String: String] = [
        "attributesToIndex": "searchableAttributes",
        "attributesForFacetting": "attributesForFaceting",
        "numericAttributesToIndex": "numericAttributesForFiltering",
        "slaves": "replicas",
    ]

    /// The current name of a setting (a legacy name's replacement, else itself).
    public static func currentName(_ name: String) -> String { legacyNames[name] ?? name }

    /// Checks one setting of a patch; `null` (a reset) is accepted for every known setting.
    /// - Parameters:
    ///   - name: the setting's current name.
    ///   - value: its new value, or `null` to reset it.
    ///   - sentName: the name as sent, for the message (a legacy name, say).
    public static func validate(_ name: String, _ value: JSONValue, as sentName: String? = nil) throws(SearchError) {
        let shown = sentName ?? name
        guard let type = settings[name] else {
            var message = "Unknown setting \(shown)"
            if let suggestion = nearestName(to: shown) { message += "; did you mean \(suggestion)?" }
            throw SearchError(.invalidParameter, message)
        }
        if value.isNull { return }
        func fail(_ expected: String) -> SearchError { .invalidParameter(shown, expected: expected, got: value.jsonString) }
        switch type {
        case .stringList:
            guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else { throw fail("an array of strings") }
        case .string:
            guard value.stringValue != nil else { throw fail("a string") }
        case .bool:
            guard value.boolValue != nil else { throw fail("true or false") }
        case .object:
            guard value.objectValue != nil else { throw fail("a JSON object") }
        case .anyValue:
            return
        case .array:
            guard value.arrayValue != nil else { throw fail("an array") }
        case .integer(let range):
            guard case .int(let number) = value, range.contains(Int(number)) else {
                throw fail("an integer from \(range.lowerBound) to \(range.upperBound)")
            }
        case .oneOf(let choices):
            guard let text = value.stringValue, choices.contains(text) else { throw fail("one of " + quoted(choices)) }
        case .listOf(let choices):
            guard case .array(let elements) = value,
                  elements.allSatisfy({ $0.stringValue.map(choices.contains) ?? false }) else {
                throw fail("an array of " + quoted(choices))
            }
        case .boolOrInteger(let range):
            if value.boolValue != nil { return }
            guard case .int(let number) = value, range.contains(Int(number)) else {
                throw fail("true, false or an integer from \(range.lowerBound) to \(range.upperBound)")
            }
        case .boolOrOneOf(let choices):
            if value.boolValue != nil { return }
            guard let text = value.stringValue, choices.contains(text) else { throw fail("true, false or one of " + quoted(choices)) }
        case .boolOrLanguages:
            if value.boolValue != nil || value == "true" || value == "false" { return }
            guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else {
                throw fail("true, false or an array of language codes such as [\"en\"]")
            }
        case .stringOrStringList:
            if value.stringValue != nil { return }
            guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else {
                throw fail("a string or an array of strings")
            }
        }
    }

    private static func quoted(_ choices: [String]) -> String {
        choices.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// The known setting nearest to a mistyped one (a different case, or a few edits away).
    static func nearestName(to name: String) -> String? {
        let lowered = name.lowercased()
        let candidates = Array(settings.keys) + Array(legacyNames.keys)
        if let sameLetters = candidates.first(where: { $0.lowercased() == lowered }) { return sameLetters }
        let limit = max(2, name.count / 4)
        let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// The rule for index names, shared by the engine, replicas and (later) the server.
public enum IndexName {
    /// Index names are 1 to 256 bytes of UTF-8 with no control character.
    /// - Parameters:
    ///   - name: the name to check.
    ///   - role: how the message names the value (`index name`, `replicas: replica name`).
    public static func validate(_ name: String, role: String) throws(SearchError) {
        guard !name.isEmpty, name.utf8.count <= 256 else {
            throw SearchError(.invalidParameter, "\(role): expected 1 to 256 bytes, got \(name.utf8.count) (\"\(name.prefix(40))\(name.count > 40 ? "…" : "")\")")
        }
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw SearchError(.invalidParameter, "\(role): expected no control characters, got \(JSONValue.string(name).jsonString)")
        }
    }
}
