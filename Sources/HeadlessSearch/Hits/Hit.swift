import Foundation
import SearchAPI

/// A hit as Algolia returns it: the record, its `objectID`, and the `_highlightResult`,
/// `_snippetResult` and `_rankingInfo` that come with it. InstantSearch's `Hit`.
///
/// ```swift
/// struct Movie: Decodable { let title: String }
/// let interactor = HitsInteractor<Hit<Movie>>()
/// let hit = interactor.hit(atIndex: 0)
/// hit?.object.title
/// hit?.highlightedString(forKey: "title")?.taggedString.taggedSubstrings()
/// ```
public struct Hit<T: Decodable>: Decodable {
    /// The record's `objectID`.
    public let objectID: String
    /// The record.
    public let object: T
    /// `_highlightResult`, by attribute.
    public let highlightResult: TreeModel<HighlightResult>?
    /// `_snippetResult`, by attribute.
    public let snippetResult: TreeModel<SnippetResult>?
    /// `_rankingInfo` (with `getRankingInfo`).
    public let rankingInfo: JSONValue?

    private enum CodingKeys: String, CodingKey {
        case objectID
        case highlightResult = "_highlightResult"
        case snippetResult = "_snippetResult"
        case rankingInfo = "_rankingInfo"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        objectID = try container.decode(String.self, forKey: .objectID)
        object = try T(from: decoder)
        highlightResult = try container.decodeIfPresent(TreeModel<HighlightResult>.self, forKey: .highlightResult)
        snippetResult = try container.decodeIfPresent(TreeModel<SnippetResult>.self, forKey: .snippetResult)
        rankingInfo = try container.decodeIfPresent(JSONValue.self, forKey: .rankingInfo)
    }

    /// The highlighted value of an attribute (a dotted path for nested attributes), read with
    /// the tags the search used (`highlightPreTag` / `highlightPostTag`; Algolia's by default).
    public func highlightedString(forKey key: String, preTag: String = HighlightedString.preDefaultTag,
                                  postTag: String = HighlightedString.postDefaultTag) -> HighlightedString? {
        retagged(highlightResult?.value(atPath: key)?.value?.value, preTag: preTag, postTag: postTag)
    }

    /// The snippet of an attribute (a dotted path for nested attributes), read with the tags
    /// the search used.
    public func snippetString(forKey key: String, preTag: String = HighlightedString.preDefaultTag,
                              postTag: String = HighlightedString.postDefaultTag) -> HighlightedString? {
        retagged(snippetResult?.value(atPath: key)?.value?.value, preTag: preTag, postTag: postTag)
    }

    private func retagged(_ value: HighlightedString?, preTag: String, postTag: String) -> HighlightedString? {
        guard let value else { return nil }
        if preTag == value.taggedString.preTag && postTag == value.taggedString.postTag { return value }
        return HighlightedString(string: value.taggedString.input, preTag: preTag, postTag: postTag)
    }
}

extension Hit: Sendable where T: Sendable {}
extension Hit: Equatable where T: Equatable {}

/// A hit that does not decode as the record type the hits interactor expects: which hit, and
/// which field, and why.
public struct HitDecodingError: Error, CustomStringConvertible, Sendable {
    /// The hit's position in the results (its row).
    public let position: Int
    /// The hit's `objectID`, when it has one.
    public let objectID: String?
    /// The path of the field that failed (`price`, `author.name`); empty for the record itself.
    public let field: String
    /// What went wrong, from the decoder.
    public let reason: String

    public var description: String {
        let hit = objectID.map { "hit \(position) (objectID \"\($0)\")" } ?? "hit \(position)"
        let place = field.isEmpty ? "the record" : "field `\(field)`"
        return "\(hit) does not decode: \(place): \(reason)"
    }

    init(position: Int, objectID: String?, error: any Error) {
        self.position = position
        self.objectID = objectID
        let failure = DecodingFailure(error)
        field = failure.field
        reason = failure.reason
    }
}

/// Where a value the service sent failed to decode as an app's type, and why, read from the
/// decoder's error: what `HitDecodingError` and `QueryRuleCustomDataDecodingError` report.
struct DecodingFailure: Sendable {
    /// The path of the field that failed (`price`, `author.name`); empty for the value itself.
    let field: String
    /// What went wrong, from the decoder.
    let reason: String

    init(_ error: any Error) {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            field = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            reason = "missing"
        case .typeMismatch(let type, let context)?:
            field = context.codingPath.map(\.stringValue).joined(separator: ".")
            reason = context.debugDescription.isEmpty ? "expected \(type)" : context.debugDescription
        case .valueNotFound(let type, let context)?:
            field = context.codingPath.map(\.stringValue).joined(separator: ".")
            reason = "expected \(type), found null"
        case .dataCorrupted(let context)?:
            field = context.codingPath.map(\.stringValue).joined(separator: ".")
            reason = context.debugDescription
        default:
            field = ""
            reason = String(describing: error)
        }
    }
}

/// Decodes records from hits (`JSONValue`), reporting the field of a failure.
enum HitDecoder {
    static func decode<Record: Decodable>(_ hit: JSONValue, as type: Record.Type, position: Int) -> Result<Record, HitDecodingError> {
        do {
            return .success(try decodeJSONValue(hit, as: type))
        } catch {
            return .failure(HitDecodingError(position: position, objectID: hit["objectID"]?.scalarText, error: error))
        }
    }

    /// Decodes a value the service sent (a hit, a Rule's `userData`) as an app's type.
    static func decodeJSONValue<Model: Decodable>(_ value: JSONValue, as type: Model.Type) throws -> Model {
        // A JSONValue is always valid JSON, so the decoder sees exactly what the service sent.
        try JSONDecoder().decode(Model.self, from: Data(value.jsonBytes))
    }
}
