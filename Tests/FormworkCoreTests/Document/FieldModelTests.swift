import Testing

@testable import FormworkCore

@Suite("Document: a field's model in schema order")
struct FieldModelTests {
    @Test("values are read and written by name, stored in schema order, and names the schema lacks are kept aside")
    func byName() {
        var model = FieldModel(cell: InMemory.textField, ["value": .string("Ada"), "title": .string("Name"), "note": .bool(true)])
        #expect(model.values == [.string("Name"), .string("Ada"), nil, nil])
        #expect(model["title"] == .string("Name"))
        #expect(model["note"] == .bool(true))
        #expect(model["missing"] == nil)
        #expect(model.names == ["title", "value", "note"])
        #expect(model.count == 3)
        model["required"] = .bool(true)
        model["value"] = nil
        model["note"] = nil
        #expect(model.values == [.string("Name"), nil, .bool(true), nil])
        #expect(model == ["title": .string("Name"), "required": .bool(true)])
        #expect(model.dictionary == ["title": .string("Name"), "required": .bool(true)])
        #expect(model == FieldModel(cell: InMemory.textField, values: [.string("Name"), nil, .bool(true)]))
        #expect(model != FieldModel(cell: InMemory.textField, values: [.string("Name")]))
    }

    @Test("a decoded field's model has its defaults in schema order, and the request takes it as it is")
    func decoded() throws {
        let form = try FormDecoder.decode(
            text:
                "formwork: 1\nid: f\nsections:\n  - id: s\n    fields:\n      - { id: n, cell: test.text-field, model: { title: Name } }\n",
            json: false, registry: InMemory.Catalog())
        let field = form.sections[0].fields[0]
        #expect(field.model.values == [.string("Name"), nil, .bool(false), nil])
        #expect(FormRuntime.prepare(field).request.model == field.model.values)
        // The public initialiser fills defaults the same way.
        #expect(FormField(id: "n", cell: InMemory.textField, model: ["title": .string("Name")]).model == field.model)
    }

    @Test("a field is a value: changing a copy (its model, id, rules) leaves the original as it was")
    func valueSemantics() {
        let original = FormField(id: "n", cell: InMemory.textField, model: ["title": .string("Name")])
        var copy = original
        copy.model["value"] = .string("Ada")
        copy.id = "m"
        copy.labelledChoices["x"] = LabelledChoice(json: .string("x"), label: "X")
        #expect(original.model == ["title": .string("Name"), "required": .bool(false)])
        #expect(original.id == "n" && original.labelledChoices.isEmpty)
        #expect(copy.model["value"] == .string("Ada") && copy.id == "m")
        var form = Form(id: "f", sections: [FormSection(id: "s", fields: [original])])
        let before = form
        form.sections[0].fields[0].model["title"] = .string("Changed")
        #expect(before.sections[0].fields[0].model["title"] == .string("Name"))
        #expect(form.sections[0].fields[0].model["title"] == .string("Changed"))
    }
}
