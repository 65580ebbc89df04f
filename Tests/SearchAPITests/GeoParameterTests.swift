import Foundation
import Testing
@testable import SearchAPI

/// The typed geo accessors read every form Algolia takes for an area, as the engine does: a
/// value sent as a string (a `params` string, an older client) reads back as the same areas.
@Suite struct GeoParameterTests {
    static let paris = [GeoBoundingBox(GeoLocation(lat: 48.8, lng: 2.3), GeoLocation(lat: 48.9, lng: 2.4))]
    static let two = paris + [GeoBoundingBox(GeoLocation(lat: 40.7, lng: -74.1), GeoLocation(lat: 40.8, lng: -73.9))]

    @Test(arguments: [
        (JSONValue.array([[48.8, 2.3, 48.9, 2.4]]), paris),
        (.array([48.8, 2.3, 48.9, 2.4]), paris),
        (.string("48.8,2.3,48.9,2.4"), paris),
        (.string(" 48.8, 2.3 ,48.9,2.4"), paris),
        (.string("[[48.8,2.3,48.9,2.4]]"), paris),
        (.array(["48.8", "2.3", "48.9", "2.4"]), paris),
        (.string("48.8,2.3,48.9,2.4,40.7,-74.1,40.8,-73.9"), two),
        (.array([48.8, 2.3, 48.9, 2.4, 40.7, -74.1, 40.8, -73.9]), two),
    ])
    func boundingBoxesInEveryForm(value: JSONValue, expected: [GeoBoundingBox]) {
        var parameters = SearchParameters()
        parameters.other["insideBoundingBox"] = value
        #expect(parameters.insideBoundingBox == expected, "\(value.jsonString)")
    }

    @Test func polygonsInEveryFormAndNothingFromMalformedValues() {
        let triangle = [GeoLocation(lat: 1, lng: 2), GeoLocation(lat: 3, lng: 4), GeoLocation(lat: 5, lng: 6)]
        for value: JSONValue in [[[1, 2, 3, 4, 5, 6]], [1, 2, 3, 4, 5, 6], "1,2,3,4,5,6", "[[1,2,3,4,5,6]]"] {
            var parameters = SearchParameters()
            parameters.other["insidePolygon"] = value
            #expect(parameters.insidePolygon == [triangle], "\(value.jsonString)")
        }
        for value: JSONValue in ["1,2,x,4", ["a", 1], "[1,2", true] {
            var parameters = SearchParameters()
            parameters.other["insideBoundingBox"] = value
            #expect(parameters.insideBoundingBox == nil, "\(value.jsonString)")
        }
        // Written as nested arrays, read back the same.
        var parameters = SearchParameters()
        parameters.insideBoundingBox = GeoParameterTests.two
        #expect(parameters.other["insideBoundingBox"] == [[48.8, 2.3, 48.9, 2.4], [40.7, -74.1, 40.8, -73.9]])
        #expect(parameters.insideBoundingBox == GeoParameterTests.two)
    }
}
