import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

@Suite("Runtime: configure through the ABI")
struct RuntimeTests {
    let registry = firstPartyRegistry()

    func form(_ yaml: String) throws -> Form {
        try FormDecoder.decode(text: yaml, json: false, registry: registry)
    }

    func nodes(_ tree: ViewTree) -> [ViewNode] { tree.sections.flatMap(\.fields).flatMap(\.nodes) }

    @Test("the typed C cells show the document's values (libffi by value and by pointer)")
    func typedConfigure() throws {
        let tree = try FormRuntime(registry: registry).render(
            form(
                """
                formwork: 1
                id: typed
                sections:
                  - id: s
                    fields:
                      - { id: r, cell: org.formwork.c.rating, model: { title: Taste, value: 3, maximum: 4, labels: [Bad, Meh, Good, Wow] } }
                      - { id: m, cell: org.formwork.c.money, model: { title: Rent, amount: 1200.5, currency: GBP, installments: 2, due: "2027-03-01", note: Due monthly. } }
                """))
        let all = nodes(tree)
        #expect(all.contains(.group(role: "row", title: nil, children: [.value(label: "Taste", text: "★★★☆  3/4 Good")])))
        #expect(
            all.contains(
                .group(role: "row", title: nil, children: [.value(label: "Rent", text: "1200.50 GBP in 2 installments of 600.25")])))
        #expect(all.contains(.message(kind: .hint, text: "First payment due 2027-03-01.")))
        #expect(all.contains(.message(kind: .hint, text: "Due monthly.")))
    }

    @Test("the libffi layout matches the C compiler's for the rating struct; its call goes direct, or through a cif prepared once")
    func layout() throws {
        let rating = try registry.cellType("org.formwork.c.rating")
        let layout = try #require(registry.entry(for: rating)?.typed?.layout)
        #expect(layout.offsets == [0, 8, 16, 24, 32])
        #expect(layout.size == 48)
        let runtime = FormRuntime(registry: registry)
        let rated = try form(
            """
            formwork: 1
            id: t
            sections: [{ id: s, fields: [{ id: r, cell: org.formwork.c.rating, model: { title: T, value: 1 } }] }]
            """)
        for _ in 0..<3 { _ = try runtime.render(rated) }
        // x86-64 System V: 48 bytes go on the stack as six words, no libffi; elsewhere one cif, cached.
        #if arch(x86_64) && os(Linux)
            #expect(layout.direct == .stack(words: 6))
        #endif
        #expect(layout.preparedCount == (layout.direct == nil ? 1 : 0))
        layout.usesDirectCalls = false
        defer { layout.usesDirectCalls = true }
        for _ in 0..<3 { _ = try runtime.render(rated) }
        #expect(layout.preparedCount == 1)
    }

    @Test("rendering many fields reuses pooled instances instead of keeping one per field")
    func pooling() throws {
        var fields = ""
        for i in 0..<500 {
            fields +=
                "      - { id: f\(i), cell: \(i % 2 == 0 ? "org.formwork.text-field" : "org.formwork.c.rating"), model: { title: F\(i) } }\n"
        }
        let cells = InProcessCells(registry: registry)
        let runtime = FormRuntime(driver: cells)
        let tree = try runtime.render(form("formwork: 1\nid: many\nsections:\n  - id: s\n    fields:\n" + fields))
        #expect(tree.sections[0].fields.count == 500)
        #expect(cells.instancesCreated == 2)
        #expect(cells.peakLiveInstances == 1)
    }

    @Test("values flow into the models, and value_changed can reject them")
    func valueChanged() throws {
        var f = try form(
            """
            formwork: 1
            id: v
            sections:
              - id: s
                fields:
                  - { id: code, cell: org.formwork.text-field, model: { title: Code, maxLength: 4, value: ab } }
                  - { id: name, cell: org.formwork.text-field, model: { title: Name } }
                  - { id: stars, cell: org.formwork.c.rating, model: { title: Stars, value: 1, maximum: 3 } }
            """)
        let path = try Scratch.file("values/change.json", contents: #"{"code": "too long", "name": "Ada", "stars": 5}"#)
        try ValuesFile.apply(path: path, to: &f)
        let runtime = FormRuntime(registry: registry)
        let tree = try runtime.render(f)
        let fields = tree.sections[0].fields
        // Rejected by the Swift cell: the document's value stays, the reason is shown.
        #expect(fields[0].nodes.contains { if case .textInput(_, "ab", _) = $0 { true } else { false } })
        #expect(fields[0].nodes.contains(.message(kind: .error, text: "Code takes at most 4 characters")))
        #expect(fields[1].nodes.contains { if case .textInput(_, "Ada", _) = $0 { true } else { false } })
        // Rejected by the C cell.
        #expect(fields[2].nodes.contains(.message(kind: .error, text: "choose between 0 and 3 stars")))
        #expect(runtime.rejections.map(\.pointer) == ["/code", "/stars"])
    }

    @Test("selection and highlight reach the cell")
    func selection() throws {
        let button = try registry.cellType("org.formwork.button")
        let instance = try CellInstance(button, entry: #require(registry.entry(for: button)))
        instance.setSelected(true)
        instance.setHighlighted(true)
        let ratingType = try registry.cellType("org.formwork.c.rating")
        let rating = try CellInstance(ratingType, entry: #require(registry.entry(for: ratingType)))
        rating.setSelected(true)
        #expect(rating.valueChanged(field: "value", to: .integer(99), type: .integer) == "choose between 0 and 5 stars")
        #expect(rating.valueChanged(field: "value", to: .integer(2), type: .integer) == nil)
    }
}

@Suite("Pack init / deinit")
struct LifecycleTests {
    func lifecycleText(_ tree: ViewTree) -> [String] {
        tree.sections.flatMap(\.fields).compactMap { field in
            field.nodes.compactMap { if case .value("Lifecycle", let text) = $0 { text } else { nil } }.first
        }
    }

    @Test("init runs once before the first instance, never for listing; deinit balances it when the last instance goes")
    func referenceCounted() throws {
        let path = try CCompiler.pack("lifecycle", defines: ["FIXTURE_LIFECYCLE"])
        let registry = firstPartyRegistry(plus: [path])
        _ = registry.cellTypes  // loading and listing never call init
        let form = try twoCounterForm(registry)
        let runtime = FormRuntime(registry: registry)
        #expect(lifecycleText(try runtime.render(form)) == ["init=1 deinit=0", "init=1 deinit=0"])
        #expect(lifecycleText(try runtime.render(form)) == ["init=1 deinit=0", "init=1 deinit=0"])
        runtime.drain()
        let again = FormRuntime(registry: registry)
        #expect(lifecycleText(try again.render(form)) == ["init=2 deinit=1", "init=2 deinit=1"])
    }
}
