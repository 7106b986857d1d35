import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

@Suite("Runtime: live cells held by the caller")
struct LiveCellTests {
    let registry = firstPartyRegistry()

    func texts(_ nodes: [ViewNode]) -> [String] {
        nodes.flatMap { node -> [String] in
            switch node {
            case .group(_, _, let children): texts(children)
            case .value(let label, let text): ["\(label): \(text)"]
            default: []
            }
        }
    }

    @Test("a live rating takes its defaults, and each configure of the same instance shows the new values")
    func reconfigure() throws {
        let cells = InProcessCells(registry: registry)
        let rating = try cells.liveCell(registry.cellType("org.formwork.c.rating"))
        try rating.configure(["title": .string("Service"), "value": .integer(3)])
        #expect(texts(try rating.render(accessibilityId: "service")) == ["Service: ★★★☆☆  3/5"])
        try rating.configure(["title": .string("Food"), "value": .integer(4), "maximum": .integer(4)])
        #expect(texts(try rating.render(accessibilityId: "food")) == ["Food: ★★★★  4/4"])
        // Schema order, trailing values absent: the defaults again.
        try rating.configure([.string("Room"), .integer(1)])
        #expect(texts(try rating.render(accessibilityId: "room")) == ["Room: ★☆☆☆☆  1/5"])
        #expect(cells.instancesCreated == 0)  // not from the pool
    }

    @Test("a typed-by-pointer cell configures the same way, its defaults filled in")
    func otherConventions() throws {
        let cells = InProcessCells(registry: registry)
        let money = try cells.liveCell(registry.cellType("org.formwork.c.money"))
        try money.configure(["title": .string("Rent"), "amount": .number(1200.5), "installments": .integer(2)])
        #expect(texts(try money.render(accessibilityId: "rent")) == ["Rent: 1200.50 EUR in 2 installments of 600.25"])
    }

    @Test("values that do not fit the schema are refused with the field named, before the pack sees them")
    func refused() throws {
        let cells = InProcessCells(registry: registry)
        let rating = try cells.liveCell(registry.cellType("org.formwork.c.rating"))
        func message(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch { return "\(error)" }
        }
        let prefix = "cell 'org.formwork.c.rating' from \(rating.cell.packPath): "
        #expect(
            message { try rating.configure(["title": .string("T"), "value": .string("3")]) }
                == prefix + "model field 'value' is a string but 'value' is a integer")
        #expect(
            message { try rating.configure(["title": .string("T"), "value": .integer(11)]) }
                == prefix + "model field 'value' is 11, above the maximum 10")
        #expect(message { try rating.configure(["value": .integer(1)]) } == prefix + "model field 'title' is required")
        #expect(
            message { try rating.configure(["title": .string("T"), "stars": .integer(1)]) }
                == prefix + "has no model field 'stars' (its fields: title, value, maximum, enabled, labels)")
        #expect(
            message { try rating.configure(Array(repeating: nil, count: 6)) }
                == prefix + "has 6 model values but its schema has 5 fields")
        // The instance still has its last good model.
        try rating.configure(["title": .string("Kept"), "value": .integer(2)])
        #expect(texts(try rating.render(accessibilityId: "k")) == ["Kept: ★★☆☆☆  2/5"])
    }

    @Test("a generic cell takes its defaults in the call itself, and a value allowed by another field is checked against it")
    func genericDefaultsAndOptions() throws {
        let cells = InProcessCells(registry: registry)
        let picker = try cells.liveCell(registry.cellType("org.formwork.picker"))
        let prefix = "cell 'org.formwork.picker' from \(picker.cell.packPath): "
        try picker.configure(["title": .string("Size"), "choices": .stringList(["S", "M", "L"]), "value": .string("M")])
        let chosen = try picker.render(accessibilityId: "size")
        #expect(!chosen.isEmpty)
        do {
            try picker.configure(["title": .string("Size"), "choices": .stringList(["S", "M"]), "value": .string("XL")])
            Issue.record("a value outside the choices was configured")
        } catch {
            #expect("\(error)" == prefix + "model field 'value' 'XL' is not one of choices: S, M")
        }
        // Refused: the instance keeps its last good model.
        #expect(try picker.render(accessibilityId: "size") == chosen)

        // The Swift text field through its generic configure: absent values (and those past the
        // model's end) reach the pack as its schema's defaults, as a request with them filled in does.
        let text = try registry.cellType("org.formwork.text-field")
        let live = try cells.liveCell(text)
        try live.configure([.string("Name")])
        var filled: [Value?] = text.fields.map(\.defaultValue)
        filled[0] = .string("Name")
        let request = CellRequest(cell: text, fieldID: "f", model: filled, accessibilityId: "f", valueField: text.roles.value)
        let expected = try #require(try cells.perform([request]).first).nodes
        #expect(try live.render(accessibilityId: "f", valueField: text.roles.value) == expected)
        #expect(text.fields.contains { $0.defaultValue != nil })  // the check above has defaults to take
    }

    @Test("a value of the wrong kind in a request reaches the pack as absent, never as a pointer read from an integer")
    func wrongKindIsAbsent() throws {
        let cells = InProcessCells(registry: registry)
        let rating = try registry.cellType("org.formwork.c.rating")
        let text = try registry.cellType("org.formwork.text-field")
        func render(_ cell: CellType, _ model: [Value?]) throws -> [ViewNode] {
            let response = try #require(
                try cells.perform([CellRequest(cell: cell, fieldID: "f", model: model, accessibilityId: "f", valueField: nil)]).first)
            #expect(response.failure == nil)
            return response.nodes
        }
        // Typed (a struct member) and generic (an fw_value): an integer where a string belongs is absent.
        #expect(
            try render(rating, [.integer(0x1000), .integer(2), .integer(5), .bool(true), nil])
                == render(rating, [nil, .integer(2), .integer(5), .bool(true), nil]))
        let absentTitle = try render(text, Array(repeating: nil, count: text.fields.count))
        var wrong: [Value?] = Array(repeating: nil, count: text.fields.count)
        wrong[0] = .integer(0x1000)
        #expect(try render(text, wrong) == absentTitle)
    }
}
