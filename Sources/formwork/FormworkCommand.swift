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
        signal(SIGPIPE, SIG_IGN) // a closed pipe is a write error (exit 74), not a silent death
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
        version: FormworkVersion.string,
        subcommands: [List.self, Inspect.self, Render.self, Validate.self, Preview.self, Gallery.self, Check.self, Schema.self, Fill.self])
}

/// Options every command that loads packs shares.
struct PackOptions: ParsableArguments {
    @Option(name: .customLong("pack-path"), help: ArgumentHelp(
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
