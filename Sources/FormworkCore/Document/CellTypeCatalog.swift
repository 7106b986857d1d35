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
}

extension CellTypeCatalog {
    public var supportsConcurrentLookups: Bool { false }
}

/// Why a cell type could not be found.
public struct RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    public let id: String
    public let nearMatches: [String]
    /// The places that were searched (pack directories and files).
    public let searched: [String]

    public init(id: String, nearMatches: [String], searched: [String]) {
        self.id = id
        self.nearMatches = nearMatches
        self.searched = searched
    }

    public var description: String { summary + " " + hint }

    /// What is wrong: "no cell type 'x' is registered; did you mean 'y'?"
    public var summary: String {
        var text = "no cell type '\(id)' is registered"
        if !nearMatches.isEmpty {
            text += "; did you mean " + nearMatches.map { "'\($0)'" }.joined(separator: " or ") + "?"
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
