import SearchAPI

/// Turns a stored record into a hit: the retrieved attributes, `_highlightResult`,
/// `_snippetResult`.
///
/// A class: a page's hits share one builder, which holds the whole request; as a struct it was
/// copied (and every array and string in it retained and released) for hit after hit.
final class HitBuilder {
    let request: SearchRequest
    let unretrievable: Set<String>
    let highlighter: HighlightBuilder
    /// The searchable attributes of `camelCaseAttributes` and of `decompoundedAttributes`,
    /// highlighted as they were indexed.
    let camelCase: [String]
    let decompounded: [(path: String, compounds: CompoundSplitter)]

    init(request: SearchRequest, configuration: IndexConfiguration, candidates: CandidateMatches?) {
        self.request = request
        unretrievable = configuration.unretrievable
        highlighter = HighlightBuilder(words: request.words, preTag: request.highlightPreTag, postTag: request.highlightPostTag,
                                       separators: configuration.separators, variantTerms: candidates?.variantTerms ?? [])
        camelCase = (configuration.searchable ?? []).filter(\.splitsCamelCase).map(\.path)
        decompounded = (configuration.searchable ?? []).compactMap { attribute in attribute.compounds.map { (attribute.path, $0) } }
    }

    /// `body` with the highlighter for the attribute at `path`: camel-case words split when it
    /// is one of `camelCaseAttributes` (or inside one), a compound wrapped whole for a query word
    /// that is one of its parts when it is one of `decompoundedAttributes`. The builder's own
    /// highlighter is lent, not copied, where the attribute needs neither.
    func withHighlighter<Result>(for path: String, _ body: (HighlightBuilder) -> Result) -> Result {
        func covers(_ attribute: String) -> Bool { path == attribute || path.hasPrefix(attribute + ".") }
        let splitsCamelCase = !camelCase.isEmpty && camelCase.contains(where: covers)
        let compounds = decompounded.isEmpty ? nil : decompounded.first(where: { covers($0.path) })?.compounds
        guard splitsCamelCase || compounds != nil else { return body(highlighter) }
        var adapted = highlighter
        if splitsCamelCase { adapted.separators = adapted.separators.splittingCamelCase }
        if let compounds { adapted.compounds = compounds }
        return body(adapted)
    }

    /// The hit for a stored record; `rankingInfo`, when given, its `_rankingInfo`.
    func hit(for record: JSONObject, rankingInfo: JSONValue? = nil) -> JSONValue {
        var hit = retrieved(record)
        var highlights = JSONObject()
        for path in expand(request.attributesToHighlight, in: record) {
            guard let value = JSONValue.object(record).value(atPath: path),
                  let mapped = withHighlighter(for: path, { highlighter in highlighter.mapText(in: value) { highlighter.highlight($0) } })
            else { continue }
            HitBuilder.set(mapped, atPath: path, in: &highlights)
        }
        for path in unretrievable { HitBuilder.remove(path: path, from: &highlights) }
        if !highlights.isEmpty || !request.attributesToHighlight.isEmpty { hit["_highlightResult"] = .object(highlights) }
        if !request.attributesToSnippet.isEmpty {
            var snippets = JSONObject()
            for (path, words) in request.attributesToSnippet {
                for expanded in expand([path], in: record) {
                    guard let value = JSONValue.object(record).value(atPath: expanded),
                          let mapped = withHighlighter(for: expanded, { highlighter in
                              highlighter.mapText(in: value) { highlighter.snippet($0, wordCount: words, ellipsis: request.snippetEllipsisText) }
                          })
                    else { continue }
                    HitBuilder.set(mapped, atPath: expanded, in: &snippets)
                }
            }
            for path in unretrievable { HitBuilder.remove(path: path, from: &snippets) }
            hit["_snippetResult"] = .object(snippets)
        }
        if let rankingInfo { hit["_rankingInfo"] = rankingInfo }
        return .object(hit)
    }

    /// `attributesToRetrieve`: `*` for all, `-attr` to exclude, paths for nested values;
    /// `objectID` always; `unretrievableAttributes` never.
    func retrieved(_ record: JSONObject) -> JSONObject {
        HitBuilder.retrieved(record, attributesToRetrieve: request.attributesToRetrieve, unretrievable: unretrievable)
    }

    /// `retrieved(_:)` for any list (get objects uses it too).
    static func retrieved(_ record: JSONObject, attributesToRetrieve list: [String], unretrievable: Set<String>) -> JSONObject {
        var result: JSONObject
        if list.contains("*") {
            result = record
            for entry in list where entry.hasPrefix("-") { HitBuilder.remove(path: String(entry.dropFirst()), from: &result) }
        } else {
            result = JSONObject()
            for path in list where !path.hasPrefix("-") {
                if let value = JSONValue.object(record).value(atPath: path) { HitBuilder.set(value, atPath: path, in: &result) }
            }
        }
        for path in unretrievable { HitBuilder.remove(path: path, from: &result) }
        // Only when it is not already the record's own (left out, or replaced by a nested path
        // such as a literal `objectID.sub` key): setting it again would copy the record's
        // members, shared with the record, for nothing.
        if let objectID = record["objectID"], result["objectID"] != objectID { result["objectID"] = objectID }
        return result
    }

    /// `*` → every attribute of the record but `objectID`; unretrievable attributes left out.
    private func expand(_ paths: [String], in record: JSONObject) -> [String] {
        var result: [String] = []
        for path in paths {
            let names = path == "*" ? record.keys.filter { $0 != "objectID" } : [path]
            for name in names where !result.contains(name) && !isUnretrievable(name) { result.append(name) }
        }
        return result
    }

    private func isUnretrievable(_ path: String) -> Bool {
        unretrievable.contains { path == $0 || path.hasPrefix($0 + ".") }
    }

    /// Puts `value` at a dotted path, creating the objects on the way (`a.b` → `{"a": {"b": value}}`).
    /// A key that contains dots itself (`{"a.b": 1}`) is kept as one key.
    static func set(_ value: JSONValue, atPath path: String, in object: inout JSONObject) {
        guard object[path] == nil, let (head, rest) = splitAtFirstDot(path) else {
            object[path] = value
            return
        }
        var child = object[head]?.objectValue ?? JSONObject()
        set(value, atPath: rest, in: &child)
        object[head] = .object(child)
    }

    static func remove(path: String, from object: inout JSONObject) {
        guard object[path] == nil, let (head, rest) = splitAtFirstDot(path) else {
            object[path] = nil
            return
        }
        guard var child = object[head]?.objectValue else { return }
        remove(path: rest, from: &child)
        object[head] = .object(child)
    }

    /// The path before and after its first dot, split at the dot's byte as
    /// `JSONValue.value(atPath:)` reads paths; nil without one. (By bytes: `String.contains` of a
    /// string is Foundation's, through `CFString`, 1.4 % of a keystroke log's time; and a dot
    /// that a combining mark follows (`a.\u{301}`) is one `Character` with it, which a search
    /// by `Character` does not find.)
    private static func splitAtFirstDot(_ path: String) -> (head: String, rest: String)? {
        let utf8 = path.utf8
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        return (String(decoding: utf8[..<dot], as: UTF8.self), String(decoding: utf8[utf8.index(after: dot)...], as: UTF8.self))
    }
}
