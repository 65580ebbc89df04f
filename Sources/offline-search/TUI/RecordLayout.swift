import Foundation
import SearchAPI

/// What the terminal demo shows of an index's records, read from its settings so that any
/// index can be browsed: the title attribute (`name` or `title` where it is searchable, else
/// the first searchable attribute, as InstantSearch's demos do), a detail line of the next
/// searchable attributes (and `price`, which the product demo shows), and the first two
/// facets as refinement lists.
struct RecordLayout: Equatable {
    /// The attribute shown, highlighted, as a record's title.
    var title: String
    /// The attributes shown on the line under the title.
    var details: [String]
    /// The facets shown as refinement lists (at most two).
    var facets: [String]

    init(title: String, details: [String], facets: [String]) {
        self.title = title
        self.details = details
        self.facets = facets
    }

    /// - Parameters:
    ///   - settings: the index's settings.
    ///   - sample: one of its records. Without `searchableAttributes` every attribute is
    ///     searchable (Algolia's default), in the order a record lists them: the sample's.
    init(settings: IndexSettings, sample: JSONObject? = nil) {
        // `unordered(description)` and `name,brand` (one level, several attributes) name attributes too.
        var searchable = (settings.searchableAttributes ?? []).flatMap { entry in
            Self.modifierRemoved(entry).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { !$0.isEmpty }
        if searchable.isEmpty, let sample {
            searchable = sample.keys.filter { $0 != "objectID" && !$0.hasPrefix("_") && Self.text(of: sample[$0], attribute: $0) != nil }
        }
        let title = ["name", "title", "query"].first { searchable.contains($0) } ?? searchable.first ?? "objectID"
        self.title = title
        details = Array(searchable.filter { $0 != title && !Self.longTextAttributes.contains($0) }.prefix(2))
        facets = Array((settings.attributesForFaceting ?? []).filter { !$0.hasPrefix("filterOnly(") }.map(Self.modifierRemoved)
            .filter { !$0.contains(".") }.prefix(2))
    }

    /// Attributes whose text is a paragraph: left out of the one detail line.
    static let longTextAttributes: Set<String> = ["description", "summary", "overview", "body", "content", "text"]

    /// `unordered(name)` → `name`, `searchable(brand)` → `brand`.
    static func modifierRemoved(_ entry: String) -> String {
        guard let open = entry.firstIndex(of: "("), entry.hasSuffix(")") else { return entry }
        return String(entry[entry.index(after: open)..<entry.index(before: entry.endIndex)])
    }

    /// An attribute's name as a list's header: `categories` → `Categories`.
    static func header(_ attribute: String) -> String {
        attribute.prefix(1).uppercased() + attribute.dropFirst()
    }

    /// A value as the detail line shows it: strings as they are, arrays joined (only the last
    /// of a hierarchy-like `categories` list), numbers whole; nil for objects and nulls.
    static func text(of value: JSONValue?, attribute: String) -> String? {
        switch value {
        case .string(let text)?: return text.isEmpty ? nil : text
        case .int(let number)?: return String(number)
        case .double(let number)?:
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag)?: return flag ? attribute : nil
        case .array(let values)?:
            let texts = values.compactMap { text(of: $0, attribute: attribute) }
            if attribute == "categories", let last = texts.last { return last }
            return texts.isEmpty ? nil : texts.joined(separator: ", ")
        default: return nil
        }
    }
}
