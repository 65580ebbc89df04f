import SearchAPI

extension SearchIndex {
    /// The record with this objectID, with only `attributesToRetrieve` (Algolia's get object,
    /// `GET /1/indexes/{index}/{objectID}?attributesToRetrieve=a,b`), or nil.
    /// `unretrievableAttributes` are left out unless `includeUnretrievable` (Algolia returns
    /// them to the admin key).
    ///
    /// ```swift
    /// let record = try index.object("42", attributesToRetrieve: ["name", "price"])
    /// ```
    public func object(_ objectID: String, attributesToRetrieve: [String]?, includeUnretrievable: Bool = false) throws(SearchError) -> JSONObject? {
        try objects([objectID], attributesToRetrieve: attributesToRetrieve, includeUnretrievable: includeUnretrievable)[0]
    }

    /// Several records by objectID, in order, nil for those that do not exist (Algolia's
    /// get objects, `POST /1/indexes/*/objects`).
    /// - Complexity: one indexed read per objectID.
    public func objects(_ objectIDs: [String], attributesToRetrieve: [String]? = nil,
                        includeUnretrievable: Bool = false) throws(SearchError) -> [JSONObject?] {
        let unretrievable = includeUnretrievable ? [] : live.state.configuration.unretrievable
        var result: [JSONObject?] = []
        result.reserveCapacity(objectIDs.count)
        for objectID in objectIDs {
            guard let record = try store.record(objectID: objectID) else {
                result.append(nil)
                continue
            }
            result.append(HitBuilder.retrieved(record, attributesToRetrieve: attributesToRetrieve ?? ["*"], unretrievable: unretrievable))
        }
        return result
    }

    /// Applies partial updates (Algolia's `partialUpdateObjects`): each update is an object with
    /// an `objectID`; every other attribute replaces the record's, or is an operation
    /// `{"_operation": "Increment", "value": 2}` (see `PartialUpdate.Operation`). A missing record
    /// is created from the update when `createIfNotExists` (Algolia's default), skipped otherwise.
    /// All the updates are one write: a search sees none or all of them.
    ///
    /// ```swift
    /// try index.partialUpdateObjects([["objectID": "1", "stock": ["_operation": "Decrement", "value": 1]]])
    /// ```
    /// - Returns: the objectIDs, in order.
    @discardableResult
    public func partialUpdateObjects(_ updates: [JSONValue], createIfNotExists: Bool = true) throws(SearchError) -> [String] {
        var patches: [(objectID: String, attributes: JSONObject)] = []
        // Checked before anything is written.
        for (position, update) in updates.enumerated() { patches.append(try SearchIndex.partialUpdatePatch(update, position: position)) }
        // Read from the stored records and written only if no other process committed between.
        try writeReadModified { () throws(SearchError) -> RecordStore.Change in
            // Several updates of one record in a call apply in order, each on the result of the last.
            var updated: [String: JSONObject] = [:]
            var order: [String] = []
            for patch in patches {
                var existing = updated[patch.objectID]
                if existing == nil { existing = try store.record(objectID: patch.objectID) }
                guard let record = try PartialUpdate.apply(patch.attributes, objectID: patch.objectID, to: existing,
                                                           createIfNotExists: createIfNotExists) else { continue }
                if updated[patch.objectID] == nil { order.append(patch.objectID) }
                updated[patch.objectID] = record
            }
            return RecordStore.Change(upserts: order.map { updated[$0]! })
        }
        return patches.map(\.objectID)
    }
}

/// Algolia's partial update of one record: plain attributes replace the record's, and
/// `{"_operation": ..., "value": ...}` changes one in place.
enum PartialUpdate {
    /// One attribute of an update.
    enum Operation {
        /// A plain value: replaces the attribute.
        case set(JSONValue)
        /// `Increment` (negative for `Decrement`): adds to a number; a missing attribute counts as 0.
        case increment(JSONValue, negated: Bool)
        /// `Add`: appends to an array (each element of an array value); a scalar becomes an array.
        case add(JSONValue)
        /// `Remove`: removes every element equal to the value (or to any element of an array value).
        case remove(JSONValue)
        /// `AddUnique`: appends the values not already in the array.
        case addUnique(JSONValue)
        /// `IncrementFrom`: when the attribute equals the value (a missing one counts as 0),
        /// sets it to value + 1; otherwise the whole update of this record is ignored.
        case incrementFrom(Int64)
        /// `IncrementSet`: when the value is greater than the attribute (a missing one counts as
        /// 0), sets it to the value; otherwise the whole update of this record is ignored.
        case incrementSet(Int64)

        static let names = ["Increment", "Decrement", "Add", "Remove", "AddUnique", "IncrementFrom", "IncrementSet"]

        init(key: String, value: JSONValue) throws(SearchError) {
            guard case .object(let object) = value, let operation = object["_operation"] else {
                self = .set(value)
                return
            }
            let operand = object["value"] ?? .null
            switch operation.stringValue {
            case "Increment"?, "Decrement"?:
                guard operand.doubleValue != nil else {
                    throw .invalidParameter("\(key).value", expected: "a number for \(operation.stringValue!)", got: operand.jsonString)
                }
                self = .increment(operand, negated: operation.stringValue == "Decrement")
            case "Add"?: self = .add(operand)
            case "Remove"?: self = .remove(operand)
            case "AddUnique"?: self = .addUnique(operand)
            case "IncrementFrom"?, "IncrementSet"?:
                guard let number = operand.intValue else {
                    throw .invalidParameter("\(key).value", expected: "an integer for \(operation.stringValue!)", got: operand.jsonString)
                }
                self = operation.stringValue == "IncrementFrom" ? .incrementFrom(Int64(number)) : .incrementSet(Int64(number))
            default:
                throw .invalidParameter("\(key)._operation", expected: "one of \(Operation.names.joined(separator: ", "))", got: operation.jsonString)
            }
        }
    }

    /// The record after the update; nil when nothing is written (a missing record without
    /// `createIfNotExists`, or an `IncrementFrom`/`IncrementSet` condition that does not hold).
    static func apply(_ attributes: JSONObject, objectID: String, to record: JSONObject?,
                      createIfNotExists: Bool) throws(SearchError) -> JSONObject? {
        if record == nil && !createIfNotExists { return nil }
        var result = record ?? ["objectID": .string(objectID)]
        for (key, value) in attributes where key != "objectID" {
            let current = result[key]
            switch try Operation(key: key, value: value) {
            case .set(let value):
                result[key] = value
            case .increment(let operand, let negated):
                result[key] = sum(current ?? .int(0), operand, negated: negated)
            case .add(let operand):
                result[key] = .array(elements(current) + elements(operand))
            case .remove(let operand):
                let removed = elements(operand)
                result[key] = .array(elements(current).filter { !removed.contains($0) })
            case .addUnique(let operand):
                var list = elements(current)
                for element in elements(operand) where !list.contains(element) { list.append(element) }
                result[key] = .array(list)
            case .incrementFrom(let expected):
                let present = current.flatMap(\.intValue).map(Int64.init) ?? (current == nil ? 0 : nil)
                guard present == expected else { return nil }
                result[key] = .int(expected + 1)
            case .incrementSet(let proposed):
                let present = current.flatMap(\.intValue).map(Int64.init) ?? 0
                guard proposed > present else { return nil }
                result[key] = .int(proposed)
            }
        }
        return result
    }

    private static func elements(_ value: JSONValue?) -> [JSONValue] {
        switch value {
        case nil, .null?: []
        case .array(let list)?: list
        case let scalar?: [scalar]
        }
    }

    private static func sum(_ current: JSONValue, _ operand: JSONValue, negated: Bool) -> JSONValue {
        if case .int(let a) = current, case .int(let b) = operand {
            let (total, overflow) = negated ? a.subtractingReportingOverflow(b) : a.addingReportingOverflow(b)
            if !overflow { return .int(total) }
        }
        let a = current.doubleValue ?? 0
        let b = operand.doubleValue ?? 0
        return .double(negated ? a - b : a + b)
    }
}
