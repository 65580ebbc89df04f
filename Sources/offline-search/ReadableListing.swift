import Foundation
import SearchAPI

/// The human form of a search response: a summary line, each hit with its highlighted
/// attributes, and the facet counts.
struct ReadableListing {
    let response: SearchResponse
    let color: Bool

    var text: String {
        var lines: [String] = []
        lines.append("\(response.nbHits) hits, page \(response.page + 1) of \(max(response.nbPages, 1)), \(response.processingTimeMS) ms")
        for (rank, hit) in response.hits.enumerated() {
            let objectID = hit["objectID"]?.scalarText ?? "?"
            lines.append("")
            lines.append("\(response.page * response.hitsPerPage + rank + 1). [\(objectID)]")
            let highlights = hit["_highlightResult"]?.objectValue ?? JSONObject()
            for (attribute, value) in highlights {
                guard let shown = render(value) else { continue }
                lines.append("   \(attribute): \(shown)")
            }
            if let snippets = hit["_snippetResult"]?.objectValue {
                for (attribute, value) in snippets {
                    if let shown = render(value) { lines.append("   \(attribute) (snippet): \(shown)") }
                }
            }
        }
        for facet in response.facets ?? [] {
            lines.append("")
            lines.append("\(facet.attribute):")
            for (value, count) in facet.values.prefix(10) { lines.append("   \(count)\t\(value)") }
            if facet.values.count > 10 { lines.append("   … \(facet.values.count - 10) more") }
        }
        return lines.joined(separator: "\n")
    }

    /// A highlight result as one line; matches in bold on a terminal, in [brackets] otherwise.
    private func render(_ value: JSONValue) -> String? {
        switch value {
        case .object(let object):
            if let text = object["value"]?.stringValue {
                let (open, close) = color ? ("\u{1B}[1;33m", "\u{1B}[0m") : ("[", "]")
                let shown = text.replacingOccurrences(of: "<em>", with: open).replacingOccurrences(of: "</em>", with: close)
                return shown.count > 160 ? String(shown.prefix(160)) + "…" : shown
            }
            let parts = object.compactMap { key, child in render(child).map { "\(key): \($0)" } }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        case .array(let elements):
            let parts = elements.compactMap(render)
            return parts.isEmpty ? nil : parts.joined(separator: " | ")
        default:
            return nil
        }
    }
}
