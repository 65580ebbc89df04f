import Crypto
import Foundation
import SearchAPI

/// What a secured API key restricts (Algolia's `SecuredApiKeyRestrictions`).
///
/// ```swift
/// var restrictions = SecuredApiKeyRestrictions(filters: "user_id:42")
/// restrictions.validUntil = Int64(Date().timeIntervalSince1970) + 3600
/// let key = try client.generateSecuredApiKey(parentApiKey: searchOnlyKey, restrictions: restrictions)
/// ```
public struct SecuredApiKeyRestrictions: Sendable, Hashable {
    /// Search parameters added to every query made with the key.
    public var searchParams: SearchParameters?
    /// A filter ANDed with every query's (`filters`).
    public var filters: String?
    /// Unix time after which the key is refused.
    public var validUntil: Int64?
    /// The indices the key may query: names or `*` patterns.
    public var restrictIndices: [String]?
    /// CIDR ranges the caller's address must be in, separated by `;` (`192.168.1.0/24;10.0.0.1/32`).
    public var restrictSources: String?
    /// The user the key is for (rate limits, analytics).
    public var userToken: String?

    /// Restrictions of the given kinds; each left nil does not restrict.
    public init(searchParams: SearchParameters? = nil, filters: String? = nil, validUntil: Int64? = nil,
                restrictIndices: [String]? = nil, restrictSources: String? = nil, userToken: String? = nil) {
        self.searchParams = searchParams
        self.filters = filters
        self.validUntil = validUntil
        self.restrictIndices = restrictIndices
        self.restrictSources = restrictSources
        self.userToken = userToken
    }

    /// The URL-encoded query string the key carries: every restriction (the search parameters
    /// flattened in), keys sorted, lists comma-separated, other structures as JSON. Written by
    /// `SecuredKeyQueryString`, which the server reads keys with.
    public var queryString: String {
        var parameters = searchParams?.jsonObject ?? JSONObject()
        if searchParams?.query.isEmpty == true { parameters["query"] = nil }
        if let filters { parameters["filters"] = .string(filters) }
        var restrictions = SecuredKeyQueryString(searchParameters: parameters, restrictIndices: restrictIndices,
                                                 validUntil: validUntil, restrictSources: restrictSources)
        if let userToken { restrictions.userToken = userToken }
        return restrictions.queryString
    }
}

extension SearchClient {
    /// A secured API key, computed here without a call, as Algolia's clients compute it:
    /// `base64(hex(HMAC-SHA256(parentApiKey, restrictions)) + restrictions)`, where
    /// `restrictions` is `SecuredApiKeyRestrictions.queryString`. Give it to a front end: it
    /// can only make the queries the restrictions allow.
    public func generateSecuredApiKey(parentApiKey: String, restrictions: SecuredApiKeyRestrictions) throws(SearchError) -> String {
        guard !parentApiKey.isEmpty else { throw .invalidParameter("parentApiKey", expected: "the API key the secured key derives from") }
        return SearchClient.securedApiKey(parentApiKey: parentApiKey, queryString: restrictions.queryString)
    }

    static func securedApiKey(parentApiKey: String, queryString: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(queryString.utf8), using: SymmetricKey(data: Data(parentApiKey.utf8)))
        let hex = mac.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined()
        return Data((hex + queryString).utf8).base64EncodedString()
    }
}
