import Glibc
import Synchronization

/// Keeps a pack's standard output out of Formwork's: while pack code runs (its
/// library constructors and entry at load time, `init`, `create`, `configure`,
/// `render`, `value_changed`, `destroy`, `deinit`), file descriptor 1 points at
/// standard error, so `list --json` or `render --format json` stay parseable
/// whatever a pack prints. C stdio's buffers are flushed before descriptor 1 is
/// restored, so buffered `printf` output goes to standard error too.
///
/// Calls nest (a batch of calls redirects once). The corresponding C functions are
/// `dup`, `dup2`, `close` and `fflush`.
enum PackOutput {
    private static let state = Mutex<(depth: Int, saved: Int32)>((0, -1))

    /// Writes to Formwork's standard output even while a pack's output is redirected.
    static func writeToStandardOutput(_ text: String) {
        let fd = state.withLock { $0.depth > 0 && $0.saved >= 0 ? $0.saved : 1 }
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
    }

    static func redirect<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        state.withLock { s in
            if s.depth == 0 {
                fflush(nil)
                s.saved = dup(1)
                if s.saved >= 0 { dup2(2, 1) }
            }
            s.depth += 1
        }
        defer {
            state.withLock { s in
                s.depth -= 1
                if s.depth == 0 && s.saved >= 0 {
                    fflush(nil)
                    dup2(s.saved, 1)
                    close(s.saved)
                    s.saved = -1
                }
            }
        }
        return try body()
    }
}
