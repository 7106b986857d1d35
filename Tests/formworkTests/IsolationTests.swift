import Foundation
import Testing
import FormworkTestSupport

/// The hostile-pack suite: a pack that crashes, aborts, exits, hangs or prints in each entry
/// point, run against `list`, `render` of a form that does not use it, `render` and `validate`
/// of a form that does, and `fill`. The host survives, names the pack and the call, the other
/// packs keep working, and no output file is replaced.
@Suite("Isolation: hostile packs")
struct IsolationTests {
    enum Point: String, CaseIterable, Sendable {
        case constructor = "CONSTRUCTOR", entry = "ENTRY", initialize = "INIT", create = "CREATE", configure = "CONFIGURE"
        case typed = "TYPED", valueChanged = "VALUE_CHANGED", render = "RENDER", destroy = "DESTROY", deinitialize = "DEINIT"

        /// Runs while the scanner reads the pack.
        var atScan: Bool { self == .constructor || self == .entry }
        /// Runs after the form is rendered (the child's instances are destroyed when the host is done).
        var atShutdown: Bool { self == .destroy || self == .deinitialize }
        /// The call named in the report.
        var call: String {
            switch self {
            case .constructor, .entry: "reading it"
            case .initialize: "in init"
            case .create: "in create"
            case .configure, .typed: "in configure"
            case .valueChanged: "in value_changed"
            case .render: "in render"
            case .destroy, .deinitialize: "in destroy or deinit"
            }
        }
    }

    enum How: String, CaseIterable, Sendable {
        case crash = "CRASH", abort = "ABORT", exit = "EXIT", hang = "HANG", stdout = "STDOUT"
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let point: Point
        let how: How
        var label: String { "\(point.rawValue)-\(how.rawValue)".lowercased().replacingOccurrences(of: "_", with: "-") }
        var testDescription: String { "\(how.rawValue.lowercased()) in \(point.rawValue.lowercased())" }
        /// Whether the pack does anything the host must survive (printing is harmless).
        var harmful: Bool { how != .stdout }
    }

    static let all: [Case] = Point.allCases.flatMap { point in How.allCases.map { Case(point: point, how: $0) } }

    /// Every case in the plain run. The sanitizer run (scripts/sanitizer-build sets FORMWORK_SANITIZER_SUBSET) checks
    /// the host's memory while a child fails at every point in the two ways the host can see it — its end of the
    /// socket closes (crash) or it stops answering (hang) — and the other ways (abort, exit, printing) at one point in
    /// the scanner and one in the cell host: abort and exit close the socket as a crash does, so the host runs the
    /// same code for them, and each case costs about six sanitized processes.
    static let cases: [Case] =
        (ProcessInfo.processInfo.environment["FORMWORK_SANITIZER_SUBSET"] ?? "").isEmpty
        ? all : all.filter { [.crash, .hang].contains($0.how) || [.entry, .render].contains($0.point) }

    let timeout = "1.5"

    func environment(_ name: String) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": "\(Scratch.directory)/isolation-home-\(name)"]
    }

    func build(_ c: Case) throws -> String {
        try CCompiler.pack(
            "hostile-\(c.label)", source: Source.fixture("hostile_pack.c"),
            defines: [
                "HOSTILE_AT_\(c.point.rawValue)", "HOSTILE_\(c.how.rawValue)", "HOSTILE_PACK_ID=\"com.hostile.\(c.label)\"",
                "HOSTILE_CELL_ID=\"com.hostile.\(c.label).cell\"",
            ], include: Source.include)
    }

    func form(_ c: Case) throws -> String {
        try Scratch.file(
            "isolation/\(c.label).yaml",
            contents: """
                formwork: 1
                id: hostile
                title: Hostile
                sections:
                  - id: main
                    fields:
                      - { id: name, cell: org.formwork.text-field, model: { title: Name } }
                      - { id: bad, cell: com.hostile.\(c.label).cell, model: { title: Bad } }
                      - { id: after, cell: org.formwork.text-field, model: { title: After } }
                """)
    }

    @Test("the host survives, names the pack and the call, and keeps the other packs working", arguments: cases)
    func hostile(_ c: Case) async throws {
        let pack = try build(c)
        let env = environment(c.label)
        let common = ["--pack-path", pack, "--timeout", timeout]

        // list: the other packs are listed; a pack that dies while read is quarantined with the reason.
        let list = try await runDetached(Build.formwork, ["list", "--json"] + common, environment: env)
        #expect(list.status == 0, "\(list.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8))) != nil, "list --json is not JSON: \(list.stdout)")
        #expect(list.stdout.contains("org.formwork.text-field"))
        let quarantined = c.point.atScan && c.harmful
        #expect(list.stdout.contains("quarantined: reading it") == quarantined, "\(list.stdout)")

        // render of a form that does not use the pack: unaffected.
        let login = "\(Source.root)/Examples/Forms/login.yaml"
        let unrelated = try await runDetached(Build.formwork, ["render", login, "--format", "text"] + common, environment: env)
        #expect(unrelated.status == 0, "\(unrelated.stderr)")
        #expect(unrelated.stdout.contains("Sign in"))

        // render of a form that uses it, with values (so that value_changed runs), over an existing output.
        let form = try form(c)
        let values = try Scratch.file("isolation/\(c.label).values.json", contents: #"{"bad": "typed", "name": "Ann"}"#)
        let output = try Scratch.file("isolation/\(c.label).out", contents: "previous output\n")
        let render = try await runDetached(
            Build.formwork, ["render", form, "--values", values, "--format", "text", "-o", output] + common, environment: env)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        if quarantined {
            #expect(render.status == 69, "\(render.stderr)")
            #expect(written == "previous output\n")
            // The error about the form's cell names the refused pack and why, not only the cell's absence.
            #expect(
                render.stderr.contains("a pack that could not be loaded may provide it: \(pack) (quarantined: reading it"),
                "\(render.stderr)")
        } else if !c.harmful || c.point.atShutdown || c.point == .constructor || c.point == .entry {
            // Printing is harmless; a failure while shutting down is reported after the output is written.
            #expect(render.status == 0, "\(render.stderr)")
            #expect(written.contains("Bad") && written.contains("After"), "\(written)")
            if c.harmful { #expect(render.stderr.contains("in destroy or deinit"), "\(render.stderr)") }
        } else {
            #expect(render.status == 70, "\(render.stderr)")
            #expect(written == "previous output\n", "the output was replaced")
            #expect(render.stderr.contains("com.hostile.\(c.label).cell") && render.stderr.contains("field 'bad'"), "\(render.stderr)")
            #expect(render.stderr.contains(pack), "\(render.stderr)")
            #expect(render.stderr.contains(c.point.call), "\(render.stderr)")
            #expect(render.stderr.contains("formwork: hint: 'formwork check \(pack)'"), "\(render.stderr)")
            // --keep-going writes the form with the failed field shown as an error.
            let kept = try await runDetached(
                Build.formwork, ["render", form, "--values", values, "--format", "text", "--keep-going"] + common, environment: env)
            #expect(kept.status == 0, "\(kept.stderr)")
            #expect(kept.stdout.contains("This field could not be shown") && kept.stdout.contains("After"), "\(kept.stdout)")
        }

        // validate runs value_changed through the same driver.
        let validate = try await runDetached(Build.formwork, ["validate", form, "--values", values] + common, environment: env)
        let failsInACall = c.harmful && [.initialize, .create, .configure, .typed, .valueChanged, .render].contains(c.point)
        #expect(validate.status == (quarantined ? 69 : failsInACall ? 70 : 0), "\(validate.stderr)")
        #expect(validate.status != 139 && validate.status != 134, "the host itself crashed: \(validate.stderr)")

        // fill: the answers typed so far are never lost.
        guard !quarantined else { return }
        let answers = try Scratch.file("isolation/\(c.label).answers", contents: "Ann\ntyped\nZed\n")
        let filled = "\(Scratch.directory)/isolation/\(c.label).filled.json"
        let fill = try await runDetached(Build.formwork, ["fill", form, "--answers", answers, "-o", filled] + common, environment: env)
        #expect(fill.status == 0, "\(fill.stderr)")
        let json = (try? String(contentsOfFile: filled, encoding: .utf8)) ?? ""
        #expect(json.contains("Ann") && json.contains("Zed") && json.contains("typed"), "\(json) \(fill.stderr)")
    }

    @Test(
        "many packs are read by several scanners at once (copies of the host taking packs from a shared queue); a crasher and a hang are quarantined and every other pack listed, in order"
    )
    func shardedScan() async throws {
        let directory = Scratch.directory + "/isolation/sharded"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let good = try CCompiler.pack("sharded-good", source: Source.root + "/Examples/Packs/phone-c/phone.c", include: Source.include)
        let crashEntry = try build(Case(point: .entry, how: .crash))
        let crashConstructor = try build(Case(point: .constructor, how: .abort))
        let hangEntry = try build(Case(point: .entry, how: .hang))
        for i in 0..<40 {
            let name = String(format: "%@/lib%02d.so", directory, i)
            let source = i == 3 ? crashEntry : i == 33 ? crashConstructor : i == 20 ? hangEntry : good
            try? FileManager.default.removeItem(atPath: name)
            try FileManager.default.copyItem(atPath: source, toPath: name)
        }
        for threads in ["1", "4"] {
            var env = environment("sharded-\(threads)")
            env["FORMWORK_THREADS"] = threads
            let result = try await runDetached(
                Build.formwork, ["list", "--json", "--pack-path", directory, "--no-cache", "--timeout", timeout], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let packs = (object?["packs"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }.filter { $0.hasPrefix(directory) }
            #expect(packs == (0..<40).filter { ![3, 20, 33].contains($0) }.map { String(format: "%@/lib%02d.so", directory, $0) })
            let problems = (object?["errors"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
            #expect(
                problems.contains("\(directory)/lib03.so") && problems.contains("\(directory)/lib20.so")
                    && problems.contains("\(directory)/lib33.so"), "\(result.stdout)")
            #expect(
                result.stdout.contains("SIGSEGV") && result.stdout.contains("SIGABRT") && result.stdout.contains("did not return"),
                "\(result.stdout)")
        }
    }

    @Test(
        "a pack that names another in the scanner's progress page before it crashes gets itself quarantined, not the other, in one scanner and in several"
    )
    func framedScan() throws {
        let directory = Scratch.directory + "/isolation/framed"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let good = try CCompiler.pack("framed-good", source: Source.root + "/Examples/Packs/phone-c/phone.c", include: Source.include)
        // Mark 39 names a pack read after it (one scanner: its list's 40th; a shared scan: the 39th largest): an
        // innocent whose result has not been sent yet.
        let framer = try CCompiler.pack(
            "framed-framer", source: Source.fixture("hostile_pack.c"),
            defines: ["HOSTILE_AT_ENTRY", "HOSTILE_FRAME", "HOSTILE_FRAME_TAG=39", "HOSTILE_PACK_ID=\"com.hostile.framer\""],
            include: Source.include)
        for i in 0..<40 {
            try FileManager.default.copyItem(atPath: i == 5 ? framer : good, toPath: String(format: "%@/lib%02d.so", directory, i))
        }
        for threads in ["1", "4"] {
            var env = environment("framed-\(threads)")
            env["FORMWORK_THREADS"] = threads
            let result = try run(
                Build.formwork, ["list", "--json", "--pack-path", directory, "--no-cache", "--timeout", timeout], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let packs = (object?["packs"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
            #expect(
                packs.filter { $0.hasPrefix(directory) }
                    == (0..<40).filter { $0 != 5 }.map { String(format: "%@/lib%02d.so", directory, $0) })
            let errors = (object?["errors"] as? [[String: Any]] ?? [])
            #expect(errors.compactMap { $0["path"] as? String } == ["\(directory)/lib05.so"], "\(result.stdout)")
            #expect(result.stdout.contains("SIGSEGV") && result.stdout.contains("org.formwork.text-field"), "\(result.stdout)")
        }
    }

    @Test(
        "a cell that names another field in the progress page before it crashes, or breaks the channel, costs only its own field",
        arguments: [("FRAME", "RENDER"), ("BREAK", "CONFIGURE"), ("BREAK", "RENDER")])
    func framedField(how: String, point: String) throws {
        let label = "\(how)-\(point)".lowercased()
        // Tag 6: request 0 (the first field), in render.
        let pack = try CCompiler.pack(
            "hostile-\(label)", source: Source.fixture("hostile_pack.c"),
            defines: [
                "HOSTILE_AT_\(point)", "HOSTILE_\(how)", "HOSTILE_FRAME_TAG=6", "HOSTILE_PACK_ID=\"com.hostile.\(label)\"",
                "HOSTILE_CELL_ID=\"com.hostile.\(label).cell\"",
            ], include: Source.include)
        let fields = (0..<6).map { n in
            n == 2
                ? "{ id: bad, cell: com.hostile.\(label).cell, model: { title: Bad } }"
                : "{ id: f\(n), cell: org.formwork.text-field, model: { title: Field \(n), value: v\(n) } }"
        }
        let form = try Scratch.file(
            "isolation/\(label).yaml",
            contents: "formwork: 1\nid: framed\nsections:\n  - id: main\n    fields: [\(fields.joined(separator: ", "))]\n")
        for isolation in ["shared", "per-pack"] {
            let result = try run(
                Build.formwork,
                ["render", form, "--pack-path", pack, "--keep-going", "--format", "text", "--timeout", timeout, "--isolation", isolation],
                environment: environment(label))
            #expect(result.status == 0, "\(result.stderr)")
            for n in [0, 1, 3, 4, 5] {
                #expect(result.stdout.contains("Field \(n)"), "field f\(n) was lost:\n\(result.stdout)\n\(result.stderr)")
            }
            #expect(result.stderr.contains("'bad'") && !result.stderr.contains("'f0'"), "\(result.stderr)")
        }
    }

    @Test(
        "a pack that logs from a thread of its own: each message printed once, attributed, terminal-safe, at most 64; a message during a call is the call's",
        arguments: ["shared", "per-pack", "in-process"])
    func logFromOwnThread(isolation: String) throws {
        let pack = try CCompiler.pack(
            "hostile-log-thread-\(isolation)", source: Source.fixture("hostile_pack.c"),
            defines: [
                "HOSTILE_AT_RENDER", "HOSTILE_LOG_THREAD", "HOSTILE_PACK_ID=\"com.hostile.logger\"",
                "HOSTILE_CELL_ID=\"com.hostile.logger.cell\"",
            ], include: Source.include)
        let form = try Scratch.file(
            "isolation/log-thread.yaml",
            contents:
                "formwork: 1\nid: log\nsections: [{ id: s, fields: [{ id: bad, cell: com.hostile.logger.cell, model: { title: Logger } }] }]\n"
        )
        let result = try run(
            Build.formwork, ["render", form, "--pack-path", pack, "--isolation", isolation], environment: environment("log-thread"))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.filter { $0 == "formwork: pack output: com.hostile.logger: from its own thread ␛]0;pwned␇" }.count == 64,
            "\(result.stderr)")
        #expect(
            lines.filter { $0 == "formwork: pack output: com.hostile.logger: further messages from its own threads are dropped" }.count == 1
        )
        #expect(lines.count == 65, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("during the call"))
    }

    @Test(
        "a pack whose init fails: the error names the status by its name and quotes what the pack logged",
        arguments: ["shared", "in-process"])
    func initFails(isolation: String) throws {
        let pack = try CCompiler.pack(
            "hostile-init-fail-\(isolation)", source: Source.fixture("hostile_pack.c"),
            defines: [
                "HOSTILE_AT_INIT", "HOSTILE_FAIL", "HOSTILE_PACK_ID=\"com.hostile.initfail\"",
                "HOSTILE_CELL_ID=\"com.hostile.initfail.cell\"",
            ],
            include: Source.include)
        let form = try Scratch.file(
            "isolation/init-fail.yaml",
            contents:
                "formwork: 1\nid: i\nsections: [{ id: s, fields: [{ id: bad, cell: com.hostile.initfail.cell, model: { title: T } }] }]\n")
        let result = try run(
            Build.formwork, ["render", form, "--pack-path", pack, "--isolation", isolation], environment: environment("init-fail"))
        #expect(result.status == 70, "\(result.stderr)")
        #expect(
            result.stderr.contains("(field 'bad')") && result.stderr.contains("fw_pack.init failed with FW_ERROR: no licence file"),
            "\(result.stderr)")
    }

    @Test("fill: a cell that hung is not called again in the same command, and its field's neighbours are filled")
    func hungOnce() async throws {
        let c = Case(point: .configure, how: .hang)
        let pack = try build(c)
        let form = try form(c)
        let answers = try Scratch.file("isolation/hung-once.answers", contents: "Ann\ntyped\nZed\n")
        let filled = "\(Scratch.directory)/isolation/hung-once.json"
        let fill = try await runDetached(
            Build.formwork, ["fill", form, "--answers", answers, "-o", filled, "--pack-path", pack, "--timeout", "3"],
            environment: environment("hung-once"))
        #expect(fill.status == 0, "\(fill.stderr)")
        // The first call times out; the later ones (checking the typed value) are answered at once with that failure.
        #expect(
            fill.stderr.contains("did not return within 3 s (a hang?) in configure, earlier in this command; it is not called again"),
            "\(fill.stderr)")
        let json = (try? String(contentsOfFile: filled, encoding: .utf8)) ?? ""
        #expect(json.contains("Ann") && json.contains("Zed"), "\(json)")
    }

    @Test("a large form is shared between two cell hosts; a crash in either half fails only its own field")
    func splitBatch() throws {
        let c = Case(point: .render, how: .crash)
        let pack = try build(c)
        let count = 3000
        let fields = (0..<count).map { n in
            n == 100 || n == 2900
                ? "{ id: bad\(n), cell: com.hostile.\(c.label).cell, model: { title: Bad } }"
                : "{ id: f\(n), cell: org.formwork.text-field, model: { title: Name \(n), value: v\(n) } }"
        }
        let yaml =
            "formwork: 1\nid: split\nsections:\n  - id: a\n    fields: [\(fields[..<1500].joined(separator: ", "))]\n"
            + "  - id: b\n    fields: [\(fields[1500...].joined(separator: ", "))]\n"
        let path = try Scratch.file("isolation/split.yaml", contents: yaml)
        for threads in ["1", "2"] {
            var env = environment("split-\(threads)")
            env["FORMWORK_THREADS"] = threads
            let result = try run(
                Build.formwork, ["render", path, "--pack-path", pack, "--keep-going", "--format", "json", "--timeout", timeout],
                environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let warnings = result.stderr.split(separator: "\n").filter { $0.contains("crashed") }
            #expect(warnings.count == 2, "\(result.stderr)")
            #expect(warnings.contains { $0.contains("field 'bad100'") && $0.contains("in render") }, "\(result.stderr)")
            #expect(warnings.contains { $0.contains("field 'bad2900'") && $0.contains("in render") }, "\(result.stderr)")
            #expect(result.stdout.components(separatedBy: "could not be shown").count == 3)
            #expect(result.stdout.contains("\"v2999\"") && result.stdout.contains("\"v0\"") && result.stdout.contains("\"v1501\""))
        }
    }

    @Test("a pack that hangs early in a large batch of large requests times out; the host's writer, blocked on the full socket, is let go")
    func hangWhileSending() async throws {
        let c = Case(point: .render, how: .hang)
        let pack = try build(c)
        // 1,200 requests of 4 KB each (past one frame and past what the socket holds), the hang in the first.
        let big = String(repeating: "x", count: 4096)
        let fields = (0..<1200).map { n in
            n == 10
                ? "{ id: bad\(n), cell: com.hostile.\(c.label).cell, model: { title: Bad } }"
                : "{ id: f\(n), cell: org.formwork.text-field, model: { title: Name \(n), value: v\(n)\(big) } }"
        }
        let yaml = "formwork: 1\nid: hang\nsections:\n  - id: a\n    fields: [\(fields.joined(separator: ", "))]\n"
        let path = try Scratch.file("isolation/hang-large.yaml", contents: yaml)
        var env = environment("hang-large")
        env["FORMWORK_THREADS"] = "2"
        let result = try await runDetached(
            Build.formwork, ["render", path, "--pack-path", pack, "--keep-going", "--format", "json", "--timeout", timeout],
            environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("did not return") }
        #expect(warnings.count == 1 && warnings[0].contains("field 'bad10'") && warnings[0].contains("in render"), "\(result.stderr)")
        #expect(result.stdout.contains("\"v0\(big)\"") && result.stdout.contains("\"v1199\(big)\""))
    }

    @Test(
        "the scanner and the shared cell host are copies of the command (fork, no second executable started) unless a sanitizer runs, a per-pack cell host never is; a crash there is still caught and named"
    )
    func childrenAreCopies() throws {
        // Under AddressSanitizer (the suite's sanitizer run) the children are started afresh, with its options.
        let sanitized = dlsym(nil, "__asan_init") != nil
        // (where the pack misbehaves, the isolation mode, whether its child is a copy of the command)
        for (point, isolation, copy) in [("ENTRY", "shared", true), ("CREATE", "shared", true), ("CREATE", "per-pack", false)] {
            let label = "whoami-\(point.lowercased())"
            let pack = try CCompiler.pack(
                label, source: Source.fixture("hostile_pack.c"),
                defines: [
                    "HOSTILE_AT_\(point)", "HOSTILE_WHOAMI", "HOSTILE_PACK_ID=\"com.\(label)\"", "HOSTILE_CELL_ID=\"com.\(label).cell\"",
                ],
                include: Source.include)
            let arguments =
                point == "ENTRY"
                ? ["list", "--pack-path", pack, "--no-cache", "--timeout", timeout]
                : [
                    "render",
                    try Scratch.file(
                        "isolation/\(label).yaml",
                        contents:
                            "formwork: 1\nid: w\nsections:\n  - id: s\n    fields:\n      - { id: f, cell: com.\(label).cell, model: { title: T } }\n"
                    ),
                    "--pack-path", pack, "--no-cache", "--timeout", timeout, "--isolation", isolation,
                ]
            let result = try run(Build.formwork, arguments, environment: environment(label))
            let output = result.stdout + result.stderr
            #expect(output.contains("SIGABRT"), "\(isolation): \(output)")
            #expect(output.contains("cmdline: "), "\(isolation): \(output)")
            #expect(output.contains(copy && !sanitized ? "formwork \(arguments[0]) " : " __child "), "\(isolation): \(output)")
        }
    }

    @Test("a quarantined pack is named when a form needs its cell type")
    func quarantinedCellType() throws {
        let c = Case(point: .entry, how: .crash)
        let pack = try build(c)
        let result = try run(
            Build.formwork, ["render", try form(c), "--pack-path", pack, "--timeout", timeout], environment: environment("q"))
        #expect(result.status == 69)
        #expect(result.stderr.contains("quarantined"), "\(result.stderr)")
    }

    @Test("in the child, execve, an AF_INET socket, ptrace and killing the host are refused (seccomp), or the skip says why")
    func sandbox() throws {
        let pack = try CCompiler.pack(
            "sandboxed", source: Source.fixture("hostile_pack.c"),
            defines: ["HOSTILE_SANDBOX", "HOSTILE_PACK_ID=\"com.hostile.sandbox\"", "HOSTILE_CELL_ID=\"com.hostile.sandbox.cell\""],
            include: Source.include)
        let form = try Scratch.file(
            "isolation/sandbox.yaml",
            contents: """
                formwork: 1
                id: sandbox
                sections: [{ id: s, fields: [{ id: probe, cell: com.hostile.sandbox.cell, model: { title: Probe } }] }]
                """)
        let isolated = try run(Build.formwork, ["render", form, "--format", "text", "--pack-path", pack], environment: environment("sb"))
        #expect(isolated.status == 0, "\(isolated.stderr)")
        let seccomp = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8))?.contains("Seccomp:") ?? false
        guard seccomp else {
            print("skipped: this kernel reports no seccomp support in /proc/self/status; the sandbox cannot be tested here")
            return
        }
        for call in ["execve", "socket", "ptrace", "kill"] {
            #expect(
                isolated.stdout.contains("\(call)") && isolated.stdout.range(of: "\(call) +EPERM", options: .regularExpression) != nil,
                "\(isolated.stdout)")
        }
    }
}
