import Foundation
import SearchAPI

// One write: the change committed in one transaction of the store, the records tokenized once
// for both their segment and their FTS5 text, and the index derived from it (a segment of the
// records written, or the whole index anew).
extension LiveIndex {
    /// What a committed write left for the in-memory index.
    enum Written {
        /// The index was derived anew from every record (a clear, new settings, a large write).
        case rebuilt(IndexSnapshot)
        /// The records changed are in the change log, at this generation; `written` is the
        /// segment of the records added or replaced, tokenized by the write (nil when it wrote
        /// none): `DerivedIndex.catchUp` takes it rather than reading them back.
        case logged(generation: Int64, written: WrittenSegment?)
    }

    /// Applies a change and publishes it; the caller holds `writeLock`.
    func write(_ change: RecordStore.Change) throws(SearchError) {
        guard try writeIfCurrent(change) else {
            throw SearchError(.internalError, "The index at \(store.path) changed while the write was prepared; try again")
        }
    }

    /// Applies a change and publishes it, the caller holding `writeLock`; false (nothing written)
    /// when the stored generation is not the change's `expectedGeneration`.
    func writeIfCurrent(_ change: RecordStore.Change) throws(SearchError) -> Bool {
        // Never on the empty state a failed background derivation left.
        try deriveIfFailedLocked()
        var change = change
        // A delta the size of the index would cost every later write as much as a rebuild does.
        change.deriveAnew = change.deriveAnew || change.size > state.base.documentCount
        guard let written = try commit(change) else { return false }
        publish(written)
        return true
    }

    /// Commits a change in one transaction. A small write is logged (its records carry the new
    /// generation; deletions go to `removed_records`) and the index catches up with it from its
    /// own tokenization; a clear, a settings change or a large write also derives the index anew
    /// and stores it. When anything throws, nothing of the change is kept. Nil (nothing written)
    /// when the stored generation is not the change's `expectedGeneration`.
    private func commit(_ change: RecordStore.Change) throws(SearchError) -> Written? {
        let started = ContinuousClock.now
        try store.beginWrite()
        defer { store.endWrite() }
        // Held until the new derived file is stored, when free: a process that sees this commit
        // before the file is there waits for it instead of rebuilding it too. Never waited for
        // (a long rebuild elsewhere must not hold up writes).
        let derivedLock = RebuildLock(path: store.derivedPath + ".lock", wait: false)
        defer { derivedLock.unlock() }
        // A write that derives the index anew: what it accumulated, to lay out once committed.
        var accumulated: (SnapshotAccumulator, Int64)?
        // The rules the change wrote, published once committed.
        var rules: RuleBook?
        do {
            let written = try store.inWriteTransaction { () -> Written? in
                let stored = try store.writtenGeneration()
                if let expected = change.expectedGeneration, stored != expected { return nil }
                let generation = stored + 1
                let previous = try store.writtenSettings()
                let settings = try change.updateSettings?(previous) ?? previous
                let settingsChange = !settings.isIdentical(to: previous)
                let configuration = try self.configuration(for: settings)
                let previousConfiguration = settingsChange ? try self.configuration(for: previous) : configuration
                // A new tokenizer (`separatorsToIndex`) also needs a new table; comparing with the
                // table's declaration catches an index whose setting was stored before it applied.
                let tokenizerMatches = try store.textTableTokenizes(with: configuration.separators)
                let rebuildText = previousConfiguration.levelCount != configuration.levelCount
                    || previous.searchableAttributes != settings.searchableAttributes
                    || previousConfiguration.separators != configuration.separators
                    || previous.stringList("camelCaseAttributes") != settings.stringList("camelCaseAttributes")
                    || previous.values["decompoundedAttributes"] != settings.values["decompoundedAttributes"]
                    || !tokenizerMatches
                let rebuild = change.deriveAnew || change.clearFirst || settingsChange || rebuildText
                    || change.size > IndexState.deltaLimit   // as a merge would right after it
                    || change.upsertBatches != nil
                if let update = change.markUpdate {
                    guard try store.replacePrimaryMark(expected: update.expected, with: update.new) else { return nil }
                } else if change.forgetsPrimaryMark || change.writesRecords {
                    try store.forgetPrimaryMark()
                }
                if change.updateSettings != nil { try store.writeSettings(settings) }
                if let update = change.updateRules {
                    let book = RuleBook(generation: generation, stored: try update(try store.writtenRules()))
                    try store.writeRules(book.stored, generation: generation)
                    rules = book
                } else if try store.writtenRulesGeneration() != ruleBook.value.generation {
                    // Another process changed them since this one last read them: this write
                    // brings the state past that change, so the rules are read here too.
                    let (rulesGeneration, stored) = try store.writtenRulesAndGeneration()
                    rules = RuleBook(generation: rulesGeneration, stored: stored)
                }
                try store.ensureTextTable(levelCount: configuration.levelCount, separators: configuration.separators, recreate: rebuildText)
                if change.clearFirst { try store.removeAllRecords(generation: generation) }
                let layout = configuration.textLayout
                // With the text table recreated, there are no old FTS5 rows to remove.
                let oldText = rebuildText ? nil : layout
                try store.applyDeletions(change.deletions, rowIDs: change.deletedRowIDs, text: oldText, generation: generation)
                var streamed = try change.upsertBatches.map { next throws in
                    try streamUpserts(next, expecting: change.expectedBatchedRecords, keepOldRecords: oldText != nil,
                                      layout: layout, configuration: configuration, generation: generation)
                }
                // A logged write's records are tokenized once, for their segment and their FTS5
                // text; many of them on another thread while they are stored.
                let segmentWork = rebuild ? nil : SegmentWork(change.upserts, configuration: configuration)
                defer { segmentWork?.waitForTokens() }
                let written = try store.upsertRecords(change.upserts, keepOldRecords: oldText != nil, generation: generation)
                try store.stampGeneration(generation)
                guard rebuild else {
                    let segment = try segmentWork.map { work throws in
                        try writeText(written, work, layout: layout, generation: generation)
                    }
                    return .logged(generation: generation, written: segment)
                }
                // The records not streamed (every record when none was) go through the same
                // accumulator, a batch at a time; their text too when the text table is new.
                // Moved out of `streamed`: held twice, the builder's per-record data could not be
                // released as `finish` lays the index out.
                var accumulator = streamed?.accumulator
                    ?? SnapshotAccumulator(configuration: configuration, spillFrom: SnapshotAccumulator.spillFrom, spillBeside: store.derivedPath)
                let textsNeedRefill = streamed?.textsNeedRefill == true
                let wasStreamed = streamed != nil
                // The rows past it are the stream's (already accumulated) or `written`'s: not
                // read again (an import into a new index reads none).
                let storedUpTo = streamed.map { max($0.storedBefore, written.order.max() ?? 0) }
                streamed = nil
                // The FTS5 text, from the same tokenization: every record's into a new table,
                // else the written records' (a replaced record's old row removed first).
                let text = try store.textTableWriter(levelCount: configuration.levelCount)
                let storeText = { (rowID: Int64, texts: TextColumns, record: Int) throws in
                    if !rebuildText {
                        guard written.records[rowID] != nil else { return }
                        if let old = written.replaced[rowID] { try text.delete(rowID: rowID, layout.columns(old), record: 0) }
                    }
                    try text.insert(rowID: rowID, texts, record: record)
                }
                try DerivedIndex.accumulate(store.writtenRecords, into: &accumulator, before: wasStreamed ? generation : nil,
                                            upTo: storedUpTo, known: written.records,
                                            texts: rebuildText || !written.records.isEmpty ? storeText : nil)
                if textsNeedRefill { try store.refillText(layout) }
                SnapshotAccumulator.returnFreedMemory()
                // Laid out once committed (below), while the log is checkpointed: this
                // result only says the transaction committed, and is replaced there.
                accumulated = (accumulator, generation)
                return .logged(generation: generation, written: nil)
            }
            guard let written else { return nil }
            if let rules { ruleBook.value = rules }
            if let (accumulator, generation) = accumulated.take() {
                // Committed: whatever happens now, the write is not reported as failed.
                guard let snapshot = derived.finishCommitted(consume accumulator, generation: generation, started: started) else {
                    return .logged(generation: generation, written: nil)
                }
                return .rebuilt(snapshot)
            }
            store.countTowardCheckpoint(change.size)
            return written
        } catch {
            throw store.writeError(error)
        }
    }

    /// The configuration of `settings`: the current state's when it was made from these (every
    /// write but a settings change), else made anew. Making one reads every setting, about
    /// 0.3 M instructions with the products' settings: a write made two, about a tenth of a
    /// save's instructions (Benchmarks/README.md).
    func configuration(for settings: IndexSettings) throws(SearchError) -> IndexConfiguration {
        let known = state.configuration
        return known.settings.isIdentical(to: settings) ? known : try IndexConfiguration(settings: settings)
    }

    /// What `streamUpserts` leaves: the streamed records accumulated, and whether the text
    /// table must be filled again (an objectID came twice in the stream, in different batches:
    /// its first text row is stored, and a contentless table can remove it only given that text).
    struct StreamedRecords {
        var accumulator: SnapshotAccumulator
        var textsNeedRefill: Bool
        /// The largest rowid before the stream: every row past it was stored by the stream.
        var storedBefore: Int64
    }

    /// Writes streamed records a batch at a time: each batch's records into the table on this
    /// thread, while the batch before is tokenized once, on a second thread, into both the
    /// index's per-record data and its FTS5 text, which this thread then stores. One batch of
    /// parsed records (two, in flight) is held at a time.
    private func streamUpserts(_ next: () throws(SearchError) -> RecordStore.Change.RecordBatch?, expecting expectedCount: Int?,
                               keepOldRecords: Bool, layout: RecordStore.TextLayout, configuration: IndexConfiguration,
                               generation: Int64) throws -> StreamedRecords {
        var accumulator = SnapshotAccumulator(configuration: configuration, spillFrom: SnapshotAccumulator.spillFrom, spillBeside: store.derivedPath)
        accumulator.expectedInputs = expectedCount
        let accumulation = BackgroundAccumulation<RecordStore.WrittenRecords>(taking: &accumulator, texts: true)
        let existingUpTo = try store.largestRowID()
        let text = try store.textTableWriter(levelCount: configuration.levelCount)
        /// Each streamed rowid's position in the accumulator.
        var positions: [Int64: Int] = [:]
        var added = 0
        var superseded: [Int] = []
        var textsNeedRefill = false

        /// Stores a batch's texts, tokenized on the other thread.
        func storeTexts(_ tokenized: (texts: TextColumns, tag: RecordStore.WrittenRecords)?) throws {
            guard let (texts, written) = tokenized, !textsNeedRefill else { return }
            for (record, rowID) in written.order.enumerated() {
                if let old = written.replaced[rowID] { try text.delete(rowID: rowID, layout.columns(old), record: 0) }
                try text.insert(rowID: rowID, texts, record: record)
            }
        }

        while let batch = try next() {
            let written = try store.upsertRecords(batch.records, bodies: batch.bodies, keepOldRecords: keepOldRecords,
                                                  generation: generation, existingUpTo: existingUpTo)
            let inputs = written.order.map { SnapshotBuilder.Input(rowID: $0, record: written.records[$0]!) }
            for (offset, rowID) in written.order.enumerated() {
                if let previous = positions.updateValue(added + offset, forKey: rowID) {
                    superseded.append(previous)
                    textsNeedRefill = true
                }
            }
            added += inputs.count
            // This batch is tokenized on the other thread while the texts of the one before are
            // stored on this one.
            try storeTexts(accumulation.add(inputs, tag: written))
        }
        try storeTexts(accumulation.waitForBatchInFlight())
        accumulator = accumulation.take()
        for position in superseded { accumulator.supersede(inputAt: position) }
        return StreamedRecords(accumulator: accumulator, textsNeedRefill: textsNeedRefill, storedBefore: existingUpTo)
    }
}
