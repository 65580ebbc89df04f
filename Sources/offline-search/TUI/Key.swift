/// A key the demo understands, decoded from the bytes a terminal sends in raw mode.
enum Key: Equatable {
    case character(Character)
    case enter, tab, backTab, backspace, escape, up, down, left, right, pageUp, pageDown, home, end
    /// Ctrl-C (raw mode turns off the terminal's own SIGINT).
    case interrupt
    /// Ctrl-U: clear the line.
    case clearLine

    /// The keys in one read's worth of bytes. A lone ESC is the Escape key; ESC followed by
    /// `[` or `O` starts an escape sequence (arrows, page keys).
    static func parse(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var i = 0
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            for character in String(decoding: text, as: UTF8.self) { keys.append(.character(character)) }
            text.removeAll()
        }
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x1B:
                flushText()
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    i += 1
                    continue
                }
                // CSI / SS3: parameters, then a final byte in 0x40...0x7E.
                var j = i + 2
                while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { i = bytes.count; continue }
                let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                switch (bytes[j], parameters) {
                case (UInt8(ascii: "A"), _): keys.append(.up)
                case (UInt8(ascii: "B"), _): keys.append(.down)
                case (UInt8(ascii: "C"), _): keys.append(.right)
                case (UInt8(ascii: "D"), _): keys.append(.left)
                case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): keys.append(.home)
                case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): keys.append(.end)
                case (UInt8(ascii: "Z"), _): keys.append(.backTab)
                case (UInt8(ascii: "~"), "5"): keys.append(.pageUp)
                case (UInt8(ascii: "~"), "6"): keys.append(.pageDown)
                default: break
                }
                i = j + 1
                continue
            case 0x03: flushText(); keys.append(.interrupt)
            case 0x15: flushText(); keys.append(.clearLine)
            case 0x09: flushText(); keys.append(.tab)
            case 0x0D, 0x0A: flushText(); keys.append(.enter)
            case 0x7F, 0x08: flushText(); keys.append(.backspace)
            case 0x00..<0x20: flushText()   // other control keys: ignored
            default: text.append(byte)
            }
            i += 1
        }
        flushText()
        return keys
    }
}
