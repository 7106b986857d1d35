import Testing
@testable import FormworkCore

@Suite("Runtime through the CellDriver protocol (no packs)")
struct FormRuntimeTests {
    let catalog = InMemory.Catalog()

    func form(_ yaml: String) throws -> Form {
        try FormDecoder.decode(text: yaml, json: false, registry: catalog)
    }

    @Test("a document decodes against Swift-defined cell types and renders through the driver")
    func render() throws {
        let form = try form(
            """
            formwork: 1
            id: f
            title: Order
            sections:
              - id: s
                fields:
                  - { id: name, cell: test.text-field, model: { title: Name, value: Ada }, required: true }
                  - { id: count, cell: test.counter, model: { value: 4 } }
            """)
        let driver = InMemory.Driver()
        let tree = try FormRuntime(driver: driver).render(form)
        #expect(driver.requests.count == 2)
        #expect(driver.requests[0].model == [.string("Name"), .string("Ada"), .bool(true), nil])
        #expect(tree.sections[0].fields[0].required)
        #expect(tree.sections[0].fields[1].nodes == [.value(label: "Count", text: "4")])
        let text = Renderer.render(tree, as: .text, width: 40)
        #expect(text.hasPrefix("Order\n=====\n"))
        #expect(text.contains("Name *"))
    }

    @Test("values applied from memory are offered to the cell; a rejection keeps the document's value and is reported")
    func valuesFromMemory() throws {
        var form = try form(
            """
            formwork: 1
            id: f
            sections: [{ id: s, fields: [{ id: count, cell: test.counter, model: { value: 2 } },
                                         { id: name, cell: test.text-field, model: { title: Name } }] }]
            """)
        try ValuesFile.apply(["count": .integer(7), "name": .string("Grace")], to: &form)
        #expect(form.values == ["count": .integer(7), "name": .string("Grace")])
        let runtime = FormRuntime(driver: InMemory.Driver())
        let tree = try runtime.render(form)
        #expect(
            tree.sections[0].fields[0].nodes == [
                .value(label: "Count", text: "2"), .message(kind: .error, text: "7 is odd; choose an even number"),
            ])
        #expect(runtime.rejections.map(\.pointer) == ["/count"])
        #expect(try runtime.offer(.integer(8), to: form.sections[0].fields[0]) == nil)
        #expect(try runtime.offer(.integer(9), to: form.sections[0].fields[0]) == "9 is odd; choose an even number")
    }

    @Test("a form larger than one batch is sent in several; offers and rejections land on their own fields")
    func severalBatches() throws {
        let count = FormRuntime.batchSize + 900
        let fields = (0..<count).map { "{ id: c\($0), cell: test.counter, model: { value: 2 } }" }.joined(separator: ", ")
        var form = try form("formwork: 1\nid: f\nsections: [{ id: s, fields: [\(fields)] }]")
        // One value in the first batch, two in the second (one of them rejected).
        try ValuesFile.apply(["c3": .integer(4), "c\(count - 5)": .integer(6), "c\(count - 1)": .integer(7)], to: &form)
        let driver = InMemory.Driver()
        let runtime = FormRuntime(driver: driver)
        let tree = try runtime.render(form)
        #expect(driver.batches == [FormRuntime.batchSize, 900])
        let views = tree.sections[0].fields
        #expect(views.count == count)
        #expect(views[3].nodes == [.value(label: "Count", text: "4")])
        #expect(views[count - 5].nodes == [.value(label: "Count", text: "6")])
        #expect(
            views[count - 1].nodes == [.value(label: "Count", text: "2"), .message(kind: .error, text: "7 is odd; choose an even number")])
        #expect(views[count - 2].nodes == [.value(label: "Count", text: "2")])
        #expect(runtime.rejections.map(\.pointer) == ["/c\(count - 1)"])
    }

    @Test("values from memory get the same checks as a values file")
    func valuesChecked() throws {
        var form = try form(
            """
            formwork: 1
            id: f
            sections: [{ id: s, fields: [{ id: count, cell: test.counter }] }]
            """)
        let error = #expect(throws: FormError.self) {
            try ValuesFile.apply(["count": .integer(500), "nope": .bool(true)], to: &form)
        }
        guard case .invalid(let diagnostics)? = error else { Issue.record("not .invalid: \(String(describing: error))"); return }
        #expect(diagnostics.map(\.pointer) == ["/count", "/nope"])
        #expect(diagnostics[0].message == "count is 500, above the maximum 100")
    }

    @Test("a form built in memory gets the cell's defaults and roles")
    func builtInMemory() throws {
        let field = FormField(id: "n", cell: InMemory.textField, model: ["title": .string("Name")], required: true)
        #expect(field.model["required"] == .bool(true))
        #expect(field.valueField == "value")
        let form = Form(id: "m", sections: [FormSection(id: "s", fields: [field])])
        let tree = try FormRuntime(driver: InMemory.Driver()).render(form)
        #expect(tree.sections[0].fields[0].required)
    }
}
