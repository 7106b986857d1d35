import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

@Suite("ABI: the one-pass configure lays out what the general path does")
struct ConfigurePlanTests {
    let registry = firstPartyRegistry()

    /// A value that plainly fits `field` (`variant` picks among a few).
    func fitting(_ field: FieldSchema, _ variant: Int) -> Value {
        let low = field.minimum ?? 0
        let high = field.maximum ?? low + 10
        switch field.type {
        case .string: return .string(["Ab", "Ünïcødé ★", ""][variant % 3])
        case .text: return .string(["one\ntwo", "x", "Ünïcødé\n★"][variant % 3])
        case .bool: return .bool(variant % 2 == 0)
        case .integer: return .integer(Int64(variant % 2 == 0 ? low : high))
        case .number: return .number(variant % 2 == 0 ? low : (low + high) / 2)
        case .date: return .number([0, 1_700_000_000.5, -86_400][variant % 3])
        case .choice: return .string(field.choices[variant % field.choices.count].value)
        case .stringList: return .stringList([["a", "b"], [], ["ü"]][variant % 3])
        case .choiceList: return .stringList(field.choices.prefix(1 + variant % 2).map(\.value))
        }
    }

    func instance(_ cell: CellType) throws -> CellInstance {
        let cells = InProcessCells(registry: registry)
        return try CellInstance(cell, entry: try cells.entry(for: cell, index: 0, field: nil))
    }

    func render(_ instance: CellInstance) throws -> [ViewNode] {
        try instance.render(accessibilityId: "f", valueField: instance.cell.roles.value, field: nil)
    }

    func outcome(_ body: () throws -> [ViewNode]) -> String {
        do { return "\(try body())" } catch { return "error: \(error)" }
    }

    @Test("every first-party cell type, every kind of value, with and without defaults: the same views either way")
    func sameViews() throws {
        var plainCalls = 0
        for cell in registry.cellTypes {
            let models: [[Value?]] =
                (0..<3).map { variant in cell.fields.map { fitting($0, variant) } } + [
                    cell.fields.map { $0.required ? fitting($0, 0) : nil },  // the defaults
                    Array(cell.fields.prefix(1).map { fitting($0, 1) }),  // trailing values absent
                ]
            for model in models {
                for defaults in [true, false] {
                    let plain = try instance(cell), general = try instance(cell)
                    // The views, or the pack's refusal (a rating without its defaults has a maximum of 0).
                    let viaPlan = outcome {
                        if try plain.configureIfPlain(model, defaults: defaults, checking: false, field: nil) {
                            plainCalls += 1
                        } else {
                            try plain.configure(model, defaults: defaults, field: nil, plain: false)  // as `configure` does
                        }
                        return try render(plain)
                    }
                    let viaGeneral = outcome {
                        try general.configure(model, defaults: defaults, field: nil, plain: false)
                        return try render(general)
                    }
                    #expect(viaPlan == viaGeneral, "\(cell.id) \(model) defaults: \(defaults)")
                }
            }
        }
        #expect(plainCalls >= registry.cellTypes.count * 8)
    }

    /// `model` as the host sends it (a count, then each value), passed over by `skipValues` and read in place.
    func withWire<R>(_ model: [Value?], _ body: (WireValues) throws -> R) throws -> R {
        var writer = WireWriter()
        writer.array(model) { $0.value($1) }
        var reader = WireReader(writer.bytes)
        let (start, count) = try reader.skipValues()
        #expect(reader.atEnd && count == model.count)
        return try writer.bytes.withUnsafeBytes { try body(WireValues(start: $0.baseAddress! + start, count: count)) }
    }

    @Test("values read in place from their wire bytes: taken or left as from values, the same views, the same decoded values")
    func fromWireBytes() throws {
        var wireCalls = 0, valueCalls = 0
        for cell in registry.cellTypes {
            let models: [[Value?]] =
                (0..<3).map { variant in cell.fields.map { fitting($0, variant) } } + [
                    cell.fields.map { $0.required ? fitting($0, 0) : nil },
                    Array(cell.fields.prefix(1).map { fitting($0, 1) }),
                    cell.fields.map { _ in .integer(3) },  // kinds most members cannot hold: left to the general path
                    cell.fields.map { _ in .stringList([]) },
                ]
            for model in models {
                let fromValues = try instance(cell), fromWire = try instance(cell)
                let viaValues = outcome {
                    let taken = try fromValues.configureIfPlain(model, defaults: false, checking: false, field: nil)
                    if taken { valueCalls += 1 } else { try fromValues.configure(model, field: nil, plain: false) }
                    return [.label(text: "\(taken)", style: .body)] + (try render(fromValues))
                }
                let viaWire = outcome {
                    try withWire(model) { wire in
                        #expect(wire.decoded() == model)
                        let taken = try fromWire.configureIfPlain(wire: wire, field: nil)
                        if taken { wireCalls += 1 } else { try fromWire.configure(wire.decoded(), field: nil, plain: false) }
                        return [.label(text: "\(taken)", style: .body)] + (try render(fromWire))
                    }
                }
                #expect(viaWire == viaValues, "\(cell.id) \(model)")
            }
        }
        #expect(wireCalls == valueCalls && wireCalls >= registry.cellTypes.count * 3)
    }

    @Test("checking: values that do not plainly fit are left to the general path, and nothing reaches the pack")
    func leftToTheGeneralPath() throws {
        let rating = try instance(try registry.cellType("org.formwork.c.rating"))  // typed by value
        let money = try instance(try registry.cellType("org.formwork.c.money"))  // typed by pointer, a choice
        let picker = try instance(try registry.cellType("org.formwork.picker"))  // generic
        try rating.configure([.string("Kept"), .integer(2)], defaults: true, field: nil)
        let kept = try render(rating)
        let refused: [[Value?]] = [
            [.string("line\nbreak"), .integer(2)],  // a single-line string
            [.string("T"), .integer(11)],  // above the maximum
            [.string("T"), .number(2)],  // a number for an integer
            [nil, .integer(2)],  // required, no default
            [.string(String(repeating: "x", count: 201)), .integer(1)],  // over the maximum length
        ]
        for model in refused {
            #expect(try !rating.configureIfPlain(model, defaults: true, checking: true, field: nil), "\(model)")
        }
        #expect(try render(rating) == kept)
        #expect(try !money.configureIfPlain([.string("Rent"), .number(.nan)], defaults: true, checking: true, field: nil))
        #expect(try !money.configureIfPlain([.string("Rent"), .number(1), .string("XYZ")], defaults: true, checking: true, field: nil))
        #expect(try money.configureIfPlain([.string("Rent"), .number(1), .string("USD")], defaults: true, checking: true, field: nil))
        // Not checking (a request whose values the decoder checked): only kinds the member cannot hold as they are.
        #expect(try !money.configureIfPlain([.string("Rent"), .integer(1)], defaults: true, checking: false, field: nil))
        #expect(try money.configureIfPlain([.string("Rent"), .number(1e300)], defaults: true, checking: false, field: nil))
        // A generic empty list keeps a non-NULL items pointer: the general path makes it.
        let list = try #require(picker.cell.fields.firstIndex { $0.type == .stringList })
        var model: [Value?] = Array(repeating: nil, count: picker.cell.fields.count)
        model[list] = .stringList([])
        #expect(try !picker.configureIfPlain(model, defaults: false, checking: false, field: nil))
        model[list] = .stringList(["S"])
        #expect(try picker.configureIfPlain(model, defaults: false, checking: false, field: nil))
    }
}
