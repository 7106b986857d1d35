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
    /// The code behind every loaded cell type (winners and shadowed), for the in-process driver.
    let entries: [CellKey: CellEntry]

    /// Finds and loads every pack in `locations`.
    public init(locations: [SearchLocation]) {
        let (candidates, errors, warnings) = Discovery.candidates(in: locations)
        var packs: [Pack] = []
        var entries: [CellKey: CellEntry] = [:]
        var failures = errors
        for candidate in candidates {
            do {
                let loaded = try PackLoader.load(path: candidate.path)
                packs.append(loaded.pack)
                for (cell, entry) in zip(loaded.pack.cellTypes, loaded.entries) { entries[CellKey(cell)] = entry }
            } catch {
                // Other libraries built beside the executable are not packs; say nothing about them.
                if candidate.location.origin == .executable, error.reason == .missingEntry(otherMajors: []) { continue }
                failures.append(error)
            }
        }
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
        executableDirectory: String? = Discovery.executableDirectory
    ) -> Registry {
        Registry(
            locations: Discovery.locations(
                packPaths: packPaths, environment: environment,
                executableDirectory: executableDirectory))
    }

    /// Every usable cell type, in search order.
    public var cellTypes: [CellType] {
        packs.flatMap { pack in pack.cellTypes.filter { byID[$0.id]?.packPath == pack.path } }
    }

    /// The cell type registered under `id`.
    public func cellType(_ id: String) throws(RegistryError) -> CellType {
        if let cell = byID[id] { return cell }
        throw RegistryError(id: id, nearMatches: nearMatches(for: id), searched: locations.map(\.path))
    }

    /// The code behind `cell`, when its pack was loaded by this registry.
    func entry(for cell: CellType) -> CellEntry? { entries[CellKey(cell)] }

    /// Whether `id` is registered.
    public func contains(_ id: String) -> Bool { byID[id] != nil }

    /// Registered identifiers close to `id` (edit distance, or the same last label).
    public func nearMatches(for id: String) -> [String] { RegistryError.nearMatches(for: id, in: byID.keys) }
}
