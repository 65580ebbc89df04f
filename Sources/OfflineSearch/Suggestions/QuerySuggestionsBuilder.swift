import Foundation
import SearchAPI

/// Builds a Query Suggestions index as Algolia's Query Suggestions service does, from the
/// local search analytics, `external` indices of popular queries and facet values.
///
/// 1. **Candidates**: the source's counted searches (with its replicas' when `replicas`, only
///    those with one of `analyticsTags` when given), popularity = how many times each was
///    searched; the `{query, count}` records of the `external` indices; and, from each
///    `generate` combination, the facet values each record has, joined ("apple",
///    "apple cell phones"), with popularity 0 unless searched too.
/// 2. **Cleaning**: lowercased, spaces collapsed; characters other than letters, digits and
///    spaces removed unless `allowSpecialCharacters`; left out when shorter than `minLetters`
///    letters or matching an `exclude` expression.
/// 3. **Checking**: each is searched in every source as written (typo tolerance off, no words
///    removed, no rules); it is kept where it finds at least `minHits` records, with that count
///    (`exact_nb_hits`) and the top `amount` values of each facet among its hits
///    (`exact_matches`, `{value, count}`) and the values users filtered on with that query
///    (`analytics`, `{attribute, operator, value, count}`). Of a singular and a plural form
///    (per `languages`) that both pass, the more popular is kept.
/// 4. **Writing**: into a new index beside the old one, which then replaces it in one
///    transaction: the old suggestions stay searchable until then.
public struct QuerySuggestionsBuilder: Sendable {
    /// What a build did.
    public struct Report: Sendable, Hashable {
        /// Candidates considered (after merging duplicates).
        public var candidates: Int
        /// Suggestions written.
        public var suggestions: Int
        /// Candidates left out, by reason: `minLetters`, `exclude`, `plural`, `minHits`.
        public var leftOut: [String: Int]
    }

    public let engine: SearchEngine
    public let configuration: QuerySuggestionsConfiguration

    /// A builder writing `configuration.indexName` in `engine`'s folder.
    public init(engine: SearchEngine, configuration: QuerySuggestionsConfiguration) {
        self.engine = engine
        self.configuration = configuration
    }

    private struct Candidate {
        var query: String
        var popularity: Int
    }

    /// Builds the suggestions and replaces the suggestions index with them.
    @discardableResult
    public func build() throws(SearchError) -> Report {
        let (records, report) = try suggestions()
        let temporary = configuration.indexName + ".building"
        try engine.deleteIndex(temporary)
        do {
            let index = try engine.index(temporary)
            var settings: JSONObject = ["searchableAttributes": ["query"], "customRanking": ["desc(popularity)"]]
            if engine.exists(configuration.indexName) {
                let current = try engine.existingIndex(configuration.indexName).settings.values
                if !current.isEmpty { settings = current }
            }
            settings["replicas"] = nil
            settings["primary"] = nil
            try index.setSettings(settings)
            try index.saveObjects(records.map(JSONValue.object), replaceExisting: true)
            try engine.moveIndex(temporary, to: configuration.indexName)
        } catch {
            try? engine.deleteIndex(temporary)
            throw error
        }
        return report
    }

    /// The suggestion records the build writes, most popular first (ties by query).
    public func suggestions() throws(SearchError) -> ([JSONObject], Report) {
        var leftOut: [String: Int] = [:]
        let exclude = try configuration.exclude.enumerated().map { (i, pattern) throws(SearchError) -> NSRegularExpression in
            do {
                return try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            } catch {
                throw SearchError(.invalidParameter, "configuration.exclude[\(i)]: \"\(pattern)\" is not a valid regular expression")
            }
        }
        let sources = try configuration.sourceIndices.map { (source) throws(SearchError) -> (QuerySuggestionsConfiguration.SourceIndex, SearchIndex) in
            (source, try engine.existingIndex(source.indexName))
        }

        // 1. Candidates, merged by their cleaned text.
        var popularity: [String: Int] = [:]
        var searchesByQuery: [String: [CountedSearch]] = [:]
        func add(_ text: String, _ count: Int) {
            let query = clean(text)
            guard !query.isEmpty else { return }
            popularity[query, default: 0] += count
        }
        for (source, index) in sources {
            var names = [source.indexName]
            if source.replicas {
                names += (index.settings.values["replicas"]?.arrayValue ?? []).compactMap(\.stringValue).map { name in
                    name.hasPrefix("virtual(") && name.hasSuffix(")") ? String(name.dropFirst(8).dropLast()) : name
                }
            }
            if let analytics = engine.analytics {
                for name in names {
                    for search in try analytics.allSearches(of: name)
                    where source.analyticsTags.isEmpty || search.tags.contains(where: source.analyticsTags.contains) {
                        add(search.query, search.weight)
                        searchesByQuery[clean(search.query), default: []].append(search)
                    }
                }
            }
            for name in source.external {
                for record in try engine.existingIndex(name).store.allRecords().map(\.record) {
                    guard let query = record["query"]?.stringValue else { continue }
                    add(query, max(0, record["count"]?.intValue ?? record["popularity"]?.intValue ?? 1))
                }
            }
            if !source.generate.isEmpty {
                let records = try index.store.allRecords().map(\.record)
                for combination in source.generate {
                    for record in records {
                        var phrases = [""]
                        for attribute in combination {
                            let values = QuerySuggestionsBuilder.facetValues(of: record, at: attribute)
                            phrases = phrases.flatMap { prefix in values.map { prefix.isEmpty ? $0 : prefix + " " + $0 } }
                        }
                        for phrase in Set(phrases) where !phrase.isEmpty { add(phrase, 0) }
                    }
                }
            }
        }
        let candidateCount = popularity.count

        // 2. Cleaning: letters and exclusions.
        let ordered = popularity.map { Candidate(query: $0.key, popularity: $0.value) }
            .sorted { ($0.popularity, $1.query.count, $1.query) > ($1.popularity, $0.query.count, $0.query) }
        let minimumLetters = configuration.sourceIndices.map(\.minLetters).min() ?? 0
        var cleaned: [Candidate] = []
        for candidate in ordered {
            if QuerySuggestionsBuilder.letterCount(candidate.query) < minimumLetters {
                leftOut["minLetters", default: 0] += 1
                continue
            }
            let range = NSRange(candidate.query.startIndex..., in: candidate.query)
            if exclude.contains(where: { $0.firstMatch(in: candidate.query, range: range) != nil }) {
                leftOut["exclude", default: 0] += 1
                continue
            }
            cleaned.append(candidate)
        }

        // 3. Checking each against its sources, then, among those kept, one form of each
        //    singular and plural (the more popular, first in `cleaned`'s order).
        let plurals = PluralRuleSet.forLanguages(configuration.languages)
        var keptQueries: Set<String> = []
        var records: [JSONObject] = []
        for candidate in cleaned {
            var record: JSONObject = ["objectID": .string(candidate.query), "query": .string(candidate.query),
                                      "nb_words": .int(Int64(candidate.query.split(separator: " ").count)),
                                      "popularity": .int(Int64(candidate.popularity))]
            var found = false
            for (source, index) in sources {
                if QuerySuggestionsBuilder.letterCount(candidate.query) < source.minLetters { continue }
                var parameters = SearchParameters(query: candidate.query)
                parameters.hitsPerPage = 0
                parameters.facets = source.facets.map(\.attribute)
                parameters.maxValuesPerFacet = source.facets.map(\.amount).max()
                // The records that match the suggestion as written: no typos, no words dropped,
                // no rules.
                parameters.other["typoTolerance"] = .bool(false)
                parameters.other["removeWordsIfNoResults"] = "none"
                parameters.other["optionalWords"] = .array([])
                parameters.other["enableRules"] = .bool(false)
                parameters.other["analytics"] = .bool(false)
                let response = try index.search(parameters)
                guard response.nbHits >= max(source.minHits, 1) else { continue }
                found = true
                var exactMatches: JSONObject = [:]
                var analytics: JSONObject = [:]
                for facet in source.facets {
                    let values = response.facets?.first { $0.attribute == facet.attribute }?.values ?? []
                    exactMatches.appendUnique(facet.attribute, .array(values.prefix(facet.amount).map { ["value": .string($0.value), "count": .int(Int64($0.count))] }))
                    let refined = QuerySuggestionsBuilder.refinements(of: facet.attribute, in: searchesByQuery[candidate.query] ?? [])
                    analytics.appendUnique(facet.attribute, .array(refined.prefix(facet.amount).map {
                        ["attribute": .string(facet.attribute), "operator": ":", "value": .string($0.value), "count": .int(Int64($0.count))]
                    }))
                }
                record.appendUnique(source.indexName, ["exact_nb_hits": .int(Int64(response.nbHits)),
                                                       "facets": ["exact_matches": .object(exactMatches), "analytics": .object(analytics)]])
            }
            guard found else {
                leftOut["minHits", default: 0] += 1
                continue
            }
            if let plurals, QuerySuggestionsBuilder.hasOtherForm(candidate.query, in: keptQueries, plurals: plurals) {
                leftOut["plural", default: 0] += 1
                continue
            }
            keptQueries.insert(candidate.query)
            records.append(record)
        }
        return (records, Report(candidates: candidateCount, suggestions: records.count, leftOut: leftOut))
    }

    /// The text of a candidate as a suggestion: lowercased, spaces collapsed, and unless
    /// `allowSpecialCharacters` only letters, digits and spaces.
    func clean(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if configuration.allowSpecialCharacters || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar.properties.isWhitespace {
                scalars.append(scalar)
            } else {
                scalars.append(" ")
            }
        }
        return String(scalars).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The letters (and digits) of a query: its characters but spaces.
    static func letterCount(_ query: String) -> Int {
        query.unicodeScalars.filter { !$0.properties.isWhitespace }.count
    }

    /// Whether a query with one word in another singular or plural form is already kept.
    static func hasOtherForm(_ query: String, in kept: Set<String>, plurals: PluralRuleSet) -> Bool {
        let words = query.split(separator: " ").map(String.init)
        for (i, word) in words.enumerated() {
            for form in plurals.forms(of: word) {
                var variant = words
                variant[i] = form
                if kept.contains(variant.joined(separator: " ")) { return true }
            }
        }
        return false
    }

    /// A record's values at a facet attribute (a dotted path; strings, numbers, or arrays of them).
    static func facetValues(of record: JSONObject, at attribute: String) -> [String] {
        var current: [JSONValue] = [.object(record)]
        for part in attribute.split(separator: ".") {
            current = current.flatMap { value -> [JSONValue] in
                guard let child = value[String(part)] else { return [] }
                return child.arrayValue ?? [child]
            }
        }
        return current.flatMap { $0.arrayValue ?? [$0] }.compactMap(\.scalarText).map { $0.lowercased() }
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.filter { !$0.isEmpty }
    }

    /// The values of `attribute` users filtered on in these searches, most used first.
    static func refinements(of attribute: String, in searches: [CountedSearch]) -> [(value: String, count: Int)] {
        var counts: [String: Int] = [:]
        for search in searches {
            guard let filters = search.filters else { continue }
            for filter in Set(SearchAnalytics.filters(in: filters).filter { $0.attribute == attribute && $0.operator == ":" }.compactMap(\.value)) {
                counts[filter, default: 0] += search.weight
            }
        }
        return counts.map { ($0.key, $0.value) }.sorted { ($0.1, $1.0) > ($1.1, $0.0) }
    }
}
