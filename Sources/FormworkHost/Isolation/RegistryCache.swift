import FormworkCore
import Glibc

/// The registry cache (GStreamer's registry): the scanner's results and quarantine records,
/// keyed by `FileKey`, in `$XDG_CACHE_HOME/formwork/registry-v1.bin` (default
/// `~/.cache/formwork/`). The file starts with a magic number, the format version, the
/// host's version and its ABI; anything else — a corrupt, truncated or foreign file — is
/// ignored and rebuilt. It is replaced atomically (write a temporary file, `fsync`,
/// `rename`), so a reader sees the old file or the new one; of two processes that scan at
/// once, the last rename wins and both files are whole.
public struct RegistryCache {
    static let magic: [UInt8] = Array("FWRC".utf8)
    /// 2: each record's encoding is preceded by its length, so that a record is decoded only when looked up.
    /// 3: keys carry the change time, and the file ends in a checksum (`CacheFile`).
    static let format: UInt32 = 5

    enum Record {
        case pack(Pack)
        case failure(PackError)
    }

    /// A file's record: decoded when first looked up (or made by a scan), else only where its encoding lies in
    /// the file's bytes. A cache holds every pack ever scanned with it (another `--pack-path`, the packs of a
    /// `list` run), and decoding all of their cell types and schemas on every run would make every command pay
    /// for packs it does not use.
    struct Entry {
        var key: FileKey
        var record: Record?
        /// Where the record's encoding lies in `bytes` (empty once `record` is set by `store`).
        var body: Range<Int>
    }

    let file: String
    private(set) var records: [String: Entry] = [:]
    /// The file's bytes, which the records not yet decoded point into.
    private var bytes: [UInt8] = []
    /// Real paths whose record matched or was written in this run.
    private var current: Set<String> = []
    private(set) var changed = false

    /// The cache file for `environment`, or nil when neither XDG_CACHE_HOME nor HOME is set.
    static func defaultFile(environment: [String: String]) -> String? {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].flatMap { $0.isEmpty ? nil : "\($0)/.cache" }
        return base.map { "\($0)/formwork/registry-v1.bin" }
    }

    /// Why the file was not used, when it exists but could not be (`CacheFile`): a warning for the registry.
    private(set) var refusal: String?

    /// Reads `file`; a missing or unusable file gives an empty cache.
    init(file: String) {
        self.file = file
        let read: [UInt8]?
        do throws(CacheFile.Refusal) { read = try CacheFile.read(file, limit: 256 << 20) } catch {
            refusal = error.description
            return
        }
        guard let bytes = read, let records = Self.decode(bytes) else { return }
        self.bytes = bytes
        self.records = records
    }

    static func header() -> [UInt8] {
        var w = WireWriter()
        w.raw(magic)
        w.u32(format)
        w.string(FormworkVersion.string)
        w.abi(.host)
        return w.bytes
    }

    /// The records of a cache file, each where its encoding lies (not decoded): nil unless the file is whole —
    /// this host's header, then as many records as it says, each within the file, and nothing after them.
    static func decode(_ bytes: [UInt8]) -> [String: Entry]? {
        let head = header()
        guard bytes.count >= head.count, Array(bytes[0..<head.count]) == head else { return nil }
        var r = WireReader(bytes, offset: head.count)
        do {
            let count = Int(try r.u32())
            // Every record takes more than one byte: a count larger than what is left is corrupt.
            guard count <= bytes.count - head.count else { return nil }
            var out: [String: Entry] = [:]
            out.reserveCapacity(count)
            for _ in 0..<count {
                let key = FileKey(
                    path: try r.string(), device: try r.u64(), inode: try r.u64(), size: try r.i64(), modifiedSeconds: try r.i64(),
                    modifiedNanoseconds: try r.i64(), changedSeconds: try r.i64(), changedNanoseconds: try r.i64())
                let length = Int(try r.u32())
                let at = r.offset
                try r.skip(length)
                out[key.path] = Entry(key: key, record: nil, body: at..<at + length)
            }
            guard r.atEnd else { return nil }
            return out
        } catch {
            return nil
        }
    }

    /// What a run that looks every pack up does to a cache file's bytes: `bytes` (what follows this host's header,
    /// without the checksum) read as the file, and every record in it decoded. The number decoded whole; nil when
    /// the file is not. For the fuzzer (`FORMWORK_FUZZ_TARGET=cache scripts/fuzz`): the checksum keeps damage out,
    /// not a forger, so what is behind it must never trap.
    package static func decodeAll(afterHeader bytes: [UInt8]) -> Int? {
        let file = header() + bytes
        guard let entries = decode(file) else { return nil }
        return entries.values.reduce(0) { $0 + (record(in: file, $1.body) == nil ? 0 : 1) }
    }

    /// The record encoded at `body` in `bytes`: nil when it does not decode whole (the file was damaged inside a
    /// record; the caller scans the pack again, and the next save replaces the record).
    static func record(in bytes: [UInt8], _ body: Range<Int>) -> Record? {
        var r = WireReader(bytes, range: body)
        do {
            let record: Record
            switch try r.u8() {
            case 1: record = .pack(try r.pack())
            case 2: record = .failure(try r.packError())
            default: return nil
            }
            return r.atEnd ? record : nil
        } catch {
            return nil
        }
    }

    func encode() -> [UInt8] {
        var w = WireWriter(capacity: 1 << 16)
        w.raw(Self.header())
        w.u32(UInt32(records.count))
        for path in records.keys.sorted() {
            let entry = records[path]!
            let key = entry.key
            w.string(key.path)
            w.u64(key.device)
            w.u64(key.inode)
            w.i64(key.size)
            w.i64(key.modifiedSeconds)
            w.i64(key.modifiedNanoseconds)
            w.i64(key.changedSeconds)
            w.i64(key.changedNanoseconds)
            let lengthAt = w.count
            w.u32(0)
            switch entry.record {
            case .pack(let pack)?:
                w.u8(1)
                w.pack(pack)
            case .failure(let error)?:
                w.u8(2)
                w.packError(error)
            case nil:
                // Never decoded in this run: its bytes as they were read.
                bytes.withUnsafeBufferPointer { w.raw(UnsafeBufferPointer(rebasing: $0[entry.body])) }
            }
            w.patch(lengthAt, UInt32(w.count - lengthAt - 4))
        }
        return w.bytes
    }

    /// The record for a file whose key is still `key` (the caller has just examined the file:
    /// `prune` then need not examine it again); decoded now if it was not yet. A record that does not decode
    /// is a miss.
    mutating func lookup(_ key: FileKey) -> Record? {
        guard var entry = records[key.path], entry.key == key else { return nil }
        if entry.record == nil {
            guard let record = Self.record(in: bytes, entry.body) else { return nil }
            entry.record = record
            records[key.path] = entry
        }
        current.insert(key.path)
        return entry.record
    }

    mutating func store(_ record: Record, for key: FileKey) {
        records[key.path] = Entry(key: key, record: record, body: 0..<0)
        current.insert(key.path)
        changed = true
    }

    /// Drops records of files that are gone or changed (they would never match again);
    /// the files looked up or stored in this run are known to be current. Called before a save: each other
    /// record's file is examined (a `stat`), which a run that changes nothing need not pay.
    mutating func prune() {
        for (path, entry) in records where !current.contains(path) && FileKey(realPath: path) != entry.key {
            records[path] = nil
            changed = true
        }
    }

    /// Writes the cache atomically (`AtomicFile`); failures are not errors (the cache is only an optimisation).
    func save() { AtomicFile.write(CacheFile.sealed(encode()), to: file) }
}

extension RegistryCache {
    /// The cache file for `environment` (`$XDG_CACHE_HOME/formwork/registry-v1.bin`, default
    /// `~/.cache/formwork/`), or nil when neither variable gives an absolute directory.
    public static func file(environment: [String: String]) -> String? { defaultFile(environment: environment) }
}
