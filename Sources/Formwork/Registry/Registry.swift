/// A cell type that lost to an earlier one with the same identifier.
public struct ShadowedCellType: Sendable, Equatable {
    public var id: String
    /// The pack whose cell type is not used.
    public var path: String
    /// The pack that provides the identifier (first in search order).
    public var winner: String
}

/// Why a cell type could not be found.
public struct RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var id: String
    public var nearMatches: [String]
    public var searched: [String]

    public var description: String {
        var text = "no cell type '\(id)' is registered"
        if !nearMatches.isEmpty {
            text += "; did you mean " + nearMatches.map { "'\($0)'" }.joined(separator: " or ") + "?"
        } else { text += "." }
        text += " Searched: " + (searched.isEmpty ? "nothing" : searched.joined(separator: ", "))
        text += ". Install the pack that provides it into one of these directories, or pass --pack-path."
        return text
    }
}

/// Cell types by identifier, from every pack found in the search locations.
///
/// Packs load whole or not at all; a broken pack is reported in `failures` and
/// the others still load. For a duplicate identifier the first pack in search
/// order wins and the others are reported in `shadowed`.
public struct Registry: Sendable {
    public let locations: [SearchLocation]
    public let packs: [Pack]
    public let failures: [PackError]
    public let shadowed: [ShadowedCellType]
    private let byID: [String: CellType]

    /// Finds and loads every pack in `locations`.
    public init(locations: [SearchLocation]) {
        let (candidates, errors) = Discovery.candidates(in: locations)
        var packs: [Pack] = []
        var failures = errors
        for candidate in candidates {
            do {
                packs.append(try PackLoader.load(path: candidate.path))
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
    }

    /// The usual search: `packPaths`, the environment, the standard directories, the executable's directory.
    public static func discover(packPaths: [String] = [], environment: [String: String],
                                executableDirectory: String? = Discovery.executableDirectory) -> Registry {
        Registry(locations: Discovery.locations(packPaths: packPaths, environment: environment,
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

    /// Whether `id` is registered.
    public func contains(_ id: String) -> Bool { byID[id] != nil }

    /// Registered identifiers close to `id` (edit distance, or the same last label).
    public func nearMatches(for id: String) -> [String] {
        let last = id.split(separator: ".").last.map(String.init) ?? id
        let scored = byID.keys.map { ($0, EditDistance.between($0, id)) }
            .filter { candidate, distance in
                distance <= max(2, id.count / 4) || candidate.split(separator: ".").last.map(String.init) == last
            }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The closest of `candidates` to `word`, if close enough to suggest.
    static func suggestion(for word: String, in candidates: [String]) -> String? {
        candidates.map { ($0, between($0.lowercased(), word.lowercased())) }
            .filter { $0.1 <= max(2, word.count / 3) }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }
}
