import Foundation
import Testing
import FormworkCore
import FormworkTestSupport

/// The sandbox of the processes that run pack code (docs/isolation.md, "The sandbox"): a pack that tries every
/// escape the threat model names, from `render` and from its library's constructor, in the shared and the
/// per-pack cell host and in the scanner. Each attempt must be refused; the host must finish in time, show
/// nothing raw of what the pack printed, keep the user's files as they were, and leave no process behind.
@Suite("Isolation: the sandbox holds")
struct SandboxTests {
    /// A scratch home with a fake private key, a document beside it, and the escape pack built to aim at both.
    struct Setup {
        let home: String, secret: String, escaped: String, besideDocument: String, document: String, pack: String
        /// UNIX sockets outside the sandbox (a listening stream socket, a datagram socket), both non-blocking.
        let listening: UnixSocket, datagrams: UnixSocket
    }

    /// A UNIX socket bound at a path of its own in /tmp (a socket's path is at most 107 bytes), removed with it.
    final class UnixSocket {
        let fd: Int32, path: String

        init(_ type: Int32, name: String) throws {
            path = "/tmp/fw-\(name)-\(getpid()).sock"
            unlink(path)
            fd = socket(AF_UNIX, type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard fd >= 0, bound == 0, type != Int32(SOCK_STREAM.rawValue) || listen(fd, 4) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }

        /// Whether anything reached the socket from outside: a connection waiting, or a datagram.
        var reached: Bool {
            let accepted = accept(fd, nil, nil)
            if accepted >= 0 {
                close(accepted)
                return true
            }
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, 0) >= 0
        }

        deinit {
            close(fd)
            unlink(path)
        }
    }

    static func setup(_ name: String, constructor: Bool = false) throws -> Setup {
        let root = "\(Scratch.directory)/sandbox-\(name)-\(getpid())"
        let home = "\(root)/home"
        try FileManager.default.createDirectory(atPath: "\(home)/.ssh", withIntermediateDirectories: true)
        let secret = "\(home)/.ssh/id_ed25519"
        try "FAKE-PRIVATE-KEY-\(name)-8c1f\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let document = try Scratch.file(
            "sandbox-\(name)-\(getpid())/doc/form.yaml",
            contents: """
                formwork: 1
                id: escape
                sections: [{ id: s, fields: [{ id: probe, cell: com.escape.cell, model: { title: Probe } }] }]
                """)
        let besideDocument = "\(root)/doc/escaped.txt"
        let listening = try UnixSocket(Int32(SOCK_STREAM.rawValue), name: "\(name)-stream")
        let datagrams = try UnixSocket(Int32(SOCK_DGRAM.rawValue), name: "\(name)-dgram")
        var defines = [
            "ESCAPE_WRITE_PATH=\"\(besideDocument)\"", "ESCAPE_SECRET_PATH=\"\(secret)\"",
            "ESCAPE_UNIX_STREAM=\"\(listening.path)\"", "ESCAPE_UNIX_DGRAM=\"\(datagrams.path)\"",
        ]
        if constructor { defines.append("ESCAPE_CONSTRUCTOR") }
        let pack = try CCompiler.pack(
            "escape-\(name)", source: Source.fixture("escape_pack.c"), defines: defines, include: Source.include)
        return Setup(
            home: home, secret: secret, escaped: "\(home)/escaped.txt", besideDocument: besideDocument, document: document,
            pack: pack, listening: listening, datagrams: datagrams)
    }

    /// Processes whose command line names `marker` (a forked child keeps the host's command line) still running two
    /// seconds after the host ended (a child that is ending by itself takes a moment; a survivor stays).
    static func survivors(_ marker: String) -> [String] {
        var left = running(marker)
        let deadline = Date().addingTimeInterval(2)
        while !left.isEmpty && Date() < deadline {
            usleep(20_000)
            left = running(marker)
        }
        return left
    }

    static func running(_ marker: String) -> [String] {
        let own = "\(getpid())"
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid -> String? in
            guard pid.first?.isNumber == true, pid != own, let data = try? FileBytes.read("/proc/\(pid)/cmdline", limit: 1 << 16)
            else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            // A zombie has ended; only its parent's reaping is left.
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?.split(
                separator: " "
            ).first
            return line.contains(marker) && state != "Z" ? "\(pid): \(line)" : nil
        }
    }

    static let attempts = [
        "write-file", "read-secret", "socket-inet", "unix-connect", "unix-sendto", "pair-sendto", "io-uring", "kill-parent",
        "sigqueue-parent", "pidfd-parent",
        "prlimit-parent", "ptrace-parent", "clear-deathsig", "fork-daemon", "execve", "alloc-5g",
    ]

    @Test("render: every escape from a cell is refused, in the shared and the per-pack cell host", arguments: ["shared", "per-pack"])
    func render(isolation: String) throws {
        let s = try Self.setup("render-\(isolation)")
        let started = Date()
        let result = try run(
            Build.formwork, ["render", s.document, "--pack-path", s.pack, "--isolation", isolation],
            environment: ["PATH": "/usr/bin:/bin", "HOME": s.home, "XDG_CACHE_HOME": "\(s.home)/.cache"])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 0, "\(result.stderr)")
        for attempt in Self.attempts {
            #expect(result.stdout.contains("\(attempt): blocked"), "\(attempt) was not refused:\n\(result.stdout)")
        }
        // Its own namespace only: init and itself.
        #expect(result.stdout.contains("processes-seen: allowed 2"), "\(result.stdout)")
        #expect(!result.stdout.contains("FAKE-PRIVATE-KEY") && !result.stderr.contains("FAKE-PRIVATE-KEY"))
        #expect(!FileManager.default.fileExists(atPath: s.besideDocument) && !FileManager.default.fileExists(atPath: s.escaped))
        // Nothing reached a UNIX socket of the user's by its path (Landlock does not cover them; the filter does).
        #expect(!s.listening.reached && !s.datagrams.reached)
        // What the pack printed on either stream reaches the terminal neutralised and attributed.
        #expect(!result.stderr.contains("\u{1B}") && !result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{202E}"))
        #expect(result.stderr.contains("formwork: pack output: ␛]0;pwned"), "\(result.stderr)")
        #expect(Self.survivors(s.document).isEmpty, "\(Self.survivors(s.document))")
    }

    @Test("list: a constructor that forks a daemon while the scanner loads the pack leaves nothing behind")
    func constructor() throws {
        let s = try Self.setup("constructor", constructor: true)
        let started = Date()
        let result = try run(
            Build.formwork, ["list", "--pack-path", s.pack, "--no-cache"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": s.home, "XDG_CACHE_HOME": "\(s.home)/.cache"])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("com.escape.cell"), "\(result.stdout)")
        #expect(Self.survivors(s.pack).isEmpty && Self.survivors("escape-constructor").isEmpty)
    }

    @Test(
        "the channel is the host's: a thread forging progress cannot hold the deadline off; a huge frame is refused unread",
        arguments: ["ESCAPE_FORGE_PROGRESS", "ESCAPE_FLOOD_FRAME"])
    func channel(define: String) throws {
        let name = define == "ESCAPE_FORGE_PROGRESS" ? "forge" : "flood"
        let root = "\(Scratch.directory)/sandbox-\(name)-\(getpid())"
        let pack = try CCompiler.pack(
            "escape-\(name)", source: Source.fixture("escape_pack.c"), defines: [define], include: Source.include)
        let document = try Scratch.file(
            "sandbox-\(name)-\(getpid())/form.yaml",
            contents: "formwork: 1\nid: c\nsections: [{ id: s, fields: [{ id: probe, cell: com.escape.cell, model: { title: P } }] }]\n")
        let started = Date()
        let result = try run(
            Build.formwork, ["render", document, "--pack-path", pack, "--timeout", "0.5"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": root, "XDG_CACHE_HOME": "\(root)/cache"])
        let elapsed = Date().timeIntervalSince(started)
        // A request goes through at most 16 calls, each given the timeout: 8 s, and some slack for a loaded machine.
        #expect(elapsed < 15, "\(elapsed) s")
        #expect(result.status == 70, "\(result.stderr)")
        #expect(result.stderr.contains(define == "ESCAPE_FORGE_PROGRESS" ? "did not return" : "above the limit"), "\(result.stderr)")
        // The forger found the page and wrote it (a forger that cannot reach the page tests nothing).
        if define == "ESCAPE_FORGE_PROGRESS" { #expect(result.stderr.contains("forger: writing the progress page"), "\(result.stderr)") }
    }

    @Test("FORMWORK_SANDBOX=basic keeps the seccomp filter and the limits; the files are then the user's to protect")
    func basic() throws {
        let s = try Self.setup("basic")
        let result = try run(
            Build.formwork, ["render", s.document, "--pack-path", s.pack],
            environment: ["PATH": "/usr/bin:/bin", "HOME": s.home, "XDG_CACHE_HOME": "\(s.home)/.cache", "FORMWORK_SANDBOX": "basic"])
        #expect(result.status == 0, "\(result.stderr)")
        for attempt in ["socket-inet", "unix-sendto", "pair-sendto", "io-uring", "kill-parent", "fork-daemon", "execve", "clear-deathsig"] {
            #expect(result.stdout.contains("\(attempt): blocked"), "\(attempt):\n\(result.stdout)")
        }
        // No file-system layer: the read goes through (the whole sandbox is the default for this reason).
        #expect(result.stdout.contains("read-secret: allowed"), "\(result.stdout)")
    }
}
