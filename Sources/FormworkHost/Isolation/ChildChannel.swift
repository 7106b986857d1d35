import CFormworkSystem
import FormworkCore
import Glibc

/// How a child process that runs pack code stopped answering.
enum ChildFailure: Error, Equatable, CustomStringConvertible {
    case signaled(Int32)
    case exited(Int32)
    case timedOut(Double)
    case malformed(String)
    case cannotStart(String)

    var description: String {
        switch self {
        case .signaled(let signal): "crashed with \(ChildProcess.signalName(signal)) (signal \(signal))"
        case .exited(let status): "ended the process with exit status \(status)"
        case .timedOut(let seconds): "did not return within \(NumberText.format(seconds)) s (a hang?)"
        case .malformed(let what): "sent a malformed answer (\(what))"
        case .cannotStart(let why): "could not be started: \(why)"
        }
    }
}

/// A child process and the host's end of a socket pair to it (the child's descriptor 3),
/// plus a shared page (the child's descriptor 4) where the child records which call it is
/// in, so that a crash or a hang is attributed without a round trip per call. The child's
/// standard output is read through a pipe and kept (bounded) for reports; standard error
/// is inherited. No Foundation `Process`.
///
/// Frames both ways are `[kind: u8][length: u32 LE][payload]`.
///
/// The corresponding C functions are `socketpair`, `posix_spawn`, `mmap`, `poll`,
/// `send` (with `MSG_NOSIGNAL`: a dead child never raises SIGPIPE in the host),
/// `read`, `kill` and `waitpid`.
final class ChildChannel {
    /// The shared page: word 0 counts calls begun, word 1 holds the current call's tag.
    static let progressBytes = 4096
    /// Seconds a child may take to start (until it first marks the page), whatever the call timeout:
    /// a loaded machine or a sanitizer build starts slowly, and no pack code has run yet.
    static let startupAllowance = 30.0

    let pid: pid_t
    private let socket: Int32
    private let output: Int32
    private let progress: UnsafeMutablePointer<UInt64>
    private var buffer: [UInt8] = []
    private var start = 0
    /// What one `read` of the socket fills: made once, not per read.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private(set) var captured: [UInt8] = []
    private var ended: ChildFailure?
    /// Whether the child said it is ready (`readyKind`): in its sandbox, before it has read anything, so before any
    /// pack code ran in it. A child gone before that failed for a reason of the machine's (the sandbox cannot be set
    /// up, the executable does not run), not of any pack: another would end the same way. Set by `receive` from
    /// the frame itself, which pack code, running only later, cannot take back (the progress page it can write).
    private(set) var ready = false
    /// The kind of the frame a cell host sends first; `receive` takes it and returns the next.
    static let readyKind: UInt8 = 0xFE
    /// Copies what the child prints to the host's standard error as it arrives (the cell host:
    /// a pack's diagnostics stay visible, as in process); the scanner's output is only kept.
    var forwardOutput = false

    /// Whether the child is a copy of this process (`fork` without `exec`): it shares what this process had
    /// mapped shared before the fork, and runs this build's code.
    let forked: Bool

    private init(pid: pid_t, socket: Int32, output: Int32, progress: UnsafeMutablePointer<UInt64>, forked: Bool) {
        self.pid = pid
        self.forked = forked
        self.socket = socket
        self.output = output
        self.progress = progress
    }

    deinit {
        if ended == nil { _ = terminate(grace: 0) }
        if forwardOutput { flushLine() }
        close(socket)
        close(output)
        munmap(progress, Self.progressBytes)
    }

    /// Starts a child in `mode` (`scan` or `cells`) as `launcher` says. The child's environment is the
    /// host's, without the Swift crash backtracer (a crash should end the child at once, with its signal).
    ///
    /// With `launcher.forksItself`, in a process that runs one thread and no sanitizer, the child is a copy
    /// of this process (`fork` without `exec`) that runs `ChildMode.run(mode)` and exits: starting the
    /// executable again costs loading, relocating and initialising a process per child (docs/performance.md),
    /// which a cold `list` paid twice. Otherwise (another thread could hold a lock the copy would inherit held, or a
    /// sanitizer needs its options set) the child is `launcher.executable` started afresh.
    ///
    /// A copy holds what this process held when it was made, and the packs in it can read that memory.
    /// `mayFork` false keeps a child that must see only what it is sent (a cell host of the per-pack mode,
    /// started once the document and its values are read) a fresh process whatever the launcher says.
    static func start(_ launcher: IsolationLauncher, mode: String, mayFork: Bool = true) throws(ChildFailure) -> ChildChannel {
        released.reap()
        if mayFork, launcher.forksItself, fwsys_under_sanitizer() == 0, fwsys_single_threaded() == 1 {
            return try start(
                fork: mode, executable: launcher.executable, launcher.arguments + [mode], readable: launcher.readablePaths,
                layers: launcher.sandboxLayers)
        }
        return try start(
            fork: nil, executable: launcher.executable, launcher.arguments + [mode], readable: launcher.readablePaths,
            layers: launcher.sandboxLayers)
    }

    /// `start`: the child forked to run `fork` (a mode) in this process's image, or `executable` spawned.
    /// `readable`: what the child's sandbox lets it read (`ChildSandbox`).
    private static func start(
        fork mode: String?, executable: String, _ arguments: [String], readable: [String], layers: Int32?
    ) throws(ChildFailure) -> ChildChannel {
        var pair: [Int32] = [-1, -1]
        var pipeFDs: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .cannotStart(SystemError.errno("socketpair").description)
        }
        guard fwsys_pipe_cloexec(&pipeFDs) == 0 else {
            close(pair[0])
            close(pair[1])
            throw .cannotStart(SystemError.errno("pipe2").description)
        }
        let memory = fwsys_memfd_create("formwork-progress")
        guard memory >= 0, ftruncate(memory, off_t(progressBytes)) == 0,
            let mapped = mmap(nil, progressBytes, PROT_READ | PROT_WRITE, MAP_SHARED, memory, 0), mapped != MAP_FAILED
        else {
            let error = SystemError.errno("memfd_create/mmap")
            for fd in pair + pipeFDs + [memory] where fd >= 0 { close(fd) }
            throw .cannotStart(error.description)
        }
        let progress = mapped.bindMemory(to: UInt64.self, capacity: 2)
        progress[0] = 0
        progress[1] = 0

        if let mode {
            // Whatever stdio holds unwritten would be written twice, once by each process.
            fflush(nil)
            ChildSandbox.pending = readable
            ChildSandbox.pendingLayers = layers
            let pid = fwsys_fork_child(pair[1], pipeFDs[1], memory)
            if pid != 0 {
                ChildSandbox.pending = nil
                ChildSandbox.pendingLayers = nil
            }
            if pid == 0 {
                let status = ChildMode.run(mode)
                fflush(nil)
                _exit(status)
            }
            close(pair[1])
            close(pipeFDs[1])
            close(memory)
            guard pid > 0 else {
                let error = SystemError.errno("fork")
                close(pair[0])
                close(pipeFDs[0])
                munmap(mapped, progressBytes)
                throw .cannotStart(error.description)
            }
            return ChildChannel(pid: pid, socket: pair[0], output: pipeFDs[0], progress: progress, forked: true)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 3)
        posix_spawn_file_actions_adddup2(&actions, memory, 4)
        // Nothing else of this process's (another thread's pipe without O_CLOEXEC) reaches the child.
        _ = fwsys_spawn_close_from(&actions, 5)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        // Under AddressSanitizer (the test suite's sanitizer run), a pack's crash must still end the child with
        // its signal, and LeakSanitizer cannot run at exit (it uses ptrace, which the sandbox refuses).
        // A pack's allocation that cannot be had returns NULL, as the C library's does under the sandbox's limit.
        var sanitizer =
            "handle_segv=0:handle_abort=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=4096"
        var entry = environ
        while let variable = entry.pointee {
            if strncmp(variable, "ASAN_OPTIONS=", 13) == 0 {
                sanitizer = String(cString: variable + 13) + ":" + sanitizer
            } else if strncmp(variable, "SWIFT_BACKTRACE=", 16) != 0 && strncmp(variable, "FORMWORK_SANDBOX_READ=", 22) != 0
                && (layers == nil || strncmp(variable, "FORMWORK_SANDBOX=", 17) != 0)
            {
                environment.append(strdup(variable))
            }
            entry += 1
        }
        environment.append(strdup("ASAN_OPTIONS=\(sanitizer)"))
        environment.append(strdup("\(ChildSandbox.variable)=\(readable.joined(separator: "\u{1F}"))"))
        if let layers { environment.append(strdup("FORMWORK_SANDBOX=\(layers)")) }
        environment.append(nil)
        defer { for e in environment { free(e) } }
        // Its own process group: a pack that signals "its" group (kill(0, …)) cannot reach the host,
        // and a Ctrl-C meant for the host is the host's to handle.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        close(pair[1])
        close(pipeFDs[1])
        close(memory)
        guard status == 0 else {
            close(pair[0])
            close(pipeFDs[0])
            munmap(mapped, progressBytes)
            throw .cannotStart(SystemError(call: "posix_spawn \(executable)", code: status).description)
        }
        return ChildChannel(pid: pid, socket: pair[0], output: pipeFDs[0], progress: progress, forked: false)
    }

    /// Lets the child go without waiting for it to end: for a child that has sent all the host needs and is
    /// ending by itself (a scanner after its last result). Its exit — a copy of the host and every pack it
    /// opened torn down — then overlaps the host's own work instead of delaying it. Its socket and
    /// output are closed; it is reaped by a later `start` (killed if it is still there 2 s after), or by
    /// `init` once the host has exited. Its exit status is not read: nothing it does now changes a result.
    func release() {
        guard ended == nil else { return }
        shutdown(socket, Int32(SHUT_WR))
        ended = .exited(0)
        Self.released.add(pid)
    }

    /// Closes the host's side of the socket: the child finishes what it was sent, then ends. `terminate`
    /// does it too; doing it first for every child lets them all finish at once.
    func requestEnd() {
        if ended == nil { shutdown(socket, Int32(SHUT_WR)) }
    }

    /// `terminate` for a forked child that marks `tag` in its progress page once its work is done and what it
    /// printed is in the pipe (it then only `_exit`s): from that mark the child is let go (`release`) instead
    /// of waited for, so its exit overlaps the host's own. A child that ends first, or does not mark `tag`
    /// within `grace` seconds, is treated as `terminate` treats it.
    func end(whenMarked tag: UInt64, grace: Double) -> ChildFailure? {
        guard forked, ended == nil else { return terminate(grace: grace) }
        requestEnd()
        let deadline = Clock.now + grace
        while progressMark.tag != tag {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                drainRemainingOutput()
                let outcome = Self.outcome(status)
                ended = outcome
                return outcome == .exited(0) ? nil : outcome
            }
            if Clock.now >= deadline { return terminate(grace: 0).map { _ in .timedOut(grace) } }
            var fd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, 0) > 0, fd.revents & Int16(POLLIN) != 0 { drainOutput() } else { usleep(200) }
        }
        drainRemainingOutput()
        release()
        return nil
    }

    /// Children let go of by `release` and not reaped yet.
    private static let released = ReleasedChildren()

    /// How a child ended, from its `waitpid` status: the signal that killed it, or its exit status.
    private static func outcome(_ status: Int32) -> ChildFailure {
        status & 0x7F != 0 ? .signaled(status & 0x7F) : .exited((status >> 8) & 0xFF)
    }

    /// Calls the child has begun, and the tag of the current one (what the child wrote last).
    var progressMark: (count: UInt64, tag: UInt64) { (progress[0], progress[1]) }

    /// Sends one frame; a dead child is reported by `receive`.
    func send(kind: UInt8, _ payload: WireWriter) throws(ChildFailure) {
        var header = WireWriter(capacity: 5)
        header.u8(kind)
        header.u32(UInt32(payload.count))
        try write(header)
        try write(payload)
    }

    /// `send` for a writer thread beside the one that receives: false when the child is gone, with no
    /// reaping (the receiving thread finds out how the child ended).
    func sendFromWriter(kind: UInt8, _ payload: WireWriter) -> Bool {
        var header = WireWriter(capacity: 5)
        header.u8(kind)
        header.u32(UInt32(payload.count))
        return sendAll(socket, header) && sendAll(socket, payload)
    }

    /// Kills a child that is being given up on, so that a writer thread blocked sending to it returns.
    /// The corresponding C function is `kill`.
    func abandon() {
        if ended == nil { Glibc.kill(pid, SIGKILL) }
    }

    private func write(_ bytes: WireWriter) throws(ChildFailure) {
        guard sendAll(socket, bytes) else { throw reap() }
    }

    /// The largest frame the host reads from a child: a longer length is refused before any of it is read.
    static let maximumFrame = 64 << 20
    /// Calls a request may go through (load, init, create, configure, value_changed, selection, render, and back).
    static let phasesPerRequest = 16

    /// The next frame. Fails when the child dies, sends a frame longer than `maximumFrame`, or stays inside one
    /// call for longer than `timeout` seconds.
    ///
    /// The progress page is the child's to write, so it is believed only as far as a real child could go: a mark
    /// counts as progress when it moves to a later request (below `positions`, the requests sent) or to another
    /// call of the same request (at most `phasesPerRequest` times). A pack thread that keeps writing the page
    /// cannot hold the deadline off for longer than the requests it was sent could take.
    func receive(timeout: Double, positions: UInt64 = .max) throws(ChildFailure) -> (kind: UInt8, payload: WireReader) {
        // The clock is read only once this call has to wait (most frames are already in the buffer).
        var lastMark = progressMark
        // A mark outside the requests sent (a pack loaded ahead of time between batches) is where the count starts.
        var lastTag = lastMark.tag >> 8 < positions ? lastMark.tag : 0
        var phaseChanges = 0
        var lastChange = -1.0
        // What the frames before took is dropped now, not when they were returned: their readers share the
        // buffer until the caller is done with them (dropping it under a live reader would copy the buffer).
        if start > 1 << 20 || (start > 0 && start == buffer.count) {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            if buffer.count - start >= 5 {
                var header = WireReader(buffer, offset: start)
                let kind = (try? header.u8()) ?? 0
                let length = Int((try? header.u32()) ?? 0)
                guard length <= Self.maximumFrame else {
                    kill(pid, SIGKILL)
                    _ = waitForExit()
                    ended = .malformed("a frame of \(length) bytes, above the limit of \(Self.maximumFrame)")
                    throw ended!
                }
                if buffer.count - start - 5 >= length {
                    if kind == Self.readyKind && !ready {
                        ready = true
                        start += 5 + length
                        continue
                    }
                    // Read in place: the payload is not copied out of the buffer (an array made and freed for
                    // every answer of a batch).
                    let payload = WireReader(buffer, range: (start + 5)..<(start + 5 + length))
                    start += 5 + length
                    return (kind, payload)
                }
            }
            if lastChange < 0 { lastChange = Clock.now }
            var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, 50)
            if ready < 0 && errno != EINTR { throw reap() }
            if fds[1].revents != 0 { drainOutput() }
            if fds[0].revents != 0 {
                let n = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
                if n > 0 {
                    // What was read before goes first (at most a frame's start, which needed these bytes): the buffer
                    // stays about a read long, its memory reused, instead of growing to a megabyte between compactions
                    // (fresh pages faulted in for nothing).
                    if start > 0 {
                        buffer.removeFirst(start)
                        start = 0
                    }
                    chunk.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
                    continue
                }
                if n == 0 || (errno != EINTR && errno != EAGAIN) { throw reap() }
            }
            let mark = progressMark
            if mark != lastMark {
                lastMark = mark
                let position = mark.tag >> 8, lastPosition = lastTag >> 8
                if position > lastPosition && position < positions {
                    lastTag = mark.tag
                    phaseChanges = 0
                    lastChange = Clock.now
                } else if position == lastPosition && mark.tag != lastTag && phaseChanges < Self.phasesPerRequest {
                    lastTag = mark.tag
                    phaseChanges += 1
                    lastChange = Clock.now
                }
            }
            if Clock.now - lastChange > (mark.count == 0 ? max(timeout, Self.startupAllowance) : timeout) {
                kill(pid, SIGKILL)
                _ = waitForExit()
                ended = .timedOut(timeout)
                throw .timedOut(timeout)
            }
        }
    }

    /// Reads what the child printed (once); returns the number of bytes read.
    @discardableResult
    private func drainOutput() -> Int {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        guard n > 0 else {
            if n == 0 && forwardOutput { flushLine() }
            return 0
        }
        if forwardOutput { forward(chunk[0..<n]) }
        captured += chunk[0..<n]
        if captured.count > 8192 { captured.removeFirst(captured.count - 8192) }
        return n
    }

    /// What the child printed and has not ended its line yet (forwarded once it does, or at the end).
    private var pendingLine: [UInt8] = []

    /// Forwards what a pack printed to the host's standard error, a line at a time, each line attributed
    /// ("formwork: pack output: ") and made terminal-safe (no escape sequence, control or bidi character
    /// reaches the terminal as it was written); a line longer than 4 KiB is cut there.
    private func forward(_ bytes: ArraySlice<UInt8>) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") || pendingLine.count >= 4096 {
                flushLine()
            } else {
                pendingLine.append(byte)
            }
        }
    }

    private func flushLine() {
        guard !pendingLine.isEmpty else { return }
        let text = TerminalText.safe(String(decoding: pendingLine, as: UTF8.self))
        pendingLine.removeAll(keepingCapacity: true)
        var line = Array("formwork: pack output: \(text)\n".utf8)[...]
        while !line.isEmpty {
            let written = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            line = line.dropFirst(written)
        }
    }

    /// The child's end, once its socket closed: how it ended.
    private func reap() -> ChildFailure {
        if let ended { return ended }
        // The socket closed: the child is exiting. Give it a moment, then make sure.
        let deadline = Clock.now + 2
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR {
                ended = .exited(-1)
                return .exited(-1)
            }
            if Clock.now > deadline { kill(pid, SIGKILL) }
            usleep(1000)
        }
        drainRemainingOutput()
        let outcome = Self.outcome(status)
        ended = outcome
        return outcome
    }

    private func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// Asks the child to finish (its socket closes), waits up to `grace` seconds, then kills it.
    /// Returns how it ended when that was not a clean exit 0.
    @discardableResult
    func terminate(grace: Double) -> ChildFailure? {
        if let ended { return ended == .exited(0) ? nil : ended }
        shutdown(socket, Int32(SHUT_WR))
        let deadline = Clock.now + grace
        var status: Int32 = 0
        // Woken when the child has ended (its pidfd) or prints, never spinning: once the child closed its output
        // (it is exiting) the pipe is at its end and would wake a poll on it at once, again and again, taking
        // a core from the children still working while this one's memory is torn down.
        let ending = fwsys_pidfd_open(pid)
        defer { if ending >= 0 { close(ending) } }
        var outputOpen = true
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { return nil }
            if Clock.now >= deadline {
                kill(pid, SIGKILL)
                _ = waitForExit()
                ended = .timedOut(grace)
                return ended
            }
            var fds = [
                pollfd(fd: ending, events: Int16(POLLIN), revents: 0),
                pollfd(fd: outputOpen ? output : -1, events: Int16(POLLIN), revents: 0),
            ]
            let wait = ending >= 0 ? Int32(clamping: Int(((deadline - Clock.now) * 1000).rounded(.up))) : 1
            if poll(&fds, 2, max(0, wait)) > 0, fds[1].revents != 0, drainOutput() == 0 { outputOpen = false }
        }
        drainRemainingOutput()
        let outcome = Self.outcome(status)
        ended = outcome
        return outcome == .exited(0) ? nil : outcome
    }

    /// After the child exited: what is still in the pipe (stdio buffers flushed at exit) is read too.
    private func drainRemainingOutput() {
        while true {
            var fd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 0) > 0, fd.revents & Int16(POLLIN) != 0, drainOutput() > 0 else { break }
        }
    }

    /// The last line the child printed on standard output, neutralised, or nil.
    var lastOutputLine: String? {
        let text = String(decoding: captured, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        return TerminalText.safe(String(line.prefix(200)))
    }
}

/// The child's side: frames over descriptor 3, progress in the page at descriptor 4.
struct ChildEndpoint {
    let socket: Int32 = 3
    let progress: UnsafeMutablePointer<UInt64>?

    init() {
        let mapped = mmap(nil, ChildChannel.progressBytes, PROT_READ | PROT_WRITE, MAP_SHARED, 4, 0)
        progress = mapped == MAP_FAILED ? nil : mapped?.bindMemory(to: UInt64.self, capacity: 2)
        close(4)
        mark(0)  // started: from now on the host counts the call timeout
    }

    /// Records that call `tag` begins (the host reads it when the child dies or hangs).
    func mark(_ tag: UInt64) {
        if let progress { ProgressPage.mark(progress, tag) }
    }

    /// The next frame, or nil at end of input (the host is done).
    func receive() -> (kind: UInt8, payload: [UInt8])? {
        guard let header = read(count: 5) else { return nil }
        var reader = WireReader(header)
        guard let kind = try? reader.u8(), let length = try? reader.u32() else { return nil }
        guard let payload = read(count: Int(length)) else { return nil }
        return (kind, payload)
    }

    private func read(count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress! + got, count - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            got += n
        }
        return out
    }

    func send(kind: UInt8, _ payload: WireWriter) -> Bool {
        var frame = WireWriter(capacity: payload.count + 5)
        frame.u8(kind)
        frame.u32(UInt32(payload.count))
        frame.raw(payload)
        return sendRaw(frame)
    }

    /// Writes bytes that already hold whole frames.
    func sendRaw(_ bytes: WireWriter) -> Bool { sendAll(socket, bytes) }
}

/// Writes all of `bytes` to `socket`, retrying after a signal; false when the other end is gone. With
/// `MSG_NOSIGNAL`: a closed peer never raises SIGPIPE. The corresponding C function is `send`.
private func sendAll(_ socket: Int32, _ bytes: WireWriter) -> Bool {
    var sent = 0
    while sent < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        sent += n
    }
    return true
}

/// Children let go of by `ChildChannel.release`: reaped when they have ended, killed when they are still
/// there two seconds after. The corresponding C functions are `waitpid` and `kill`.
private final class ReleasedChildren: @unchecked Sendable {
    private let lock = Lock()
    private var children: [(pid: pid_t, since: Double)] = []

    func add(_ pid: pid_t) { lock.run { children.append((pid, Clock.now)) } }

    func reap() {
        lock.run {
            guard !children.isEmpty else { return }
            let now = Clock.now
            children.removeAll { child in
                var status: Int32 = 0
                if waitpid(child.pid, &status, WNOHANG) != 0 { return true }  // reaped, or not ours any more
                guard now - child.since > 2 else { return false }
                kill(child.pid, SIGKILL)
                while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
                return true
            }
        }
    }
}
