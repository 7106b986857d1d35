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
        // Cut into equal batches (a small last batch would leave the second cell host idle).
        #expect(driver.batches == [count / 2, count - count / 2])
        #expect(driver.requests.map(\.fieldID) == (0..<count).map { "c\($0)" })
        let views = tree.sections[0].fields
        #expect(views.count == count)
        #expect(views[3].nodes == [.value(label: "Count", text: "4")])
        #expect(views[count - 5].nodes == [.value(label: "Count", text: "6")])
        #expect(
            views[count - 1].nodes == [.value(label: "Count", text: "2"), .message(kind: .error, text: "7 is odd; choose an even number")])
        #expect(views[count - 2].nodes == [.value(label: "Count", text: "2")])
        #expect(runtime.rejections.map(\.pointer) == ["/c\(count - 1)"])
    }

    @Test("batches are equal and at most batchSize; every field is driven once, in order")
    func batchSizes() throws {
        for count in [1, FormRuntime.batchSize, FormRuntime.batchSize + 1, 3 * FormRuntime.batchSize - 7] {
            let fields = (0..<count).map { "{ id: c\($0), cell: test.counter }" }.joined(separator: ", ")
            let form = try form("formwork: 1\nid: f\nsections: [{ id: s, fields: [\(fields)] }, { id: empty, fields: [] }]")
            let driver = InMemory.Driver()
            let tree = try FormRuntime(driver: driver).render(form)
            #expect(driver.batches.reduce(0, +) == count)
            #expect(driver.batches.allSatisfy { $0 <= FormRuntime.batchSize })
            #expect((driver.batches.max() ?? 0) - (driver.batches.min() ?? 0) <= 1, "batches of \(count): \(driver.batches)")
            #expect(tree.sections[0].fields.map(\.id) == (0..<count).map { "c\($0)" })
            #expect(tree.sections[1].fields.isEmpty)
        }
    }

    @Test("a form of several batches keeps conditions, rules across fields, failures and the spare item of a repeatable group")
    func pipelinedBatches() throws {
        let count = 2 * FormRuntime.batchSize + 100
        let fields = (0..<count).map { "{ id: c\($0), cell: test.counter, model: { value: 2 } }" }.joined(separator: ", ")
        let form = try form(
            """
            formwork: 1
            id: f
            sections:
              - { id: big, fields: [\(fields)] }
              - id: after
                fields:
                  - { id: hidden, cell: test.counter, visibleIf: "c5 > 10" }
                  - { id: shown, cell: test.counter, visibleIf: "c\(count - 1) == 2" }
              - id: tasks
                repeat: { minItems: 0, maxItems: 3, itemLabel: Task }
                fields:
                  - { id: title, cell: test.text-field, required: true, model: { title: Title } }
            """)
        let driver = InMemory.Driver()
        let runtime = FormRuntime(driver: driver)
        let tree = try runtime.render(form)
        #expect(driver.batches.count == 3)
        #expect(tree.sections[0].fields.count == count)
        #expect(tree.sections[0].fields.map(\.id) == (0..<count).map { "c\($0)" })
        #expect(tree.sections[1].fields.map(\.visible) == [false, true])
        // The spare item (after the items shown) is driven in the last batch and shown as optional.
        let items = form.sections[2].itemCount
        let spare = tree.sections[2].spare
        #expect(spare.map(\.id) == ["tasks/\(items)/title"])
        #expect(spare.first?.required == false && spare.first?.item?.index == items)
        #expect(driver.requests.last?.fieldID == "tasks/\(items)/title")
        #expect(tree.sections[2].fields.map(\.id) == (0..<items).map { "tasks/\($0)/title" })
        #expect(runtime.failures.isEmpty && runtime.rejections.isEmpty)
    }

    @Test("the first batch is prepared and the last one finished in two halves at once: views, failures and rejections in field order")
    func halvesInOrder() throws {
        // Two batches across sections of 997 fields, so that a section straddles each half's boundary.
        let count = FormRuntime.batchSize + 3000
        let perSection = 997
        var sections: [String] = []
        for start in stride(from: 0, to: count, by: perSection) {
            let fields = (start..<min(count, start + perSection)).map { "{ id: c\($0), cell: test.counter, model: { value: 2 } }" }
            sections.append("{ id: s\(start), fields: [\(fields.joined(separator: ", "))] }")
        }
        var form = try form("formwork: 1\nid: f\nsections: [\(sections.joined(separator: ", "))]")
        let half = count / 2
        // Rejected and failing fields in the first batch, and in both halves of the last one.
        let rejected = [3, half + 10, half + half / 2 - 1, half + half / 2 + 1, count - 1]
        try ValuesFile.apply(Dictionary(uniqueKeysWithValues: rejected.map { ("c\($0)", Value.integer(7)) }), to: &form)
        let failing = [5, half + 20, count - 2]
        let driver = InMemory.Driver()
        driver.failing = Set(failing.map { "c\($0)" })
        let runtime = FormRuntime(driver: driver)
        let tree = try runtime.render(form, keepGoing: true)
        #expect(driver.batches == [half, count - half])
        #expect(tree.sections.map(\.id) == stride(from: 0, to: count, by: perSection).map { "s\($0)" })
        let views = tree.sections.flatMap(\.fields)
        #expect(views.map(\.id) == (0..<count).map { "c\($0)" })
        #expect(runtime.rejections.map(\.pointer) == rejected.map { "/c\($0)" })
        #expect(runtime.failures.map(\.fieldID) == failing.map { "c\($0)" })
        for i in rejected { #expect(views[i].nodes.last == .message(kind: .error, text: "7 is odd; choose an even number")) }
        for i in failing {
            #expect(views[i].nodes == [.message(kind: .error, text: "This field could not be shown: its cell failed on purpose.")])
        }
        #expect(views[half + 11].nodes == [.value(label: "Count", text: "2")])
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

    @Test("a form of one batch is rendered without a thread; one of several pipelines its batches on a second thread")
    func threadsOfARender() throws {
        // The server checks every submission with a render: a thread started and joined for nothing beside one
        // batch was a thread created per request.
        let small = try form("formwork: 1\nid: f\nsections: [{ id: s, fields: [{ id: c, cell: test.counter, model: { value: 2 } }] }]")
        let before = Parallel.threadsStartedHere
        let tree = try FormRuntime(driver: InMemory.Driver()).render(small)
        #expect(tree.sections[0].fields[0].nodes == [.value(label: "Count", text: "2")])
        #expect(Parallel.threadsStartedHere == before)

        let fields = (0..<(FormRuntime.batchSize + 10)).map { "{ id: c\($0), cell: test.counter, model: { value: 2 } }" }
        let large = try form("formwork: 1\nid: f\nsections: [{ id: s, fields: [\(fields.joined(separator: ", "))] }]")
        let started = Parallel.threadsStartedHere
        let driver = InMemory.Driver()
        let views = try FormRuntime(driver: driver).render(large).sections[0].fields
        #expect(views.count == FormRuntime.batchSize + 10 && views.allSatisfy { $0.nodes == [.value(label: "Count", text: "2")] })
        #expect(Parallel.threadsStartedHere > started || Parallel.threads == 1)
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

    @Test("a form handed over has each section's fields freed once their views are made; one kept is left as it was")
    func handedOverFieldsAreFreed() throws {
        // Six sections of half a batch: three batches, so that the third is performed after the first is finished.
        let half = FormRuntime.batchSize / 2
        let sections = (0..<6).map { s in
            let fields = (0..<half).map { "{ id: s\(s)f\($0), cell: test.counter, model: { value: 2 } }" }.joined(separator: ", ")
            return "{ id: s\(s), fields: [\(fields)] }"
        }
        let document = "formwork: 1\nid: f\nsections: [\(sections.joined(separator: ", "))]"
        let form = try form(document)

        /// Records, as each batch is performed, whether the first field of the first and of the last section is alive.
        final class Watching: CellDriver {
            let inner = InMemory.Driver()
            weak var first: AnyObject?
            weak var last: AnyObject?
            var alive: [(first: Bool, last: Bool)] = []
            func perform(_ requests: [CellRequest]) throws(RuntimeError) -> [CellResponse] {
                alive.append((first != nil, last != nil))
                return try inner.perform(requests)
            }
            func drain() {}
        }
        // Kept by the caller: nothing is freed, and the form renders the same again.
        let keeping = Watching()
        keeping.first = form.sections[0].fields[0].storage
        keeping.last = form.sections[5].fields[0].storage
        let kept = try FormRuntime(driver: keeping).render(form)
        #expect(keeping.alive.map(\.first) == [true, true, true] && keeping.alive.map(\.last) == [true, true, true])
        #expect(try FormRuntime(driver: InMemory.Driver()).render(form) == kept)

        // Handed over (a form of its own: `form` above is still held): the first section's fields are gone by the
        // third batch, the last section's are not yet.
        let watching = Watching()
        var handed: Form? = try self.form(document)
        watching.first = handed!.sections[0].fields[0].storage
        watching.last = handed!.sections[5].fields[0].storage
        let tree = try FormRuntime(driver: watching).render(handed.take()!)
        #expect(watching.alive.count == 3)
        #expect(watching.alive.map(\.first) == [true, true, false])
        #expect(watching.alive.map(\.last) == [true, true, true])
        #expect(watching.first == nil && watching.last == nil)
        #expect(tree == kept)
    }
}
