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

    @Test("a model keeps only what differs from its cell type's defaults, reads the same, and compares by its values")
    func onlyWhatDiffers() {
        let cell = InMemory.textField  // title, value, required (default false), maxLength
        var model = FieldModel(defaultsOf: cell)
        #expect(model.overrides.isEmpty && model.values == [nil, nil, .bool(false), nil])
        // Written out of schema order: kept in it, one each.
        model[3] = .integer(7)
        model[0] = .string("Name")
        model[1] = .string("Ada")
        model[0] = .string("Title")
        #expect(model.overrides.map(\.index) == [0, 1, 3] && model[0] == .string("Title"))
        // A default written back is no override; an absent value where the schema has a default is one.
        model["required"] = .bool(false)
        #expect(model.overrides.map(\.index) == [0, 1, 3])
        model["required"] = nil
        #expect(model.overrides.map(\.index) == [0, 1, 2, 3] && model["required"] == nil && model.values[2] == nil)
        model["required"] = .bool(false)
        model["value"] = nil
        #expect(model.overrides.map(\.index) == [0, 3])
        #expect(model.values == [.string("Title"), nil, .bool(false), .integer(7)])
        // The same values however they were written are equal; the array initialiser makes the same overrides.
        var other = FieldModel(defaultsOf: cell)
        other["maxLength"] = .integer(7)
        other["required"] = .bool(false)
        other["title"] = .string("Title")
        #expect(other == model && other.overrides == model.overrides)
        #expect(FieldModel(cell: cell, values: model.values).overrides == model.overrides)
        other["maxLength"] = .integer(8)
        #expect(other != model)
        // The walk in place gives what `values` gives, position by position.
        // An override is no larger than the value alone (its index in the value's padding).
        #expect(MemoryLayout<FieldModel.Override>.stride == MemoryLayout<Value?>.stride)
        var walked: [(Int, Value?)] = []
        model.forEachValue { walked.append(($0, $1.pointee)) }
        #expect(walked.map(\.0) == [0, 1, 2, 3] && walked.map(\.1) == model.values)
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

    @Test("rules, conditions, item and choices live in a box of their own, shared by copies until one of them writes")
    func extrasAreValues() {
        var first = FormField(id: "n", cell: InMemory.textField, model: ["title": .string("Name")])
        #expect(first.rules == FieldRules() && first.conditions == FieldConditions() && first.item == nil && first.crossRules.isEmpty)
        first.rules.minLength = .init(2)
        first.item = ItemPosition(group: "g", index: 0, name: "n")
        // A copy shares both boxes; writing its rules leaves the first's rules and item as they were.
        var second = first
        second.rules.minLength = .init(5)
        second.conditions.hidden = true
        #expect(first.rules.minLength?.value == 2 && !first.conditions.hidden)
        #expect(second.rules.minLength?.value == 5 && second.conditions.hidden && second.item?.index == 0)
        // Writing only the copy's main storage (its id) still leaves the extras shared, and the first's intact.
        var third = second
        third.id = "t"
        third.item?.index = 3
        #expect(second.item?.index == 0 && third.item?.index == 3 && third.rules.minLength?.value == 5)
        // A repeated group's items are copies of one template: each has its own place.
        var section = FormSection(id: "g", fields: [])
        section.template = [first]
        let items = [section.item(0), section.item(1)]
        #expect(items.map { $0[0].item?.index } == [0, 1] && first.item?.index == 0)
        #expect(items.allSatisfy { $0[0].rules.minLength?.value == 2 })
    }

    @Test("what a field takes from its cell type and id is stored only when it differs, and reads the same")
    func takenFromTheCellType() {
        var field = FormField(id: "n", cell: InMemory.textField, model: ["title": .string("Name")])
        #expect(field.textInput == InMemory.textField.textInput && field.accessibilityId == "n" && field.valueField == "value")
        #expect(field.storage.extras == nil)  // all three as the cell type and the id say: no box
        // The accessibility id follows the id until it is set; then it stays what it was when the id changes.
        field.id = "m"
        #expect(field.accessibilityId == "n")
        field.accessibilityId = "m"
        #expect(field.storage.extras?.accessibilityId == nil && field.accessibilityId == "m")
        field.id = "k"
        #expect(field.accessibilityId == "m" && field.id == "k")
        // A text input of its own, a value field of its own, and none at all (not the cell type's).
        var own = field
        own.textInput.traits.secureEntry = true
        own.valueField = nil
        #expect(own.textInput.traits.secureEntry == true && own.valueField == nil)
        #expect(field.textInput.traits.secureEntry != true && field.valueField == "value")  // the copy's own
        own.textInput = InMemory.textField.textInput
        own.valueField = "value"
        #expect(own.storage.extras?.textInput == nil && own.storage.extras?.valueField == nil)
        // Made with them: the same as set after.
        let made = FormField(
            id: "a", cell: InMemory.textField, model: FieldModel(cell: InMemory.textField, values: [.string("T")]),
            textInput: TextInputConfiguration(kind: .textField, field: "title"), accessibilityId: "b", required: false,
            valueField: "title", location: FieldLocation(""))
        #expect(made.textInput.field == "title" && made.accessibilityId == "b" && made.valueField == "title")
        // Another cell type: the model follows it, its values kept by name.
        var moved = FormField(id: "c", cell: InMemory.counter, model: ["title": .string("Count"), "value": .integer(4)])
        moved.cell = InMemory.textField
        #expect(moved.model.cell === InMemory.textField && moved.model["title"] == .string("Count"))
    }
}
