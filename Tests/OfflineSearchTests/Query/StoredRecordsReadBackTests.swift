import Testing
@testable import OfflineSearch
import SearchAPI

/// The records a state's searches read are kept on the state and read back
/// (`IndexState.storedRecords`): a write makes a new state, so the next search shows the
/// record as written, never the one kept before.
@Suite struct StoredRecordsReadBackTests {
    func names(_ index: SearchIndex, _ query: String) throws -> [String] {
        try index.search(SearchParameters(query: query)).hits.compactMap { $0.objectValue?["name"]?.stringValue }
    }

    @Test func aSearchAfterAWriteShowsTheRecordAsWritten() throws {
        let engine = try TestEngine()
        let index = try engine.index(records: [["objectID": "1", "name": "red lamp"], ["objectID": "2", "name": "green lamp"]])
        #expect(try names(index, "lamp") == ["red lamp", "green lamp"])
        #expect(try names(index, "lamp") == ["red lamp", "green lamp"], "read back from the state")
        #expect(index.live.state.storedRecords.count == 2)

        _ = try index.partialUpdateObjects([["objectID": "1", "name": "red lamp shade"]])
        #expect(try names(index, "lamp") == ["red lamp shade", "green lamp"], "the record as updated, not as kept")
        try index.saveObjects([["objectID": "2", "name": "blue lamp"]])
        #expect(try names(index, "lamp") == ["red lamp shade", "blue lamp"], "the record as replaced")
        _ = try index.deleteObjects(["1"])
        #expect(try names(index, "lamp") == ["blue lamp"], "a deleted record is gone")
    }
}
