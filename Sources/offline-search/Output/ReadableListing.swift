import SearchAPI

/// The human form of a search response: a summary line; each hit as a title line, its
/// matching attributes highlighted (the snippet where there is one, never both), and its other
/// retrieved attributes on one compact line; then the facet counts.
struct ReadableListing {
    let response: SearchResponse
    let color: Bool

    /// Attributes tried, in order, for a hit's title.
    static let titleAttributes = ["name", "title", "query", "label"]
    static let width = 160

    var text: String {
        var lines = [summary]
        for (rank, hit) in response.hits.enumerated() {
            lines.append("")
            lines.append(contentsOf: describe(hit, position: firstPosition + rank + 1))
        }
        for facet in response.facets ?? [] where !facet.values.isEmpty {
            lines.append("")
            lines.append("\(facet.attribute):")
            for (value, count) in facet.values.prefix(10) { lines.append("   \(Terminal.grouped(count))\t\(value)") }
            if facet.values.count > 10 { lines.append("   … \(facet.values.count - 10) more") }
        }
        return lines.joined(separator: "\n")
    }

    private var firstPosition: Int { response.offset ?? response.page * response.hitsPerPage }

    /// `1,234 hits, page 0 of pages 0–61, 3 ms`; pages count from 0, as in Algolia.
    private var summary: String {
        let hits = Terminal.count(response.nbHits, "hit")
        let time = "\(response.processingTimeMS) ms"
        if response.nbHits == 0 { return "\(hits), \(time)" }
        if response.nbPages == 0 { return "\(hits), \(time) (no hits asked for: hitsPerPage 0)" }
        let pages = response.nbPages == 1 ? "the only page" : "pages 0–\(response.nbPages - 1)"
        if response.page >= response.nbPages, response.offset == nil {
            return "\(hits), \(time); page \(response.page) is past the last page (\(pages))"
        }
        if response.hits.isEmpty { return "\(hits), \(time); no hits at this offset" }
        let shown = response.hits.count == 1
            ? "hit \(firstPosition + 1)" : "hits \(firstPosition + 1)–\(firstPosition + response.hits.count)"
        return "\(hits), \(time): \(shown), page \(response.page) of \(pages)"
    }

    private func describe(_ hit: JSONValue, position: Int) -> [String] {
        let objectID = hit["objectID"]?.scalarText ?? "?"
        let highlights = hit["_highlightResult"]?.objectValue ?? JSONObject()
        let snippets = hit["_snippetResult"]?.objectValue ?? JSONObject()
        let titleKey = hit.objectValue?.keys.first { key in
            ReadableListing.titleAttributes.contains(key.lowercased()) && hit[key]?.stringValue != nil
        }
        var title = titleKey.flatMap { key in highlights[key].flatMap(render) ?? hit[key]?.stringValue } ?? ""
        title = title.isEmpty ? "[\(objectID)]" : "\(title)  [\(objectID)]"
        if let metres = hit["_rankingInfo"]?["matchedGeoLocation"]?["distance"]?.intValue {
            title += metres < 1_000 ? "  \(metres) m" : "  \(Double(metres / 100) / 10) km"
        }
        var lines = ["\(position). \(clip(title))"]
        var shown: Set<String> = ["objectID"]
        if let titleKey { shown.insert(titleKey) }
        // Matching attributes, highlighted: the snippet when the attribute has one.
        for (attribute, value) in highlights where !shown.contains(attribute) {
            guard ReadableListing.matches(value) else { continue }
            let text = snippets[attribute].flatMap(render) ?? render(value)
            guard let text else { continue }
            lines.append("   \(attribute): \(clip(text))")
            shown.insert(attribute)
        }
        for (attribute, value) in snippets where !shown.contains(attribute) && ReadableListing.matches(value) {
            if let text = render(value) { lines.append("   \(attribute): \(clip(text))"); shown.insert(attribute) }
        }
        // The other retrieved attributes, compactly.
        var others: [String] = []
        for (attribute, value) in hit.objectValue ?? JSONObject() where !shown.contains(attribute) && !attribute.hasPrefix("_") {
            others.append("\(attribute): \(ReadableListing.compact(value))")
        }
        if !others.isEmpty { lines.append("   " + clip(others.joined(separator: " · "))) }
        return lines
    }

    /// Whether a highlight or snippet result matched the query anywhere.
    static func matches(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object):
            if let level = object["matchLevel"]?.stringValue { return level != "none" }
            return object.contains { matches($0.value) }
        case .array(let elements): return elements.contains(where: matches)
        default: return false
        }
    }

    /// A highlight or snippet result as one line: matches in bold on a terminal, in [brackets]
    /// otherwise; array elements joined by " | ", non-matching elements left out.
    private func render(_ value: JSONValue) -> String? {
        switch value {
        case .object(let object):
            if let text = object["value"]?.stringValue {
                let (open, close) = color ? ("\u{1B}[1;33m", "\u{1B}[0m") : ("[", "]")
                return text.replacingOccurrences(of: "<em>", with: open).replacingOccurrences(of: "</em>", with: close)
            }
            let parts = object.compactMap { key, child in
                ReadableListing.matches(child) ? render(child).map { "\(key): \($0)" } : nil
            }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        case .array(let elements):
            let parts = elements.filter(ReadableListing.matches).compactMap(render)
            return parts.isEmpty ? nil : parts.joined(separator: " | ")
        default:
            return nil
        }
    }

    /// A retrieved value in a few characters: strings as they are, arrays joined, objects as JSON.
    static func compact(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .array(let elements): elements.map { $0.scalarText ?? $0.jsonString }.joined(separator: ", ")
        default: value.scalarText ?? value.jsonString
        }
    }

    /// Cuts a line to the listing's width (escape sequences are not counted).
    private func clip(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        var visible = 0, result = "", inEscape = false
        for character in flat {
            if character == "\u{1B}" { inEscape = true }
            result.append(character)
            if inEscape { if character == "m" { inEscape = false }; continue }
            visible += 1
            if visible >= ReadableListing.width { return result + (color ? "\u{1B}[0m" : "") + "…" }
        }
        return result
    }
}
