import Foundation
import Testing
@testable import HeadlessSearch
import OfflineSearch
import SearchAPI

/// A store locator on the bundled geo demo index: a `HitsSearcher` takes the geo parameters as
/// any other, through `SearchParameters`' typed accessors, and a map's panning (a new bounding
/// box per move) is one search per move.
@MainActor
@Suite struct GeoSearcherTests {
    @Test func storeLocatorAroundAPointThenAMapView() async throws {
        let test = try TestEngine()
        try test.importBundled("geo_demo_places")
        let searcher = HitsSearcher(service: test.engine, indexName: "geo_demo_places")
        let results = EventLog(searcher.onResults)

        searcher.request.parameters.aroundLatLng = GeoLocation(lat: 48.8566, lng: 2.3522)
        searcher.request.parameters.aroundRadius = .metres(3_000)
        searcher.request.parameters.getRankingInfo = true
        searcher.query = "coffee"
        searcher.search()
        #expect(await eventually { results.count == 1 })
        let near = try #require(results.last)
        #expect(near.nbHits > 0)
        let distances = near.hits.compactMap { $0["_rankingInfo"]?["matchedGeoLocation"]?["distance"]?.intValue }
        #expect(distances.count == near.hits.count && distances.allSatisfy { $0 <= 3_000 })
        #expect(distances.map { $0 / 10 } == distances.map { $0 / 10 }.sorted())
        #expect(near.hits.allSatisfy { $0["city"]?.stringValue == "Paris" })

        // The map view: the around parameters give way to the visible rectangle.
        searcher.request.parameters.aroundLatLng = nil
        searcher.request.parameters.aroundRadius = nil
        searcher.query = ""
        for step in 0..<3 {
            let west = 2.30 + Double(step) * 0.01
            searcher.request.parameters.insideBoundingBox = [GeoBoundingBox(GeoLocation(lat: 48.84, lng: west), GeoLocation(lat: 48.87, lng: west + 0.04))]
            searcher.search()
            #expect(await eventually { results.count == 2 + step })
            let visible = try #require(results.last)
            #expect(visible.nbHits > 0)
            for hit in visible.hits {
                let lat = hit["_geoloc"]?["lat"]?.doubleValue ?? hit["_geoloc"]?.arrayValue?.first?["lat"]?.doubleValue ?? 0
                #expect((48.84...48.87).contains(lat))
            }
        }
        #expect(searcher.request.parameters.urlEncoded.contains("insideBoundingBox="))
    }
}
