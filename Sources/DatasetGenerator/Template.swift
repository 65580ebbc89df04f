/// A name or sentence pattern such as `"{brand} - {series} {0} - {color}"`, parsed once so
/// rendering a record only appends pieces to one preallocated string.
///
/// Slots: `{brand}`, `{series}` (the brand's product family, or a model code when the
/// line has none for that brand), `{model}` (a model code), `{color}`, `{noun}` (a short
/// noun for descriptions) and `{0}`…`{3}` (the line's option lists).
struct Template: Sendable {
    enum Piece: Sendable {
        case text(String)
        case slot(Slot)
    }

    enum Slot: Sendable, Equatable {
        case brand, series, model, color, noun
        case option(Int)
    }

    let pieces: [Piece]
    let estimatedLength: Int

    init(_ pattern: String) {
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            let slot: Slot
            switch name {
            case "brand": slot = .brand
            case "series": slot = .series
            case "model": slot = .model
            case "color": slot = .color
            case "noun": slot = .noun
            default:
                guard let n = Int(name), (0..<4).contains(n) else { preconditionFailure("bad slot {\(name)} in \(pattern)") }
                slot = .option(n)
            }
            if !literal.isEmpty { pieces.append(.text(literal)); literal = "" }
            pieces.append(.slot(slot))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
        estimatedLength = pattern.utf8.count + 24
    }

    func uses(_ slot: Slot) -> Bool {
        pieces.contains { if case .slot(let s) = $0 { return s == slot }; return false }
    }

    /// Appends the rendered pattern. An empty slot value also drops the space after it.
    func render(into out: inout String, _ values: borrowing SlotValues) {
        var dropSpace = false
        for piece in pieces {
            switch piece {
            case .text(let text):
                if dropSpace, text.utf8.first == UInt8(ascii: " ") {
                    out += text.dropFirst()
                } else {
                    out += text
                }
                dropSpace = false
            case .slot(let slot):
                let value = values[slot]
                if value.isEmpty { dropSpace = true } else { out += value; dropSpace = false }
            }
        }
    }
}

/// The values one record chose for each slot, shared by its name and its description.
struct SlotValues: ~Copyable {
    var brand = ""
    var series = ""
    var model = ""
    var color = ""
    var noun = ""
    var option0 = "", option1 = "", option2 = "", option3 = ""

    subscript(slot: Template.Slot) -> String {
        switch slot {
        case .brand: return brand
        case .series: return series
        case .model: return model
        case .color: return color
        case .noun: return noun
        case .option(0): return option0
        case .option(1): return option1
        case .option(2): return option2
        case .option: return option3
        }
    }

    mutating func setOption(_ index: Int, _ value: String) {
        switch index {
        case 0: option0 = value
        case 1: option1 = value
        case 2: option2 = value
        default: option3 = value
        }
    }
}
