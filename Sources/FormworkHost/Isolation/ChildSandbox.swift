import CFormworkSystem
import FormworkCore
import Glibc

/// The sandbox of every process that runs pack code (the scanner and the cell hosts; not `--isolation
/// in-process`): limits, new namespaces with the child as PID 1, Landlock (files read only beneath the readable
/// paths, nothing written), and a seccomp allow-list (`fwsys_sandbox_enter`; docs/isolation.md, "The sandbox").
///
/// The host decides what a child may read before it starts it (`readablePaths(packLocations:)`): the libraries
/// this process has mapped and the system's library directories, the pack locations and the real files their
/// packs link to, and a few files the C library reads. A forked child inherits the decision (`pending`); a
/// started one reads it from `FORMWORK_SANDBOX_READ`.
package enum ChildSandbox {
    /// The layers asked for: all of them, unless `FORMWORK_SANDBOX` says `off` (none: for debugging a pack under
    /// a debugger) or `basic` (limits and the seccomp filter, as before namespaces and Landlock).
    static var layers: Int32 {
        if let pendingLayers { return pendingLayers }
        switch getenv("FORMWORK_SANDBOX").map({ String(cString: $0) }) {
        case "off": return 0
        case "basic": return basic
        case let text?: return Int32(text).map { $0 & Int32(FWSYS_SANDBOX_ALL) } ?? Int32(FWSYS_SANDBOX_ALL)
        case nil: return Int32(FWSYS_SANDBOX_ALL)
        }
    }

    /// Limits and the seccomp filter alone.
    package static let basic = Int32(FWSYS_SANDBOX_SECCOMP | FWSYS_SANDBOX_LIMITS)
    /// The seccomp filter alone (no file-size limit: for fixtures that record their calls in a file).
    package static let seccompOnly = Int32(FWSYS_SANDBOX_SECCOMP)

    /// The layers the launcher of the next forked child asked for (`IsolationLauncher.sandboxLayers`).
    nonisolated(unsafe) static var pendingLayers: Int32?

    /// What the host decided for the next child it forks (set just before the fork; the child reads it).
    /// A global because the forked child runs `ChildMode.run`, which takes no arguments.
    nonisolated(unsafe) static var pending: [String]?

    /// The environment variable that carries the readable paths to a child the host starts (not forks).
    static let variable = "FORMWORK_SANDBOX_READ"

    /// The layers in place in this child (after `enter`), for its reports.
    nonisolated(unsafe) package private(set) static var applied: Int32 = 0

    /// Encloses this child before it loads any pack; returns the layers in place.
    @discardableResult
    static func enter() -> Int32 {
        var paths = pending ?? []
        if pending == nil, let text = getenv(variable) {
            paths = String(cString: text).split(separator: "\u{1F}").map(String.init)
        }
        scrubEnvironment()
        let c = paths.map { strdup($0) } + [nil]
        defer { for p in c { free(p) } }
        applied = c.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: c.count) {
                fwsys_sandbox_enter($0, layers)
            }
        }
        return applied
    }

    /// Pack code sees none of the host's environment (tokens, keys, paths) but the locale, the time zone and
    /// Formwork's and the sanitizers' own settings.
    static func scrubEnvironment() {
        var names: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            let text = String(cString: variable)
            let name = String(text.prefix { $0 != "=" })
            let kept =
                name == "LANG" || name == "TZ" || name.hasPrefix("LC_") || name.hasPrefix("FORMWORK_")
                || name.hasSuffix("SAN_OPTIONS") || name == "SWIFT_BACKTRACE"
            if !kept { names.append(name) }
            entry += 1
        }
        for name in names { unsetenv(name) }
    }

    /// The paths beneath which a child may read: the directories of every file this process has mapped (its
    /// executable, the Swift runtime, libffi, libyaml, the C library), the system's library directories, the
    /// dynamic loader's configuration, the time zone, the processor list, a few devices, `/proc` (the child's
    /// own, which shows only its namespace), and the pack locations: each location itself, its real path, and
    /// the real path of each `*.so` in a location that is a directory (a pack that is a link to elsewhere).
    package static func readablePaths(packLocations: [String]) -> [String] {
        var paths: [String] = [
            "/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/lib32", "/usr/local/lib", "/usr/share/zoneinfo",
            "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/nsswitch.conf",
            "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/proc", "/sys/devices/system/cpu",
        ]
        paths += mappedDirectories()
        for location in packLocations {
            if location.hasPrefix("/") { paths.append(location) }
            if let real = FileSystem.realPath(location), real != location { paths.append(real) }
            guard FileSystem.kind(of: location) == .directory, let directory = opendir(location) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                guard entry.pointee.d_type == UInt8(DT_LNK) else { continue }
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.hasSuffix(".so"), let real = FileSystem.realPath("\(location)/\(name)") else { continue }
                paths.append(real)
            }
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }

    /// The directories of the files this process has mapped (`/proc/self/maps`).
    static func mappedDirectories() -> [String] {
        guard let bytes = try? FileBytes.read("/proc/self/maps", limit: 1 << 24) else { return [] }
        return mappedDirectories(maps: bytes)
    }

    /// The directories named in `maps` (the text of a `/proc/PID/maps`), each once, in the order first named: on
    /// each line, from its first `/` to its last (a mapping's path is the line's last column).
    static func mappedDirectories(maps bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var seen = Set<Substring>()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/"), let last = line.lastIndex(of: "/"), slash < last else { continue }
            let directory = line[slash..<last]
            if seen.insert(directory).inserted { out.append(String(directory)) }
        }
        return out
    }

    /// A sandbox layer, as `formwork paths` names it.
    package struct Layer: Sendable {
        package let name: String
        /// What a pack can do when the kernel refuses the layer.
        package let withoutIt: String
        let bit: Int32
    }

    /// Every layer a full sandbox asks for, in the order it is entered.
    package static let allLayers: [Layer] = [
        Layer(name: "limits", withoutIt: "a pack can use any amount of memory and CPU time", bit: Int32(FWSYS_SANDBOX_LIMITS)),
        Layer(name: "user namespace", withoutIt: "no PID, network or mount namespace either", bit: Int32(FWSYS_SANDBOX_USER_NS)),
        Layer(name: "PID namespace", withoutIt: "a process a pack leaves can outlive the command", bit: Int32(FWSYS_SANDBOX_PID_NS)),
        Layer(
            name: "network namespace", withoutIt: "only the seccomp filter keeps packs off the network", bit: Int32(FWSYS_SANDBOX_NET_NS)),
        Layer(name: "mount namespace", withoutIt: "no /proc of its own", bit: Int32(FWSYS_SANDBOX_MOUNT_NS)),
        Layer(name: "own /proc", withoutIt: "a pack sees every process of the user's", bit: Int32(FWSYS_SANDBOX_PROC)),
        Layer(name: "no new privileges", withoutIt: "no seccomp filter or Landlock either", bit: Int32(FWSYS_SANDBOX_NO_NEW_PRIVS)),
        Layer(name: "Landlock", withoutIt: "a pack can read and write any file the user can", bit: Int32(FWSYS_SANDBOX_LANDLOCK)),
        Layer(
            name: "Landlock scopes",
            withoutIt: "a pack can signal processes and reach abstract sockets outside (the seccomp filter still refuses most)",
            bit: Int32(FWSYS_SANDBOX_LANDLOCK_SCOPE)),
        Layer(name: "seccomp allow-list", withoutIt: "a pack can make any system call", bit: Int32(FWSYS_SANDBOX_SECCOMP)),
    ]

    /// The layers a child started by `launcher` has in place on this machine: a `probe` child enters the sandbox
    /// and answers with them. Nil when no child could be started or it did not answer in time.
    package static func probe(_ launcher: IsolationLauncher) -> (applied: [Layer], missing: [Layer])? {
        guard let child = try? ChildChannel.start(launcher, mode: "probe", mayFork: false) else { return nil }
        defer { _ = child.terminate(grace: 1) }
        guard let (kind, payload) = try? child.receive(timeout: launcher.timeout), kind == 1 else { return nil }
        var reader = payload
        guard let bits = try? reader.u32() else { return nil }
        let applied = Int32(truncatingIfNeeded: bits)
        return (allLayers.filter { applied & $0.bit != 0 }, allLayers.filter { applied & $0.bit == 0 })
    }

    /// The `probe` child: enters the sandbox and sends the layers in place.
    static func probeMain() -> Int32 {
        let endpoint = ChildEndpoint()
        var w = WireWriter()
        w.u32(UInt32(truncatingIfNeeded: enter()))
        endpoint.mark(1)
        return endpoint.send(kind: 1, w) ? 0 : 3
    }
}
