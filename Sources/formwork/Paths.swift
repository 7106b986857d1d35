import ArgumentParser
import FormworkCore
import FormworkHost
import Glibc

/// `formwork paths`: where packs are searched, in order, and where the registry cache lives — what a pack author
/// checks first when a pack is not found.
struct Paths: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths", abstract: "Print where packs are searched, in order, and where the registry cache is kept.")

    @Option(
        name: .customLong("pack-path"),
        help: ArgumentHelp("A pack (.so) or a directory of packs, searched first; repeatable.", valueName: "path"))
    var packPaths: [String] = []
    @Flag(help: "One JSON object: {\"packs\": [{path, origin, exists}], \"cache\": path or null}.") var json = false

    func run() throws {
        let environment = ProcessEnvironment.values(of: PackOptions.environmentKeys)
        let locations = Discovery.locations(
            packPaths: packPaths, environment: environment, executableDirectory: Discovery.executableDirectory)
        let cache = RegistryCache.file(environment: environment)
        func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
        if json {
            let packs = locations.map { l in
                JSON.object([("path", .string(l.path)), ("origin", .string(l.origin.rawValue)), ("exists", .bool(exists(l.path)))])
            }
            Console.out(JSON.object([("packs", .array(packs)), ("cache", cache.map(JSON.string) ?? .null)]).serialized() + "\n")
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
        Console.out(text)
    }
}
