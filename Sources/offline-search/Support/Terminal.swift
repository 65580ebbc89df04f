import Foundation
import SearchAPI

/// Output helpers: standard output line by line (flushed, for scripts that read as it goes),
/// notes on standard error.
enum Terminal {
    static func writeLine(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A JSON value on one line of standard output, written as its bytes are encoded (no
    /// `String` in between: an answer a keystroke, and each line flushed for the script
    /// waiting on it).
    static func writeLine(_ value: JSONValue) {
        var bytes = value.jsonBytes
        bytes.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// A message for the person at the terminal, kept out of the output scripts read.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static var standardOutputIsTerminal: Bool { isatty(1) == 1 }

    /// `1 record`, `2 records`, with thousands separated: `12,345 records`.
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(grouped(n)) \(n == 1 ? singular : plural ?? singular + "s")"
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var result = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { result.append(",") }
            result.append(c)
        }
        return (n < 0 ? "-" : "") + result
    }
}

/// A one-line progress bar on a terminal; silent when standard error is not a terminal.
final class ProgressBar {
    let total: Int
    let label: String
    let enabled = isatty(2) == 1

    init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    func update(_ done: Int, detail: String) {
        guard enabled else { return }
        let width = 30
        let filled = total > 0 ? width * min(done, total) / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(detail)\u{1B}[K".utf8))
    }

    func finish(detail: String) {
        guard enabled else { return }
        update(total, detail: detail)
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
