import Foundation
import Testing
import FormworkTestSupport

/// formwork.h is for C and C++ authors: it must compile cleanly in every mode it
/// promises, and the C++17 example pack must build with strict flags and pass `check`.
@Suite("formwork.h in C and C++")
struct HeaderLanguagesTests {
    static let modes: [(String, [String])] = [
        ("/usr/bin/gcc", ["-x", "c", "-std=c99"]), ("/usr/bin/gcc", ["-x", "c", "-std=c11"]),
        ("/usr/bin/g++", ["-x", "c++", "-std=c++17"]), ("/usr/bin/g++", ["-x", "c++", "-std=c++20"]),
        ("clang", ["-x", "c", "-std=c99"]), ("clang", ["-x", "c", "-std=c11"]), ("clang++", ["-x", "c++", "-std=c++17"]),
        ("clang++", ["-x", "c++", "-std=c++20"]),
    ]

    @Test(
        "the header alone compiles as C99, C11, C++17 and C++20 under -pedantic -Wall -Wextra -Werror, for every target minor",
        arguments: modes.indices, [0, 1, 2])
    func compiles(index: Int, target: Int) throws {
        let (compiler, flags) = Self.modes[index]
        let path =
            compiler.hasPrefix("/")
            ? compiler
            : ["/usr/bin/\(compiler)", "/opt/swift/usr/bin/\(compiler)"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            } ?? compiler
        let source = try Scratch.file(
            "header/use.c",
            contents: """
                #include "formwork.h"
                static int check(void) { return FW_ALIGNOF(fw_value) == 8 && fw_version_is_compatible((fw_version)FW_ABI_VERSION_INIT, (fw_version)FW_ABI_VERSION_INIT); }
                int main(void) { return check() ? 0 : 1; }
                """)
        let cxxSafe = try Scratch.file(
            "header/use-cxx.c",
            contents: """
                #include "formwork.h"
                int main(void) { fw_version v = FW_ABI_VERSION_INIT; return FW_ALIGNOF(fw_value) == 8 && fw_version_is_compatible(v, v) ? 0 : 1; }
                """)
        let file = flags.contains("c++") ? cxxSafe : source
        let result = try run(
            path,
            flags + [
                "-pedantic", "-Wall", "-Wextra", "-Werror", "-DFW_TARGET_ABI_MINOR=\(target)", "-I", Source.include, "-c", file,
                "-o", "\(Scratch.directory)/header/use-\(index)-\(target).o",
            ])
        #expect(result.status == 0, "\(path) \(flags): \(result.stderr)")
    }

    @Test("the C++17 example pack builds with -pedantic -Werror and a version script, exports only its entry, and passes check")
    func cppExample() throws {
        let pack = try ExamplePack.build("ticket-cpp", library: "libticket.so", always: true)
        let check = try run(Build.formwork, ["check", pack], environment: ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("ABI 1.2.0, 1 cell type (0 typed)"))
        #expect(check.stdout.contains("exports formwork_pack_v1 and nothing else"))
        let form = try Scratch.file(
            "header/ticket.yaml",
            contents: """
                formwork: 1
                id: ticket
                sections: [{ id: s, fields: [{ id: t, cell: com.example.cpp.ticket, model: { passenger: Ada, extras: [seat, bike] } }] }]
                """)
        let values = try Scratch.file("header/ticket.json", contents: #"{"t": 8}"#)
        let render = try run(
            Build.formwork, ["render", form, "--values", values, "--pack-path", pack, "--width", "60"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory, "NO_COLOR": "1"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("[-] 1 [+]"), "\(render.stdout)")
        #expect(render.stdout.contains("[x] Reserved seat") && render.stdout.contains("[x] Bicycle"))
        #expect(render.stdout.contains("! groups of more than six travellers book by"))
        #expect(render.stderr.contains("rejected the value of 't': groups of more than six travellers book by phone"))
    }
}
