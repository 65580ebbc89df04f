import ArgumentParser
import Foundation
import OfflineSearch
import OfflineSearchMirror
import OfflineSearchRemote
import SearchAPI

/// `offline-search mirror`: copies an index of an Algolia application (or of another
/// `offline-search serve`) into the data folder, atomically.
struct MirrorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mirror",
        abstract: "Copy an Algolia index (settings, synonyms, records) into the data folder, atomically.",
        discussion: """
            The records are read with browse (the API key needs the browse ACL, and settings for the \
            settings), written into a temporary index, then moved over the local index: a failed or \
            interrupted mirror leaves the previous copy as it was, searchable.

            Algolia offers no change feed: running mirror again copies the whole index again and swaps it in. \
            Replicas are not mirrored (mirror each one by name if needed).

            Examples:
              offline-search mirror products --app-id ID --api-key KEY
              offline-search mirror products --app-id ID --api-key KEY \\
                --remote http://127.0.0.1:8108 --into products_copy
              offline-search mirror products --app-id ID --api-key KEY \\
                --filters "brand:Apple"
            """
    )

    @Argument(help: "The index to copy.") var index: String
    @Option(name: .customLong("app-id"), help: "The Algolia application ID.") var appID: String
    @Option(name: .customLong("api-key"), help: "An API key with the browse and settings ACLs.") var apiKey: String
    @Option(help: ArgumentHelp("A server to read from instead of Algolia's hosts, e.g. http://127.0.0.1:8108 (offline-search serve).",
                               valueName: "url"))
    var remote: String?
    @Option(help: "Copy only the records matching this filter (Algolia's filters syntax).") var filters: String?
    @Option(help: ArgumentHelp("The local index to write (default: the same name).", valueName: "name")) var into: String?
    @OptionGroup var data: DataOptions

    func validate() throws {
        if let remote {
            guard let url = URL(string: remote), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw ValidationError("--remote must be a URL such as http://127.0.0.1:8108, got \(remote)")
            }
        }
        guard !appID.isEmpty else { throw ValidationError("--app-id must not be empty") }
        guard !apiKey.isEmpty else { throw ValidationError("--api-key must not be empty") }
    }

    func run() async throws {
        var configuration = SearchClientConfiguration(appID: appID, apiKey: apiKey)
        if let remote, let url = URL(string: remote) { configuration.hosts = [SearchHost(url: url)] }
        let source = SearchClient(configuration: configuration)
        let engine = try data.folder.engine()
        let destination = into ?? index
        let label = "Mirroring \(index)"
        let report = try await IndexMirror(source: source, target: engine).mirror(indexName: index, into: destination, filters: filters) { progress in
            // A bar per update: ProgressBar is a view of the numbers, with no state to keep.
            let bar = ProgressBar(total: max(progress.totalRecords ?? 0, 1), label: label)
            bar.update(progress.recordsCopied, detail: MirrorCommand.describe(progress))
        }
        ProgressBar(total: 1, label: label).finish(detail: "done")
        if !report.ignoredSettings.isEmpty {
            Terminal.note("Not copied (settings this version does not know): \(report.ignoredSettings.joined(separator: ", ")).")
        }
        let seconds = Double(report.elapsed.components.seconds) + Double(report.elapsed.components.attoseconds) / 1e18
        Terminal.writeLine("Mirrored \(Terminal.count(report.recordsCopied, "record")) and \(Terminal.count(report.synonymsCopied, "synonym")) "
            + "of \(index) into \(destination) (\(data.folder.url.path)) in \(String(format: "%.1f", seconds)) s.")
        if report.rulesCopied > 0 { Terminal.writeLine("Copied \(Terminal.count(report.rulesCopied, "rule")) with it.") }
        if !report.rulesLeftOut.isEmpty {
            Terminal.note("Not copied (rules this version cannot read): \(report.rulesLeftOut.joined(separator: ", ")).")
        }
        if let reason = report.rulesUnavailable { Terminal.note("The source's rules were not copied: \(reason).") }
    }

    /// `1,200 of 5,000 records · 2,400 records/s · 2 s left`
    static func describe(_ progress: MirrorProgress) -> String {
        switch progress.phase {
        case .settings: return "reading settings and synonyms"
        case .synonyms: return "copying synonyms"
        case .rules: return "copying rules"
        case .swapping: return "swapping in the new copy"
        case .done: return "done"
        case .records:
            var parts = [progress.totalRecords.map { "\(Terminal.grouped(progress.recordsCopied)) of \(Terminal.count($0, "record"))" }
                ?? Terminal.count(progress.recordsCopied, "record")]
            parts.append("\(Terminal.grouped(Int(progress.recordsPerSecond))) records/s")
            if let remaining = progress.remaining {
                let seconds = Int((Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18).rounded(.up))
                parts.append(seconds >= 60 ? "\(seconds / 60) min \(seconds % 60) s left" : "\(seconds) s left")
            }
            return parts.joined(separator: " · ")
        }
    }
}
