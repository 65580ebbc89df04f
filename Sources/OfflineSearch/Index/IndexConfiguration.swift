import SearchAPI

/// One entry of `searchableAttributes`: an attribute path at a priority level.
struct SearchableAttribute: Sendable, Hashable {
    /// Dotted path into the record (`name`, `hierarchicalCategories.lvl0`).
    let path: String
    /// `path` split, for reading it from each record.
    let lookup: JSONPath
    /// Priority: 0 is the most important. `"a,b"` puts two attributes at one level.
    var level: Int
    /// Its place in `IndexConfiguration.searchable` (0 for every attribute when none is set).
    var ordinal = 0
    /// Listed in `camelCaseAttributes`: its camel-case words are split (`iPhoneCase`).
    var splitsCamelCase = false
    /// Listed in `decompoundedAttributes`: its compound words are also indexed as their parts,
    /// in these languages' lists.
    var compounds: CompoundSplitter?
    /// Whether the position of the match inside the attribute counts for the `attribute`
    /// criterion: not for `unordered(x)`, nor for attributes sharing a level (`"a,b"`), as in Algolia.
    var ordered: Bool

    init(path: String, level: Int, ordered: Bool) {
        self.path = path
        lookup = JSONPath(path)
        self.level = level
        self.ordered = ordered
    }
}

/// One entry of `attributesForFaceting`.
struct FacetAttribute: Sendable, Hashable {
    let path: String
    /// `path` split, for reading it from each record.
    let lookup: JSONPath
    /// `searchable(x)`: its values can be searched with a facet-value search.
    var searchable: Bool
    /// `filterOnly(x)`: usable in filters, never counted.
    var filterOnly: Bool
    /// `afterDistinct(x)`: with `distinct`, counted on the hits distinct keeps.
    var afterDistinct = false

    init(path: String, searchable: Bool, filterOnly: Bool, afterDistinct: Bool = false) {
        self.path = path
        lookup = JSONPath(path)
        self.searchable = searchable
        self.filterOnly = filterOnly
        self.afterDistinct = afterDistinct
    }
}

/// One entry of `customRanking`: `asc(attr)` or `desc(attr)`.
struct CustomRankingCriterion: Sendable, Hashable {
    let path: String
    /// `path` split, for reading it from each record.
    let lookup: JSONPath
    var ascending: Bool

    init(path: String, ascending: Bool) {
        self.path = path
        lookup = JSONPath(path)
        self.ascending = ascending
    }
}

/// The settings the engine reads, parsed and validated once, with Algolia's defaults applied.
struct IndexConfiguration: Sendable {
    let settings: IndexSettings
    /// nil: no `searchableAttributes`, every attribute is searchable at one level.
    let searchable: [SearchableAttribute]?
    let levelCount: Int
    /// For each level, whether its attribute is ordered: there, an earlier match inside the
    /// attribute ranks first (the `attribute` criterion). Levels from 14 on share one posting bit
    /// (`PostingMask`), so they are ordered when any of them is. All false without
    /// `searchableAttributes`, where Algolia turns the criterion off.
    let orderedLevels: [Bool]
    /// `orderedLevels` as posting level bits.
    let orderedLevelMask: UInt16
    let facetAttributes: [FacetAttribute]
    let customRanking: [CustomRankingCriterion]
    /// Leading `asc(attr)` / `desc(attr)` entries of `ranking` (a sort replica): they order the
    /// results before any relevance criterion.
    let sortCriteria: [CustomRankingCriterion]
    /// `asc`/`desc` entries of `ranking` after a relevance criterion: applied after `customRanking`.
    let laterSortCriteria: [CustomRankingCriterion]
    /// The documents' order: sort criteria, `customRanking`, then the later sort criteria.
    var documentOrder: [CustomRankingCriterion] { sortCriteria + customRanking + laterSortCriteria }
    /// `attributeForDistinct`.
    let attributeForDistinct: String?
    /// `numericAttributesForFiltering`: which attributes numeric filters may use; nil when every
    /// numeric attribute may (the setting unset or empty).
    let numericFiltering: NumericFiltering?
    /// The relevance criteria of `ranking` the engine applies, in order: those before `custom`
    /// (after it, the custom order decides).
    let relevanceOrder: [RankingCriterion]
    /// The `synonyms` setting, ready to apply.
    let synonyms: SynonymTable
    /// The plural rules of the languages `ignorePlurals` names (nil when off), from the settings
    /// (a request may override).
    let plurals: PluralRuleSet?
    /// The languages whose stop words `removeStopWords` drops (none when off).
    let stopWordLanguages: [String]
    /// `decompoundQuery` (on by default) with `queryLanguages` naming a language that
    /// decompounds: how the query's compound words are split (nil: they are not).
    let queryCompounds: CompoundSplitter?
    /// The names in `replicas` written `virtual(name)`: relevant sorts.
    let virtualReplicas: Set<String>
    /// The names in `replicas` (`virtual(name)` unwrapped).
    let replicas: [String]
    let unretrievable: Set<String>
    /// `separatorsToIndex`: what the tokenizer keeps as words, for the records, the FTS5 text,
    /// the query, synonyms and highlighting alike. Index-only: a search cannot override it.
    let separators: TokenizerRules

    init(settings: IndexSettings) throws(SearchError) {
        // Checked whether or not `searchableAttributes` is set (it applies to its attributes).
        let decompounded = try IndexConfiguration.decompoundedAttributes(settings.values["decompoundedAttributes"])
        self.settings = settings
        if let entries = settings.searchableAttributes, !entries.isEmpty {
            var attributes: [SearchableAttribute] = []
            for (level, entry) in entries.enumerated() {
                let parts = entry.split(separator: ",")
                for part in parts {
                    let text = part.trimmingSpaces
                    if let inner = IndexConfiguration.unwrap(text, modifier: "unordered") {
                        attributes.append(SearchableAttribute(path: inner, level: level, ordered: false))
                    } else if let inner = IndexConfiguration.unwrap(text, modifier: "ordered") {
                        attributes.append(SearchableAttribute(path: inner, level: level, ordered: parts.count == 1))
                    } else if IndexConfiguration.isPlainName(text) {
                        attributes.append(SearchableAttribute(path: text, level: level, ordered: parts.count == 1))
                    } else {
                        throw SearchError(.invalidParameter,
                                          "searchableAttributes: invalid entry \"\(entry)\"; expected an attribute name, \"a,b\", or unordered(attribute)")
                    }
                }
            }
            guard entries.count <= 250 else {
                throw SearchError(.invalidParameter, "searchableAttributes: at most 250 levels are supported, got \(entries.count)")
            }
            let camelCase = Set(settings.stringList("camelCaseAttributes") ?? [])
            for ordinal in attributes.indices {
                attributes[ordinal].ordinal = ordinal
                attributes[ordinal].splitsCamelCase = camelCase.contains(attributes[ordinal].path)
                if let languages = decompounded[attributes[ordinal].path] {
                    attributes[ordinal].compounds = CompoundSplitter(languages: languages)
                }
            }
            searchable = attributes
            levelCount = entries.count
            let ordered = attributes.filter(\.ordered).map(\.level)
            let flags = (0..<entries.count).map { level in level < 14 ? ordered.contains(level) : ordered.contains { $0 >= 14 } }
            orderedLevels = flags
            orderedLevelMask = PostingMask.mask(forLevels: flags.indices.filter { flags[$0] })
        } else {
            searchable = nil
            levelCount = 1
            orderedLevels = [false]
            orderedLevelMask = 0
        }

        var facets: [FacetAttribute] = []
        for entry in settings.attributesForFaceting ?? [] {
            let text = entry.trimmingSpaces
            let facet: FacetAttribute
            if let inner = IndexConfiguration.unwrap(text, modifier: "searchable") {
                facet = FacetAttribute(path: inner, searchable: true, filterOnly: false)
            } else if let inner = IndexConfiguration.unwrap(text, modifier: "filterOnly") {
                facet = FacetAttribute(path: inner, searchable: false, filterOnly: true)
            } else if let inner = IndexConfiguration.unwrap(text, modifier: "afterDistinct") {
                // Algolia's combined forms: `afterDistinct(searchable(x))`, `afterDistinct(filterOnly(x))`.
                if let path = IndexConfiguration.unwrap(inner, modifier: "searchable") {
                    facet = FacetAttribute(path: path, searchable: true, filterOnly: false, afterDistinct: true)
                } else if let path = IndexConfiguration.unwrap(inner, modifier: "filterOnly") {
                    facet = FacetAttribute(path: path, searchable: false, filterOnly: true, afterDistinct: true)
                } else {
                    facet = FacetAttribute(path: inner, searchable: false, filterOnly: false, afterDistinct: true)
                }
            } else if IndexConfiguration.isPlainName(text) {
                facet = FacetAttribute(path: text, searchable: false, filterOnly: false)
            } else {
                throw SearchError(.invalidParameter,
                                  "attributesForFaceting: invalid entry \"\(entry)\"; expected an attribute name, searchable(attribute), filterOnly(attribute) or afterDistinct(attribute)")
            }
            if let existing = facets.firstIndex(where: { $0.path == facet.path }) {
                facets[existing] = facet
            } else {
                facets.append(facet)
            }
        }
        // `_tags` is always filterable (tag filters), counted only when declared; the
        // attribute for distinct gets a column too (its value per record groups the hits).
        let distinctPath = settings.string("attributeForDistinct").flatMap { $0.isEmpty ? nil : $0 }
        for implicit in ["_tags", distinctPath].compactMap({ $0 }) where !facets.contains(where: { $0.path == implicit }) {
            facets.append(FacetAttribute(path: implicit, searchable: false, filterOnly: true))
        }
        attributeForDistinct = distinctPath
        facetAttributes = facets
        numericFiltering = try NumericFiltering(settings.stringList("numericAttributesForFiltering") ?? [])

        var ranking: [CustomRankingCriterion] = []
        for entry in settings.customRanking ?? [] {
            let text = entry.trimmingSpaces
            if let inner = IndexConfiguration.unwrap(text, modifier: "asc") {
                ranking.append(CustomRankingCriterion(path: inner, ascending: true))
            } else if let inner = IndexConfiguration.unwrap(text, modifier: "desc") {
                ranking.append(CustomRankingCriterion(path: inner, ascending: false))
            } else {
                throw SearchError(.invalidParameter, "customRanking: invalid entry \"\(entry)\"; expected asc(attribute) or desc(attribute)")
            }
        }
        customRanking = ranking

        var leading: [CustomRankingCriterion] = []
        var later: [CustomRankingCriterion] = []
        var sawRelevance = false
        var order: [RankingCriterion] = []
        var sawCustom = false
        for entry in settings.ranking ?? [] {
            let text = entry.trimmingSpaces
            if let inner = IndexConfiguration.unwrap(text, modifier: "asc") ?? IndexConfiguration.unwrap(text, modifier: "desc") {
                let criterion = CustomRankingCriterion(path: inner, ascending: text.hasPrefix("asc("))
                if sawRelevance { later.append(criterion) } else { leading.append(criterion) }
            } else if IndexConfiguration.rankingCriteria.contains(text) {
                sawRelevance = true
                if text == "custom" { sawCustom = true }
                if !sawCustom, let criterion = RankingCriterion(rawValue: text) { order.append(criterion) }
            } else {
                throw SearchError(.invalidParameter, "ranking: invalid entry \"\(entry)\"; expected one of "
                    + IndexConfiguration.rankingCriteria.sorted().joined(separator: ", ") + ", asc(attribute) or desc(attribute)")
            }
        }
        sortCriteria = leading
        laterSortCriteria = later
        relevanceOrder = settings.ranking == nil ? RankingCriterion.defaultOrder : order

        var replicaNames: [String] = []
        var virtualNames: Set<String> = []
        for entry in settings.stringList("replicas") ?? [] {
            let name = IndexConfiguration.unwrap(entry.trimmingSpaces, modifier: "virtual") ?? entry.trimmingSpaces
            guard !name.isEmpty, !replicaNames.contains(name) else {
                throw SearchError(.invalidParameter, "replicas: invalid or repeated entry \"\(entry)\"; expected index names or virtual(name)")
            }
            try IndexName.validate(name, role: "replicas: replica name")
            replicaNames.append(name)
            if IndexConfiguration.unwrap(entry.trimmingSpaces, modifier: "virtual") != nil { virtualNames.insert(name) }
        }
        replicas = replicaNames
        virtualReplicas = virtualNames
        unretrievable = Set(settings.unretrievableAttributes ?? [])
        // Derived once per settings (a bad value fails when set, not at the next search).
        separators = try TokenizerRules(setting: settings.string("separatorsToIndex") ?? "",
                                        keepDiacriticsOn: settings.string("keepDiacriticsOnCharacters"),
                                        customNormalization: settings.values["customNormalization"])
        synonyms = try SynonymTable(settings.values["synonyms"], separators: separators)
        let queryLanguages = try SearchRequest.effectiveQueryLanguages(settings.stringList("queryLanguages"),
                                                                       ignorePlurals: settings.values["ignorePlurals"],
                                                                       removeStopWords: settings.values["removeStopWords"])
        plurals = PluralRuleSet.forLanguages(try SearchRequest.languages(settings.values["ignorePlurals"], name: "ignorePlurals",
                                                                         queryLanguages: queryLanguages, known: Plurals.languages))
        queryCompounds = try SearchRequest.queryCompounds(decompoundQuery: settings.values["decompoundQuery"], queryLanguages: queryLanguages)
        stopWordLanguages = try SearchRequest.languages(settings.values["removeStopWords"], name: "removeStopWords",
                                                        queryLanguages: queryLanguages, known: StopWords.languages)
        _ = try settings.values["alternativesAsExact"].map { value throws(SearchError) in try ExactAlternatives(value) }
        _ = try TypoPolicy(SearchParameters(), settings: settings, separators: separators)
    }

    /// `decompoundedAttributes` (`{"de": ["name"]}`): each attribute's languages.
    /// - Throws: `invalidParameter` for another shape, or a language Algolia does not decompound.
    static func decompoundedAttributes(_ value: JSONValue?) throws(SearchError) -> [String: [String]] {
        guard let value else { return [:] }
        let expected = "an object of language codes (\(CompoundSplitter.languages.joined(separator: ", "))) to attribute lists, such as {\"de\": [\"name\"]}"
        guard case .object(let languages) = value else {
            throw .invalidParameter("decompoundedAttributes", expected: expected, got: value.jsonString)
        }
        var attributes: [String: [String]] = [:]
        for (language, list) in languages.sorted(by: { $0.key < $1.key }) {
            guard CompoundSplitter.languages.contains(language) else {
                throw .invalidParameter("decompoundedAttributes", expected: expected, got: "the language \"\(language)\"")
            }
            guard case .array(let entries) = list, entries.allSatisfy({ $0.stringValue != nil }) else {
                throw .invalidParameter("decompoundedAttributes.\(language)", expected: "a list of attribute names", got: list.jsonString)
            }
            for attribute in entries.compactMap(\.stringValue) {
                attributes[attribute, default: []].append(language)
            }
        }
        return attributes
    }

    /// Whether a list's entry is a plain attribute name: not empty, and no modifier's `(`.
    /// The byte search first, since almost no name has one (reading the text as characters
    /// cost 5,500 instructions an entry); then as characters, as ever: a `(` that a combining
    /// mark joins to it (`a(\u{301}`) is one character with the mark, and part of a name.
    static func isPlainName(_ text: String) -> Bool {
        !text.isEmpty && !(text.utf8.contains(UInt8(ascii: "(")) && text.contains("("))
    }

    /// `modifier(inner)` → `inner`; anything else → nil.
    static func unwrap(_ text: String, modifier: String) -> String? {
        guard text.hasPrefix(modifier + "("), text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst(modifier.count + 1).dropLast().trimmingSpaces
        return inner.isEmpty ? nil : inner
    }

    func facet(_ path: String) -> FacetAttribute? { facetAttributes.first { $0.path == path } }

    /// The relevance criteria Algolia's `ranking` setting names.
    static let rankingCriteria: Set<String> = ["typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"]

    /// Settings that change what is derived at build time; a change to any of them rebuilds the index.
    static func derivedFingerprint(_ settings: IndexSettings) -> String {
        let keys = ["searchableAttributes", "attributesForFaceting", "customRanking", "ranking", "attributeForDistinct",
                    "separatorsToIndex"]
        let fingerprint = keys.map { settings.values[$0]?.jsonString ?? "null" }.joined(separator: "|")
        // Placeholder synonyms change the indexed terms (only indices that have some add them).
        let placeholders = (settings.values["synonyms"]?.arrayValue ?? []).filter { $0["type"]?.stringValue?.lowercased() == "placeholder" }
        return placeholders.isEmpty ? fingerprint : fingerprint + "|" + JSONValue.array(placeholders).jsonString
    }
}

/// `numericAttributesForFiltering` (formerly `numericAttributesToIndex`): the attributes numeric
/// filters may use, each by name or as `equalOnly(attribute)` (only `=` and `!=`). As in Algolia,
/// a numeric filter on another attribute (or a range on an `equalOnly` one) finds no number to
/// compare, so it matches nothing, and its negation (`NOT price > 5`) every record.
struct NumericFiltering: Sendable, Hashable {
    /// Attributes every comparison may use.
    var ranged: Set<String> = []
    /// Attributes only `=` and `!=` may use.
    var equalOnly: Set<String> = []

    /// Nil for an empty list (every numeric attribute may be filtered, as when unset).
    init?(_ entries: [String]) throws(SearchError) {
        guard !entries.isEmpty else { return nil }
        for entry in entries {
            let text = entry.trimmingSpaces
            if let inner = IndexConfiguration.unwrap(text, modifier: "equalOnly") {
                equalOnly.insert(inner)
            } else if IndexConfiguration.isPlainName(text) {
                ranged.insert(text)
            } else {
                throw SearchError(.invalidParameter,
                                  "numericAttributesForFiltering: invalid entry \"\(entry)\"; expected an attribute name or equalOnly(attribute)")
            }
        }
        equalOnly.subtract(ranged)
    }

    /// Whether a numeric filter on `attribute` with `comparison` (nil: a range `lo TO hi`) can match.
    func allows(_ attribute: String, _ comparison: NumericComparison?) -> Bool {
        if ranged.contains(attribute) { return true }
        return equalOnly.contains(attribute) && (comparison == .equal || comparison == .notEqual)
    }
}
