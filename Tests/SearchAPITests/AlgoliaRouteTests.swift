import Foundation
import Testing
import SearchAPI

/// The route table the server reads requests with and the remote client writes them with: every
/// route written as a path reads back as the same route, whatever its names hold, and the
/// methods, paths, ACLs and writes are Algolia's.
@Suite struct AlgoliaRouteTests {
    /// One route of each kind, with these names in it.
    static func everyRoute(index: String, name: String) -> [AlgoliaRoute] {
        [
            .listIndices, .multiSearch, .getObjects, .multiBatch, .appTask(taskID: name),
            .search(index: index), .searchFacetValues(index: index, facet: name), .browse(index: index),
            .saveObject(index: index), .deleteIndex(index: index),
            .getObject(index: index, objectID: name), .putObject(index: index, objectID: name),
            .deleteObject(index: index, objectID: name), .partialUpdate(index: index, objectID: name),
            .batch(index: index), .deleteBy(index: index), .clear(index: index),
            .getSettings(index: index), .setSettings(index: index), .operation(index: index),
            .task(index: index, taskID: name),
            .saveSynonyms(index: index), .searchSynonyms(index: index), .clearSynonyms(index: index),
            .getSynonym(index: index, objectID: name), .putSynonym(index: index, objectID: name),
            .deleteSynonym(index: index, objectID: name), .searchRules(index: index),
            .saveRules(index: index), .clearRules(index: index), .getRule(index: index, objectID: name),
            .putRule(index: index, objectID: name), .deleteRule(index: index, objectID: name),
        ]
    }

    /// Names a path has to carry whole: a space, a slash, escapes, a query's `?`, a fragment's
    /// `#`, a `+` (a space in a query string, not in a path), a `*` inside a name, letters
    /// outside ASCII (composed and not), and a name that looks already encoded.
    static let awkwardNames = ["products", "my products", "a/b", "100%", "what?", "a+b", "#1", "a*b", "café ☕️",
                               "cafe\u{301}", "日本語", "%2F", "a=b&c", "tab\there"]

    @Test func everyOperationHasAlgoliasMethodPathACLAndWrite() {
        let table = Self.everyRoute(index: "products", name: "1").map { route in
            "\(route.method) \(route.template) \(route.acl) \(route.writes ? "writes" : "reads")"
        }
        #expect(table == [
            "GET /1/indexes admin reads",
            "POST /1/indexes/*/queries search reads",
            "POST /1/indexes/*/objects search reads",
            "POST /1/indexes/*/batch admin writes",
            "GET /1/task/{taskID} none reads",
            "POST /1/indexes/{indexName}/query search reads",
            "POST /1/indexes/{indexName}/facets/{facetName}/query search reads",
            "POST /1/indexes/{indexName}/browse admin reads",
            "POST /1/indexes/{indexName} admin writes",
            "DELETE /1/indexes/{indexName} admin writes",
            "GET /1/indexes/{indexName}/{objectID} search reads",
            "PUT /1/indexes/{indexName}/{objectID} admin writes",
            "DELETE /1/indexes/{indexName}/{objectID} admin writes",
            "POST /1/indexes/{indexName}/{objectID}/partial admin writes",
            "POST /1/indexes/{indexName}/batch admin writes",
            "POST /1/indexes/{indexName}/deleteByQuery admin writes",
            "POST /1/indexes/{indexName}/clear admin writes",
            "GET /1/indexes/{indexName}/settings admin reads",
            "PUT /1/indexes/{indexName}/settings admin writes",
            "POST /1/indexes/{indexName}/operation admin writes",
            "GET /1/indexes/{indexName}/task/{taskID} none reads",
            "POST /1/indexes/{indexName}/synonyms/batch admin writes",
            "POST /1/indexes/{indexName}/synonyms/search admin reads",
            "POST /1/indexes/{indexName}/synonyms/clear admin writes",
            "GET /1/indexes/{indexName}/synonyms/{objectID} admin reads",
            "PUT /1/indexes/{indexName}/synonyms/{objectID} admin writes",
            "DELETE /1/indexes/{indexName}/synonyms/{objectID} admin writes",
            "POST /1/indexes/{indexName}/rules/search admin reads",
            "POST /1/indexes/{indexName}/rules/batch admin writes",
            "POST /1/indexes/{indexName}/rules/clear admin writes",
            "GET /1/indexes/{indexName}/rules/{objectID} admin reads",
            "PUT /1/indexes/{indexName}/rules/{objectID} admin writes",
            "DELETE /1/indexes/{indexName}/rules/{objectID} admin writes",
        ])
        // The `*` and application-wide routes name no index; every other names the one of its path.
        let applicationWide: [String?] = [nil, nil, nil, nil, nil]
        let inTheIndex: [String?] = Array(repeating: "products", count: 28)
        #expect(Self.everyRoute(index: "products", name: "1").map(\.index) == applicationWide + inTheIndex)
    }

    @Test(arguments: awkwardNames)
    func everyRouteReadsBackFromItsPath(name: String) throws {
        for route in Self.everyRoute(index: name, name: name) + Self.everyRoute(index: "products", name: name) {
            let path = route.path
            // One segment per segment of the template, and nothing a URL would cut or reread.
            #expect(path.split(separator: "/").count == route.template.split(separator: "/").count, "\(path)")
            #expect(path.unicodeScalars.allSatisfy { $0.isASCII && !" ?#&=+".unicodeScalars.contains($0) }, "\(path)")
            #expect(try AlgoliaRoute(method: route.method, path: path) == route, "\(route.method) \(path)")
        }
    }

    @Test func namesAreEncodedAsTheClientHasAlwaysSentThem() {
        #expect(AlgoliaRoute.search(index: "my products").path == "/1/indexes/my%20products/query")
        #expect(AlgoliaRoute.getObject(index: "a/b", objectID: "100% ok?").path == "/1/indexes/a%2Fb/100%25%20ok%3F")
        #expect(AlgoliaRoute.putSynonym(index: "café", objectID: "a+b").path == "/1/indexes/caf%C3%A9/synonyms/a%2Bb")
        #expect(AlgoliaRoute.searchFacetValues(index: "p", facet: "brand.name").path == "/1/indexes/p/facets/brand.name/query")
        // A name that is exactly `*` is written as the wildcard is; a `*` inside a name is escaped.
        #expect(AlgoliaRoute.getObject(index: "p", objectID: "*").path == "/1/indexes/p/*")
        #expect(AlgoliaRoute.getObject(index: "p", objectID: "a*").path == "/1/indexes/p/a%2A")
        #expect(AlgoliaRoute.task(index: "p", taskID: "42").path == "/1/indexes/p/task/42")
    }

    /// The client encoded each segment as a query string, then wrote each space's `+` as `%20`.
    @Test(arguments: awkwardNames)
    func namesAreEncodedAsTheClientEncodedThemBefore(name: String) {
        let before = FormURLEncoding.encode(name).replacingOccurrences(of: "+", with: "%20")
        #expect(AlgoliaRoute.getObject(index: name, objectID: name).path == "/1/indexes/\(before)/\(before)")
    }

    /// The server decoded each segment with Foundation's `removingPercentEncoding`, a malformed
    /// escape or bytes that are not UTF-8 refused; the table's own decoder reads them the same.
    @Test(arguments: ["plain", "a%20b", "a+b", "%2F", "%252F", "caf%c3%a9", "%E6%97%A5%20x", "100%", "%", "%4", "%zz", "%C3", "%C3%28"])
    func segmentsDecodeAsFoundationDecodedThem(segment: String) {
        #expect(PathSegmentEncoding.decode(segment) == segment.removingPercentEncoding)
    }

    @Test(arguments: [
        ("/1/indexes/products", AlgoliaRoute.Method.get, AlgoliaRoute.search(index: "products")),
        ("/1/indexes/products/browse", .get, .browse(index: "products")),
        ("/1/indexes/products/query", .get, .getObject(index: "products", objectID: "query")),
        ("/1//indexes/products/query/", .post, .search(index: "products")),
        ("/1/indexes/a+b/query", .post, .search(index: "a+b")),
        ("/1/indexes/caf%c3%a9/query", .post, .search(index: "café")),
        ("/1/indexes/%E6%97%A5/synonyms/a%2Fb", .delete, .deleteSynonym(index: "日", objectID: "a/b")),
        ("/1/indexes/*/task/7", .get, .task(index: "*", taskID: "7")),
    ])
    func theServerReadsWhatClientsSend(path: String, method: AlgoliaRoute.Method, expected: AlgoliaRoute) throws {
        #expect(try AlgoliaRoute(method: method, path: path) == expected)
    }

    @Test(arguments: [
        ("/2/indexes", AlgoliaRoute.Method.get, AlgoliaRouteError.Kind.notFound),
        ("/1", .get, .notFound),
        ("/1/indexes/*/nothing", .post, .notFound),
        ("/1/indexes/products/a/b/c/d", .get, .notFound),
        ("/1/indexes/products/a/b", .get, .notFound),
        ("/1/indexes/products/settings", .post, .methodNotAllowed),
        ("/1/indexes/*/queries", .get, .methodNotAllowed),
        ("/1/indexes/products", AlgoliaRoute.Method(rawValue: "PATCH"), .methodNotAllowed),
        ("/1/indexes/products/synonyms/batch", .get, .methodNotAllowed),
        ("/1/indexes/products/100%/query", .post, .malformedPath),
        ("/1/indexes/products/%zz", .get, .malformedPath),
        ("/1/indexes/%C3/query", .post, .malformedPath),
    ])
    func pathsAndMethodsTheAPIDoesNotServe(path: String, method: AlgoliaRoute.Method, expected: AlgoliaRouteError.Kind) {
        let error = #expect(throws: AlgoliaRouteError.self) { try AlgoliaRoute(method: method, path: path) }
        #expect(error?.kind == expected)
    }

    @Test func theErrorsSayWhatIsWrong() {
        let wrongMethod = #expect(throws: AlgoliaRouteError.self) { try AlgoliaRoute(method: .post, path: "/1/indexes/my%20products/settings") }
        #expect(wrongMethod?.message == "Method POST not allowed on /1/indexes/my products/settings")
        #expect(wrongMethod?.status == 405)
        let unknown = #expect(throws: AlgoliaRouteError.self) { try AlgoliaRoute(method: .get, path: "/2/indexes") }
        #expect(unknown?.message == "Not found: /2/indexes is not an endpoint of the Search API")
        #expect(unknown?.status == 404)
        let malformed = #expect(throws: AlgoliaRouteError.self) { try AlgoliaRoute.decodedSegments(of: "/1/indexes/100%") }
        #expect(malformed?.message == "Invalid path: /1/indexes/100% has a malformed percent escape")
        #expect(malformed?.status == 400)
    }

    /// Names that are also words of the paths read as the words, as Algolia reads them: a client
    /// cannot reach such an object, synonym or index by this path.
    @Test func namesThatAreWordsOfThePathsReadAsTheWords() throws {
        #expect(try AlgoliaRoute(method: .get, path: AlgoliaRoute.getObject(index: "p", objectID: "settings").path) == .getSettings(index: "p"))
        #expect(try AlgoliaRoute(method: .get, path: AlgoliaRoute.getObject(index: "p", objectID: "browse").path) == .browse(index: "p"))
        #expect(throws: AlgoliaRouteError.self) {
            try AlgoliaRoute(method: .get, path: AlgoliaRoute.getSynonym(index: "p", objectID: "batch").path)
        }
        #expect(throws: AlgoliaRouteError.self) { try AlgoliaRoute(method: .post, path: AlgoliaRoute.search(index: "*").path) }
    }

    /// The Insights, Analytics and key routes: Algolia's paths, methods and ACLs, read back.
    @Test func eventsAnalyticsAndKeysHaveAlgoliasPaths() throws {
        let cases: [(AlgoliaRoute, String, AlgoliaRoute.Method, AlgoliaACL)] = [
            (.sendEvents, "/1/events", .post, .search),
            (.analytics(.topSearches), "/2/searches", .get, .admin),
            (.analytics(.searchesWithoutResults), "/2/searches/noResults", .get, .admin),
            (.analytics(.searchCount), "/2/searches/count", .get, .admin),
            (.analytics(.topHits), "/2/hits", .get, .admin),
            (.analytics(.topFilters(attribute: nil)), "/2/filters", .get, .admin),
            (.analytics(.topFilters(attribute: "brand name")), "/2/filters/brand%20name", .get, .admin),
            (.getAPIKey(key: "a/b"), "/1/keys/a%2Fb", .get, .none),
        ]
        for (route, path, method, acl) in cases {
            #expect(route.path == path && route.method == method && route.acl == acl && !route.writes && route.index == nil, "\(path)")
            #expect(try AlgoliaRoute(method: method, path: path) == route, "\(path)")
        }
        #expect(throws: AlgoliaRouteError.self) { try AlgoliaRoute(method: .get, path: "/1/events") }
        #expect(throws: AlgoliaRouteError.self) { try AlgoliaRoute(method: .post, path: "/2/searches") }
        #expect(throws: AlgoliaRouteError.self) { try AlgoliaRoute(method: .get, path: "/2/users/count") }
    }
}
