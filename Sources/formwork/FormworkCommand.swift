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
        signal(SIGPIPE, SIG_IGN)  // a closed pipe is a write error (exit 74), not a silent death
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if !names.contains(first) {
                var message = "unknown command '\(first)'"
                if let suggestion = EditDistance.suggestion(for: first, in: names) { message += "; did you mean '\(suggestion)'?" }
                Console.error(message + " (see 'formwork --help')")
                Self.exit(withError: ExitCode(64))
            }
        }
        do {
            var command = try parseAsRoot()
            try command.run()
            if let code = Console.outputFailure {
                Console.error("standard output: cannot write: \(String(cString: strerror(code)))")
                Self.exit(withError: Exit.ioError)
            }
        } catch {
            if let code = Exit.report(error) { Self.exit(withError: code) }
            Self.exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "formwork",
        abstract: "Load cell packs, and inspect, validate and render forms built from their cells.",
        discussion: """
            A document or values file given as - is read from standard input.

            Packs are searched in this order: --pack-path (repeatable), FORMWORK_PACK_PATH \
            (colon-separated absolute paths), $XDG_DATA_HOME/formwork/packs (default \
            ~/.local/share/formwork/packs), /usr/local/lib/formwork/packs, /usr/lib/formwork/packs, \
            and the directory of the formwork executable. Pack files and directories others can \
            write are refused.

            Environment: FORMWORK_PACK_PATH (more pack locations), NO_COLOR (no colour unless \
            --format ansi), FORCE_COLOR (colour even off a terminal), XDG_DATA_HOME.

            Exit codes: 0 success, 64 usage, 65 bad document or values (or a failed check), \
            66 missing input, 69 a cell type or pack is unavailable, 70 a cell failed, \
            73 an output cannot be created, 74 an output cannot be written, 130 interrupted.
            """,
        version: FormworkVersion.string,
        subcommands: [List.self, Inspect.self, Render.self, Validate.self, Preview.self, Gallery.self, Check.self, Schema.self, Fill.self])
}

/// Shell completion of cell identifiers: the installed cell types, as `formwork list` finds them.
enum CellCompletion {
    static let ids = CompletionKind.custom { _, _, prefix in
        Registry.discover(environment: ProcessEnvironment.variables).cellTypes.map(\.id).filter { $0.hasPrefix(prefix) }
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

    func registry() -> Registry {
        let registry = Registry.discover(packPaths: packPaths, environment: ProcessEnvironment.variables)
        for warning in registry.warnings { Console.warning(warning) }
        return registry
    }

    /// The cell type `id`, or a `RegistryError` (exit 69).
    func cellType(_ id: String) throws -> CellType { try registry().cellType(id) }
}
