import ArgumentParser
import FormworkCore
import FormworkHost
#if canImport(Glibc)
    import Glibc
#endif

@main
struct FormworkCommand: ParsableCommand {
    /// Runs the command; every error becomes its message and exit code in `Exit.report`.
    static func main() {
        ProcessTuning.atStart()
        signal(SIGPIPE, SIG_IGN)  // a closed pipe is a write error (exit 74), not a silent death
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The hidden child modes (the pack scanner and the cell host), started by this executable itself.
        if arguments.count == 2 && arguments[0] == "__child" { Glibc.exit(ChildMode.run(arguments[1])) }
        // The web runtime is its own executable (see `ServerCommands`).
        if let first = arguments.first, ServerCommands.names.contains(first) { ServerCommands.exec(arguments) }
        // `list` in its common forms skips ArgumentParser (see `Listing`).
        if let listing = Listing(commonForm: arguments[...]) {
            listing.run()
            finish()
            return
        }
        // So does `render` (see `Rendering`).
        if let rendering = Rendering(commonForm: arguments[...]) {
            do { try rendering.run() } catch {
                if let code = Exit.report(error) { Self.exit(withError: code) }
                Self.argumentError(error, arguments)
            }
            finish()
            return
        }
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            // `help NAME` asks about a command: an unknown NAME is the same error as the command itself.
            let asked = first == "help" && arguments.count > 1 ? arguments[1] : first
            if !names.contains(asked) {
                var message = "unknown command '\(asked)'"
                if let suggestion = EditDistance.suggestion(for: asked, in: names) { message += "; did you mean '\(suggestion)'?" }
                Console.error(message + " (see 'formwork --help')")
                Self.exit(withError: ExitCode(64))
            }
        }
        do {
            var command = try parseAsRoot()
            try command.run()
            finish()
        } catch {
            if let code = Exit.report(error) { Self.exit(withError: code) }
            Self.argumentError(error, arguments)
        }
    }

    /// What ArgumentParser ends with, in the command's one style. A request for help or the version prints it to
    /// standard output like any other output (a write that fails is exit 74). An error is one line,
    /// `formwork: error: …`, naming where to look (`formwork COMMAND --help`), exit 64 for a usage error — not
    /// ArgumentParser's `Error:` and usage block.
    static func argumentError(_ error: any Error, _ arguments: [String]) -> Never {
        // A command that said what it had to and chose its status throws the status alone.
        if let code = error as? ExitCode {
            finish()
            Glibc.exit(code.rawValue)
        }
        let code = exitCode(for: error)
        if code == .success {
            let text = fullMessage(for: error)
            if !text.isEmpty { Console.out(text.hasSuffix("\n") ? text : text + "\n") }
            finish()
            Glibc.exit(0)
        }
        var message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        let names = configuration.subcommands.map { $0._commandName }
        let command = arguments.first.flatMap { names.contains($0) ? "formwork \($0)" : nil } ?? "formwork"
        Console.error("\(message) (see '\(command) --help')")
        Glibc.exit(code.rawValue)
    }

    /// Exits 74 when standard output could not be written; quietly when its reader went away (`| head`), as git
    /// and ripgrep do: the reader has what it wanted.
    static func finish() {
        if Console.outputFailure == EPIPE { Glibc.exit(0) }
        if let code = Console.outputFailure {
            Console.error("standard output: cannot write: \(String(cString: strerror(code)))")
            Self.exit(withError: Exit.ioError)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "formwork",
        abstract: "Load cell packs, and inspect, validate and render forms built from their cells.",
        discussion: """
            A document or values file given as - is read from standard input.

            Packs are searched in this order: --pack-path (repeatable), FORMWORK_PACK_PATH \
            (colon-separated absolute paths), $XDG_DATA_HOME/formwork/packs (default \
            ~/.local/share/formwork/packs), <prefix>/lib/formwork/packs of an installed formwork \
            (<prefix>/bin/formwork), /usr/local/lib/formwork/packs, /usr/lib/formwork/packs, \
            and the directory of the formwork executable; `formwork paths` prints them. Pack files and \
            directories others can write are refused.

            Pack descriptors are read in a child process and kept in a cache \
            ($XDG_CACHE_HOME/formwork, default ~/.cache/formwork); cells run in a child process \
            (--isolation), so a pack that crashes or hangs cannot take formwork down. See docs/isolation.md.

            Environment: FORMWORK_PACK_PATH (more pack locations), NO_COLOR (no colour unless \
            --format ansi), FORCE_COLOR (colour even off a terminal), XDG_DATA_HOME, XDG_CACHE_HOME.

            Exit codes: 0 success, 64 usage, 65 bad document or values (or a failed check), \
            66 missing input, 69 a cell type or pack is unavailable, 70 a cell failed, \
            73 an output cannot be created, 74 an output cannot be written, 130 interrupted.
            """,
        version: FormworkVersion.string,
        subcommands: [
            List.self, Inspect.self, Render.self, Validate.self, Preview.self, Gallery.self, Check.self, Schema.self, Fill.self, Paths.self,
            NewPack.self,
            Serve.self, Submissions.self,
        ])
}

/// Shell completion of cell identifiers: the installed cell types, as `formwork list` finds them.
enum CellCompletion {
    static let ids = CompletionKind.custom { _, _, prefix in
        let environment = ProcessEnvironment.variables
        let scan = ScanOptions(launcher: .currentExecutable(), cacheFile: RegistryCache.file(environment: environment))
        return Registry.discover(environment: environment, scan: scan).cellTypes.map(\.id).filter { $0.hasPrefix(prefix) }
    }
}

/// `--locale`: the language a command shows a form and its own words to a person in (docs/forms.md, "Translations").
struct LanguageOptions: ParsableArguments {
    @Option(
        name: .customLong("locale"),
        help: ArgumentHelp(
            "The language to show the form and its messages in: a BCP 47 tag such as fr or pt-BR. Default: LANGUAGE, LC_ALL, LC_MESSAGES or LANG; the form's own language when it has no translation into it.",
            valueName: "tag"))
    var locale: String?

    func validate() throws {
        if let locale, LanguageTag.normalized(locale) == nil {
            throw ValidationError("--locale '\(TerminalText.safe(locale))' is not a language tag; write one such as en, fr or pt-BR")
        }
    }

    /// Sets the languages asked for, for every document the command loads (`FormLoading.decode`).
    func apply() { Self.apply(locale: locale) }

    /// `apply` for a command parsed without ArgumentParser (`Rendering`).
    static func apply(locale: String?) {
        if let locale, let tag = LanguageTag.normalized(locale) {
            FormLoading.preferences = [tag]
            FormLoading.explicitLocale = tag
        } else {
            FormLoading.preferences = LanguageTag.fromEnvironment(
                ProcessEnvironment.values(of: ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"]))
        }
    }
}

/// Options every command that loads packs shares.
struct PackOptions: ParsableArguments {
    @Option(
        name: .customLong("pack-path"),
        help: ArgumentHelp(
            "A pack (.so) or a directory of packs, searched before FORMWORK_PACK_PATH; repeatable.",
            valueName: "path"), completion: .file(extensions: ["so"]))
    var packPaths: [String] = []

    @Option(
        help: ArgumentHelp(
            "Where pack code runs: shared (one child process for all packs), per-pack (a child per pack) or in-process (no isolation: for debugging).",
            valueName: "mode"))
    var isolation: IsolationMode = .shared

    @Option(help: ArgumentHelp("Seconds one call into a pack may take before it is stopped.", valueName: "seconds"))
    var timeout: Double = Self.defaultTimeout
    static let defaultTimeout: Double = 10
    /// The variables pack discovery and the registry cache read (docs/cli.md).
    static let environmentKeys = ["FORMWORK_PACK_PATH", "XDG_DATA_HOME", "HOME", "XDG_CACHE_HOME"]

    @Flag(help: "Read every pack again, without the registry cache (for debugging).")
    var noCache = false

    func validate() throws {
        guard timeout > 0 && timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds, not \(timeout)") }
    }

    var launcher: IsolationLauncher { Self.launcher(packPaths: packPaths, timeout: timeout) }

    /// The launcher of the command's children, whose sandbox lets them read the pack locations these options name.
    static func launcher(packPaths: [String], timeout: Double) -> IsolationLauncher {
        let locations = Discovery.locations(
            packPaths: packPaths, environment: ProcessEnvironment.values(of: environmentKeys),
            executableDirectory: Discovery.executableDirectory)
        return .currentExecutable(timeout: timeout, packLocations: locations.map(\.path))
    }

    func registry(rescan: Bool = false) -> Registry {
        Self.registry(packPaths: packPaths, isolation: isolation, timeout: timeout, noCache: noCache, rescan: rescan)
    }

    /// The registry these options describe (also built without ArgumentParser: `Listing`).
    /// `fingerprint`: the discovery to build it from, when the caller has just taken one (`Listing`).
    static func registry(
        packPaths: [String], isolation: IsolationMode, timeout: Double, noCache: Bool, rescan: Bool,
        fingerprint: Registry.Fingerprint? = nil
    ) -> Registry {
        let environment = ProcessEnvironment.values(of: PackOptions.environmentKeys)
        let scan =
            isolation == .inProcess
            ? nil
            : ScanOptions(
                launcher: launcher(packPaths: packPaths, timeout: timeout),
                cacheFile: noCache ? nil : RegistryCache.file(environment: environment), rescan: rescan)
        let registry =
            fingerprint.map { Registry($0, scan: scan) }
            ?? Registry.discover(packPaths: packPaths, environment: environment, scan: scan)
        for warning in registry.warnings { Console.warning(warning) }
        return registry
    }

    /// The cell driver `--isolation` asks for.
    func driver(_ registry: Registry) -> any CellDriver {
        isolation == .inProcess ? InProcessCells(registry: registry) : IsolatedCells(launcher: launcher, mode: isolation)
    }

    /// Ends the driver's child processes and warns about packs that failed while shutting down.
    func finish(_ driver: any CellDriver) { Self.finish(driver) }

    static func finish(_ driver: any CellDriver) {
        guard let isolated = driver as? IsolatedCells else { return }
        isolated.finish()
        for failure in isolated.shutdownFailures { Console.warning(failure) }
    }

    /// The cell type `id`, or a `RegistryError` (exit 69).
    func cellType(_ id: String) throws -> CellType { try registry().cellType(id) }
}

extension IsolationMode: ExpressibleByArgument {}
