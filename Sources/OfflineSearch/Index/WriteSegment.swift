import Foundation
import SearchAPI

// A logged write's records tokenized into a segment of their own and their FTS5 text.
extension LiveIndex {
    /// A logged write's records tokenized into a segment of their own and their FTS5 text:
    /// on another thread while the writer stores them when there are many, a chunk at a time so
    /// that the writer stores the FTS5 text of each chunk while the next is tokenized (their
    /// rowids are given once they are stored); else on the writer's thread.
    final class SegmentWork {
        private let owned: WorkerOwned<SnapshotAccumulator>
        /// The positions of each chunk, in order.
        let chunks: [Range<Int>]
        private let work: ChunkedBackgroundWork<TextColumns>?
        private var inlineTexts: TextColumns?
        /// From this many records on, they are tokenized on another thread.
        static let backgroundFrom = 64
        /// How many chunks a write tokenized on another thread is cut into.
        static let chunkCount = 4

        init?(_ records: [JSONObject], configuration: IndexConfiguration) {
            guard !records.isEmpty else { return nil }
            // Numbered by position until the rowids are known.
            let inputs = records.enumerated().map { SnapshotBuilder.Input(rowID: Int64($0.offset), record: $0.element) }
            let owned = WorkerOwned(SnapshotAccumulator(configuration: configuration))
            self.owned = owned
            if records.count >= SegmentWork.backgroundFrom {
                let size = (records.count + SegmentWork.chunkCount - 1) / SegmentWork.chunkCount
                let chunks = stride(from: 0, to: records.count, by: size).map { $0..<min($0 + size, records.count) }
                self.chunks = chunks
                work = ChunkedBackgroundWork(count: chunks.count) { chunk in owned.value.add(Array(inputs[chunks[chunk]]), texts: true) }
            } else {
                chunks = [0..<records.count]
                work = nil
                inlineTexts = owned.value.add(inputs, texts: true)
            }
        }

        /// The FTS5 text columns of the records of chunk `chunk` (`chunks`), once tokenized.
        func tokens(ofChunk chunk: Int) -> TextColumns {
            inlineTexts ?? work!.result(chunk)
        }

        /// Waits until every record is tokenized (the worker is then done with the accumulator).
        func waitForTokens() {
            for chunk in chunks.indices { _ = tokens(ofChunk: chunk) }
        }

        /// The segment of the records, given their rowids by position (0: not stored) and the
        /// position kept of each rowid (`RecordStore.WrittenRecords.positionsKept`): laid out on another
        /// thread, while the writer stores their FTS5 text and commits, when they were tokenized
        /// on one; else when first asked for.
        func layOut(rowIDs: [Int64], kept: [Int64: Int], generation: Int64) -> WrittenSegment {
            // The tokens first: once they are in, the worker is done with the accumulator, and
            // the layout below is its only user.
            waitForTokens()
            let owned = owned
            let layout: @Sendable () throws(SearchError) -> IndexSnapshot = { () throws(SearchError) -> IndexSnapshot in
                var accumulator = owned.take(leaving: SnapshotAccumulator(configuration: owned.value.configuration))
                accumulator.assignRowIDs(rowIDs)
                for (position, rowID) in rowIDs.enumerated() where kept[rowID] != position { accumulator.supersede(inputAt: position) }
                return try accumulator.finish(generation: generation)
            }
            guard work != nil else { return WrittenSegment(layout: layout, generation: generation) }
            return WrittenSegment(background: BackgroundWork { Result { () throws(SearchError) in try layout() } }, generation: generation)
        }
    }

    /// The FTS5 rows of written records (a replaced record's old row removed first), from the
    /// tokenization of `work`, a chunk at a time as it is tokenized; returns their segment, laid
    /// out meanwhile on another thread once the last chunk is tokenized (it never lengthens the
    /// time the database's write lock is held), or for a few records when first asked for,
    /// after the commit.
    func writeText(_ written: RecordStore.WrittenRecords, _ work: SegmentWork, layout: RecordStore.TextLayout,
                   generation: Int64) throws -> WrittenSegment {
        let kept = written.positionsKept
        let text = try store.textTableWriter(levelCount: layout.levelCount)
        var segment: WrittenSegment?
        for (chunk, positions) in work.chunks.enumerated() {
            let texts = work.tokens(ofChunk: chunk)
            if chunk == work.chunks.count - 1 {
                segment = work.layOut(rowIDs: written.rowIDs, kept: kept, generation: generation)
            }
            // Each stored record at the position kept of its rowid (a repeated objectID's last).
            for position in positions {
                let rowID = written.rowIDs[position]
                guard rowID != 0, kept[rowID] == position else { continue }
                if let old = written.replaced[rowID] { try text.delete(rowID: rowID, layout.columns(old), record: 0) }
                try text.insert(rowID: rowID, texts, record: position - positions.lowerBound)
            }
        }
        return segment!
    }

    /// The segment of a logged write's records (`Written.logged`), from the write's own
    /// tokenization (`SegmentWork.layOut`).
    final class WrittenSegment {
        let generation: Int64
        /// Lays the segment out when first asked for (a few records), or waits for it.
        private let layout: () throws(SearchError) -> IndexSnapshot
        /// The layout on another thread, if any.
        private let background: BackgroundWork<Result<IndexSnapshot, SearchError>>?
        private var laidOut: IndexSnapshot?

        init(layout: @escaping () throws(SearchError) -> IndexSnapshot, generation: Int64) {
            self.layout = layout
            background = nil
            self.generation = generation
        }

        init(background: BackgroundWork<Result<IndexSnapshot, SearchError>>, generation: Int64) {
            self.layout = { () throws(SearchError) in try background.wait().get() }
            self.background = background
            self.generation = generation
        }

        /// A segment never asked for (its write failed to commit, or the records were read back
        /// from the change log instead) waits for its layout: nothing goes on working after the
        /// write gave up on it.
        deinit { _ = background?.wait() }

        func snapshot() throws(SearchError) -> IndexSnapshot {
            if let laidOut { return laidOut }
            let snapshot = try layout()
            laidOut = snapshot
            return snapshot
        }
    }
}
