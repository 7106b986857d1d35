import CFormwork
import FormworkCore
/// Why a pack could not be loaded. Every message names what is wrong and what to do;
/// `description` prefixes it with the pack's path.
public struct PackError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case fileNotFound
        case notARegularFile
        case unreadable
        case notELF
        case openFailed(String)
        /// No `formwork_pack_v1`; `otherMajors` lists other entry majors it does export.
        case missingEntry(otherMajors: [UInt32])
        case entryReturnedNull
        /// Only the C++-mangled `_Z16formwork_pack_v1v` is exported.
        case mangledEntry
        case incompatibleABI(pack: ABIVersion, host: ABIVersion)
        /// A descriptor failed validation; the text says where and how to fix it.
        case invalidDescriptor(String)
        /// `fw_pack.init` failed.
        case initFailed(status: Int32, log: String?)
        /// The file or its directory could be changed by someone else (see `FileSystem.trustProblem`).
        case untrusted(String)
        /// Reading the pack killed or froze the scanner process; not retried until the file changes.
        case quarantined(String)
        /// Not read: the scanner process ended before it could read anything (the machine's fault, not the
        /// pack's: the sandbox cannot be set up, the executable does not run). Not kept in the registry cache.
        case notScanned(String)
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The message without the path.
    public var message: String {
        switch reason {
        case .fileNotFound:
            return "no such file; check the path given with --pack-path or FORMWORK_PACK_PATH"
        case .notARegularFile:
            return "not a regular file; pass a pack (.so) or a directory of packs"
        case .unreadable:
            return "cannot be read; check its permissions"
        case .notELF:
            return "not an ELF shared library; build the pack with `cc -shared -fPIC` (or as a SwiftPM dynamic library)"
        case .openFailed(let error):
            return "dlopen failed: \(error); check the pack's dependencies with `ldd`"
        case .missingEntry(let majors) where majors.isEmpty:
            return "does not export `formwork_pack_v1`; define it with FW_EXPORT (C) or @_cdecl(\"formwork_pack_v1\") (Swift)"
        case .missingEntry(let majors):
            let names = majors.map { "`formwork_pack_v\($0)` (ABI major \($0))" }.joined(separator: ", ")
            return
                "exports only \(names) but this host speaks ABI \(ABIVersion.host); rebuild the pack against formwork.h \(ABIVersion.host.major).x or use a host for that ABI"
        case .mangledEntry:
            return
                "exports `formwork_pack_v1` with a C++-mangled name (_Z16formwork_pack_v1v); declare it extern \"C\" (include formwork.h, which declares it inside extern \"C\", before defining it)"
        case .entryReturnedNull:
            return "`formwork_pack_v1()` returned NULL; it must return a pointer to a static fw_pack"
        case .incompatibleABI(let pack, let host) where pack.major != host.major:
            return
                "pack ABI \(pack) is incompatible with host ABI \(host) (major \(pack.major) differs from \(host.major)); rebuild the pack against formwork.h \(host.major).x"
        case .incompatibleABI(let pack, let host):
            return
                "pack ABI \(pack) is newer than host ABI \(host) (minor \(pack.minor) > \(host.minor)); upgrade formwork, or rebuild the pack with -DFW_TARGET_ABI_MINOR=\(host.minor) (formwork.h 1.2 or later) or against formwork.h \(host.major).\(host.minor)"
        case .invalidDescriptor(let text):
            return text
        case .initFailed(let status, let log):
            return "fw_pack.init failed with \(Status.name(fw_status(status)))" + (log.map { ": \($0)" } ?? "")
        case .untrusted(let why):
            return "refused: \(why)"
        case .quarantined(let why):
            return
                "quarantined: reading it \(why); it is not loaded again until the file changes (fix the pack, or run 'formwork list --rescan' to retry)"
        case .notScanned(let why):
            return
                "not read: the scanner could not run here (it \(why) before it read any pack); nothing is known to be wrong with the pack ('formwork paths' shows what the sandbox can use here; FORMWORK_SANDBOX=off runs without it)"
        }
    }

    public var description: String { "\(path): \(message)" }
}
