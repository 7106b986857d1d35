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
