import FormworkCore

/// Runs the conformance checks of packs, each in a child process with a timeout
/// (a crash or a hang becomes a failed check), or in this process for debugging.
public struct CheckRunner: Sendable {
    /// How to start the child that runs one check: an executable, and its arguments
    /// for a check of a pack. The child runs `Conformance.run(ConformanceCheck(check), pack:)`
    /// and prints the result's JSON as its last line of standard output.
    public struct ChildLauncher: Sendable {
        public let executable: String
        public let arguments: @Sendable (_ check: String, _ pack: String) -> [String]

        public init(executable: String, arguments: @escaping @Sendable (_ check: String, _ pack: String) -> [String]) {
            self.executable = executable
            self.arguments = arguments
        }
    }

    public let launcher: ChildLauncher?
    public let timeout: Double

    /// Checks in child processes started by `launcher`; nil runs them in this process.
    public init(launcher: ChildLauncher?, timeout: Double = 20) {
        self.launcher = launcher
        self.timeout = timeout
    }

    /// The running executable (`/proc/self/exe`).
    public static var currentExecutable: String { FileSystem.realPath("/proc/self/exe") ?? CommandLine.arguments[0] }

    /// `load` first; when it passes, `exports`, `lifecycle` and one check per cell type.
    public func run(pack: String) -> [CheckResult] {
        let load = runOne(.load, pack: pack)
        guard load.passed else { return [load] }
        var results = [load, runOne(.exports, pack: pack), runOne(.lifecycle, pack: pack)]
        for cell in load.cells { results.append(runOne(.cell(cell), pack: pack)) }
        if load.offersChoices { results.append(runOne(.choices, pack: pack)) }
        return results
    }

    func runOne(_ check: ConformanceCheck, pack: String) -> CheckResult {
        guard let launcher else { return Conformance.run(check, pack: pack) }
        let name = check.description
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(launcher.executable, launcher.arguments(name, pack), timeout: timeout) } catch {
            return CheckResult(check: name, passed: false, message: "cannot start the checker process \(launcher.executable): \(error)")
        }
        switch result.outcome {
        case .timedOut:
            return CheckResult(
                check: name, passed: false,
                message:
                    "did not finish within \(NumberText.format(timeout)) s (a hang?)\(CheckProgress.last(in: result.output)); rerun with --in-process under a debugger to see where"
            )
        case .signaled(let signal):
            return CheckResult(
                check: name, passed: false,
                message:
                    "crashed with \(ChildProcess.signalName(signal)) (signal \(signal))\(CheckProgress.last(in: result.output)); rerun with --in-process under a debugger to see where"
            )
        case .exited(let status):
            let text = String(decoding: result.output, as: UTF8.self)
            guard let line = text.split(separator: "\n").last, let json = JSON.parse(String(line)),
                let parsed = CheckResult(json: json)
            else {
                return CheckResult(check: name, passed: false, message: "the checker process exited with status \(status) without a result")
            }
            return parsed
        }
    }
}
