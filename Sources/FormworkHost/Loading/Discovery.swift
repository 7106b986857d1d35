import FormworkCore
import Glibc

/// Where packs are looked for, in the order docs/cli.md documents.
public struct SearchLocation: Sendable, Equatable, CustomStringConvertible {
    public enum Origin: String, Sendable {
        /// `--pack-path`: a missing path is an error.
        case option
        /// `FORMWORK_PACK_PATH`.
        case environment
        /// `$XDG_DATA_HOME/formwork/packs`, `/usr/local/lib/formwork/packs`, `/usr/lib/formwork/packs`.
        case standard
        /// Beside the running executable (a fresh build finds its own packs).
        case executable
    }

    public var path: String
    public var origin: Origin

    public init(path: String, origin: Origin) {
        self.path = path
        self.origin = origin
    }

    public var description: String { path }
}

public enum Discovery {
    /// The search locations: `packPaths`, then `FORMWORK_PACK_PATH`, then the
    /// standard directories, then `executableDirectory`.
    public static func locations(
        packPaths: [String], environment: [String: String],
        executableDirectory: String?
    ) -> [SearchLocation] {
        var out = packPaths.map { SearchLocation(path: $0, origin: .option) }
        if let env = environment["FORMWORK_PACK_PATH"] {
            // Relative entries are kept here and ignored (with a warning) by `candidates`:
            // they would load code from whatever the current directory happens to be.
            out += env.split(separator: ":").map { SearchLocation(path: String($0), origin: .environment) }
        }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { "\($0)/.local/share" }
        if let dataHome { out.append(SearchLocation(path: "\(dataHome)/formwork/packs", origin: .standard)) }
        // An installed tree is relocatable: <prefix>/bin/formwork finds <prefix>/lib/formwork/packs.
        if let executableDirectory, executableDirectory.hasSuffix("/bin") {
            let relative = "\(executableDirectory.dropLast(4))/lib/formwork/packs"
            if relative != "/usr/local/lib/formwork/packs" && relative != "/usr/lib/formwork/packs" {
                out.append(SearchLocation(path: relative, origin: .standard))
            }
        }
        out.append(SearchLocation(path: "/usr/local/lib/formwork/packs", origin: .standard))
        out.append(SearchLocation(path: "/usr/lib/formwork/packs", origin: .standard))
        if let executableDirectory { out.append(SearchLocation(path: executableDirectory, origin: .executable)) }
        return out
    }

    /// The directory of the running executable (`/proc/self/exe`).
    public static var executableDirectory: String? {
        guard let path = FileSystem.realPath("/proc/self/exe") else { return nil }
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// A candidate pack file and where it was found.
    struct Candidate {
        var path: String
        var location: SearchLocation
        /// The file's real path (symbolic links resolved), found once here.
        var realPath: String
        /// The cache key of the real file, when discovery already examined it (not a link).
        var key: FileKey? = nil
    }

    /// The pack files of `locations` in order, each real path once, and the errors for
    /// explicitly given paths that do not exist.
    static func candidates(in locations: [SearchLocation]) -> (files: [Candidate], errors: [PackError], warnings: [String]) {
        var files: [Candidate] = []
        var errors: [PackError] = []
        var warnings: [String] = []
        var seen: Set<String> = []
        func add(_ path: String, _ location: SearchLocation, real known: String? = nil, status: stat? = nil) {
            let real = known ?? FileSystem.realPath(path) ?? path
            guard seen.insert(real).inserted else { return }
            if let problem = status.map({ FileSystem.trustProblem(real, $0) }) ?? FileSystem.trustProblem(real) {
                errors.append(PackError(path: path, reason: .untrusted(problem)))
            } else {
                files.append(Candidate(path: path, location: location, realPath: real, key: status.map { FileKey(realPath: real, $0) }))
            }
        }
        for location in locations {
            if location.origin == .environment && !location.path.hasPrefix("/") {
                warnings.append(
                    "FORMWORK_PACK_PATH entry '\(location.path)' is not an absolute path and is ignored; write it as an absolute path (a relative one would load packs from the current directory)"
                )
                continue
            }
            switch FileSystem.kind(of: location.path) {
            case .directory:
                if let problem = FileSystem.trustProblem(location.path) {
                    errors.append(PackError(path: location.path, reason: .untrusted(problem)))
                    continue
                }
                let base = location.path.hasSuffix("/") ? String(location.path.dropLast()) : location.path
                // The directory is resolved once; an entry that is not itself a link is then its real path
                // (one realpath per directory instead of one per pack, a path component at a time).
                let realBase = FileSystem.realPath(base) ?? base
                let prefix = base + "/", realPrefix = realBase + "/"
                for (name, status) in FileSystem.entries(of: location.path, suffix: ".so") {
                    let path = prefix + name
                    guard let status else { continue }
                    switch status.st_mode & S_IFMT {
                    case S_IFREG: add(path, location, real: base == realBase ? path : realPrefix + name, status: status)
                    case S_IFLNK where FileSystem.kind(of: path) == .regular: add(path, location)  // resolved and examined on its own
                    default: continue
                    }
                }
            case .regular:
                add(location.path, location)
            case .missing where location.origin == .option:
                errors.append(PackError(path: location.path, reason: .fileNotFound))
            case .other where location.origin == .option:
                errors.append(PackError(path: location.path, reason: .notARegularFile))
            default:
                break
            }
        }
        return (files, errors, warnings)
    }
}
