import ArgumentParser
import FormworkCore
import FormworkHost

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List packs and their cell types; broken packs are listed with the reason.",
        discussion: """
            EXAMPLES:
              formwork list
                  Every pack found, its cell types, and why a pack was refused.
              formwork list --pack-path ./build/libmypack.so --json
                  Your own pack first, as JSON (docs/cli.md).
              formwork list --rescan
                  Read every pack again, quarantined ones too.
            """)

    @OptionGroup var packs: PackOptions
    @Flag(help: "Print the stable JSON contract described in docs/cli.md.") var json = false
    @Flag(help: "Read every pack again, quarantined ones too, and refresh the registry cache.") var rescan = false

    func run() throws {
        Listing(
            packPaths: packs.packPaths, isolation: packs.isolation, timeout: packs.timeout, noCache: packs.noCache, json: json,
            rescan: rescan
        ).run()
    }
}

/// What `formwork list` does once its arguments are known: read the registry (or print the
/// stored listing when nothing changed, `ListingCache`) and print it as text or JSON.
///
/// Scripts and shell completions run `list` in loops, and building ArgumentParser's command
/// tree (reflection over every subcommand's options) is a millisecond of each run, more than the
/// listing itself on a warm cache. So `main` first tries `init?(commonForm:)` on the plain forms
/// of the command line; everything else — help, a misspelt or unknown option, a missing value,
/// `--isolation`, `--timeout` — goes through ArgumentParser as before, with its messages.
struct Listing {
    var packPaths: [String] = []
    var isolation = IsolationMode.shared
    var timeout = PackOptions.defaultTimeout
    var noCache = false
    var json = false
    var rescan = false

    init(packPaths: [String], isolation: IsolationMode, timeout: Double, noCache: Bool, json: Bool, rescan: Bool) {
        self.packPaths = packPaths
        self.isolation = isolation
        self.timeout = timeout
        self.noCache = noCache
        self.json = json
        self.rescan = rescan
    }

    /// `list` followed only by `--json`, `--rescan`, `--no-cache` (each at most once) and
    /// `--pack-path <path>` / `--pack-path=<path>` (repeatable; a path that is empty or starts
    /// with `-` is left to ArgumentParser); nil for anything else.
    init?(commonForm arguments: ArraySlice<String>) {
        guard arguments.first == "list" else { return nil }
        var rest = arguments.dropFirst()
        var seen: Set<String> = []
        while let argument = rest.popFirst() {
            switch argument {
            case "--json", "--rescan", "--no-cache":
                guard seen.insert(argument).inserted else { return nil }
                if argument == "--json" { json = true } else if argument == "--rescan" { rescan = true } else { noCache = true }
            case "--pack-path":
                guard let path = rest.popFirst(), !path.isEmpty, !path.hasPrefix("-") else { return nil }
                packPaths.append(path)
            default:
                guard argument.hasPrefix("--pack-path=") else { return nil }
                let path = String(argument.dropFirst("--pack-path=".count))
                guard !path.isEmpty, !path.hasPrefix("-") else { return nil }
                packPaths.append(path)
            }
        }
    }

    func run() {
        // Unchanged packs list as they did last time (`ListingCache`); the fingerprint is taken before
        // the registry is read, so a pack that changes meanwhile is listed afresh next time.
        let environment = ProcessEnvironment.values(of: PackOptions.environmentKeys)
        var memo = noCache || isolation == .inProcess ? nil : ListingCache(environment: environment)
        var fingerprint: Registry.Fingerprint?
        if let memo {
            let now = Registry.fingerprint(
                of: Discovery.locations(
                    packPaths: packPaths, environment: environment, executableDirectory: Discovery.executableDirectory))
            if !rescan, let output = memo.output(json: json, fingerprint: now) {
                for warning in now.warnings { Console.warning(warning) }
                Console.out(output)
                return
            }
            fingerprint = now
        }
        let registry = PackOptions.registry(
            packPaths: packPaths, isolation: isolation, timeout: timeout, noCache: noCache, rescan: rescan,
            fingerprint: fingerprint)
        let output = json ? Reports.listJSON(registry).serialized() + "\n" : TerminalText.safe(Reports.listText(registry), keepLayout: true)
        Console.out(output)
        if let fingerprint { memo?.store(output, json: json, fingerprint: fingerprint) }
        // Freeing every pack's descriptors one object at a time, after the output, is work nobody waits for.
        KeptUntilExit.keep(registry)
    }
}
