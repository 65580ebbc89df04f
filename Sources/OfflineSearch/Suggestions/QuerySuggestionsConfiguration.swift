import SearchAPI

/// A Query Suggestions index's configuration, in the shape of Algolia's Query Suggestions API
/// (`POST /1/configs`): which index to write, and where its queries come from.
///
/// ```json
/// {"indexName": "instantsearch_query_suggestions",
///  "sourceIndices": [{"indexName": "instant_search", "minHits": 5, "minLetters": 4,
///                     "facets": [{"attribute": "categories", "amount": 3}],
///                     "generate": [["brand"], ["brand", "categories"]]}],
///  "languages": ["en"], "exclude": ["^free "]}
/// ```
public struct QuerySuggestionsConfiguration: Sendable, Hashable {
    /// One index the suggestions come from.
    public struct SourceIndex: Sendable, Hashable {
        /// A facet whose top values among a suggestion's hits are listed with it.
        public struct Facet: Sendable, Hashable {
            /// The attribute (it must be in the source's `attributesForFaceting`).
            public var attribute: String
            /// How many values to list.
            public var amount: Int

            /// A facet as given.
            public init(attribute: String, amount: Int) {
                self.attribute = attribute
                self.amount = amount
            }
        }

        /// The source index.
        public var indexName: String
        /// A suggestion must find at least this many records in it (Algolia's default 5).
        public var minHits: Int
        /// A suggestion must have at least this many letters (Algolia's default 4).
        public var minLetters: Int
        /// The facets listed with each suggestion.
        public var facets: [Facet]
        /// Facet combinations whose values become suggestions: `["brand"]` makes "apple",
        /// `["brand", "categories"]` makes "apple cell phones".
        public var generate: [[String]]
        /// Indices of `{"query": …, "count": …}` records, read as popular searches.
        public var external: [String]
        /// Whether the searches of the source's replicas count too.
        public var replicas: Bool
        /// Only the searches with one of these `analyticsTags` count (all when empty).
        public var analyticsTags: [String]

        /// A source with Algolia's defaults.
        public init(indexName: String, minHits: Int = 5, minLetters: Int = 4, facets: [Facet] = [], generate: [[String]] = [],
                    external: [String] = [], replicas: Bool = false, analyticsTags: [String] = []) {
            self.indexName = indexName
            self.minHits = minHits
            self.minLetters = minLetters
            self.facets = facets
            self.generate = generate
            self.external = external
            self.replicas = replicas
            self.analyticsTags = analyticsTags
        }
    }

    /// The suggestions index to write.
    public var indexName: String
    /// Where the suggestions come from (at least one).
    public var sourceIndices: [SourceIndex]
    /// Languages whose singular and plural forms are one suggestion (the more popular kept).
    public var languages: [String]
    /// Regular expressions (case-insensitive): a suggestion matching one is left out.
    public var exclude: [String]
    /// Whether characters other than letters, digits and spaces are kept in suggestions.
    public var allowSpecialCharacters: Bool

    /// A configuration as given.
    public init(indexName: String, sourceIndices: [SourceIndex], languages: [String] = [], exclude: [String] = [],
                allowSpecialCharacters: Bool = false) {
        self.indexName = indexName
        self.sourceIndices = sourceIndices
        self.languages = languages
        self.exclude = exclude
        self.allowSpecialCharacters = allowSpecialCharacters
    }

    /// Reads a configuration file's JSON; each error names the field and what was expected.
    public init(json: JSONValue) throws(SearchError) {
        guard let object = json.objectValue else {
            throw SearchError(.invalidJSON, "configuration: expected a JSON object with indexName and sourceIndices")
        }
        let reader = FieldReader(object: object, place: "configuration")
        // `appId`, `region` and `enablePersonalization` come with a configuration read back from
        // Algolia: accepted and not used.
        try reader.checkKeys(["indexName", "sourceIndices", "languages", "exclude", "allowSpecialCharacters", "region", "appId",
                              "enablePersonalization", "status"])
        let indexName = try reader.string("indexName")
        guard let sources = object["sourceIndices"]?.arrayValue, !sources.isEmpty else {
            throw SearchError(.invalidParameter, "configuration.sourceIndices: expected an array of at least one source index")
        }
        var sourceIndices: [SourceIndex] = []
        for (i, source) in sources.enumerated() {
            let place = "configuration.sourceIndices[\(i)]"
            guard let sourceObject = source.objectValue else { throw SearchError(.invalidParameter, "\(place): expected an object") }
            let field = FieldReader(object: sourceObject, place: place)
            try field.checkKeys(["indexName", "minHits", "minLetters", "facets", "generate", "external", "replicas", "analyticsTags"])
            var facets: [SourceIndex.Facet] = []
            for (j, facet) in (sourceObject["facets"]?.arrayValue ?? []).enumerated() {
                let facetReader = FieldReader(object: facet.objectValue ?? [:], place: "\(place).facets[\(j)]")
                facets.append(.init(attribute: try facetReader.string("attribute"), amount: try facetReader.int("amount", default: 5, in: 1...1000)))
            }
            var generate: [[String]] = []
            if let value = sourceObject["generate"] {
                guard let combinations = value.arrayValue else {
                    throw SearchError(.invalidParameter, "\(place).generate: expected an array of facet lists such as [[\"brand\"], [\"brand\", \"categories\"]]")
                }
                for combination in combinations {
                    let attributes = combination.arrayValue?.compactMap(\.stringValue) ?? []
                    guard !attributes.isEmpty, attributes.count == combination.arrayValue?.count else {
                        throw SearchError(.invalidParameter, "\(place).generate: expected an array of facet lists such as [[\"brand\"], [\"brand\", \"categories\"]]")
                    }
                    generate.append(attributes)
                }
            }
            sourceIndices.append(SourceIndex(
                indexName: try field.string("indexName"), minHits: try field.int("minHits", default: 5, in: 0...Int(Int32.max)),
                minLetters: try field.int("minLetters", default: 4, in: 0...1000), facets: facets, generate: generate,
                external: try field.strings("external"), replicas: try field.bool("replicas", default: false),
                analyticsTags: try field.strings("analyticsTags")))
        }
        var languages: [String] = []
        switch object["languages"] {
        case .bool(true)?: languages = Plurals.languages
        case .bool(false)?, nil, .null?: languages = []
        default: languages = try reader.strings("languages")
        }
        for language in languages where language != "en" && Plurals.rules[language] == nil {
            throw SearchError(.invalidParameter, "configuration.languages: \"\(language)\" has no plural rules; expected some of \(Plurals.languages.joined(separator: ", "))")
        }
        self.init(indexName: indexName, sourceIndices: sourceIndices, languages: languages, exclude: try reader.strings("exclude"),
                  allowSpecialCharacters: try reader.bool("allowSpecialCharacters", default: false))
        if sourceIndices.contains(where: { $0.indexName == indexName }) {
            throw SearchError(.invalidParameter, "configuration.indexName: the suggestions index \(indexName) cannot also be a source index")
        }
    }

    /// The configuration in Algolia's JSON.
    public var jsonValue: JSONValue {
        [
            "indexName": .string(indexName),
            "sourceIndices": .array(sourceIndices.map { source in
                [
                    "indexName": .string(source.indexName), "minHits": .int(Int64(source.minHits)), "minLetters": .int(Int64(source.minLetters)),
                    "facets": .array(source.facets.map { ["attribute": .string($0.attribute), "amount": .int(Int64($0.amount))] }),
                    "generate": .array(source.generate.map { .array($0.map { .string($0) }) }),
                    "external": .array(source.external.map { .string($0) }), "replicas": .bool(source.replicas),
                    "analyticsTags": .array(source.analyticsTags.map { .string($0) }),
                ]
            }),
            "languages": .array(languages.map { .string($0) }),
            "exclude": .array(exclude.map { .string($0) }),
            "allowSpecialCharacters": .bool(allowSpecialCharacters),
        ]
    }
}

/// Reads typed fields of a configuration object, with errors that name the field.
private struct FieldReader {
    let object: JSONObject
    let place: String

    func checkKeys(_ known: Set<String>) throws(SearchError) {
        for (key, _) in object where !known.contains(key) {
            throw SearchError(.invalidParameter, "\(place).\(key): unknown field; expected one of \(known.sorted().joined(separator: ", "))")
        }
    }

    func string(_ key: String) throws(SearchError) -> String {
        guard let text = object[key]?.stringValue, !text.isEmpty else {
            throw SearchError(.invalidParameter, "\(place).\(key): expected a non-empty string")
        }
        return text
    }

    func strings(_ key: String) throws(SearchError) -> [String] {
        guard let value = object[key], !value.isNull else { return [] }
        guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
            throw SearchError(.invalidParameter, "\(place).\(key): expected an array of strings")
        }
        return items.compactMap(\.stringValue)
    }

    func int(_ key: String, default fallback: Int, in range: ClosedRange<Int>) throws(SearchError) -> Int {
        guard let value = object[key], !value.isNull else { return fallback }
        guard let number = value.intValue, range.contains(number) else {
            throw SearchError(.invalidParameter, "\(place).\(key): expected an integer from \(range.lowerBound) to \(range.upperBound), got \(value.jsonString.prefix(40))")
        }
        return number
    }

    func bool(_ key: String, default fallback: Bool) throws(SearchError) -> Bool {
        guard let value = object[key], !value.isNull else { return fallback }
        guard let flag = value.boolValue else { throw SearchError(.invalidParameter, "\(place).\(key): expected true or false") }
        return flag
    }
}
