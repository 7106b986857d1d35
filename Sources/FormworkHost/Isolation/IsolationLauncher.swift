import CSystem
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

    public init(executable: String, arguments: [String] = ["__child"], timeout: Double = 10, forksItself: Bool = false) {
        self.executable = executable
        self.arguments = arguments
        self.timeout = timeout
        self.forksItself = forksItself
    }

    /// The running executable (`/proc/self/exe`) with the command's hidden `__child` mode; its children are
    /// copies of this process when it runs one thread (`forksItself`).
    public static func currentExecutable(timeout: Double = 10) -> IsolationLauncher {
        IsolationLauncher(
            executable: FileSystem.realPath("/proc/self/exe") ?? CommandLine.arguments[0], timeout: timeout, forksItself: true)
    }
}
