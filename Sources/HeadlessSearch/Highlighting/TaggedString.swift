/// A string with tagged parts, parsed from text where they are wrapped in a pre- and a post-tag
/// (`"<em>iph</em>one"`): the text without the tags, and the ranges of the tagged and untagged
/// parts. Any tags work, equal pre- and post-tags included (`*bold*`). InstantSearch's
/// `TaggedString`.
///
/// A pre-tag with no post-tag after it is kept as text, and tags do not nest: inside a tagged
/// part, a pre-tag is text.
///
/// ```swift
/// let tagged = TaggedString(string: "<em>iph</em>one <em>8</em>", preTag: "<em>", postTag: "</em>")
/// tagged.output                                        // "iphone 8"
/// tagged.taggedRanges.map { tagged.output[$0] }       // ["iph", "8"]
/// ```
public struct TaggedString: Hashable, Sendable {
    /// The text as given, with its tags.
    public let input: String
    /// The text that opens a tagged part (`<em>`).
    public let preTag: String
    /// The text that closes a tagged part (`</em>`).
    public let postTag: String
    /// The text without the tags.
    public let output: String
    /// The tagged parts of `output`, in order, never empty, never adjacent.
    public let taggedRanges: [Range<String.Index>]

    /// Parses `input`: the parts between `preTag` and `postTag` are tagged, and the tags are
    /// dropped from `output`.
    public init(string input: String, preTag: String, postTag: String) {
        self.input = input
        self.preTag = preTag
        self.postTag = postTag
        let (output, tagged) = TaggedString.parse(input, preTag: preTag, postTag: postTag)
        self.output = output
        var ranges: [Range<String.Index>] = []
        for (start, end) in tagged where start < end {
            let lower = output.index(output.startIndex, offsetBy: start)
            let upper = output.index(lower, offsetBy: end - start)
            if let last = ranges.last, last.upperBound == lower {
                ranges[ranges.count - 1] = last.lowerBound..<upper
            } else {
                ranges.append(lower..<upper)
            }
        }
        taggedRanges = ranges
    }

    /// The parts of `output` that are not tagged, in order, never empty.
    public var untaggedRanges: [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        var position = output.startIndex
        for range in taggedRanges {
            if position < range.lowerBound { result.append(position..<range.lowerBound) }
            position = range.upperBound
        }
        if position < output.endIndex { result.append(position..<output.endIndex) }
        return result
    }

    /// The tagged parts of `output`, in order.
    public func taggedSubstrings() -> [Substring] { taggedRanges.map { output[$0] } }
    /// The parts of `output` that are not tagged, in order.
    public func untaggedSubstrings() -> [Substring] { untaggedRanges.map { output[$0] } }

    /// `output` cut into consecutive parts, each tagged or not.
    public var segments: [(text: Substring, isTagged: Bool)] {
        (taggedRanges.map { ($0, true) } + untaggedRanges.map { ($0, false) })
            .sorted { $0.0.lowerBound < $1.0.lowerBound }
            .map { (output[$0.0], $0.1) }
    }

    /// The same text with the tagged and untagged parts swapped: what a suggestion list
    /// emphasises (the part the user has not typed yet).
    public var inverted: TaggedString {
        TaggedString(output: output, preTag: preTag, postTag: postTag, taggedRanges: untaggedRanges)
    }

    /// `output` with the tagged parts wrapped in other tags (or the same ones).
    public func tagged(preTag: String? = nil, postTag: String? = nil) -> String {
        var result = ""
        for (text, isTagged) in segments {
            if isTagged { result += (preTag ?? self.preTag) + text + (postTag ?? self.postTag) } else { result += text }
        }
        return result
    }

    private init(output: String, preTag: String, postTag: String, taggedRanges: [Range<String.Index>]) {
        self.output = output
        self.preTag = preTag
        self.postTag = postTag
        self.taggedRanges = taggedRanges
        var input = ""
        var position = output.startIndex
        for range in taggedRanges {
            input += output[position..<range.lowerBound] + preTag + output[range] + postTag
            position = range.upperBound
        }
        input += output[position...]
        self.input = input
    }

    public static func == (lhs: TaggedString, rhs: TaggedString) -> Bool {
        lhs.output == rhs.output && lhs.preTag == rhs.preTag && lhs.postTag == rhs.postTag
            && lhs.taggedRanges.map { lhs.output.distance(from: lhs.output.startIndex, to: $0.lowerBound) }
                == rhs.taggedRanges.map { rhs.output.distance(from: rhs.output.startIndex, to: $0.lowerBound) }
            && lhs.taggedSubstrings() == rhs.taggedSubstrings()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(output)
        hasher.combine(preTag)
        hasher.combine(postTag)
        hasher.combine(taggedSubstrings())
    }

    /// The text without tags, and the tagged parts as character offsets into it.
    private static func parse(_ input: String, preTag: String, postTag: String) -> (String, [(Int, Int)]) {
        guard !preTag.isEmpty, !postTag.isEmpty else { return (input, []) }
        var output = ""
        var tagged: [(Int, Int)] = []
        var outputCount = 0
        var rest = input[...]
        while let open = rest.range(of: preTag) {
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.range(of: postTag) else { break }
            let before = rest[..<open.lowerBound]
            output += before
            outputCount += before.count
            let inner = afterOpen[..<close.lowerBound]
            tagged.append((outputCount, outputCount + inner.count))
            output += inner
            outputCount += inner.count
            rest = afterOpen[close.upperBound...]
        }
        output += rest
        return (output, tagged)
    }
}

extension Substring {
    /// `range(of:)` without Foundation: the first occurrence of `needle`, by characters.
    fileprivate func range(of needle: String) -> Range<Substring.Index>? {
        guard let first = needle.first else { return nil }
        var index = startIndex
        while let candidate = self[index...].firstIndex(of: first) {
            if self[candidate...].starts(with: needle) {
                return candidate..<self.index(candidate, offsetBy: needle.count)
            }
            index = self.index(after: candidate)
        }
        return nil
    }
}
