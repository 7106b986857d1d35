import Foundation
import Glibc
import Testing
@testable import FormworkCore

/// Hostile documents: each class of input that used to crash, hang or mislead the host.
@Suite("Hostile documents")
struct HostileInputTests {
    let catalog = InMemory.Catalog()

    func problems(_ text: String, json: Bool = false) -> String {
        do {
            _ = try FormDecoder.decode(text: text, json: json, registry: catalog, file: "doc")
            return ""
        } catch { return error.description }
    }

    static func peakRSSMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    @Test(
        "YAML anchors, aliases, merge keys and tags are refused before anything is expanded",
        arguments: [
            ("a: &x 1\nb: 2\n", "/a: YAML anchors (&x) are not allowed"),
            ("a: [1]\nb: *x\n", "YAML aliases (*x) are not allowed"),
            ("a: {b: 1}\nc:\n  <<: {d: 2}\n", "/c/<<: YAML merge keys (<<) are not allowed"),
            ("x: !!binary aGVsbG8=\n", "/x: YAML tags (!!binary) are not allowed"),
            ("x: !secret token\n", "/x: YAML tags (!secret) are not allowed"),
            ("x: \"a\\0b\"\n", "/x: a NUL character is not allowed in a string"),
            ("sections:\n  - id: a\n    id: b\n", "doc:3: /sections/0/id: duplicate key 'id'"),
        ])
    func yamlRefused(text: String, message: String) {
        #expect(problems(text).contains(message), "\(problems(text))")
    }

    @Test("JSON: NUL characters and duplicate keys name their pointer")
    func jsonPointers() {
        #expect(problems(#"{"a": [{"b": "x\u0000y"}]}"#, json: true).contains("/a/0/b: a NUL character (\\u0000) is not allowed"))
        #expect(problems(#"{"a": {"k": 1, "k": 2}}"#, json: true).contains("/a/k: duplicate key 'k'"))
    }

    @Test("duplicate keys are found in large mappings too (searched below 16 keys, a set above)")
    func largeMappings() {
        let keys = (0..<40).map { "k\($0)" }
        let yaml = "m:\n" + (keys + ["k3", "k39"]).map { "  \($0): 1\n" }.joined()
        #expect(problems(yaml).contains("/m/k3: duplicate key 'k3'"), "\(problems(yaml))")
        let json = "{\"m\": {" + (keys + ["k39"]).map { "\"\($0)\": 1" }.joined(separator: ", ") + "}}"
        #expect(problems(json, json: true).contains("/m/k39: duplicate key 'k39'"), "\(problems(json, json: true))")
        let unique = "m:\n" + keys.map { "  \($0): 1\n" }.joined()
        #expect(!problems(unique).contains("duplicate"))
    }

    @Test("the worst YAML shapes within the size limit parse in bounded time and memory")
    func boundedYAML() throws {
        // Billion laughs: nine levels of nine-fold aliases (392 bytes would expand to 10^9 nodes).
        var laughs = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for (p, c) in zip("abcdefgh", "bcdefghi") {
            laughs += "\(c): &\(c) [" + Array(repeating: "*\(p)", count: 9).joined(separator: ",") + "]\n"
        }
        let shapes: [(String, String)] = [
            ("billion laughs", laughs),
            ("alias fan-out", "a: &a x\n" + (0..<100_000).map { "k\($0): *a\n" }.joined()),
            ("deep block nesting", (0..<10_000).map { String(repeating: " ", count: $0) + "k:\n" }.joined()),
            ("deep flow nesting", String(repeating: "[", count: 100_000)),
            ("one long line", "x: " + String(repeating: "y", count: 8_000_000) + "\n"),
            ("many keys", (0..<200_000).map { "k\($0): v\n" }.joined()),
        ]
        // Bounded means linear: each shape may take at most what a plain document of its size
        // takes on this machine, now (measured here, so a loaded machine or a sanitizer slows both), times 200
        // plus two seconds. An exponential expansion is orders of magnitude past that. "Plain" is the
        // costlier per byte of two ordinary documents: one long value, and keys each reported as unknown
        // (a tenth of "many keys": a shape that is linear costs ten times that, not two hundred).
        let before = Self.peakRSSMiB()
        var perByte = Duration.zero
        for plain in ["x: " + String(repeating: "y", count: 8_000_000) + "\n", (0..<20_000).map { "k\($0): v\n" }.joined()] {
            let start = ContinuousClock.now
            _ = problems(plain)
            perByte = max(perByte, (ContinuousClock.now - start) / plain.utf8.count)
        }
        for (name, text) in shapes {
            let start = ContinuousClock.now
            _ = problems(text)
            let elapsed = ContinuousClock.now - start
            let allowed = perByte * text.utf8.count * 200 + .seconds(2)
            #expect(elapsed < allowed, "\(name) took \(elapsed), more than \(allowed) (200× a plain document of its size)")
        }
        #expect(Self.peakRSSMiB() - before < 1024, "peak RSS grew by \(Self.peakRSSMiB() - before) MiB")
    }

    @Test("dates: offsets beyond ±14:00 and bare numbers are refused")
    func dates() {
        #expect(DateFormat.parse("2026-01-01T00:00:00+14:00") != nil)
        #expect(DateFormat.parse("2026-01-01T00:00:00-12:00") != nil)
        #expect(DateFormat.parse("2026-01-01T00:00:00+14:01") == nil)
        #expect(DateFormat.parse("2026-01-01T00:00:00+99:00") == nil)
        #expect(DateFormat.parse("2026-01-01T00:00:00+01:75") == nil)
        let date = CellType(
            id: "test.date", name: "Date", fields: [FieldSchema(name: "value", type: .date)],
            packID: "test.pack", packPath: "<memory>", packABI: InMemory.abi)
        let catalog = InMemory.Catalog(cellTypes: [date])
        for bare in ["1767225600", "1.5e9"] {
            let text = "formwork: 1\nid: d\nsections: [{id: s, fields: [{id: f, cell: test.date, model: {value: \(bare)}}]}]\n"
            let error = #expect(throws: FormError.self) { try FormDecoder.decode(text: text, json: false, registry: catalog) }
            #expect(error?.description.contains("/sections/0/fields/0/model/value: value must be a date such as") == true)
        }
    }

    @Test("insets and spacing are bounded at the door", arguments: ["1e300", "-1", "1001", "{top: 1e300}"])
    func layoutNumbers(value: String) {
        let text = "formwork: 1\nid: d\nsections: [{id: s, insets: \(value), fields: []}]\n"
        #expect(problems(text).contains("/sections/0/insets"), "\(problems(text))")
        let spacing = "formwork: 1\nid: d\nsections: [{id: s, spacing: \(value == "{top: 1e300}" ? "1e308" : value), fields: []}]\n"
        #expect(problems(spacing).contains("spacing must be a number from 0 to 1000"))
    }

    @Test("every renderer survives extreme numbers in a view tree built in memory")
    func extremeNumbers() {
        let control = Control(field: "value", id: "d", label: "When")
        for seconds in [1e300, -1e300, Double.greatestFiniteMagnitude, 253_402_300_800, -1e15] {
            for mode in DatePickerMode.allCases {
                let field = FieldView(
                    id: "d", cell: "c", accessibilityId: "d", required: false,
                    textInput: TextInputConfiguration(kind: .datePicker, field: "value"),
                    nodes: [.date(control, seconds: seconds, mode: mode)], minimum: -seconds, maximum: seconds)
                let tree = ViewTree(
                    formID: "f", title: "T",
                    sections: [
                        SectionView(
                            id: "s", header: nil, footer: nil, insets: EdgeInsets(top: seconds, left: 1e300, bottom: 0, right: -0.0),
                            spacing: seconds, fields: [field])
                    ])
                for format in OutputFormat.allCases { #expect(!Renderer.render(tree, as: format, width: 24).isEmpty) }
            }
        }
    }
}

/// Nothing from a document reaches a terminal raw: every string sink of the text
/// and ANSI renderers neutralises C0/C1 controls and DEL.
@Suite("Terminal escapes")
struct TerminalEscapeTests {
    static let evil = "x\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{7F}y"

    @Test("the sanitiser maps each control to a visible stand-in of the same width")
    func sanitiser() {
        #expect(TerminalText.safe(Self.evil) == "x␛]0;owned␇␛[2J�31m␡y")
        #expect(TerminalText.safe("a\nb\tc") == "a␊b␉c")
        #expect(TerminalText.safe("a\nb\tc", keepLayout: true) == "a\nb\tc")
        #expect(TerminalText.safe("plain é ✓") == "plain é ✓")
    }

    @Test("text and ANSI output carry no escape but Formwork's own styles, from every node kind")
    func renderers() {
        let e = Self.evil
        let c = Control(field: "value", id: "i", label: e)
        let nodes: [ViewNode] = [
            .group(role: "row", title: e, children: [.label(text: e, style: .title)]),
            .value(label: e, text: e),
            .textInput(c, text: e, placeholder: e),
            .textInput(Control(field: "value", id: "m", label: e, multiline: true), text: e + "\n" + e, placeholder: nil),
            .toggle(c, isOn: true), .button(c, role: .primary),
            .choice(c, choices: [Choice(value: e, label: e)], selected: e, style: .menu),
            .choice(c, choices: [Choice(value: e, label: e)], selected: nil, style: .segments),
            .date(c, seconds: 0, mode: .date), .message(kind: .error, text: e),
        ]
        let field = FieldView(
            id: "f", cell: "c", accessibilityId: "f", required: true,
            textInput: TextInputConfiguration(kind: .textField, field: "value"), nodes: nodes)
        let tree = ViewTree(formID: "f", title: e, sections: [SectionView(id: "s", header: e, footer: e, fields: [field])])
        let text = Renderer.render(tree, as: .text, width: 80)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        let ansi = Renderer.render(tree, as: .ansi, width: 80)
        // The only ESC left starts one of the renderer's SGR styles: ESC [ digits/; m.
        let parts = ansi.components(separatedBy: "\u{1B}").dropFirst()
        #expect(parts.allSatisfy { $0.range(of: #"^\[[0-9;]*m"#, options: .regularExpression) != nil })
        #expect(!ansi.contains("\u{1B}]") && !ansi.contains("\u{9B}") && !ansi.contains("\u{07}"))
    }
}
