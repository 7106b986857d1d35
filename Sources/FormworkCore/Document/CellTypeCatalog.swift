/// Where documents find their cell types by identifier. The host's `Registry`
/// (packs found on the search path) is one; a test can use a plain list.
public protocol CellTypeCatalog {
    /// The cell type registered under `id`.
    func cellType(_ id: String) throws(RegistryError) -> CellType
    /// Every usable cell type, in search order.
    var cellTypes: [CellType] { get }
    /// Whether `cellType(_:)` may be called from several threads at once (a large document's sections are
    /// then decoded on several cores). False unless the catalog says so.
    var supportsConcurrentLookups: Bool { get }
    /// ABI 1.2: the pack registered as `packID` (its path) and the sources of choices it offers; nil when no
    /// such pack is registered. The default knows no packs.
    func choiceSources(pack packID: String) -> PackChoices?
}

extension CellTypeCatalog {
    public var supportsConcurrentLookups: Bool { false }
    public func choiceSources(pack packID: String) -> PackChoices? { nil }
}

/// The catalog one worker of a parallel step decodes with (`Parallel.mapOnWorkers`): on worker 0, the calling
/// thread, the catalog's own cell types; on each other worker, a copy of each cell type it asks for
/// (`CellType.copy`), made the first time and kept for the step. A field takes about twelve references to its
/// cell type's objects as it is decoded (the type, its schema array, defaults, schema objects, traits): when
/// two cores decoded fields of the same cell types, those counts' cache lines moved between the cores at every
/// field. A copy is equal to its original, so the form decoded is the same.
///
/// Used by one worker at a time: not for sharing between threads.
final class WorkerCatalog: CellTypeCatalog, @unchecked Sendable {
    /// The catalog the copies are made from (never a `WorkerCatalog`: its look-ups are safe from several threads).
    let base: any CellTypeCatalog
    private var made: [String: CellType] = [:]

    private init(base: any CellTypeCatalog) { self.base = base }

    /// One catalog for each worker of `Parallel.mapOnWorkers(count, worthIt:)`, index by index: `base` itself for
    /// worker 0, a `WorkerCatalog` for each other. In a step started by a worker of another step (`base` is then
    /// that worker's catalog), worker 0 goes on with it, and the others copy from the catalog under it: a
    /// `WorkerCatalog` is never used by two threads.
    static func forWorkers(of base: any CellTypeCatalog, _ count: Int, worthIt: Bool) -> [any CellTypeCatalog] {
        let shared = (base as? WorkerCatalog)?.base ?? base
        return (0..<Parallel.workers(count, worthIt: worthIt)).map { $0 == 0 ? base : WorkerCatalog(base: shared) }
    }

    func cellType(_ id: String) throws(RegistryError) -> CellType {
        if let copy = made[id] { return copy }
        let copy = try base.cellType(id).copy()
        made[id] = copy
        return copy
    }

    var cellTypes: [CellType] { base.cellTypes }
    func choiceSources(pack packID: String) -> PackChoices? { base.choiceSources(pack: packID) }
    var supportsConcurrentLookups: Bool { base.supportsConcurrentLookups }
}

/// Why a cell type could not be found.
public struct RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let id: String
    public let nearMatches: [String]
    /// The places that were searched (pack directories and files).
    public let searched: [String]
    /// Packs that were found but could not be loaded, each "path (why)": one of them may provide the cell type.
    public let unloaded: [String]

    public init(id: String, nearMatches: [String], searched: [String], unloaded: [String] = []) {
        self.id = id
        self.nearMatches = nearMatches
        self.searched = searched
        self.unloaded = unloaded
    }

    public var description: String { summary + " " + hint }

    /// What is wrong: "no cell type 'x' is registered; did you mean 'y'?"
    public var summary: String {
        var text = "no cell type '\(id)' is registered"
        if !nearMatches.isEmpty {
            text += "; did you mean " + nearMatches.map { "'\($0)'" }.joined(separator: " or ") + "?"
        } else if !unloaded.isEmpty {
            // What the pack that provides it would have said, had it loaded: the refusal, not only the absence.
            let named = unloaded.prefix(3).joined(separator: ", ") + (unloaded.count > 3 ? " and \(unloaded.count - 3) more" : "")
            text += "; \(unloaded.count == 1 ? "a pack" : "packs") that could not be loaded may provide it: \(named)."
        } else {
            text += "."
        }
        return text
    }

    /// Where packs were searched and what to do (the same for every missing cell type).
    public var hint: String {
        "Searched: " + (searched.isEmpty ? "nothing" : searched.joined(separator: ", "))
            + ". Install the pack that provides it into one of these directories, or pass --pack-path."
    }

    /// Registered identifiers close to `id` (edit distance, or the same last label), best first.
    public static func nearMatches(for id: String, in candidates: some Sequence<String>) -> [String] {
        let last = id.split(separator: ".").last.map(String.init) ?? id
        let scored = candidates.map { ($0, EditDistance.between($0, id)) }
            .filter { candidate, distance in
                distance <= max(2, id.count / 4) || candidate.split(separator: ".").last.map(String.init) == last
            }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }
}
