import Foundation
@testable import OfflineSearchServer
import SearchAPI
import Testing

/// A secured key that confines searches to an area keeps them there, whatever geo parameters
/// the request adds (a box of the request's would otherwise beat the key's polygon or point).
@Suite struct SecuredGeoKeyTests {
    @Test(arguments: [
        "insidePolygon=%5B%5B48.9%2C2.2%2C48.9%2C2.4%2C48.8%2C2.3%5D%5D",
        "aroundLatLng=48.85%2C2.35&aroundRadius=1000",
        "aroundLatLng=48.85%2C2.35",
        "insideBoundingBox=%5B%5B48.8%2C2.2%2C48.9%2C2.4%5D%5D",
    ])
    func theKeysAreaCannotBeWidened(restrictions: String) throws {
        let key = try SecuredKeyRestrictions(queryString: restrictions)
        var request = SearchParameters(query: "cafe")
        request.insideBoundingBox = [GeoBoundingBox(GeoLocation(lat: -90, lng: -180), GeoLocation(lat: 90, lng: 180))]
        request.aroundRadius = .all
        request.other["minimumAroundRadius"] = 20_000_000
        let restricted = try key.restrict(request)
        let keyParameters = try SearchParameters(json: key.searchParameters)
        for name in SecuredKeyRestrictions.geoParameters {
            #expect(restricted.other[name] == keyParameters.other[name], "\(name)")
        }
        #expect(restricted.query == "cafe")
    }

    @Test func aKeyWithoutAreaLeavesTheRequestsGeoAlone() throws {
        let key = try SecuredKeyRestrictions(queryString: "filters=kind%3Acafe")
        var request = SearchParameters()
        request.aroundLatLng = GeoLocation(lat: 1, lng: 2)
        request.aroundRadius = .metres(500)
        let restricted = try key.restrict(request)
        #expect(restricted.aroundLatLng == GeoLocation(lat: 1, lng: 2))
        #expect(restricted.aroundRadius == .metres(500))
    }
}
