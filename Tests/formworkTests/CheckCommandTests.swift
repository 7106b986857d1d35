import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// `formwork check`, run as a real process: each check in its own child process.
@Suite("formwork check")
struct CheckCommandTests {
    // ASAN_OPTIONS: under `swift test --sanitize=address` the checker child is instrumented too; let a
    // crashing pack kill it with the signal, as in a normal build, instead of ASan exiting 1.
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory, "ASAN_OPTIONS": "handle_segv=0"]

    @Test("the first-party Swift and C packs and the Makefile example pass every check")
    func firstPartyPass() throws {
        let phone = try ExamplePack.build("phone-c", library: "libphone.so")
        let result = try run(Build.formwork, ["check", Build.standardPack, Build.cPack, phone, "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stdout)")
        let json = try JSONParser.parse(result.stdout).json
        #expect(json["failed"] == .integer(0))
        #expect(json["passed"] == .integer(3 + 11 + 3 + 2 + 3 + 1))
        let standard = try run(Build.formwork, ["check", Build.standardPack], environment: environment)
        #expect(
            standard.stdout.contains("✓ exports  ") && standard.stdout.contains("  exports formwork_pack_v1 and nothing else"),
            "\(standard.stdout)")
        let text = try run(Build.formwork, ["check", Build.cPack], environment: environment)
        #expect(text.stdout.contains("✓ org.formwork.c.rating  "))
        #expect(
            text.stdout.contains(
                "configure (generic), configure (typed), render, selection, value_changed accept, value_changed reject, host memory not kept, destroy"
            ))
        #expect(text.stdout.hasSuffix("1 pack: 5 passed, 0 failed\n"))
    }

    /// name, -D flags, the failing check, the start of its message.
    static let broken: [(String, [String], String, String)] = [
        (
            "check-crash", ["FIXTURE_CRASH_RENDER"], "com.example.fixture.counter",
            "crashed with SIGSEGV (signal 11) in step 'render [defaults]'; rerun with --in-process under a debugger to see where"
        ),
        (
            "check-keeps-value", ["FIXTURE_KEEPS_VALUE_POINTER"], "com.example.fixture.counter",
            "crashed with SIGSEGV (signal 11) in step 'render after value_changed 'title', whose field name and value is now unreadable: a pointer kept past the call?'"
        ),
        (
            "check-keeps-configure", ["FIXTURE_KEEPS_CONFIGURE_POINTER"], "com.example.fixture.counter",
            "crashed with SIGSEGV (signal 11) in step 'render after configure (generic), whose memory is now unreadable: a pointer kept past the call?'"
        ),
        (
            "check-hang", ["FIXTURE_HANG_RENDER"], "com.example.fixture.counter",
            "did not finish within 3 s (a hang?) in step 'render [defaults]'"
        ),
        (
            "check-export", ["FIXTURE_EXTRA_EXPORT"], "exports",
            "exports formwork_pack_latest, which look like Formwork entries but are not"
        ),
        (
            "check-reject", ["FIXTURE_REJECT_NO_MESSAGE"], "com.example.fixture.counter",
            "step 'value_changed 'title'' with values {\"title\":\"Counter\",\"count\":1}: returned FW_REJECTED without a message; set *message to a reason"
        ),
        (
            "check-typed", ["FIXTURE_TYPED_DIFFERS"], "com.example.fixture.counter",
            "step 'configure (typed) [defaults]' with values {\"title\":\"Counter\",\"count\":1}: renders differently from the generic configure of the same values (view 1: generic drew {\"type\":\"value\",\"label\":\"Count\",\"text\":\"#\"}, typed drew {\"type\":\"value\",\"label\":\"Count\",\"text\":\"##\"})"
        ),
        (
            "check-typed-forgets", ["FIXTURE_TYPED_FORGETS"], "com.example.fixture.counter",
            "step 'configure (typed) on a fresh instance [defaults]' with values {\"title\":\"Counter\",\"count\":1}: renders differently from the generic configure of the same values (view 1: generic drew {\"type\":\"value\",\"label\":\"Count\",\"text\":\"#\"}, typed drew {\"type\":\"value\",\"label\":\"Count\",\"text\":\"\"}); the typed configure must set every member itself"
        ),
        (
            "check-minmax", ["FIXTURE_MIN_GT_MAX"], "load",
            "cell type 'com.example.fixture.counter' field 'count': minimum 10 is greater than maximum 1"
        ),
    ]

    @Test(
        "each broken fixture fails with a precise report naming the check, the step and the values",
        arguments: CheckCommandTests.broken.indices)
    func brokenFixture(index: Int) throws {
        let (name, defines, check, message) = Self.broken[index]
        let path = try CCompiler.pack(name, defines: defines)
        let result = try run(Build.formwork, ["check", path, "--json", "--timeout", "3"], environment: environment)
        #expect(result.status == 65)
        // The report is the output; the status says the rest (no error line about the status itself).
        #expect(!result.stderr.contains("ExitCode"), "\(result.stderr)")
        let json = try JSONParser.parse(result.stdout).json
        guard case .array(let packs)? = json["packs"], case .array(let checks)? = packs.first?["checks"] else {
            Issue.record("no checks in \(result.stdout)")
            return
        }
        let failing = checks.compactMap(CheckResult.init(json:)).filter { !$0.passed }
        #expect(failing.map(\.check) == [check], "\(failing)")
        #expect(failing.first?.message.hasPrefix(message) == true, "\(failing.first?.message ?? "")")
    }

    @Test("a good fixture passes, and --in-process gives the same verdicts")
    func inProcess() throws {
        let path = try CCompiler.pack("check-good")
        let child = try run(Build.formwork, ["check", path], environment: environment)
        let inside = try run(Build.formwork, ["check", path, "--in-process"], environment: environment)
        #expect(child.status == 0, "\(child.stdout)")
        #expect(child.stdout == inside.stdout)
    }

    @Test("the ELF reader lists exactly the exported symbols")
    func elfSymbols() throws {
        let path = try CCompiler.pack("elf-export", defines: ["FIXTURE_EXTRA_EXPORT"])
        #expect(try ELFSymbols.exported(path: path) == ["formwork_pack_latest", "formwork_pack_v1"])
        #expect(Conformance.isEntryName("formwork_pack_v12"))
        #expect(!Conformance.isEntryName("formwork_pack_v"))
    }

    @Test("check without packs is a usage error")
    func usage() throws {
        let result = try run(Build.formwork, ["check"], environment: environment)
        #expect(result.status == 64)
        #expect(result.stderr.contains("name at least one pack (.so) to check"))
    }
}
