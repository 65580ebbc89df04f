/// The restrictions a secured API key carries: the URL-encoded query string that the key signs
/// and holds after its signature (`base64(hex(HMAC-SHA256(parentKey, queryString)) + queryString)`).
/// The remote client writes it (`generateSecuredApiKey`), the server reads it back; the HMAC
/// stays with each of them, so that this module needs no cryptography.
///
/// ```swift
/// var restrictions = SecuredKeyQueryString(searchParameters: ["filters": "user:42"], validUntil: 2_000_000_000)
/// restrictions.restrictIndices = ["a", "b"]
/// restrictions.queryString   // "filters=user%3A42&restrictIndices=a%2Cb&validUntil=2000000000"
/// try SecuredKeyQueryString(decoding: restrictions.queryString) == restrictions   // true
/// ```
package struct SecuredKeyQueryString: Sendable, Hashable {
    /// The search parameters forced on every query made with the key: `filters`, `userToken`
    /// and any other. Read back, each value is the text the query string holds.
    package var searchParameters: JSONObject
    /// `restrictIndices`: index names or `*` patterns.
    package var restrictIndices: [String]?
    /// `validUntil`: Unix time after which the key is refused.
    package var validUntil: Int64?
    /// `restrictSources` as written: CIDR ranges separated by `;` (`192.168.1.0/24;10.0.0.1/32`).
    package var restrictSources: String?

    /// Restrictions of the given kinds; each left nil does not restrict.
    package init(searchParameters: JSONObject = [:], restrictIndices: [String]? = nil, validUntil: Int64? = nil,
                 restrictSources: String? = nil) {
        self.searchParameters = searchParameters
        self.restrictIndices = restrictIndices
        self.validUntil = validUntil
        self.restrictSources = restrictSources
    }

    /// `userToken`: the user the key is for. Algolia applies it to every search too, so it is
    /// kept among the search parameters rather than beside them.
    package var userToken: String? {
        get { searchParameters["userToken"]?.stringValue }
        set { searchParameters["userToken"] = newValue.map { .string($0) } }
    }

    /// The ranges of `restrictSources` one by one (`;` or `,` between them, blanks trimmed),
    /// as text: the server reads the addresses.
    package var sourceRanges: [String]? {
        restrictSources.map { text in text.split(whereSeparator: { $0 == ";" || $0 == "," }).map(\.trimmingBlanks) }
    }

    /// The URL-encoded query string the key carries, as Algolia's clients write it: every
    /// restriction and search parameter, keys sorted, a list of strings comma-separated, any
    /// other structure as JSON.
    package var queryString: String {
        var values = searchParameters
        if let validUntil { values["validUntil"] = .int(validUntil) }
        if let restrictIndices { values["restrictIndices"] = .array(restrictIndices.map { .string($0) }) }
        if let restrictSources { values["restrictSources"] = .string(restrictSources) }
        return values.entries.sorted { $0.key < $1.key }.map { key, value in
            let text: String
            if let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) {
                text = list.compactMap(\.stringValue).joined(separator: ",")
            } else {
                text = value.scalarText ?? value.jsonString
            }
            return "\(FormURLEncoding.encode(key))=\(FormURLEncoding.encode(text))"
        }.joined(separator: "&")
    }

    /// Reads a key's query string: `restrictIndices` as JSON or comma-separated, `validUntil`
    /// as a number, `referers` ignored (a browser header, which no local server checks), every
    /// other key a search parameter. A key given twice keeps its last value.
    /// - Throws: `invalidParameter` when `validUntil` is not a whole number.
    package init(decoding queryString: String) throws(SearchError) {
        self.init()
        for (key, value) in FormURLEncoding.decodePairs(queryString) {
            switch key {
            case "restrictIndices":
                restrictIndices = FormURLEncoding.list(value)
            case "validUntil":
                guard let time = Int64(value) else {
                    throw .invalidParameter("validUntil", expected: "a Unix time in seconds such as 2000000000", got: "\"\(value)\"")
                }
                validUntil = time
            case "restrictSources":
                restrictSources = value
            case "referers":
                break
            default:
                searchParameters[key] = .string(value)
            }
        }
    }
}
