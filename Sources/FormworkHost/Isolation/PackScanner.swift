import CFormworkSystem
import FormworkCore
import Glibc
import Synchronization

/// Reads pack descriptors in a child process (GStreamer's plugin scanner): library
/// constructors and entries run there, not in the host. When the child dies or hangs on
/// a pack, that pack is quarantined with the reason and the rest are read by a fresh child.
/// Which pack it died on is what the child marked in its progress page, which pack code can
/// write too: a pack named among others is read again alone before it is quarantined.
enum PackScanner {
    enum Frame: UInt8 {
        case paths = 1, pack = 2, failure = 3, done = 4
        /// A result of a shared scan: the pack's index in the paths frame (u32), then the record.
        case indexedPack = 5, indexedFailure = 6
    }

    /// In the host while it forks the children of a shared scan, and in those children: a page shared by
    /// them whose first word hands out the next pack to read (`fwsys_take_next`), so that a child that is
    /// done with its packs takes more instead of waiting for the slowest (one that opens the first Swift
    /// pack loads the Swift runtime, and a pack that links Foundation more). Nil everywhere else. A global
    /// because the scanner child is started by `ChildMode.run`, which takes no arguments; set before it reads.
    nonisolated(unsafe) static var sharedQueue: UnsafeMutablePointer<UInt64>?

    /// A pack file to read: its path, and its real path when discovery found it a regular file (the scanner
    /// then neither resolves nor examines it again; an empty `realPath` leaves both to the scanner).
    struct Item {
        var path: String
        var realPath: String = ""
        /// The file's size in bytes when known (0 otherwise): a shared scan hands out the largest first.
        var size: Int64 = 0
    }

    /// The result for each of `paths`, in order. Many packs are read by several scanners at once (one
    /// per core, each a child of its own with its share of the paths, in order); a few by one.
    static func scan(_ paths: [Item], launcher: IsolationLauncher) -> [Result<LoadedPackInfo, PackError>] {
        let shards = min(Parallel.threads, paths.count / 16)
        guard shards > 1 else { return scanInOneChild(paths, launcher: launcher) }
        let size = (paths.count + shards - 1) / shards
        // Every share's first child is started here, before the threads that drive them: while this process
        // runs one thread its children can be copies of it (no executable started again, `ChildChannel.start`),
        // and copies share the queue page mapped before they are made.
        let page = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
        let queue = page == MAP_FAILED ? nil : page?.bindMemory(to: UInt64.self, capacity: 1)
        defer { if let queue { munmap(queue, 4096) } }
        queue?.pointee = 0
        sharedQueue = queue
        let first = (0..<shards).map { _ in Result { () throws(ChildFailure) in try ChildChannel.start(launcher, mode: "scan") } }
        sharedQueue = nil
        let children = first.compactMap { try? $0.get() }
        if queue != nil, children.count == shards, children.allSatisfy(\.forked) {
            return scanShared(paths, children: children, launcher: launcher)
        }
        // Children started afresh (or not at all): a share of the paths each, in order.
        return Parallel.map(shards, worthIt: true) { k in
            scanInOneChild(
                Array(paths[min(paths.count, k * size)..<min(paths.count, (k + 1) * size)]), launcher: launcher, first: first[k])
        }.flatMap { $0 }
    }

    /// `scan` by forked children that take the packs one at a time from the shared queue (every child is sent
    /// every path). A child that dies or hangs has the pack it marked quarantined; what it took but had not
    /// sent is read afterwards, with whatever else is left, by `scanInOneChild`.
    private static func scanShared(
        _ paths: [Item], children: [ChildChannel], launcher: IsolationLauncher
    ) -> [Result<LoadedPackInfo, PackError>] {
        // The largest files first (a Swift pack loads the Swift runtime, one that links Foundation more): the
        // children then end together, not one of them on a large pack taken last while the other waits.
        let order = paths.indices.sorted { paths[$0].size != paths[$1].size ? paths[$0].size > paths[$1].size : $0 < $1 }
        var writer = WireWriter()
        writer.strings(order.map { paths[$0].path })
        writer.strings(order.map { paths[$0].realPath })
        writer.u8(1)  // take the packs from the shared queue
        let frame = writer
        let suspects = Mutex<[Int]>([])
        let parts = Parallel.map(children.count, worthIt: true) { k -> [(Int, Result<LoadedPackInfo, PackError>)] in
            let child = children[k]
            var out: [(Int, Result<LoadedPackInfo, PackError>)] = []
            do {
                try child.send(kind: Frame.paths.rawValue, frame)
                while true {
                    let (kind, payload) = try child.receive(timeout: launcher.timeout)
                    var reader = payload
                    let frameKind = Frame(rawValue: kind)
                    if frameKind == .done { break }
                    guard let taken = try? Int(reader.u32()), taken < paths.count else { throw ChildFailure.malformed("pack index") }
                    let index = order[taken]
                    switch frameKind {
                    case .indexedPack?:
                        guard let pack = try? reader.pack() else { throw ChildFailure.malformed("pack record") }
                        out.append((index, .success(LoadedPackInfo(pack: pack))))
                    case .indexedFailure?:
                        guard let error = try? reader.packError() else { throw ChildFailure.malformed("error record") }
                        out.append((index, .failure(error)))
                    default:
                        throw ChildFailure.malformed("frame kind \(kind)")
                    }
                }
                child.release()
            } catch {
                // Gone before it was ready: no pack was read; what it left is read by `scanInOneChild`, which says
                // so when its child cannot start either.
                if !child.ready { return out }
                // The child marks the pack it takes (its index plus one; 0 before the first) before reading it. The
                // mark is only a suspicion: the page is the child's, and a pack can name another before it crashes.
                let marked = Int(clamping: child.progressMark.tag)
                if marked > 0, marked <= paths.count, case let suspect = order[marked - 1], !out.contains(where: { $0.0 == suspect }) {
                    suspects.withLock { $0.append(suspect) }
                }
            }
            return out
        }
        var results: [Result<LoadedPackInfo, PackError>?] = Array(repeating: nil, count: paths.count)
        for part in parts { for (index, result) in part where results[index] == nil { results[index] = result } }
        // Each suspect is read alone: quarantined if it fails by itself, listed if it does not (then the pack that
        // named it is still among those left, and is found by `scanInOneChild`).
        for suspect in suspects.withLock({ $0 }) where results[suspect] == nil {
            results[suspect] = scanInOneChild([paths[suspect]], launcher: launcher)[0]
        }
        let left = results.indices.filter { results[$0] == nil }
        if !left.isEmpty {
            for (index, result) in zip(left, scanInOneChild(left.map { paths[$0] }, launcher: launcher)) { results[index] = result }
        }
        return results.map { $0! }
    }

    /// `scan` in one child at a time: a fresh child after each crash or hang. `first` is the first child, when
    /// the caller started it.
    static func scanInOneChild(
        _ paths: [Item], launcher: IsolationLauncher, first: Result<ChildChannel, ChildFailure>? = nil
    ) -> [Result<LoadedPackInfo, PackError>] {
        var results: [Result<LoadedPackInfo, PackError>?] = Array(repeating: nil, count: paths.count)
        // The packs still without a result, in order: after a crash, those the child read but had not sent yet
        // are read again by the next child (it sends its results in chunks), the culprit is not.
        var pending = Array(paths.indices)
        var first = first
        // Once a child has named an innocent pack as the one it died on, the packs left are read one per child:
        // no mark is needed to find the culprit then.
        var onePerChild = false
        while !pending.isEmpty {
            let batch = onePerChild ? [pending[0]] : pending
            let child: ChildChannel
            do throws(ChildFailure) {
                if let started = first {
                    first = nil
                    child = try started.get()
                } else {
                    child = try ChildChannel.start(launcher, mode: "scan")
                }
            } catch {
                for i in pending { results[i] = .failure(PackError(path: paths[i].path, reason: .notScanned("\(error)"))) }
                break
            }
            var writer = WireWriter()
            // The paths, then their real paths (a child that predates them reads the first list only).
            writer.strings(batch.map { paths[$0].path })
            writer.strings(batch.map { paths[$0].realPath })
            var received = 0
            do {
                try child.send(kind: Frame.paths.rawValue, writer)
                while received < batch.count {
                    let (kind, payload) = try child.receive(timeout: launcher.timeout)
                    var reader = payload
                    switch Frame(rawValue: kind) {
                    case .pack?:
                        guard let pack = try? reader.pack() else { throw ChildFailure.malformed("pack record") }
                        results[batch[received]] = .success(LoadedPackInfo(pack: pack))
                    case .failure?:
                        guard let error = try? reader.packError() else { throw ChildFailure.malformed("error record") }
                        results[batch[received]] = .failure(error)
                    default:
                        throw ChildFailure.malformed("frame kind \(kind)")
                    }
                    received += 1
                }
                child.release()
            } catch {
                if !child.ready {
                    // Gone before it was ready, so before it read any pack: none is to blame (or quarantined, which
                    // the cache would keep), and another child would end the same way.
                    var why = "\(error)"
                    if let line = child.lastOutputLine { why += "; its last output: \"\(line)\"" }
                    for i in pending where results[i] == nil {
                        results[i] = .failure(PackError(path: paths[i].path, reason: .notScanned(why)))
                    }
                    break
                }
                // The pack being read when the child died or hung is the one it last marked in the progress page
                // (it marks each pack before reading it); never one whose result already arrived.
                let marked = Int(clamping: child.progressMark.tag)
                let culprit = batch[min(max(marked, received), batch.count - 1)]
                if batch.count - received > 1 {
                    // The page is the child's: a pack can write another's index there before it crashes. The named
                    // pack is quarantined only if it fails alone too; if it does not, the child lied.
                    let alone = scanInOneChild([paths[culprit]], launcher: launcher)[0]
                    results[culprit] = alone
                    if case .failure(let e) = alone, case .quarantined = e.reason {} else { onePerChild = true }
                } else {
                    var reason = "\(error)"
                    if let line = child.lastOutputLine { reason += "; its last output: \"\(line)\"" }
                    results[culprit] = .failure(PackError(path: paths[culprit].path, reason: .quarantined(reason)))
                }
            }
            pending = pending.filter { results[$0] == nil }
        }
        return results.enumerated().map { i, r in
            r ?? .failure(PackError(path: paths[i].path, reason: .quarantined("the scanner gave no result")))
        }
    }

    /// The scanner child: reads the paths, loads each pack, writes its descriptors or its error.
    static func childMain() -> Int32 {
        let endpoint = ChildEndpoint()
        dup2(1, 2)  // what packs print (stdout or stderr) is kept for the report, never shown
        _ = fwsys_die_with_parent()
        ChildSandbox.enter()
        // In the sandbox, nothing read yet: no pack code has run (`ChildChannel.ready`).
        _ = endpoint.send(kind: ChildChannel.readyKind, WireWriter(capacity: 0))
        guard let (kind, payload) = endpoint.receive(), kind == Frame.paths.rawValue else { return 2 }
        var reader = WireReader(payload)
        guard let paths = try? reader.strings() else { return 2 }
        // Real paths came later: a host that sends none leaves them to the loader.
        let realPaths = (try? reader.strings()).flatMap { $0.count == paths.count ? $0 : nil }
        // A forked child of a shared scan takes its packs from the queue, the others read them all in order.
        if (try? reader.u8()) == 1, let queue = sharedQueue {
            return PackOutput.redirect { () -> Int32 in
                readShared(paths, realPaths: realPaths, queue: queue, endpoint: endpoint)
            }
        }
        // Standard output is already the report's pipe here; redirected once for the whole share (the
        // loader's own redirect then nests for free instead of four system calls per pack).
        // Results go out in chunks of about 64 KB, not a write (and a wake-up of the host) per pack; the host
        // finds the pack a crash or hang happened on through the progress page, not through what arrived.
        return PackOutput.redirect { () -> Int32 in
            var out = WireWriter(capacity: 1 << 16)
            for (i, path) in paths.enumerated() {
                endpoint.mark(UInt64(i))
                appendResult(path: path, realPath: realPaths.map { $0[i] } ?? "", index: nil, to: &out)
                if out.count >= 1 << 16 || i == paths.count - 1 {
                    guard endpoint.sendRaw(out) else { return 3 }
                    out.removeAll()
                }
            }
            return 0
        }
    }

    /// Reads the pack at `path` and appends its result to `out` as one frame: `pack` or `failure`, or with an
    /// `index` (a shared scan) `indexedPack` or `indexedFailure`, which carry it before the record.
    private static func appendResult(path: String, realPath: String, index: Int?, to out: inout WireWriter) {
        let start = out.count
        out.u8(0)
        out.u32(0)
        if let index { out.u32(UInt32(index)) }
        let kind: Frame
        do throws(PackError) {
            let loaded = try PackLoader.load(path: path, realPath: realPath)
            out.pack(loaded.pack)
            // The scanner exits once its packs are read: their descriptors are not freed one object at a time.
            KeptUntilExit.keep(loaded)
            kind = index == nil ? .pack : .indexedPack
        } catch {
            out.packError(error)
            kind = index == nil ? .failure : .indexedFailure
        }
        out.patch(start, byte: kind.rawValue)
        out.patch(start + 1, UInt32(out.count - start - 5))
    }

    /// The shared scan's child: takes the next pack from `queue` until none is left, sends each result with its
    /// index (in chunks of about 64 KB), then `done`.
    private static func readShared(
        _ paths: [String], realPaths: [String]?, queue: UnsafeMutablePointer<UInt64>, endpoint: ChildEndpoint
    ) -> Int32 {
        var out = WireWriter(capacity: 1 << 16)
        while true {
            let taken = fwsys_take_next(queue)
            guard taken < paths.count else { break }
            let i = Int(taken)
            endpoint.mark(UInt64(i + 1))
            appendResult(path: paths[i], realPath: realPaths.map { $0[i] } ?? "", index: i, to: &out)
            if out.count >= 1 << 16 {
                guard endpoint.sendRaw(out) else { return 3 }
                out.removeAll()
            }
        }
        out.u8(Frame.done.rawValue)
        out.u32(0)
        return endpoint.sendRaw(out) ? 0 : 3
    }
}

/// A pack's descriptors as read by the scanner or the cache: no code pointers.
struct LoadedPackInfo {
    var pack: Pack

    /// The same pack found under another path (a symbolic link, or a cache entry for the real path).
    func relocated(to path: String) -> Pack {
        guard pack.path != path else { return pack }
        let p = pack
        let cells = p.cellTypes.map { c in
            CellType(
                id: c.id, name: c.name, summary: c.summary, fields: c.fields, textInput: c.textInput, capabilities: c.capabilities,
                configure: c.configure, modelOffsets: c.modelOffsets, roles: c.roles, packID: c.packID, packPath: path, packABI: c.packABI)
        }
        return Pack(
            path: path, id: p.id, name: p.name, version: p.version, vendor: p.vendor, license: p.license, description: p.description,
            abi: p.abi, cellTypes: cells, choiceSources: p.choiceSources, choicesCacheSeconds: p.choicesCacheSeconds)
    }
}
