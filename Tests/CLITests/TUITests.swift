import Foundation
import Testing

/// `tmux` on the PATH: the terminal demo's tests run it in a tmux pane (CI installs it).
let tmuxPath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    .split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }

/// A tmux server of its own (a unique socket), killed when the value goes away.
final class TmuxPane {
    let socket = "offline-search-tui-\(UUID().uuidString.prefix(8))"
    let script: TemporaryFile

    /// Starts `command` (a shell script) in a detached 120×40 session.
    init(script text: String) throws {
        script = try TemporaryFile(text, suffix: ".sh")
        // The server this starts outlives the command: it must not hold a pipe we read to its end.
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "sh \(script.path)"], output: false)
    }

    deinit { _ = try? tmux(["kill-server"]) }

    @discardableResult
    func tmux(_ arguments: [String], output: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmuxPath ?? "/usr/bin/tmux")
        process.arguments = ["-L", socket] + arguments
        let out = Pipe()
        process.standardOutput = output ? out : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
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

/// The figure of the stats line ("776 results in 3 ms").
func resultCount(_ screen: String) -> Int? {
    guard let match = screen.firstMatch(of: /([0-9][0-9,]*) results? in [0-9]+ ms/) else { return nil }
    return Int(match.1.replacingOccurrences(of: ",", with: ""))
}

/// A data folder with the two demo indices imported from the repository's `Datasets/`.
func importedDemoIndices() throws -> DataDirectory {
    let data = DataDirectory()
    for name in ["instant_search", "instantsearch_query_suggestions"] {
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
    func script(data: DataDirectory) -> String {
        """
        before=$(stty -g)
        '\(CLI.binary.path)' tui --data '\(data.path)'
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
        let typed = try await pane.waitUntil(escapes: true, "suggestions and highlighted results for \"iphone\"") { screen in
            screen.contains("iphone") && (resultCount(screen) ?? 3000) < 3000
                && screen.contains(/iphone(\e\[[0-9;]*m)+ accessories/)
                && screen.contains(/(\e\[[0-9;]*m)+iPhone(\e\[[0-9;]*m)+/)
        }
        #expect(typed.contains("Search: iphone"))
        let before = try #require(resultCount(try pane.capture()))

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

    @Test func withoutATerminalItSaysSoAndExits1() throws {
        let data = try importedDemoIndices()
        let result = try CLI.run(["tui", "--data", data.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("offline-search tui needs a terminal: standard input and standard output are not terminals"), "\(result.stderr)")
        #expect(result.stderr.contains("use `search` or `query` for scripts"))
        #expect(result.stdout.isEmpty, "no screen drawn: \(result.stdout)")
    }
}
