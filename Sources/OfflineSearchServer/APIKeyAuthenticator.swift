import Crypto
import Foundation
import SearchAPI

/// What a request may do, once its credentials are checked.
public enum Access: Sendable, Equatable {
    /// The admin key, or any credentials on a server without keys: everything.
    case admin
    /// The search key: Algolia's `search` ACL.
    case search
    /// A secured API key: the `search` ACL, with its restrictions on every request.
    case secured(SecuredKeyRestrictions)

    /// Who the response cache keeps answers for: the admin and search rights by name, a
    /// secured API key by the key itself (its restrictions shape the answer).
    func cacheIdentity(apiKey: String?) -> String {
        switch self {
        case .admin: "admin"
        case .search: "search"
        case .secured: "secured:" + (apiKey ?? "")
        }
    }

    /// Whether this access holds the ACL an operation needs.
    func allows(_ acl: AlgoliaACL) -> Bool {
        switch self {
        case .admin: true
        case .search, .secured: acl == .search || acl == .none
        }
    }
}

/// The restrictions a secured API key carries (`generateSecuredApiKey`'s query string).
public struct SecuredKeyRestrictions: Sendable, Equatable {
    /// Search parameters forced on every query; `filters` is ANDed with the request's.
    public var searchParameters: JSONObject = [:]
    /// `restrictIndices`: index names or `*` patterns.
    public var restrictIndices: [String]?
    /// `validUntil`: Unix time after which the key is refused.
    public var validUntil: Int64?
    /// `restrictSources`: CIDR ranges the caller's address must be in.
    public var restrictSources: [IPAddressRange]?
    /// `userToken`: the user the key is for.
    public var userToken: String?

    /// Reads the URL-encoded restrictions (`SecuredKeyQueryString`, the one reader the client's
    /// writer is tested against); a `validUntil` or a `restrictSources` that does not read
    /// makes the key invalid.
    init(queryString: String) throws(ServerError) {
        let restrictions: SecuredKeyQueryString
        do throws(SearchError) { restrictions = try SecuredKeyQueryString(decoding: queryString) } catch { throw .invalidCredentials }
        searchParameters = restrictions.searchParameters
        restrictIndices = restrictions.restrictIndices
        validUntil = restrictions.validUntil
        userToken = restrictions.userToken
        if let sources = restrictions.sourceRanges {
            var ranges: [IPAddressRange] = []
            for text in sources {
                guard let range = IPAddressRange(text) else { throw .invalidCredentials }
                ranges.append(range)
            }
            restrictSources = ranges
        }
    }

    /// Whether `restrictIndices` lets the key reach this index.
    func allowsIndex(_ name: String) -> Bool {
        guard let patterns = restrictIndices else { return true }
        return patterns.contains { WildcardPattern.matches($0, name) }
    }

    /// The parameters that place a search on the map.
    static let geoParameters: Set<String> = ["aroundLatLng", "aroundLatLngViaIP", "aroundRadius", "aroundPrecision",
                                             "minimumAroundRadius", "insideBoundingBox", "insidePolygon"]

    /// The request's search parameters with the key's forced on: `filters` ANDed with the
    /// request's, every other parameter replacing the request's.
    func restrict(_ parameters: SearchParameters) throws(SearchError) -> SearchParameters {
        guard !searchParameters.isEmpty else { return parameters }
        let forced = try SearchParameters(json: searchParameters)
        var object = parameters.jsonObject
        // A key that confines the search to an area confines it whatever the request adds: an
        // area of the request's own would otherwise win (a box beats a polygon and a point, and
        // a radius of the request's would widen the key's point).
        if !SecuredKeyRestrictions.geoParameters.isDisjoint(with: searchParameters.keys) {
            for key in SecuredKeyRestrictions.geoParameters { object[key] = nil }
        }
        for (key, value) in forced.jsonObject where key != "query" || searchParameters["query"] != nil {
            object[key] = value
        }
        if let keyFilters = forced.filters, let requestFilters = parameters.filters,
           !requestFilters.trimmingCharacters(in: .whitespaces).isEmpty {
            object["filters"] = .string("(\(keyFilters)) AND (\(requestFilters))")
        }
        return try SearchParameters(json: object)
    }
}

/// Checks credentials: the admin key, the search key, or a secured API key derived from one of
/// them (`base64(hex(HMAC-SHA256(parentKey, restrictions)) + restrictions)`).
struct APIKeyAuthenticator: Sendable {
    let configuration: ServerConfiguration

    /// The access these credentials give; throws Algolia's 403 when they give none.
    /// - Parameter peer: the caller's IP address, for `restrictSources`.
    func access(applicationID: String?, apiKey: String?, peer: String?, now: Date = Date()) throws(ServerError) -> Access {
        if configuration.isOpen { return .admin }
        if let expected = configuration.applicationID, applicationID != expected { throw .invalidCredentials }
        guard let apiKey, !apiKey.isEmpty else { throw .invalidCredentials }
        if let admin = configuration.adminKey, constantTimeEqual(apiKey, admin) { return .admin }
        if let search = configuration.searchKey, constantTimeEqual(apiKey, search) { return .search }
        guard let restrictions = try securedRestrictions(apiKey) else { throw .invalidCredentials }
        if let validUntil = restrictions.validUntil, Int64(now.timeIntervalSince1970) > validUntil { throw .invalidCredentials }
        if let sources = restrictions.restrictSources {
            guard let peer, sources.contains(where: { $0.contains(peer) }) else { throw .invalidCredentials }
        }
        return .secured(restrictions)
    }

    /// The restrictions of a secured API key signed by the search or the admin key, or nil.
    private func securedRestrictions(_ apiKey: String) throws(ServerError) -> SecuredKeyRestrictions? {
        guard let data = Data(base64Encoded: apiKey), data.count > 64,
              let decoded = String(data: data, encoding: .utf8) else { return nil }
        let signature = String(decoded.prefix(64))
        let restrictions = String(decoded.dropFirst(64))
        for parent in [configuration.searchKey, configuration.adminKey].compactMap({ $0 }) {
            let mac = HMAC<SHA256>.authenticationCode(for: Data(restrictions.utf8), using: SymmetricKey(data: Data(parent.utf8)))
            let hex = mac.map { String(format: "%02x", $0) }.joined()
            if constantTimeEqual(hex, signature.lowercased()) { return try SecuredKeyRestrictions(queryString: restrictions) }
        }
        return nil
    }

    private func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// `*` patterns of `restrictIndices`: `*` matches any run of characters.
enum WildcardPattern {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return pattern == text }
        guard text.hasPrefix(parts[0]) else { return false }
        var rest = Substring(text.dropFirst(parts[0].count))
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(parts.last!)
    }
}

/// An IPv4 or IPv6 range in CIDR notation (`192.168.1.0/24`, `::1/128`); a bare address is a
/// range of one.
public struct IPAddressRange: Sendable, Equatable {
    let bytes: [UInt8]
    let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let address = IPAddressRange.parse(first) else { return nil }
        let length = parts.count == 2 ? Int(parts[1]) : address.count * 8
        guard let length, (0...(address.count * 8)).contains(length) else { return nil }
        bytes = address
        prefixLength = length
    }

    /// Whether the address (IPv4, IPv6, or IPv4-mapped IPv6) is in the range.
    public func contains(_ text: String) -> Bool {
        guard var address = IPAddressRange.parse(text) else { return false }
        if address.count == 16, bytes.count == 4, address.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] {
            address = Array(address.suffix(4))
        }
        guard address.count == bytes.count else { return false }
        var remaining = prefixLength
        for (a, b) in zip(address, bytes) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if a & mask != b & mask { return false }
            remaining -= bits
        }
        return true
    }

    static func parse(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
