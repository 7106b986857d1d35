import CFormworkSystem
import FormworkCore
import Glibc

/// Where the host runs pack code that it has not vetted: how to start its own
/// executable in the hidden child modes, and how long one call may take.
///
/// The `formwork` command starts itself (`/proc/self/exe`) with `arguments + ["scan"]`
/// or `arguments + ["cells"]`; an embedding application points `executable` at an
/// installed `formwork` (the child modes are part of its contract, see docs/isolation.md).
public struct IsolationLauncher: Sendable {
    public var executable: String
    /// Arguments before the mode (`scan` or `cells`); the command uses `["__child"]`.
    public var arguments: [String]
    /// Seconds one call into a pack (reading its entry, `create`, `configure`, `render`, ...) may take.
    public var timeout: Double
    /// Whether a child may be a copy of this process (`fork` without `exec`) that runs `ChildMode.run`,
    /// when `executable` is this process's own image: done only while the process runs one thread and no
    /// sanitizer, otherwise `executable` is started. Saves starting the executable again for each child.
    ///
    /// A copy holds what this process held when it was made, and the packs loaded in it can read that
    /// memory: leave this false in a process that holds what packs must not see. The `formwork` command
    /// makes its copies before it reads a document (the scanner, `render`'s cell hosts) or for the shared
    /// cell host, which is sent every field anyway; a cell host of the per-pack mode is never a copy.
    public var forksItself: Bool
    /// Where the packs a child may load live: the child can read beneath these paths (and the libraries the
    /// process uses), nothing else (docs/isolation.md, "The sandbox"). nil: the standard locations
    /// (`FORMWORK_PACK_PATH`, the data directory, the installed and the executable's directories). A pack outside
    /// them fails to load in a child, with a message that says so.
    public var packLocations: [String]?
    /// The sandbox layers of its children (`FWSYS_SANDBOX_*`); nil: all, or what `FORMWORK_SANDBOX` says. For tests
    /// whose fixture packs record their calls in files, which the whole sandbox forbids.
    package var sandboxLayers: Int32?

    public init(
        executable: String, arguments: [String] = ["__child"], timeout: Double = 10, forksItself: Bool = false,
        packLocations: [String]? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.timeout = timeout
        self.forksItself = forksItself
        self.packLocations = packLocations
    }

    /// What a child of this launcher may read (`ChildSandbox.readablePaths`).
    var readablePaths: [String] {
        let locations =
            packLocations
            ?? Discovery.locations(
                packPaths: [],
                environment: ["FORMWORK_PACK_PATH", "XDG_DATA_HOME", "HOME"].reduce(into: [:]) { out, key in
                    if let value = getenv(key) { out[key] = String(cString: value) }
                }, executableDirectory: Discovery.executableDirectory
            ).map(\.path)
        return ChildSandbox.readablePaths(packLocations: locations)
    }

    /// The running executable (`/proc/self/exe`) with the command's hidden `__child` mode; its children are
    /// copies of this process when it runs one thread (`forksItself`).
    /// `packLocations`: as `IsolationLauncher.packLocations`.
    public static func currentExecutable(timeout: Double = 10, packLocations: [String]? = nil) -> IsolationLauncher {
        IsolationLauncher(
            executable: FileSystem.realPath("/proc/self/exe") ?? CommandLine.arguments[0], timeout: timeout, forksItself: true,
            packLocations: packLocations)
    }
}
