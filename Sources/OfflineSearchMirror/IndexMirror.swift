import Foundation
import SearchAPI

/// Copies an index from any browsable source into any writable target: settings, synonyms,
/// rules (when both sides serve them: `IndexRulesService`) and every record (or those matching
/// `filters`), through browse, into a temporary index that is
/// then moved over the destination. Until the move, the destination is left as it was: a
/// failed or interrupted mirror leaves the previous copy searchable.
///
/// Algolia offers no change feed: a second mirror copies everything again and swaps.
///
/// ```swift
/// let algolia = try SearchClient(appID: "APP", apiKey: "KEY_WITH_BROWSE")
/// let engine = try SearchEngine(directory: dataFolder)
/// let report = try await IndexMirror(source: algolia, target: engine).mirror(indexName: "products") { progress in
///     print("\(progress.recordsCopied) of \(progress.totalRecords ?? 0)")
/// }
/// ```
public struct IndexMirror<Source: BrowsingService & IndexSettingsReader, Target: IndexWritingService>: Sendable {
    public let source: Source
    public let target: Target

    public init(source: Source, target: Target) {
        self.source = source
        self.target = target
    }

    /// Settings a mirror leaves out: the source's replicas are indices of their own.
    public static var settingsLeftOut: Set<String> { ["replicas", "primary", "slaves"] }

    /// Mirrors `indexName` into `destination` (the same name by default).
    ///
    /// - Parameters:
    ///   - indexName: the source index.
    ///   - destination: the target index's name (nil: `indexName`).
    ///   - filters: Algolia's `filters`: only the matching records are copied.
    ///   - pageSize: records per browse page (and per write), at most 1000.
    ///   - progress: told after each step, on the mirroring task.
    /// - Throws: the source's or the target's error; the destination is then unchanged and
    ///   the temporary index deleted (if the target can still be reached).
    @discardableResult
    public func mirror(indexName: String, into destination: String? = nil, filters: String? = nil, pageSize: Int = 1000,
                       progress: @Sendable (MirrorProgress) -> Void = { _ in }) async throws(SearchError) -> MirrorReport {
        let destination = destination ?? indexName
        let temporary = MirrorReport.temporaryName(for: destination)
        let clock = ContinuousClock()
        let started = clock.now
        var state = MirrorProgress(phase: .settings, recordsCopied: 0, totalRecords: nil, elapsed: .zero)
        func report(_ phase: MirrorProgress.Phase) {
            state.phase = phase
            state.elapsed = clock.now - started
            progress(state)
        }

        report(.settings)
        let (settings, ignoredSettings) = Self.mirrorable(try await source.getSettings(indexName: indexName))
        let synonyms = try await source.browseSynonyms(indexName: indexName)
        // Rules when both sides have them (Algolia, `serve` and the engine all do). A source that
        // will not list them (a plan without Rules: 402; a key without the ACL: 403) mirrors none,
        // and a rule this version cannot apply is left out: both said in the report.
        let rulesSource = source as? any IndexRulesService, rulesTarget = target as? any IndexRulesService
        var rules: [JSONObject] = []
        var rulesLeftOut: [String] = []
        var rulesUnavailable: String?
        if let rulesSource, rulesTarget != nil {
            do {
                for rule in try await rulesSource.browseRules(indexName: indexName) {
                    if (try? Rule(json: rule)) != nil {
                        rules.append(rule)
                    } else {
                        rulesLeftOut.append(rule["objectID"]?.scalarText ?? "?")
                    }
                }
            } catch where error.status == 402 || error.status == 403 {
                rulesUnavailable = error.message
            }
        }
        // A temporary index left by an interrupted mirror is dropped first.
        try await wait(target.deleteIndex(indexName: temporary), temporary)
        do throws(SearchError) {
            try await wait(target.setSettings(indexName: temporary, indexSettings: settings, forwardToReplicas: false), temporary)
            if !synonyms.isEmpty {
                report(.synonyms)
                try await wait(target.saveSynonyms(indexName: temporary, synonymHit: synonyms, forwardToReplicas: false,
                                                   replaceExistingSynonyms: true), temporary)
            }
            if let rulesTarget, !rules.isEmpty {
                report(.rules)
                try await wait(rulesTarget.saveRules(indexName: temporary, rules: rules, forwardToReplicas: false,
                                                     clearExistingRules: true), temporary)
            }
            report(.records)
            var parameters = SearchParameters()
            parameters.filters = filters
            parameters.hitsPerPage = min(max(pageSize, 1), 1000)
            parameters.attributesToHighlight = []
            parameters.attributesToSnippet = []
            try await source.browseObjects(indexName: indexName, parameters: parameters) { page throws(SearchError) in
                if state.totalRecords == nil { state.totalRecords = page.response.nbHits }
                let records = page.hits.map(MirrorReport.record(fromHit:))
                if !records.isEmpty {
                    try await wait(target.saveObjects(indexName: temporary, objects: records), temporary)
                }
                state.recordsCopied += records.count
                report(.records)
            }
            report(.swapping)
            try await wait(target.operationIndex(indexName: temporary,
                                                 operationIndexParams: OperationIndexParams(operation: .move, destination: destination)),
                           temporary)
        } catch {
            // Best effort: the target may be what failed.
            _ = try? await target.deleteIndex(indexName: temporary)
            throw error
        }
        report(.done)
        return MirrorReport(indexName: indexName, destination: destination, recordsCopied: state.recordsCopied,
                            synonymsCopied: synonyms.count, rulesCopied: rules.count, rulesLeftOut: rulesLeftOut,
                            rulesUnavailable: rulesUnavailable, ignoredSettings: ignoredSettings, elapsed: clock.now - started)
    }

    /// The source's settings a target can take: without `settingsLeftOut`, and without the
    /// names `SettingsSchema` does not know (a setting Algolia added after this version, which a
    /// target would refuse), listed apart.
    static func mirrorable(_ settings: JSONObject) -> (settings: JSONObject, ignored: [String]) {
        var kept = JSONObject()
        var ignored: [String] = []
        for (key, value) in settings where !settingsLeftOut.contains(key) {
            if SettingsSchema.settings[SettingsSchema.currentName(key)] != nil {
                kept[key] = value
            } else {
                ignored.append(key)
            }
        }
        return (kept, ignored)
    }

    private func wait(_ write: WriteResponse, _ indexName: String) async throws(SearchError) {
        try await target.waitForTask(indexName: indexName, taskID: write.taskID)
    }
}

/// Where a mirror is, as it goes.
public struct MirrorProgress: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        /// Reading the source's settings and synonyms, writing the settings.
        case settings
        case synonyms
        /// Writing the source's rules.
        case rules
        /// Copying records, page by page.
        case records
        /// Moving the temporary index over the destination.
        case swapping
        case done
    }

    public var phase: Phase
    public var recordsCopied: Int
    /// How many records the browse matches (known after the first page).
    public var totalRecords: Int?
    public var elapsed: Duration

    public init(phase: Phase, recordsCopied: Int, totalRecords: Int?, elapsed: Duration) {
        self.phase = phase
        self.recordsCopied = recordsCopied
        self.totalRecords = totalRecords
        self.elapsed = elapsed
    }

    /// Records copied per second so far.
    public var recordsPerSecond: Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(recordsCopied) / seconds : 0
    }

    /// The time left at the rate so far, once it is known.
    public var remaining: Duration? {
        guard let totalRecords, recordsPerSecond > 0 else { return nil }
        let left = Double(max(totalRecords - recordsCopied, 0)) / recordsPerSecond
        return .milliseconds(Int64(left * 1000))
    }
}

/// What a mirror did.
public struct MirrorReport: Sendable, Hashable {
    public var indexName: String
    public var destination: String
    public var recordsCopied: Int
    public var synonymsCopied: Int
    /// Rules copied (none when the source or the target does not serve rules).
    public var rulesCopied: Int = 0
    /// The objectIDs of the source's rules this version cannot read (left out).
    public var rulesLeftOut: [String] = []
    /// Why the source's rules could not be listed (its answer), when they could not.
    public var rulesUnavailable: String?
    /// Settings of the source left out because this version does not know them.
    public var ignoredSettings: [String]
    public var elapsed: Duration

    /// The index a mirror fills before moving it over `destination`.
    public static func temporaryName(for destination: String) -> String { "\(destination)_mirror_tmp" }

    /// The record of a browse hit: without the attributes a search adds.
    static func record(fromHit hit: JSONValue) -> JSONValue {
        guard case .object(var record) = hit else { return hit }
        for key in ["_highlightResult", "_snippetResult", "_rankingInfo", "_distinctSeqID"] { record[key] = nil }
        return .object(record)
    }
}
