import SearchAPI

// The columns read from the records' values: facets, numbers, locations and the document order's values.

/// The columns read from the records' values rather than their words, per input: facet values,
/// numbers for numeric filters, locations, and the values of the document order's criteria.
struct ValueColumns: Sendable {
    let configuration: IndexConfiguration
    var keys: OrderValues
    var facets: [FacetValues]
    var numerics: [String: NumericValues] = [:]
    var locations: [[GeoPoint]] = []

    /// How many inputs were added (each has its locations, maybe none).
    var count: Int { locations.count }

    /// One facet attribute's values, per input: `starts[i]..<starts[i + 1]` in `values`, each
    /// value once per record (ids in order of first appearance).
    struct FacetValues: Sendable {
        var path: JSONPath
        var interner = StringInterner()
        var starts: [UInt32] = [0]
        var values: [UInt32] = []
    }

    /// The numbers at one path, per input (`starts` closed up to the inputs seen so far).
    struct NumericValues: Sendable {
        var starts: [UInt32] = [0]
        var values: [Double] = []

        mutating func advance(to input: Int) {
            while starts.count <= input { starts.append(UInt32(values.count)) }
        }

        mutating func append(_ number: Double, of input: Int) {
            advance(to: input)
            values.append(number)
        }
    }

    init(configuration: IndexConfiguration) {
        self.configuration = configuration
        keys = OrderValues(criteria: configuration.documentOrder.count)
        facets = configuration.facetAttributes.map { FacetValues(path: $0.lookup) }
    }

    /// A facet's values per input, on average so far.
    private func valuesPerInput(_ facet: FacetValues) -> Double { Double(facet.values.count) / Double(max(count, 1)) }

    /// The bytes an input takes in the columns `reserve` sizes, on average so far: per facet,
    /// its start and its value ids.
    var bytesPerInput: Int {
        facets.reduce(0) { $0 + MemoryLayout<UInt32>.size * (1 + Int(valuesPerInput($1).rounded(.up))) }
    }

    /// Room for `inputs` inputs in all, with as many facet values each as the inputs so far.
    mutating func reserve(inputs: Int) {
        guard count > 0, inputs > count else { return }
        for f in facets.indices {
            facets[f].starts.reserveCapacity(inputs + 1)
            facets[f].values.reserveCapacity(Int(valuesPerInput(facets[f]) * Double(inputs)))
        }
    }

    mutating func add(_ batch: [SnapshotBuilder.Input]) {
        let criteria = configuration.documentOrder
        var seen: [UInt32] = []
        var scalars: [JSONValue] = []
        for input in batch {
            let record = input.record
            if !criteria.isEmpty { keys.append(record, criteria: criteria) }
            for f in facets.indices {
                seen.removeAll(keepingCapacity: true)
                scalars.removeAll(keepingCapacity: true)
                RecordValues.appendScalars(at: facets[f].path, in: record, to: &scalars)
                for scalar in scalars {
                    guard let text = scalar.scalarText else { continue }
                    let id = facets[f].interner.id(of: text)
                    if !seen.contains(id) { seen.append(id) }  // each value once per record
                }
                facets[f].values.append(contentsOf: seen)
                facets[f].starts.append(UInt32(facets[f].values.count))
            }
            let position = count
            RecordValues.forEachNumber(in: record) { path, number in
                numerics[path, default: NumericValues()].append(number, of: position)
            }
            locations.append(GeoPoint.locations(of: record))
        }
    }

    /// The columns in document order (`order`: input positions).
    func finish(order: [Int]) -> (facets: [FacetColumn], numerics: [String: NumericColumn], geo: GeoIndex) {
        let facetColumns = facets.map { facet in
            // Value ids renumbered in order of first appearance in the documents kept.
            let strings = facet.interner.strings
            var newID = [UInt32](repeating: .max, count: strings.count)
            var values: [String] = []
            var docStarts: [UInt32] = [0]
            docStarts.reserveCapacity(order.count + 1)
            var docValues: [UInt32] = []
            for input in order {
                for i in Int(facet.starts[input])..<Int(facet.starts[input + 1]) {
                    let old = Int(facet.values[i])
                    if newID[old] == .max {
                        newID[old] = UInt32(values.count)
                        values.append(strings[old])
                    }
                    docValues.append(newID[old])
                }
                docStarts.append(UInt32(docValues.count))
            }
            // Slots come after the layout of the words (`SnapshotAccumulator.finish`): this runs
            // beside it, at the import's peak of memory.
            return FacetColumn(path: facet.path.text, values: values, docStarts: docStarts, docValues: docValues, slots: false)
        }
        var numericColumns: [String: NumericColumn] = [:]
        for (path, column) in numerics {
            var column = column
            column.advance(to: count)
            var docStarts: [UInt32] = [0]
            docStarts.reserveCapacity(order.count + 1)
            var values: [Double] = []
            for input in order {
                values.append(contentsOf: column.values[Int(column.starts[input])..<Int(column.starts[input + 1])])
                docStarts.append(UInt32(values.count))
            }
            // A path only superseded records held has no column, as in an index built without them.
            if !values.isEmpty { numericColumns[path] = NumericColumn(docStarts: docStarts, values: values) }
        }
        return (facetColumns, numericColumns, GeoIndex(locations: order.map { locations[$0] }))
    }
}

extension FacetColumn {
    /// A column from each document's value ids (`docStarts`/`docValues`, in document order):
    /// each value's documents (`valueStarts`/`valueDocs`) are derived, and its slots (when
    /// larger than `FacetSlots.batchedBytes`) unless `slots` is false.
    init(path: String, values: [String], docStarts: [UInt32], docValues: [UInt32], slots: Bool = true) {
        var valueStarts = [UInt32](repeating: 0, count: values.count + 1)
        for value in docValues { valueStarts[Int(value) + 1] += 1 }
        for i in 0..<values.count { valueStarts[i + 1] += valueStarts[i] }
        var cursor = valueStarts
        var valueDocs = [UInt32](repeating: 0, count: docValues.count)
        for doc in 0..<(docStarts.count - 1) {
            for i in Int(docStarts[doc])..<Int(docStarts[doc + 1]) {
                let value = Int(docValues[i])
                valueDocs[Int(cursor[value])] = UInt32(doc)
                cursor[value] += 1
            }
        }
        self.init(path: path, values: values, docStarts: docStarts, docValues: docValues,
                  valueStarts: valueStarts, valueDocs: valueDocs, slots: slots)
    }
}
