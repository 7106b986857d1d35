import FormworkCore
import FormworkHost
import Glibc

/// What `formwork list` printed, kept under the fingerprint of what it listed
/// (`Registry.Fingerprint`: the search locations, every pack's path and file key, discovery's
/// problems): when nothing changed, the listing is printed again without decoding the registry
/// cache or formatting it anew — what shell completions and scripts that run `list` in a loop
/// need. The last `capacity` listings (per output form and fingerprint), in
/// `$XDG_CACHE_HOME/formwork/list-v1.bin` beside the registry cache: a header (magic, format,
/// the Formwork version, the executable's file identity), then for each entry its form, the fingerprint and the bytes printed.
/// Replaced atomically (not `fsync`'d); an unreadable, truncated or foreign file is ignored and replaced.
/// `--rescan` does not read it and replaces its entry (quarantined packs may list differently
/// now); `--no-cache` and `--isolation in-process` neither read nor write it.
struct ListingCache {
    static let magic: [UInt8] = Array("FWLS".utf8)
    /// 2: sealed with a checksum (`CacheFile`), fingerprints with change times.
    static let format: UInt32 = 2
    static let capacity = 8

    let file: String
    private var entries: [(json: Bool, fingerprint: [UInt8], output: [UInt8])] = []

    /// The listing cache beside the registry cache of `environment`, or nil when there is none.
    init?(environment: [String: String]) {
        guard let registry = RegistryCache.file(environment: environment), let slash = registry.lastIndex(of: "/") else { return nil }
        file = String(registry[..<slash]) + "/list-v1.bin"
        do throws(CacheFile.Refusal) {
            entries = try CacheFile.read(file, limit: 64 << 20).flatMap(Self.decode) ?? []
        } catch {
            Console.warning(error.description)
        }
    }

    /// What was printed for `fingerprint` in this form, if it is still the listing.
    func output(json: Bool, fingerprint: Registry.Fingerprint) -> String? {
        guard let entry = entries.first(where: { $0.json == json && $0.fingerprint == fingerprint.bytes }),
            let text = String(validating: entry.output, as: UTF8.self)
        else { return nil }
        // Data, made safe when printed: whatever the file holds reaches the terminal without an escape sequence.
        return TerminalText.safe(text, keepLayout: true)
    }

    /// Keeps `output` as the listing of `fingerprint` in this form (the oldest of `capacity`
    /// entries gives way), and writes the file.
    mutating func store(_ output: String, json: Bool, fingerprint: Registry.Fingerprint) {
        entries.removeAll { $0.json == json && $0.fingerprint == fingerprint.bytes }
        entries.append((json, fingerprint.bytes, Array(output.utf8)))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        // Not fsync'd: after a crash a damaged file is ignored and rebuilt (the registry cache is durable).
        AtomicFile.write(CacheFile.sealed(encode()), to: file, durable: false)
    }

    static func header() -> [UInt8] {
        var bytes = magic
        append(format, to: &bytes)
        append(Array(FormworkVersion.string.utf8), to: &bytes)
        // The listing is this executable's formatting: another build (same version, new code) lists afresh.
        var info = stat()
        if stat("/proc/self/exe", &info) == 0 {
            for word in [UInt64(info.st_dev), UInt64(info.st_ino), UInt64(bitPattern: Int64(info.st_size))]
                + [info.st_mtim, info.st_ctim].flatMap({ [UInt64(bitPattern: Int64($0.tv_sec)), UInt64(bitPattern: Int64($0.tv_nsec))] })
            {
                for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * k))) }
            }
        }
        return bytes
    }

    func encode() -> [UInt8] {
        var bytes = Self.header()
        Self.append(UInt32(entries.count), to: &bytes)
        for entry in entries {
            bytes.append(entry.json ? 1 : 0)
            Self.append(entry.fingerprint, to: &bytes)
            Self.append(entry.output, to: &bytes)
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> [(json: Bool, fingerprint: [UInt8], output: [UInt8])]? {
        let head = header()
        guard bytes.count >= head.count, bytes[..<head.count].elementsEqual(head) else { return nil }
        var offset = head.count
        func u32() -> UInt32? {
            guard bytes.count - offset >= 4 else { return nil }
            defer { offset += 4 }
            return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        }
        func chunk() -> [UInt8]? {
            guard let count = u32().map(Int.init), bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }
        guard let count = u32(), count <= capacity else { return nil }
        var out: [(json: Bool, fingerprint: [UInt8], output: [UInt8])] = []
        for _ in 0..<count {
            guard offset < bytes.count, bytes[offset] <= 1 else { return nil }
            let json = bytes[offset] == 1
            offset += 1
            guard let fingerprint = chunk(), let output = chunk() else { return nil }
            out.append((json, fingerprint, output))
        }
        return offset == bytes.count ? out : nil
    }

    /// A little-endian length, then the bytes.
    static func append(_ chunk: [UInt8], to bytes: inout [UInt8]) {
        append(UInt32(chunk.count), to: &bytes)
        bytes += chunk
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
