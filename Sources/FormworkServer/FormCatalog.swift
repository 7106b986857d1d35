import Crypto
import FormworkCore
import FormworkHost
import Glibc
import Logging
import Synchronization

/// A form as the server serves it: the document decoded, where it came from, and its revision.
public struct ServedForm: Sendable {
    public let form: Form
    public let path: String
    /// The document's revision: the SHA-256 of its bytes (hex, first 16 digits). Every stored submission records it.
    public let revision: String
    /// The document's text at that revision (the store keeps it: answers stored under it are read through it later).
    public let document: String
    public var id: String { form.id }
    public var title: String { form.title ?? form.id }
}

/// The forms of a folder (or of files): read at start, and read again when a file changes on disk — an edit that does
/// not decode keeps the last good version and is logged. At most one look at the disk per `interval` seconds.
public final class FormCatalog: Sendable {
    private struct Entry {
        var served: ServedForm?
        var stamp: FileStamp
        /// The document's translation files and how they were when it was read.
        var translations: [(path: String, stamp: FileStamp)] = []
    }

    private struct State {
        var entries: [String: Entry] = [:]  // by path
        /// The forms by id, made when the entries change: a lookup is one probe, not a path's entry copied out.
        var byID: [String: ServedForm] = [:]
        var lastLook: Double = -1
    }

    private let paths: [String]
    private let registry: Registry
    private let logger: Logger
    private let interval: Double
    private let state = Mutex(State())

    /// `paths`: form documents, or folders whose `.json`, `.yaml` and `.yml` files are forms.
    public init(paths: [String], registry: Registry, logger: Logger, interval: Double = 1) {
        self.paths = paths
        self.registry = registry
        self.logger = logger
        self.interval = interval
        refresh(force: true)
    }

    /// Every form, sorted by id.
    public var forms: [ServedForm] {
        refresh()
        return state.withLock { s in s.byID.keys.sorted().compactMap { s.byID[$0] } }
    }

    /// The form `id`, in its current version.
    public func form(_ id: String) -> ServedForm? {
        // The look at the disk is due at most once per `interval`: whether it is, and the form, under one lock.
        let now = Monotonic.seconds
        let (served, due) = state.withLock { s in (s.byID[id], now - s.lastLook >= interval) }
        guard due else { return served }
        refresh()
        return state.withLock { $0.byID[id] }
    }

    /// The documents the paths name now.
    func documentPaths() -> [String] {
        var out: [String] = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                out.append(path)  // reported when read
                continue
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                out.append(path)
                continue
            }
            guard let dir = opendir(path) else { continue }
            defer { closedir(dir) }
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                guard !name.hasPrefix("."), name.hasSuffix(".json") || name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { continue }
                names.append(name)
            }
            out += names.sorted().map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
        }
        return out
    }

    /// Looks at the disk (at most once per `interval`) and reads again each document whose file changed.
    public func refresh(force: Bool = false) {
        let now = Monotonic.seconds
        let due = state.withLock { s -> Bool in
            guard force || now - s.lastLook >= interval else { return false }
            s.lastLook = now
            return true
        }
        guard due else { return }
        // A document's translation files (`translations: { fr: feedback.fr.yaml }`) are not documents of their own; a
        // change to one reads its document again.
        let (known, translationFiles) = state.withLock { s in
            (s.entries.mapValues(\.stamp), Set(s.entries.values.flatMap { $0.translations.map(\.path) }))
        }
        var current = documentPaths().filter { !translationFiles.contains($0) }
        var changed: [(String, FileStamp)] = []
        let translationStamps = state.withLock { $0.entries.mapValues(\.translations) }
        for path in current {
            let stamp = FileStamp(path)
            let translationsChanged = translationStamps[path]?.contains { FileStamp($0.path) != $0.stamp } ?? false
            if known[path] != stamp || translationsChanged { changed.append((path, stamp)) }
        }
        let removed = Set(known.keys).subtracting(current)
        guard !changed.isEmpty || !removed.isEmpty else { return }
        var loaded: [(String, Entry)] = []
        var outcomes: [(path: String, stamp: FileStamp, read: Result<ServedForm, FormError>)] = []
        for (path, stamp) in changed { outcomes.append((path, stamp, read(path))) }
        // Files that turn out to be translations of a document are not documents of their own (nor logged as such).
        let named = Set(
            outcomes.flatMap { outcome in
                (try? outcome.read.get()).map { $0.form.translationFilePaths(documentPath: outcome.path) } ?? []
            })
        current.removeAll { named.contains($0) }
        for outcome in outcomes where !named.contains(outcome.path) {
            let previous = state.withLock { $0.entries[outcome.path]?.served }
            let served = settle(outcome.path, outcome.read, previous: previous)
            let translations = (served?.form.translationFilePaths(documentPath: outcome.path) ?? []).map { ($0, FileStamp($0)) }
            loaded.append((outcome.path, Entry(served: served, stamp: outcome.stamp, translations: translations)))
        }
        state.withLock { s in
            for path in removed {
                s.entries[path] = nil
                logger.notice("form document removed", metadata: ["path": "\(path)"])
            }
            for (path, entry) in loaded { s.entries[path] = entry }
            s.byID = [:]
            for path in current {
                guard let served = s.entries[path]?.served else { continue }
                if let other = s.byID[served.id]?.path {
                    logger.error(
                        "form id is served already; this document is not served",
                        metadata: ["path": "\(path)", "id": "\(served.id)", "servedFrom": "\(other)"])
                    continue
                }
                s.byID[served.id] = served
            }
        }
    }

    /// The document at `path`, read and decoded (its translation files with it).
    private func read(_ path: String) -> Result<ServedForm, FormError> {
        do throws(FormError) {
            let bytes: [UInt8]
            do { bytes = try FileBytes.read(path, limit: 32 << 20) } catch { throw FormError.unreadable(path, error.reason) }
            let form = try FormDecoder.load(path: path, registry: registry)
            return .success(
                ServedForm(
                    form: form, path: path, revision: FormTokens.revision(of: bytes), document: String(decoding: bytes, as: UTF8.self)))
        } catch {
            return .failure(error)
        }
    }

    /// The document read, or `previous` (logged) when it does not decode now.
    private func settle(_ path: String, _ read: Result<ServedForm, FormError>, previous: ServedForm?) -> ServedForm? {
        switch read {
        case .success(let served):
            if let previous, previous.revision != served.revision {
                logger.notice(
                    "form document changed", metadata: ["path": "\(path)", "id": "\(served.id)", "revision": "\(served.revision)"])
            }
            return served
        case .failure(let error):
            if let previous {
                logger.error(
                    "form document does not decode; the last good version is still served",
                    metadata: ["path": "\(path)", "revision": "\(previous.revision)", "error": "\(error)"])
            } else {
                logger.error("form document does not decode; it is not served", metadata: ["path": "\(path)", "error": "\(error)"])
            }
            return previous
        }
    }
}

/// What says a file changed: size, modification and change times, inode.
struct FileStamp: Equatable {
    var size: Int64 = -1
    var mtime: timespec = timespec()
    var ctime: timespec = timespec()
    var inode: UInt = 0

    init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        size = Int64(info.st_size)
        mtime = info.st_mtim
        ctime = info.st_ctim
        inode = UInt(info.st_ino)
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.size == b.size && a.inode == b.inode && a.mtime.tv_sec == b.mtime.tv_sec && a.mtime.tv_nsec == b.mtime.tv_nsec
            && a.ctime.tv_sec == b.ctime.tv_sec && a.ctime.tv_nsec == b.ctime.tv_nsec
    }
}

enum Monotonic {
    static var seconds: Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
