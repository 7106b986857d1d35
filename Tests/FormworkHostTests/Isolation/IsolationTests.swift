import Foundation
import Glibc
import Testing
@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// The registry cache and the scanner, driven through the library with the built
/// `formwork` executable as the child.
@Suite("Isolation: scanner and registry cache")
struct RegistryCacheTests {
    let launcher = IsolationLauncher(executable: Build.formwork, timeout: 5, packLocations: [Build.directory, Scratch.directory])

    func locations(_ extra: [String]) -> [SearchLocation] {
        extra.map { SearchLocation(path: $0, origin: .option) } + [SearchLocation(path: Build.directory, origin: .executable)]
    }

    /// A fresh cache file in its own directory.
    func cacheFile(_ name: String) throws -> String {
        let directory = "\(Scratch.directory)/registry-cache-\(name)"
        try? FileManager.default.removeItem(atPath: directory)
        return "\(directory)/formwork/registry-v1.bin"
    }

    func scanned(_ extra: [String] = [], cache: String?, rescan: Bool = false) -> Registry {
        Registry(locations: locations(extra), scan: ScanOptions(launcher: launcher, cacheFile: cache, rescan: rescan))
    }

    /// Sets a file's modification time to now (a rebuilt pack).
    func touch(_ path: String) {
        // UTIME_NOW is a macro Swift does not import: ((1l << 30) - 1l).
        let now = (1 << 30) - 1
        var times = [timespec(tv_sec: 0, tv_nsec: now), timespec(tv_sec: 0, tv_nsec: now)]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test("descriptors read by the scanner are the ones read in process (the document schema of both is identical)")
    func scannerAgrees() throws {
        let v11 = try CCompiler.pack("scan-v11", source: Source.fixture("fixture_1_1.c"), include: Source.include)
        let inProcess = Registry(locations: locations([v11]))
        let child = scanned([v11], cache: nil)
        #expect(child.scanSummary == ScanSummary(cacheHits: 0, scanned: child.packs.count))
        #expect(child.packs.map(\.id) == inProcess.packs.map(\.id))
        #expect(DocumentSchema.generate(child).serialized() == DocumentSchema.generate(inProcess).serialized())
        for (a, b) in zip(child.cellTypes, inProcess.cellTypes) {
            #expect(a.configure == b.configure && a.modelOffsets == b.modelOffsets && a.roles == b.roles && a.textInput == b.textInput)
            #expect(a.capabilities == b.capabilities && a.packABI == b.packABI && a.summary == b.summary)
        }
    }

    @Test("a warm cache answers every pack without opening any: nothing is mapped into this process")
    func hit() throws {
        let pack = try CCompiler.pack("cache-hit", defines: ["FIXTURE_PACK_ID=\"com.example.cachehit\""])
        let cache = try cacheFile("hit")
        let cold = scanned([pack], cache: cache)
        #expect(
            cold.scanSummary?.scanned == cold.packs.count && cold.packs.contains { $0.path == pack },
            "\(cold.failures) \(cold.packs.map(\.path)) \(pack)")
        let warm = scanned([pack], cache: cache)
        #expect(warm.scanSummary == ScanSummary(cacheHits: cold.packs.count, scanned: 0))
        #expect(warm.cellTypes.map(\.id) == cold.cellTypes.map(\.id))
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(!maps.contains(pack), "the pack was loaded into the host")
    }

    @Test("a changed file is read again; the others still come from the cache")
    func miss() throws {
        let pack = try CCompiler.pack("cache-miss", defines: ["FIXTURE_PACK_ID=\"com.example.cachemiss\""])
        let cache = try cacheFile("miss")
        let cold = scanned([pack], cache: cache)
        usleep(10_000)
        touch(pack)
        let again = scanned([pack], cache: cache)
        #expect(again.scanSummary == ScanSummary(cacheHits: cold.packs.count - 1, scanned: 1))
    }

    @Test("a corrupt, truncated or foreign-version cache is ignored and rebuilt", arguments: ["garbage", "truncated", "foreign", "empty"])
    func corrupt(_ damage: String) throws {
        let cache = try cacheFile("corrupt-\(damage)")
        let cold = scanned([], cache: cache)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache)))
        switch damage {
        case "garbage": bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
        case "truncated": bytes = Array(bytes.prefix(bytes.count / 2))
        case "foreign":
            // The host version recorded in the header differs.
            if let at = bytes.firstIndex(of: UInt8(ascii: ".")) { bytes[at] = UInt8(ascii: "x") }
        default: bytes = []
        }
        try Data(bytes).write(to: URL(fileURLWithPath: cache))
        let rebuilt = scanned([], cache: cache)
        #expect(rebuilt.scanSummary == ScanSummary(cacheHits: 0, scanned: cold.packs.count))
        #expect(rebuilt.cellTypes.map(\.id) == cold.cellTypes.map(\.id))
        let warm = scanned([], cache: cache)
        #expect(warm.scanSummary == ScanSummary(cacheHits: cold.packs.count, scanned: 0))
    }

    @Test("eight processes scanning at once leave a whole cache behind")
    func concurrentWriters() throws {
        let cache = try cacheFile("concurrent")
        let home = (cache as NSString).deletingLastPathComponent
        let cacheHome = (home as NSString).deletingLastPathComponent
        let script = (0..<8).map { _ in "'\(Build.formwork)' list --rescan >/dev/null &" }.joined(separator: " ") + " wait"
        let result = try run(
            "/bin/bash", ["-c", script], environment: ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": cacheHome, "HOME": cacheHome])
        #expect(result.status == 0)
        let bytes = try #require(try CacheFile.read(cache, limit: 1 << 28), "no cache file")
        let entries = try #require(RegistryCache.decode(bytes), "the cache file is not whole")
        #expect(entries.values.allSatisfy { RegistryCache.record(in: bytes, $0.body) != nil }, "a record is not whole")
        // `list` also keeps its listing beside the cache (its own tests: formworkTests/ListingCacheTests).
        let listing = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: "\(home)/list-v1.bin"))) ?? Data())
        #expect(listing.starts(with: Array("FWLS".utf8)), "no listing beside the cache")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home).filter { $0 != "registry-v1.bin" && $0 != "list-v1.bin" }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    @Test("a quarantined pack is not read again until it changes, or until a rescan")
    func quarantine() throws {
        let pack = try CCompiler.pack(
            "cache-crash", source: Source.fixture("hostile_pack.c"),
            defines: ["HOSTILE_AT_ENTRY", "HOSTILE_CRASH", "HOSTILE_PACK_ID=\"com.hostile.cachecrash\""], include: Source.include)
        let cache = try cacheFile("quarantine")
        let first = scanned([pack], cache: cache)
        let record = try #require(first.quarantined.first { $0.path == pack })
        #expect(record.message.contains("crashed with SIGSEGV"))
        let second = scanned([pack], cache: cache)
        #expect(second.scanSummary?.scanned == 0)
        #expect(second.quarantined.first { $0.path == pack }?.message == record.message)
        usleep(10_000)
        touch(pack)
        let changed = scanned([pack], cache: cache)
        #expect(changed.scanSummary?.scanned == 1)
        let forced = scanned([pack], cache: cache, rescan: true)
        #expect(forced.scanSummary?.scanned == forced.packs.count + forced.failures.count)
    }

    @Test(
        "a scanner that ends before it is ready (it cannot start here) blames no pack: nothing is quarantined or cached",
        arguments: ["/bin/false", "/bin/true"])
    func scannerCannotStart(_ executable: String) throws {
        let pack = try CCompiler.pack("scanner-cannot-start", defines: ["FIXTURE_PACK_ID=\"com.example.cannotstart\""])
        let cache = try cacheFile("cannot-start-\(executable.count)")
        let broken = IsolationLauncher(executable: executable, timeout: 5, packLocations: [Build.directory, Scratch.directory])
        let first = Registry(locations: locations([pack]), scan: ScanOptions(launcher: broken, cacheFile: cache, rescan: false))
        #expect(first.quarantined.isEmpty, "\(first.quarantined)")
        let failure = try #require(first.failures.first { $0.path == pack })
        #expect(failure.message.contains("not read: the scanner could not run here (it "), "\(failure.message)")
        #expect(failure.message.contains("nothing is known to be wrong with the pack"))
        // Before, every pack was quarantined and kept so in the cache until it changed; now a working scanner reads it.
        let second = scanned([pack], cache: cache)
        #expect(second.failures.first { $0.path == pack } == nil, "\(second.failures)")
        #expect(second.packs.contains { $0.path == pack })
    }

    /// The cache file's bytes (its checksum checked and taken off) and its records, not decoded.
    func cacheEntries(_ cache: String) throws -> ([UInt8], [String: RegistryCache.Entry]) {
        let bytes = try #require(try CacheFile.read(cache, limit: 1 << 28), "no cache file")
        return (bytes, try #require(RegistryCache.decode(bytes), "the cache file is not whole"))
    }

    @Test("records of packs a run does not look up are neither decoded nor changed; a damaged one is scanned again")
    func recordsReadWhenLookedUp() throws {
        let a = try CCompiler.pack("cache-lazy-a", defines: ["FIXTURE_PACK_ID=\"com.example.lazya\""])
        let b = try CCompiler.pack("cache-lazy-b", defines: ["FIXTURE_PACK_ID=\"com.example.lazyb\""])
        let cache = try cacheFile("lazy")
        _ = scanned([a, b], cache: cache)
        let (bytes, entries) = try cacheEntries(cache)
        let bodyA = try #require(entries.first { $0.key.hasSuffix("cache-lazy-a.so") }?.value.body)
        // Damage A's record inside (its kind byte), not the file's framing, and seal it again: a record that is
        // wrong though the file's checksum holds (damage the checksum does not catch is read record by record).
        var damaged = bytes
        damaged[bodyA.lowerBound] = 9
        try Data(CacheFile.sealed(damaged)).write(to: URL(fileURLWithPath: cache))
        // A run without A: every record it looks up is a hit; A's is not read, and nothing is written.
        let withoutA = scanned([b], cache: cache)
        #expect(withoutA.scanSummary?.scanned == 0 && withoutA.packs.contains { $0.path == b })
        #expect(try cacheEntries(cache).0 == damaged)
        // B changes: the cache is written again, with A's record as it was read (damage and all).
        usleep(10_000)
        touch(b)
        #expect(scanned([b], cache: cache).scanSummary?.scanned == 1)
        let (rewritten, entriesAfter) = try cacheEntries(cache)
        let bodyAfter = try #require(entriesAfter.first { $0.key.hasSuffix("cache-lazy-a.so") }?.value.body)
        #expect(Array(rewritten[bodyAfter]) == Array(damaged[bodyA]))
        // A run with A finds its record damaged: A is scanned again (B still comes from the cache), and saved whole.
        let withA = scanned([a, b], cache: cache)
        #expect(withA.scanSummary?.scanned == 1 && withA.packs.contains { $0.path == a }, "\(String(describing: withA.scanSummary))")
        let (healed, healedEntries) = try cacheEntries(cache)
        #expect(healedEntries.values.allSatisfy { RegistryCache.record(in: healed, $0.body) != nil })
        #expect(scanned([a, b], cache: cache).scanSummary?.scanned == 0)
    }

    @Test("a cache file whose checksum fails, that is a FIFO or a link, or that others can write is refused with a warning and rebuilt")
    func untrustedCacheFiles() throws {
        let cache = try cacheFile("untrusted")
        let first = scanned([], cache: cache)
        #expect(first.warnings.isEmpty, "\(first.warnings)")
        let sealed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache)))
        // One byte changed: the checksum fails.
        var damaged = sealed
        damaged[damaged.count / 2] ^= 0x20
        try Data(damaged).write(to: URL(fileURLWithPath: cache))
        let second = scanned([], cache: cache)
        #expect(second.warnings.contains { $0.contains("its checksum does not match") }, "\(second.warnings)")
        #expect(second.cellTypes.map(\.id) == first.cellTypes.map(\.id))
        #expect(try cacheEntries(cache).1.count > 0)  // rebuilt whole
        // Group-writable.
        chmod(cache, 0o664)
        #expect(scanned([], cache: cache).warnings.contains { $0.contains("others can write it") })
        // A FIFO: refused at once, never waited on.
        try FileManager.default.removeItem(atPath: cache)
        #expect(mkfifo(cache, 0o600) == 0)
        let started = Date()
        let fifo = scanned([], cache: cache)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(fifo.warnings.contains { $0.contains("not a regular file") }, "\(fifo.warnings)")
        // A symbolic link.
        try FileManager.default.removeItem(atPath: cache)
        try FileManager.default.createSymbolicLink(atPath: cache, withDestinationPath: "/etc/hostname")
        #expect(scanned([], cache: cache).warnings.contains { $0.contains("symbolic link") })
    }

    @Test("a pack rewritten in place with its size and modification time put back is read again (the change time)")
    func rewrittenInPlace() throws {
        let pack = try CCompiler.pack("cache-ctime", defines: ["FIXTURE_PACK_ID=\"com.example.ctimea\""])
        let other = try CCompiler.pack("cache-ctime-b", defines: ["FIXTURE_PACK_ID=\"com.example.ctimeb\""])
        let cache = try cacheFile("ctime")
        _ = scanned([pack], cache: cache)
        var before = stat()
        stat(pack, &before)
        // Same size (both fixtures build to the same length or the test says so), then the old times put back.
        let replacement = try Data(contentsOf: URL(fileURLWithPath: other))
        try #require(replacement.count == Int(before.st_size), "the two fixtures differ in size")
        let fd = open(pack, O_WRONLY)
        _ = replacement.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        utimensat(AT_FDCWD, pack, &times, 0)
        let again = scanned([pack], cache: cache)
        #expect(again.scanSummary?.scanned == 1, "\(String(describing: again.scanSummary))")
        #expect(again.packs.contains { $0.id == "com.example.ctimeb" })
    }

    @Test("a cache file cut anywhere or with any byte changed is refused or read record by record, without trapping")
    func damagedCacheFiles() throws {
        let cache = try cacheFile("damaged-bytes")
        _ = scanned([], cache: cache)
        let (bytes, entries) = try cacheEntries(cache)
        #expect(!entries.isEmpty)
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
            // A file cut short is never whole: its records end before the count says they do.
            #expect(RegistryCache.decode(Array(bytes.prefix(cut))) == nil, "cut at \(cut)")
        }
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<400 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            var damaged = bytes
            damaged[Int(state >> 33) % bytes.count] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
            guard let read = RegistryCache.decode(damaged) else { continue }
            for entry in read.values { _ = RegistryCache.record(in: damaged, entry.body) }
        }
    }

    @Test("the wire decoder rejects truncated and random input without trapping")
    func wireRobustness() throws {
        let registry = firstPartyRegistry()
        var writer = WireWriter()
        for pack in registry.packs { writer.pack(pack) }
        let valid = writer.bytes
        var reader = WireReader(valid)
        for pack in registry.packs { #expect(try reader.pack().cellTypes.count == pack.cellTypes.count) }
        for cut in stride(from: 0, to: valid.count, by: max(1, valid.count / 500)) {
            var r = WireReader(Array(valid.prefix(cut)))
            _ = try? r.pack()
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            let bytes = (0..<64).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1
                return UInt8(truncatingIfNeeded: state >> 33)
            }
            var r = WireReader(bytes)
            _ = try? r.node()
            var p = WireReader(bytes)
            _ = try? p.pack()
            checkSkippedValues(bytes)
        }
        // A model cut anywhere: refused, or (cut after a whole value list) the same values either way.
        var model = WireWriter()
        let values: [Value?] = [
            nil, .string("a name longer than fifteen bytes"), .bool(true), .integer(-3), .number(2.5), .stringList(["x", "", "日本"]),
        ]
        model.array(values) { $0.value($1) }
        for cut in 0...model.bytes.count { checkSkippedValues(Array(model.bytes.prefix(cut))) }
    }

    /// `skipValues` over `bytes` never traps; when it accepts them, the values read in place are those
    /// `values(into:)` makes, and both stop at the same byte.
    func checkSkippedValues(_ bytes: [UInt8]) {
        var skipping = WireReader(bytes), reading = WireReader(bytes)
        var made: [Value?] = []
        guard let (start, count) = try? skipping.skipValues() else {
            #expect((try? reading.values(into: &made)) == nil, "\(bytes)")
            return
        }
        #expect((try? reading.values(into: &made)) != nil && reading.offset == skipping.offset, "\(bytes)")
        let decoded = bytes.withUnsafeBytes { WireValues(start: $0.baseAddress! + start, count: count).decoded() }
        #expect(decoded.count == made.count)
        for (a, b) in zip(decoded, made) {
            // NaN is not equal to itself: compared by bits.
            if case .number(let x)? = a, case .number(let y)? = b { #expect(x.bitPattern == y.bitPattern) } else { #expect(a == b) }
        }
    }

    @Test("a model read in place into a reused list is the model written, whether the list grows, shrinks or keeps its count")
    func valuesReadInPlace() throws {
        let models: [[Value?]] = [
            [.string("a title longer than fifteen bytes"), nil, .bool(true)],
            [.integer(7), .number(2.5), .stringList(["x", "y"]), .string("z"), nil],
            [nil, .string("short")],
            [.stringList([]), .bool(false)],
            [],
            [.integer(-1)],
        ]
        var writer = WireWriter()
        for model in models { writer.array(model) { $0.value($1) } }
        var reader = WireReader(writer.bytes)
        var list: [Value?] = [.string("left over"), .integer(1), .integer(2), .integer(3), .integer(4), .integer(5)]
        for model in models {
            try reader.values(into: &list)
            #expect(list == model)
        }
        #expect(reader.atEnd)
        // A count larger than what is left is refused, and the list is not grown past the bytes.
        var bad = WireWriter()
        bad.u32(1_000_000)
        var r = WireReader(bad.bytes)
        #expect(throws: WireError.self) { try r.values(into: &list) }
    }

    @Test("a string or list read over one with the same bytes is kept; any other value, kind or length replaces it")
    func repeatedStringsKept() throws {
        let models: [[Value?]] = [
            [.string("a title longer than fifteen bytes"), .stringList(["One", "Two", "Three"]), .string("USD")],
            [.string("a title longer than fifteen bytes"), .stringList(["One", "Two", "Three"]), .string("USD")],
            [.string("a title longer than fifteen bytez"), .stringList(["One", "Two", "Four"]), .string("EUR")],
            [.string("a title longer than fifteen"), .stringList(["One", "Two"]), .stringList(["EUR"])],
            [.string(""), .stringList([]), .string("EUR")],
            [.string(""), .stringList([]), .integer(3)],
            [.stringList(["a"]), .string("One"), nil],
            [.string("é 漢字"), .string("One"), .string("x")],
            [.string("é 漢字"), .string("One"), .string("x")],
        ]
        var writer = WireWriter()
        for model in models { writer.array(model) { $0.value($1) } }
        var reader = WireReader(writer.bytes)
        var list: [Value?] = []
        for model in models {
            try reader.values(into: &list)
            #expect(list == model)
        }
        #expect(reader.atEnd)
        // Kept means the same storage: the second read of a long title made no new string.
        var again = WireWriter()
        again.array([Value?.some(.string("a title longer than fifteen bytes"))]) { $0.value($1) }
        again.array([Value?.some(.string("a title longer than fifteen bytes"))]) { $0.value($1) }
        var r = WireReader(again.bytes)
        var kept: [Value?] = []
        try r.values(into: &kept)
        guard case .string(let first)? = kept[0] else { Issue.record("not a string"); return }
        try r.values(into: &kept)
        guard case .string(let second)? = kept[0] else { Issue.record("not a string"); return }
        let firstStorage = first.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        let secondStorage = second.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        #expect(firstStorage != nil && firstStorage == secondStorage)
        // A message cut inside a string that matches so far is refused, not read past its end.
        var cut = WireWriter()
        cut.array([Value?.some(.string("a title longer than fifteen bytes"))]) { $0.value($1) }
        var truncated = WireReader(Array(cut.bytes.dropLast(3)))
        #expect(throws: WireError.self) { try truncated.values(into: &kept) }
    }

    @Test("an optional string read over the last one is that one when its bytes are; nil and others replace it")
    func optionalStringReused() throws {
        let sequence: [String?] = [
            "value", "value", nil, "value", "values", "a field name longer than fifteen", "a field name longer than fifteen",
            "a field name longer than fifteeN", "", "", "é", "e\u{301}",
        ]
        var writer = WireWriter()
        for s in sequence { writer.optional(s) { $0.string($1) } }
        var reader = WireReader(writer.bytes)
        var last: String?
        var storages: [UnsafePointer<UInt8>?] = []
        for s in sequence {
            let read = try reader.optionalString(reusing: &last)
            #expect(read.map { Array($0.utf8) } == s.map { Array($0.utf8) })
            storages.append(read?.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil)
        }
        #expect(reader.atEnd)
        // The repeated long name is the same storage, not a second string.
        #expect(storages[5] != nil && storages[5] == storages[6])
        // Cut inside a string that matches so far: refused, not read past the end.
        var cut = WireWriter()
        cut.optional("a field name longer than fifteen") { $0.string($1) }
        var truncated = WireReader(Array(cut.bytes.dropLast(2)))
        var kept: String? = "a field name longer than fifteen"
        #expect(throws: WireError.self) { try truncated.optionalString(reusing: &kept) }
    }

    @Test("a reader over a range of a buffer reads that range only")
    func readerOverRange() throws {
        var writer = WireWriter()
        writer.u32(7)
        writer.string("inside")
        writer.u32(9)
        let bytes = [0xFF, 0xFF] + writer.bytes + [1, 2, 3, 4, 5, 6, 7, 8]
        var r = WireReader(bytes, range: 2..<(2 + writer.bytes.count))
        #expect(try r.u32() == 7)
        #expect(try r.string() == "inside")
        #expect(try r.u32() == 9)
        #expect(r.atEnd)
        #expect(throws: WireError.self) { try r.u8() }
    }

    @Test("a request, and each value, is encoded to the bytes its parts written one at a time make")
    func packedRequest() throws {
        let cell = try #require(firstPartyRegistry().cellTypes.first)
        let values: [Value?] = [
            nil, .string(""), .string("Ada ★ Lovelace, a name longer than fifteen bytes"), .bool(true), .bool(false),
            .integer(-42), .integer(.max), .number(2.5), .number(-.infinity), .stringList([]), .stringList(["a", "", "日本"]),
        ]
        var requests: [CellRequest] = []
        for k in 0..<values.count {
            let model = Array(values.rotated(by: k).prefix(k % 7))
            var request = CellRequest(
                cell: cell, fieldID: k % 3 == 0 ? "" : "field-\(k)", model: model,
                offers: k % 4 == 1 ? [.init(index: 1, value: values[k]), .init(index: 0, value: nil)] : [], render: k % 2 == 0,
                accessibilityId: k % 3 == 1 ? "other-\(k)" : (k % 3 == 0 ? "" : "field-\(k)"), valueField: k % 5 == 2 ? nil : "value")
            request.highlighted = k % 3 == 0 ? nil : k % 3 == 1
            request.selected = k % 4 == 0 ? nil : k % 4 == 1
            requests.append(request)
        }
        // Each value as the wire format has it, written with the writer's primitives.
        func value(_ v: Value?, _ w: inout WireWriter) {
            switch v {
            case nil: w.u8(0)
            case .string(let s)?:
                w.u8(1)
                w.string(s)
            case .bool(let b)?:
                w.u8(2)
                w.bool(b)
            case .integer(let n)?:
                w.u8(3)
                w.i64(n)
            case .number(let d)?:
                w.u8(4)
                w.f64(d)
            case .stringList(let items)?:
                w.u8(5)
                w.strings(items)
            }
        }
        for (k, request) in requests.enumerated() {
            var packed = WireWriter()
            withUnsafePointer(to: request) { IsolatedCells.encode($0, cell: UInt32(k), into: &packed) }
            var one = WireWriter()
            one.u32(UInt32(k))
            one.string(request.fieldID)
            one.array(request.model) { value($1, &$0) }
            one.array(request.offers) {
                $0.int($1.index)
                value($1.value, &$0)
            }
            one.bool(request.render)
            one.string(request.accessibilityId, orSame: request.fieldID)
            one.string(request.valueField)
            one.u8(request.highlighted.map { $0 ? 2 : 1 } ?? 0)
            one.u8(request.selected.map { $0 ? 2 : 1 } ?? 0)
            #expect(packed.bytes == one.bytes, "request \(k)")
        }
        // A form field's model (its cell type's defaults and what differs from them, walked in place) is encoded
        // to the bytes of the same values given as an array, for every first-party cell type.
        for (c, cell) in try firstPartyRegistry().cellTypes.enumerated() {
            for k in 0..<values.count {
                var model = FieldModel(defaultsOf: cell)
                for i in 0..<cell.fields.count where (i + k + c) % 3 != 0 { model[i] = values[(i * 7 + k) % values.count] }
                let fromField = CellRequest(cell: cell, fieldID: "f\(k)", model: model, accessibilityId: "f\(k)", valueField: nil)
                let fromArray = CellRequest(cell: cell, fieldID: "f\(k)", model: model.values, accessibilityId: "f\(k)", valueField: nil)
                #expect(fromField.model == fromArray.model && fromField.model.count == cell.fields.count)
                var a = WireWriter(), b = WireWriter()
                withUnsafePointer(to: fromField) { IsolatedCells.encode($0, cell: 3, into: &a) }
                withUnsafePointer(to: fromArray) { IsolatedCells.encode($0, cell: 3, into: &b) }
                #expect(a.bytes == b.bytes, "\(cell.id), model \(k)")
            }
        }
        for v in values {
            var packed = WireWriter(), one = WireWriter()
            packed.value(v)
            value(v, &one)
            #expect(packed.bytes == one.bytes, "\(String(describing: v))")
            var r = WireReader(packed.bytes)
            #expect(try r.value() == v && r.atEnd)
        }
    }

    @Test("a string equal to the one before is sent as a marker and read back as that string")
    func stringOrSame() throws {
        var writer = WireWriter()
        writer.string("f1")
        writer.string("f1", orSame: "f1")
        writer.string("name-field", orSame: "f1")
        writer.string("", orSame: "f1")
        // The marker is the length alone: four bytes, against six for the string "f1".
        #expect(writer.bytes.count == 6 + 4 + 14 + 4)
        var r = WireReader(writer.bytes)
        let id = try r.string()
        #expect(try r.string(orSame: id) == "f1")
        #expect(try r.string(orSame: id) == "name-field")
        #expect(try r.string(orSame: id) == "")
        #expect(r.atEnd)
        // A plain `string()` does not take the marker for a length.
        var plain = WireReader(writer.bytes, offset: 6)
        #expect(throws: WireError.self) { try plain.string() }
    }
}

@Suite("Isolation: cells in a child process")
struct IsolatedCellsTests {
    let launcher = IsolationLauncher(executable: Build.formwork, timeout: 10, packLocations: [Build.directory, Scratch.directory])

    @Test(
        "every example form renders the same view tree in process, in a shared child and in a child per pack",
        arguments: ["shared", "per-pack"])
    func sameTrees(_ mode: String) throws {
        let registry = firstPartyRegistry()
        let forms = try FileManager.default.contentsOfDirectory(atPath: "\(Source.root)/Examples/Forms").sorted()
        let isolated = IsolatedCells(launcher: launcher, mode: IsolationMode(rawValue: mode)!)
        for name in forms {
            let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/\(name)", registry: registry)
            let expected = try FormRuntime(registry: registry).render(form)
            let actual = try FormRuntime(driver: isolated).render(form)
            #expect(actual == expected, "\(name)")
        }
        isolated.finish()
        #expect(isolated.shutdownFailures.isEmpty)
        #expect(isolated.childrenStarted == (mode == "shared" ? 1 : 2))
    }

    /// The login example and its view tree rendered in process.
    func loginForm() throws -> (form: Form, expected: ViewTree) {
        let registry = firstPartyRegistry()
        let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/login.yaml", registry: registry)
        return (form, try FormRuntime(registry: registry).render(form))
    }

    @Test("a cell host's clean end destroys every instance and calls each pack's deinit before it exits")
    func cleanEndCallsDestroyAndDeinit() throws {
        let log = "\(Scratch.directory)/end-log-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
        let path = try CCompiler.pack(
            "end-log-\(UInt32.random(in: 0...UInt32.max))", defines: ["FIXTURE_LIFECYCLE", "FIXTURE_END_LOG=\"\(log)\""])
        let registry = firstPartyRegistry(plus: [path])
        let form = try twoCounterForm(registry)
        // The fixture records its calls in a file, which the whole sandbox forbids (Landlock, and the file-size
        // limit): the seccomp filter only.
        var launcher = self.launcher
        launcher.sandboxLayers = ChildSandbox.seccompOnly
        let isolated = IsolatedCells(launcher: launcher)
        _ = try FormRuntime(driver: isolated).render(form)
        #expect(!FileManager.default.fileExists(atPath: log))  // nothing destroyed while the child serves
        isolated.finish()
        #expect(isolated.shutdownFailures.isEmpty)
        // One pooled instance, destroyed, then the pack's deinit: both before the child marked its end.
        #expect((try? String(contentsOfFile: log, encoding: .utf8)) == "destroy\ndeinit\n")
    }

    @Test("children asked to end early end cleanly; a later batch starts a new child and renders the same")
    func requestEndThenPerform() throws {
        let (form, expected) = try loginForm()
        let isolated = IsolatedCells(launcher: launcher)
        #expect(try FormRuntime(driver: isolated).render(form) == expected)
        isolated.requestEnd()
        #expect(try FormRuntime(driver: isolated).render(form) == expected)
        #expect(isolated.childrenStarted == 2)
        isolated.finish()
        #expect(isolated.shutdownFailures.isEmpty)
        isolated.finish()  // nothing left to end
        #expect(isolated.shutdownFailures.isEmpty)
    }

    @Test("packs loaded ahead of time: each is sent once, and the form renders as without")
    func preload() throws {
        let (form, expected) = try loginForm()
        let isolated = IsolatedCells(launcher: launcher)
        isolated.start()
        let packs = Set(form.sections.flatMap { $0.fields.map(\.cell.packPath) })
        for path in packs.sorted() + packs.sorted() { isolated.preload(packPath: path) }
        #expect(isolated.preloadsSent == packs.count)
        #expect(try FormRuntime(driver: isolated).render(form) == expected)
        #expect(isolated.childrenStarted == 1)
        isolated.finish()
        #expect(isolated.shutdownFailures.isEmpty)
    }

    @Test(
        "a pack that crashes or exits while loaded ahead of time costs a restart of the cell host and blames no request",
        arguments: ["HOSTILE_CRASH", "HOSTILE_EXIT"])
    func preloadCrash(_ how: String) throws {
        let pack = try CCompiler.pack(
            "preload-\(how)", source: Source.fixture("hostile_pack.c"),
            defines: ["HOSTILE_AT_CONSTRUCTOR", how, "HOSTILE_PACK_ID=\"com.hostile.preload\""], include: Source.include)
        let (form, expected) = try loginForm()
        let isolated = IsolatedCells(launcher: launcher)
        isolated.start()
        isolated.preload(packPath: pack)
        usleep(50_000)  // the child has loaded it (and died) before the batch
        let runtime = FormRuntime(driver: isolated)
        #expect(try runtime.render(form) == expected)
        #expect(runtime.failures.isEmpty)
        #expect(isolated.childrenStarted == 2)
        isolated.finish()
        #expect(isolated.shutdownFailures.isEmpty)
    }

    /// A form of `count` toggles, with a hostile field (`id` "h") at `hostileAt` when given.
    func toggles(_ count: Int, hostileAt: Int? = nil, registry: Registry) throws -> Form {
        var fields: [String] = []
        for n in 0..<count {
            if n == hostileAt { fields.append(#"{"id":"h","cell":"com.hostile.split","model":{"title":"Boom","value":"x"}}"#) }
            fields.append(#"{"id":"f\#(n)","cell":"org.formwork.toggle","model":{"title":"Option \#(n)","value":\#(n % 3 == 0)}}"#)
        }
        let json = #"{"formwork":1,"id":"many","sections":[{"id":"s","fields":[\#(fields.joined(separator: ","))]}]}"#
        return try FormDecoder.decode(text: json, json: true, registry: registry)
    }

    @Test("a render of 16,384 fields or more is shared by two cell hosts, a smaller one done by one; both as in process")
    func secondChild() throws {
        let registry = firstPartyRegistry()
        for (count, children) in [(10_000, 1), (IsolatedCells.secondChildMinimum + 100, 2)] {
            let form = try toggles(count, registry: registry)
            let isolated = IsolatedCells(launcher: launcher)
            #expect(try FormRuntime(driver: isolated).render(form) == FormRuntime(registry: registry).render(form), "\(count)")
            #expect(isolated.childrenStarted == children, "\(count)")
            isolated.finish()
            #expect(isolated.shutdownFailures.isEmpty)
        }
    }

    @Test("a cell that crashes in the second cell host's half fails its own field only; the rest is as in process")
    func crashInSecondChild() throws {
        let pack = try CCompiler.pack(
            "split-crash", source: Source.fixture("hostile_pack.c"),
            defines: [
                "HOSTILE_AT_CONFIGURE", "HOSTILE_CRASH", "HOSTILE_PACK_ID=\"com.hostile.split\"", "HOSTILE_CELL_ID=\"com.hostile.split\"",
            ],
            include: Source.include)
        let registry = firstPartyRegistry(plus: [pack])
        let count = IsolatedCells.secondChildMinimum + 100
        // Late in its batch: in the half the second cell host answers.
        let form = try toggles(count, hostileAt: count - 1000, registry: registry)
        let isolated = IsolatedCells(launcher: launcher)
        let runtime = FormRuntime(driver: isolated)
        let tree = try runtime.render(form, keepGoing: true)
        #expect(runtime.failures.count == 1)
        #expect(runtime.failures.first?.fieldID == "h")
        #expect(runtime.failures.first?.message.contains("SIGSEGV") == true, "\(runtime.failures)")
        // The crashing request is tried once more alone (a third child), and the first cell host answers what the
        // second left: no other child is started.
        #expect(isolated.childrenStarted == 3)
        let expected = try FormRuntime(registry: firstPartyRegistry()).render(try toggles(count, registry: firstPartyRegistry()))
        #expect(tree.sections[0].fields.filter { $0.id != "h" } == expected.sections[0].fields)
        isolated.finish()
    }

    @Test(
        "a cell type that crashes in every field costs a few children, not one per field; every other field renders",
        arguments: [
            ("HOSTILE_AT_INIT", "the pack is not loaded again"), ("HOSTILE_AT_CREATE", "it is not called again"),
            ("HOSTILE_AT_CONFIGURE", "it is not called again"),
        ])
    func crashingEveryField(_ point: String, _ said: String) throws {
        let id = "com.hostile.every-\(point.dropFirst(11).lowercased())"
        let pack = try CCompiler.pack(
            "every-\(point)", source: Source.fixture("hostile_pack.c"),
            defines: [point, "HOSTILE_CRASH", "HOSTILE_PACK_ID=\"\(id)\"", "HOSTILE_CELL_ID=\"\(id)\""], include: Source.include)
        let registry = firstPartyRegistry(plus: [pack])
        // 200 crashing fields among 400 toggles: before, each crashing field cost a child of its own (2,000 took a minute).
        var fields: [String] = []
        for n in 0..<600 {
            fields.append(
                n % 3 == 1
                    ? #"{"id":"h\#(n)","cell":"\#(id)","model":{"title":"Boom","value":"x"}}"#
                    : #"{"id":"f\#(n)","cell":"org.formwork.toggle","model":{"title":"Option \#(n)","value":true}}"#)
        }
        let json = #"{"formwork":1,"id":"many","sections":[{"id":"s","fields":[\#(fields.joined(separator: ","))]}]}"#
        let form = try FormDecoder.decode(text: json, json: true, registry: registry)
        let isolated = IsolatedCells(launcher: launcher)
        let runtime = FormRuntime(driver: isolated)
        let tree = try runtime.render(form, keepGoing: true)
        #expect(runtime.failures.count == 200)
        #expect(runtime.failures.allSatisfy { $0.fieldID?.hasPrefix("h") == true && $0.message.contains("SIGSEGV") })
        #expect(runtime.failures.last?.message.contains(said) == true, "\(runtime.failures.last!)")
        #expect(isolated.childrenStarted <= 2 + 2 * IsolatedCells.crashLimit, "\(isolated.childrenStarted) children")
        let good = fields.filter { $0.contains("org.formwork.toggle") }.joined(separator: ",")
        let inProcess = try FormRuntime(registry: registry).render(
            try FormDecoder.decode(
                text: #"{"formwork":1,"id":"many","sections":[{"id":"s","fields":[\#(good)]}]}"#, json: true, registry: registry))
        #expect(tree.sections[0].fields.filter { $0.id.hasPrefix("f") } == inProcess.sections[0].fields)
        isolated.finish()
    }

    @Test(
        "a cell host that ends before it is ready (it cannot start here) fails every field with why, once: no child per field",
        arguments: ["/bin/false", "/bin/true"])
    func cannotStart(_ executable: String) throws {
        let registry = firstPartyRegistry()
        let form = try toggles(300, registry: registry)
        let isolated = IsolatedCells(launcher: IsolationLauncher(executable: executable, timeout: 5, packLocations: [Build.directory]))
        let runtime = FormRuntime(driver: isolated)
        _ = try runtime.render(form, keepGoing: true)
        #expect(runtime.failures.count == 300)
        #expect(
            runtime.failures.allSatisfy { $0.message.contains("could not be started") && $0.message.contains("before it was ready") },
            "\(runtime.failures.first!)")
        // Before, each failure was taken for a pack's and the batch halved until every field had had a child of its own.
        #expect(isolated.childrenStarted == 1)
        // A later batch does not try again.
        _ = try runtime.render(form, keepGoing: true)
        #expect(isolated.childrenStarted == 1)
        isolated.finish()
    }

    @Test("values offered through value_changed come back with the cell's rejections")
    func rejections() throws {
        let registry = firstPartyRegistry()
        var form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/login.yaml", registry: registry)
        let values = try Scratch.file("isolated-values.json", contents: #"{"username": "ab"}"#)
        try ValuesFile.apply(path: values, to: &form, requireComplete: false)
        let inProcess = FormRuntime(registry: registry)
        let expected = try inProcess.render(form)
        let isolated = FormRuntime(driver: IsolatedCells(launcher: launcher))
        #expect(try isolated.render(form) == expected)
        #expect(isolated.rejections == inProcess.rejections)
    }
}

extension Array {
    /// The elements from `k` on, then those before it.
    func rotated(by k: Int) -> [Element] { Array(self[k...] + self[..<k]) }
}
