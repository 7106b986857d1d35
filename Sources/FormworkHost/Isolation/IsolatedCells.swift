import CFormworkSystem
import FormworkCore
import Glibc

/// Where cells run.
public enum IsolationMode: String, Sendable, CaseIterable {
    /// In the host process (`InProcessCells`): fastest; a crashing pack takes the host down.
    case inProcess = "in-process"
    /// One child process for every pack (the default): a crash or hang costs a restart of the child.
    case shared
    /// One child process per pack: a crashing pack never restarts another pack's cells.
    case perPack = "per-pack"
}

/// The `CellDriver` that runs cells in child processes: the host sends a batch of
/// requests (values in) over a socket pair and reads the responses (recorded view nodes
/// out); the child loads each pack the first time one of its cells is driven. A child
/// that crashes, aborts, exits or hangs (no progress within the launcher's timeout) is
/// replaced; the request it was in fails with the pack, cell type, call, field and
/// signal or timeout, and every other request of the batch is answered.
public final class IsolatedCells: CellDriver {
    enum Frame: UInt8 {
        // host → child: a batch's table of cell types, its request count and its first requests;
        // then, when they did not all fit, the rest in `more` frames (the child starts on the first).
        // `preload`: a pack's path, to load ahead of the batch that will need it (no answer).
        // `choices`: a pack's path and a source name; answered by one `response` (the choices) or `failure`.
        case batch = 1, more = 5, preload = 6, choices = 7
        // child → host
        case response = 2, failure = 3, batchEnd = 4
    }

    /// Requests a frame of a large batch holds: the child starts on the first frame while the host's
    /// writer encodes the next (a batch was one frame, the child idle while the host encoded all of it).
    static let requestsPerFrame = 512

    public let launcher: IsolationLauncher
    public let mode: IsolationMode
    private var children: [String: ChildChannel] = [:]
    /// Children asked to end by `requestEnd` and not yet waited for by `finish`, with their keys.
    private var ending: [(key: String, child: ChildChannel)] = []
    /// Packs the shared children were asked to load ahead of time (`preload`), each once.
    private var preloaded: Set<String> = []
    /// Preload requests sent (one per pack and child), for tests.
    public private(set) var preloadsSent = 0

    /// The position a child marks while it loads a pack ahead of time: past any batch's last request. A
    /// child that dies there was not in any request's call; it is replaced and the batch sent again.
    static let preloadPosition: UInt64 = 0xFF_FFFF
    /// Guards `children`, `ending` and `childrenStarted`: a large batch is shared by two children driven from two threads.
    private let lock = Lock()
    /// Failures of children at shutdown (`destroy` or `deinit` crashed or hung), for a warning.
    public private(set) var shutdownFailures: [String] = []
    /// Children started so far (a crash costs one restart).
    public private(set) var childrenStarted = 0
    /// Cell types not called again in this driver's life, with the failure that decided it: one whose call did not
    /// return in time alone in a child of its own (a `fill` would otherwise wait the timeout again on every page), or
    /// whose calls crashed `crashLimit` times. Each failure costs a child: without this, a cell type that crashes in
    /// `create` (or in every configure) cost a fresh process per field, a minute for 2,000 fields.
    private var givenUp: [ObjectIdentifier: String] = [:]
    /// Packs not loaded again in this driver's life: loading one or its `init` crashed (or hung) a child, which
    /// it would do again in every child (keyed by path, with that failure).
    private var packsGivenUp: [String: String] = [:]
    /// Why children cannot start on this machine, once one ended before it was ready (`ChildChannel.ready`): no
    /// other is started in this driver's life, and every request fails with it.
    private var cannotStart: ChildFailure?
    /// Crashes per cell type so far, each in a call of one request (`give`).
    private var crashes: [ObjectIdentifier: Int] = [:]
    /// Crashes of one cell type's calls after which it is given up on: a crash may depend on the values (one
    /// field's model), so one is not enough to stop calling the type for other fields; three are a pattern.
    static let crashLimit = 3
    /// Whether a child's progress page is believed about which request it failed in. Pack code can write the
    /// page; once a request it named succeeded alone, the page lied, and failures are found by halving instead.
    private var trustMarks = true
    /// The deadline for a request tried again alone because a child named it: an innocent request answers in
    /// milliseconds, and a cell that really hangs then costs the timeout and this, not two timeouts.
    static let confirmTimeout = 2.0

    /// Requests in one `perform` from which the shared mode may use a second child.
    static let splitThreshold = 2000
    /// Requests in a whole render (`willPerform`; a lone `perform`'s own count otherwise) from which its
    /// batches are shared with a second child. The second child's start-up is fixed (the Swift runtime and
    /// the packs loaded a second time) and what it saves grows with the work: below this it costs more CPU
    /// time than it saves wall time (docs/performance.md, "Process tuning").
    static let secondChildMinimum = 16_384
    /// The requests of the render in progress, from `willPerform` (nil: not told).
    private var expectedTotal: Int?

    /// `mode` must be `.shared` or `.perPack`.
    public init(launcher: IsolationLauncher, mode: IsolationMode = .shared) {
        precondition(mode != .inProcess, "use InProcessCells for in-process cells")
        self.launcher = launcher
        self.mode = mode
    }

    deinit { finish() }

    /// Starts the shared child now, so that its start-up overlaps the caller's own work (reading the
    /// document); without it, the first `perform` starts it. A child that cannot start is reported by
    /// `perform`, as usual. Does nothing in the per-pack mode (which child is needed is not known yet).
    public func start() {
        guard mode == .shared else { return }
        _ = try? child(for: "")
    }

    /// `start()`, and when about `expectedRequests` will come (a large document: `secondChildMinimum` or more),
    /// the second shared child too, whose start-up (loading the packs and the Swift runtime) then overlaps the
    /// caller's own work instead of delaying the first batch. An estimate is enough: a child started for
    /// nothing is ended by `finish`.
    public func start(expectedRequests: Int) {
        start()
        guard mode == .shared, expectedRequests >= Self.secondChildMinimum, Parallel.threads > 1 else { return }
        _ = try? child(for: "#2")
    }

    /// Whether a batch of `count` requests is shared by two children.
    private func splits(_ count: Int) -> Bool {
        mode == .shared && count >= Self.splitThreshold && (expectedTotal ?? count) >= Self.secondChildMinimum && Parallel.threads > 1
    }

    public func willPerform(requests total: Int) { expectedTotal = total }

    /// Asks the shared children started so far to load the pack at `path` now, ahead of the first batch
    /// that needs it, so that its loading (for a Swift pack, the Swift runtime's libraries: a few
    /// milliseconds) overlaps the caller's own work. A render calls it as the decoder first meets each of
    /// the document's packs (`PreloadingCatalog` in the command). No answer is awaited: a pack that fails to
    /// load is reported by the request that needs it, as without preloading, and a child that crashes or
    /// hangs while loading ahead of time is replaced when the next batch finds it gone (nothing is blamed
    /// on any request; if the pack does it again in the batch, that request is blamed as usual). Each pack
    /// is sent once; children started later load packs as their batches need them. Safe from several
    /// threads; does nothing in the per-pack mode.
    public func preload(packPath path: String) {
        guard mode == .shared else { return }
        lock.run {
            guard preloaded.insert(path).inserted else { return }
            var w = WireWriter(capacity: path.utf8.count + 4)
            w.string(path)
            for (_, child) in children.sorted(by: { $0.key < $1.key }) {
                // A child that is gone is found out by the next batch.
                if (try? child.send(kind: Frame.preload.rawValue, w)) != nil { preloadsSent += 1 }
            }
        }
    }

    /// ABI 1.2: the choices of `source` from the pack at `packPath`, listed in a cell host (the shared one, or
    /// the pack's own in the per-pack mode) under the launcher's timeout. A child that crashes or hangs meanwhile
    /// is replaced; the error names what happened.
    public func choices(packPath: String, source: String) throws(RuntimeError) -> [Choice] {
        let key = mode == .shared ? "" : packPath
        func failure(_ message: String) -> RuntimeError {
            RuntimeError(cellID: source, fieldID: nil, packPath: packPath, message: message)
        }
        let child: ChildChannel
        do { child = try self.child(for: key) } catch { throw failure("the cell host \(error)") }
        var w = WireWriter(capacity: packPath.utf8.count + source.utf8.count + 8)
        w.string(packPath)
        w.string(source)
        // The pack's own refusal (a `failure` frame) is its message; anything else ends the child.
        let answer: Result<[Choice], RuntimeError>
        do throws(ChildFailure) {
            try child.send(kind: Frame.choices.rawValue, w)
            var (kind, reader) = try child.receive(timeout: launcher.timeout, positions: 1)
            switch Frame(rawValue: kind) {
            case .response?:
                guard
                    let choices = try? reader.array({ (r) throws(WireError) in Choice(value: try r.string(), label: try r.string()) })
                else { throw ChildFailure.malformed("choices") }
                answer = .success(choices)
            case .failure?:
                guard let message = try? reader.string() else { throw ChildFailure.malformed("failure") }
                answer = .failure(failure(message))
            default:
                throw ChildFailure.malformed("frame kind \(kind)")
            }
        } catch {
            lock.run { children[key] = nil }
            var detail = "\(error)"
            if let line = child.lastOutputLine { detail += "; its last output: \"\(line)\"" }
            throw failure("the cell host \(detail) while listing choices")
        }
        switch answer {
        case .success(let choices): return choices
        case .failure(let error): throw error
        }
    }

    /// Asks every child to end once it has answered what it was sent, without waiting for it: the children
    /// destroy their cell instances while the caller goes on (`render` writes its output meanwhile), and
    /// `finish` then waits only for what is left of that and reports what went wrong. A later `perform`
    /// starts new children.
    public func requestEnd() {
        let all = lock.run { () -> [(key: String, child: ChildChannel)] in
            let all = children.sorted(by: { $0.key < $1.key }).map { (key: $0.key, child: $0.value) }
            children = [:]
            ending += all
            return all
        }
        for (_, child) in all { child.requestEnd() }
    }

    /// Ends every child; what went wrong in `destroy`/`deinit` is in `shutdownFailures`.
    public func finish() {
        let all = lock.run { () -> [(key: String, child: ChildChannel)] in
            let all = ending + children.sorted(by: { $0.key < $1.key }).map { (key: $0.key, child: $0.value) }
            ending = []
            children = [:]
            return all
        }
        // Every child is asked to end before any is waited for: they destroy their instances at once.
        for (_, child) in all { child.requestEnd() }
        for (key, child) in all {
            // A forked child is let go once it marks `finished` with status 0 (only its `_exit` is left).
            var failure = child.end(whenMarked: InProcessCells.Phase.finished.rawValue, grace: launcher.timeout)
            let phase = InProcessCells.Phase(rawValue: child.progressMark.tag & 0xFF)
            // A clean exit marks `finished` first; exit status 0 without it is a pack calling exit().
            if failure == nil && phase != .finished { failure = .exited(0) }
            if let failure {
                let pack = key.isEmpty || key.hasPrefix("#") ? "the packs" : key
                let what = phase.map { $0 == .finished ? "exiting" : $0.name } ?? "shutting down"
                shutdownFailures.append("the cell host for \(pack) \(failure) in \(what); the form's output is not affected")
            }
        }
    }

    public func drain() { finish() }

    public func perform(_ requests: [CellRequest]) throws(RuntimeError) -> [CellResponse] {
        // Reserved and filled (`Array(repeating:count:)` looks the storage's metadata up in the runtime's table).
        var responses: [CellResponse?] = []
        responses.reserveCapacity(requests.count)
        for _ in requests.indices { responses.append(nil) }
        // Both halves of a split batch answer into this one buffer, each at its own indices.
        let anyGivenUp = lock.run { !givenUp.isEmpty || !packsGivenUp.isEmpty }
        if anyGivenUp {
            for i in requests.indices { responses[i] = givenUpResponse(requests[i]) }
        }
        let open = anyGivenUp ? requests.indices.filter { responses[$0] == nil } : Array(requests.indices)
        responses.withUnsafeMutableBufferPointer { responses in
            if splits(open.count) {
                // A large batch is split between the shared child and a second one, each driven from its own
                // thread: the host mostly waits for the child, so the other core does half of the cells' work.
                // Both children are started here, on the calling thread (see `run`'s `mayStart`).
                _ = try? child(for: "")
                _ = try? child(for: "#2")
                let half = open.count / 2
                let left = Parallel.map(2, worthIt: true) { k in
                    let range = k == 0 ? 0..<half : half..<open.count
                    return self.run([Work(Array(open[range]))], of: requests, key: k == 0 ? "" : "#2", into: responses, mayStart: false)
                }.flatMap { $0 }
                // What a child that crashed (or could not start) left: here, restarting as needed.
                let held = Set(left.flatMap(\.indices))
                let unanswered = open.filter { responses[$0] == nil && !held.contains($0) }
                _ = run(left + (unanswered.isEmpty ? [] : [Work(unanswered)]), of: requests, key: "", into: responses)
            } else if mode == .shared {
                _ = run([Work(open)], of: requests, key: "", into: responses)
            } else {
                var groups: [String: [Int]] = [:]
                var order: [String] = []
                for i in open {
                    let path = requests[i].cell.packPath
                    if groups[path] == nil { order.append(path) }
                    groups[path, default: []].append(i)
                }
                for key in order { _ = run([Work(groups[key]!)], of: requests, key: key, into: responses) }
            }
        }
        var out: [CellResponse] = []
        out.reserveCapacity(responses.count)
        for i in responses.indices {
            out.append(responses[i].take() ?? CellResponse(failure: failure(requests[i], "the cell host gave no answer")))
        }
        return out
    }

    /// The answer for a request whose cell type or pack was given up on earlier in this driver's life, else nil.
    private func givenUpResponse(_ request: CellRequest) -> CellResponse? {
        let reason = lock.run {
            packsGivenUp[request.cell.packPath].map { "\($0), earlier in this command; the pack is not loaded again" }
                ?? givenUp[ObjectIdentifier(request.cell)].map { "\($0), earlier in this command; it is not called again" }
        }
        return reason.map { CellResponse(failure: failure(request, $0)) }
    }

    private func failure(_ request: CellRequest, _ message: String) -> RuntimeError {
        RuntimeError(cellID: request.cell.id, fieldID: request.fieldID, packPath: request.cell.packPath, message: message)
    }

    private func child(for key: String) throws(ChildFailure) -> ChildChannel {
        if let child = lock.run({ children[key] }) { return child }
        if let failure = lock.run({ cannotStart }) { throw failure }
        // A child per pack must not hold the other packs' fields: never a copy of the host, which by then holds
        // the whole document and its values. The shared child is sent every field anyway.
        let child = try ChildChannel.start(launcher, mode: "cells", mayFork: mode == .shared)
        child.forwardOutput = true
        lock.run {
            childrenStarted += 1
            children[key] = child
        }
        return child
    }

    /// Requests to run in one child: at first a batch's, in the child for its key; after a failure, groups in fresh
    /// children of their own (`alone`).
    struct Work {
        var indices: [Int]
        /// Set for one request a failed child named as the one it failed in while others were unanswered: that
        /// failure, kept if the request fails again alone (`confirmTimeout`).
        var blamed: CellResponse? = nil
        var alone = false

        init(_ indices: [Int], blamed: CellResponse? = nil, alone: Bool = false) {
            (self.indices, self.blamed, self.alone) = (indices, blamed, alone)
        }
    }

    /// The key of the child a group run alone gets: a fresh one each time, ended once the group is answered.
    private static let aloneKey = "#alone"

    /// Runs `work` (indices of `requests`) until every request is answered; each answer goes into `responses` at
    /// its request's index (two threads may run disjoint indices at once). After a child fails, the request it
    /// named in its progress page is tried again alone before it is given up (the page is the child's to write),
    /// and the other unanswered requests go to a fresh child; a failure outside any call, or once the page has
    /// lied, splits the unanswered requests in two, each half in a fresh child, until the one that fails is alone.
    /// So a pack's misdeeds cost only its own fields, whatever it writes in the page or does to the channel.
    ///
    /// With `mayStart` false (on a helper thread) no child is started: a child started there would be killed
    /// when that thread ends (the children ask for `PR_SET_PDEATHSIG`, which follows the starting thread), so
    /// what needs a new child is returned, for the calling thread.
    private func run(
        _ work: [Work], of requests: [CellRequest], key: String, into responses: UnsafeMutableBufferPointer<CellResponse?>,
        mayStart: Bool = true
    ) -> [Work] {
        var queue = work
        while !queue.isEmpty {
            let work = queue.removeFirst()
            var pending = work.indices.filter { responses[$0] == nil }
            if lock.run({ !givenUp.isEmpty || !packsGivenUp.isEmpty }) {
                // Given up on since this work was queued (a failure of this batch, confirmed alone).
                for i in pending { responses[i] = givenUpResponse(requests[i]) }
                pending = pending.filter { responses[$0] == nil }
            }
            guard !pending.isEmpty else { continue }
            let childKey = work.alone ? Self.aloneKey : key
            if !mayStart && (work.alone || lock.run({ children[key] }) == nil) { return [work] + queue }
            let child: ChildChannel
            do { child = try self.child(for: childKey) } catch {
                for i in pending { responses[i] = CellResponse(failure: failure(requests[i], "the cell host \(error)")) }
                continue
            }
            let timeout = work.blamed == nil ? launcher.timeout : min(launcher.timeout, Self.confirmTimeout)
            var head = WireWriter(capacity: 64 * min(pending.count, Self.requestsPerFrame))
            // The batch names each cell type once (pack path, id, schema size); a request refers to it by index.
            var table: [ObjectIdentifier: UInt32] = [:]
            var cells: [CellType] = []
            let indices = pending.map { i -> UInt32 in
                let cell = requests[i].cell
                // A batch names a few cell types: looking along the first 16 is cheaper than hashing; past them, the table.
                if cells.count <= 16 {
                    if let k = cells.firstIndex(where: { $0 === cell }) { return UInt32(k) }
                } else if let index = table[ObjectIdentifier(cell)] {
                    return index
                }
                table[ObjectIdentifier(cell)] = UInt32(cells.count)
                cells.append(cell)
                return UInt32(cells.count - 1)
            }
            head.array(cells) { w, cell in
                w.string(cell.packPath)
                w.string(cell.id)
                // What the host read, so that the child can tell when the file changed since.
                w.u32(UInt32(cell.fields.count))
            }
            head.u32(UInt32(pending.count))
            // A large batch goes out in frames from a writer thread while this thread reads the answers: the
            // child starts on the first frame, and with both directions served at once neither side can
            // block the other on a full socket. A small batch, or one without a thread to spare (or with
            // FORMWORK_THREADS=1), goes out in one frame before any answer is read (the child reads a frame
            // whole before it answers).
            var writer: pthread_t? = nil
            if pending.count > Self.requestsPerFrame && Parallel.threads > 1 {
                let batch = pending, first = head
                writer = Parallel.thread {
                    var frame = first
                    var kind = Frame.batch.rawValue
                    var k = 0
                    while k < batch.count {
                        let end = min(batch.count, k + Self.requestsPerFrame)
                        // Borrowed through the buffer: a request read out of the array is a copy (half a dozen retains).
                        requests.withUnsafeBufferPointer { requests in
                            let base = requests.baseAddress.unsafelyUnwrapped
                            for j in k..<end { Self.encode(base + batch[j], cell: indices[j], into: &frame) }
                        }
                        guard child.sendFromWriter(kind: kind, frame) else { return }  // the reader finds out why
                        (kind, k) = (Frame.more.rawValue, end)
                        frame.removeAll()  // sent: its memory takes the next frame
                    }
                }
            }
            /// Joins the writer; first kills the child when it is given up on (a writer blocked on a child
            /// that no longer reads then returns).
            func joinWriter(abandoning: Bool) {
                guard let thread = writer else { return }
                if abandoning { child.abandon() }
                Parallel.join(thread)
                writer = nil
            }
            var answered = 0
            // A choice list repeated from view to view is one array across the batch's responses (`RecentChoices`).
            let recentChoices = RecentChoices()
            do {
                if writer == nil {
                    requests.withUnsafeBufferPointer { requests in
                        let base = requests.baseAddress.unsafelyUnwrapped
                        for (k, i) in pending.enumerated() { Self.encode(base + i, cell: indices[k], into: &head) }
                    }
                    try child.send(kind: Frame.batch.rawValue, head)
                }
                receiving: while true {
                    let (kind, payload) = try child.receive(timeout: timeout, positions: UInt64(pending.count))
                    var reader = payload
                    reader.recentChoices = recentChoices
                    switch Frame(rawValue: kind) {
                    case .response?:
                        guard let (position, response) = try? Self.decodeResponse(&reader), position < pending.count else {
                            throw ChildFailure.malformed("response")
                        }
                        responses[pending[position]] = response
                        answered += 1
                    case .failure?:
                        guard let position = try? Int(reader.u32()), position < pending.count, let message = try? reader.string() else {
                            throw ChildFailure.malformed("failure")
                        }
                        responses[pending[position]] = CellResponse(failure: failure(requests[pending[position]], message))
                        answered += 1
                    case .batchEnd?:
                        joinWriter(abandoning: false)  // done: every request was read to be answered
                        if pending.contains(where: { responses[$0] == nil }) {
                            throw ChildFailure.malformed("a batch ended with requests unanswered")
                        }
                        if work.alone { retire(childKey) }
                        // A request a child named answered alone: that child's page lied.
                        if work.blamed != nil { lock.run { trustMarks = false } }
                        break receiving
                    default:
                        throw ChildFailure.malformed("frame kind \(kind)")
                    }
                }
            } catch {
                joinWriter(abandoning: true)
                // The child is gone (or was killed): the call it was marked in is the suspect.
                let mark = child.progressMark
                lock.run { children[childKey] = nil }
                let position = Int(mark.tag >> 8)
                let phase = InProcessCells.Phase(rawValue: mark.tag & 0xFF)
                pending = pending.filter { responses[$0] == nil }
                if mark.count > 0 && phase == .load && UInt64(position) == Self.preloadPosition && !work.alone {
                    // Gone while loading a pack ahead of time, before reading the batch: no request was in a
                    // call. Another child (which loads packs only as requests need them) gets the batch.
                    queue.insert(Work(pending), at: 0)
                    continue
                }
                let timedOut = if case ChildFailure.timedOut = error { true } else { false }
                var detail = "\(error)"
                if let line = child.lastOutputLine { detail += "; its last output: \"\(line)\"" }
                if !child.ready {
                    // Gone before it was ready, so before any pack code ran in it: no request is to blame, and a
                    // fresh child would end the same way (halving the batch started two children per field, and
                    // a render under valgrind never finished). Every request still unanswered fails with why.
                    let failure = ChildFailure.cannotStart("it \(detail) before it was ready")
                    lock.run { cannotStart = failure }
                    for i in pending { responses[i] = CellResponse(failure: self.failure(requests[i], "the cell host \(failure)")) }
                    continue
                }
                let named =
                    mark.count > 0 && phase != nil && phase != .destroy && position < work.indices.count ? work.indices[position] : nil
                if let blamed = work.blamed {
                    // Tried alone and failed again: the first failure stands.
                    for i in pending {
                        give(blamed, to: i, of: requests, timedOut: timedOut, in: named == i ? phase : nil, into: responses)
                    }
                } else if pending.count == 1 {
                    let i = pending[0]
                    let message = named == i ? "\(detail) in \(phase!.name)" : "the cell host \(detail)"
                    give(
                        CellResponse(failure: failure(requests[i], message)), to: i, of: requests, timedOut: timedOut,
                        in: named == i ? phase : nil, into: responses)
                } else if let i = named, pending.contains(i), lock.run({ trustMarks }) {
                    let blamed = CellResponse(failure: failure(requests[i], "\(detail) in \(phase!.name)"))
                    // The others go on in the usual child (a fresh one when it was this one).
                    queue.insert(
                        contentsOf: [Work([i], blamed: blamed, alone: true), Work(pending.filter { $0 != i }, alone: work.alone)], at: 0)
                } else {
                    // Not inside any call, or the page cannot be believed: halves, each in a child of its own.
                    let half = pending.count / 2
                    queue.insert(
                        contentsOf: [Work(Array(pending[..<half]), alone: true), Work(Array(pending[half...]), alone: true)], at: 0)
                }
            }
        }
        return []
    }

    /// Answers request `i` with a failure, which happened alone in `phase` (nil: not in one of its calls), and
    /// remembers what is not to be called again: its pack after a crash or hang in loading it or in its `init`, the
    /// cell type after a hang, or after its `crashLimit`-th crash.
    private func give(
        _ response: CellResponse, to i: Int, of requests: [CellRequest], timedOut: Bool, in phase: InProcessCells.Phase?,
        into responses: UnsafeMutableBufferPointer<CellResponse?>
    ) {
        responses[i] = response
        guard let message = response.failure?.message else { return }
        let cell = requests[i].cell
        lock.run {
            if phase == .load || phase == .initialize {
                packsGivenUp[cell.packPath] = message
            } else if timedOut {
                givenUp[ObjectIdentifier(cell)] = message
            } else if phase != nil {
                crashes[ObjectIdentifier(cell), default: 0] += 1
                if crashes[ObjectIdentifier(cell)]! >= Self.crashLimit {
                    givenUp[ObjectIdentifier(cell)] = "\(message) (\(Self.crashLimit) fields' calls crashed)"
                }
            }
        }
    }

    /// Asks the child for `key` to end once it is done, and forgets it (`finish` waits for it).
    private func retire(_ key: String) {
        guard
            let child = lock.run({ () -> ChildChannel? in
                guard let child = children.removeValue(forKey: key) else { return nil }
                ending.append((key: key, child: child))
                return child
            })
        else { return }
        child.requestEnd()
    }

    // MARK: the protocol

    /// One request of a batch; `cell` indexes the batch's table of cell types.
    /// The bytes `WireWriter`'s `u32`, `string`, `array`, `value` and `bool` write for the request, in two runs
    /// each sized first and then stored with one capacity check (written a value at a time, a request was some
    /// thirty calls into the buffer). The offers, rare, are written a value at a time between them.
    ///
    /// The request is read in place through `request` (a request passed by value, even read from an array's
    /// buffer, was copied: half a dozen retains and releases), and its model in place (a `for value in` loop
    /// copies each value): an array through its buffer, a field's model through `forEachValue`.
    static func encode(_ request: UnsafePointer<CellRequest>, cell: UInt32, into w: inout WireWriter) {
        // cell, fieldID, model
        let fieldID = request.pointee.fieldID
        switch request.pointee.values {
        case .array(let values):
            values.withUnsafeBufferPointer { model in
                let count = model.count
                var size = 4 + 4 + fieldID.utf8.count + 4
                for k in 0..<count { size += PackedWire.size(of: model.baseAddress.unsafelyUnwrapped + k) }
                w.buffer.write(size) { p in
                    var at = PackedWire.store(cell, p)
                    at += PackedWire.store(fieldID, p + at)
                    at += PackedWire.store(UInt32(count), p + at)
                    for k in 0..<count { at += PackedWire.store(model.baseAddress.unsafelyUnwrapped + k, p + at) }
                    assert(at == size)
                }
            }
        case .field(let model):
            let count = model.schemaCount
            var size = 4 + 4 + fieldID.utf8.count + 4
            model.forEachValue { size += PackedWire.size(of: $1) }
            w.buffer.write(size) { p in
                var at = PackedWire.store(cell, p)
                at += PackedWire.store(fieldID, p + at)
                at += PackedWire.store(UInt32(count), p + at)
                model.forEachValue { at += PackedWire.store($1, p + at) }
                assert(at == size)
            }
        }
        w.array(request.pointee.offers) {
            $0.int($1.index)
            $0.value($1.value)
        }
        // render, accessibilityId (or the mark that it is the field id), valueField, highlighted, selected
        let accessibilityId = request.pointee.accessibilityId, sameId = accessibilityId == fieldID
        let valueField = request.pointee.valueField
        let render = request.pointee.render, highlighted = request.pointee.highlighted, selected = request.pointee.selected
        let idBytes: Int = sameId ? 0 : accessibilityId.utf8.count
        let valueFieldBytes: Int = valueField.map { 4 + $0.utf8.count } ?? 0
        let tail = 1 + 4 + idBytes + 1 + valueFieldBytes + 2
        w.buffer.write(tail) { p in
            p[0] = render ? 1 : 0
            var at = 1
            at += sameId ? PackedWire.store(UInt32.max, p + at) : PackedWire.store(accessibilityId, p + at)
            if let valueField {
                p[at] = 1
                at += 1 + PackedWire.store(valueField, p + at + 1)
            } else {
                p[at] = 0
                at += 1
            }
            p[at] = highlighted.map { $0 ? 2 : 1 } ?? 0
            p[at + 1] = selected.map { $0 ? 2 : 1 } ?? 0
            assert(at + 2 == tail)
        }
    }

    /// A response whose views are in `recorder`, already encoded (the cell host records them straight into
    /// their wire form: `CanvasWireRecorder`).
    static func encode(_ response: CellResponse, position: Int, recorder: CanvasWireRecorder, into w: inout WireWriter) {
        w.u32(UInt32(position))
        w.u32(recorder.rootCount)
        w.raw(recorder.out)
        encode(response.rejections, into: &w)
    }

    static func encode(_ rejections: [CellResponse.Rejection], into w: inout WireWriter) {
        w.array(rejections) {
            $0.int($1.index)
            $0.string($1.reason)
        }
    }

    static func decodeResponse(_ r: inout WireReader) throws(WireError) -> (Int, CellResponse) {
        let position = Int(try r.u32())
        let nodes = try r.array { (r) throws(WireError) in try r.node() }
        let rejections = try r.array { (r) throws(WireError) in CellResponse.Rejection(index: try r.int(), reason: try r.string()) }
        return (position, CellResponse(nodes: nodes, rejections: rejections))
    }

    /// The cell-host child: applies the sandbox, then answers batches until the host closes the socket.
    static func childMain() -> Int32 {
        let endpoint = ChildEndpoint()
        // What packs print on either stream goes to the host, which neutralises it and names the pack.
        dup2(1, 2)
        _ = fwsys_die_with_parent()
        ChildSandbox.enter()
        // In the sandbox, nothing read yet: no pack code has run (`ChildChannel.ready`).
        _ = endpoint.send(kind: ChildChannel.readyKind, WireWriter(capacity: 0))
        let status = serve(endpoint)
        // Every instance is destroyed and every deinit called by now (`serve`'s driver is gone). What the packs
        // printed is flushed into the pipe before the mark: the host may stop reading once it sees it. The exit
        // status rides above the phase, so a mark of `finished` alone means a clean end.
        fflush(nil)
        endpoint.mark(InProcessCells.Phase.finished.rawValue | UInt64(UInt32(bitPattern: status)) << 8)
        return status
    }

    private static func serve(_ endpoint: ChildEndpoint) -> Int32 {
        let cells = InProcessCells(entries: [:])
        cells.progressPage = endpoint.progress
        // Views are recorded straight into their wire encoding (no view nodes made and encoded again).
        let recorder = CanvasWireRecorder()
        var out = Replies(endpoint: endpoint)
        while let (kind, payload) = endpoint.receive() {
            if kind == Frame.preload.rawValue {
                var r = WireReader(payload)
                guard let path = try? r.string() else { return 2 }
                endpoint.mark(preloadPosition << 8 | InProcessCells.Phase.load.rawValue)
                cells.preload(path: path)
                endpoint.mark(0)
                continue
            }
            if kind == Frame.choices.rawValue {
                var r = WireReader(payload)
                guard let path = try? r.string(), let source = try? r.string() else { return 2 }
                do throws(RuntimeError) {
                    let choices = try cells.choices(packPath: path, source: source)
                    out.frame(.response) { w in
                        w.array(choices) {
                            $0.string($1.value); $0.string($1.label)
                        }
                    }
                } catch {
                    out.frame(.failure) { $0.string(error.message) }
                }
                guard out.flush(force: true) else { return 3 }
                continue
            }
            guard kind == Frame.batch.rawValue else { return 2 }
            if let failure = serveBatch(payload, endpoint: endpoint, cells: cells, recorder: recorder, out: &out) { return failure }
        }
        // The host is done: every instance is destroyed and every pack's deinit called, through the ABI, as the
        // driver's deinit does; the driver's own memory (the loaded cell types, the pool, the entries) is not freed
        // object by object, since the process ends right after.
        cells.drain()
        KeptUntilExit.keep(cells)
        return 0
    }

    /// The frames a cell host sends back, gathered and sent in large writes.
    private struct Replies {
        let endpoint: ChildEndpoint
        var out = WireWriter(capacity: 1 << 16)

        /// Sends what is gathered when it is large (or when `force`); false when the host is gone.
        mutating func flush(force: Bool) -> Bool {
            guard force || out.count >= 1 << 16 else { return true }
            defer { out.removeAll() }
            return endpoint.sendRaw(out)
        }

        mutating func frame(_ kind: Frame, _ body: (inout WireWriter) -> Void) {
            out.u8(kind.rawValue)
            let lengthAt = out.count
            out.u32(0)
            body(&out)
            out.patch(lengthAt, UInt32(out.count - lengthAt - 4))
        }
    }

    /// The cell types a batch names, each loaded (or its failure found) once, and what its requests reuse.
    private struct BatchCells {
        struct Named {
            let path: String, id: String, fieldCount: UInt32
        }
        let table: [Named]
        // Two plain arrays, not one of `Result<CellType, RuntimeError>?`: that one was copied out for every
        // request through the runtime's generic enum witnesses.
        var loaded: [CellType?]
        var failed: [RuntimeError?]
        /// The model of each cell type's requests, read in place request after request.
        var models: [[Value?]]
        /// The value field of each cell type's last request: the same for most of them, then not made again.
        var valueFields: [String?]

        init(table: [Named]) {
            self.table = table
            loaded = Array(repeating: nil, count: table.count)
            failed = Array(repeating: nil, count: table.count)
            models = Array(repeating: [], count: table.count)
            valueFields = Array(repeating: nil, count: table.count)
        }

        /// The cell type at `index` of the table, loaded the first time; the request for `fieldID` fails with the
        /// pack's load failure, or when the pack's schema changed since the host read it.
        mutating func cell(_ index: Int, fieldID: String, in cells: InProcessCells) throws(RuntimeError) -> CellType {
            let named = table[index]
            if loaded[index] == nil && failed[index] == nil {
                do throws(RuntimeError) {
                    let cell = try cells.loadedCell(path: named.path, id: named.id)
                    guard cell.fields.count == Int(named.fieldCount) else {
                        throw RuntimeError(
                            cellID: named.id, fieldID: nil, packPath: named.path,
                            message: "its model schema changed since the pack was read; run 'formwork list --rescan'")
                    }
                    loaded[index] = cell
                } catch {
                    failed[index] = error
                }
            }
            guard let cell = loaded[index] else {
                let error = failed[index]!
                throw RuntimeError(cellID: error.cellID, fieldID: fieldID, packPath: error.packPath, message: error.message)
            }
            return cell
        }
    }

    /// One request of a batch as read from the wire; its model values stay in the message (`model`).
    private struct WireRequest {
        var index = 0, fieldID = "", offers: [CellRequest.Offer] = []
        var render = false, accessibilityId = "", valueField: String?
        var highlighted: UInt8 = 0, selected: UInt8 = 0
        var model: (start: Int, count: Int) = (0, 0)
        /// Nothing to offer, highlight or select (all of `render`'s): the model is laid out for the pack straight
        /// from the message; any other request has its values made.
        var common: Bool { offers.isEmpty && highlighted == 0 && selected == 0 }
    }

    /// Reads the next request from `r` (model values checked and passed over; read into `batch.models` unless common).
    private static func readRequest(_ r: inout WireReader, _ batch: inout BatchCells) throws(WireError) -> WireRequest {
        var q = WireRequest()
        q.index = Int(try r.u32())
        guard q.index < batch.table.count else { throw WireError(offset: r.offset) }
        q.fieldID = try r.string()
        q.model = try r.skipValues()
        q.offers = try r.array { (r) throws(WireError) in CellRequest.Offer(index: try r.int(), value: try r.value()) }
        q.render = try r.bool()
        q.accessibilityId = try r.string(orSame: q.fieldID)
        q.valueField = try r.optionalString(reusing: &batch.valueFields[q.index])
        q.highlighted = try r.u8()
        q.selected = try r.u8()
        if !q.common {
            // The rest of `perform` reads the values too.
            var values = WireReader(r.bytes, range: q.model.start - 4..<r.end)
            try values.values(into: &batch.models[q.index])
        }
        return q
    }

    /// Serves one batch: each request answered (a response or a failure frame) in order. Nil when the batch was
    /// served; otherwise the exit status (2: a malformed message, 3: the host is gone).
    private static func serveBatch(
        _ payload: [UInt8], endpoint: ChildEndpoint, cells: InProcessCells, recorder: CanvasWireRecorder, out: inout Replies
    ) -> Int32? {
        var r = WireReader(payload)
        func named(_ r: inout WireReader) throws(WireError) -> BatchCells.Named {
            BatchCells.Named(path: try r.string(), id: try r.string(), fieldCount: try r.u32())
        }
        guard let table = try? r.array(named), let count = try? r.u32() else { return 2 }
        var batch = BatchCells(table: table)
        for position in 0..<Int(count) {
            if r.atEnd {
                // The rest of the batch comes in further frames: what is answered goes out first, and
                // the wait is marked as progress (it is not a call of a pack's).
                guard out.flush(force: true) else { return 3 }
                endpoint.mark(0)
                guard let (kind, more) = endpoint.receive(), kind == Frame.more.rawValue else { return 2 }
                r = WireReader(more)
            }
            let q: WireRequest
            do throws(WireError) { q = try readRequest(&r, &batch) } catch { return 2 }
            let response: CellResponse
            do throws(RuntimeError) {
                endpoint.mark(UInt64(position) << 8 | InProcessCells.Phase.load.rawValue)
                let cell = try batch.cell(q.index, fieldID: q.fieldID, in: cells)
                guard q.offers.allSatisfy({ $0.index < cell.fields.count }) else {
                    throw RuntimeError(
                        cellID: cell.id, fieldID: q.fieldID, packPath: batch.table[q.index].path,
                        message: "its model schema changed since the pack was read; run 'formwork list --rescan'")
                }
                var request = CellRequest(
                    cell: cell, fieldID: q.fieldID, model: q.common ? [] : batch.models[q.index], offers: q.offers, render: q.render,
                    accessibilityId: q.accessibilityId, valueField: q.valueField)
                request.highlighted = q.highlighted == 0 ? nil : q.highlighted == 2
                request.selected = q.selected == 0 ? nil : q.selected == 2
                // No redirection here: the child's standard output is a pipe the host keeps for its reports.
                if q.common {
                    // (`withUnsafeBytes` rethrows untyped errors: the typed one comes out through a `Result`.)
                    let model = q.model
                    response = try r.bytes.withUnsafeBytes { bytes -> Result<CellResponse, RuntimeError> in
                        let wire = WireValues(start: bytes.baseAddress! + model.start, count: model.count)
                        return withUnsafePointer(to: request) { request -> Result<CellResponse, RuntimeError> in
                            do throws(RuntimeError) {
                                return .success(try cells.perform(at: request, index: UInt64(position), recorder: recorder, wire: wire))
                            } catch {
                                return .failure(error)
                            }
                        }
                    }.get()
                } else {
                    response = try cells.perform(request, index: UInt64(position), recorder: recorder)
                }
            } catch {
                out.frame(.failure) {
                    $0.u32(UInt32(position))
                    $0.string(error.message)
                }
                guard out.flush(force: false) else { return 3 }
                continue
            }
            out.frame(.response) { encode(response, position: position, recorder: recorder, into: &$0) }
            guard out.flush(force: false) else { return 3 }
        }
        out.frame(.batchEnd) { _ in }
        guard out.flush(force: true) else { return 3 }
        endpoint.mark(0)
        return nil
    }
}
