import FormworkCore
import FormworkHost
import Glibc
import Logging
import Metrics
import Synchronization

/// The usual way to assemble the web runtime: forms read from folders or files, packs found where `formwork` finds
/// them, cells run in cell hosts started from a `formwork` executable (its `__child` mode, docs/isolation.md),
/// submissions in SQLite. `formwork serve` is this and a Hummingbird application; an app embeds it the same way
/// (Examples/Server).
public struct FormSite: Sendable {
    public let service: FormService
    /// The threads that drive cells; stop them (after the server stopped) with `stop()`.
    public let lanes: CellLanes

    /// - Parameters:
    ///   - forms: documents, or folders of them.
    ///   - storePath: the SQLite file of submissions (created, mode 0600).
    ///   - cellHost: the executable the cell hosts run: an installed `formwork`, or this process's own executable
    ///     when it handles `__child` (as `formwork-server` does) — never a copy of this process, which holds answers.
    ///   - packPaths: packs or folders searched before `FORMWORK_PACK_PATH` and the standard locations.
    ///   - cells: cell hosts, each a child process serving one request at a time.
    ///   - timeout: seconds one call into a pack may take.
    ///   - secret: signs form tokens; instances that share it accept each other's (random when nil).
    ///   - limits: what a request body may hold.
    ///   - draftLifetime: seconds a saved draft can be resumed (30 days unless told).
    ///   - readerToken: the bearer token that may read stored answers over HTTP; nil (the default): nobody may.
    ///   - logger: where the forms' reloads, the packs' warnings and each request's outcome are logged.
    public init(
        forms: [String], storePath: String, cellHost: String, packPaths: [String] = [], cells: Int = 2, timeout: Double = 5,
        secret: [UInt8]? = nil, limits: SubmissionLimits = SubmissionLimits(), draftLifetime: Double = 30 * 86400,
        readerToken: [UInt8]? = nil, logger: Logger
    ) throws(StoreError) {
        self.init(
            forms: forms, store: try SQLiteStore(path: storePath), cellHost: cellHost, packPaths: packPaths, cells: cells, timeout: timeout,
            secret: secret, limits: limits, draftLifetime: draftLifetime, readerToken: readerToken, logger: logger)
    }

    /// The same, with a store of the caller's (a `PostgresStore` shared by several instances).
    public init(
        forms: [String], store: any SubmissionStore, cellHost: String, packPaths: [String] = [], cells: Int = 2, timeout: Double = 5,
        secret: [UInt8]? = nil, limits: SubmissionLimits = SubmissionLimits(), draftLifetime: Double = 30 * 86400,
        readerToken: [UInt8]? = nil, logger: Logger
    ) {
        let seen = Mutex<[ObjectIdentifier: Int]>([:])
        let (registry, launcher) = Self.registry(packPaths: packPaths, cellHost: cellHost, timeout: timeout, logger: logger)
        lanes = CellLanes(
            count: cells,
            makeDriver: {
                let driver = IsolatedCells(launcher: launcher, mode: .shared)
                driver.start()
                return driver
            },
            afterJob: { driver in
                // Cell hosts started by the lanes: one each at first; a rise after that is a restart (a cell crashed
                // or hung), which `formwork_cell_hosts_started_total` shows on /metrics.
                guard let cells = driver as? IsolatedCells else { return }
                let started = cells.childrenStarted
                let before = seen.withLock { seen in
                    defer { seen[ObjectIdentifier(cells)] = started }
                    return seen[ObjectIdentifier(cells)] ?? 0
                }
                if started > before { Counter(label: "formwork_cell_hosts_started_total").increment(by: Int64(started - before)) }
            },
            finish: { ($0 as? IsolatedCells)?.finish() })
        service = FormService(
            catalog: FormCatalog(paths: forms, registry: registry, logger: logger), store: store, lanes: lanes,
            tokens: FormTokens(secret: secret ?? FormTokens.randomSecret()), limits: limits, logger: logger, draftLifetime: draftLifetime,
            readerToken: readerToken)
    }

    /// The cell types of the packs found where `formwork` finds them (scanned in a child, cached), and the launcher
    /// of the cell hosts that run them.
    public static func registry(
        packPaths: [String], cellHost: String, timeout: Double, logger: Logger
    ) -> (Registry, IsolationLauncher) {
        var environment: [String: String] = [:]
        for key in ["FORMWORK_PACK_PATH", "XDG_DATA_HOME", "HOME", "XDG_CACHE_HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        let locations = Discovery.locations(
            packPaths: packPaths, environment: environment, executableDirectory: Discovery.executableDirectory)
        let launcher = IsolationLauncher(executable: cellHost, timeout: timeout, forksItself: false, packLocations: locations.map(\.path))
        let registry = Registry.discover(
            packPaths: packPaths, environment: environment,
            scan: ScanOptions(launcher: launcher, cacheFile: RegistryCache.file(environment: environment)))
        for warning in registry.warnings { logger.warning("\(warning)") }
        return (registry, launcher)
    }

    /// Commits what the store holds and stops the cell hosts.
    public func stop() async {
        await service.store.close()
        lanes.stop()
    }
}
