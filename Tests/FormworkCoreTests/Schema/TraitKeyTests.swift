import Foundation
import Testing
@testable import FormworkCore
import FormworkTestSupport

@Suite("Text-input trait vocabulary")
struct TraitKeyTests {
    @Test("the decoder, the JSON outputs and the JSON Schema read one table")
    func oneTable() {
        #expect(
            TraitKey.documentKeys == [
                "autocapitalization", "autocorrection", "spellChecking", "smartDashes", "smartQuotes",
                "smartInsertDelete", "keyboard", "keyboardAppearance", "returnKey", "clearButton",
                "secure", "contentType", "dataDetectors", "selectable", "datePickerMode", "rows", "suggestions", "autofocus",
            ])
        #expect(TraitKey.documentKeys(for: .picker) == [])
        #expect(TraitKey.documentKeys(for: .datePicker) == ["datePickerMode"])
        var traits = TextInputTraits()
        traits.secureEntry = true
        traits.dateMode = .time
        traits.minimumField = "earliest"
        #expect(
            TraitKey.json(traits)
                == .object([("secure", .bool(true)), ("datePickerMode", .string("time")), ("minimumField", .string("earliest"))]))
    }

    @Test("every value the JSON Schema allows, the decoder accepts (including 'default')")
    func schemaAgreesWithDecoder() throws {
        for key in TraitKey.all where key.isDocumentKey {
            guard case .array(let allowed)? = key.jsonSchema["enum"] else { continue }
            for case .string(let name) in allowed {
                var traits = TextInputTraits()
                #expect(key.apply(SourceNode(.string(name)), to: &traits) == nil, "\(key.name): \(name)")
                #expect(name == "default" || key.json(in: traits) == .string(name))
            }
        }
    }

    @Test("docs/forms.md names every document key")
    func documented() throws {
        let docs = try String(contentsOfFile: "\(Source.root)/docs/forms.md", encoding: .utf8)
        for key in TraitKey.documentKeys { #expect(docs.contains("`\(key)`"), "docs/forms.md does not mention `\(key)`") }
    }
}

@Suite("Values, numbers and pointers")
struct ValueEncodingTests {
    @Test("one encoding of values as JSON")
    func values() {
        #expect(Value.number(1_767_225_600).json(as: .date) == .string("2026-01-01"))
        #expect(Value.number(2.5).json(as: .number) == .number(2.5))
        #expect(Value.integer(3).json(as: .integer) == .integer(3))
        #expect(Value.stringList(["a"]).json(as: .stringList) == .array([.string("a")]))
        let f = FieldSchema(name: "n", type: .integer)
        #expect(f.boundJSON(5) == .integer(5))
        #expect(f.boundJSON(1e300) == .number(1e300))  // never traps
    }

    @Test("numbers are formatted one way, and never trap")
    func numbers() {
        #expect(NumberText.format(3) == "3")
        #expect(NumberText.format(-0.5) == "-0.5")
        #expect(NumberText.format(1e300) == "1e+300")
        #expect(NumberText.format(.infinity) == "inf")
        #expect(NumberText.format(.nan) == "nan")
        #expect(JSON.number(1e15).serialized() == "1000000000000000.0")
        #expect(JSON.number(.nan).serialized() == "null")
    }

    @Test("JSON pointer tokens are escaped")
    func pointers() {
        #expect(Pointer.escape("a/b~c") == "a~1b~0c")
        #expect(Pointer.escape("plain") == "plain")
    }

    @Test("schema checks: ranges, lengths, choices, options")
    func schemaValidator() {
        let n = FieldSchema(name: "n", type: .integer, minimum: 1, maximum: 10)
        #expect(SchemaValidator.problem(with: .integer(0), for: n, model: [:]) == "is 0, below the minimum 1")
        #expect(SchemaValidator.problem(with: .integer(5), for: n, model: [:]) == nil)
        let s = FieldSchema(name: "s", type: .string, minLength: 2, maxLength: 3)
        #expect(SchemaValidator.problem(with: .string("é"), for: s, model: [:]) == "has 1 character, fewer than the minimum 2")
        #expect(SchemaValidator.problem(with: .string("a\nb"), for: s, model: [:])?.contains("line break") == true)
        let c = FieldSchema(name: "c", type: .choice, choices: [Choice(value: "a"), Choice(value: "b", label: "Bee")])
        #expect(SchemaValidator.problem(with: .string("z"), for: c, model: [:]) == "'z' is not one of the choices: a, b")
        #expect(SchemaValidator.problem(with: .bool(true), for: c, model: [:]) == "is a bool but 'c' is a choice")
    }
}
