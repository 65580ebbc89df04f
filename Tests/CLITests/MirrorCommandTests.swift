import Foundation
import SearchAPI
import Testing

/// `offline-search mirror` end to end: one binary serves a data folder on loopback, another
/// mirrors an index of it into a second folder, which then answers the same searches.
@Suite(.serialized) struct MirrorCommandTests {
    /// `offline-search serve` on a free loopback port, stopped with SIGINT when released.
    final class Server {
        let process: Process
        let port: Int

        init(data: String, adminKey: String) throws {
            (process, port) = try CLI.startServe(["--data", data, "--port", "0", "--app-id", "APP", "--admin-key", adminKey])
        }

        deinit {
            if process.isRunning {
                process.interrupt()
                process.waitUntilExit()
            }
        }
    }

    static let records = (0..<150).map { i in
        #"{"objectID":"\#(i)","name":"item \#(i) \#(["lamp", "desk", "chair"][i % 3])","brand":"\#(["Oak", "Pine"][i % 2])","rank":\#(i)}"#
    }.joined(separator: "\n")

    @Test func mirrorsAServedIndexIntoAnotherFolderThatAnswersTheSame() throws {
        let source = DataDirectory(), copy = DataDirectory()
        let records = try TemporaryFile(Self.records, suffix: ".jsonl")
        let settings = try TemporaryFile(#"{"searchableAttributes":["name"],"attributesForFaceting":["brand"],"customRanking":["desc(rank)"]}"#)
        #expect(try CLI.run(["import", "--data", source.path, "shop", records.path, "--settings", settings.path]).status == 0)
        let server = try Server(data: source.path, adminKey: "admin")

        let mirrored = try CLI.run(["mirror", "shop", "--app-id", "APP", "--api-key", "admin", "--remote", "http://127.0.0.1:\(server.port)",
                                    "--data", copy.path])
        #expect(mirrored.status == 0, "\(mirrored.stderr)")
        #expect(mirrored.stdout.contains("Mirrored 150 records and 0 synonyms of shop into shop"), "\(mirrored.stdout)")
        for query in ["", "lamp", "desk 1"] {
            let original = try CLI.run(["search", "--data", source.path, "shop", query, "--facets", "brand", "--json"])
            let local = try CLI.run(["search", "--data", copy.path, "shop", query, "--facets", "brand", "--json"])
            #expect(try Self.withoutTiming(local.stdout) == (try Self.withoutTiming(original.stdout)))
        }

        // A filtered mirror into another name; a wrong key is Algolia's 403, and nothing is written.
        let filtered = try CLI.run(["mirror", "shop", "--app-id", "APP", "--api-key", "admin", "--remote", "http://127.0.0.1:\(server.port)",
                                    "--data", copy.path, "--filters", "brand:Oak", "--into", "oak"])
        #expect(filtered.stdout.contains("Mirrored 75 records"), "\(filtered.stdout) \(filtered.stderr)")
        let refused = try CLI.run(["mirror", "shop", "--app-id", "APP", "--api-key", "wrong", "--remote", "http://127.0.0.1:\(server.port)",
                                   "--data", copy.path, "--into", "other"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Invalid Application-ID or API key"), "\(refused.stderr)")
        let listing = try CLI.run(["list", "--data", copy.path])
        #expect(listing.lines == ["oak   75 records", "shop  150 records"], "\(listing.stdout)")
    }

    @Test func explainsThatThereIsNoChangeFeedAndChecksTheRemoteURL() throws {
        let help = try CLI.run(["mirror", "--help"])
        #expect(help.stdout.contains("no change feed"))
        let bad = try CLI.run(["mirror", "shop", "--app-id", "APP", "--api-key", "k", "--remote", "ftp://x"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--remote must be a URL such as http://127.0.0.1:8108"), "\(bad.stderr)")
    }

    static func withoutTiming(_ text: String) throws -> String {
        guard case .object(var object) = try JSONValue(parsingUTF8: Array(text.utf8)) else { return text }
        object["processingTimeMS"] = nil
        return JSONValue.object(object).jsonString
    }
}
