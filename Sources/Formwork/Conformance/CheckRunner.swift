import Foundation

/// Runs the conformance checks of packs, each in a child process (`formwork check
/// --child CHECK PACK`) with a timeout, or in this process for debugging.
public struct CheckRunner: Sendable {
    public var executable: String
    public var timeout: Double
    public var inProcess: Bool

    public init(executable: String, timeout: Double = 20, inProcess: Bool = false) {
        self.executable = executable
        self.timeout = timeout
        self.inProcess = inProcess
    }

    /// The running executable (`/proc/self/exe`).
    public static var currentExecutable: String { FileSystem.realPath("/proc/self/exe") ?? CommandLine.arguments[0] }

    /// `load` first; when it passes, `exports`, `lifecycle` and one check per cell type.
    public func run(pack: String) -> [CheckResult] {
        let load = runOne(.load, pack: pack)
        guard load.passed else { return [load] }
        var results = [load, runOne(.exports, pack: pack), runOne(.lifecycle, pack: pack)]
        for cell in load.cells { results.append(runOne(.cell(cell), pack: pack)) }
        return results
    }

    func runOne(_ check: ConformanceCheck, pack: String) -> CheckResult {
        if inProcess { return Conformance.run(check, pack: pack) }
        let name = check.description
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["check", "--child", name, pack]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch {
            return CheckResult(check: name, passed: false, message: "cannot start the checker process \(executable): \(error.localizedDescription)")
        }
        nonisolated(unsafe) var data = Data()
        let reader = DispatchGroup()
        reader.enter()
        DispatchQueue.global().async {
            data = output.fileHandleForReading.readDataToEndOfFile()
            reader.leave()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            reader.wait()
            return CheckResult(check: name, passed: false,
                               message: "did not finish within \(Int(timeout)) s (a hang?); rerun with --in-process under a debugger to see where")
        }
        reader.wait()
        if process.terminationReason == .uncaughtSignal {
            let signal = process.terminationStatus
            let name2 = [4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV"][Int(signal)] ?? "signal \(signal)"
            return CheckResult(check: name, passed: false,
                               message: "crashed with \(name2) (signal \(signal)); rerun with --in-process under a debugger to see where")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").last, let json = try? JSONParser.parse(String(line)).json,
              let result = CheckResult(json: json) else {
            return CheckResult(check: name, passed: false, message: "the checker process exited with status \(process.terminationStatus) without a result")
        }
        return result
    }

    // MARK: reports

    public static func text(_ results: [(pack: String, results: [CheckResult])]) -> String {
        var out = ""
        for (pack, checks) in results {
            out += "\(pack)\n"
            let width = min(40, checks.map(\.check.count).max() ?? 0)
            for c in checks {
                out += "  \(c.passed ? "✓" : "✗") \(c.check.padding(toLength: width, withPad: " ", startingAt: 0))  \(c.message)\n"
            }
        }
        let all = results.flatMap(\.results)
        let failed = all.filter { !$0.passed }.count
        out += "\(results.count) pack\(results.count == 1 ? "" : "s"): \(all.count - failed) passed, \(failed) failed\n"
        return out
    }

    public static func json(_ results: [(pack: String, results: [CheckResult])]) -> JSON {
        let all = results.flatMap(\.results)
        return .object([
            ("packs", .array(results.map { pack, checks in
                .object([("path", .string(pack)), ("passed", .bool(checks.allSatisfy(\.passed))), ("checks", .array(checks.map(\.json)))])
            })),
            ("passed", .integer(Int64(all.filter(\.passed).count))),
            ("failed", .integer(Int64(all.filter { !$0.passed }.count))),
        ])
    }
}
