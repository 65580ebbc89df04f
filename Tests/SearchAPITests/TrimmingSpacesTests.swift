import Testing
@testable import SearchAPI

/// `trimmingSpaces` answers from the first and last bytes when they are not spaces, and reads
/// characters otherwise: every text trims as it does character by character, where a space
/// with a combining mark, or `\r\n`, is one character that is not a space.
@Suite struct TrimmingSpacesTests {
    /// The rule, character by character.
    static func reference(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = text.lastIndex(where: { !isSpace($0) })!
        return String(text[first...last])
    }

    static let pieces = ["", " ", "\t", "\n", "\r", "\r\n", "a", "é", "e\u{301}", " \u{301}", "\u{301}",
                         "漢", "👍🏽", "(", "a b", "\u{A0}", "\u{2003}"]

    @Test func everyJoinOfThreePiecesTrimsAsCharacterByCharacter() {
        var checked = 0
        for first in Self.pieces {
            for middle in Self.pieces {
                for last in Self.pieces {
                    let text = first + middle + last
                    #expect(text.trimmingSpaces == Self.reference(text), "\(Array(text.unicodeScalars))")
                    // A substring reads the same as the string it copies (cut by bytes: a
                    // combining mark would join a character cut off before it).
                    let padded = "x" + text + "x"
                    let inner = padded[padded.utf8.index(after: padded.startIndex)..<padded.utf8.index(before: padded.endIndex)]
                    #expect(String(inner) == text)
                    #expect(inner.trimmingSpaces == Self.reference(text), "substring \(Array(text.unicodeScalars))")
                    checked += 1
                }
            }
        }
        #expect(checked == Self.pieces.count * Self.pieces.count * Self.pieces.count)
    }

    @Test func examples() {
        #expect("  brand ".trimmingSpaces == "brand")
        #expect("brand".trimmingSpaces == "brand")
        #expect(" \t\n\r ".trimmingSpaces == "")
        #expect("".trimmingSpaces == "")
        // A space carrying a combining mark is a character that is not a space: kept.
        #expect(" \u{301}brand".trimmingSpaces == " \u{301}brand")
        #expect("\u{A0}brand\u{A0}".trimmingSpaces == "\u{A0}brand\u{A0}")
    }
}
