import DatasetGenerator
import SearchAPI
import Testing

@Suite struct DatasetGeneratorTests {
    static let generator = DatasetGenerator(seed: 42)

    static func json(_ records: [JSONValue]) -> String { JSONValue.array(records).jsonString }

    /// Lowercased words, split on anything that is not a letter or a digit (written
    /// independently of the generator's own tokenizer).
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    // MARK: - Determinism

    @Test(arguments: DatasetKind.allCases)
    func sameSeedSameBytes(kind: DatasetKind) {
        let count = kind == .suggestions ? 150 : 400
        let a = DatasetGenerator(seed: 7).records(kind, count: count)
        let b = DatasetGenerator(seed: 7).records(kind, count: count)
        #expect(a.count == count)
        #expect(Self.json(a) == Self.json(b))
        let c = DatasetGenerator(seed: 8).records(kind, count: count)
        #expect(Self.json(a) != Self.json(c))
    }

    @Test(arguments: DatasetKind.allCases)
    func smallerCountIsPrefix(kind: DatasetKind) {
        // Suggestions: both counts use the same 2,000-product catalog.
        let (small, large) = kind == .suggestions ? (120, 600) : (250, 1000)
        let a = Self.generator.records(kind, count: small)
        let b = Self.generator.records(kind, count: large)
        #expect(b.count == large)
        #expect(Self.json(a) == Self.json(Array(b.prefix(small))))
    }

    @Test func suggestionsWithFixedCatalogArePrefixes() {
        let a = Self.generator.suggestions(count: 50, catalogSize: 800)
        let b = Self.generator.suggestions(count: 200, catalogSize: 800)
        #expect(a.count == 50 && b.count == 200)
        #expect(Self.json(a) == Self.json(Array(b.prefix(50))))
    }

    @Test func emptyAndTinyCounts() {
        for kind in DatasetKind.allCases {
            #expect(Self.generator.records(kind, count: 0).isEmpty)
            #expect(Self.generator.records(kind, count: 1).count == 1)
        }
    }

    @Test(arguments: DatasetKind.allCases)
    func objectIDsAreUniqueStrings(kind: DatasetKind) {
        let count = kind == .suggestions ? 1500 : 5000
        let records = Self.generator.records(kind, count: count)
        let ids = records.compactMap { $0["objectID"]?.stringValue }
        #expect(ids.count == count)
        #expect(Set(ids).count == count)
    }

    @Test func outputParsesBack() throws {
        for kind in DatasetKind.allCases {
            let text = Self.json(Self.generator.records(kind, count: 50))
            let parsed = try JSONValue(parsing: text)
            #expect(parsed.arrayValue?.count == 50)
        }
    }

    // MARK: - Products

    @Test func productFields() {
        let products = Self.generator.records(.products, count: 3000)
        var brands = Set<String>(), lvl0 = Set<String>(), names = Set<String>()
        for product in products {
            guard let object = product.objectValue else { Issue.record("not an object"); continue }
            #expect(object.keys.count == 13)
            let name = object["name"]?.stringValue ?? ""
            #expect(name.contains(" - "))
            names.insert(name)
            let description = object["description"]?.stringValue ?? ""
            let sentences = description.split(separator: ".").filter { !$0.trimmingPrefix(" ").isEmpty }.count
            #expect((2...6).contains(sentences) && description.hasSuffix("."), "\(description)")
            let brand = object["brand"]?.stringValue ?? ""
            #expect(!brand.isEmpty && name.hasPrefix(brand + " - "))
            brands.insert(brand)

            let categories = object["categories"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect((2...3).contains(categories.count))
            lvl0.insert(categories.first ?? "")
            let hierarchical = object["hierarchicalCategories"]?.objectValue
            #expect(hierarchical?.count == categories.count)
            for depth in categories.indices {
                let expected = categories[0...depth].joined(separator: " > ")
                #expect(hierarchical?["lvl\(depth)"]?.stringValue == expected)
            }

            guard case .double(let price)? = object["price"] else { Issue.record("price is not a double"); continue }
            #expect(price > 0 && price < 10_000)
            #expect(abs(price * 100 - (price * 100).rounded()) < 1e-6)
            let range = object["price_range"]?.stringValue
            let expectedRange =
                price < 50 ? "1 - 50" : price < 100 ? "50 - 100" : price < 200 ? "100 - 200"
                : price < 500 ? "200 - 500" : price < 2000 ? "500 - 2000" : "> 2000"
            #expect(range == expectedRange)
            #expect((object["type"]?.stringValue ?? "").isEmpty == false)
            #expect(object["free_shipping"]?.boolValue != nil)
            guard case .int(let popularity)? = object["popularity"], case .int(let rating)? = object["rating"] else {
                Issue.record("popularity/rating not ints"); continue
            }
            #expect((1...30_000).contains(popularity))
            #expect((0...5).contains(rating))

            let image = object["image"]?.stringValue ?? ""
            let prefix = "https://cdn-demo.algolia.com/bestbuy-0118/"
            #expect(image.hasPrefix(prefix) && image.hasSuffix("_sb.jpg"))
            let sku = image.dropFirst(prefix.count).dropLast("_sb.jpg".count)
            #expect(sku.count == 7 && sku.allSatisfy(\.isNumber))
            #expect(object["objectID"]?.stringValue == String(sku))
        }
        #expect(brands.count >= 80)
        #expect(lvl0.count >= 10)
        #expect(names.count > 2800)
    }

    @Test func productVocabularyGrows() {
        let products = Self.generator.records(.products, count: 20_000)
        var vocabulary = Set<String>()
        for product in products { vocabulary.formUnion(Self.words(product["name"]?.stringValue ?? "")) }
        #expect(vocabulary.count > 4000)
    }

    // MARK: - Movies and actors

    @Test func movieFields() {
        let movies = Self.generator.records(.movies, count: 2000)
        let actorNames = Set(Self.generator.records(.actors, count: 2000).compactMap { $0["name"]?.stringValue })
        var cast = 0, known = 0
        for movie in movies {
            #expect((movie["title"]?.stringValue ?? "").isEmpty == false)
            guard case .int(let year)? = movie["year"], case .int(let rating)? = movie["rating"] else {
                Issue.record("year/rating not ints"); continue
            }
            #expect((1920...2024).contains(year))
            #expect((1...5).contains(rating))
            let genres = movie["genre"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect((1...3).contains(genres.count) && Set(genres).count == genres.count)
            let actors = movie["actors"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect((2...5).contains(actors.count) && Set(actors).count == actors.count)
            cast += actors.count
            known += actors.filter(actorNames.contains).count
            let score = movie["score"]?.doubleValue ?? -1
            #expect((0...10).contains(score))
            #expect(abs(score * 10 - (score * 10).rounded()) < 1e-9)
            #expect(movie["image"]?.stringValue?.hasPrefix("https://") == true)
        }
        // Casts come from the actors' pool, mostly its best-known (lowest-numbered) people.
        #expect(Double(known) / Double(cast) > 0.6)
    }

    @Test func actorFields() {
        let actors = Self.generator.records(.actors, count: 2000)
        #expect(Set(actors.compactMap { $0["name"]?.stringValue }).count == 2000)
        for actor in actors {
            let name = actor["name"]?.stringValue ?? ""
            #expect(name.split(separator: " ").count >= 2)
            guard case .int(let rating)? = actor["rating"] else { Issue.record("rating not an int"); continue }
            #expect((1...5000).contains(rating))
            let path = actor["image_path"]?.stringValue ?? ""
            #expect(path.hasPrefix("/") && path.hasSuffix(".jpg") && path.count == 32)
        }
    }

    // MARK: - Suggestions

    @Test func suggestionsFindProducts() {
        let count = 400
        let suggestions = Self.generator.records(.suggestions, count: count)
        #expect(suggestions.count == count)
        let catalog = Self.generator.records(.products, count: DatasetGenerator.suggestionCatalogSize(for: count))
        let productWords: [Set<String>] = catalog.map { product in
            var text = (product["name"]?.stringValue ?? "") + " " + (product["brand"]?.stringValue ?? "")
            for category in product["categories"]?.arrayValue ?? [] { text += " " + (category.stringValue ?? "") }
            text += " " + (product["description"]?.stringValue ?? "")
            return Set(Self.words(text))
        }

        var queries = Set<String>()
        var lastPopularity = Int.max
        for (i, suggestion) in suggestions.enumerated() {
            let query = suggestion["query"]?.stringValue ?? ""
            #expect(suggestion["objectID"]?.stringValue == query)
            #expect(queries.insert(query).inserted, "duplicate query \(query)")
            let queryWords = query.split(separator: " ").map(String.init)
            #expect((1...3).contains(queryWords.count))
            #expect(suggestion["nb_words"]?.intValue == queryWords.count)
            let popularity = suggestion["popularity"]?.intValue ?? -1
            #expect(popularity >= 0 && popularity <= lastPopularity)
            lastPopularity = popularity

            let instant = suggestion["instant_search"]
            let hits = instant?["exact_nb_hits"]?.intValue ?? 0
            #expect(hits > 0, "\(query) finds nothing")
            let exact = instant?["facets"]?["exact_matches"]?.objectValue
            let analytics = instant?["facets"]?["analytics"]?.objectValue
            for key in ["categories", "hierarchicalCategories.lvl0", "hierarchicalCategories.lvl1", "hierarchicalCategories.lvl2"] {
                let values = exact?[key]?.arrayValue ?? []
                #expect((1...5).contains(values.count))
                let counts = values.compactMap { $0["count"]?.intValue }
                #expect(counts.count == values.count && counts == counts.sorted(by: >))
                #expect(counts.allSatisfy { $0 <= hits })
                for entry in analytics?[key]?.arrayValue ?? [] {
                    #expect(entry["attribute"]?.stringValue == key)
                    #expect(entry["operator"]?.stringValue == ":")
                    #expect(entry["value"]?.stringValue != nil && entry["count"]?.intValue != nil)
                }
            }

            // Recompute hits and the top lvl0 count by brute force for a sample.
            guard i < 12 || i % 37 == 0 else { continue }
            let matches = catalog.indices.filter { p in
                let words = productWords[p]
                for (k, word) in queryWords.enumerated() {
                    if k == queryWords.count - 1 {
                        if !words.contains(where: { $0.hasPrefix(word) }) { return false }
                    } else if !words.contains(word) {
                        return false
                    }
                }
                return true
            }
            #expect(matches.count == hits, "\(query)")
            var lvl0: [String: Int] = [:]
            for p in matches { lvl0[catalog[p]["hierarchicalCategories"]?["lvl0"]?.stringValue ?? "", default: 0] += 1 }
            let top = exact?["hierarchicalCategories.lvl0"]?.arrayValue?.first
            #expect(top?["count"]?.intValue == lvl0.values.max())
            #expect(lvl0[top?["value"]?.stringValue ?? ""] == lvl0.values.max())
        }
        #expect(suggestions.contains { $0["nb_words"]?.intValue == 1 })
        #expect(suggestions.contains { $0["nb_words"]?.intValue == 2 })
    }

    // MARK: - Settings and names

    @Test func settingsAndIndexNames() {
        #expect(DatasetGenerator.indexName(for: .products) == "instant_search")
        #expect(DatasetGenerator.indexName(for: .suggestions) == "instantsearch_query_suggestions")
        #expect(DatasetGenerator.indexName(for: .actors) == "mobile_demo_actors")
        #expect(DatasetGenerator.indexName(for: .movies) == "mobile_demo_movies")
        for kind in DatasetKind.allCases {
            let settings = DatasetGenerator.settings(for: kind)
            #expect(settings.objectValue != nil)
            #expect((settings["searchableAttributes"]?.arrayValue ?? []).isEmpty == false)
            #expect((settings["customRanking"]?.arrayValue ?? []).isEmpty == false)
        }
        let facets = DatasetGenerator.settings(for: .products)["attributesForFaceting"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(facets.contains("hierarchicalCategories.lvl2") && facets.contains("searchable(brand)"))
        #expect(DatasetGenerator.settings(for: .products)["customRanking"] == ["desc(popularity)"])
        #expect(DatasetGenerator.settings(for: .movies)["customRanking"] == ["desc(score)", "desc(year)"])
        #expect(DatasetGenerator.settings(for: .actors)["customRanking"] == ["desc(rating)"])
        #expect(DatasetGenerator.settings(for: .suggestions)["attributesForFaceting"] == [])
    }
}
