import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI
import SearchTestDoubles

/// One facet ordering of `renderingContent` and the facets it shows, for the table below.
struct FacetOrderingCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// The response's `renderingContent`, as JSON.
    let renderingContent: String
    /// Each facet shown, in order: `attribute: value, value, ...`.
    let expected: [String]

    var testDescription: String { name }

    /// The cases, on the facets of `RulesTests.facets`: brand Acme 4, Globex 3, Initech 2,
    /// Umbrella 1; color red 4, green 3, blue 3 (green before blue, as a service may tie them);
    /// type phone 6, case 4.
    static let all: [FacetOrderingCase] = [
        FacetOrderingCase(name: "no facetOrdering: no facet shown", renderingContent: #"{}"#, expected: []),
        FacetOrderingCase(name: "values rules without facets.order: no facet shown",
                          renderingContent: #"{"facetOrdering": {"values": {"brand": {"order": ["Initech"]}}}}"#, expected: []),
        FacetOrderingCase(name: "the facets of facets.order, in that order; the others left out",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["type", "brand"]}}}"#,
                          expected: ["type: phone, case", "brand: Acme, Globex, Initech, Umbrella"]),
        FacetOrderingCase(name: "* alone: every facet, in the response's order",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["*"]}}}"#,
                          expected: ["brand: Acme, Globex, Initech, Umbrella", "color: red, green, blue", "type: phone, case"]),
        FacetOrderingCase(name: "* stands for the facets the order does not name, wherever they are",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["color", "*", "brand"]}}}"#,
                          expected: ["color: red, green, blue", "type: phone, case", "brand: Acme, Globex, Initech, Umbrella"]),
        FacetOrderingCase(name: "a facet the response has no counts for is left out",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["size", "brand"]}}}"#,
                          expected: ["brand: Acme, Globex, Initech, Umbrella"]),
        FacetOrderingCase(name: "pinned values first, the others alphabetically, hidden values out",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["brand"]}, "values": {"brand": {"order": ["Initech"], "sortRemainingBy": "alpha", "hide": ["Umbrella"]}}}}"#,
                          expected: ["brand: Initech, Acme, Globex"]),
        FacetOrderingCase(name: "the others by count, equal counts alphabetically",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["color"]}, "values": {"color": {"sortRemainingBy": "count"}}}}"#,
                          expected: ["color: red, blue, green"]),
        FacetOrderingCase(name: "sortRemainingBy is count when not given",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["brand"]}, "values": {"brand": {"order": ["Umbrella"]}}}}"#,
                          expected: ["brand: Umbrella, Acme, Globex, Initech"]),
        FacetOrderingCase(name: "hidden: the pinned values present, nothing else",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["color"]}, "values": {"color": {"order": ["blue", "purple", "green"], "sortRemainingBy": "hidden"}}}}"#,
                          expected: ["color: blue, green"]),
        FacetOrderingCase(name: "hide wins over order",
                          renderingContent: #"{"facetOrdering": {"facets": {"order": ["brand"]}, "values": {"brand": {"order": ["Globex", "Initech"], "hide": ["Globex"]}}}}"#,
                          expected: ["brand: Initech, Acme, Umbrella"]),
    ]
}

/// The widgets that show what Algolia Rules add to a response: custom data (`userData`), and
/// the facet ordering and the redirect of `renderingContent`. Most searches go to a
/// `ReplayingSearchService` serving the engine's answers, recorded, with a Rule's consequences
/// written in (each case exactly as wanted); `theEngineSRulesReachTheWidgets` runs the same
/// widgets on the engine with real Rules saved on the index.
@MainActor
@Suite struct RulesTests {
    /// Ten products: brand Acme ×4, Globex ×3, Initech ×2, Umbrella ×1; color red ×4 (p0, p3,
    /// p6, p9), blue ×3 (p1, p4, p7), green ×3 (p2, p5, p8); type phone ×6 (p0–p5), case ×4.
    static func catalogue() -> [JSONValue] {
        (0..<10).map { (i: Int) -> JSONValue in
            var record = JSONObject()
            record["objectID"] = .string("p\(i)")
            record["name"] = .string("item \(i)")
            record["brand"] = .string(i < 4 ? "Acme" : i < 7 ? "Globex" : i < 9 ? "Initech" : "Umbrella")
            record["color"] = .string(["red", "blue", "green"][i % 3])
            record["type"] = .string(i < 6 ? "phone" : "case")
            return .object(record)
        }
    }

    static let settings: JSONObject = ["searchableAttributes": ["name"], "attributesForFaceting": ["brand", "color", "type"]]

    /// The request a `HitsSearcher` on `products` sends for these parameters and filters: the
    /// queries of its plan (the main query, and a count query per refined OR group).
    static func request(_ parameters: SearchParameters, filters: Filters? = nil, page: Int = 0) -> ServiceRequest {
        .multiSearch(HitsQueryPlan(indexName: "products", parameters: parameters, filters: filters, page: page,
                                   disjunctiveFaceting: true, keepSelectedEmptyFacets: true).queries)
    }

    /// Algolia with a Rule, served back with no engine: the engine's answers to `requests`,
    /// recorded, then `rule` writes its consequences into each answer to a main query (the
    /// response a searcher publishes).
    static func replaying(_ requests: [ServiceRequest], rule: (inout SearchResponse) -> Void) async throws -> ReplayingSearchService {
        let test = try TestEngine()
        try test.index("products", settings: settings, records: catalogue())
        var fixture = try await ReplayFixture.record(requests, from: test.engine)
        for position in fixture.entries.indices {
            guard case .multiSearch(var results) = fixture.entries[position].response,
                  case .hits(var main)? = results.first else { continue }
            rule(&main)
            results[0] = .hits(main)
            fixture.entries[position].response = .multiSearch(results)
        }
        return ReplayingSearchService(fixture: fixture, source: "the rules fixture")
    }

    /// Waits until `count` searches have come back, answered or failed.
    static func waitForSearches(_ count: Int, _ results: EventLog<SearchResponse>, _ errors: EventLog<SearchError>) async -> Bool {
        await eventually { results.count + errors.count >= count }
    }

    /// Each facet as `attribute: value, value` (with the counts: `value (count)`).
    static func rendered(_ orderedFacets: [AttributedFacets], counts: Bool = false) -> [String] {
        orderedFacets.map { attributed in
            "\(attributed.attribute): " + attributed.facets.map { counts ? $0.description : $0.value }.joined(separator: ", ")
        }
    }

    // MARK: Custom data

    struct Banner: Decodable, Equatable {
        let title: String
        let link: String
    }

    @Test func customDataIsTheFirstRuleUserDataThatDecodesAsTheAppsType() async throws {
        let service = try await Self.replaying([
            Self.request(SearchParameters(query: "sale")),
            Self.request(SearchParameters(query: "plain")),
            Self.request(SearchParameters(query: "broken")),
        ]) { response in
            switch response.query {
            case "sale":
                // Two Rules applied: the first one's custom data is another widget's.
                response.userData = [["redirectTo": "help"], ["title": "Spring sale", "link": "https://example.com/sale"]]
                response.appliedRules = ["help-links", "spring-sale"]
            case "broken":
                response.userData = [["title": 42, "link": "https://example.com/sale"], ["headline": "Spring sale"]]
                response.appliedRules = ["spring-sale", "headline"]
            default:
                break
            }
        }
        let searcher = HitsSearcher(service: service, indexName: "products", query: "sale")
        let banner = QueryRuleCustomDataInteractor<Banner>()
        banner.connectSearcher(searcher)
        let items = EventLog(banner.onItemChanged)
        let decodingErrors = EventLog(banner.onError)
        let results = EventLog(searcher.onResults)
        let errors = EventLog(searcher.onError)

        searcher.search()
        #expect(await Self.waitForSearches(1, results, errors))
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(banner.item == Banner(title: "Spring sale", link: "https://example.com/sale"))
        #expect(decodingErrors.values.isEmpty, "another widget's custom data is passed over, not an error")

        searcher.query = "plain"
        searcher.search()
        #expect(await Self.waitForSearches(2, results, errors))
        #expect(banner.item == nil, "a response without userData has no custom data")
        #expect(decodingErrors.values.isEmpty)

        searcher.query = "broken"
        searcher.search()
        #expect(await Self.waitForSearches(3, results, errors))
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(banner.item == nil)
        let failure = try #require(decodingErrors.last)
        #expect(decodingErrors.count == 1)
        #expect(failure.failures.map(\.position) == [0, 1])
        #expect(failure.failures.map(\.field) == ["title", "title"])
        #expect(failure.failures.last?.reason == "missing")
        #expect(failure.description.hasPrefix("no userData item decodes as Banner: item 0: field `title`"))
        // Set, cleared; staying nil fires nothing.
        #expect(items.values.map { $0?.title } == ["Spring sale", nil])
    }

    @Test func customDataConnectedAfterAResponseShowsIt() {
        // Nothing is searched: the response is the searcher's last, as if it had arrived.
        let searcher = HitsSearcher(service: ReplayingSearchService(fixture: ReplayFixture()), indexName: "products")
        var response = SearchResponse()
        response.userData = [["title": "Spring sale", "link": "https://example.com/sale"]]
        searcher.onResults.fire(response)
        let banner = QueryRuleCustomDataInteractor<Banner>()
        let connection = banner.connectSearcher(searcher)
        #expect(banner.item?.title == "Spring sale")
        connection.disconnect()
        searcher.onResults.fire(SearchResponse())
        #expect(banner.item?.title == "Spring sale", "a disconnected interactor takes no response in")
    }

    // MARK: Redirect

    @Test func aRedirectFiresOncePerSearchThatARuleRedirects() async throws {
        let helpPage = try #require(URL(string: "https://example.com/help"))
        var item = SearchParameters(query: "item")
        item.hitsPerPage = 5
        var other = item
        other.query = "other"
        let service = try await Self.replaying([
            Self.request(item), Self.request(item, page: 1), Self.request(other),
        ]) { response in
            if response.query == "item" { response.renderingContent["redirect"] = JSONValue.object(["url": "https://example.com/help"]) }
        }
        let searcher = HitsSearcher(service: service, indexName: "products", parameters: item)
        let redirect = RedirectInteractor()
        redirect.connectSearcher(searcher)
        let redirects = EventLog(redirect.onRedirect)
        let results = EventLog(searcher.onResults)
        let errors = EventLog(searcher.onError)

        searcher.search()
        #expect(await Self.waitForSearches(1, results, errors))
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(redirects.values == [helpPage])
        #expect(redirect.url == helpPage)
        #expect(results.last?.redirectURL == helpPage)

        searcher.loadPage(atIndex: 1)
        #expect(await Self.waitForSearches(2, results, errors))
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(results.last?.page == 1)
        #expect(redirects.count == 1, "a further page of the same search does not redirect again")

        searcher.search()
        #expect(await Self.waitForSearches(3, results, errors))
        #expect(redirects.values == [helpPage, helpPage], "the same query searched again redirects again")

        searcher.query = "other"
        searcher.search()
        #expect(await Self.waitForSearches(4, results, errors))
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(redirect.url == nil)
        #expect(redirects.count == 2)
    }

    @Test func aRedirectURLIsTheStringURLOfRenderingContentRedirect() {
        var response = SearchResponse()
        #expect(response.redirectURL == nil)
        response.renderingContent["redirect"] = JSONValue.object(["url": ""])
        #expect(response.redirectURL == nil)
        response.renderingContent["redirect"] = JSONValue.object(["url": 42])
        #expect(response.redirectURL == nil)
        response.renderingContent["redirect"] = JSONValue.object(["url": "https://example.com/help?from=search"])
        #expect(response.redirectURL == URL(string: "https://example.com/help?from=search"))
    }

    // MARK: Dynamic facets

    static let facets: [FacetCounts] = [
        FacetCounts(attribute: "brand", values: [(value: "Acme", count: 4), (value: "Globex", count: 3),
                                                 (value: "Initech", count: 2), (value: "Umbrella", count: 1)]),
        FacetCounts(attribute: "color", values: [(value: "red", count: 4), (value: "green", count: 3), (value: "blue", count: 3)]),
        FacetCounts(attribute: "type", values: [(value: "phone", count: 6), (value: "case", count: 4)]),
    ]

    @Test(arguments: FacetOrderingCase.all)
    func facetsAndValuesInTheOrderOfRenderingContent(_ testCase: FacetOrderingCase) throws {
        var response = SearchResponse()
        response.facets = Self.facets
        response.renderingContent = try JSONValue(parsing: testCase.renderingContent).objectValue ?? [:]
        let interactor = DynamicFacetListInteractor()
        interactor.update(response)
        #expect(Self.rendered(interactor.orderedFacets) == testCase.expected)
    }

    @Test func selectionsAreFacetFiltersInEachAttributesGroup() {
        let filterState = FilterState()
        let interactor = DynamicFacetListInteractor(selectionModeForAttribute: ["brand": .multiple])
        #expect(interactor.selectionMode(for: "brand") == .multiple)
        #expect(interactor.selectionMode(for: "color") == .single, "single selection by default, as in InstantSearch")
        interactor.connectFilterState(filterState, filterGroupForAttribute: [
            "brand": FilterGroupDescriptor(groupName: "brands", refinementOperator: .or),
        ])
        let computed = EventLog(interactor.onSelectionsComputed)

        interactor.toggleSelection(ofFacetValue: "Acme", for: "brand")
        interactor.toggleSelection(ofFacetValue: "Globex", for: "brand")
        #expect(filterState.filters.filtersString == #"("brand":"Acme" OR "brand":"Globex")"#)

        // An attribute without a descriptor: an `and` group named after it; one value at a time.
        interactor.toggleSelection(ofFacetValue: "red", for: "color")
        interactor.toggleSelection(ofFacetValue: "blue", for: "color")
        #expect(filterState.filters.filters(forGroupWithID: .and(name: "color")) == [.facet(Filter.Facet(attribute: "color", stringValue: "blue"))])
        #expect(interactor.selections == ["brand": ["Acme", "Globex"], "color": ["blue"]])
        #expect(interactor.isSelected(facetValue: "blue", for: "color"))
        #expect(!interactor.isSelected(facetValue: "red", for: "color"))

        interactor.toggleSelection(ofFacetValue: "Acme", for: "brand")
        interactor.toggleSelection(ofFacetValue: "blue", for: "color")
        #expect(filterState.filters.filtersString == #""brand":"Globex""#)
        #expect(interactor.selections == ["brand": ["Globex"]])
        #expect(computed.count == 6)
        let lastComputed: DynamicFacetListInteractor.SelectionsPerAttribute = ["brand": ["Globex"], "color": []]
        #expect(computed.last == lastComputed, "the computed selections name the attribute emptied")

        // The filter state drives the selections too.
        filterState[or: "brands"].add(Filter.Facet(attribute: "brand", stringValue: "Initech"))
        filterState.notifyChange()
        #expect(interactor.selections == ["brand": ["Globex", "Initech"]])
        // A negated filter, or one in another group, is not a selection.
        filterState[or: "brands"].add(Filter.Facet(attribute: "brand", stringValue: "Hooli", isNegated: true))
        filterState[and: "brand"].add(Filter.Facet(attribute: "brand", stringValue: "Umbrella"))
        filterState.notifyChange()
        #expect(interactor.selections == ["brand": ["Globex", "Initech"]])
    }

    @Test func aFacetThatAppearsShowsTheValuesAlreadyRefined() throws {
        let filterState = FilterState()
        filterState[and: "color"].add(Filter.Facet(attribute: "color", stringValue: "green"))
        let interactor = DynamicFacetListInteractor()
        interactor.connectFilterState(filterState)
        #expect(interactor.selections.isEmpty, "color is not shown yet")
        var response = SearchResponse()
        response.facets = Self.facets
        response.renderingContent = try JSONValue(parsing: #"{"facetOrdering": {"facets": {"order": ["color"]}}}"#).objectValue ?? [:]
        interactor.update(response)
        #expect(interactor.selections == ["color": ["green"]])
        // Selecting another value replaces it (single selection), keeping the negated filter.
        filterState[and: "color"].add(Filter.Facet(attribute: "color", stringValue: "blue", isNegated: true))
        interactor.toggleSelection(ofFacetValue: "red", for: "color")
        #expect(filterState.filters.filtersString == #"NOT "color":"blue" AND "color":"red""#)
    }

    @Test func aControllerShowsTheOrderAndTogglesWhatIsClicked() throws {
        final class Panel: DynamicFacetListController {
            var didSelect: ((String, Facet) -> Void)?
            var shown: [AttributedFacets] = []
            var selected: [String: Set<String>] = [:]
            func setOrderedFacets(_ orderedFacets: [AttributedFacets]) { shown = orderedFacets }
            func setSelections(_ selections: [String: Set<String>]) { selected = selections }
        }
        let filterState = FilterState()
        let interactor = DynamicFacetListInteractor()
        interactor.connectFilterState(filterState)
        let panel = Panel()
        interactor.connectController(panel)
        var response = SearchResponse()
        response.facets = Self.facets
        response.renderingContent = try JSONValue(parsing: #"{"facetOrdering": {"facets": {"order": ["type", "color"]}}}"#).objectValue ?? [:]
        interactor.update(response)
        #expect(Self.rendered(panel.shown) == ["type: phone, case", "color: red, green, blue"])
        let red = try #require(panel.shown.last?.facets.first)
        panel.didSelect?("color", red)
        #expect(filterState.filters.filtersString == #""color":"red""#)
        #expect(panel.selected == ["color": ["red"]])
        panel.didSelect?("color", red)
        #expect(filterState.filters.isEmpty)
        #expect(panel.selected == [:])
    }

    @Test func dynamicFacetsFollowTheRuleAndRefineTheSearch() async throws {
        var parameters = SearchParameters(query: "item")
        parameters.facets = ["brand", "color", "type"]
        let brands = FilterGroupDescriptor(groupName: "brand", refinementOperator: .or)
        var acme = Filters()
        acme.add(Filter.Facet(attribute: "brand", stringValue: "Acme"), toGroupWithID: brands.groupID)
        var acmeOrGlobex = acme
        acmeOrGlobex.add(Filter.Facet(attribute: "brand", stringValue: "Globex"), toGroupWithID: brands.groupID)
        // A merchandising Rule: color first, then brand, then the rest; Initech pinned and
        // Umbrella hidden; green pinned; types alphabetically.
        let merchandising = try JSONValue(parsing: #"""
            {"facetOrdering": {"facets": {"order": ["color", "brand", "*"]},
                               "values": {"brand": {"order": ["Initech"], "sortRemainingBy": "alpha", "hide": ["Umbrella"]},
                                          "color": {"order": ["green"], "sortRemainingBy": "count"},
                                          "type": {"sortRemainingBy": "alpha"}}}}
            """#).objectValue ?? [:]
        let service = try await Self.replaying([
            Self.request(parameters, filters: Filters()),
            Self.request(parameters, filters: acme),
            Self.request(parameters, filters: acmeOrGlobex),
        ]) { response in
            response.renderingContent = merchandising
        }
        let searcher = HitsSearcher(service: service, indexName: "products", parameters: parameters)
        let filterState = FilterState()
        let connector = DynamicFacetListConnector(searcher: searcher, filterState: filterState,
                                                  selectionModeForAttribute: ["brand": .multiple],
                                                  filterGroupForAttribute: ["brand": brands])
        #expect(searcher.filterState === filterState)
        let facets = connector.interactor
        let results = EventLog(searcher.onResults)
        let errors = EventLog(searcher.onError)

        searcher.search()
        #expect(await Self.waitForSearches(1, results, errors))
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(Self.rendered(facets.orderedFacets, counts: true) == [
            "color: green (3), red (4), blue (3)",
            "brand: Initech (2), Acme (4), Globex (3)",
            "type: case (4), phone (6)",
        ])

        facets.toggleSelection(ofFacetValue: "Acme", for: "brand")
        #expect(filterState.filters == acme)
        #expect(await Self.waitForSearches(2, results, errors))
        #expect(errors.values.isEmpty, "the search sent the refinement: \(errors.values)")
        #expect(results.last?.nbHits == 4)
        #expect(facets.selections == ["brand": ["Acme"]])
        #expect(Self.rendered(facets.orderedFacets, counts: true) == [
            "color: green (1), red (2), blue (1)",
            "brand: Initech (2), Acme (4), Globex (3)",   // an OR group: counted without its own refinement
            "type: phone (4)",
        ])

        facets.toggleSelection(ofFacetValue: "Globex", for: "brand")
        #expect(filterState.filters == acmeOrGlobex)
        #expect(await Self.waitForSearches(3, results, errors))
        #expect(errors.values.isEmpty, "the search sent the refinement: \(errors.values)")
        #expect(results.last?.nbHits == 7)
        #expect(facets.selections == ["brand": ["Acme", "Globex"]])
        #expect(Self.rendered(facets.orderedFacets, counts: true) == [
            "color: green (2), red (3), blue (2)",
            "brand: Initech (2), Acme (4), Globex (3)",
            "type: case (1), phone (6)",
        ])
    }

    // MARK: On the engine

    @Test func theEngineSRulesReachTheWidgets() async throws {
        let test = try TestEngine()
        let index = try test.index("products", settings: Self.settings, records: Self.catalogue())
        try index.saveRules([
            ["objectID": "banner", "conditions": [["pattern": "item", "anchoring": "contains"]],
             "consequence": ["userData": ["title": "Spring sale", "link": "https://example.com/sale"],
                             "params": ["renderingContent": ["facetOrdering": ["facets": ["order": ["type", "brand"]]]]]]],
            ["objectID": "help", "conditions": [["pattern": "help", "anchoring": "is"]],
             "consequence": ["params": ["renderingContent": ["redirect": ["url": "https://example.com/help"]]]]],
        ])
        var parameters = SearchParameters(query: "item")
        parameters.facets = ["brand", "type"]
        let searcher = HitsSearcher(service: test.engine, indexName: "products", parameters: parameters)
        let banner = QueryRuleCustomDataInteractor<Banner>()
        banner.connectSearcher(searcher)
        let facets = DynamicFacetListInteractor()
        facets.connectSearcher(searcher)
        let redirect = RedirectInteractor()
        redirect.connectSearcher(searcher)
        let redirects = EventLog(redirect.onRedirect)
        let results = EventLog(searcher.onResults)
        let errors = EventLog(searcher.onError)

        searcher.search()
        #expect(await Self.waitForSearches(1, results, errors))
        #expect(errors.values.isEmpty, "\(errors.values)")
        #expect(banner.item == Banner(title: "Spring sale", link: "https://example.com/sale"))
        #expect(Self.rendered(facets.orderedFacets) == ["type: phone, case", "brand: Acme, Globex, Initech, Umbrella"])
        #expect(redirects.values.isEmpty)

        searcher.query = "help"
        searcher.search()
        #expect(await Self.waitForSearches(2, results, errors))
        #expect(banner.item == nil)
        #expect(redirects.values == [URL(string: "https://example.com/help")!])
    }
}
