import Foundation
import Testing
import FormworkTestSupport

/// The `formwork` executable, run as a real process.
@Suite("formwork command")
struct CommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]

    @Test("the command links no Foundation beyond FoundationEssentials (Foundation and ICU cost ~4 ms per start)")
    func noFoundation() throws {
        let readelf = ["/usr/bin/readelf", "/bin/readelf"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let readelf else {
            print("skipped: no readelf (binutils) to read the executable's DT_NEEDED entries")
            return
        }
        let result = try run(readelf, ["-d", Build.formwork])
        #expect(result.status == 0, "\(result.stderr)")
        let needed = result.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libswiftCore.so") }, "\(needed)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!needed.contains { $0.contains("[\(library)]") }, "formwork needs \(library): \(needed)")
        }
    }

    @Test("a large form renders the same bytes on one thread and on several, in every format")
    func parallelRenderIsDeterministic() throws {
        var sections: [String] = []
        for s in 0..<6 {
            var fields: [String] = []
            for f in 0..<450 {
                let n = s * 1000 + f
                fields.append(
                    n % 3 == 0
                        ? "{\"id\":\"f\(n)\",\"cell\":\"org.formwork.text-field\",\"model\":{\"title\":\"Name ‹\(n)› \(String(repeating: "long ", count: n % 9))\",\"value\":\"v\(n)\"}}"
                        : n % 3 == 1
                            ? "{\"id\":\"f\(n)\",\"cell\":\"org.formwork.toggle\",\"model\":{\"title\":\"Option \(n)\",\"value\":true}}"
                            : "{\"id\":\"f\(n)\",\"cell\":\"org.formwork.c.rating\",\"model\":{\"title\":\"Rating 日本 \(n)\",\"value\":3}}")
            }
            sections.append(
                "{\"id\":\"s\(s)\",\"header\":\"Section \(s)\",\"footer\":\"End of \(s)\",\"fields\":[\(fields.joined(separator: ","))]}")
        }
        let path = Scratch.directory + "/parallel-\(UUID().uuidString).json"
        try "{\"formwork\":1,\"id\":\"big\",\"title\":\"Big\",\"sections\":[\(sections.joined(separator: ","))]}"
            .write(toFile: path, atomically: true, encoding: .utf8)
        for format in ["text", "ansi", "html", "json"] {
            var one = environment
            one["FORMWORK_THREADS"] = "1"
            var four = environment
            four["FORMWORK_THREADS"] = "4"
            let a = try run(Build.formwork, ["render", path, "--format", format], environment: one)
            let b = try run(Build.formwork, ["render", path, "--format", format], environment: four)
            #expect(a.status == 0, "\(a.stderr)")
            #expect(a.stdout.utf8.count > 100_000)
            #expect(a.stdout == b.stdout, "\(format) differs between one thread and four")
        }
    }

    @Test("a large document's problems are reported identically on one thread and on several (sections decoded in parallel)")
    func parallelDecodeDiagnostics() throws {
        /// Where an id is repeated: the ids are checked for repeats on two cores, a half of the sections each.
        enum Duplicate { case none, fieldAcrossHalves, fieldInOneHalf, section }
        func document(duplicate: Duplicate) -> String {
            var sections: [String] = []
            for s in 0..<5 {
                var fields: [String] = []
                for f in 0..<500 {
                    let n = s * 1000 + f
                    let id =
                        duplicate == .fieldAcrossHalves && s == 3 && f == 7
                        ? "f7"
                        : duplicate == .fieldInOneHalf && s == 1 && f == 5 ? "f5" : "f\(n)"
                    switch (s, f) {
                    case (1, 3): fields.append("{\"id\":\"\(id)\",\"cell\":\"org.formwork.text-feild\",\"model\":{\"title\":\"A\"}}")
                    case (2, 9):
                        fields.append(
                            "{\"id\":\"\(id)\",\"cell\":\"org.formwork.c.rating\",\"model\":{\"title\":\"R\",\"value\":\"three\"}}")
                    case (4, 1):
                        fields.append(
                            "{\"id\":\"\(id)\",\"cell\":\"org.formwork.toggle\",\"visibleIf\":\"nothere == true\",\"model\":{\"title\":\"T\"},\"extra\":1}"
                        )
                    default: fields.append("{\"id\":\"\(id)\",\"cell\":\"org.formwork.toggle\",\"model\":{\"title\":\"Option \(n)\"}}")
                    }
                }
                let id = duplicate == .section && s == 4 ? "s0" : "s\(s)"
                sections.append("{\"id\":\"\(id)\",\"fields\":[\(fields.joined(separator: ","))]}")
            }
            return "{\"formwork\":1,\"id\":\"big\",\"sections\":[\(sections.joined(separator: ","))]}"
        }
        for duplicate in [Duplicate.none, .fieldAcrossHalves, .fieldInOneHalf, .section] {
            let path = Scratch.directory + "/problems-\(UUID().uuidString).json"
            try document(duplicate: duplicate).write(toFile: path, atomically: true, encoding: .utf8)
            var one = environment
            one["FORMWORK_THREADS"] = "1"
            var four = environment
            four["FORMWORK_THREADS"] = "4"
            let a = try run(Build.formwork, ["validate", path], environment: one)
            let b = try run(Build.formwork, ["validate", path], environment: four)
            #expect(a.status == 69, "\(a.stderr)")  // a cell type is missing
            #expect(
                a.stderr.contains("text-feild") && a.stderr.contains("nothere") && a.stderr.contains("/sections/2/fields/9"), "\(a.stderr)")
            #expect(a.stderr.contains("/sections/4/fields/1/extra"), "\(a.stderr)")
            #expect(a.stderr.contains("duplicate field id") == (duplicate == .fieldAcrossHalves || duplicate == .fieldInOneHalf))
            #expect(a.stderr.contains("duplicate section id") == (duplicate == .section))
            #expect(a.stdout == b.stdout && a.stderr == b.stderr && a.status == b.status)
        }
    }

    @Test("list --json shows the 11 standard cells and the C pack's cells")
    func listJSON() throws {
        let result = try run(Build.formwork, ["list", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let packs = object?["packs"] as? [[String: Any]] ?? []
        let cells = packs.flatMap { ($0["cells"] as? [[String: Any]]) ?? [] }
        #expect(cells.count == 13)
        let rating = cells.first { $0["id"] as? String == "org.formwork.c.rating" }
        #expect(rating?["configure"] as? String == "typed")
        let field = cells.first { $0["id"] as? String == "org.formwork.text-field" }
        #expect(field?["textInput"] as? String == "textField")
        // The roles the host gives the model's fields: a 1.1 pack's declared roles.
        #expect(
            field?["roles"] as? [String: String] == [
                "value": "value", "title": "title", "required": "required", "maxLength": "maxLength", "placeholder": "placeholder",
            ])
        #expect((rating?["roles"] as? [String: String])?["value"] == "value")
    }

    @Test("list's common forms (read without ArgumentParser) print what ArgumentParser's reading prints")
    func listCommonForms() throws {
        let broken = try CCompiler.pack("cli-forms", defines: ["FIXTURE_MIN_GT_MAX"])
        let directory = (broken as NSString).deletingLastPathComponent
        // `--timeout` is not a common form: those runs go through ArgumentParser.
        let pairs: [([String], [String])] = [
            (["list"], ["list", "--timeout", "10"]),
            (["list", "--json", "--pack-path", broken], ["list", "--timeout", "10", "--json", "--pack-path", broken]),
            (["list", "--pack-path=\(directory)", "--no-cache"], ["list", "--no-cache", "--timeout", "10", "--pack-path", directory]),
            (
                ["list", "--rescan", "--pack-path", broken, "--pack-path", directory],
                ["list", "--pack-path", broken, "--timeout=10", "--pack-path", directory, "--rescan"]
            ),
            (["list", "--pack-path", "/no/such/dir"], ["list", "--pack-path", "/no/such/dir", "--timeout", "10"]),
        ]
        for (common, parsed) in pairs {
            let a = try run(Build.formwork, common, environment: environment)
            let b = try run(Build.formwork, parsed, environment: environment)
            #expect(a.status == b.status && a.stdout == b.stdout && a.stderr == b.stderr, "\(common) vs \(parsed)")
            #expect(!a.stdout.isEmpty, "\(common)")
        }
        #expect(try run(Build.formwork, ["list", "--json"], environment: environment).stdout.contains("\"org.formwork.toggle\""))
        #expect(
            try run(Build.formwork, ["list", "--pack-path", broken], environment: environment).stdout.contains("minimum 10 is greater"))
        // What the common forms leave alone still gets ArgumentParser's messages.
        let missing = try run(Build.formwork, ["list", "--pack-path"], environment: environment)
        #expect(missing.status == 64 && missing.stderr.contains("--pack-path"), "\(missing.stderr)")
        let unknown = try run(Build.formwork, ["list", "--jsn"], environment: environment)
        #expect(unknown.status == 64 && unknown.stderr.contains("--jsn"), "\(unknown.stderr)")
        let help = try run(Build.formwork, ["list", "--help"], environment: environment)
        #expect(help.status == 0 && help.stdout.contains("USAGE: formwork list"), "\(help.stdout)")
    }

    @Test("list reports a broken pack and still lists the good ones")
    func listBroken() throws {
        let broken = try CCompiler.pack("cli-broken", defines: ["FIXTURE_MIN_GT_MAX"])
        let result = try run(Build.formwork, ["list", "--pack-path", broken], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout.contains("org.formwork.text-field"))
        #expect(
            result.stdout.contains("\(broken): cell type 'com.example.fixture.counter' field 'count': minimum 10 is greater than maximum 1")
        )
    }

    @Test("inspect of an unknown cell exits 69 with one line naming near matches")
    func inspectUnknown() throws {
        let result = try run(Build.formwork, ["inspect", "org.formwork.toggel"], environment: environment)
        #expect(result.status == 69)
        #expect(
            result.stderr.hasPrefix(
                "formwork: error: no cell type 'org.formwork.toggel' is registered; did you mean 'org.formwork.toggle'?"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("inspect prints the schema table; bad usage exits 64")
    func inspectText() throws {
        let result = try run(Build.formwork, ["inspect", "org.formwork.c.money"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout.contains("configure:    typed (byPointer, 56 bytes, alignment 8)"))
        #expect(result.stdout.contains("currency      choice             \"EUR\"    one of EUR|USD|GBP|JPY"))
        #expect(result.stdout.contains("\n  roles:        title → title\n"), "\(result.stdout)")
        let usage = try run(Build.formwork, ["inspect"], environment: environment)
        #expect(usage.status == 64)
    }

    @Test("FORMWORK_PACK_PATH adds packs")
    func environmentPath() throws {
        let good = try CCompiler.pack("cli-env")
        var env = environment
        env["FORMWORK_PACK_PATH"] = (good as NSString).deletingLastPathComponent
        let result = try run(Build.formwork, ["inspect", "com.example.fixture.counter", "--json"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"convention\": \"byPointer\""))
    }
}

@Suite("formwork render and validate")
struct RenderCommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    var login: String { "\(Source.root)/Examples/Forms/login.yaml" }

    @Test("render's common forms (read without ArgumentParser) do what ArgumentParser's reading does")
    func renderCommonForms() throws {
        let kitchen = "\(Source.root)/Examples/Forms/kitchen-sink.yaml"
        let values = "\(Scratch.directory)/common-forms-values.json"
        try #"{"username": "ada@example.com", "remember": true}"#.write(toFile: values, atomically: true, encoding: .utf8)
        let broken = "\(Scratch.directory)/common-forms-broken.yaml"
        try "formwork: 1\nid: b\nsections: [{ id: s, fields: [{ id: x, cell: org.formwork.nope }] }]\n".write(
            toFile: broken, atomically: true, encoding: .utf8)
        let (a, b) = ("\(Scratch.directory)/common-a.html", "\(Scratch.directory)/common-b.html")
        // `--timeout` is not a common form: those runs go through ArgumentParser.
        let pairs: [([String], [String])] = [
            (["render", login], ["render", "--timeout", "10", login]),
            (["render", kitchen, "--format", "html"], ["render", kitchen, "--timeout", "10", "--format", "html"]),
            (
                ["render", "--format=json", login, "--values", values],
                ["render", login, "--values", values, "--format", "json", "--timeout=10"]
            ),
            (
                ["render", login, "--keep-going", "--pack-path", Build.directory],
                ["render", login, "--pack-path=\(Build.directory)", "--timeout", "10", "--keep-going"]
            ),
            (["render", broken], ["render", broken, "--timeout", "10"]),
            (["render", "/no/such/form.yaml"], ["render", "--timeout", "10", "/no/such/form.yaml"]),
            (
                ["render", kitchen, "-o", a, "--format", "html"],
                ["render", kitchen, "--output=\(b)", "--format", "html", "--timeout", "10"]
            ),
            (
                ["render", kitchen, "--width", "60", "--isolation", "in-process", "--no-cache"],
                ["render", kitchen, "--no-cache", "--width=60", "--isolation=in-process", "--timeout", "10"]
            ),
            (
                ["render", login, "--isolation=per-pack", "--width=24"],
                ["render", login, "--timeout=10", "--isolation", "per-pack", "--width", "24"]
            ),
            (["render", login, "--width", "1000"], ["render", login, "--width", "1000", "--timeout", "10"]),
        ]
        for (common, parsed) in pairs {
            let x = try run(Build.formwork, common, environment: environment)
            let y = try run(Build.formwork, parsed, environment: environment)
            #expect(x.status == y.status && x.stdout == y.stdout && x.stderr == y.stderr, "\(common) vs \(parsed)")
        }
        #expect(try run(Build.formwork, ["render", login], environment: environment).stdout.hasPrefix("Sign in\n"))
        #expect(try run(Build.formwork, ["render", broken], environment: environment).status == 69)
        let written = try String(contentsOfFile: a, encoding: .utf8)
        let other = try String(contentsOfFile: b, encoding: .utf8)
        #expect(written.contains("<html") && written == other)
        // What the common forms leave alone still gets ArgumentParser's messages.
        let format = try run(Build.formwork, ["render", login, "--format", "xml"], environment: environment)
        #expect(format.status == 64 && format.stderr.contains("xml"), "\(format.stderr)")
        let missing = try run(Build.formwork, ["render", login, "--output"], environment: environment)
        #expect(missing.status == 64 && missing.stderr.contains("--output"), "\(missing.stderr)")
        let twice = try run(Build.formwork, ["render", login, login], environment: environment)
        #expect(twice.status == 64, "\(twice.stderr)")
        for (option, value) in [("--width", "23"), ("--width", "1001"), ("--width", "wide"), ("--isolation", "none")] {
            let refused = try run(Build.formwork, ["render", login, option, value], environment: environment)
            #expect(refused.status == 64 && refused.stderr.contains(value), "\(option) \(value): \(refused.stderr)")
        }

        let help = try run(Build.formwork, ["render", "--help"], environment: environment)
        #expect(help.status == 0 && help.stdout.contains("USAGE: formwork render"), "\(help.stdout)")
    }

    @Test("render prints text by default when not on a terminal, and ansi only when asked without NO_COLOR")
    func formats() throws {
        let text = try run(Build.formwork, ["render", login, "--width", "60"], environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Sign in\n=======\n"))
        #expect(!text.stdout.contains("\u{1B}["))
        var colour = environment
        colour["NO_COLOR"] = ""
        let ansi = try run(Build.formwork, ["render", login, "--format", "ansi"], environment: colour)
        #expect(ansi.stdout.contains("\u{1B}[1mSign in\u{1B}[0m"))
        // An explicit --format ansi wins over NO_COLOR; without it NO_COLOR means plain text.
        var noColor = environment
        noColor["NO_COLOR"] = "1"
        let explicit = try run(Build.formwork, ["render", login, "--format", "ansi"], environment: noColor)
        #expect(explicit.stdout.contains("\u{1B}[1mSign in\u{1B}[0m"))
        let plain = try run(Build.formwork, ["render", login], environment: noColor)
        #expect(!plain.stdout.contains("\u{1B}["))
        // FORCE_COLOR asks for colour off a terminal (and beats NO_COLOR).
        var force = noColor
        force["FORCE_COLOR"] = "1"
        let forced = try run(Build.formwork, ["render", login], environment: force)
        #expect(forced.stdout.contains("\u{1B}[1mSign in\u{1B}[0m"))
    }

    @Test("CLI conventions: - reads standard input, typos get a suggestion, a missing pack exits 66, a hint is said once")
    func conventions() throws {
        let yaml = try String(contentsOfFile: login, encoding: .utf8)
        let stdin = try run(Build.formwork, ["validate", "-"], environment: environment, input: yaml)
        #expect(stdin.status == 0 && stdin.stdout == "<stdin>: valid (5 fields in 2 sections)\n", "\(stdin.stderr)")
        let values = try run(
            Build.formwork, ["render", login, "--values", "-"], environment: environment,
            input: #"{"username": "ada@example.com", "password": "x"}"#)
        #expect(values.status == 0 && values.stdout.contains("ada@example.com"))
        let both = try run(Build.formwork, ["validate", "-", "--values", "-"], environment: environment, input: yaml)
        #expect(both.status == 64)
        // One error style: ArgumentParser's usage errors too are one line `formwork: error: …` naming the command's
        // help, exit 64 (no `Error:`, no usage block).
        #expect(both.stderr.hasPrefix("formwork: error: the form and --values cannot both be read"), "\(both.stderr)")
        #expect(both.stderr.hasSuffix("(see 'formwork validate --help')\n") && both.stderr.split(separator: "\n").count == 1)
        let badFormat = try run(Build.formwork, ["render", login, "--format", "xml"], environment: environment)
        #expect(badFormat.status == 64 && badFormat.stderr.hasPrefix("formwork: error: ") && !badFormat.stderr.contains("Usage:"))
        let helpBogus = try run(Build.formwork, ["help", "bogus"], environment: environment)
        #expect(helpBogus.status == 64 && helpBogus.stderr.contains("unknown command 'bogus'"), "\(helpBogus.stderr)")
        // On a terminal (a pty from script(1)) render draws ANSI colour, unless TERM=dumb says the terminal cannot.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/script") {
            for (term, coloured) in [("xterm-256color", true), ("dumb", false)] {
                var env = environment
                env["TERM"] = term
                env["NO_COLOR"] = ""  // empty: not set (the helper sets NO_COLOR=1 unless told)
                let pty = try run("/usr/bin/script", ["-qc", "'\(Build.formwork)' render '\(login)'", "/dev/null"], environment: env)
                #expect(pty.stdout.contains("\u{1B}[") == coloured, "TERM=\(term): \(pty.stdout.prefix(80).debugDescription)")
            }
        }
        // validate --json: the verdict as one object (the contract in docs/cli.md), the same exit status.
        let good = try run(Build.formwork, ["validate", login, "--json"], environment: environment)
        #expect(good.status == 0)
        let goodJSON = try #require(JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [String: Any])
        #expect(goodJSON["valid"] as? Bool == true && goodJSON["fields"] as? Int == 5 && (goodJSON["problems"] as? [Any])?.isEmpty == true)
        let valuesFile = "\(Scratch.directory)/json-verdict-values.json"
        try #"{"username": 5, "colour": "red"}"#.write(toFile: valuesFile, atomically: true, encoding: .utf8)
        let bad = try run(Build.formwork, ["validate", login, "--values", valuesFile, "--json"], environment: environment)
        #expect(bad.status == 65)
        #expect(bad.stderr.isEmpty, "\(bad.stderr)")
        let badJSON = try #require(JSONSerialization.jsonObject(with: Data(bad.stdout.utf8)) as? [String: Any])
        let problems = try #require(badJSON["problems"] as? [[String: Any]])
        #expect(badJSON["valid"] as? Bool == false)
        #expect(
            problems.contains {
                $0["pointer"] as? String == "/colour" && $0["code"] as? String == "unknown-field" && $0["line"] as? Int == 1
            })
        #expect(problems.allSatisfy { $0["file"] as? String == valuesFile && $0["message"] is String })
        // The README's sample values files stay valid for their forms.
        let samples = try FileManager.default.contentsOfDirectory(atPath: "\(Source.root)/Examples/Values").filter { $0.hasSuffix(".json") }
        #expect(samples.count >= 3)
        for sample in samples {
            let name = String(sample.dropLast(5))
            let checked = try run(
                Build.formwork,
                ["validate", "\(Source.root)/Examples/Forms/\(name).yaml", "--values", "\(Source.root)/Examples/Values/\(sample)"],
                environment: environment)
            #expect(checked.status == 0, "Examples/Values/\(sample): \(checked.stderr)")
        }
        // formwork paths: the search order (what --pack-path adds comes first) and the cache.
        var pathsEnvironment = environment
        pathsEnvironment["FORMWORK_PACK_PATH"] = "/opt/first:/opt/second"
        let paths = try run(Build.formwork, ["paths", "--pack-path", "/tmp/mine", "--json"], environment: pathsEnvironment)
        #expect(paths.status == 0, "\(paths.stderr)")
        let pathsJSON = try #require(JSONSerialization.jsonObject(with: Data(paths.stdout.utf8)) as? [String: Any])
        let searched = try #require(pathsJSON["packs"] as? [[String: Any]])
        #expect(searched.prefix(3).compactMap { $0["path"] as? String } == ["/tmp/mine", "/opt/first", "/opt/second"])
        #expect(searched.first?["origin"] as? String == "option" && searched[1]["origin"] as? String == "environment")
        #expect(searched.last?["origin"] as? String == "executable")
        #expect((pathsJSON["cache"] as? String)?.hasPrefix(Scratch.directory) == true)
        // The sandbox as a child entered it: the seccomp filter and the limits hold on any Linux this runs on.
        let layers = try #require(pathsJSON["sandbox"] as? [String: [String]], "\(paths.stdout)")
        #expect(layers["applied"]?.contains("seccomp allow-list") == true && layers["applied"]?.contains("limits") == true)
        var basic = environment
        basic["FORMWORK_SANDBOX"] = "basic"
        let basicPaths = try run(Build.formwork, ["paths"], environment: basic)
        #expect(basicPaths.stdout.contains("  missing: Landlock — a pack can read and write any file the user can"), "\(basicPaths.stdout)")
        #expect(basicPaths.stdout.contains("FORMWORK_SANDBOX=basic"), "\(basicPaths.stdout)")
        let pathsText = try run(Build.formwork, ["paths"], environment: environment)
        #expect(pathsText.stdout.hasPrefix("packs, searched in this order:\n  1. ") && pathsText.stdout.contains("registry cache: "))
        #expect(pathsText.stdout.contains("sandbox of the scanner and the cell hosts: limits"), "\(pathsText.stdout)")
        // --help and --version are output like any other: into a full device they fail (74).
        for flag in ["--help", "--version"] {
            let full = try run("/bin/sh", ["-c", "'\(Build.formwork)' \(flag) > /dev/full"], environment: environment)
            #expect(full.status == 74, "\(flag) into /dev/full: \(full.status) \(full.stderr)")
        }
        let typo = try run(Build.formwork, ["rendr", login], environment: environment)
        #expect(typo.status == 64)
        #expect(typo.stderr == "formwork: error: unknown command 'rendr'; did you mean 'render'? (see 'formwork --help')\n")
        let missing = try run(Build.formwork, ["check", "nope.so"], environment: environment)
        #expect(missing.status == 66)
        let unavailable = try run(Build.formwork, ["validate", Source.fixture("forms/planted-errors.yaml")], environment: environment)
        #expect(unavailable.stderr.components(separatedBy: "Searched:").count == 2, "the search hint is said once")
        #expect(unavailable.stderr.contains("formwork: hint: Searched: "))
        // Every command's --help ends its discussion with examples, each a command line ArgumentParser accepts
        // (it is given with its files missing: a usage error would exit 64, a missing file 66), run in a scratch
        // folder with the repository's examples beside it (what an example writes stays there).
        let examplesFolder = "\(Scratch.directory)/help-examples"
        try? FileManager.default.removeItem(atPath: examplesFolder)
        try FileManager.default.createDirectory(atPath: examplesFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(examplesFolder)/Examples", withDestinationPath: "\(Source.root)/Examples")
        for command in ["render", "validate", "list", "inspect", "check", "fill", "schema", "preview", "gallery", "paths", "new-pack"] {
            let text = try run(Build.formwork, [command, "--help"], environment: environment).stdout
            #expect(text.contains("\nEXAMPLES:\n  formwork \(command)"), "\(command) --help has no EXAMPLES section")
            let examples = text.split(separator: "\n").filter { $0.hasPrefix("  formwork \(command)") }
            for example in examples {
                let words = example.split(separator: " ").map(String.init).prefix { $0 != "|" }.dropFirst()
                let tried = try run(
                    Build.formwork, Array(words) + (command == "fill" ? ["--line"] : []), environment: environment,
                    directory: examplesFolder)
                #expect(tried.status != 64, "'\(example)' is not a valid command line: \(tried.stderr)")
            }
        }
        let help = try run(Build.formwork, ["--help"], environment: environment)
        for word in ["FORMWORK_PACK_PATH", "NO_COLOR", "FORCE_COLOR", "Exit codes", "/usr/lib/formwork/packs"] {
            #expect(help.stdout.contains(word), "--help mentions \(word)")
        }
        let completion = try run(
            Build.formwork, ["---completion", "inspect", "--", "positional@0", "2", "0", "formwork", "inspect", ""],
            environment: environment)
        #expect(completion.stdout.contains("org.formwork.text-field\n"))
    }

    @Test("render --output writes the file atomically and leaves no temporary file")
    func output() throws {
        let directory = "\(Scratch.directory)/out"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let result = try run(
            Build.formwork, ["render", login, "--format", "html", "--output", "\(directory)/login.html"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: "\(directory)/login.html", encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["login.html"])
        let denied = try run(Build.formwork, ["render", login, "--output", "/nonexistent/dir/x.html"], environment: environment)
        #expect(denied.status == 73)  // EX_CANTCREAT: the output cannot be created
        #expect(denied.stderr.hasPrefix("formwork: error: /nonexistent/dir/x.html: cannot write:"))
        // The output is streamed: a write that fails on the way is still reported (EX_IOERR), and an
        // existing file is left as it was.
        let full = try run(Build.formwork, ["render", login, "--format", "json", "--output", "/dev/full"], environment: environment)
        #expect(full.status == 74)
        #expect(full.stderr == "formwork: error: /dev/full: cannot write: No space left on device\n")
        try FileManager.default.createDirectory(atPath: "\(directory)/locked", withIntermediateDirectories: true)
        let kept = "\(directory)/locked/kept.html"
        try "old\n".write(toFile: kept, atomically: false, encoding: .utf8)
        chmod("\(directory)/locked", 0o555)  // the temporary file cannot be made beside it
        defer { chmod("\(directory)/locked", 0o755) }
        if geteuid() != 0 {
            let refused = try run(Build.formwork, ["render", login, "--output", kept], environment: environment)
            #expect(refused.status == 73)
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == "old\n")
        }
    }

    @Test("validate: 0 for a good form, 65 with every error, 69 for a missing cell, 66 for a missing file")
    func exitCodes() throws {
        let good = try run(Build.formwork, ["validate", login], environment: environment)
        #expect(good.status == 0)
        #expect(good.stdout.hasSuffix("valid (5 fields in 2 sections)\n"))
        let bad = try Scratch.file(
            "cli/bad.yaml",
            contents:
                "formwork: 1\nid: bad\nsections:\n  - id: s\n    fields:\n      - { id: a, cell: org.formwork.toggle, model: { title: [a, b] } }\n"
        )
        let invalid = try run(Build.formwork, ["validate", bad], environment: environment)
        #expect(invalid.status == 65)
        #expect(invalid.stderr.contains("formwork: error: \(bad):6: /sections/0/fields/0/model/title: title must be a string, not a list"))
        let unavailable = try run(Build.formwork, ["validate", Source.fixture("forms/planted-errors.yaml")], environment: environment)
        #expect(unavailable.status == 69)
        #expect(unavailable.stderr.hasSuffix("formwork: 15 problems found\n"))
        let missing = try run(Build.formwork, ["render", "/nonexistent.yaml"], environment: environment)
        #expect(missing.status == 66)
        #expect(missing.stderr == "formwork: error: /nonexistent.yaml: no such file\n")
        let directory = try run(Build.formwork, ["render", Scratch.directory], environment: environment)
        #expect(directory.status == 66)
    }

    @Test("validate --values runs value_changed and reports rejections")
    func valuesRejected() throws {
        let values = try Scratch.file(
            "cli/values.json", contents: #"{"username": "ada@example.com", "password": "secret", "remember": false}"#)
        let ok = try run(Build.formwork, ["validate", login, "--values", values], environment: environment)
        #expect(ok.status == 0, "\(ok.stderr)")
        let kitchen = "\(Source.root)/Examples/Forms/kitchen-sink.yaml"
        let rejected = try Scratch.file("cli/rejected.json", contents: #"{"pin": "1234567", "rating": 4}"#)
        let result = try run(Build.formwork, ["validate", kitchen, "--values", rejected], environment: environment)
        #expect(result.status == 65)
        #expect(result.stderr.contains("/pin: cell 'org.formwork.text-field' rejected the value of 'pin': PIN takes at most 6 characters"))
    }

    @Test("preview and gallery render every installed cell")
    func previewGallery() throws {
        let preview = try run(Build.formwork, ["preview", "org.formwork.c.rating", "--format", "json"], environment: environment)
        #expect(preview.status == 0)
        #expect(preview.stdout.contains("\"cell\": \"org.formwork.c.rating\""))
        let gallery = try run(Build.formwork, ["gallery", "--format", "html"], environment: environment)
        #expect(gallery.status == 0)
        for id in FirstParty.standardCells { #expect(gallery.stdout.contains("data-cell=\"\(id)\"")) }
        let unknown = try run(Build.formwork, ["preview", "org.formwork.nope"], environment: environment)
        #expect(unknown.status == 69)
    }
}

@Suite("formwork fill")
struct FillCommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    var login: String { "\(Source.root)/Examples/Forms/login.yaml" }

    @Test("--answers fills the form and --output writes the values; prompts go to standard error")
    func answersFile() throws {
        let answers = try Scratch.file("fill/answers.txt", contents: "ada@example.com\nsecret\nn\n")
        let output = "\(Scratch.directory)/fill/values.json"
        let result = try run(Build.formwork, ["fill", login, "--answers", answers, "--output", output], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("[2/3] Password *"))
        #expect(!result.stderr.contains("secret"))
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written == "{\n  \"username\": \"ada@example.com\",\n  \"password\": \"secret\",\n  \"remember\": false\n}\n")
        // The values file round-trips through render and validate.
        let check = try run(Build.formwork, ["validate", login, "--values", output], environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test("answers from a pipe, values on standard output; too few answers exits 65 and writes nothing")
    func pipe() throws {
        let result = try run(Build.formwork, ["fill", login], environment: environment, input: "ada@example.com\nsecret\n\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("{\n  \"username\": \"ada@example.com\""))
        let output = "\(Scratch.directory)/fill/never.json"
        let short = try run(Build.formwork, ["fill", login, "--output", output], environment: environment, input: "ada@example.com\n")
        #expect(short.status == 65)
        #expect(short.stderr.hasSuffix("formwork: error: the answers ended at field 'password'; nothing was written\n"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let missing = try run(Build.formwork, ["fill", login, "--answers", "/nonexistent/answers.txt"], environment: environment)
        #expect(missing.status == 66)
    }
}

/// Values as a server would use them: prefilled partial forms, secure entries kept out of
/// every rendered output, every problem reported in one run.
@Suite("values in render and validate")
struct ValuesCommandTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    let login = "\(Source.root)/Examples/Forms/login.yaml"

    @Test("render prefills a partly filled form; validate is the completeness check")
    func partial() throws {
        let values = try Scratch.file("values/partial.json", contents: #"{"username": "ada@example.com"}"#)
        let render = try run(Build.formwork, ["render", login, "--values", values], environment: environment)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("ada@example.com"))
        let validate = try run(Build.formwork, ["validate", login, "--values", values], environment: environment)
        #expect(validate.status == 65)
        #expect(validate.stderr.contains("/password: required field 'password' has no value"))
    }

    @Test("a secure entry's value is never written into HTML, the JSON view tree, text or ANSI")
    func secure() throws {
        let values = try Scratch.file("values/secret.json", contents: #"{"username": "ada@example.com", "password": "hunter22-secret"}"#)
        for format in ["html", "json", "text", "ansi"] {
            let result = try run(Build.formwork, ["render", login, "--values", values, "--format", format], environment: environment)
            #expect(result.status == 0)
            #expect(!result.stdout.contains("hunter22"), "\(format) leaks the password")
        }
        let text = try run(Build.formwork, ["render", login, "--values", values], environment: environment)
        #expect(text.stdout.contains("[••••••••"))
    }

    @Test("validate --values reports schema problems and the cells' rejections together, with the summary")
    func everyProblem() throws {
        let kitchen = "\(Source.root)/Examples/Forms/kitchen-sink.yaml"
        let values = try Scratch.file("values/many.json", contents: #"{"pin": "1234567", "rating": 9, "nope": 1}"#)
        let result = try run(Build.formwork, ["validate", kitchen, "--values", values], environment: environment)
        #expect(result.status == 65)
        #expect(result.stderr.contains("/nope: no field 'nope' in form 'kitchen-sink'"))
        #expect(result.stderr.contains("/pin: cell 'org.formwork.text-field' rejected the value of 'pin': PIN takes at most 6 characters"))
        #expect(result.stderr.contains("/rating: cell 'org.formwork.c.rating' rejected the value of 'rating'"))
        #expect(result.stderr.hasSuffix("formwork: 3 problems found\n"))
    }

    @Test("the form's description is shown in every renderer")
    func description() throws {
        let order = "\(Source.root)/Examples/Forms/order.yaml"
        for (format, expected) in [
            ("text", "Quantities, sizes and toppings"), ("html", "<p class=\"fw-description\">Quantities"),
            ("json", "\"description\": \"Quantities"),
        ] {
            let result = try run(Build.formwork, ["render", order, "--format", format], environment: environment)
            #expect(result.stdout.contains(expected), "\(format)")
        }
    }
}

@Suite("labelled choices")
struct LabelledChoicesTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory]
    let survey = "\(Source.root)/Examples/Forms/survey.yaml"

    @Test("{ value, label } choices: renderers show labels, values files hold typed values, fill answers with them")
    func typedChoices() throws {
        let values = try Scratch.file("choices/ok.json", contents: #"{"nps": 9, "visits": 12, "again": true, "liked": ["food"]}"#)
        let text = try run(Build.formwork, ["render", survey, "--values", values, "--width", "80"], environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("[Every month") && text.stdout.contains("[Yes]") && text.stdout.contains("[x] The food"))
        let html = try run(Build.formwork, ["render", survey, "--values", values, "--format", "html"], environment: environment)
        #expect(html.stdout.contains("<option value=\"12\" selected>Every month</option>"))
        let wrong = try Scratch.file("choices/text.json", contents: #"{"nps": 9, "visits": "12"}"#)
        let refused = try run(Build.formwork, ["validate", survey, "--values", wrong], environment: environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("/visits: visits must be 12 (not the text \"12\"), as the form's choices write it"))
        let answers = try Scratch.file("choices/answers.txt", contents: "9\n3\n2\n1,3\n.\n")
        let filled = try run(Build.formwork, ["fill", survey, "--answers", answers], environment: environment)
        #expect(filled.status == 0, "\(filled.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(filled.stdout.utf8)) as? [String: Any]
        #expect(json?["visits"] as? Int == 12)
        #expect(json?["again"] as? Bool == false)
        #expect(json?["liked"] as? [String] == ["food", "prices"])
    }
}

@Suite("fill with rules")
struct FillRulesTests {
    @Test("fill asks again with each rule's own message until the answer keeps the rules")
    func rules() throws {
        let signup = "\(Source.root)/Examples/Forms/signup.yaml"
        let answers = try Scratch.file(
            "fill/signup.txt", contents: "A\nAda\nada-at-example\nada@example.com\n\n16\n36\nab12\nAB1234\n1,2,3\n1\n")
        let result = try run(
            Build.formwork, ["fill", signup, "--answers", answers], environment: ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory])
        #expect(result.status == 0, "\(result.stderr)")
        for message in [
            "Your name needs at least 2 letters.", "That does not look like an e-mail address.",
            "You must be 18 or older to sign up.", "Two capital letters, then four digits (AB1234).",
            "Choose at most two interests.",
        ] {
            #expect(result.stderr.contains(message), "fill did not say: \(message)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(json?["name"] as? String == "Ada" && json?["age"] as? Int == 36 && json?["code"] as? String == "AB1234")
        #expect(json?["interests"] as? [String] == ["Music"])
    }
}
