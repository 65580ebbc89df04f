import Foundation
import Testing
import SearchAPI

/// The restrictions part of a secured API key, written by the remote client and read by the
/// server through one type: what one side writes, the other reads back.
@Suite struct SecuredKeyQueryStringTests {
    @Test func everyRestrictionReadsBack() throws {
        var restrictions = SecuredKeyQueryString(
            searchParameters: ["filters": #"brand:"Acme & Co" AND price < 10"#, "hitsPerPage": "5", "query": "café ☕️",
                               "analyticsTags": "a+b=c"],
            restrictIndices: ["products", "products_*", "my index"],
            validUntil: 2_000_000_000,
            restrictSources: "192.168.1.0/24;10.0.0.1/32")
        restrictions.userToken = "user 42/é"
        let text = restrictions.queryString
        #expect(try SecuredKeyQueryString(decoding: text) == restrictions, "\(text)")
        // One pair per restriction and parameter, nothing a query string would misread.
        #expect(text.split(separator: "&").count == 8)
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII && $0 != " " })
        #expect(restrictions.sourceRanges == ["192.168.1.0/24", "10.0.0.1/32"])
    }

    @Test func theQueryStringIsTheOneAlgoliasClientsSign() throws {
        let text = "filters=user%3A42&restrictIndices=a%2Cb&validUntil=2000000000"
        let restrictions = SecuredKeyQueryString(searchParameters: ["filters": "user:42"], restrictIndices: ["a", "b"],
                                                 validUntil: 2_000_000_000)
        #expect(restrictions.queryString == text)
        #expect(try SecuredKeyQueryString(decoding: text) == restrictions)
    }

    @Test func theFormsOtherClientsWriteAreRead() throws {
        let read = try SecuredKeyQueryString(decoding: "restrictIndices=%5B%22a%22%2C%22b%22%5D&referers=%2A.example.com"
                                             + "&userToken=u1&restrictSources=10.0.0.0%2F8%2C+192.168.1.1")
        #expect(read.restrictIndices == ["a", "b"])
        #expect(read.userToken == "u1")
        // `referers` is not a search parameter; `userToken` is one too.
        #expect(read.searchParameters == ["userToken": "u1"])
        #expect(read.sourceRanges == ["10.0.0.0/8", "192.168.1.1"])
    }

    @Test func structuredParametersReadBackAsTheSameSearch() throws {
        var parameters = SearchParameters(query: "phone")
        parameters.facets = ["brand", "color"]
        parameters.hitsPerPage = 5
        parameters.other["insidePolygon"] = [[48.9, 2.2, 48.9, 2.4, 48.8, 2.3]]
        let written = SecuredKeyQueryString(searchParameters: parameters.jsonObject).queryString
        let search = try SearchParameters(json: SecuredKeyQueryString(decoding: written).searchParameters)
        #expect(search.query == "phone")
        #expect(search.facets == ["brand", "color"])
        #expect(search.hitsPerPage == 5)
        #expect(search.insidePolygon != nil && search.insidePolygon == parameters.insidePolygon)
    }

    @Test func aValidUntilThatIsNotANumberIsRefused() {
        let error = #expect(throws: SearchError.self) { try SecuredKeyQueryString(decoding: "filters=a%3A1&validUntil=soon") }
        #expect(error?.kind == .invalidParameter)
        #expect(error?.message == #"validUntil: expected a Unix time in seconds such as 2000000000, got "soon""#)
    }

    /// The server trimmed each item of a list with Foundation's `.whitespaces` (spaces and tabs,
    /// not line breaks); the shared reader trims the same.
    @Test(arguments: ["a, b ,c", "a,\tb\u{00A0}", "a,\nb", " ", "a,,b", "\u{3000}x\u{2003}"])
    func listItemsAreTrimmedAsFoundationTrimmedThem(text: String) {
        let before = text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        #expect(FormURLEncoding.list(text) == before)
    }
}
