import ArgumentParser
import Formwork
#if canImport(Glibc)
import Glibc
#endif

/// sysexits codes, as DESIGN.md specifies.
enum Exit {
    static let usage = ExitCode(64)
    static let dataError = ExitCode(65)
    static let noInput = ExitCode(66)
    static let unavailable = ExitCode(69)
    static let software = ExitCode(70)
    static let interrupted = ExitCode(130)
}

enum ProcessEnvironment {
    static var variables: [String: String] {
        var out: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") { out[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            pointer += 1
        }
        return out
    }
}

/// Writes to standard output / error without buffering surprises.
enum Console {
    static func out(_ text: String) { write(1, text) }

    /// Writes all of `text` to a file descriptor. The corresponding C function is `write`.
    static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// One line on standard error, prefixed "formwork: error: ".
    static func error(_ text: String) {
        write(2, "formwork: error: \(text)\n")
    }

    static func warning(_ text: String) {
        write(2, "formwork: warning: \(text)\n")
    }
}

/// Terminal queries. The corresponding C functions are `isatty` and `ioctl(TIOCGWINSZ)`.
enum Terminal {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    static func columns(_ fd: Int32) -> Int? {
        var size = winsize()
        guard isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
