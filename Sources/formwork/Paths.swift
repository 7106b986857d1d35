import ArgumentParser
import FormworkCore
import FormworkHost
import Glibc

/// `formwork paths`: where packs are searched, in order, where the registry cache lives — what a pack author
/// checks first when a pack is not found — and which layers of the sandbox this machine's kernel gives the
/// processes that run pack code (what a user checks before loading a third-party pack).
struct Paths: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "Print where packs are searched, in order, where the registry cache is kept, and the sandbox packs run in.",
        discussion: """
            EXAMPLES:
              formwork paths
                  The search order, the cache, and the sandbox layers this kernel gives.
              formwork paths --pack-path ./build --json
                  The same as JSON, with your directory first.
            """)

    @Option(
        name: .customLong("pack-path"),
        help: ArgumentHelp("A pack (.so) or a directory of packs, searched first; repeatable.", valueName: "path"))
    var packPaths: [String] = []
    @Flag(
        help: "One JSON object: {\"packs\": [{path, origin, exists}], \"cache\": path or null, \"sandbox\": {applied, missing} or null}.")
    var json = false

    func run() throws {
        let environment = ProcessEnvironment.values(of: PackOptions.environmentKeys)
        let locations = Discovery.locations(
            packPaths: packPaths, environment: environment, executableDirectory: Discovery.executableDirectory)
        let cache = RegistryCache.file(environment: environment)
        func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
        // A child that enters the sandbox as the scanner and the cell hosts do, and says which layers held.
        let sandbox = ChildSandbox.probe(PackOptions.launcher(packPaths: packPaths, timeout: 10))
        if json {
            let packs = locations.map { l in
                JSON.object([("path", .string(l.path)), ("origin", .string(l.origin.rawValue)), ("exists", .bool(exists(l.path)))])
            }
            let layers = sandbox.map { s in
                JSON.object([
                    ("applied", .array(s.applied.map { .string($0.name) })), ("missing", .array(s.missing.map { .string($0.name) })),
                ])
            }
            Console.out(
                JSON.object([("packs", .array(packs)), ("cache", cache.map(JSON.string) ?? .null), ("sandbox", layers ?? .null)])
                    .serialized() + "\n")
            return
        }
        var text = "packs, searched in this order:\n"
        for (i, l) in locations.enumerated() {
            let why =
                switch l.origin {
                case .option: "--pack-path"
                case .environment: "FORMWORK_PACK_PATH"
                case .standard: "standard"
                case .executable: "beside formwork"
                }
            text += "  \(i + 1). \(TerminalText.safe(l.path))  (\(why)\(exists(l.path) ? "" : ", missing"))\n"
        }
        text += "registry cache: \(cache.map { TerminalText.safe($0) } ?? "none (no HOME or XDG_CACHE_HOME)")\n"
        if let sandbox {
            text += "sandbox of the scanner and the cell hosts: \(sandbox.applied.map(\.name).joined(separator: ", "))\n"
            for layer in sandbox.missing { text += "  missing: \(layer.name) — \(layer.withoutIt)\n" }
            if let asked = ProcessEnvironment.values(of: ["FORMWORK_SANDBOX"])["FORMWORK_SANDBOX"] {
                text += "  (FORMWORK_SANDBOX=\(TerminalText.safe(asked)) asks for fewer layers than the kernel may give)\n"
            }
        } else {
            text += "sandbox: no child could be started to find out (see docs/isolation.md)\n"
        }
        Console.out(text)
    }
}
