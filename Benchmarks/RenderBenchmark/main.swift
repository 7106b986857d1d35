// Renders a generated 100,000-field form to text and prints time per field and
// memory, against a baseline run in the same process that writes the same bytes
// without crossing the ABI (it renders an already-recorded view tree).
//
//     swift build -c release && .build/release/formwork-bench [FIELDS]
import Foundation
import Formwork

func residentMiB() -> Double {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = Double(statm.split(separator: " ")[1]) ?? 0
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

func peakMiB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let registry = Registry.discover(environment: [:])
guard registry.contains("org.formwork.text-field"), registry.contains("org.formwork.c.rating") else {
    print("formwork-bench: the standard and C packs must be built beside this executable (swift build -c release)")
    exit(69)
}

// A realistic mix: Swift cells through the generic path, C cells through libffi.
var json = "{\"formwork\":1,\"id\":\"bench\",\"title\":\"Benchmark\",\"sections\":["
let perSection = 1000
for s in 0..<(count + perSection - 1) / perSection {
    json += (s > 0 ? "," : "") + "{\"id\":\"s\(s)\",\"header\":\"Section \(s)\",\"fields\":["
    for i in 0..<min(perSection, count - s * perSection) {
        let n = s * perSection + i
        let field: String =
            switch n % 5 {
            case 0:
                "{\"id\":\"f\(n)\",\"cell\":\"org.formwork.text-field\",\"model\":{\"title\":\"Name \(n)\",\"value\":\"Value \(n)\",\"hint\":\"Hint for field \(n)\"}}"
            case 1: "{\"id\":\"f\(n)\",\"cell\":\"org.formwork.toggle\",\"model\":{\"title\":\"Option \(n)\",\"value\":\(n % 2 == 0)}}"
            case 2:
                "{\"id\":\"f\(n)\",\"cell\":\"org.formwork.c.rating\",\"model\":{\"title\":\"Rating \(n)\",\"value\":\(n % 6),\"labels\":[\"a\",\"b\",\"c\",\"d\",\"e\"]}}"
            case 3:
                "{\"id\":\"f\(n)\",\"cell\":\"org.formwork.picker\",\"model\":{\"title\":\"Pick \(n)\",\"choices\":[\"One\",\"Two\",\"Three\"],\"value\":\"Two\"}}"
            default:
                "{\"id\":\"f\(n)\",\"cell\":\"org.formwork.c.money\",\"model\":{\"title\":\"Amount \(n)\",\"amount\":\(n).5,\"currency\":\"USD\"}}"
            }
        json += (i > 0 ? "," : "") + field
    }
    json += "]}"
}
json += "]}"

let baseRSS = residentMiB()
let (form, decodeSeconds) = try time { try FormDecoder.decode(text: json, json: true, registry: registry) }
let afterDecode = residentMiB()

// ABI: configure and render every field through the C ABI, record the tree, write text.
let cells = InProcessCells(registry: registry)
let runtime = FormRuntime(driver: cells)
let (tree, abiTreeSeconds) = try time { try runtime.render(form) }
let (abiText, abiTextSeconds) = time { Renderer.render(tree, as: .text, width: 80) }
let afterABI = residentMiB()
let abiPeak = peakMiB()

// Baseline: the same bytes from the same view tree, with no call crossing the ABI.
let (copy, copySeconds) = time { ViewTree(formID: tree.formID, title: tree.title, sections: tree.sections.map { $0 }) }
let (baselineText, baselineTextSeconds) = time { Renderer.render(copy, as: .text, width: 80) }
precondition(baselineText == abiText, "baseline and ABI output differ")

let abiSeconds = abiTreeSeconds + abiTextSeconds
let baselineSeconds = copySeconds + baselineTextSeconds
let perField = { (s: Double) in String(format: "%.2f µs", s / Double(count) * 1e6) }
print("formwork-bench: \(count) fields, \(abiText.utf8.count) bytes of text")
print(String(format: "  decode + validate      %8.3f s   %@/field", decodeSeconds, perField(decodeSeconds)))
print(String(format: "  ABI render (configure + render via canvas)  %8.3f s   %@/field", abiTreeSeconds, perField(abiTreeSeconds)))
print(String(format: "  text layout            %8.3f s", abiTextSeconds))
print(String(format: "  ABI total              %8.3f s   %@/field", abiSeconds, perField(abiSeconds)))
print(String(format: "  baseline (no ABI)      %8.3f s   %@/field", baselineSeconds, perField(baselineSeconds)))
print(String(format: "  ratio ABI / baseline   %8.2f x", abiSeconds / baselineSeconds))
print("  cell instances created: \(cells.instancesCreated) (pool), peak live: \(cells.peakLiveInstances)")
print(
    String(
        format: "  memory: RSS %.1f MiB at start, %.1f MiB after decode, %.1f MiB after ABI render; peak %.1f MiB",
        baseRSS, afterDecode, afterABI, abiPeak))

// Isolation (docs/isolation.md): the same form in the shared cell-host child, side by side with in process.
let executableDirectory = Discovery.executableDirectory ?? "."
let formworkExecutable = "\(executableDirectory)/formwork"
if FileManager.default.isExecutableFile(atPath: formworkExecutable) {
    let launcher = IsolationLauncher(executable: formworkExecutable, timeout: 60)
    let inProcessRuntime = FormRuntime(driver: InProcessCells(registry: registry))
    let (inProcessTree, inProcessSeconds) = try time { try inProcessRuntime.render(form) }
    let isolatedDriver = IsolatedCells(launcher: launcher, mode: .shared)
    let isolatedRuntime = FormRuntime(driver: isolatedDriver)
    // The first batch starts the child and loads the packs there; measure a second, warm one too.
    let (isolatedTree, isolatedSeconds) = try time { try isolatedRuntime.render(form) }
    let (_, isolatedWarmSeconds) = try time { try isolatedRuntime.render(form) }
    isolatedDriver.finish()
    precondition(isolatedTree == inProcessTree, "isolated and in-process trees differ")
    print("isolation: \(count) fields, configure + render")
    print(String(format: "  in process             %8.3f s   %@/field", inProcessSeconds, perField(inProcessSeconds)))
    print(String(format: "  shared child (cold)    %8.3f s   %@/field", isolatedSeconds, perField(isolatedSeconds)))
    print(String(format: "  shared child (warm)    %8.3f s   %@/field", isolatedWarmSeconds, perField(isolatedWarmSeconds)))
    print(
        String(
            format: "  ratio child / in process  %5.2f x cold, %5.2f x warm", isolatedSeconds / inProcessSeconds,
            isolatedWarmSeconds / inProcessSeconds))
    listBenchmark(formwork: formworkExecutable)
} else {
    print("isolation: skipped (no formwork executable beside this benchmark)")
}

/// A warm `formwork list` of 200 packs against a C program that dlopens the same 200 files and walks their descriptors.
func listBenchmark(formwork: String) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let work = NSTemporaryDirectory() + "formwork-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: work) }
    let packs = "\(work)/packs"
    try? FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
    chmod(work, 0o755)
    chmod(packs, 0o755)
    let cc = ProcessInfo.processInfo.environment["CC"] ?? "/usr/bin/cc"
    let include = "\(root)/Sources/CFormwork/include"
    func shell(_ arguments: [String], environment: [String: String]? = nil) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
    guard
        shell([
            cc, "-std=c11", "-O2", "-shared", "-fPIC", "-fvisibility=hidden", "-I", include, "\(root)/Examples/Packs/phone-c/phone.c", "-o",
            "\(work)/phone.so",
        ]) == 0,
        shell([cc, "-O2", "-I", include, "\(root)/Benchmarks/Baselines/list_packs.c", "-o", "\(work)/list_packs", "-ldl"]) == 0
    else {
        print("list: skipped (cc could not build the pack or the C baseline)")
        return
    }
    for i in 0..<200 { try? FileManager.default.copyItem(atPath: "\(work)/phone.so", toPath: "\(packs)/libphone\(i).so") }
    let environment = ["PATH": "/usr/bin:/bin", "HOME": work, "XDG_CACHE_HOME": "\(work)/cache"]
    _ = shell([formwork, "list", "--pack-path", packs], environment: environment)  // warms the cache
    /// posix_spawn and waitpid: Foundation's Process polls, which would swamp a 10 ms process.
    func spawn(_ arguments: [String]) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { return }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
    func median(_ arguments: [String]) -> Double {
        var samples: [Double] = []
        for _ in 0..<21 { samples.append(time { spawn(arguments) }.1) }
        return samples.sorted()[samples.count / 2]
    }
    let c = median(["\(work)/list_packs", packs])
    let warm = median([formwork, "list", "--pack-path", packs])
    let cold = median([formwork, "list", "--pack-path", packs, "--no-cache"])
    let startup = median([formwork, "--version"])
    let inProcess = median([formwork, "list", "--pack-path", packs, "--isolation", "in-process"])
    print("list: 200 packs, median of 21 runs, each a new process")
    print(String(format: "  C baseline (dlopen + walk)      %7.2f ms", c * 1000))
    print(String(format: "  formwork list, warm cache       %7.2f ms   %5.2f x the C baseline", warm * 1000, warm / c))
    print(String(format: "  formwork list, no cache (scan)  %7.2f ms", cold * 1000))
    print(String(format: "  formwork list, in process       %7.2f ms", inProcess * 1000))
    print(String(format: "  formwork --version (start-up)   %7.2f ms   (the floor: the Swift runtime)", startup * 1000))
    var scanTimes: [Double] = []
    for _ in 0..<21 {
        scanTimes.append(
            time {
                _ = Registry(
                    locations: [SearchLocation(path: packs, origin: .option)],
                    scan: ScanOptions(
                        launcher: IsolationLauncher(executable: formwork), cacheFile: "\(work)/cache/formwork/registry-v1.bin"))
            }.1)
    }
    let library = scanTimes.sorted()[10]
    print(String(format: "  Registry from the warm cache, in this process: %.2f ms   %5.2f x the C baseline", library * 1000, library / c))
}
