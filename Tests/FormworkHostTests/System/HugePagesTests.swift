import CFormworkSystem
import Foundation
import FormworkCore
import FormworkTestSupport
import Testing

/// The command's allocator settings (`ProcessTuning`), through the C functions it calls: huge pages advised for the
/// main heap's new address space, as the kernel's own accounts show (`/proc/PID/smaps`), and the fallback.
@Suite("System: the command's memory tuning")
struct HugePagesTests {
    /// The flags of the mapping that holds `address` (`VmFlags` in `/proc/self/smaps`: `hg` is "huge pages advised").
    static func flags(of address: UInt) throws -> [String] {
        let data = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps")).readDataToEndOfFile()
        var inside = false
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
                let start = UInt(line[..<dash], radix: 16), let end = UInt(line[line.index(after: dash)..<space], radix: 16)
            {
                inside = (start..<end).contains(address)
            } else if inside && line.hasPrefix("VmFlags:") {
                return line.dropFirst("VmFlags:".count).split(separator: " ").map(String.init)
            }
        }
        return []
    }

    /// Whether this process allocates with glibc's malloc (a sanitizer's allocator refuses `mallopt`), and the kernel
    /// has transparent huge pages. The settings are glibc's defaults: the test process keeps its behaviour.
    static var applies: Bool {
        FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")
            && fwsys_malloc_keep_freed(128 << 10, 128 << 10, 128 << 10) == 0
    }

    @Test("huge pages fall back: a span the heap cannot take is refused and leaves nothing advised")
    func fallback() throws {
        guard Self.applies else { return }  // a sanitizer build, or a kernel without huge pages: nothing to check
        let before = try Self.mappings(getpid()).filter { $0.flags.contains("hg") }.count
        // More than the function takes (1 GiB): refused before anything is changed.
        #expect(fwsys_main_heap_huge_pages(2 << 30, 128 << 10, 128 << 10) == -1)
        #expect(try Self.mappings(getpid()).filter { $0.flags.contains("hg") }.count == before)
        // The allocator still works as before.
        let block = malloc(1 << 20)
        #expect(block != nil)
        free(block)
    }

    @Test("the heaps' limit: a count of at least one is taken, none is refused")
    func arenas() {
        guard Self.applies else { return }  // a sanitizer's allocator takes no glibc settings
        // More heaps than glibc makes here by itself (eight a core): the test process keeps its behaviour.
        #expect(fwsys_malloc_arenas(Int32(64 * max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))) == 0)
        #expect(fwsys_malloc_arenas(0) == -1)
        #expect(fwsys_malloc_arenas(-3) == -1)
    }

    /// The mappings of process `pid` (`/proc/PID/smaps`): each one's name (`[heap]`, a path, or empty) and flags.
    static func mappings(_ pid: Int32) throws -> [(name: String, flags: [String])] {
        let data = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")).readDataToEndOfFile()
        var out: [(name: String, flags: [String])] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), UInt(first.split(separator: "-")[0], radix: 16) != nil {
                out.append((fields.count > 5 ? String(fields[5]) : "", []))
            } else if line.hasPrefix("VmFlags:"), !out.isEmpty {
                out[out.count - 1].flags = fields.dropFirst().map(String.init)
            }
        }
        return out
    }

    @Test(
        "a large form's render has its heaps advised for huge pages; a small form's, or with FORMWORK_HUGE_PAGES=0, has not",
        arguments: [(3000, nil), (3000, "0"), (10, nil)] as [(Int, String?)])
    func command(fields: Int, setting: String?) throws {
        guard Self.applies else { return }  // a sanitizer build (the command's allocator too), or no huge pages
        var items: [String] = []
        for n in 0..<fields {
            items.append(#"{"id":"f\#(n)","cell":"org.formwork.text-field","model":{"title":"Name \#(n)","value":"Value \#(n)"}}"#)
        }
        let document = try Scratch.file(
            "memory-policy/form-\(fields).json",
            contents: #"{"formwork":1,"id":"big","sections":[{"id":"s","fields":[\#(items.joined(separator: ",\n"))]}]}"#)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Build.formwork)
        process.arguments = ["render", document, "--format", "text"]
        var environment = ProcessInfo.processInfo.environment
        environment["FORMWORK_HUGE_PAGES"] = setting
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first bytes of output: the heaps were set up before the document was read. The rest of a large
        // render's output (more than a pipe holds) waits for this test to read it, so the process is still there.
        let first = output.fileHandleForReading.availableData
        let mappings = fields > 1000 ? try Self.mappings(process.processIdentifier) : []
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(first.count + rest.count > (fields > 1000 ? 100_000 : 100))
        guard fields > 1000 else { return }
        let advised = mappings.filter { $0.flags.contains("hg") }
        if setting == "0" {
            #expect(advised.isEmpty, "\(advised.map(\.name))")
        } else {
            // The main heap.
            #expect(advised.contains { $0.name == "[heap]" }, "\(advised.map(\.name))")
        }
    }
}
