import Foundation
import SearchAPI

/// `GET /1/keys/{key}`: an API key's rights, in Algolia's shape. The admin key reads any key,
/// another key only itself (as with Algolia).
struct KeysHandler: Sendable {
    /// The rights of an API key as the server's authenticator reads it (nil: not a key of the server).
    let rightsOfKey: @Sendable (String) -> Access?
    /// When the server started: the `createdAt` of its keys.
    let started = Int64(Date().timeIntervalSince1970)

    func describe(_ key: String, _ operation: AlgoliaRequest) throws -> AlgoliaAnswer {
        guard operation.access == .admin || key == operation.caller.apiKey else { throw ServerError.methodNotAllowedWithKey }
        // The caller's own key: its rights as checked for this request (a secured key's
        // `restrictSources` included, which a second check without the address would refuse).
        guard let rights = key == operation.caller.apiKey ? operation.access : rightsOfKey(key) else {
            throw SearchError(.objectNotFound, "Key does not exist")
        }
        return .ok(describe(key, rights))
    }

    /// The key's ACL (the admin key holds every right this server has), and a secured key's
    /// restrictions.
    private func describe(_ key: String, _ rights: Access) -> JSONValue {
        let acl: [String]
        var indexes: [String] = []
        var validity: Int64 = 0
        var parameters = ""
        switch rights {
        case .admin:
            acl = ["search", "browse", "addObject", "deleteObject", "deleteIndex", "settings", "editSettings", "analytics", "listIndexes"]
        case .search:
            acl = ["search"]
        case .secured(let restrictions):
            acl = ["search"]
            indexes = restrictions.restrictIndices ?? []
            validity = restrictions.validUntil.map { max(0, $0 - Int64(Date().timeIntervalSince1970)) } ?? 0
            parameters = restrictions.searchParameters.map { key, value in
                FormURLEncoding.encode(key) + "=" + FormURLEncoding.encode(value.scalarText ?? value.jsonString)
            }.joined(separator: "&")
        }
        return ["value": .string(key), "createdAt": .int(started), "acl": .array(acl.map { .string($0) }),
                "description": .string(rights == .admin ? "admin" : "search"), "indexes": .array(indexes.map { .string($0) }),
                "maxHitsPerQuery": 0, "maxQueriesPerIPPerHour": 0, "queryParameters": .string(parameters),
                "referers": [], "validity": .int(validity)]
    }
}
