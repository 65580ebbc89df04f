#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// The terminal of the demo: raw mode (no echo, no line editing, no signal keys), the alternate
/// screen and a hidden cursor while it runs, and everything put back on every way out
/// (`restore()` is idempotent; quitting, a thrown error and SIGINT/SIGTERM/SIGHUP all call it).
final class RawTerminal: @unchecked Sendable {
    private var original = termios()
    private var isRaw = false
    private var signalSources: [any DispatchSourceSignal] = []

    /// Why the demo cannot run here, or nil when standard input and output are both terminals.
    static func unavailableReason() -> String? {
        switch (isatty(0) == 1, isatty(1) == 1) {
        case (true, true): nil
        case (false, false): "standard input and standard output are not terminals"
        case (false, true): "standard input is not a terminal"
        case (true, false): "standard output is not a terminal"
        }
    }

    /// Enters raw mode and the alternate screen, hides the cursor.
    func enter() throws(TerminalError) {
        guard tcgetattr(0, &original) == 0 else { throw TerminalError("cannot read the terminal's settings") }
        var raw = original
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSAFLUSH, &raw) == 0 else { throw TerminalError("cannot put the terminal in raw mode") }
        isRaw = true
        crashRestoreTermios = original
        installCrashRestore()
        // Alternate screen, hidden cursor, cleared.
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H")
    }

    /// Puts the terminal back as it was: main screen, visible cursor, original settings.
    func restore() {
        guard isRaw else { return }
        isRaw = false
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        _ = tcsetattr(0, TCSAFLUSH, &original)
    }

    /// Restores the terminal and exits on SIGINT, SIGTERM and SIGHUP; calls `onResize` on SIGWINCH.
    /// The handlers run on the main queue.
    func handleSignals(onResize: @escaping @MainActor () -> Void) {
        for (number, status) in [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak self] in
                self?.restore()
                exit(Int32(status))
            }
            source.resume()
            signalSources.append(source)
        }
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler { MainActor.assumeIsolated { onResize() } }
        resize.resume()
        signalSources.append(resize)
    }

    /// The terminal's size in rows and columns (24×80 when it cannot be read).
    static func size() -> (rows: Int, columns: Int) {
        var size = winsize()
        #if canImport(Glibc)
        let result = ioctl(1, UInt(TIOCGWINSZ), &size)
        #else
        let result = ioctl(1, TIOCGWINSZ, &size)
        #endif
        guard result == 0, size.ws_row > 0, size.ws_col > 0 else { return (24, 80) }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Writes all of `text` to standard output at once (a whole frame: no flicker).
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Darwin.write(1, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += written
        }
    }
}

struct TerminalError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: Crashes

/// The settings to put back if the process crashes (read by the signal handler below).
nonisolated(unsafe) private var crashRestoreTermios = termios()

/// On a crash (a trap, SIGSEGV, SIGABRT…), puts the terminal back with async-signal-safe calls
/// only (write, tcsetattr), then dies of the same signal as it would have.
private func installCrashRestore() {
    for number in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
        signal(number) { number in
            let reset: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
            _ = write(1, reset.utf8Start, reset.utf8CodeUnitCount)
            _ = tcsetattr(0, TCSANOW, &crashRestoreTermios)
            signal(number, SIG_DFL)
            raise(number)
        }
    }
}
