import FormworkCore
/// A cell type that lost to an earlier one with the same identifier.
public struct ShadowedCellType: Sendable, Equatable {
    public var id: String
    /// The pack whose cell type is not used.
    public var path: String
    /// The pack that provides the identifier (first in search order).
    public var winner: String
}

/// Cell types by identifier, from every pack found in the search locations.
///
/// Packs load whole or not at all; a broken pack is reported in `failures` and
/// the others still load. For a duplicate identifier the first pack in search
/// order wins and the others are reported in `shadowed`.
public struct Registry: Sendable, CellTypeCatalog {
    public let locations: [SearchLocation]
    public let packs: [Pack]
    public let failures: [PackError]
    public let shadowed: [ShadowedCellType]
    /// Search-path entries that were ignored, and why (relative `FORMWORK_PACK_PATH` entries).
    public let warnings: [String]
    private let byID: [String: CellType]
    /// The code behind every loaded cell type (winners and shadowed), for the in-process driver;
    /// empty when the packs were read by the scanner (the driver loads what it drives).
    let entries: [CellKey: CellEntry]
    /// How the descriptors were obtained, when a scanner was used.
    public let scanSummary: ScanSummary?

    /// Packs the scanner could not read without dying or hanging.
    public var quarantined: [PackError] {
        failures.filter { if case .quarantined = $0.reason { true } else { false } }
    }

    /// Finds every pack in `locations` and reads its descriptors: with `scan`, in a child
    /// process and through the registry cache (no pack code runs in this process; cells are
    /// loaded when first driven); without it, by loading every pack here (the 1.0 behaviour,
    /// for tests and embedders that trust their packs).
    public init(locations: [SearchLocation], scan: ScanOptions? = nil) {
        self.init(locations: locations, discovered: Discovery.candidates(in: locations), scan: scan)
    }

    /// The registry of the locations `fingerprint` was taken of, from that discovery (not a second one).
    public init(_ fingerprint: Fingerprint, scan: ScanOptions? = nil) {
        self.init(locations: fingerprint.locations, discovered: fingerprint.discovered, scan: scan)
    }

    init(
        locations: [SearchLocation], discovered: (files: [Discovery.Candidate], errors: [PackError], warnings: [String]),
        scan: ScanOptions?
    ) {
        let (candidates, errors, discoveredWarnings) = discovered
        var warnings = discoveredWarnings
        var packs: [Pack] = []
        var entries: [CellKey: CellEntry] = [:]
        var failures = errors
        var summary = ScanSummary()
        func record(_ result: Result<Pack, PackError>, _ candidate: Discovery.Candidate) {
            switch result {
            case .success(let pack): packs.append(pack)
            case .failure(let error):
                // Other libraries built beside the executable are not packs; say nothing about them.
                if candidate.location.origin == .executable, error.reason == .missingEntry(otherMajors: []) { return }
                failures.append(error)
            }
        }
        if let scan {
            var results: [Result<Pack, PackError>?] = Array(repeating: nil, count: candidates.count)
            var cache = scan.cacheFile.map { RegistryCache(file: $0) }
            if let refusal = cache?.refusal { warnings.append(refusal) }
            var keys: [FileKey?] = []
            var toScan: [Int] = []
            for (i, candidate) in candidates.enumerated() {
                let key = candidate.key ?? FileKey(realPath: candidate.realPath)
                keys.append(key)
                if let key, !scan.rescan, let hit = cache?.lookup(key) {
                    summary.cacheHits += 1
                    switch hit {
                    case .pack(let pack): results[i] = .success(LoadedPackInfo(pack: pack).relocated(to: candidate.path))
                    case .failure(let error): results[i] = .failure(PackError(path: candidate.path, reason: error.reason))
                    }
                } else {
                    toScan.append(i)
                }
            }
            summary.scanned = toScan.count
            if !toScan.isEmpty {
                // A candidate with a key was found a regular file by discovery, at its real path.
                let items = toScan.map { i in
                    PackScanner.Item(
                        path: candidates[i].path, realPath: candidates[i].key == nil ? "" : candidates[i].realPath, size: keys[i]?.size ?? 0
                    )
                }
                let scanned = PackScanner.scan(items, launcher: scan.launcher)
                for (i, result) in zip(toScan, scanned) {
                    results[i] = result.map(\.pack)
                    guard let key = keys[i] else { continue }
                    switch result {
                    case .success(let info): cache?.store(.pack(info.pack), for: key)
                    // A pack the scanner never got to read is read again next time.
                    case .failure(let error):
                        if case .notScanned = error.reason { continue }
                        cache?.store(.failure(error), for: key)
                    }
                }
            }
            // Records of files that are gone are dropped when the cache is written for another reason.
            if cache?.changed == true {
                cache!.prune()
                cache!.save()
            }
            for (candidate, result) in zip(candidates, results) {
                record(result ?? .failure(PackError(path: candidate.path, reason: .unreadable)), candidate)
            }
        } else {
            for candidate in candidates {
                do {
                    let loaded = try PackLoader.load(path: candidate.path)
                    for (cell, entry) in zip(loaded.pack.cellTypes, loaded.entries) { entries[CellKey(cell)] = entry }
                    record(.success(loaded.pack), candidate)
                } catch {
                    record(.failure(error), candidate)
                }
            }
        }
        self.scanSummary = scan == nil ? nil : summary
        var byID: [String: CellType] = [:]
        var shadowed: [ShadowedCellType] = []
        for pack in packs {
            for cell in pack.cellTypes {
                if let winner = byID[cell.id] {
                    shadowed.append(ShadowedCellType(id: cell.id, path: pack.path, winner: winner.packPath))
                } else {
                    byID[cell.id] = cell
                }
            }
        }
        self.locations = locations
        self.packs = packs
        self.failures = failures
        self.shadowed = shadowed
        self.byID = byID
        self.entries = entries
        self.warnings = warnings
    }

    /// The usual search: `packPaths`, the environment, the standard directories, the executable's directory.
    public static func discover(
        packPaths: [String] = [], environment: [String: String],
        executableDirectory: String? = Discovery.executableDirectory, scan: ScanOptions? = nil
    ) -> Registry {
        Registry(
            locations: Discovery.locations(
                packPaths: packPaths, environment: environment,
                executableDirectory: executableDirectory), scan: scan)
    }

    /// Every usable cell type, in search order.
    public var cellTypes: [CellType] {
        packs.flatMap { pack in pack.cellTypes.filter { byID[$0.id]?.packPath == pack.path } }
    }

    /// The cell type registered under `id`.
    /// A registry is immutable once built: look-ups from several threads are safe.
    public var supportsConcurrentLookups: Bool { true }

    /// The first pack in search order registered as `packID` (another of the same id is shadowed, as cell types are).
    public func choiceSources(pack packID: String) -> PackChoices? {
        packs.first { $0.id == packID }.map { PackChoices(path: $0.path, sources: $0.choiceSources, cacheSeconds: $0.choicesCacheSeconds) }
    }

    public func cellType(_ id: String) throws(RegistryError) -> CellType {
        if let cell = byID[id] { return cell }
        throw RegistryError(
            id: id, nearMatches: nearMatches(for: id), searched: locations.map(\.path),
            unloaded: failures.map { failure in
                // The reason's first clause: "quarantined: reading it crashed with SIGSEGV (signal 11)".
                let reason = failure.message.split(separator: ";", maxSplits: 1).first.map(String.init) ?? failure.message
                return "\(failure.path) (\(reason))"
            })
    }

    /// The code behind `cell`, when its pack was loaded by this registry.
    func entry(for cell: CellType) -> CellEntry? { entries[CellKey(cell)] }

    /// Whether `id` is registered.
    public func contains(_ id: String) -> Bool { byID[id] != nil }

    /// Registered identifiers close to `id` (edit distance, or the same last label).
    public func nearMatches(for id: String) -> [String] { RegistryError.nearMatches(for: id, in: byID.keys) }
}

/// How `Registry` reads descriptors out of process.
public struct ScanOptions: Sendable {
    public var launcher: IsolationLauncher
    /// The registry cache file; nil reads every pack each time (`--no-cache`).
    public var cacheFile: String?
    /// Reads every pack again, quarantined ones too (`list --rescan`).
    public var rescan: Bool

    public init(launcher: IsolationLauncher, cacheFile: String?, rescan: Bool = false) {
        self.launcher = launcher
        self.cacheFile = cacheFile
        self.rescan = rescan
    }
}

/// What a scanning `Registry` did: packs answered from the cache, packs read by the scanner.
public struct ScanSummary: Sendable, Equatable {
    public var cacheHits = 0
    public var scanned = 0
}

extension Registry {
    /// What a registry read through the cache is built from: the search locations, every
    /// candidate pack's path, real path and file key (device, inode, size, modification time),
    /// and discovery's own problems (missing or untrusted paths) and warnings. With the same
    /// cache records, equal fingerprints give the same registry, so a program can keep what it
    /// derived from a registry (the command keeps `list`'s output) under the fingerprint and
    /// skip the cache when nothing changed. Costs what discovery costs: one `fstatat` per pack.
    public struct Fingerprint: Sendable {
        /// The fingerprint, to compare and store.
        public let bytes: [UInt8]
        /// Search-path entries that are ignored, and why (as `Registry.warnings` would say).
        public let warnings: [String]
        let locations: [SearchLocation]
        let discovered: (files: [Discovery.Candidate], errors: [PackError], warnings: [String])
    }

    /// The fingerprint of `locations` as they are now.
    public static func fingerprint(of locations: [SearchLocation]) -> Fingerprint {
        let discovered = Discovery.candidates(in: locations)
        let (candidates, errors, warnings) = discovered
        var w = WireWriter(capacity: 64 + candidates.count * 128)
        w.u32(UInt32(locations.count))
        for location in locations {
            w.string(location.path)
            w.string(location.origin.rawValue)
        }
        w.u32(UInt32(candidates.count))
        for candidate in candidates {
            w.string(candidate.path)
            w.string(candidate.realPath)
            if let key = candidate.key ?? FileKey(realPath: candidate.realPath) {
                w.u8(1)
                w.u64(key.device)
                w.u64(key.inode)
                w.i64(key.size)
                w.i64(key.modifiedSeconds)
                w.i64(key.modifiedNanoseconds)
                w.i64(key.changedSeconds)
                w.i64(key.changedNanoseconds)
            } else {
                w.u8(0)
            }
        }
        w.strings(errors.map(\.description))
        w.strings(warnings)
        return Fingerprint(bytes: w.bytes, warnings: warnings, locations: locations, discovered: discovered)
    }
}
