import Testing
@testable import OfflineSearch
import SearchAPI

/// Delta segments are merged from their snapshots (postings, forward index, columns), not by
/// reading and tokenizing their records again (a write costs in proportion to the
/// change). A merged segment must be the very snapshot its live records would build: compared
/// byte for byte, under settings that exercise every column.
@Suite struct SegmentMergeTests {
    static let settingsVariants: [JSONObject] = [
        IncrementalUpdateTests.settings,
        // A sort replica (runs of equal sort values), a text ranking value, numbers at a
        // nested path, and a placeholder synonym.
        ["searchableAttributes": ["name", "details.maker", "unordered(description)"],
         "attributesForFaceting": ["brand", "details.maker", "categories"],
         "ranking": ["asc(price)", "typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"],
         "customRanking": ["asc(label)", "desc(popularity)"],
         "synonyms": [["objectID": "p", "type": "placeholder", "placeholder": "<size>", "replacements": ["big", "small"]]]],
        // No searchable attributes (every attribute, one level), no ranking values.
        ["attributesForFaceting": ["brand"]],
    ]

    static func record(_ id: Int, using generator: inout SeededGenerator) -> JSONObject {
        var record = IncrementalUpdateTests.record(id, using: &generator).objectValue!
        if generator.chance(50) { record["label"] = .string(generator.pick(["alpha", "beta", "Gamma", "delta"])) }
        if generator.chance(40) {
            record["details"] = ["maker": .string(generator.pick(IncrementalUpdateTests.brands) + " <size>"),
                                 "weight": .double(Double(Int.random(in: 1...90, using: &generator)) / 10)]
        }
        if generator.chance(30) {
            record["_geoloc"] = generator.chance(50)
                ? ["lat": .double(Double.random(in: -60...60, using: &generator)), "lng": .double(Double.random(in: -170...170, using: &generator))]
                : [["lat": 48.85, "lng": 2.35], ["lat": .double(Double.random(in: -60...60, using: &generator)), "lng": 10]]
        }
        if generator.chance(20) { record["price"] = nil }
        return record
    }

    /// Three segments built apart, some of their documents removed (replaced or deleted), merged
    /// two ways: the newest two, then all of them.
    @Test(arguments: 0..<3) func aMergedSegmentIsTheSegmentItsRecordsBuild(variant: Int) throws {
        let configuration = try IndexConfiguration(settings: IndexSettings(json: SegmentMergeTests.settingsVariants[variant]))
        var generator = SeededGenerator(seed: UInt64(40 + variant))
        let inputs = (0..<260).map { SnapshotBuilder.Input(rowID: Int64($0 * 3 + 1), record: SegmentMergeTests.record($0, using: &generator)) }
        let parts = [inputs[0..<150], inputs[150..<230], inputs[230...]].map(Array.init)
        let segments = parts.enumerated().map { number, part in
            IndexState.Segment(snapshot: SnapshotBuilder.build(part, configuration: configuration, generation: Int64(number + 1)))
        }
        let removed: Set<Int64> = [1, 4, 100, 301, 448, 451, 700, 778]
        let live = segments.map { $0.removing(Array(removed)) }
        #expect(live.map(\.removedCount) == [5, 1, 2])

        func expected(_ parts: [[SnapshotBuilder.Input]]) -> [UInt8] {
            SnapshotBuilder.build(parts.joined().filter { !removed.contains($0.rowID) }, configuration: configuration, generation: 9).encoded()
        }
        let newestTwo = IndexState.Segment(merging: Array(live[1...]), configuration: configuration, generation: 9)
        #expect(newestTwo.snapshot.encoded() == expected(Array(parts[1...])))
        #expect(newestTwo.liveCount == 107)
        let all = IndexState.Segment(merging: [live[0], newestTwo], configuration: configuration, generation: 9)
        #expect(all.snapshot.encoded() == expected(parts))
        // Every document removed: an empty segment, as no records build.
        let none = IndexState.Segment(merging: [segments[2].removing(parts[2].map(\.rowID))], configuration: configuration, generation: 9)
        #expect(none.snapshot.encoded() == expected([]))
    }

    /// Segments are merged in the background while writes go on: a merged pair replaces its two
    /// segments less what the writes removed from them meanwhile, and is dropped when a merge of
    /// the whole index replaced them.
    @Test func aPairMergedWhileWritesRemoveItsRecordsLosesThemToo() throws {
        let configuration = try IndexConfiguration(settings: IndexSettings(json: IncrementalUpdateTests.settings))
        var generator = SeededGenerator(seed: 77)
        // Segments too large for a write to merge them itself.
        #expect(200 + 200 > IndexState.mergedInWriteUpTo)
        let inputs = (0..<600).map { SnapshotBuilder.Input(rowID: Int64($0 + 1), record: SegmentMergeTests.record($0, using: &generator)) }
        var state = IndexState(base: SnapshotBuilder.build(Array(inputs[0..<200]), configuration: configuration, generation: 1))
        state = state.applying(generation: 2, removedRowIDs: [], upserts: Array(inputs[200..<400]))
        state = state.applying(generation: 3, removedRowIDs: [], upserts: Array(inputs[400..<600]))
        #expect(state.segments.map(\.liveCount) == [200, 200, 200])
        let position = try #require(state.mergeablePair)
        #expect(position == 1)
        let pair = (older: state.segments[1], newer: state.segments[2])
        let merged = IndexState.Segment(merging: [pair.older, pair.newer], configuration: configuration, generation: 3)

        // Meanwhile: two records of the pair deleted, one replaced, one of the base deleted.
        var replacement = inputs[250]
        replacement.record["name"] = "replaced"
        let later = state.applying(generation: 4, removedRowIDs: [246, 501, 7], upserts: [replacement])
        let replaced = try #require(later.replacing([pair.older, pair.newer], with: merged))
        #expect(replaced.generation == 4)
        #expect(replaced.segments.map(\.liveCount) == [199, 397, 1])
        func live(_ state: IndexState) -> [Int64] {
            state.segments.flatMap { segment in
                (0..<segment.snapshot.documentCount).filter { segment.live?.contains($0) ?? true }.map { segment.snapshot.rowIDs[$0] }
            }.sorted()
        }
        #expect(live(replaced) == live(later))
        #expect(live(replaced) == inputs.map(\.rowID).filter { ![246, 501, 7].contains($0) })
        #expect(replaced.mergeablePair == nil)

        // A merge of the whole index replaced the pair: the merged pair is dropped.
        #expect(IndexState(base: SnapshotBuilder.build(inputs, configuration: configuration, generation: 4)).replacing([pair.older, pair.newer], with: merged) == nil)
    }

    /// A merge of the whole index keeps what was written while it ran: the segments written
    /// since stay, what was deleted or replaced since is removed from the new base, and a
    /// segment of the merged state that a write folded into a newer one meanwhile counts as
    /// gone from the base (its records live on in the newer one). A base replaced meanwhile (a
    /// write derived the index whole) drops the merge.
    @Test func aMergeOfTheWholeIndexKeepsWhatWasWrittenWhileItRan() throws {
        let configuration = try IndexConfiguration(settings: IndexSettings(json: IncrementalUpdateTests.settings))
        var generator = SeededGenerator(seed: 78)
        let inputs = (0..<700).map { SnapshotBuilder.Input(rowID: Int64($0 + 1), record: SegmentMergeTests.record($0, using: &generator)) }
        var state = IndexState(base: SnapshotBuilder.build(Array(inputs[0..<400]), configuration: configuration, generation: 1))
        state = state.applying(generation: 2, removedRowIDs: [], upserts: Array(inputs[400..<600]))
        state = state.applying(generation: 3, removedRowIDs: [3], upserts: [inputs[600]])
        #expect(state.segments.map(\.liveCount) == [399, 200, 1])
        let before = state
        let merged = IndexState.Segment(merging: before.segments, configuration: configuration, generation: 3)
        #expect(merged.snapshot.encoded()
            == SnapshotBuilder.build(Array(inputs[0..<601]).filter { $0.rowID != 3 }, configuration: configuration, generation: 3).encoded())

        // Meanwhile: a base record and one of the delta deleted, a base record replaced, a new
        // one; the write merges its small segment with the run's newest, which is then gone.
        var replacement = inputs[5]
        replacement.record["name"] = "replaced"
        let later = before.applying(generation: 4, removedRowIDs: [10, 450], upserts: [inputs[601], replacement])
        #expect(later.segments.count == 3)
        #expect(!later.segments.contains { $0.snapshot === before.segments[2].snapshot })
        let replaced = try #require(later.replacingBase(before.segments, with: merged))
        func live(_ state: IndexState) -> [Int64] {
            state.segments.flatMap { segment in
                (0..<segment.snapshot.documentCount).filter { segment.live?.contains($0) ?? true }.map { segment.snapshot.rowIDs[$0] }
            }.sorted()
        }
        #expect(live(replaced) == live(later))
        #expect(live(replaced) == inputs[0..<602].map(\.rowID).filter { ![3, 10, 450].contains($0) })
        #expect(replaced.segments.count == 2)
        #expect(replaced.generation == 4)
        #expect(replaced.segments[1].snapshot === later.segments[2].snapshot)

        #expect(IndexState(base: SnapshotBuilder.build(inputs, configuration: configuration, generation: 5)).replacingBase(before.segments, with: merged) == nil)
    }
}

