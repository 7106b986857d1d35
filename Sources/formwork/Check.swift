import ArgumentParser
import FormworkCore
import FormworkHost
import Glibc

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check packs for conformance: loading, exports, init/deinit, and every cell through create, configure, render, selection, value_changed and destroy.",
        discussion: """
            Each check runs in a child process with a timeout, so a crash or a hang is reported. Exits 65 when any \
            check fails.

            EXAMPLES:
              formwork check ./build/libmypack.so
                  Every check on every cell type of your pack.
              formwork check ./build/libmypack.so --json
                  The results as JSON, for CI.
            """)

    @Argument(help: "Pack files (.so).", completion: .file(extensions: ["so"])) var packs: [String] = []
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Run the checks in this process (for debugging; a crash ends the run).") var inProcess = false
    @Option(help: "Seconds each check may take.") var timeout: Double = 20
    @Option(help: .hidden) var child: String?

    func validate() throws {
        if packs.isEmpty { throw ValidationError("name at least one pack (.so) to check") }
        if timeout <= 0 { throw ValidationError("--timeout must be positive, not \(timeout)") }
    }

    func run() throws {
        if let child {
            // Child-process protocol: "step: …" lines while it works, then one JSON result line on standard output.
            CheckProgress.announces = true
            Console.out(Conformance.run(ConformanceCheck(child), pack: packs[0]).json.serialized(pretty: false) + "\n")
            return
        }
        for pack in packs where access(pack, F_OK) != 0 {
            Console.error("\(pack): no such file; name a pack (.so) to check")
            throw Exit.noInput
        }
        let launcher = CheckRunner.ChildLauncher(executable: CheckRunner.currentExecutable) { check, pack in
            ["check", "--child", check, pack]
        }
        let runner = CheckRunner(launcher: inProcess ? nil : launcher, timeout: timeout)
        let results = packs.map { (pack: $0, results: runner.run(pack: $0)) }
        Console.out(json ? CheckReport.json(results).serialized() + "\n" : TerminalText.safe(CheckReport.text(results), keepLayout: true))
        if results.contains(where: { $0.results.contains { !$0.passed } }) { throw Exit.dataError }
    }
}
