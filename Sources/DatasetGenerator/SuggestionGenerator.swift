import SearchAPI

/// Query Suggestions records derived from a generated product catalog, so every query
/// really finds products and its counts are exact for that catalog.
///
/// A product matches a query when every query word equals a word of the product's name,
/// brand, categories or description (lowercased, split on anything that is not an ASCII
/// letter or digit); the last query word may be a prefix of a word.
enum SuggestionGenerator {
    static let salt: UInt64 = 0x5355_4747_4553_5403  // "SUGGEST"

    static let stopWords: Set<String> = [
        "a", "an", "and", "the", "of", "for", "with", "to", "in", "on", "or", "by", "at", "from", "most", "select",
        "up", "your", "this", "is", "it", "its", "as", "be", "into", "each", "pair", "pack", "only", "ft", "cu",
        "oz", "qt", "ch", "diag", "class", "series",
    ]

    /// Lowercased ASCII alphanumeric runs of `text`.
    static func tokens(_ text: String) -> [String] {
        var result: [String] = []
        var current: [UInt8] = []
        current.reserveCapacity(24)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 32)
            default:
                if !current.isEmpty { result.append(String(decoding: current, as: UTF8.self)); current.removeAll(keepingCapacity: true) }
            }
        }
        if !current.isEmpty { result.append(String(decoding: current, as: UTF8.self)) }
        return result
    }

    /// The words of a product name grouped the way a person would type them: runs end at
    /// punctuation such as `,` `/` `(` `"` or a spaced dash, except the dash after the
    /// brand ("Samsung - Galaxy S9" stays one run); inside a run, hyphenated or dotted
    /// compounds ("Wi-Fi", "4.8") are one unit whose words are never split apart.
    static func nameRuns(_ name: String) -> [[[String]]] {
        var runs: [[[String]]] = []
        var units: [[String]] = []
        var unit: [String] = []
        var current: [UInt8] = []
        var dashes = 0
        let bytes = Array(name.utf8)
        func endWord() {
            if !current.isEmpty { unit.append(String(decoding: current, as: UTF8.self)); current.removeAll(keepingCapacity: true) }
        }
        func endUnit() {
            endWord()
            if !unit.isEmpty { units.append(unit); unit.removeAll() }
        }
        func endRun() {
            endUnit()
            if !units.isEmpty { runs.append(units); units.removeAll() }
        }
        for (i, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 32)
            case UInt8(ascii: "-"), UInt8(ascii: "."):
                if i > 0, bytes[i - 1] == UInt8(ascii: " ") {
                    dashes += 1
                    if dashes > 1 || byte == UInt8(ascii: ".") { endRun() } else { endUnit() }
                } else {
                    endWord()  // joiner: the compound goes on
                }
            case UInt8(ascii: " "): endUnit()
            case UInt8(ascii: ","), UInt8(ascii: "/"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ":"),
                UInt8(ascii: "&"), UInt8(ascii: "+"), UInt8(ascii: "\""), UInt8(ascii: "'"):
                endRun()
            default: endWord()  // ™, ® and other symbols glue nothing
            }
        }
        endRun()
        return runs
    }

    static func isUsableWord(_ word: String) -> Bool {
        word.utf8.count >= 2 && !stopWords.contains(word)
    }

    static func isNumeric(_ word: String) -> Bool {
        word.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    struct Candidate {
        var query: String
        var frequency: Int
        var score: Double
    }

    static func suggestions(seed: UInt64, count: Int, catalogSize: Int) -> [JSONValue] {
        guard count > 0 else { return [] }
        let products = (0..<catalogSize).map { ProductGenerator.product(seed: seed, index: $0) }

        // 1. Inverted index over every searchable word of every product.
        var tokenIDs: [String: Int32] = [:]
        var postings: [[Int32]] = []
        for (pid, product) in products.enumerated() {
            let line = ProductCatalog.lines[product.line]
            var words = tokens(product.name)
            words += tokens(product.brand)
            for category in line.categories { words += tokens(category) }
            words += tokens(product.description)
            for word in words {
                let id: Int32
                if let known = tokenIDs[word] { id = known } else {
                    id = Int32(postings.count)
                    tokenIDs[word] = id
                    postings.append([])
                }
                if postings[Int(id)].last != Int32(pid) { postings[Int(id)].append(Int32(pid)) }
            }
        }
        let sortedTokens = tokenIDs.keys.sorted()

        // 2. Candidate phrases: 1–3 consecutive words of names, whole brands and category
        //    names; frequency = products that contain the phrase there.
        var frequency: [String: Int] = [:]
        var seen = Set<String>()
        for product in products {
            seen.removeAll(keepingCapacity: true)
            let line = ProductCatalog.lines[product.line]
            var phrases: [[String]] = []
            for run in nameRuns(product.name) {
                for start in run.indices {
                    var phrase: [String] = []
                    for unit in run[start...] {
                        phrase += unit
                        if phrase.count > 3 { break }
                        phrases.append(phrase)
                    }
                }
            }
            phrases.append(tokens(product.brand))
            for category in line.categories where !category.contains("&") && !category.contains(",") {
                phrases.append(tokens(category))
            }
            for phrase in phrases {
                guard (1...3).contains(phrase.count), phrase.allSatisfy(isUsableWord),
                    !phrase.allSatisfy(isNumeric), !isNumeric(phrase[0])
                else { continue }
                let query = phrase.joined(separator: " ")
                if seen.insert(query).inserted { frequency[query, default: 0] += 1 }
            }
        }

        // 3. Rank: frequent phrases first, with a per-query jitter so the list mixes one-,
        //    two- and three-word queries; ties broken by the query text.
        var candidates = frequency.map { query, freq -> Candidate in
            let words = query.utf8.reduce(1) { $1 == UInt8(ascii: " ") ? $0 + 1 : $0 }
            let jitter = 0.5 + Double(stableHash(query, seed ^ salt) >> 11) * 0x1.0p-53
            let lengthBoost = words == 1 ? 1.0 : words == 2 ? 0.9 : 0.7
            return Candidate(query: query, frequency: freq, score: Double(freq) * jitter * lengthBoost)
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.query < $1.query }
        if candidates.count > count { candidates.removeSubrange(count...) }

        // 4. Exact hits and facet counts by brute force over the postings.
        var stamp = [Int32](repeating: -1, count: products.count)
        var level = [UInt8](repeating: 0, count: products.count)
        var records: [JSONValue] = []
        records.reserveCapacity(candidates.count)
        for (qi, candidate) in candidates.enumerated() {
            let words = candidate.query.split(separator: " ").map(String.init)
            var matched: [Int32] = []
            for (k, word) in words.enumerated() {
                var ids: [Int32] = []
                if k == words.count - 1 {
                    // Prefix: every indexed word starting with `word`.
                    var low = 0, high = sortedTokens.count
                    while low < high {
                        let mid = (low + high) / 2
                        if sortedTokens[mid] < word { low = mid + 1 } else { high = mid }
                    }
                    while low < sortedTokens.count, sortedTokens[low].hasPrefix(word) {
                        ids.append(tokenIDs[sortedTokens[low]]!)
                        low += 1
                    }
                } else if let id = tokenIDs[word] {
                    ids = [id]
                }
                for id in ids {
                    for pid in postings[Int(id)] {
                        let p = Int(pid)
                        if k == 0 {
                            if stamp[p] != Int32(qi) { stamp[p] = Int32(qi); level[p] = 1; matched.append(pid) }
                        } else if stamp[p] == Int32(qi), level[p] == UInt8(k) {
                            level[p] = UInt8(k + 1)
                        }
                    }
                }
            }
            let hits = matched.filter { level[Int($0)] == UInt8(words.count) }
            records.append(record(candidate, words: words.count, hits: hits, products: products, seed: seed))
        }
        return records
    }

    static let facetKeys = ["categories", "hierarchicalCategories.lvl0", "hierarchicalCategories.lvl1", "hierarchicalCategories.lvl2"]

    static func record(_ candidate: Candidate, words: Int, hits: [Int32], products: [Product], seed: UInt64) -> JSONValue {
        // Count per catalog line, then spread to facet values.
        var perLine: [Int: Int] = [:]
        for pid in hits { perLine[products[Int(pid)].line, default: 0] += 1 }
        var counts: [[String: Int]] = Array(repeating: [:], count: 4)
        for (lineIndex, n) in perLine {
            let line = ProductCatalog.lines[lineIndex]
            var seenCategory = Set<String>()
            for category in line.categories where seenCategory.insert(category).inserted {
                counts[0][category, default: 0] += n
            }
            for (depth, value) in line.levels.enumerated() { counts[depth + 1][value, default: 0] += n }
        }

        var rng = SplitMix64(state: stableHash(candidate.query, seed ^ salt ^ 0x5A))
        var exact = JSONObject()
        var analytics = JSONObject()
        for (f, key) in facetKeys.enumerated() {
            let top = counts[f].sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
            exact.appendUnique(key, .array(top.map { ["value": .string($0.key), "count": .int(Int64($0.value))] }))
            // Analytics: facet filters users applied after this query; usually none.
            var applied: [JSONValue] = []
            if f > 0, let first = top.first, rng.chance(0.3) {
                let picks = rng.chance(0.3) ? Array(top.prefix(2)) : [first]
                for pick in picks {
                    let n = Int64(Double(pick.value) * (1 + 4 * rng.unit())) + 1
                    applied.append(["attribute": .string(key), "operator": ":", "value": .string(pick.key), "count": .int(n)])
                }
            }
            analytics.appendUnique(key, .array(applied))
        }

        let popularity = Int64((candidate.score * 2).rounded())
        var object = JSONObject()
        object.appendUnique("instant_search", [
            "exact_nb_hits": .int(Int64(hits.count)),
            "facets": ["exact_matches": .object(exact), "analytics": .object(analytics)],
        ])
        object.appendUnique("nb_words", .int(Int64(words)))
        object.appendUnique("popularity", .int(popularity))
        object.appendUnique("query", .string(candidate.query))
        object.appendUnique("objectID", .string(candidate.query))
        return .object(object)
    }

    /// A search log whose popular searches are the suggestions above: per suggestion, its
    /// query searched `popularity / 10` times (at least once), and for each facet value users
    /// "applied" after it, that many searches more with the value as a facet filter.
    static func searchLog(seed: UInt64, count: Int, catalogSize: Int) -> [JSONValue] {
        var log: [JSONValue] = []
        for record in suggestions(seed: seed, count: count, catalogSize: catalogSize) {
            guard let query = record["query"]?.stringValue, let popularity = record["popularity"]?.intValue else { continue }
            log.append(["query": .string(query), "count": .int(Int64(max(1, (popularity + 5) / 10)))])
            for (_, applied) in record["instant_search"]?["facets"]?["analytics"]?.objectValue ?? [:] {
                for filter in applied.arrayValue ?? [] {
                    guard let attribute = filter["attribute"]?.stringValue, let value = filter["value"]?.stringValue,
                          let n = filter["count"]?.intValue else { continue }
                    log.append(["query": .string(query), "count": .int(Int64(max(1, (n + 5) / 10))),
                                "facetFilters": [.string(attribute + ":" + value)]])
                }
            }
        }
        return log
    }
}
