import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

@Suite("Form documents and validation")
struct FormDecoderTests {
    let registry = firstPartyRegistry()

    func diagnostics(_ path: String) -> [Diagnostic] {
        do {
            _ = try FormDecoder.load(path: path, registry: registry)
            return []
        } catch {
            if case .invalid(let d) = error { return d }
            Issue.record("expected diagnostics, got \(error)")
            return []
        }
    }

    @Test("every example form is valid")
    func examplesAreValid() throws {
        for name in ["login.yaml", "register.yaml", "forgot-password.json", "kitchen-sink.yaml"] {
            let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/\(name)", registry: registry)
            #expect(!form.fields.isEmpty, "\(name)")
        }
    }

    @Test("every YAML example and fuzz corpus document: decoded as read, the usual path's form or its report word for word")
    func yamlAsRead() throws {
        let directories = ["\(Source.root)/Examples/Forms", "\(Source.root)/Fuzz/corpus", Source.fixture("forms")]
        var taken = 0
        for directory in directories {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where name.hasSuffix(".yaml") {
                let path = "\(directory)/\(name)"
                let text = try String(contentsOfFile: path, encoding: .utf8)
                // The usual path (the whole tree, then decoded) and load (sections decoded as they are read), as on two cores.
                func outcome(_ body: () throws(FormError) -> Form) -> String {
                    do { return Renderer.render(try FormRuntime(registry: registry).render(try body()), as: .json) } catch {
                        return "\(error)"
                    }
                }
                let tree = outcome { () throws(FormError) in try FormDecoder.decode(text: text, json: false, registry: registry, file: path)
                }
                let load = outcome { () throws(FormError) in try FormDecoder.load(path: path, registry: registry) }
                #expect(load == tree, "\(name)")
                var bytes = text
                let asRead = bytes.withUTF8 { FormDecoder.decodeSectionsAsRead($0, path: path, registry: registry) }
                if asRead != nil { taken += 1 }
            }
        }
        #expect(taken >= 8)  // the valid examples at least
    }

    @Test("validate reports every planted error with its pointer and line")
    func plantedErrors() {
        let found = diagnostics(Source.fixture("forms/planted-errors.yaml"))
        let expected: [(String, Int, String)] = [
            (
                "/colour", 4,
                "unknown key 'colour' in the form; allowed keys: formwork, id, title, description, language, translations, sections"
            ),
            (
                "/sections/0/fields/0/model/titel", 10,
                "unknown model field 'titel' for cell 'org.formwork.text-field'; did you mean 'title'?"
            ),
            ("/sections/0/fields/0/model", 10, "missing required model field 'title' (string) for cell 'org.formwork.text-field'"),
            (
                "/sections/0/fields/1/id", 11,
                "duplicate field id 'name' (first used at /sections/0/fields/0); field ids must be unique across the form's top-level fields"
            ),
            ("/sections/0/fields/1/model/value", 13, "value must be true or false, not a string"),
            ("/sections/0/fields/1/textInput", 14, "cell 'org.formwork.toggle' has no text input; remove 'textInput'"),
            (
                "/sections/0/fields/2/model/value", 17,
                "value '2026-02-30' is not a date; write \"2026-11-21\", \"2026-11-21T09:30:00Z\" or a time alone, \"09:30\""
            ),
            ("/sections/0/fields/3/model/value", 20, "value 2028-01-01 is after the latest date 2027-01-01 (maximum)"),
            ("/sections/0/fields/4/model/value", 23, "value is 12, above the maximum 10"),
            ("/sections/0/fields/5/model/currency", 26, "currency 'BTC' is not one of the choices: EUR, USD, GBP, JPY"),
            ("/sections/0/fields/6/model/value", 29, "value 'C' is not one of choices: A, B"),
            ("/sections/0/fields/6/textInput/keybord", 30, "unknown text-input trait 'keybord'; did you mean 'keyboard'?"),
            (
                "/sections/0/fields/7/textInput/clearButton", 34,
                "'clearButton' does not apply to a textView (cell 'org.formwork.text-view'); it applies to textField"
            ),
            (
                "/sections/0/fields/8/cell", 36,
                "no cell type 'org.formwork.textfield' is registered; did you mean 'org.formwork.text-field'"
            ),
            ("/sections/1/id", 37, "duplicate section id 'one' (first used at /sections/0)"),
        ]
        #expect(found.count == expected.count, "\(found.map(\.description).joined(separator: "\n"))")
        for (pointer, line, message) in expected {
            let match = found.first { $0.pointer == pointer && $0.message.hasPrefix(message) }
            #expect(match != nil, "no diagnostic \(pointer): \(message)")
            #expect(match?.line == line, "\(pointer) line")
        }
        #expect(found.first { $0.pointer == "/sections/0/fields/8/cell" }?.kind == .unavailable)
        #expect(found.contains { $0.kind == .unavailable })  // exit 69 (tested in formworkTests)
    }

    @Test("accessibility ids take CellViewModel's section and row suffixes")
    func accessibilitySuffix() throws {
        let form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/register.yaml", registry: registry)
        #expect(form.sections[0].fields[0].accessibilityId == "register_name_0_0")
        #expect(form.sections[0].fields[1].accessibilityId == "email")
    }

    @Test(
        "bad input gets one clear error and the right exit code",
        arguments: [
            ("{\"formwork\": 1,\n \"id\": \"x\",\n \"sections\": [}", "json", 65, ":3: unexpected character '}'"),
            ("formwork: 1\nid: [x\n", "yaml", 65, ":3: while parsing a flow sequence"),
            ("[1, 2]", "json", 65, "a form document must be an object"),
            (String(repeating: "[", count: 5000), "json", 65, "nesting deeper than 64 levels"),
            (String(repeating: "[", count: 5000), "yaml", 65, "nesting deeper than 64 levels"),
            ("{\"a\": \"x\u{0001}\"}", "json", 65, "control character inside a string"),
            ("{\"a\": 1, \"a\": 2}", "json", 65, "duplicate key 'a'"),
        ] as [(String, String, Int32, String)])
    func badInput(text: String, ext: String, code: Int32, message: String) throws {
        let path = try Scratch.file("bad/input-\(abs(text.hashValue)).\(ext)", contents: text)
        let thrown = #expect(throws: FormError.self) { try FormDecoder.load(path: path, registry: registry) }
        guard let error = thrown else { return }
        if code == 65 { #expect(error.isParseOrInvalid) }
        #expect(error.description.contains(message), "\(error.description)")
        #expect(error.description.contains(path) || { if case .invalid = error { return true } else { return false } }())
    }

    @Test("a missing file and a directory exit 66")
    func missingInputs() {
        let missing = #expect(throws: FormError.self) { try FormDecoder.load(path: "/nonexistent/form.yaml", registry: registry) }
        #expect(missing == .missingFile("/nonexistent/form.yaml"))
        #expect(missing?.description == "/nonexistent/form.yaml: no such file")
        let directory = #expect(throws: FormError.self) { try FormDecoder.load(path: Scratch.directory, registry: registry) }
        #expect(directory == .notAFile(Scratch.directory))
        #expect(directory?.description.hasSuffix("is a directory, not a file; pass a form document (.json, .yaml)") == true)
    }

    @Test("an enormous string is refused by the schema, not rendered")
    func enormousString() throws {
        let big = String(repeating: "x", count: 2_000_000)
        let text =
            "{\"formwork\":1,\"id\":\"big\",\"sections\":[{\"id\":\"s\",\"fields\":[{\"id\":\"f\",\"cell\":\"org.formwork.text-field\",\"model\":{\"title\":\"\(big)\"}}]}]}"
        let error = #expect(throws: FormError.self) { try FormDecoder.decode(text: text, json: true, registry: registry) }
        #expect(
            error?.description.contains("/sections/0/fields/0/model/title: title has 2000000 characters, more than the maximum 200") == true
        )
    }

    @Test("YAML plain scalars read as booleans or numbers keep their text where the schema wants a string")
    func yamlPlainText() throws {
        let form = try FormDecoder.decode(
            text: """
                formwork: 1
                id: y
                sections: [{ id: s, fields: [
                  { id: a, cell: org.formwork.segments, model: { title: On, choices: [Yes, No, 1.0], value: No } },
                  { id: t, cell: org.formwork.toggle, model: { title: Off, value: yes } } ] }]
                """, json: false, registry: registry)
        let fields = form.fields
        #expect(fields[0].model["title"] == .string("On"))
        #expect(fields[0].model["choices"] == .stringList(["Yes", "No", "1.0"]))
        #expect(fields[0].model["value"] == .string("No"))
        #expect(fields[1].model["title"] == .string("Off"))
        #expect(fields[1].model["value"] == .bool(true))
        // JSON has no such ambiguity: a JSON boolean is not a string.
        #expect(throws: FormError.self) {
            try FormDecoder.decode(
                text:
                    #"{"formwork":1,"id":"j","sections":[{"id":"s","fields":[{"id":"t","cell":"org.formwork.toggle","model":{"title":true}}]}]}"#,
                json: true, registry: registry)
        }
    }

    @Test("the JSON parser handles escapes, surrogate pairs and numbers, and counts lines")
    func jsonParser() throws {
        let node = try JSONParser.parse("{\n\"a\": \"\\u00e9\\ud83d\\ude00\\n\",\n\"b\": [1, -2.5e3, true, null]\n}")
        #expect(node["a"]?.string == "é😀\n")
        #expect(node["b"]?.json == .array([.integer(1), .number(-2500), .bool(true), .null]))
        #expect(node["b"]?.line == 3)
        #expect(throws: ParseError(line: 1, message: "unpaired surrogate in \\u escape")) { try JSONParser.parse("\"\\ud83d\"") }
    }

    @Test("dates parse as UTC, with offsets, and reject impossible days")
    func dates() {
        #expect(DateFormat.parse("2026-11-21") == 1_795_219_200)
        #expect(DateFormat.parse("2026-11-21T01:00:00+01:00") == 1_795_219_200)
        #expect(DateFormat.parse("2026-02-30") == nil)
        #expect(DateFormat.iso8601(1_795_219_200) == "2026-11-21")
        #expect(DateFormat.iso8601(1_795_219_200 + 3600) == "2026-11-21T01:00:00Z")
    }

    @Test("values files: unknown ids, wrong types and required fields are all reported")
    func valuesFile() throws {
        var form = try FormDecoder.load(path: "\(Source.root)/Examples/Forms/login.yaml", registry: registry)
        let path = try Scratch.file("values/bad.json", contents: "{\n\"username\": 5,\n\"pasword\": \"x\",\n\"remember\": true\n}")
        let error = #expect(throws: FormError.self) { try ValuesFile.apply(path: path, to: &form) }
        guard case .invalid(let d)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(
            d.map(\.description) == [
                "\(path):2: /username: username must be a string, not an integer",
                "\(path):3: /pasword: no field 'pasword' in form 'login'; did you mean 'password'?",
                "\(path): /password: required field 'password' has no value",
            ])
    }
}

extension FormError {
    var isParseOrInvalid: Bool {
        switch self {
        case .parse, .invalid, .tooLarge: true
        default: false
        }
    }
}
