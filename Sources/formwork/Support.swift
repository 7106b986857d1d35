import ArgumentParser
import FormworkCore
import FormworkHost
#if canImport(Glibc)
    import Glibc
#endif

/// sysexits codes, as docs/cli.md lists them.
enum Exit {
    static let dataError = ExitCode(65)
    static let noInput = ExitCode(66)
    static let unavailable = ExitCode(69)
    static let software = ExitCode(70)
    static let cannotCreate = ExitCode(73)
    static let ioError = ExitCode(74)
    static let interrupted = ExitCode(130)

    /// The one place where an error becomes a message on standard error and an exit code.
    /// Subcommands throw; `FormworkCommand.main` calls this. Errors it does not know
    /// (argument-parser's usage errors, `ExitCode`) are returned for the parser to handle.
    static func report(_ error: any Error) -> ExitCode? {
        switch error {
        case let error as FormError:
            if case .invalid(let diagnostics) = error {
                for d in diagnostics { Console.error(d.description) }
                // A hint shared by several problems (where packs were searched) is said once.
                var hints: [String] = []
                for d in diagnostics { if let hint = d.hint, !hints.contains(hint) { hints.append(hint) } }
                for hint in hints { Console.write(2, "formwork: hint: \(TerminalText.safe(hint))\n") }
                Console.write(2, "formwork: \(plural(diagnostics.count, "problem")) found\n")
                return diagnostics.contains { $0.kind == .unavailable } ? unavailable : dataError
            }
            Console.error(error.description)
            switch error {
            case .missingFile, .notAFile, .unreadable: return noInput
            default: return dataError
            }
        case let error as RegistryError:
            Console.error(error.description)
            return unavailable
        case let error as RuntimeError:
            Console.error(error.description)
            // What to do next: the pack is at fault, not the document (and the other fields can still be shown).
            Console.write(
                2,
                "formwork: hint: 'formwork check \(TerminalText.safe(error.packPath))' runs the pack's cells alone and "
                    + "reports what fails, for its author; 'formwork render --keep-going' shows the other fields\n")
            return software
        case let error as OutputFile.WriteError:
            Console.error(error.description)
            return error.cannotCreate ? cannotCreate : ioError
        case let error as FillError:
            Console.error(error.description)
            if case .runtime = error { return software }
            return dataError
        default:
            return nil
        }
    }
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

    /// The variables named `keys` that are set (a `getenv` each, instead of copying the whole environment).
    static func values(of keys: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for key in keys { if let value = getenv(key) { out[key] = String(cString: value) } }
        return out
    }
}

/// Writes to standard output / error without buffering surprises.
enum Console {
    /// Set when writing to standard output failed (a full disk, a closed pipe): the
    /// command then exits 74 instead of pretending it succeeded. A global because every output path of the
    /// command writes through `Console`; only the main thread writes.
    nonisolated(unsafe) static var outputFailure: Int32?

    static func out(_ text: String) {
        if let code = OutputFile.writeAll(1, text), outputFailure == nil { outputFailure = code }
    }

    /// Writes `bytes` to standard output (after a failure, nothing more).
    static func out(_ bytes: UnsafeRawBufferPointer) {
        guard outputFailure == nil, let base = bytes.baseAddress else { return }
        outputFailure = OutputFile.writeAll(1, base, bytes.count)
    }

    /// Writes all of `text` to a file descriptor, ignoring failures (standard error).
    static func write(_ fd: Int32, _ text: String) {
        _ = OutputFile.writeAll(fd, text)
    }

    /// One line on standard error, prefixed "formwork: error: ".
    /// One line on standard error. Whatever the message quotes (a document's strings, a
    /// pack's messages) is made terminal-safe: no escape sequence, no forged second line.
    static func error(_ text: String) {
        write(2, "formwork: error: \(TerminalText.safe(text))\n")
    }

    static func warning(_ text: String) {
        write(2, "formwork: warning: \(TerminalText.safe(text))\n")
    }

    static func note(_ text: String) {
        write(2, "formwork: note: \(TerminalText.safe(text))\n")
    }
}

/// "1 field", "2 fields".
func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

/// NO_COLOR and FORCE_COLOR, decided in one place (render, preview, gallery and fill).
enum ColorPreference {
    static func wantsColor(terminal: Bool) -> Bool {
        let variables = ProcessEnvironment.variables
        if let force = variables["FORCE_COLOR"], !force.isEmpty, force != "0", force != "false" { return true }
        if let none = variables["NO_COLOR"], !none.isEmpty { return false }
        // A terminal that says it cannot draw escape sequences (TERM=dumb: Emacs' shell, some CI logs) gets none.
        if variables["TERM"] == "dumb" { return false }
        return terminal
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
