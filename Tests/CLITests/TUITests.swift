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

    /// Starts `command` (a shell script) in a detached 120×40 session.
    init(script text: String) throws {
        script = try TemporaryFile(text, suffix: ".sh")
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "sh \(script.path)"], output: false)
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

    @Test func withoutATerminalItSaysSoAndExits1() throws {
        let data = try importedDemoIndices()
        let result = try CLI.run(["tui", "--data", data.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("offline-search tui needs a terminal: standard input and standard output are not terminals"), "\(result.stderr)")
        #expect(result.stderr.contains("use `search` or `query` for scripts"))
        #expect(result.stdout.isEmpty, "no screen drawn: \(result.stdout)")
    }
}
