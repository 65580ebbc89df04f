import Foundation
import OfflineSearch
import SearchAPI
import Testing
@testable import SearchTestDoubles

/// A real engine in a folder of its own, with a `movies` and an `actors` index.
struct MovieEngine {
    let directory = TemporaryDirectory()
    let engine: SearchEngine

    init() throws {
        engine = try SearchEngine(directory: directory.url)
        let movies = try engine.index("movies")
        try movies.setSettings(["searchableAttributes": ["title", "actors"],
                                "attributesForFaceting": ["searchable(genre)", "year"]])
        try movies.saveObjects([
            ["objectID": "1", "title": "Star Wars", "genre": "Science Fiction", "year": 1977, "rating": 4.6, "actors": ["Harrison Ford"]],
            ["objectID": "2", "title": "The Empire Strikes Back", "genre": "Science Fiction", "year": 1980, "rating": 4.8, "actors": ["Harrison Ford"]],
            ["objectID": "3", "title": "Raiders of the Lost Ark", "genre": "Adventure", "year": 1981, "rating": 4.5, "actors": ["Harrison Ford"]],
            ["objectID": "4", "title": "A Star Is Born", "genre": "Drama", "year": 1976, "rating": 3.9, "actors": ["Barbra Streisand"]],
            ["objectID": "5", "title": "Stardust", "genre": "Fantasy", "year": 2007, "rating": 4.1, "actors": ["Claire Danes"]],
        ])
        let actors = try engine.index("actors")
        try actors.saveObjects([
            ["objectID": "a1", "name": "Harrison Ford"],
            ["objectID": "a2", "name": "Claire Danes"],
        ])
    }

    /// Requests of every shape a search UI sends.
    static let requests: [ServiceRequest] = {
        var faceted = SearchParameters(query: "star")
        faceted.facets = ["genre", "year"]
        faceted.getRankingInfo = true
        var filtered = SearchParameters(query: "")
        filtered.filters = "year > 1979"
        filtered.hitsPerPage = 1
        filtered.page = 1
        filtered.other["typoTolerance"] = "min"
        filtered.other["analytics"] = false
        var genres = SearchParameters(query: "star")
        genres.facetQuery = "sci"
        return [
            .multiSearch([.hits(indexName: "movies", parameters: faceted)]),
            .multiSearch([.hits(indexName: "movies", parameters: SearchParameters(query: "ford")),
                          .hits(indexName: "actors", parameters: SearchParameters(query: "ford"))], strategy: .stopIfEnoughMatches),
            .searchForFacetValues(indexName: "movies", facet: "genre", parameters: genres),
            .multiSearch([.hits(indexName: "movies", parameters: filtered),
                          .facetValues(indexName: "movies", facet: "genre", parameters: genres)]),
        ]
    }()
}

// The limit guards against a hang, not slowness: under `swift test`'s full parallel load on 2
// cores a test can wait minutes for a thread (one of these ran 470 s on CI without hanging).
@Suite(.timeLimit(.minutes(10)))
struct ReplayTests {
    @Test func answersRecordedFromTheEngineAreReplayedEqualWithNoEngine() async throws {
        let folder = TemporaryDirectory()
        let fixtureURL = folder.url.appendingPathComponent("movies.json")
        var recorded: [ServiceResponse] = []
        do {
            let movies = try MovieEngine()
            let recorder = RecordingSearchService(wrapping: movies.engine)
            for request in MovieEngine.requests { recorded.append(try await request.send(to: recorder)) }
            try recorder.fixture().write(to: fixtureURL)
        }
        // The engine and its folder are gone: only the file remains.
        let replay = try ReplayingSearchService(contentsOf: fixtureURL)
        #expect(replay.unservedEntries.count == MovieEngine.requests.count)
        for (request, answer) in zip(MovieEngine.requests, recorded) {
            #expect(try await request.send(to: replay) == answer)
        }
        #expect(replay.unservedEntries.isEmpty)
    }

    @Test func numbersKeepTheirTypeThroughTheFile() throws {
        // `jsonString` writes 5.0 as 5, which reads back as an integer; a fixture must not.
        var response = SearchResponse()
        response.hits = [["objectID": "1", "rating": .double(5), "votes": 5, "price": 4.99, "tiny": .double(1e-7)]]
        let request = ServiceRequest.multiSearch([.hits(indexName: "movies", parameters: SearchParameters())])
        let fixture = ReplayFixture(entries: [ReplayFixture.Entry(request: request, response: .multiSearch([.hits(response)]))])
        #expect(fixture.jsonText.contains(#""rating": 5.0"#))
        #expect(try ReplayFixture(jsonText: fixture.jsonText) == fixture)
    }

    @Test func theFileIsReadableJSONThatReadsBackAndWritesTheSameText() async throws {
        let movies = try MovieEngine()
        let fixture = try await ReplayFixture.record(MovieEngine.requests, from: movies.engine)
        let text = fixture.jsonText
        #expect(text.hasPrefix("{\n  \"format\": \"SearchTestDoubles.ReplayFixture\",\n  \"version\": 1,\n  \"entries\": [\n"))
        #expect(text.contains("\"operation\": \"searchForFacetValues\""))
        let reread = try ReplayFixture(jsonText: text)
        #expect(reread == fixture)
        #expect(reread.jsonText == text)
    }

    @Test func matchingIgnoresTheOrderParametersWereSetIn() async throws {
        var recordedOrder = SearchParameters(query: "star")
        recordedOrder.other["typoTolerance"] = "min"
        recordedOrder.other["analytics"] = false
        var otherOrder = SearchParameters(query: "star")
        otherOrder.other["analytics"] = false
        otherOrder.other["typoTolerance"] = "min"
        #expect(recordedOrder.jsonObject.keys != otherOrder.jsonObject.keys)

        let movies = try MovieEngine()
        let fixture = try await ReplayFixture.record([.multiSearch([.hits(indexName: "movies", parameters: recordedOrder)])], from: movies.engine)
        let replay = ReplayingSearchService(fixture: fixture)
        let replayed = try await replay.search(indexName: "movies", parameters: otherOrder)
        #expect(ServiceResponse.multiSearch([.hits(replayed)]) == fixture.entries[0].response)
    }

    @Test func anUnrecordedRequestIsAnErrorNamingItAndTheFixture() async throws {
        let folder = TemporaryDirectory()
        let fixtureURL = folder.url.appendingPathComponent("star-search.json")
        let movies = try MovieEngine()
        try await ReplayFixture.record([.multiSearch([.hits(indexName: "movies", parameters: SearchParameters(query: "star"))])],
                                       from: movies.engine).write(to: fixtureURL)
        let replay = try ReplayingSearchService(contentsOf: fixtureURL)

        let error = await #expect(throws: SearchError.self) { try await replay.search("stat") }
        let message = error?.message ?? ""
        #expect(message.contains(fixtureURL.path))
        #expect(message.contains(#""query":"stat""#))
        // …and shows what was recorded on that index, to spot the difference.
        #expect(message.contains(#""query":"star""#))

        let elsewhere = await #expect(throws: SearchError.self) { try await replay.search("star", in: "actors") }
        #expect(elsewhere?.message.contains("records no request on actors") == true)
    }

    @Test(arguments: [
        (ReplayingSearchService.RepeatPolicy.repeatLast, ["before", "after", "after"]),
        (.failWhenExhausted, ["before", "after", "error"]),
        (.alwaysFirst, ["before", "before", "before"]),
    ])
    func repeatedRequestsAreAnsweredAsThePolicySays(policy: ReplayingSearchService.RepeatPolicy, expected: [String]) async throws {
        // The engine's answers to one request before and after a record is added: two answers to it.
        let movies = try MovieEngine()
        let request = ServiceRequest.multiSearch([.hits(indexName: "movies", parameters: SearchParameters(query: "star"))])
        let before = try await request.send(to: movies.engine)
        try movies.engine.index("movies").saveObjects([["objectID": "6", "title": "Star Trek", "genre": "Science Fiction", "year": 1979]])
        let after = try await request.send(to: movies.engine)
        #expect(before != after)
        let replay = ReplayingSearchService(fixture: ReplayFixture(entries: [ReplayFixture.Entry(request: request, response: before),
                                                                             ReplayFixture.Entry(request: request, response: after)]),
                                            repeats: policy)

        func next() async -> String {
            do throws(SearchError) {
                let answer = try await request.send(to: replay)
                return answer == before ? "before" : answer == after ? "after" : "another answer"
            } catch {
                return error.message.contains("answers the request") && error.message.contains("2 time(s)") ? "error" : error.message
            }
        }
        var answers: [String] = []
        for _ in expected { answers.append(await next()) }
        #expect(answers == expected)

        replay.reset()
        #expect(await next() == "before")
    }

    // MARK: Malformed fixtures

    static let validEntry = #"{"request": {"operation": "multiSearch", "body": {"requests": [{"indexName": "movies", "query": "a"}], "strategy": "none"}}, "response": {"results": [{"hits": [], "nbHits": 0}]}}"#

    static func document(_ entries: String...) -> String {
        #"{"format": "SearchTestDoubles.ReplayFixture", "version": 1, "entries": ["# + entries.joined(separator: ",\n") + "]}"
    }

    @Test(arguments: [
        ("{\n  \"format\": \"SearchTestDoubles.ReplayFixture\",\n  \"version\": 1,\n  \"entries\": [,]\n}", "broken.json: invalid JSON at line 4, column 15"),
        (#"["not", "an", "object"]"#, "broken.json: expected a JSON object"),
        (#"{"format": "something else", "entries": []}"#, "broken.json: not a replay fixture"),
        (#"{"format": "SearchTestDoubles.ReplayFixture", "version": 2, "entries": []}"#, "broken.json: version 2 is not supported"),
        (#"{"format": "SearchTestDoubles.ReplayFixture", "version": 1}"#, "broken.json: entries: expected an array"),
        (ReplayTests.document(ReplayTests.validEntry, #"{"request": {"operation": "multiSearch", "body": {"requests": []}}}"#),
         #"broken.json: entry 1: expected an object with "request" and "response""#),
        (ReplayTests.document(ReplayTests.validEntry, ReplayTests.validEntry, #"{"request": {"operation": "search", "body": {}}, "response": {}}"#),
         #"broken.json: entry 2: request: operation: expected "multiSearch" or "searchForFacetValues", got "search""#),
        (ReplayTests.document(#"{"request": {"operation": "multiSearch", "body": {"requests": [{"query": "a"}]}}, "response": {"results": []}}"#),
         "broken.json: entry 0: request: body.requests[0]: indexName: expected the name of an index"),
        (ReplayTests.document(#"{"request": {"operation": "multiSearch", "body": {"requests": [{"indexName": "movies", "hitsPerPage": "many"}]}}, "response": {"results": []}}"#),
         "broken.json: entry 0: request: body.requests[0]: hitsPerPage:"),
        (ReplayTests.document(#"{"request": {"operation": "multiSearch", "body": {"requests": [{"indexName": "movies"}]}}, "response": {"results": [{"nbHits": 0}, {"nbHits": 0}]}}"#),
         "broken.json: entry 0: response: results: 2 answers to 1 queries"),
        (ReplayTests.document(#"{"request": {"operation": "multiSearch", "body": {"requests": [{"indexName": "movies"}]}}, "response": {"results": [{"hits": []}]}}"#),
         "broken.json: entry 0: response: results[0]: search response: nbHits is missing"),
        (ReplayTests.document(#"{"request": {"operation": "searchForFacetValues", "indexName": "movies", "facet": "genre", "body": {}}, "response": {"facetHits": [{"value": 3}]}}"#),
         "broken.json: entry 0: response: facet values response: facetHits[0]"),
    ])
    func aMalformedFixtureIsAnErrorSayingWhere(text: String, expectedStart: String) {
        let error = #expect(throws: SearchError.self) { try ReplayFixture(jsonText: text, source: "broken.json") }
        #expect(error?.message.hasPrefix(expectedStart) == true, "\(error?.message ?? "no error")")
    }

    @Test func aMissingFixtureFileIsAnErrorNamingIt() {
        let missing = URL(fileURLWithPath: "/nonexistent/fixture.json")
        let error = #expect(throws: SearchError.self) { try ReplayingSearchService(contentsOf: missing) }
        #expect(error?.message.hasPrefix("/nonexistent/fixture.json: the replay fixture could not be read") == true)
    }
}
