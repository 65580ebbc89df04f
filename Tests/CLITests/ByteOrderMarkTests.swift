import Foundation
import SearchAPI
import Testing

/// Files saved by editors that write a UTF-8 byte-order mark.
@Suite struct ByteOrderMarkTests {
    @Test func importAndSettingsFilesStartingWithAByteOrderMarkAreRead() throws {
        let data = DataDirectory()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bom-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bom = Data(JSONValue.byteOrderMark)
        let records = folder.appendingPathComponent("records.json")
        let settings = folder.appendingPathComponent("settings.json")
        try (bom + Data(#"[{"objectID": "1", "name": "Lamp", "brand": "Écho"}]"#.utf8)).write(to: records)
        try (bom + Data(#"{"attributesForFaceting": ["brand"]}"#.utf8)).write(to: settings)
        let imported = try CLI.run(["import", "--data", data.path, "things", records.path, "--settings", settings.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 1 record into things"))
        let shown = try CLI.run(["settings", "--data", data.path, "things"])
        #expect(try JSONValue(parsing: shown.stdout)["attributesForFaceting"] == ["brand"])
    }
}
