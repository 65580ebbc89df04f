import SearchAPI

extension SearchIndex {
    /// Applies the operations in order as one write: one transaction, so a process killed during
    /// it, or a search running beside it, sees all of the batch or none of it. Each operation
    /// sees the ones before it (a partial update of a record saved earlier in the batch updates
    /// that record; a record saved, then deleted, is gone).
    ///
    /// `.delete` (of the index itself) is not a write to its records: `SearchEngine.applyBatch`
    /// takes it, and here it is refused.
    /// - Returns: the objectIDs the operations name, in order.
    @discardableResult
    public func batch(_ operations: [BatchOperation]) throws(SearchError) -> [String] {
        // Checked before anything is written.
        var objectIDs: [String] = []
        var prepared: [(operation: BatchOperation, objectID: String?, record: JSONObject?)] = []
        for (position, operation) in operations.enumerated() {
            switch operation {
            case .addObject(let record), .updateObject(let record):
                let object = try SearchIndex.normalizedRecord(record, position: position)
                let objectID = object["objectID"]!.stringValue!
                objectIDs.append(objectID)
                prepared.append((operation, objectID, object))
            case .partialUpdateObject(let update, _):
                let (objectID, _) = try SearchIndex.partialUpdatePatch(update, position: position)
                objectIDs.append(objectID)
                prepared.append((operation, objectID, nil))
            case .deleteObject(let objectID):
                objectIDs.append(objectID)
                prepared.append((operation, objectID, nil))
            case .clear:
                prepared.append((operation, nil, nil))
            case .delete:
                throw .invalidParameter("operations[\(position)]", expected: "an operation on the records of \(name)",
                                        got: "delete (of the index itself)")
            }
        }
        try writeReadModified { () throws(SearchError) -> RecordStore.Change in
            var clearFirst = false
            // Each record the batch touches: its final version, or nil when it ends deleted.
            var final: [String: JSONObject?] = [:]
            var order: [String] = []
            func set(_ objectID: String, _ record: JSONObject?) {
                if final.updateValue(record, forKey: objectID) == nil { order.append(objectID) }
            }
            for (operation, objectID, record) in prepared {
                switch operation {
                case .addObject, .updateObject: set(objectID!, record)
                case .deleteObject: set(objectID!, nil)
                case .delete: continue   // refused above
                case .clear:
                    clearFirst = true
                    final.removeAll()
                    order.removeAll()
                case .partialUpdateObject(let update, let create):
                    let existing: JSONObject? = if let known = final[objectID!] { known }
                        else if clearFirst { nil } else { try store.record(objectID: objectID!) }
                    guard let attributes = update.objectValue,
                          let updated = try PartialUpdate.apply(attributes, objectID: objectID!, to: existing, createIfNotExists: create)
                    else { continue }
                    set(objectID!, updated)
                }
            }
            return RecordStore.Change(clearFirst: clearFirst, upserts: order.compactMap { final[$0] ?? nil },
                                     deletions: order.filter { final[$0] == .some(nil) })
        }
        return objectIDs
    }

    /// A partial update's objectID and attributes, checked (each `_operation` too).
    static func partialUpdatePatch(_ update: JSONValue, position: Int) throws(SearchError) -> (objectID: String, attributes: JSONObject) {
        guard case .object(let attributes) = update else {
            throw SearchError(.invalidJSON, "update \(position + 1): expected a JSON object with an objectID, got \(update.jsonString.prefix(60))")
        }
        guard let objectID = attributes["objectID"]?.stringValue ?? attributes["objectID"]?.intValue.map(String.init), !objectID.isEmpty else {
            throw SearchError(.invalidParameter, "update \(position + 1): objectID is required for a partial update")
        }
        for (key, value) in attributes { _ = try PartialUpdate.Operation(key: key, value: value) }
        return (objectID, attributes)
    }
}
