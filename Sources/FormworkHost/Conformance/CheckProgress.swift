import FormworkCore
import Glibc

/// The step a check child is in, announced on its standard output ("step: render [defaults]")
/// so that the parent can say where a crash or a hang happened.
public enum CheckProgress {
    /// Set by the child process (`formwork check --child`); off in process. A global because the checks that
    /// announce their steps are static and run in a process of their own; set once, before any check runs.
    nonisolated(unsafe) public static var announces = false

    static func step(_ name: String) {
        guard announces else { return }
        PackOutput.writeToStandardOutput("step: \(name)\n")
    }

    /// " in step 'NAME'" for the last step a child announced, or "".
    static func last(in output: [UInt8]) -> String {
        let text = String(decoding: output, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("step: ") }) else { return "" }
        return " in step '\(line.dropFirst(6))'"
    }
}
