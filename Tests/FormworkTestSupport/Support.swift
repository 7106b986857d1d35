import Foundation
import Synchronization
import Testing

import FormworkCore
import FormworkHost

/// Where the built products (the `formwork` executable and the pack `.so` files) are:
/// beside the test executable, never a hard-coded `.build/debug`.
package enum Build {
    package static let directory: String = {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // On Darwin-style bundles the binary sits inside X.xctest/Contents/MacOS.
        while directory.path.contains(".xctest") { directory = directory.deletingLastPathComponent() }
        return directory.path
    }()

    package static var formwork: String { "\(directory)/formwork" }
    package static var standardPack: String { "\(directory)/libStandardCells.so" }
    package static var cPack: String { "\(directory)/libRatingCells.so" }
}

/// The source tree (for the header, fixtures, examples and golden files).
package enum Source {
    package static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The current header (ABI 1.1).
    package static var include: String { "\(root)/Sources/CFormwork/include" }
    /// The frozen ABI 1.0 header: compatibility fixtures are built against it, as a pack built in the past was.
    package static var include1_0: String { "\(root)/abi/1.0" }
    /// The frozen ABI 1.1 header: 1.1 fixtures are built against it, as a pack built before 1.2 was.
    package static var include1_1: String { "\(root)/abi/1.1" }
    package static var tests: String { "\(root)/Tests" }
    package static func fixture(_ name: String) -> String { "\(tests)/Fixtures/\(name)" }
}

/// A scratch directory removed at the end of the process.
package enum Scratch {
    package static let directory: String = {
        let path = NSTemporaryDirectory() + "formwork-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Which test wrote each scratch file first (nil: outside a test), and what it wrote.
    private static let writers = Mutex<[String: (test: Test.ID?, contents: String)]>([:])

    /// Writes `contents` to the scratch file `name` (its folders made; written beside it and renamed into place)
    /// and returns its path.
    ///
    /// Tests run in parallel in one process: two tests that write different contents under one name overwrite
    /// each other's file between its write and its read, and fail once in many runs (`SectionsAsParsedTests` did).
    /// So a name written by one test and then with other contents by another is recorded as an issue of the
    /// second, whatever the timing. (The same contents under one name, a fixture both tests use, is harmless.)
    package static func file(_ name: String, contents: String) throws -> String {
        let path = "\(directory)/\(name)"
        let writer = Test.current?.id
        let first = writers.withLock { writers in
            if let first = writers[path] { return first }
            writers[path] = (writer, contents)
            return (writer, contents)
        }
        if let writer, let test = first.test, test != writer, first.contents != contents {
            Issue.record(
                "scratch file '\(name)' is written by two tests (\(test.nameComponents.joined(separator: ".")) and this one): give it a name of its own"
            )
        }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// The example packs under Examples/Packs, built by their own Makefiles.
package enum ExamplePack {
    private static let made = Mutex<[String: ProcessResult]>([:])

    /// Runs `make -s` (`-B` with `always`) in Examples/Packs/`name` once for the test process and returns the
    /// path of `library` there; a failed build is an issue of each caller, with make's output.
    ///
    /// Once, under a lock: tests run in parallel in one process, and two `make`s writing the same `.so` at once
    /// let a third test load half a file ("no pack 'com.example.places' is registered", seen in a full run).
    package static func build(_ name: String, library: String, always: Bool = false) throws -> String {
        let directory = "\(Source.root)/Examples/Packs/\(name)"
        let result = try made.withLock { (made) throws -> ProcessResult in
            if let result = made[name] { return result }
            let result = try run("/usr/bin/make", ["-C", directory, "-s"] + (always ? ["-B"] : []))
            made[name] = result
            return result
        }
        #expect(result.status == 0, "make -C Examples/Packs/\(name): \(result.stderr)")
        return "\(directory)/\(library)"
    }
}

/// The result of running a process.
package struct ProcessResult {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

/// Runs `executable` with `arguments`, waiting for it to finish.
@discardableResult
package func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    input: String? = nil, directory: String? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = environment ?? ProcessInfo.processInfo.environment
    // Outputs are compared with English goldens: the machine's language is not the test's (a test that wants one
    // passes its environment).
    if environment == nil { for key in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] { env[key] = nil } }
    env["NO_COLOR"] = env["NO_COLOR"] ?? "1"
    // A sanitizer run's settings (LeakSanitizer's suppressions of toolchain leaks) follow the processes it starts.
    for key in ["ASAN_OPTIONS", "LSAN_OPTIONS"] where env[key] == nil {
        if let value = ProcessInfo.processInfo.environment[key] { env[key] = value }
    }
    process.environment = env
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe(), inp = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inp
    try process.run()
    if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
    try? inp.fileHandleForWriting.close()
    // Read both pipes concurrently so a full pipe never blocks the child.
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// `run` on a thread of its own, for a test that mostly waits on its processes (a hung pack's timeout, a server):
/// `run` blocks its thread, and Swift Testing's pool has one thread per core, so two waiting tests would hold the
/// whole suite. At most `DetachedRuns.limit` of these processes run at once, so that the waiting ones overlap
/// without starving each other's CPU-bound steps into their own timeouts.
package func runDetached(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    input: String? = nil, directory: String? = nil
) async throws -> ProcessResult {
    await DetachedRuns.shared.acquire()
    defer { Task { await DetachedRuns.shared.release() } }
    return try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(
                with: Result { try run(executable, arguments, environment: environment, input: input, directory: directory) })
        }.start()
    }
}

/// The slots `runDetached` takes: a counting semaphore that suspends rather than blocks.
package actor DetachedRuns {
    package static let shared = DetachedRuns()
    package static let limit = 6
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if running < Self.limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }
}

/// Compiles C fixtures like a third-party pack: `cc -shared -fPIC -fvisibility=hidden`, header only.
package enum CCompiler {
    package static let compiler = ProcessInfo.processInfo.environment["CC"] ?? "/usr/bin/cc"

    /// One build of one (name, command line): its path, or why it failed. Each is made once (see `pack`).
    private final class Build: Sendable {
        let result = Mutex<Result<String, CompileError>?>(nil)
    }
    private static let builds = Mutex<[String: Build]>([:])

    /// Builds `source` with `defines` into `<scratch>/<name>/lib<name>.so` and returns its path.
    /// `include` defaults to the frozen 1.0 header: fixtures are packs built against 1.0 that must keep loading.
    ///
    /// Built once per process for the same name and command line; later calls (from other tests, running at the
    /// same time) wait for that build and get its path. A test that rebuilt a library another test was running
    /// replaced the file under it: a cell host started later found its pack changed on disk ("its pack did not
    /// load", seen in a CI run). The same name with another command line builds again, renamed into place.
    package static func pack(
        _ name: String, source: String = Source.fixture("fixture_pack.c"), defines: [String] = [],
        extraFlags: [String] = [], include: String = Source.include1_0
    ) throws -> String {
        let directory = "\(Scratch.directory)/\(name)"
        let output = "\(directory)/lib\(name).so"
        let flags =
            [
                "-std=c11", "-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Werror", "-Wno-unused-function",
                "-Wno-unused-const-variable",
                "-I", include,
            ] + defines.map { "-D\($0)" } + extraFlags + [source]
        let key = ([output] + flags).joined(separator: "\u{0}")
        let build = builds.withLock { builds in
            if let build = builds[key] { return build }
            let build = Build()
            builds[key] = build
            return build
        }
        let result = try build.result.withLock { (result) throws -> Result<String, CompileError> in
            if let result { return result }
            let made = try compile(flags, output: output, directory: directory)
            result = made
            return made
        }
        return try result.get()
    }

    private static func compile(_ flags: [String], output: String, directory: String) throws -> Result<String, CompileError> {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Built beside it and renamed into place: another test's process may be reading the library of an earlier
        // command line under this name, which must never see a half-written one.
        let temporary = "\(output).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let arguments = flags + ["-o", temporary]
        let result = try run(compiler, arguments)
        guard result.status == 0 else {
            unlink(temporary)
            return .failure(CompileError(message: "cc \(arguments.joined(separator: " ")) failed:\n\(result.stderr)"))
        }
        guard rename(temporary, output) == 0 else { return .failure(CompileError(message: "rename \(temporary) to \(output) failed")) }
        return .success(output)
    }

    struct CompileError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Golden-file comparison; `FORMWORK_UPDATE_GOLDEN=1` rewrites the files instead.
package enum Golden {
    package static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = "\(Source.tests)/Golden/\(name)"
        if ProcessInfo.processInfo.environment["FORMWORK_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let previous = try? String(contentsOfFile: path, encoding: .utf8)
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            if previous != actual {
                // Blessing is deliberate: the run that rewrites a golden file fails; the next run checks it.
                Issue.record(
                    "rewrote golden file \(name); review the diff and run again without FORMWORK_UPDATE_GOLDEN",
                    sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record(
                "missing golden file \(name); run the tests with FORMWORK_UPDATE_GOLDEN=1 to create it", sourceLocation: sourceLocation)
            return
        }
        if actual != expected {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let line = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, e.count)
            let got = line < a.count ? String(a[line]) : "<end>"
            let want = line < e.count ? String(e[line]) : "<end>"
            Issue.record("\(name) differs at line \(line + 1):\n  expected: \(want)\n  actual:   \(got)", sourceLocation: sourceLocation)
        }
    }

    /// Replaces machine-specific paths with stable placeholders.
    package static func normalize(_ text: String) -> String {
        text.replacingOccurrences(of: Build.directory, with: "$BUILD")
            .replacingOccurrences(of: (Build.directory as NSString).resolvingSymlinksInPath, with: "$BUILD")
            .replacingOccurrences(of: Scratch.directory, with: "$SCRATCH")
    }
}

/// A registry of the first-party packs only (no environment, no standard directories).
package func firstPartyRegistry(plus extra: [String] = []) -> Registry {
    Registry(
        locations: extra.map { SearchLocation(path: $0, origin: .option) }
            + [SearchLocation(path: Build.directory, origin: .executable)])
}

/// A form of two fields of the fixture pack's counter cell (`fixture_pack.c`), A and B, read against `registry`.
package func twoCounterForm(_ registry: Registry) throws -> Form {
    try FormDecoder.decode(
        text: """
            formwork: 1
            id: l
            sections: [{ id: s, fields: [{ id: a, cell: com.example.fixture.counter, model: { title: A } },
                                         { id: b, cell: com.example.fixture.counter, model: { title: B } }] }]
            """, json: false, registry: registry)
}

/// The first-party cell types.
package enum FirstParty {
    package static let standardCells = [
        "org.formwork.text", "org.formwork.text-field", "org.formwork.text-view", "org.formwork.toggle",
        "org.formwork.button", "org.formwork.date-picker", "org.formwork.picker", "org.formwork.segments",
        "org.formwork.number", "org.formwork.integer", "org.formwork.multi-select",
        "org.formwork.c.rating", "org.formwork.c.money",
    ]
}

/// Headless Chromium, for the tests that check what a page does (its script, its DOM after load).
package enum Chromium {
    /// The browser, or nil when it is not installed (the test then says it skipped, and why).
    package static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Loads the page at `file` and returns the DOM after its scripts ran (`--dump-dom`), with a profile directory
    /// of its own named `profile` (two tests never share one).
    package static func dumpDOM(of file: String, profile: String) throws -> ProcessResult {
        guard let path else { throw ChromiumMissing() }
        return try run(
            path,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(Scratch.directory)/chromium-\(profile)",
                "--dump-dom", "file://\(file)",
            ])
    }

    /// Loads `html` with `script` run after the page's own (its body ends `document.getElementById("probe")
    /// .textContent = …`), and returns the text the script left in `<pre id="probe">`.
    package static func probe(_ html: String, script: String, name: String) throws -> String {
        let page = try Scratch.file(
            "chromium-probes/\(name).html",
            contents: html.replacingOccurrences(of: "</body>", with: "<pre id=\"probe\"></pre><script>\(script)</script></body>"))
        let dom = try dumpDOM(of: page, profile: name).stdout
        guard let start = dom.range(of: "<pre id=\"probe\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else { return "" }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    package struct ChromiumMissing: Error, CustomStringConvertible {
        package var description: String { "chromium is not installed (apt-get install chromium)" }
    }
}
