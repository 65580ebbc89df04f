import Foundation
import HeadlessSearch

/// One screen line as styled runs of text, cut to a width when drawn (one column per
/// character: the demo data is Latin text and symbols).
struct StyledLine {
    struct Run {
        var text: String
        /// SGR parameters (`"1;33"`), empty for plain text.
        var style: String
    }

    var runs: [Run] = []

    init(_ text: String = "", style: String = "") {
        if !text.isEmpty { runs.append(Run(text: text, style: style)) }
    }

    static let bold = "1"
    static let dim = "2"
    static let reverse = "7"
    static let highlight = "1;33"
    static let selected = "1;32"
    static let error = "1;31"
    static let title = "1;37;44"

    mutating func append(_ text: String, style: String = "") {
        guard !text.isEmpty else { return }
        runs.append(Run(text: text, style: style))
    }

    mutating func append(_ line: StyledLine) { runs += line.runs }

    /// A highlighted string: its tagged parts in `tagged`, the rest in `plain`.
    mutating func append(_ highlighted: HighlightedString, tagged: String, plain: String = "") {
        for (text, isTagged) in highlighted.taggedString.segments {
            append(String(text), style: isTagged ? tagged : plain)
        }
    }

    var count: Int { runs.reduce(0) { $0 + $1.text.count } }

    /// `text` in at most `width` columns: whole when it fits, else cut at a word where one ends
    /// late enough, with an ellipsis. Empty when not even the ellipsis fits.
    static func fitted(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        let cut = text.prefix(width - 1)
        // Cut after a word when that keeps at least half of the room; a short word keeps its letters.
        let kept = cut.lastIndex(of: " ").flatMap { space in
            cut.distance(from: cut.startIndex, to: space) >= (width - 1) / 2 ? cut[..<space] : nil
        } ?? cut
        // "Ana Carlson,…" reads as a list cut short; "Ana Carlson…" as a name cut.
        return kept.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: ",;:-–·"))) + "…"
    }

    /// The line cut to `width` columns (an ellipsis marks the cut), padded with spaces to exactly
    /// `width` when `pad`, as text with ANSI styles that ends with the style reset.
    func render(width: Int, pad: Bool = false, fill: String = "") -> String {
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        let cut = count > width
        let budget = cut ? width - 1 : width
        for run in runs where used < budget {
            let text = String(run.text.prefix(budget - used))
            used += text.count
            result += run.style.isEmpty ? text : "\u{1B}[\(run.style)m\(text)\u{1B}[0m"
            if !fill.isEmpty { result += "\u{1B}[\(fill)m" }
        }
        if cut { result += "…"; used += 1 }
        if pad && used < width { result += String(repeating: " ", count: width - used) }
        return (fill.isEmpty ? "" : "\u{1B}[\(fill)m") + result + "\u{1B}[0m"
    }
}
