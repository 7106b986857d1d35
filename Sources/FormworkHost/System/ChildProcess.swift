import CFormworkSystem
import FormworkCore
import Glibc

/// A child process started with `posix_spawn`, its standard output read through a
/// pipe, killed when it outlives its timeout. No Foundation `Process`: nothing is
/// left behind (LeakSanitizer runs clean) and nothing is inherited but the three
/// standard descriptors.
struct ChildProcess {
    /// How a child ended.
    enum Outcome: Equatable {
        case exited(Int32)
        case signaled(Int32)
        case timedOut
    }

    struct Result {
        let outcome: Outcome
        /// Everything it wrote on standard output (bounded by `outputLimit`).
        let output: [UInt8]
    }

    /// Starts `executable` with `arguments`; standard input and error are `/dev/null`
    /// unless `inheritStandardError`. Waits at most `timeout` seconds.
    ///
    /// The corresponding C functions are `posix_spawn`, `poll`, `read`, `kill` and `waitpid`.
    static func run(
        _ executable: String, _ arguments: [String], timeout: Double, inheritStandardError: Bool = false,
        outputLimit: Int = 16 << 20
    ) throws(SystemError) -> Result {
        var fds: [Int32] = [0, 0]
        guard fwsys_pipe_cloexec(&fds) == 0 else { throw SystemError.errno("pipe2") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        if !inheritStandardError { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        // Nothing else of this process's (another thread's pipe without O_CLOEXEC) reaches the child.
        _ = fwsys_spawn_close_from(&actions, 3)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        // The child inherits the environment, except that the Swift runtime's crash backtracer is off:
        // a pack that crashes the child should end it with its signal at once, which is what is reported.
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var entry = environ
        while let variable = entry.pointee {
            if strncmp(variable, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(variable)) }
            entry += 1
        }
        environment.append(nil)
        defer { for e in environment { free(e) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environment)
        close(writeEnd)
        guard status == 0 else { throw SystemError(call: "posix_spawn \(executable)", code: status) }

        var output: [UInt8] = []
        let deadline = Clock.now + timeout
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline - Clock.now
            if left <= 0 { timedOut = true; break }
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 3600) * 1000) + 1)
            if ready < 0 { if errno == EINTR { continue }; break }
            if ready == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }  // end of output: the child closed it (usually by exiting)
            if output.count < outputLimit { output += buffer[0..<min(n, outputLimit - output.count)] }
        }
        if timedOut { kill(pid, SIGKILL) }
        var waitStatus: Int32 = 0
        while true {
            // The child may keep running after closing its output: wait within what is left of the timeout.
            let r = waitpid(pid, &waitStatus, timedOut ? 0 : WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { break }
            if r == 0 {
                if Clock.now >= deadline { timedOut = true; kill(pid, SIGKILL); continue }
                usleep(1000)
            }
        }
        if timedOut { return Result(outcome: .timedOut, output: output) }
        let signal = waitStatus & 0x7F
        if signal != 0 { return Result(outcome: .signaled(signal), output: output) }
        return Result(outcome: .exited((waitStatus >> 8) & 0xFF), output: output)
    }

    /// The usual name of a signal number ("SIGSEGV"), or "signal N".
    static func signalName(_ signal: Int32) -> String {
        [
            1: "SIGHUP", 2: "SIGINT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
            11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 31: "SIGSYS",
        ][Int(signal)] ?? "signal \(signal)"
    }
}

/// Monotonic seconds. The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
enum Clock {
    static var now: Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// A failed system call: its name and `errno`; the text is made when printed.
struct SystemError: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    static func errno(_ call: String) -> SystemError { SystemError(call: call, code: Glibc.errno) }

    var description: String { "\(call): \(String(cString: strerror(code)))" }
}
