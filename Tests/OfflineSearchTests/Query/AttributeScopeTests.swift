import Foundation
import Testing
@testable import OfflineSearch
import SearchAPI

/// restrictSearchableAttributes, disableTypoToleranceOnAttributes and exactOnSingleWordQuery,
/// in the manner of Algolia's relevance docs.
@Suite struct AttributeScopeTests {
    static let records: [JSONValue] = [
        ["objectID": "title", "title": "Galaxy", "description": "a phone", "rank": 1],
        ["objectID": "description", "title": "Phone case", "description": "fits the galaxy", "rank": 2],
        ["objectID": "typo", "title": "Galaxi", "description": "tablet", "rank": 3],
    ]

    func index(_ settings: JSONObject = [:]) throws -> (TestEngine, SearchIndex) {
        let engine = try TestEngine()
        var all: JSONObject = ["searchableAttributes": ["title", "description"], "customRanking": ["desc(rank)"]]
        for (key, value) in settings { all[key] = value }
        return (engine, try engine.index(settings: all, records: AttributeScopeTests.records))
    }

    @Test func restrictSearchableAttributes() throws {
        let (_, index) = try index()
        #expect(Set(try index.search("galaxy ", ["typoTolerance": false]).objectIDs) == ["title", "description"])
        #expect(try index.search("galaxy ", ["typoTolerance": false, "restrictSearchableAttributes": ["description"]]).objectIDs == ["description"])
        #expect(try index.search("phone ", ["restrictSearchableAttributes": ["title"]]).objectIDs == ["description"])
        // Unknown names are ignored, as with Algolia.
        #expect(try index.search("phone ", ["restrictSearchableAttributes": ["nope"]]).nbHits == 2)
    }

    @Test func disableTypoToleranceOnAttributes() throws {
        let (_, index) = try index()
        #expect(Set(try index.search("galaxy ").objectIDs) == ["title", "description", "typo"])
        let strictTitle = try index.search("galaxy ", ["disableTypoToleranceOnAttributes": ["title"]])
        #expect(Set(strictTitle.objectIDs) == ["title", "description"])
    }

    @Test func exactOnSingleWordQuery() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "customRanking": ["desc(rank)"]],
                                     records: [["objectID": "long", "name": "iPhone 14 case", "rank": 2],
                                               ["objectID": "whole", "name": "iPhone", "rank": 1]])
        // attribute (default): exact only where the whole value is the word.
        #expect(try index.search("iphone").objectIDs == ["whole", "long"])
        // word: both contain the word whole, so custom ranking decides.
        #expect(try index.search("iphone", ["exactOnSingleWordQuery": "word"]).objectIDs == ["long", "whole"])
        #expect(try index.search("iphone", ["exactOnSingleWordQuery": "none"]).objectIDs == ["long", "whole"])
        #expect(throws: SearchError.self) { try index.search("iphone", ["exactOnSingleWordQuery": "sometimes"]) }
    }

    @Test func exactMultiWordExampleFromTheDocs() throws {
        // For "iPhon 14", the record with "iPhon 14" has two exact words, "iPhone 14" only one.
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"], "customRanking": ["desc(rank)"]],
                                     records: [["objectID": "iphone", "name": "iPhone 14", "rank": 2],
                                               ["objectID": "iphon", "name": "iPhon 14", "rank": 1]])
        #expect(try index.search("iPhon 14 ").objectIDs == ["iphon", "iphone"])
    }
}

@Suite struct AdvancedSyntaxTests {
    static let records: [JSONValue] = [
        ["objectID": "1", "name": "black leather sofa"],
        ["objectID": "2", "name": "leather black boots"],
        ["objectID": "3", "name": "blacks leathers"],
    ]

    @Test func excludedWordsAndExactPhrases() throws {
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["name"]], records: AdvancedSyntaxTests.records)
        // Without advancedSyntax, "-" is a separator: "-sofa" is just the word sofa.
        #expect(try index.search("leather -sofa").objectIDs == ["1"])
        #expect(Set(try index.search("leather -sofa", ["advancedSyntax": true]).objectIDs) == ["2", "3"])
        #expect(Set(try index.search("-sofa", ["advancedSyntax": true]).objectIDs) == ["2", "3"])
        // A quoted word is exact: no prefix, no typo, no plural.
        #expect(Set(try index.search("black", ["ignorePlurals": true]).objectIDs) == ["1", "2", "3"])
        #expect(Set(try index.search("\"black\"", ["advancedSyntax": true, "ignorePlurals": true]).objectIDs) == ["1", "2"])
        #expect(Set(try index.search("\"blac\"", ["advancedSyntax": true]).objectIDs).isEmpty)
        // A phrase's words must be adjacent and in order.
        #expect(try index.search("\"black leather\"", ["advancedSyntax": true]).objectIDs == ["1"])
        #expect(try index.search("\"leather black\"", ["advancedSyntax": true]).objectIDs == ["2"])
        #expect(try index.search("\"black sofa\"", ["advancedSyntax": true]).nbHits == 0)
        #expect(try index.search("\"black sofa\"").objectIDs == ["1"])   // without advancedSyntax, plain words
        // Features can be chosen.
        #expect(Set(try index.search("leather -sofa", ["advancedSyntax": true, "advancedSyntaxFeatures": ["exactPhrase"]]).objectIDs) == ["1"])
        #expect(throws: SearchError.self) { try index.search("x", ["advancedSyntax": true, "advancedSyntaxFeatures": ["magic"]]) }
    }
}

@Suite struct RankingOrderTests {
    static let records: [JSONValue] = [
        // "galaxy" with a typo, in the most important attribute.
        ["objectID": "typo-in-title", "title": "Galaxi tab", "description": "tablet", "rank": 3],
        // "galaxy" without typo, in the less important attribute.
        ["objectID": "exact-in-description", "title": "Tablet", "description": "galaxy tab", "rank": 1],
    ]

    func search(_ ranking: [String]?) throws -> [String] {
        let engine = try TestEngine()
        var settings: JSONObject = ["searchableAttributes": ["title", "description"], "customRanking": ["desc(rank)"]]
        if let ranking { settings["ranking"] = .array(ranking.map { .string($0) }) }
        let index = try engine.index(settings: settings, records: RankingOrderTests.records)
        return try index.search("galaxy ").objectIDs
    }

    @Test func theRankingSettingOrdersTheCriteria() throws {
        // Default: typo first.
        #expect(try search(nil) == ["exact-in-description", "typo-in-title"])
        // Attribute before typo: the title match wins despite its typo.
        #expect(try search(["attribute", "typo", "geo", "words", "filters", "proximity", "exact", "custom"])
                == ["typo-in-title", "exact-in-description"])
        // Custom first: the custom order decides (the relevance criteria after it only break ties).
        #expect(try search(["custom", "typo", "attribute"]) == ["typo-in-title", "exact-in-description"])
    }
}

@Suite struct ProximityTests {
    @Test func closerWordsRankFirst() throws {
        let engine = try TestEngine()
        let index = try engine.index(
            settings: ["searchableAttributes": ["name", "tags"], "customRanking": ["desc(rank)"]],
            records: [
                ["objectID": "far", "name": "apple iphone with a leather strap for the watch", "rank": 4],
                ["objectID": "adjacent", "name": "apple watch band", "rank": 1],
                ["objectID": "reversed", "name": "watch by apple", "rank": 2],
                ["objectID": "elements", "name": "x", "tags": ["apple", "watch"], "rank": 5],
            ])
        let response = try index.search("apple watch ", ["getRankingInfo": true])
        #expect(response.objectIDs == ["adjacent", "reversed", "far", "elements"])
        let distances = response.hits.map { $0["_rankingInfo"]?["proximityDistance"]?.intValue }
        #expect(distances == [1, 2, 8, 8])
        // One word: no proximity; the custom ranking decides among equals.
        #expect(try index.search("watch ", ["getRankingInfo": true]).hits.allSatisfy { $0["_rankingInfo"]?["proximityDistance"] == 0 })
        // `minProximity`: words closer than it count as that far apart, so custom ranking decides.
        let loose = try index.search("apple watch ", ["getRankingInfo": true, "minProximity": 2])
        #expect(loose.objectIDs == ["reversed", "adjacent", "far", "elements"])
        #expect(loose.hits.map { $0["_rankingInfo"]?["proximityDistance"]?.intValue } == [2, 2, 8, 8])
        #expect(throws: SearchError.self) { try index.search("apple watch", ["minProximity": 8]) }
        // Proximity can be moved after attribute in ranking, or left out.
        let withoutProximity = try index.search("apple watch ", ["typoTolerance": false])
        #expect(withoutProximity.objectIDs.first == "adjacent")
        try index.setSettings(["ranking": ["typo", "words", "attribute", "exact", "custom"]])
        #expect(try index.search("apple watch ").objectIDs == ["far", "reversed", "adjacent", "elements"])
    }

    /// A large tied group (its proximity read through a vocabulary table) ranks as a brute-force
    /// distance says: the smallest gap between the two words, 1 to 8, then the custom ranking.
    @Test func largeGroupsRankByTheBruteForceDistance() throws {
        var generator = SeededGenerator(seed: 7)
        let filler = ["band", "red", "strap", "case", "leather", "sport", "blue", "large"]
        var records: [JSONValue] = []
        var expected: [(distance: Int, rank: Int, id: String)] = []
        for number in 0..<600 {
            var words = (0..<Int.random(in: 2...14, using: &generator)).map { _ in generator.pick(filler) }
            words.insert("apple", at: Int.random(in: 0...words.count, using: &generator))
            words.insert("watch", at: Int.random(in: 0...words.count, using: &generator))
            if generator.chance(30) { words.insert("watch", at: Int.random(in: 0...words.count, using: &generator)) }
            let positions = { (word: String) in words.indices.filter { words[$0] == word } }
            var gap = Int.max
            for a in positions("apple") { for w in positions("watch") { gap = min(gap, abs(a - w)) } }
            let rank = Int.random(in: 0..<1_000_000, using: &generator)
            records.append(["objectID": .string("r\(number)"), "name": .string(words.joined(separator: " ")), "rank": .int(Int64(rank))])
            expected.append((min(gap, 8), rank, "r\(number)"))
        }
        let engine = try TestEngine()
        let index = try engine.index(settings: ["searchableAttributes": ["unordered(name)"], "customRanking": ["desc(rank)"],
                                                "typoTolerance": false],
                                     records: records)
        let response = try index.search("apple watch ", ["hitsPerPage": 1000, "getRankingInfo": true])
        expected.sort { ($0.distance, -$0.rank) < ($1.distance, -$1.rank) }
        let distances = response.hits.map { $0["_rankingInfo"]?["proximityDistance"]?.intValue ?? -1 }
        let firstDifference = Array(zip(response.objectIDs, expected)).firstIndex { $0.0 != $0.1.id }
        #expect(response.objectIDs.count == expected.count && firstDifference == nil,
                "first difference at \(firstDifference ?? -1): distance \(firstDifference.map { distances[$0] } ?? -1)")
        #expect(distances == expected.map(\.distance))
    }

    /// With proximity before attribute (the default order), the attribute of a multi-word query is
    /// the best one among those holding its closest pair of words (Algolia's `minProximity`); with
    /// attribute first, the best one any word matched.
    @Test func attributeComesFromTheClosestPairAfterProximity() throws {
        let engine = try TestEngine()
        let index = try engine.index(
            settings: ["searchableAttributes": ["brand", "name", "description"], "customRanking": ["desc(rank)"]],
            records: [
                ["objectID": "pair in description", "brand": "Samsung", "name": "Galaxy case", "description": "fits the samsung galaxy s7",
                 "rank": 3],
                ["objectID": "pair in name", "brand": "Other", "name": "Samsung Galaxy S7", "description": "a phone", "rank": 2],
                ["objectID": "no pair", "brand": "Samsung", "name": "Galaxy", "description": "a phone", "rank": 1],
            ])
        let response = try index.search("samsung galaxy ", ["getRankingInfo": true])
        #expect(response.objectIDs == ["pair in name", "pair in description", "no pair"])
        #expect(response.hits.map { $0["_rankingInfo"]?["firstMatchedWord"]?.intValue } == [1000, 2002, 0])
        #expect(try index.search("samsung galaxy ", ["attributeCriteriaComputedBy": "best"]).nbHits == 3)
        #expect(throws: SearchError.self) { try index.search("samsung", ["attributeCriteriaComputedBy": "closest"]) }
        try index.setSettings(["ranking": ["typo", "words", "filters", "attribute", "proximity", "exact", "custom"]])
        #expect(try index.search("samsung galaxy ").objectIDs == ["pair in description", "no pair", "pair in name"])
    }
}
