import ArgumentParser
import FormworkCore
import FormworkHost
import FormworkHummingbird
import FormworkServer
import Glibc
import Logging
import Metrics
import Prometheus

/// `formwork serve` and `formwork submissions`: `formwork` starts this executable for them (it links SwiftNIO and
/// Foundation, which the other commands never load). The cell hosts and the pack scanner are this executable too
/// (`__child`), as they are `formwork` for the other commands.
@main
struct FormworkServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formwork",
        abstract: "Serve forms on the web, and read the submissions they received.",
        version: FormworkVersion.string,
        subcommands: [Serve.self, Submissions.self])

    /// A line on standard output, written at once.
    static func say(_ text: String) { _ = text.withCString { write(1, $0, strlen($0)) } }

    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.count == 2 && arguments[0] == "__child" { Glibc.exit(ChildMode.run(arguments[1])) }
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand { try await command.run() } else { try command.run() }
        } catch {
            // One style with `formwork`: help and the version on standard output; an error one line, `formwork: error:`,
            // with where to look, exit 64 for usage.
            if let code = error as? ExitCode { Glibc.exit(code.rawValue) }
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            var message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
            let command = ["formwork"] + arguments.prefix { !$0.hasPrefix("-") && ["serve", "submissions", "list", "export"].contains($0) }
            let line = "formwork: error: \(TerminalText.safe(message)) (see '\(command.joined(separator: " ")) --help')\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            Glibc.exit(code.rawValue)
        }
    }
}

/// Where the submissions are kept: `sqlite:PATH` (the default: a file beside the forms), or a PostgreSQL URL
/// (`postgres://user:password@host:port/database`, best given in `FORMWORK_STORE` so that no password is in argv).
struct StoreLocation: ExpressibleByArgument {
    enum Kind { case sqlite(String), postgres(String) }
    let kind: Kind

    init?(argument: String) {
        if argument.hasPrefix("sqlite:"), argument.count > 7 {
            kind = .sqlite(String(argument.dropFirst(7)))
        } else if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            kind = .postgres(argument)
        } else {
            return nil
        }
    }

    init(path: String) { kind = .sqlite(path) }

    static var defaultValueDescription: String { "sqlite:FORMS/formwork-submissions.sqlite" }

    /// What logs and messages may show (no password).
    var description: String {
        switch kind {
        case .sqlite(let path): path
        case .postgres(let url): PostgresStore.redacted(url)
        }
    }

    /// The default: beside the first folder's forms, or beside the first form.
    static func beside(_ paths: [String]) -> StoreLocation {
        let first = paths.first ?? "."
        var info = stat()
        let folder =
            stat(first, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            ? first : (first.contains("/") ? String(first[..<first.lastIndex(of: "/")!]) : ".")
        return StoreLocation(path: (folder.hasSuffix("/") ? folder : folder + "/") + "formwork-submissions.sqlite")
    }

    /// `FORMWORK_STORE` when set.
    static func fromEnvironment() throws -> StoreLocation? {
        guard let value = getenv("FORMWORK_STORE").map({ String(cString: $0) }) else { return nil }
        guard let location = StoreLocation(argument: value) else {
            throw ServeError("FORMWORK_STORE must be sqlite:PATH or postgres://user:password@host:port/database")
        }
        return location
    }

    /// The store this names, opened (and migrated).
    func open(logger: Logger) async throws -> any SubmissionStore {
        do {
            switch kind {
            case .sqlite(let path): return try SQLiteStore(path: path)
            case .postgres(let url): return try await PostgresStore(url: url, logger: logger)
            }
        } catch { throw ServeError(error.message) }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the forms of folders or files on the web: pages, submissions checked as `validate` checks values, and a JSON API.",
        discussion: """
            Listens on 127.0.0.1:8080 by default. GET / lists the forms; /forms/ID serves one (and takes its POST); \
            /api/forms/ID/submissions takes JSON; /openapi.json, /healthz and /metrics describe the server. \
            Documents edited on disk are served in their new version without a restart. See docs/server.md.

            Environment: FORMWORK_STORE (as --store), FORMWORK_SECRET_FILE (as --secret-file), FORMWORK_PACK_PATH.
            """)

    @Argument(help: ArgumentHelp("Form documents, or folders of them (.json, .yaml, .yml).", valueName: "dir-or-file"))
    var paths: [String] = ["."]
    @Option(help: "The address to listen on (127.0.0.1: this machine only).") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0: any free port, printed when listening).") var port = 8080
    @Option(
        help: ArgumentHelp(
            "Where submissions are kept: sqlite:PATH, or postgres://user:password@host:port/database (better in FORMWORK_STORE: no password in argv).",
            valueName: "store"))
    var store: StoreLocation?
    @Option(
        name: .customLong("secret-file"),
        help: ArgumentHelp(
            "A file of at least 32 bytes that signs form tokens; instances that share it accept each other's tokens.", valueName: "path"))
    var secretFile: String?
    @Option(
        name: .customLong("reader-token-file"),
        help: ArgumentHelp(
            "A file (mode 0600, at least 32 bytes) whose text is the bearer token that may read stored answers over HTTP (GET /api/forms/ID/submissions); also FORMWORK_READER_TOKEN_FILE. Without it, answers are not served.",
            valueName: "path"))
    var readerTokenFile: String?
    @Option(name: .customLong("pack-path"), help: ArgumentHelp("A pack (.so) or a directory of packs; repeatable.", valueName: "path"))
    var packPaths: [String] = []
    @Option(help: ArgumentHelp("Cell hosts driving cells for requests (each a child process).", valueName: "count")) var cells = 2
    @Option(help: ArgumentHelp("Seconds one call into a pack may take before it is stopped.", valueName: "seconds")) var timeout: Double = 5
    @Option(name: .customLong("max-body"), help: ArgumentHelp("Largest request body, in bytes.", valueName: "bytes")) var maxBody = 1 << 20
    @Option(
        name: .customLong("max-upload"),
        help: ArgumentHelp("Most bytes of files one multipart body may carry beyond --max-body.", valueName: "bytes"))
    var maxUpload = 16 << 20
    @Option(name: .customLong("max-fields"), help: ArgumentHelp("Most name and value pairs in one body.", valueName: "count"))
    var maxFields = 10_000
    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds a connection may stay silent.", valueName: "seconds"))
    var idleTimeout: Double = 15
    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp("Seconds a request may take to arrive in full (head and body), even trickling.", valueName: "seconds"))
    var requestTimeout: Double = 30
    @Option(
        name: .customLong("draft-days"),
        help: ArgumentHelp("Days a saved draft (\"Save and continue later\") can be resumed before it is deleted.", valueName: "days"))
    var draftDays: Double = 30
    @Option(
        name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, not \(port)") }
        guard (1...64).contains(cells) else { throw ValidationError("--cells must be between 1 and 64, not \(cells)") }
        guard timeout > 0 && timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds, not \(timeout)") }
        guard idleTimeout > 0 && idleTimeout <= 3600 else {
            throw ValidationError("--idle-timeout must be between 0 and 3600 seconds, not \(idleTimeout)")
        }
        guard requestTimeout > 0 && requestTimeout <= 3600 else {
            throw ValidationError("--request-timeout must be between 0 and 3600 seconds, not \(requestTimeout)")
        }
        guard draftDays > 0 && draftDays <= 3650 else {
            throw ValidationError("--draft-days must be between 0 and 3650 days, not \(draftDays)")
        }
        guard maxBody >= 1024 else { throw ValidationError("--max-body must be at least 1024 bytes, not \(maxBody)") }
        guard maxUpload >= 0 else { throw ValidationError("--max-upload must be 0 or more bytes, not \(maxUpload)") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level '\(logLevel)' is not one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = SafeLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "formwork.serve")
        let metrics = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics))

        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw ServeError("\(path): no such file or folder; name form documents or folders of them")
            }
        }
        let secret = try Self.secret(secretFile ?? getenv("FORMWORK_SECRET_FILE").map { String(cString: $0) })
        let readerToken = try (readerTokenFile ?? getenv("FORMWORK_READER_TOKEN_FILE").map { String(cString: $0) }).map {
            // The token is the file's text, without a final line break (an editor or `echo` adds one).
            var bytes = try Self.secret($0, what: "reader token")
            while bytes.last == 0x0A || bytes.last == 0x0D { bytes.removeLast() }
            return bytes
        }
        let location = try store ?? StoreLocation.fromEnvironment() ?? StoreLocation.beside(paths)
        let limits = SubmissionLimits(maxBytes: maxBody, maxFields: maxFields, maxUploadBytes: maxUpload)
        let site = FormSite(
            forms: paths, store: try await location.open(logger: logger), cellHost: CheckRunner.currentExecutable, packPaths: packPaths,
            cells: cells, timeout: timeout, secret: secret, limits: limits, draftLifetime: draftDays * 86400,
            readerToken: readerToken, logger: logger)
        let service = site.service, lanes = site.lanes, catalog = service.catalog
        let forms = catalog.forms.count
        let storePath = location.description
        let app = FormworkApplication.make(
            service: service, lanes: lanes,
            listen: ListenConfiguration(
                host: host, port: port, idleTimeout: idleTimeout, requestTimeout: requestTimeout, limits: limits),
            metrics: metrics, logger: logger
        ) { [host] port in
            // The one line on standard output: scripts and tests read the address from it.
            FormworkServerCommand.say(
                "formwork: serving \(forms) form\(forms == 1 ? "" : "s") on http://\(host.contains(":") ? "[\(host)]" : host):\(port) (submissions in \(storePath))\n"
            )
        }
        try await app.runService()
    }

    /// The token secret: the file's bytes (at least 32), or random for this process alone.
    static func secret(_ path: String?, what: String = "secret") throws -> [UInt8] {
        guard let path else { return FormTokens.randomSecret() }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ServeError("\(path): cannot read the \(what) file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & 0o077 != 0 {
            throw ServeError(
                "\(path): the \(what) file can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it")
        }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &bytes, 4096)
        guard n >= 32 else {
            throw ServeError("\(path): the \(what) file must hold at least 32 bytes (try: head -c 32 /dev/urandom > \(path))")
        }
        return Array(bytes[0..<n])
    }
}

struct ServeError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// swift-log's lines on standard error, with every control character of a message or a value replaced: a path or a
/// form id from disk never reaches a terminal raw.
struct SafeLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = "\(Self.timestamp()) \(event.level) \(label): \(Self.safe(event.message.description))"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() { line += " \(Self.safe(key))=\(Self.safe(merged[key]!.description))" }
        line += "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    static func safe(_ text: String) -> String { TerminalText.safe(text) }

    static func timestamp() -> String {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        strftime(&buffer, 32, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(cString: buffer)
    }
}
