import Hummingbird
import SearchAPI

extension AlgoliaRoute {
    /// The route of a request's method (Hummingbird's) and decoded path segments.
    init(method: HTTPRequest.Method, segments: [String]) throws(AlgoliaRouteError) {
        try self.init(method: AlgoliaRoute.Method(rawValue: method.rawValue), segments: segments)
    }

    /// Whether a successful answer may be kept by the response cache: the searches, whose answer
    /// is a function of the request and of the indices it names.
    var isCacheable: Bool {
        switch self {
        case .search, .multiSearch, .searchFacetValues: true
        default: false
        }
    }
}

/// A path or method the route table refuses answers as Algolia does: 404, 405 or 400, with
/// Algolia's `{"message", "status"}` body.
extension AlgoliaRouteError: AlgoliaHTTPError {
    package var httpStatus: HTTPResponse.Status {
        switch kind {
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .malformedPath: .badRequest
        }
    }
}
