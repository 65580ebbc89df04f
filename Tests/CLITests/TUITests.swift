import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `tmux` on the PATH: the terminal demo's tests run it in a tmux pane (CI installs it).
let tmuxPath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    .split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }

/// A tmux server of its own (a unique socket), killed when the value goes away.
final class TmuxPane {
    let socket = "offline-search-tui-\(UUID().uuidString.prefix(8))"
    let script: TemporaryFile

    /// Starts `command` (a shell script) in a detached session of `columns`×`rows` (120×40).
    init(script text: String, columns: Int = 120, rows: Int = 40) throws {
        script = try TemporaryFile(text, suffix: ".sh")
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh \(script.path)"], output: false)
    }

    deinit {
        // kill-session ends the pane's processes (SIGHUP) and, as the last session, the server;
        // kill-server alone left servers behind with tmux 3.3a.
        _ = try? tmux(["kill-session"])
        _ = try? tmux(["kill-server"])
    }

    /// Runs `tmux -L socket ARGUMENTS` and returns its standard output. Spawned and waited
    /// for directly (posix_spawn, waitpid): Foundation's `Process` did not notice the exit of a
    /// `new-session -d` client, whose server lives on, and waited for ever.
    @discardableResult
    func tmux(_ arguments: [String], output: Bool = true) throws -> String {
        #if canImport(Glibc)
        let argv = ["tmux", "-L", socket] + arguments
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw TmuxError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if output {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        } else {
            // The server a new session starts outlives the command: it must not hold our pipe.
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tmuxPath ?? "/usr/bin/tmux", &actions, nil, &cArguments, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw TmuxError("cannot run tmux (\(spawned))") }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            if count > 0 { data += buffer[0..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: data, as: UTF8.self)
        #else
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmuxPath ?? "/usr/bin/tmux")
        process.arguments = ["-L", socket] + arguments
        let out = Pipe()
        process.standardOutput = output ? out : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
        #endif
    }

    /// The pane's text; with `escapes`, with the SGR sequences of its colours and attributes.
    func capture(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
    }

    func sendKeys(_ keys: String...) throws { try tmux(["send-keys"] + keys) }
    func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    /// Polls the pane (up to `timeout`) until `condition` holds; returns the last capture.
    @discardableResult
    func waitUntil(timeout: Duration = .seconds(10), escapes: Bool = false, _ what: String,
                   sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var screen = try capture(escapes: escapes)
        while !condition(screen) {
            guard clock.now < deadline else {
                Issue.record("timed out waiting for \(what); the pane shows:\n\(screen)", sourceLocation: sourceLocation)
                return screen
            }
            try await Task.sleep(for: .milliseconds(100))
            screen = try capture(escapes: escapes)
        }
        return screen
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The figure of the stats line ("776 results in 3 ms").
func resultCount(_ screen: String) -> Int? {
    guard let match = screen.firstMatch(of: /([0-9][0-9,]*) results? in [0-9]+ ms/) else { return nil }
    return Int(match.1.replacingOccurrences(of: ",", with: ""))
}

/// A data folder with demo indices imported from the repository's `Datasets/`.
func importedDemoIndices(_ names: [String] = ["instant_search", "instantsearch_query_suggestions"]) throws -> DataDirectory {
    let data = DataDirectory()
    for name in names {
        let datasets = CLI.repository.appendingPathComponent("Datasets")
        let result = try CLI.run(["import", "--data", data.path, name, datasets.appendingPathComponent("\(name).json").path,
                                  "--settings", datasets.appendingPathComponent("\(name).settings.json").path])
        #expect(result.status == 0, "\(result.stderr)")
    }
    return data
}

@Suite struct TUITests {
    /// The script the pane runs: the demo, then whether the terminal settings are as before and
    /// the exit status, then a wait so the pane stays to be read.
    func script(data: DataDirectory, arguments: String = "") -> String {
        """
        before=$(stty -g)
        '\(CLI.binary.path)' tui --data '\(data.path)' \(arguments)
        status=$?
        [ "$(stty -g)" = "$before" ] && echo TERMINAL-RESTORED
        echo "TUI-EXITED $status"
        sleep 600
        """
    }

    @Test(.enabled(if: tmuxPath != nil, "tmux is not on the PATH (apt-get install tmux): the terminal demo is not driven"))
    func theDemoSearchesSuggestsRefinesScrollsAndRestoresTheTerminal() async throws {
        let data = try importedDemoIndices()
        let pane = try TmuxPane(script: script(data: data))

        // The empty query: popular suggestions, every product.
        let start = try await pane.waitUntil("the first results") { resultCount($0) == 3000 && $0.contains("Suggestions") }
        #expect(start.contains("Brand") && start.contains("Categories"))

        // Typing: suggestions with the part not typed emphasised, results with the match highlighted.
        try pane.type("iphone")
        try await pane.waitUntil(escapes: true, "suggestions and highlighted results for \"iphone\"") { screen in
            screen.contains("iphone") && (resultCount(screen) ?? 3000) < 3000
                && screen.contains(/iphone(\e\[[0-9;]*m)+ accessories/)
                && screen.contains(/(\e\[[0-9;]*m)+iPhone(\e\[[0-9;]*m)+/)
        }
        let plain = try pane.capture()
        #expect(plain.contains("Search: iphone"))
        let before = try #require(resultCount(plain))

        // Tab to the brand list (search box → suggestions → brand), move down one, toggle.
        try pane.sendKeys("Tab", "Tab", "Down", "Space")
        let refined = try await pane.waitUntil("a refined brand") { screen in
            screen.contains("[x]") && resultCount(screen).map { $0 != before } == true
        }
        let after = try #require(resultCount(refined))
        #expect(after < before)
        #expect(refined.contains("filters: \"brand\":"))
        // The refined value's count is the number of results (disjunctive counts stay for the others).
        let selected = try #require(refined.firstMatch(of: /\[x\] .* ([0-9][0-9,]*)\s*│/))
        #expect(Int(selected.1.replacingOccurrences(of: ",", with: "")) == after)
        #expect(refined.contains("[ ] "), "the other brands are still listed")

        // Tab to the results (brand → categories → results) and scroll past the first page.
        try pane.sendKeys("Tab", "Tab")
        try await pane.waitUntil("the results' focus") { $0.contains("▶ Results") }
        let scrolled = try await pane.waitUntil("the second page") { screen in
            try? pane.sendKeys("End")
            guard let row = screen.firstMatch(of: /Results  ([0-9]+) of/) else { return false }
            return Int(row.1)! > 20
        }
        #expect(!scrolled.contains("No results"))

        // Esc quits: the shell's screen is back, the settings and the cursor restored.
        try pane.sendKeys("Escape")
        let exited = try await pane.waitUntil("the demo to exit") { $0.contains("TUI-EXITED") }
        #expect(exited.contains("TUI-EXITED 0"))
        #expect(exited.contains("TERMINAL-RESTORED"))
        #expect(!exited.contains("Suggestions"), "the alternate screen was left")
        #expect(try pane.tmux(["display-message", "-p", "#{alternate_on} #{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "0 1")
    }

    @Test(.enabled(if: tmuxPath != nil, "tmux is not on the PATH (apt-get install tmux): the terminal demo is not driven"),
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "finds the demo's pid in /proc (Linux)"))
    func SIGTERMRestoresTheTerminal() async throws {
        let data = try importedDemoIndices()
        let pane = try TmuxPane(script: script(data: data))
        try await pane.waitUntil("the first results") { resultCount($0) == 3000 }
        // The demo is the one child of the pane's shell.
        let shell = try pane.tmux(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
            .split(separator: " ").compactMap { Int32($0) }
        let demo = try #require(children.first, "no child of the pane's shell \(shell)")
        kill(demo, SIGTERM)
        let exited = try await pane.waitUntil("the demo to exit") { $0.contains("TUI-EXITED") }
        #expect(exited.contains("TUI-EXITED 143"))
        #expect(exited.contains("TERMINAL-RESTORED"))
        #expect(try pane.tmux(["display-message", "-p", "#{alternate_on} #{cursor_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "0 1")
    }

    @Test(.enabled(if: tmuxPath != nil, "tmux is not on the PATH (apt-get install tmux): the terminal demo is not driven"))
    func at80By24EveryPartReadsWhole() async throws {
        let data = try importedDemoIndices()
        let pane = try TmuxPane(script: script(data: data), columns: 80, rows: 24)
        let screen = try await pane.waitUntil("the first results") { resultCount($0) == 3000 && $0.contains("Suggestions") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The help wraps instead of being cut: its last line ends with the key that quits.
        let last = try #require(lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(last.trimmingCharacters(in: .whitespaces).hasSuffix("Esc quit"), "\(last)")
        #expect(screen.contains("Ctrl-U clear"))
        // Prices are whole: a dollar sign is always followed by a whole amount with its cents.
        let prices = screen.matches(of: /\$[0-9][0-9,.…]*/).map { String($0.0) }
        #expect(!prices.isEmpty)
        for price in prices { #expect(price.wholeMatch(of: /\$[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}/) != nil, "a cut price: \(price) in\n\(screen)") }
        // A facet value that does not fit ends with an ellipsis, its count whole after it.
        for line in lines where line.contains("[ ] ") || line.contains("[x] ") {
            let left = String(line.prefix { $0 != "│" })
            #expect(left.trimmingCharacters(in: .whitespaces).range(of: #" [0-9][0-9,]*$"#, options: .regularExpression) != nil,
                    "a refinement row without its count: \(left)")
        }
        // At 80 columns "Computers & Tablets" does not fit its list: cut with an ellipsis, its count after it.
        #expect(lines.contains { $0.contains("[ ] ") && $0.range(of: #"… [0-9][0-9,]* +│"#, options: .regularExpression) != nil },
                "a refinement value cut with an ellipsis before its count:\n\(screen)")
        try pane.sendKeys("Escape")
        try await pane.waitUntil("the demo to exit") { $0.contains("TUI-EXITED 0") }
    }

    @Test(.enabled(if: tmuxPath != nil, "tmux is not on the PATH (apt-get install tmux): the terminal demo is not driven"))
    func anIndexWithoutProductFieldsShowsItsOwnAttributes() async throws {
        let data = try importedDemoIndices(["mobile_demo_movies", "mobile_demo_actors"])
        let pane = try TmuxPane(script: script(data: data, arguments: "mobile_demo_movies --suggestions mobile_demo_actors"),
                                columns: 80, rows: 24)
        let movies = try String(contentsOf: CLI.repository.appendingPathComponent("Datasets/mobile_demo_movies.json"), encoding: .utf8)
        let screen = try await pane.waitUntil("the first movies") { resultCount($0) == 3000 && $0.contains("Suggestions") }
        // Titles, not objectIDs; the facets of the movies' settings (genre, year) as the lists.
        #expect(!screen.contains(/›? *[0-9]{9}\s*$/.anchorsMatchLineEndings()), "objectIDs shown as titles:\n\(screen)")
        #expect(screen.contains("Genre") && screen.contains("Year"), "\(screen)")
        let firstTitle = try #require(screen.split(separator: "\n").compactMap { line -> String? in
            let right = line.split(separator: "│", maxSplits: 1).dropFirst().first.map { $0.trimmingCharacters(in: .whitespaces) }
            return right.flatMap { $0.hasPrefix("Results") || $0.isEmpty ? nil : $0 }
        }.first)
        #expect(movies.contains(firstTitle.replacingOccurrences(of: "…", with: "")), "not a movie title: \(firstTitle)")
        // The suggestions are the actors' names, the first searchable attribute of their index.
        let actors = try String(contentsOf: CLI.repository.appendingPathComponent("Datasets/mobile_demo_actors.json"), encoding: .utf8)
        let actorRows = screen.split(separator: "\n").filter { $0.hasPrefix("    ") && $0.contains("│") }
            .map { $0.split(separator: "│")[0].trimmingCharacters(in: .whitespaces) }.prefix(3)
        #expect(actorRows.count == 3, "\(actorRows)")
        for row in actorRows { #expect(actors.contains("\"name\":\"\(row)\""), "not an actor's name: \(row)") }
        // A query that no actor's name starts with: the list says so.
        try pane.type("zzzqx")
        try await pane.waitUntil("no suggestions") { $0.contains("(no suggestions)") }
        try pane.sendKeys("Escape")
        try await pane.waitUntil("the demo to exit") { $0.contains("TUI-EXITED 0") }
    }

    @Test(.enabled(if: tmuxPath != nil, "tmux is not on the PATH (apt-get install tmux): the terminal demo is not driven"))
    func theRulesBannerShowsAndEnterFollowsTheirRedirect() async throws {
        let data = try importedDemoIndices()
        let rules = CLI.repository.appendingPathComponent("Datasets/instant_search.rules.json")
        let saved = try CLI.run(["rules", "--data", data.path, "instant_search", "--set", rules.path])
        #expect(saved.status == 0, "\(saved.stderr)")
        // Standard error goes away: the URL the demo prints at the end is on standard output.
        let pane = try TmuxPane(script: script(data: data, arguments: "2>/dev/null"))
        let start = try await pane.waitUntil("the first results") { resultCount($0) == 3000 && $0.contains("Suggestions") }
        #expect(!start.contains("★") && !start.contains("↪"), "no Rule applies to the empty query:\n\(start)")

        // "tv": the TV week banner, on a line of its own above the results, its title emphasised.
        let banner = "★ TV week — Free shipping on every TV until Sunday (https://example.com/tv-week)"
        try pane.type("tv")
        let tv = try await pane.waitUntil("the TV week banner") { $0.contains(banner) }
        let lines = tv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let bannerRow = try #require(lines.firstIndex { $0.contains(banner) })
        let resultsRow = try #require(lines.firstIndex { $0.contains("Results") })
        #expect(bannerRow < resultsRow, "the banner is above the results:\n\(tv)")
        #expect(lines[bannerRow].trimmingCharacters(in: .whitespaces) == banner, "the banner's line is its own: \(lines[bannerRow])")
        #expect(try pane.capture(escapes: true).contains(/(\e\[[0-9;]*m)+★ TV week(\e\[[0-9;]*m)+/), "the banner's title is emphasised")
        #expect(!tv.contains("↪"), "no redirect for \"tv\"")

        // Without a redirect, Enter does what it did: it submits the query (the suggestions close).
        try pane.sendKeys("Enter")
        try await pane.waitUntil("the suggestions to close, the demo still running") { screen in
            !screen.contains("Suggestions") && screen.contains(banner) && !screen.contains("TUI-EXITED")
        }

        // "appliances": the redirect line, the banner gone with the Rule that set it.
        try pane.sendKeys("C-u")
        try pane.type("appliances")
        let redirect = "↪ \"appliances\" goes to https://example.com/category/appliances — Enter opens it"
        let redirected = try await pane.waitUntil("the redirect line") { $0.contains(redirect) }
        #expect(!redirected.contains("TV week"), "the banner is gone:\n\(redirected)")
        let redirectLines = redirected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let redirectRow = try #require(redirectLines.firstIndex { $0.contains(redirect) })
        #expect(redirectRow < (redirectLines.firstIndex { $0.contains("Results") } ?? 0), "the redirect is above the results:\n\(redirected)")

        // Enter follows it: the demo ends, the terminal restored, the URL printed, status 0.
        try pane.sendKeys("Enter")
        let exited = try await pane.waitUntil("the demo to exit") { $0.contains("TUI-EXITED") }
        #expect(exited.contains("TUI-EXITED 0"), "\(exited)")
        #expect(exited.contains("TERMINAL-RESTORED"))
        #expect(!exited.contains("Suggestions") && !exited.contains("Enter opens it"), "the alternate screen was left")
        let printed = exited.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(printed.contains("https://example.com/category/appliances"), "the URL on a line of its own:\n\(exited)")
    }

    @Test func withoutATerminalItSaysSoAndExits1() throws {
        let data = try importedDemoIndices()
        let result = try CLI.run(["tui", "--data", data.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("offline-search tui needs a terminal: standard input and standard output are not terminals"), "\(result.stderr)")
        #expect(result.stderr.contains("use `search` or `query` for scripts"))
        #expect(result.stdout.isEmpty, "no screen drawn: \(result.stdout)")
    }
}
