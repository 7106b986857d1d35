import FormworkCore

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal in raw mode for the interactive form: keys read from standard input,
/// the form drawn on standard error (standard output carries the values) in the
/// alternate screen, with bracketed paste on.
///
/// The terminal is restored on every way out: `close()` (normal end, an error, Esc or
/// Ctrl-C, which arrive as keys), and from signal handlers for SIGTERM, SIGHUP, SIGINT
/// and SIGQUIT (then exit 128 + signal) and for SIGSEGV, SIGBUS, SIGABRT, SIGFPE and
/// SIGILL (then the signal's default action). The corresponding C functions are
/// `tcgetattr`, `tcsetattr`, `poll`, `read` and `sigaction`.
final class RawTerminal: KeyTerminal {
    private var decoder = KeyDecoder()
    private var queue: [Key] = []
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Switches the terminal to raw mode; nil when standard input is not a terminal.
    init?() {
        var t = termios()
        guard isatty(0) == 1, isatty(2) == 1, tcgetattr(0, &t) == 0 else { return nil }
        RawTerminalState.saved = t
        t.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        t.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSAFLUSH, &t) == 0 else { return nil }
        RawTerminalState.raw = t
        RawTerminalState.active = 1
        RawTerminalState.installHandlers()
        write(RawTerminalState.enter)
    }

    /// Leaves raw mode and the alternate screen (idempotent).
    func close() { RawTerminalState.restore() }

    deinit { close() }

    func readKey() -> Key? {
        while queue.isEmpty {
            if RawTerminalState.resized != 0 {
                RawTerminalState.resized = 0
                return .resize
            }
            var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            // A lone ESC is the Escape key once the terminal has been quiet for 40 ms.
            let ready = poll(&fds, 1, decoder.isWaiting ? 40 : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if ready == 0 {
                queue += decoder.flushEscape()
                continue
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            queue += decoder.feed(buffer[0..<count])
        }
        return queue.removeFirst()
    }

    func write(_ text: String) { Console.write(2, text) }

    var size: (columns: Int, rows: Int) {
        var w = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 else { return (80, 24) }
        return (Int(w.ws_col), Int(w.ws_row))
    }
}

/// What the signal handlers need, in plain globals (a handler may touch nothing else).
enum RawTerminalState {
    nonisolated(unsafe) static var saved = termios()
    /// The raw mode, to go back to after a stop (SIGTSTP, then SIGCONT).
    nonisolated(unsafe) static var raw = termios()
    nonisolated(unsafe) static var active: sig_atomic_t = 0
    nonisolated(unsafe) static var resized: sig_atomic_t = 0

    /// Alternate screen, bracketed paste on, cursor hidden.
    static let enter = "\u{1B}[?1049h\u{1B}[?2004h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    /// The reverse, written with `write(2)` from handlers.
    static let leave: [UInt8] = Array("\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l".utf8)

    static func restore() {
        guard active != 0 else { return }
        active = 0
        leave.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
        tcsetattr(0, TCSAFLUSH, &saved)
    }

    /// SIGTSTP's handler: leave, stop for real, come back.
    static func stopped() {
        let wasActive = active != 0
        if wasActive {
            leave.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
            tcsetattr(0, TCSAFLUSH, &saved)
        }
        // The default action, now: the signal is blocked while its handler runs, so unblock it to stop here.
        var initial = sigaction()
        initial.__sigaction_handler.sa_handler = SIG_DFL
        var previous = sigaction()
        sigaction(SIGTSTP, &initial, &previous)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        raise(SIGTSTP)
        // Continued.
        sigprocmask(SIG_BLOCK, &set, nil)
        sigaction(SIGTSTP, &previous, nil)
        if wasActive && active != 0 {
            tcsetattr(0, TCSAFLUSH, &raw)
            enter.withCString { _ = Glibc.write(2, $0, strlen($0)) }
            resized = 1
        }
    }

    static func installHandlers() {
        var winch = sigaction()
        winch.__sigaction_handler.sa_handler = { _ in RawTerminalState.resized = 1 }
        sigaction(SIGWINCH, &winch, nil)
        for sig in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                RawTerminalState.restore()
                let message = "formwork: interrupted; nothing was written\n"
                _ = message.withCString { Glibc.write(2, $0, strlen($0)) }
                _exit(128 + sig)
            }
            sigaction(sig, &action, nil)
        }
        // Stopped from outside (SIGTSTP; Ctrl-Z itself arrives as a key in raw mode): the terminal is given back
        // as it was, the process stops, and when it is continued the form comes back on the alternate screen,
        // redrawn whole.
        var stop = sigaction()
        stop.__sigaction_handler.sa_handler = { _ in RawTerminalState.stopped() }
        sigaction(SIGTSTP, &stop, nil)
        for sig in [SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL] {
            var action = sigaction()
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
            action.__sigaction_handler.sa_handler = { sig in
                RawTerminalState.restore()
                raise(sig)
            }
            sigaction(sig, &action, nil)
        }
    }
}
