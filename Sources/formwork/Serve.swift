import ArgumentParser
import FormworkCore
import FormworkHost
import Glibc

/// `formwork serve` and `formwork submissions` run `formwork-server`, installed beside `formwork`: the web runtime
/// links SwiftNIO, Foundation and the server's libraries, which every other command would otherwise load and
/// relocate at start (docs/server.md). The arguments go through as they are; `--help` is the server's.
enum ServerCommands {
    static let names: Set<String> = ["serve", "submissions"]

    /// Replaces this process with `formwork-server`; returns only when it cannot.
    static func exec(_ arguments: [String]) -> Never {
        let directory = Discovery.executableDirectory ?? "."
        let path = directory + "/formwork-server"
        var argv: [UnsafeMutablePointer<CChar>?] = (["formwork"] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        Console.error(
            "\(arguments[0]) needs formwork-server beside formwork (\(TerminalText.safe(path)): \(reason)); build it with 'swift build --product formwork-server', or install with scripts/install"
        )
        exit(69)
    }
}

/// In `formwork --help`: what `serve` does (the server's own help has its options).
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve forms on the web: pages, submissions checked as validate checks values, a JSON API (see 'formwork serve --help').")
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
    func run() throws { ServerCommands.exec(["serve"] + arguments) }
}

struct Submissions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submissions", abstract: "List or export the submissions a served form received (see 'formwork submissions --help').")
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
    func run() throws { ServerCommands.exec(["submissions"] + arguments) }
}
