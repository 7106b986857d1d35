import Foundation
import Testing

@testable import FormworkCore
@testable import FormworkHost
import FormworkTestSupport

/// By-value typed configure without libffi: a C pack built from the header at test time has a cell for every
/// shape of model the host passes differently (one or two words in general or SSE registers, more than 16
/// bytes on the stack, a size that is not whole words, more words than the direct calls take). Each cell
/// writes the model it received as text, so what arrived is compared with what was sent, through the direct
/// call, through libffi and through the generic configure.
@Suite("ABI: by-value typed configure, direct and through libffi")
struct TypedModelLayoutTests {
    /// The cells of `by_value_pack.c`: their fields, and the values a configure sends.
    static let shapes: [(id: String, fields: [(String, FieldType)])] = [
        ("d", [("x", .number)]),
        ("i", [("n", .integer)]),
        ("b", [("flag", .bool)]),
        ("t", [("when", .date)]),
        ("dd", [("x", .number), ("y", .number)]),
        ("bd", [("flag", .bool), ("x", .number)]),
        ("di", [("x", .number), ("n", .integer)]),
        ("ib", [("n", .integer), ("flag", .bool)]),
        ("ss", [("a", .string), ("b", .string)]),
        ("list", [("items", .stringList)]),
        ("bbb", [("a", .bool), ("b", .bool), ("c", .bool)]),
        ("mixed", [("title", .string), ("flag", .bool), ("n", .integer), ("x", .number), ("when", .date), ("items", .stringList)]),
        ("bools17", (0..<17).map { ("b\($0)", FieldType.bool) }),
        ("big", (0..<70).map { ("n\($0)", FieldType.integer) }),
    ]

    /// A value for field `index` of type `type`, different for each field and each round.
    static func value(_ type: FieldType, _ index: Int, round: Int) -> Value {
        switch type {
        case .number: .number([1.5, -2.25e-300, 1e300, 0.1][(index + round) % 4] * Double(index + 1))
        case .date: .number(1_700_000_000.25 + Double(index * 1000 + round))
        case .integer: .integer([Int64.max, Int64.min, -1, 42][(index + round) % 4] / Int64(index + 1))
        case .bool: .bool((index + round) % 3 == 0)
        case .stringList: .stringList((0..<(index + round) % 4).map { "item \($0)é" })
        default: .string(round % 3 == 2 ? "" : "text \(index) ✓ \(round)")
        }
    }

    /// What the pack writes for `value` (`%.17g` for doubles, as the C fixture formats them).
    static func text(_ name: String, _ value: Value?, _ type: FieldType) -> String {
        switch (value, type) {
        case (.number(let x)?, _): "\(name)=\(String(format: "%.17g", x));"
        case (nil, .date): "\(name)=nan;"
        case (nil, .number): "\(name)=0;"
        case (.integer(let n)?, _): "\(name)=\(n);"
        case (nil, .integer): "\(name)=0;"
        case (.bool(let b)?, _): "\(name)=\(b);"
        case (nil, .bool): "\(name)=false;"
        case (.stringList(let items)?, _): "\(name)=[\(items.joined(separator: ","))];"
        case (nil, .stringList): "\(name)=[];"
        case (.string(let s)?, _): "\(name)=\(s);"
        default: "\(name)=(null);"
        }
    }

    func shown(_ nodes: [ViewNode]) -> String {
        if case .value(_, let text)? = nodes.first { return text }
        return "\(nodes)"
    }

    @Test("each shape is classed as the x86-64 System V convention passes it")
    func classes() throws {
        #if arch(x86_64) && os(Linux)
            func direct(_ fields: [FieldType]) throws -> TypedModelLayout.DirectCall? { try TypedModelLayout(fields: fields).direct }
            #expect(try direct([.number]) == .registers(1))
            #expect(try direct([.date]) == .registers(1))
            #expect(try direct([.integer]) == .registers(0))
            #expect(try direct([.bool, .bool, .bool]) == .registers(0))
            #expect(try direct([.number, .number]) == .registers(5))
            #expect(try direct([.bool, .number]) == .registers(3))
            #expect(try direct([.number, .integer]) == .registers(4))
            #expect(try direct([.string, .string]) == .registers(2))
            #expect(try direct([.stringList]) == .registers(2))
            #expect(try direct([.string, .number, .bool]) == .stack(words: 3))
            #expect(try direct(Array(repeating: .bool, count: 17)) == .stack(words: 3))
            #expect(try direct(Array(repeating: .integer, count: 64)) == .stack(words: 64))
            #expect(try direct(Array(repeating: .integer, count: 65)) == nil)
        #else
            #expect(try TypedModelLayout(fields: [.number]).direct == nil)
        #endif
    }

    @Test("every shape receives what was sent: direct, through libffi, and generic, with values and defaults")
    func everyShape() throws {
        let path = try CCompiler.pack("by-value", source: Source.fixture("by_value_pack.c"), include: Source.include)
        let registry = firstPartyRegistry(plus: [path])
        let cells = InProcessCells(registry: registry)
        for shape in Self.shapes {
            let type = try registry.cellType("org.test.by-value.\(shape.id)")
            let cell = try cells.liveCell(type)
            let layout = try #require(registry.entry(for: type)?.typed?.layout)
            defer { layout.usesDirectCalls = true }
            for round in 0..<4 {
                // Round 3 leaves every other value absent: the pack receives what the ABI says an absent value is.
                let values: [Value?] = shape.fields.enumerated().map { i, field in
                    round == 3 && i % 2 == 1 ? nil : Self.value(field.1, i, round: round)
                }
                let expected = zip(shape.fields, values).map { Self.text($0.0, $1, $0.1) }.joined()
                for direct in [true, false] {
                    layout.usesDirectCalls = direct
                    try cell.configure(values)
                    #expect(shown(try cell.render(accessibilityId: "f")) == expected, "\(shape.id), round \(round), direct \(direct)")
                }
            }
            // The libffi rounds went through libffi: its call interface was prepared (once).
            #expect(layout.preparedCount == 1, "\(shape.id)")
        }
        // `formwork check` configures every cell both ways (generic and typed, direct) with its value sets and
        // compares the renders.
        let results = CheckRunner(launcher: nil).run(pack: path)
        #expect(results.count == 3 + Self.shapes.count)
        for result in results { #expect(result.passed, "\(result.check): \(result.message)") }
    }
}
