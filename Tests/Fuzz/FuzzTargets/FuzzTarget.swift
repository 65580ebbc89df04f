import Foundation
import OfflineSearch
import SearchAPI

/// The code each fuzz target runs on one input: the libFuzzer entry points
/// (`Tests/Fuzz/<name>/Entry.swift`, built by `Tests/Fuzz/run.sh`) call it, and the test suite
/// replays every corpus file through it (`FuzzCorpusTests`), so a crash once found stays fixed.
///
/// An input may be refused with an error; what must never happen is a crash, a hang, or a
/// broken invariant, which the targets check with `precondition`: a value that parses writes
/// back to text that parses to the same value, parameters read back from their own echo are
/// the same parameters, and what parses can be searched with.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case jsonParser = "json-parser"
    case filters
    case listFilters = "list-filters"
    case urlEncodedParams = "url-encoded-params"
    case recordImport = "record-import"

    public func run(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data.bindMemory(to: UInt8.self))
        switch self {
        case .jsonParser: FuzzTarget.parseJSON(bytes)
        case .filters: FuzzTarget.parseFilters(String(decoding: bytes, as: UTF8.self))
        case .listFilters: FuzzTarget.parseListFilters(bytes)
        case .urlEncodedParams: FuzzTarget.parseParameters(String(decoding: bytes, as: UTF8.self))
        case .recordImport: FuzzTarget.importRecords(bytes)
        }
    }

    public func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }

    // MARK: Targets

    /// JSON and JSON Lines, with the default limits and with tight ones; what parses writes
    /// back to canonical text that reads back the same.
    static func parseJSON(_ bytes: [UInt8]) {
        var tight = JSONParseLimits()
        tight.maxDepth = 3
        tight.maxStringBytes = 8
        tight.maxElements = 4
        tight.maxNumberLength = 6
        for limits in [JSONParseLimits(), tight] {
            if let value = try? JSONValue(parsingUTF8: bytes, limits: limits) { checkRoundTrip(value) }
            if let values = try? JSONValue.parseLines(utf8: bytes, limits: limits) { values.forEach(checkRoundTrip) }
        }
    }

    static func checkRoundTrip(_ value: JSONValue) {
        let text = value.jsonBytes
        guard let again = try? JSONValue(parsingUTF8: text) else {
            preconditionFailure("written JSON does not parse: \(String(decoding: text, as: UTF8.self).prefix(200))")
        }
        precondition(again.jsonBytes == text, "JSON does not read back the same: \(String(decoding: text, as: UTF8.self).prefix(200))")
    }

    /// `filters`: parsed alone, then searched with on a small index (parse and evaluation).
    static func parseFilters(_ text: String) {
        _ = try? FilterParser.parse(text)
        var parameters = SearchParameters()
        parameters.filters = text
        parameters.facets = ["*"]
        _ = try? SampleIndex.shared.search(parameters)
    }

    /// `facetFilters` and the other list forms: as strings and as JSON arrays, each parser, then
    /// a search with them.
    static func parseListFilters(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let names = ["facetFilters", "numericFilters", "tagFilters", "optionalFilters"]
        var lists: [FilterList] = [.string(text)]
        if let value = try? JSONValue(parsingUTF8: bytes), let list = try? ParameterReader(name: "facetFilters", value: value).filterList() {
            lists.append(list)
        }
        for list in lists {
            for name in names {
                switch list {
                case .string(let text): _ = try? FilterListParser.parseString(text, parameter: name)
                case .list(let items): _ = try? FilterListParser.parse(items, parameter: name)
                }
            }
            var parameters = SearchParameters()
            parameters.facetFilters = list
            parameters.numericFilters = list
            parameters.tagFilters = list
            parameters.optionalFilters = list
            _ = try? SampleIndex.shared.search(parameters)
        }
    }

    /// Algolia's URL-encoded `params`: what is read is searched with, and its own echo reads back
    /// as the same parameters.
    static func parseParameters(_ text: String) {
        guard let parameters = try? SearchParameters(urlEncoded: text) else { return }
        let echo = parameters.urlEncoded
        guard let again = try? SearchParameters(urlEncoded: echo) else {
            preconditionFailure("the echo of parameters does not read back: \(echo.prefix(300))")
        }
        precondition(again.urlEncoded == echo, "the echo of parameters changes when read back: \(echo.prefix(300))")
        _ = try? SampleIndex.shared.search(parameters)
        if parameters.facetQuery != nil {
            _ = try? SampleIndex.shared.searchForFacetValues(facet: "category", parameters: parameters)
        }
    }

    /// An import file (a JSON array or JSON Lines): parsed, normalized and saved into a real
    /// index (replacing what the previous input saved), then searched with its own words.
    static func importRecords(_ bytes: [UInt8]) {
        guard let records = try? SearchIndex.parseRecords(bytes, source: "fuzz"), records.count <= 200 else { return }
        let index = ImportIndex.shared
        guard (try? index.saveObjects(records, replaceExisting: true)) != nil else { return }
        var words: [String] = []
        for record in records.prefix(3) {
            for (_, value) in record.objectValue ?? [:] { if let text = value.scalarText { words.append(text) } }
        }
        for query in [""] + words.prefix(4) {
            var parameters = SearchParameters(query: String(query.utf8.prefix(SearchParameters.maxQueryBytes)) ?? "")
            parameters.facets = ["*"]
            parameters.getRankingInfo = true
            _ = try? index.search(parameters)
        }
    }
}

/// A small index with facets, numbers, tags and custom ranking, made once per process, that
/// the filter and parameter targets search.
enum SampleIndex {
    static let shared: SearchIndex = {
        let index = makeIndex("sample")
        try? index.setSettings([
            "searchableAttributes": ["name", "unordered(description)", "category"],
            "attributesForFaceting": ["brand", "searchable(category)", "price", "filterOnly(stock)", "_tags"],
            "customRanking": ["desc(rating)"], "attributeForDistinct": "brand",
        ])
        let brands = ["Apple", "Samsung", "Écho", "Brand 1", "a:b", "-x"]
        let categories = ["Phones", "Lamps", "Desks"]
        let records: [JSONValue] = (0..<40).map { (i: Int) -> JSONValue in
            var record = JSONObject()
            let brand = brands[i % brands.count]
            record["objectID"] = .string(String(i))
            record["name"] = .string("product \(i) \(brand) phone lamp")
            record["description"] = .string("a red phone with a lamp")
            record["category"] = .string(categories[i % 3])
            record["brand"] = .string(brand)
            record["price"] = .int(Int64(i * 7 % 50))
            record["rating"] = .double(Double(i % 5) / 2)
            record["stock"] = .bool(i % 2 == 0)
            record["_tags"] = .array([.string(i % 2 == 0 ? "public" : "private"), .string("my tag")])
            return .object(record)
        }
        _ = try? index.saveObjects(records)
        return index
    }()
}

/// The index the import target writes into, made once per process.
enum ImportIndex {
    static let shared: SearchIndex = {
        let index = makeIndex("import")
        try? index.setSettings(["attributesForFaceting": ["brand", "searchable(category)", "price", "_tags"],
                                "customRanking": ["desc(rank)"], "attributeForDistinct": "group"])
        return index
    }()
}

/// The directory of this process's index `name`, under the temporary directory.
func indexDirectory(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("offline-search-fuzz-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
}

/// An index in a directory of its own, removed when the process exits.
func makeIndex(_ name: String) -> SearchIndex {
    let directory = indexDirectory(name)
    atexit {
        for name in ["sample", "import"] { try? FileManager.default.removeItem(at: indexDirectory(name)) }
    }
    do {
        return try SearchEngine(directory: directory).index(name)
    } catch {
        fatalError("the fuzz target cannot make its index in \(directory.path): \(error)")
    }
}
