import Foundation
import Testing
import FormworkTestSupport

/// ABI 1.2's pack extension `org.formwork.choices/1`: a document's picker and multi-select take their choices from
/// a pack (`choicesFrom`), listed in the sandboxed cell host at render and submit time. Real packs, real processes.
@Suite("Choices a pack supplies")
struct ChoicesTests {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": Scratch.directory, "NO_COLOR": "1", "ASAN_OPTIONS": "handle_segv=0"]

    /// The example pack, built by its Makefile as its author would.
    func places() throws -> String {
        try ExamplePack.build("places-c", library: "libplaces.so")
    }

    static let trip = """
        formwork: 1
        id: trip
        sections:
          - id: s
            fields:
              - { id: from, cell: org.formwork.picker, choicesFrom: com.example.places/airports, model: { title: Flying from } }
              - { id: visit, cell: org.formwork.multi-select, choicesFrom: com.example.places/countries, model: { title: Countries } }
        """

    /// A form whose segments take the sizes of the fixture pack (Tests/Fixtures/choices_pack.c).
    static let sizes = """
        formwork: 1
        id: h
        sections: [{ id: s, fields: [{ id: size, cell: org.formwork.segments, choicesFrom: com.example.sizes/sizes, model: { title: Size } }] }]
        """

    func formwork(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try run(Build.formwork, arguments, environment: environment)
        return (result.status, result.stdout, result.stderr)
    }

    @Test(
        "render and validate list the pack's choices in every isolation mode; values outside them are refused",
        arguments: ["shared", "per-pack", "in-process"])
    func renderAndValidate(isolation: String) throws {
        let pack = try places()
        let form = try Scratch.file("choices/\(isolation)/trip.yaml", contents: Self.trip)
        let common = ["--pack-path", pack, "--isolation", isolation]
        let text = try formwork(["render", form, "--width", "70"] + common)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("London Heathrow") && text.stdout.contains("[ ] Switzerland"), "\(text.stdout)")
        let good = try Scratch.file("choices/\(isolation)/good.json", contents: #"{"from": "LHR", "visit": ["FR", "NL"]}"#)
        #expect(try formwork(["validate", form, "--values", good] + common).status == 0)
        let html = try formwork(["render", form, "--values", good, "--format", "html"] + common)
        #expect(html.stdout.contains(#"<option value="LHR" selected>London Heathrow</option>"#), "\(html.stdout)")
        let bad = try Scratch.file("choices/\(isolation)/bad.json", contents: #"{"from": "JFK", "visit": ["XX"]}"#)
        let refused = try formwork(["validate", form, "--values", bad] + common)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains("bad.json:1: /from: from 'JFK' is not one of choices: AMS, CDG, FRA, LHR, MAD, ZRH"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("/visit: visit has 'XX', which is not one of options"))
    }

    @Test("the example's trip form, with an answer, in every format matches its golden files", arguments: ["text", "ansi", "html", "json"])
    func golden(format: String) throws {
        let pack = try places()
        let values = try Scratch.file("choices/golden-\(format).json", contents: #"{"from": "LHR", "visit": ["FR"]}"#)
        let result = try formwork([
            "render", "\(Source.root)/Examples/Packs/places-c/trip.yaml", "--values", values, "--pack-path", pack, "--format", format,
            "--width", "72",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        var output = result.stdout
        if format == "html", let start = output.range(of: "<style>"), let end = output.range(of: "</style>") {
            output.replaceSubrange(start.upperBound..<end.lowerBound, with: "/* HTMLRenderer.stylesheet */")
        }
        try Golden.check(output, against: "choices/trip.\(format == "text" ? "txt" : format)")
    }

    @Test("schema --values gives the choices listed now as the value's enum")
    func valuesSchema() throws {
        let result = try formwork(["schema", "--values", "\(Source.root)/Examples/Packs/places-c/trip.yaml", "--pack-path", try places()])
        #expect(result.status == 0, "\(result.stderr)")
        let compact = result.stdout.filter { !$0.isWhitespace }
        #expect(compact.contains(#""enum":["AMS","CDG","FRA","LHR","MAD","ZRH"]"#), "\(result.stdout)")
        #expect(compact.contains(#""enum":["DE","ES","FR","GB","NL","CH"]"#), "\(result.stdout)")
    }

    @Test("the choices come from the pack's data now: a file in its resource directory, read in the sandbox")
    func resourceDirectory() throws {
        let source = try places()
        let directory = "\(Scratch.directory)/choices/resource"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: "\(directory)/com.example.places", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: "\(directory)/libplaces.so")
        try "OSL\tOslo Gardermoen\nCPH\tCopenhagen Kastrup\n".write(
            toFile: "\(directory)/com.example.places/airports.tsv", atomically: true, encoding: .utf8)
        let form = try Scratch.file("choices/resource/trip.yaml", contents: Self.trip)
        let text = try formwork(["render", form, "--width", "70", "--pack-path", directory])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Oslo Gardermoen, Copenhagen Kastrup") && !text.stdout.contains("Heathrow"), "\(text.stdout)")
    }

    @Test(
        "a document that names choices wrongly is refused at the field, with what to do",
        arguments: [
            (
                "com.example.nowhere/airports", "org.formwork.picker", "{ title: T }",
                "/sections/0/fields/0/choicesFrom: no pack 'com.example.nowhere' is registered"
            ),
            (
                "com.example.places/rivers", "org.formwork.picker", "{ title: T }",
                "pack 'com.example.places' has no choices source 'rivers'; its sources are airports, countries"
            ),
            (
                "com.example.places", "org.formwork.picker", "{ title: T }",
                "'choicesFrom' names a pack and one of its sources as PACK_ID/SOURCE"
            ),
            (
                "com.example.places/airports", "org.formwork.text-field", "{ title: T }",
                "'org.formwork.text-field' takes no list of choices to fill"
            ),
            (
                "com.example.places/airports", "org.formwork.picker", "{ title: T, choices: [A, B] }",
                "/sections/0/fields/0/model/choices: 'choices' comes from com.example.places/airports; leave it out of the model"
            ),
            (
                "com.example.places/airports", "org.formwork.picker", "{ title: T, value: JFK }",
                "/sections/0/fields/0/model/value: 'JFK' is not one of the choices com.example.places/airports lists now"
            ),
        ])
    func documentErrors(from: String, cell: String, model: String, message: String) throws {
        let pack = try places()
        let form = try Scratch.file(
            "choices/errors/\(abs(message.hashValue)).yaml",
            contents:
                "formwork: 1\nid: e\nsections: [{ id: s, fields: [{ id: f, cell: \(cell), choicesFrom: \(from), model: \(model) }] }]\n")
        let result = try formwork(["validate", form, "--pack-path", pack])
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(
        "a pack whose choices crash, hang, repeat or fail costs that field a clear error, never the process",
        arguments: [
            ("CHOICES_CRASH", "the cell host crashed with SIGSEGV"),
            ("CHOICES_HANG", "the cell host did not return within 2 s (a hang?) while listing choices"),
            ("CHOICES_DUPLICATE", "list emitted the value 'M' twice; values must be unique"),
            ("CHOICES_EMPTY_VALUE", "list emitted an empty or NULL value (choice 2)"),
            ("CHOICES_FAIL", "list returned FW_ERROR: the sizes service is down"),
            ("CHOICES_NONE", "com.example.sizes/sizes lists no choices now; there is nothing to choose from"),
        ])
    func hostilePack(define: String, message: String) throws {
        let pack = try CCompiler.pack(
            "choices-\(define.lowercased())", source: Source.fixture("choices_pack.c"), defines: [define], include: Source.include)
        let form = try Scratch.file(
            "choices/hostile/\(define).yaml",
            contents: Self.sizes)
        let result = try formwork(["render", form, "--pack-path", pack, "--timeout", "2"])
        #expect(result.status == 69, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("/sections/0/fields/0/choicesFrom"), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count <= 2, "\(result.stderr)")
    }

    @Test("labels reach a terminal only neutralised")
    func escapes() throws {
        let pack = try CCompiler.pack(
            "choices-escapes", source: Source.fixture("choices_pack.c"), defines: ["CHOICES_ESCAPES"], include: Source.include)
        let form = try Scratch.file(
            "choices/escapes.yaml",
            contents: Self.sizes)
        for format in ["text", "ansi"] {
            let result = try formwork(["render", form, "--pack-path", pack, "--format", format])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}]0;") && !result.stdout.contains("\u{1B}[2J"), "\(result.stdout)")
            #expect(result.stdout.contains("Medium"))
        }
    }

    @Test(
        "the loader refuses a choices extension it cannot use",
        arguments: [
            ("CHOICES_NULL_LIST", "pack 'com.example.sizes': org.formwork.choices/1: list is NULL; the extension must provide list"),
            ("CHOICES_BAD_SOURCE", "pack 'com.example.sizes': org.formwork.choices/1: source '9lives' must match [A-Za-z][A-Za-z0-9_.-]*"),
        ])
    func refusedExtension(define: String, message: String) throws {
        let pack = try CCompiler.pack(
            "choices-\(define.lowercased())", source: Source.fixture("choices_pack.c"), defines: [define], include: Source.include)
        let result = try formwork(["check", pack])
        #expect(result.status == 65)
        #expect(result.stdout.contains(message), "\(result.stdout)")
    }

    @Test("check lists every source of the example pack")
    func check() throws {
        let result = try formwork(["check", try places()])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("✓ choices                  org.formwork.choices/1: airports: 6, countries: 6"), "\(result.stdout)")
        let crash = try CCompiler.pack(
            "choices-check-crash", source: Source.fixture("choices_pack.c"), defines: ["CHOICES_CRASH"], include: Source.include)
        let failed = try formwork(["check", crash])
        #expect(failed.status == 65)
        #expect(failed.stdout.contains("crashed with SIGSEGV (signal 11) in step 'list 'sizes''"), "\(failed.stdout)")
    }
}
