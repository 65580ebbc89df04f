import SearchAPI

/// The order documents take when relevance ties: the values of `IndexConfiguration.documentOrder`
/// (a sort replica's sort, `customRanking`, later sorts), records missing a value after those
/// that have one, then the order of first insertion (the record's rowid, which an update keeps).
/// One rule for a snapshot built from every record and for the segments of an index updated
/// incrementally, so both rank alike.
enum DocumentOrder {
    /// Whether a document with `a` (and rowid `rowA`) comes before one with `b` (`rowB`).
    static func precedes(_ a: [RankingValue?], _ rowA: Int64, _ b: [RankingValue?], _ rowB: Int64,
                         criteria: [CustomRankingCriterion]) -> Bool {
        switch compare(a, b, criteria: criteria, range: 0..<criteria.count) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: rowA < rowB
        }
    }

    /// Compares the values of the criteria in `range` (nil, a missing value, last).
    static func compare(_ a: [RankingValue?], _ b: [RankingValue?], criteria: [CustomRankingCriterion],
                        range: Range<Int>) -> ComparisonOrder {
        for c in range {
            switch (a[c], b[c]) {
            case (nil, nil): continue
            case (nil, _): return .orderedDescending
            case (_, nil): return .orderedAscending
            case let (x?, y?):
                if x == y { continue }
                return (criteria[c].ascending ? x < y : x > y) ? .orderedAscending : .orderedDescending
            }
        }
        return .orderedSame
    }

    /// `inputs` in the order of `precedes` when every value of the criteria is a number or
    /// missing (else nil): each value is then one integer whose order is the criterion's, so the
    /// sort compares integers, not optional values in arrays (a fifth of the time a 1M-record
    /// import spent laying its index out, with `desc(popularity)`).
    static func numericOrder(_ inputs: [Int], rowIDs: [Int64], values: OrderValues,
                             criteria: [CustomRankingCriterion]) -> [Int]? {
        let count = criteria.count
        guard !values.holdsText else { return nil }
        var sortKeys = [UInt64](repeating: 0, count: inputs.count * count)
        for (c, criterion) in criteria.enumerated() {
            let kinds = values.kinds[c], numbers = values.numbers[c]
            for (position, input) in inputs.enumerated() {
                sortKeys[position * count + c] = kinds[input] == 0 ? .max : orderKey(numbers[input], ascending: criterion.ascending)
            }
        }
        if count == 1 {
            var entries = inputs.indices.map { (key: sortKeys[$0], rowID: rowIDs[inputs[$0]], input: inputs[$0]) }
            entries.sort { ($0.key, $0.rowID) < ($1.key, $1.rowID) }
            return entries.map(\.input)
        }
        let order = inputs.indices.sorted { a, b in
            for c in 0..<count where sortKeys[a * count + c] != sortKeys[b * count + c] {
                return sortKeys[a * count + c] < sortKeys[b * count + c]
            }
            return rowIDs[inputs[a]] < rowIDs[inputs[b]]
        }
        return order.map { inputs[$0] }
    }

    /// A finite number as an integer in the criterion's order (descending: reversed), below
    /// `UInt64.max`, which stands for a missing value (last either way). 0 and -0 are one key,
    /// as they are equal.
    static func orderKey(_ number: Double, ascending: Bool) -> UInt64 {
        let bits = (number == 0 ? 0 : number).bitPattern
        // Negative numbers: all bits flipped (a larger magnitude is smaller); positive: the sign
        // bit set, above every negative one.
        let key = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return ascending ? key : ~key
    }

    /// A record's value of one criterion.
    static func value(of record: JSONObject, criterion: CustomRankingCriterion) -> RankingValue? {
        RecordValues.firstScalar(at: criterion.lookup, in: record).flatMap(RankingValue.init)
    }
}

/// The values of the document order's criteria of records as they are taken in, a column per
/// criterion rather than an array per record: what a snapshot being built sorts its documents
/// by (`SnapshotAccumulator`), and the `DocumentOrderKeys` it keeps.
struct OrderValues: Sendable {
    /// Per criterion, per input: 0 no value, 1 a number, 2 a text.
    private(set) var kinds: [[UInt8]]
    /// Per criterion, per input: the number (0 when the value is not a number).
    private(set) var numbers: [[Double]]
    /// Per criterion, per input: the text ("" when the value is not a text); empty for a
    /// criterion no input has a text for yet.
    private(set) var texts: [[String]]

    init(criteria: Int) {
        kinds = Array(repeating: [], count: criteria)
        numbers = Array(repeating: [], count: criteria)
        texts = Array(repeating: [], count: criteria)
    }

    /// Whether some input has a text value (else every value is a number or missing).
    var holdsText: Bool { texts.contains { !$0.isEmpty } }

    /// Adds an input: the record's values of `criteria`.
    mutating func append(_ record: JSONObject, criteria: [CustomRankingCriterion]) {
        for (c, criterion) in criteria.enumerated() {
            switch DocumentOrder.value(of: record, criterion: criterion) {
            case nil: append(kind: 0, number: 0, text: nil, criterion: c)
            case .number(let number)?: append(kind: 1, number: number, text: nil, criterion: c)
            case .text(let text)?: append(kind: 2, number: 0, text: text, criterion: c)
            }
        }
    }

    private mutating func append(kind: UInt8, number: Double, text: String?, criterion c: Int) {
        if text != nil, texts[c].isEmpty { texts[c] = Array(repeating: "", count: kinds[c].count) }
        kinds[c].append(kind)
        numbers[c].append(number)
        if !texts[c].isEmpty { texts[c].append(text ?? "") }
    }

    /// Input `input`'s values.
    func values(of input: Int) -> [RankingValue?] {
        kinds.indices.map { c in
            switch kinds[c][input] {
            case 1: .number(numbers[c][input])
            case 2: .text(texts[c][input])
            default: nil
            }
        }
    }

    /// The values of the inputs `order`, in that order (the documents' order).
    func keys(inOrder order: [Int]) -> DocumentOrderKeys {
        DocumentOrderKeys(kinds: kinds.map { column in order.map { column[$0] } },
                          numbers: numbers.map { column in order.map { column[$0] } },
                          texts: texts.map { column in StringTable(column.isEmpty ? [] : order.map { column[$0] }) })
    }
}

/// The result of a three-way comparison.
enum ComparisonOrder {
    case orderedAscending, orderedSame, orderedDescending
}

/// Each document's values of `IndexConfiguration.documentOrder`, kept with the snapshot so that
/// the documents of two segments can be put in one order (`DocumentOrder`).
struct DocumentOrderKeys: Sendable {
    /// Per criterion, per document: 0 no value, 1 a number, 2 a text.
    let kinds: [[UInt8]]
    /// Per criterion, per document: the number (0 when the value is not a number).
    let numbers: [[Double]]
    /// Per criterion, per document: the text ("" when the value is not a text).
    let texts: [StringTable]

    init(kinds: [[UInt8]], numbers: [[Double]], texts: [StringTable]) {
        self.kinds = kinds
        self.numbers = numbers
        self.texts = texts
    }

    var criteriaCount: Int { kinds.count }

    /// A sort replica's runs of documents with equal values of the first `sortCount` criteria
    /// (its sort): where each run starts, then the document count; empty without sort criteria.
    func sortRuns(sortCount: Int) -> [UInt32] {
        guard sortCount > 0 else { return [] }
        let count = kinds.first?.count ?? 0
        func equal(_ a: Int, _ b: Int) -> Bool {
            (0..<sortCount).allSatisfy { c in
                guard kinds[c][a] == kinds[c][b] else { return false }
                switch kinds[c][a] {
                case 1: return numbers[c][a] == numbers[c][b]
                case 2: return texts[c][a] == texts[c][b]
                default: return true
                }
            }
        }
        var runs: [UInt32] = []
        for position in 0..<count where position == 0 || !equal(position, position - 1) { runs.append(UInt32(position)) }
        runs.append(UInt32(count))
        return runs
    }

    /// A document's values.
    func values(of document: Int) -> [RankingValue?] {
        (0..<kinds.count).map { c in
            switch kinds[c][document] {
            case 1: .number(numbers[c][document])
            case 2: .text(texts[c][document])
            default: nil
            }
        }
    }
}
