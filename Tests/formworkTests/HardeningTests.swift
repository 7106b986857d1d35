import Foundation
import Glibc
import Testing
import FormworkTestSupport

/// Hostile packs, search paths and output files, tried on the real command.
@Suite("Hardening: packs, paths and outputs")
struct HardeningTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    let login = "\(Source.root)/Examples/Forms/login.yaml"

    func form(using cell: String, name: String) throws -> String {
        try Scratch.file(
            "hard/\(name).yaml",
            contents: """
                formwork: 1
                id: \(name)
                title: "T"
                sections: [{ id: s, fields: [{ id: c, cell: \(cell), model: { title: T, count: 3 } }] }]
                """)
    }

    @Test("a cell array whose struct_size is 0x7FFFFFF0 is refused before its second element is read")
    func hugeStride() throws {
        let pack = try CCompiler.pack("stride", defines: ["FIXTURE_CELL_COUNT=2", "FIXTURE_CELL_SIZE=0x7FFFFFF0"])
        let result = try run(Build.formwork, ["list", "--pack-path", pack], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout.contains("cell_types[0].struct_size is 2147483632, larger than the"))
        #expect(result.stdout.contains("org.formwork.text-field"))
    }

    @Test("an integer bound of 1e300 is refused at load, so inspect, schema and check never trap on it")
    func hugeBound() throws {
        let pack = try CCompiler.pack("huge-bound", defines: ["FIXTURE_HUGE_BOUND"])
        let list = try run(Build.formwork, ["list", "--pack-path", pack], environment: environment)
        #expect(list.stdout.contains("an integer field's minimum and maximum must be whole numbers within int64_t (got 1e+300)"))
        for arguments in [
            ["schema", "--pack-path", pack], ["inspect", "org.formwork.text-field", "--json", "--pack-path", pack], ["check", pack],
        ] {
            let result = try run(Build.formwork, arguments, environment: environment)
            #expect(result.status == 0 || result.status == 65, "\(arguments): \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
        }
    }

    @Test("a pack's labels, values and messages never reach the terminal raw: list, inspect, render text, validate")
    func packEscapes() throws {
        let pack = try CCompiler.pack("escapes", defines: ["FIXTURE_ESCAPES"])
        let form = try form(using: "com.example.fixture.counter", name: "escapes")
        let values = try Scratch.file("hard/escape-values.json", contents: #"{"c": "T\u001b]0;x\u0007"}"#)
        let runs = [
            try run(Build.formwork, ["inspect", "com.example.fixture.counter", "--pack-path", pack], environment: environment),
            try run(Build.formwork, ["render", form, "--format", "text", "--pack-path", pack], environment: environment),
            try run(Build.formwork, ["render", form, "--format", "ansi", "--pack-path", pack], environment: environment),
            try run(Build.formwork, ["validate", form, "--values", values, "--pack-path", pack], environment: environment),
            try run(Build.formwork, ["check", pack], environment: environment),
        ]
        for result in runs {
            for text in [result.stdout, result.stderr] {
                #expect(!text.contains("\u{1B}]") && !text.contains("\u{07}") && !text.contains("\u{1B}[2J"), "\(text)")
            }
        }
        #expect(runs[1].stdout.contains("Escapes␛[31m  ␛]8;;http://evil.example␇link"))
    }

    @Test("what a pack prints in init and render goes to standard error, never into --json output; scanning is silent")
    func packStdout() throws {
        let pack = try CCompiler.pack("prints", defines: ["FIXTURE_PRINTS"])
        let form = try form(using: "com.example.fixture.counter", name: "prints")
        let list = try run(Build.formwork, ["list", "--json", "--pack-path", pack], environment: environment)
        #expect((try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8))) != nil, "\(list.stdout)")
        // The scanner keeps what a pack prints while it is read (for a quarantine report); it reaches neither stream.
        #expect(!list.stdout.contains("PACK-STDOUT") && !list.stderr.contains("PACK-STDOUT"), "\(list.stderr)")
        let render = try run(Build.formwork, ["render", form, "--format", "json", "--pack-path", pack], environment: environment)
        #expect(render.status == 0, "\(render.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(render.stdout.utf8))) != nil, "\(render.stdout)")
        #expect(!render.stdout.contains("PACK-STDOUT"))
        for line in ["PACK-STDOUT init", "PACK-STDOUT render (buffered)", "PACK-STDOUT render (raw)"] {
            #expect(render.stderr.contains(line), "\(line)")
        }
    }

    @Test("pack files and directories others can write or own are refused, with the fix")
    func untrusted() throws {
        let directory = "\(Scratch.directory)/untrusted"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pack = try CCompiler.pack("trust", defines: [])
        let copy = "\(directory)/libtrust.so"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: pack, toPath: copy)
        chmod(directory, 0o777)
        var result = try run(Build.formwork, ["list", "--pack-path", directory], environment: environment)
        #expect(result.stdout.contains("\(directory): refused: the directory is writable by everyone (mode 777)"))
        #expect(result.stdout.contains("run `chmod go-w \(directory)`"))
        chmod(directory, 0o755)
        chmod(copy, 0o664)
        result = try run(Build.formwork, ["list", "--pack-path", directory], environment: environment)
        #expect(result.stdout.contains("\(copy): refused: the file is writable by its group (mode 664)"))
        chmod(copy, 0o644)
        if geteuid() == 0 {
            chown(copy, 4242, 4242)
            result = try run(Build.formwork, ["list", "--pack-path", directory], environment: environment)
            #expect(result.stdout.contains("\(copy): refused: the file belongs to user 4242, neither root nor you"))
            chown(copy, 0, 0)
        }
        result = try run(Build.formwork, ["list", "--pack-path", directory], environment: environment)
        #expect(result.stdout.contains("com.example.fixture.counter"))
    }

    @Test("relative FORMWORK_PACK_PATH entries are ignored with a warning; an explicit relative --pack-path works")
    func relativePaths() throws {
        let directory = "\(Scratch.directory)/relative"
        try FileManager.default.createDirectory(atPath: "\(directory)/relp", withIntermediateDirectories: true)
        let pack = try CCompiler.pack("relative", defines: [])
        try? FileManager.default.removeItem(atPath: "\(directory)/relp/librel.so")
        try FileManager.default.copyItem(atPath: pack, toPath: "\(directory)/relp/librel.so")
        var env = environment
        env["FORMWORK_PACK_PATH"] = "relp"
        let ignored = try run(Build.formwork, ["list"], environment: env, directory: directory)
        #expect(!ignored.stdout.contains("com.example.fixture.counter"))
        #expect(ignored.stderr.contains("FORMWORK_PACK_PATH entry 'relp' is not an absolute path and is ignored"))
        let explicit = try run(Build.formwork, ["list", "--pack-path", "relp"], environment: environment, directory: directory)
        #expect(explicit.stdout.contains("com.example.fixture.counter"))
    }

    @Test("--output over an existing file keeps its permission bits; symlinks are followed; FIFOs and devices are written, not replaced")
    func outputFiles() throws {
        let directory = "\(Scratch.directory)/outputs"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let secret = "\(directory)/secret.html"
        #expect(FileManager.default.createFile(atPath: secret, contents: Data("old".utf8)))
        chmod(secret, 0o600)
        var result = try run(Build.formwork, ["render", login, "--format", "html", "--output", secret], environment: environment)
        #expect(result.status == 0)
        var info = stat()
        stat(secret, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: secret, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))

        let target = "\(directory)/target.txt", link = "\(directory)/link.txt"
        try? FileManager.default.removeItem(atPath: link)
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.txt")
        result = try run(Build.formwork, ["render", login, "--output", link], environment: environment)
        #expect(result.status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.txt")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("Sign in"))

        let fifo = "\(directory)/fifo"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        // A reader on the other end (cat), then formwork writing into the FIFO rather than replacing it.
        result = try run(
            "/bin/bash",
            ["-c", "cat '\(fifo)' > '\(fifo).out' & '\(Build.formwork)' render '\(login)' --output '\(fifo)'; s=$?; wait; exit $s"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: "\(fifo).out", encoding: .utf8).hasPrefix("Sign in"))
        stat(fifo, &info)
        #expect(info.st_mode & S_IFMT == S_IFIFO)

        result = try run(Build.formwork, ["render", login, "--output", "/dev/null"], environment: environment)
        #expect(result.status == 0)
        stat("/dev/null", &info)
        #expect(info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("write errors exit 74 (standard output on /dev/full) or 73 (an output that cannot be created); a closed pipe ends quietly")
    func writeErrors() throws {
        let full = try run("/bin/sh", ["-c", "'\(Build.formwork)' render '\(login)' > /dev/full"], environment: environment)
        #expect(full.status == 74)
        #expect(full.stderr.contains("formwork: error: standard output: cannot write: No space left on device"))
        let bash = try run(
            "/bin/bash", ["-c", "'\(Build.formwork)' gallery --format html | true; echo \"status=${PIPESTATUS[0]}\""],
            environment: environment)
        // Its reader went away (`| head`): the command stops quietly, as git and ripgrep do.
        #expect(bash.stdout.contains("status=0") && !bash.stderr.contains("cannot write"), "\(bash.stdout) \(bash.stderr)")
        let stdoutDash = try run(Build.formwork, ["render", login, "-o", "-"], environment: environment)
        #expect(stdoutDash.status == 0 && stdoutDash.stdout.contains("Sign in"), "\(stdoutDash.stderr)")
        let deviceFull = try run(Build.formwork, ["render", login, "--output", "/dev/full"], environment: environment)
        #expect(deviceFull.status == 74)
        let readOnly = "\(Scratch.directory)/readonly"
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
        chmod(readOnly, 0o555)
        defer { chmod(readOnly, 0o755) }
        if geteuid() != 0 {  // root writes anywhere
            let denied = try run(Build.formwork, ["render", login, "--output", "\(readOnly)/x.txt"], environment: environment)
            #expect(denied.status == 73)
        }
        let missingDirectory = try run(Build.formwork, ["render", login, "--output", "/nonexistent/x.txt"], environment: environment)
        #expect(missingDirectory.status == 73)
    }
}
