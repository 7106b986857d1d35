import FormworkTestSupport
import Testing

@testable import FormworkCore

/// The fields of a large JSON document are read flat, straight from their bytes, and decoded with no node made
/// (`FlatField`, `FormDecoder.flatField`): the form must be the usual path's, whatever the field holds, and a
/// field that has a problem must leave the reporting to the usual path.
@Suite("Document: fields read flat")
struct FlatFieldsTests {
    /// A cell type with a field of every type.
    static let every = CellType(
        id: "test.every", name: "Every",
        fields: [
            FieldSchema(name: "title", type: .string, required: true, maxLength: 40),
            FieldSchema(name: "notes", type: .text),
            FieldSchema(name: "on", type: .bool, defaultValue: .bool(false)),
            FieldSchema(name: "count", type: .integer, minimum: -5, maximum: 1000),
            FieldSchema(name: "amount", type: .number, minimum: 0),
            FieldSchema(name: "day", type: .date),
            FieldSchema(name: "size", type: .choice, choices: [Choice(value: "s"), Choice(value: "m"), Choice(value: "l")]),
            FieldSchema(name: "tags", type: .stringList, maxLength: 3),
            FieldSchema(name: "colours", type: .choiceList, choices: [Choice(value: "red"), Choice(value: "blue")]),
            FieldSchema(name: "required", type: .bool),
        ],
        packID: "test.pack", packPath: "<memory>", packABI: InMemory.abi)

    /// A cell type made in Swift (not read through the ABI, which refuses a default outside its schema): a default
    /// above its maximum, and one that must be among the options the document gives.
    static let defaults = CellType(
        id: "test.defaults", name: "Defaults",
        fields: [
            FieldSchema(name: "level", type: .integer, defaultValue: .integer(50), maximum: 10),
            FieldSchema(name: "options", type: .stringList),
            FieldSchema(name: "pick", type: .string, defaultValue: .string("z"), optionsField: "options"),
            FieldSchema(name: "on", type: .bool, defaultValue: .bool(true)),
        ],
        packID: "test.pack", packPath: "<memory>", packABI: InMemory.abi)

    struct Catalog: CellTypeCatalog {
        let cellTypes = [InMemory.textField, InMemory.counter, FlatFieldsTests.every, FlatFieldsTests.defaults]
        func cellType(_ id: String) throws(RegistryError) -> CellType {
            if let cell = cellTypes.first(where: { $0.id == id }) { return cell }
            throw RegistryError(id: id, nearMatches: [], searched: ["<memory>"])
        }
        var supportsConcurrentLookups: Bool { true }
    }

    /// Field `n` of the document: sixteen kinds, from the plainest to those that are not read flat.
    static func field(_ n: Int) -> String {
        switch n % 16 {
        case 0: return #"{"id":"t\#(n)","cell":"test.text-field","model":{"title":"Name \#(n)","value":"v\#(n)"}}"#
        // Keys in another order, the model first.
        case 1: return #"{"model":{"value":7,"title":"C"},"cell":"test.counter","id":"c\#(n)"}"#
        // A value of every type, escapes, a null.
        case 2:
            return
                #"{"id":"e\#(n)","cell":"test.every","model":{"title":"T \u00e9 \"q\" \/","notes":"line\nbreak\ttab","on":true,"count":3.0,"amount":2,"day":"2026-11-21","size":"m","tags":["a","b \u2028"],"colours":["red","blue"],"required":null}}"#
        case 3:
            return
                #"{"id":"e\#(n)","cell":"test.every","model":{"title":"N","count":-5,"amount":2.5e1,"day":"2026-11-21T09:30:00Z","tags":[],"colours":[],"notes":null}}"#
        // Spaces and line breaks everywhere; `required` sets the model's required role.
        case 4: return "{ \"id\" : \"e\(n)\" ,\n \"cell\":\"test.every\", \"required\" : true,\n \"model\" : { \"title\" : \"x\" } }"
        case 5: return #"{"id":"t\#(n)","cell":"test.text-field","accessibilityId":"acc-\#(n)","model":{"title":"A"}}"#
        case 6: return #"{"id":"c\#(n)","cell":"test.counter"}"#
        case 7: return #"{"id":"c\#(n)","cell":"test.counter","model":{}}"#
        // `required: false`, and a model that says required itself.
        case 8: return #"{"id":"e\#(n)","cell":"test.every","required":false,"model":{"title":"R","required":true}}"#
        case 9: return #"{"id":"t\#(n)","cell":"test.text-field","required":true,"model":{"title":"R","required":false}}"#
        // An escaped key, a large integer, a negative zero.
        case 10: return #"{"id":"c\#(n)","cell":"test.counter","model":{"tit\u006ce":"K","value":1e1}}"#
        case 11: return #"{"id":"e\#(n)","cell":"test.every","model":{"title":"Z","amount":-0.0,"count":999}}"#
        // Not read flat: other keys, a condition, an accessibility id written as an object.
        case 12: return #"{"id":"t\#(n)","cell":"test.text-field","model":{"title":"X"},"textInput":{"autocapitalization":"words"}}"#
        case 13: return #"{"id":"t\#(n)","cell":"test.text-field","model":{"title":"X","value":"abc"},"rules":{"maxLength":15}}"#
        case 14: return #"{"id":"c\#(n)","cell":"test.counter","model":{"value":2},"visibleIf":"c\#(n - 13) > 3"}"#
        default:
            return #"{"id":"t\#(n)","cell":"test.text-field","accessibilityId":{"id":"x\#(n)","suffix":["row"]},"model":{"title":"S"}}"#
        }
    }

    /// Sections of 1 to 40 fields (past the parallel threshold), or one section of 12,000 between two small
    /// ones (its fields shared out); `fault` replaces one field near the middle.
    static func document(large: Bool = false, fault: String? = nil) -> String {
        var sections: [String] = []
        var n = 0
        for s in 0..<(large ? 3 : 650) {
            var fields: [String] = []
            for _ in 0..<(large ? (s == 1 ? 12_000 : 5) : 1 + s % 40) {
                n += 1
                let middle = large ? s == 1 && fields.count == 6_000 : s == 439 && fields.count == 3
                fields.append(middle ? (fault ?? field(n)) : field(n))
            }
            sections.append(#"{"id":"s\#(s)","header":"Section \#(s)","fields":[\#(fields.joined(separator: ",\n"))]}"#)
        }
        return #"{"formwork":1,"id":"flat","sections":[\#(sections.joined(separator: ",\n"))]}"#
    }

    /// The form as the fast path decodes it, or nil when it gives up.
    static func asParsed(_ text: String) -> Form? {
        var text = text
        return text.withUTF8 { FormDecoder.decodeSectionsAsParsed($0, path: "flat.json", registry: Catalog()) }
    }

    /// The usual path's form written out, or its error.
    static func usual(_ text: String) -> String {
        do {
            return SectionsAsParsedTests.dumped(try FormDecoder.decode(text: text, json: true, registry: Catalog(), file: "flat.json"))
        } catch {
            return "\(error)"
        }
    }

    @Test("every kind of field, in small sections and in a large one: the form of the usual path", arguments: [false, true])
    func same(large: Bool) throws {
        let text = Self.document(large: large)
        #expect(text.utf8.count > JSONParser.parallelThreshold)
        let form = try #require(Self.asParsed(text))
        #expect(SectionsAsParsedTests.dumped(form) == Self.usual(text))
        #expect(form.fields.contains { $0.model["required"] == .bool(true) && $0.required })
        #expect(form.fields.contains { $0.accessibilityId == "acc-5" })
    }

    @Test("a list repeated from field to field is one array, each list an array of its own count; copies stay values")
    func repeatedListsShared() throws {
        let text = Self.document()
        let form = try #require(Self.asParsed(text))
        func storage(_ field: FormField) -> UnsafeRawPointer? {
            guard case .stringList(let list)? = field.model["tags"] else { return nil }
            return list.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        // Field kind 2's tags, written the same in every field of the kind (beside another list): one array a
        // section at least (each section is parsed by one parser).
        let tagged = form.sections[39].fields.filter { $0.model["tags"] == .stringList(["a", "b \u{2028}"]) }
        #expect(tagged.count >= 2)
        #expect(Set(tagged.map(storage)).count == 1)

        var scratch = FlatListScratch()
        func list(_ items: [String], member: Int = 0) -> [String] {
            scratch.start()
            for item in items { scratch.append(item) }
            return scratch.take(member: member)
        }
        let longer = list(["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])
        var first = list(["a", "b"])
        let again = list(["a", "b"])
        let other = list(["a", "c"])
        let beside = list(["a", "c"], member: 1)
        #expect(longer.count == 9 && first == ["a", "b"] && again == ["a", "b"] && other == ["a", "c"] && beside == other)
        // Not the scratch's capacity (nine and more): an array of its own count.
        #expect(first.capacity < 9)
        #expect(first.withUnsafeBufferPointer { $0.baseAddress } == again.withUnsafeBufferPointer { $0.baseAddress })
        first.append("x")  // a copy is made: the list handed out before is not changed
        #expect(again == ["a", "b"] && list(["a", "b"]) == ["a", "b"])
    }

    @Test("defaults left alone, written over, or among the options the document gives: the form of the usual path")
    func defaultsKept() throws {
        let field = #"{"id":"d1","cell":"test.defaults","model":{"level":10,"options":["a","z"],"on":null}}"#
        let text = Self.document(fault: field)
        let form = try #require(Self.asParsed(text))
        #expect(SectionsAsParsedTests.dumped(form) == Self.usual(text))
        let decoded = try #require(form.fields.first { $0.id == "d1" })
        #expect(decoded.model["pick"] == .string("z") && decoded.model["on"] == .bool(true) && decoded.model["level"] == .integer(10))
    }

    @Test(
        "a field with a problem that reading flat would miss: the fast path gives up and the usual path reports it",
        arguments: [
            #"{"id":"c0","cell":"test.counter","model":{"value":500}}"#,  // out of bounds
            #"{"id":"e1","cell":"test.every","model":{"title":"T","day":"tomorrow"}}"#,  // not a date
            #"{"id":"e1","cell":"test.every","model":{"title":"T","size":"xl"}}"#,  // not a choice
            #"{"id":"e1","cell":"test.every","model":{"title":"T","tags":["a","b","c","d"]}}"#,  // too many
            #"{"id":"e1","cell":"test.every","model":{"title":3}}"#,  // wrong type
            #"{"id":"e1","cell":"test.every","model":{"tags":["a",1]}}"#,  // a list of not only strings
            #"{"id":"e1","cell":"test.every","model":{"notes":"no title"}}"#,  // required missing
            #"{"id":"t1","cell":"test.text-field","model":{"title":"T","colour":"red"}}"#,  // unknown model key
            #"{"id":"t1","cell":"test.text-field","model":{"title":"T","title":"U"}}"#,  // repeated key
            #"{"id":"t1","cell":"test.nothing","model":{}}"#,  // unknown cell type
            #"{"id":"1t","cell":"test.text-field","model":{"title":"T"}}"#,  // not an identifier
            #"{"id":"t1","cell":"test.text-field","accessibilityId":"a b","model":{"title":"T"}}"#,
            #"{"id":"t1","cell":"test.text-field","required":"yes","model":{"title":"T"}}"#,
            #"{"id":"c0","cell":"test.counter","model":{"value":1.5}}"#,  // not a whole number
            #"{"cell":"test.counter"}"#,  // no id
            // Defaults are checked like written values unless they fit whatever the model holds.
            #"{"id":"d1","cell":"test.defaults","model":{"level":3,"options":["a","b"]}}"#,  // pick 'z' not an option
            #"{"id":"d1","cell":"test.defaults","model":{"pick":"a","options":["a"]}}"#,  // level 50 above 10
        ])
    func givesUp(fault: String) {
        for large in [false, true] {
            let text = Self.document(large: large, fault: fault)
            #expect(text.contains(fault))
            let gaveUp = Self.asParsed(text) == nil
            #expect(gaveUp, "\(fault)")
            let usual = Self.usual(text)
            #expect(usual.contains("flat.json"), "\(fault): \(usual.prefix(200))")
        }
    }

    @Test("an id is an ASCII letter, then ASCII letters, digits, '_' and '-', at most 128 bytes")
    func identifiers() {
        for good in ["a", "Z", "f0", "first_name-2", String(repeating: "x", count: 128)] {
            #expect(FormDecoder.isIdentifier(good), "\(good)")
        }
        for bad in ["", "1a", "_a", "-a", "a b", "a.b", "é", "aé", "a\u{0}", String(repeating: "x", count: 129), "K\u{212A}"] {
            #expect(!FormDecoder.isIdentifier(bad), "\(bad)")
        }
        // A string that is not stored contiguously (bridged or lazily made) is checked too.
        #expect(FormDecoder.isIdentifier(String("ab-9".reversed().reversed())))
    }

    @Test("two thousand small documents broken a byte at a time: the fast path gives the usual path's form, or gives up")
    func mutated() {
        // Three sections of the sixteen kinds of field, small enough to parse a thousand times over.
        let fields = (1...40).map(Self.field)
        let sections = (0..<3).map { s in
            #"{"id":"s\#(s)","fields":[\#(fields[(s * 13)..<(s * 13 + 13)].joined(separator: ",\n"))]}"#
        }
        let base = Array(#"{"formwork":1,"id":"m","sections":[\#(sections.joined(separator: ",\n"))]}"#.utf8)
        let replacements = Array(#"{}[]",:-.0123456789etrufalsn \u\n"#.utf8) + [0x00, 0x1B, 0xC3, 0xE2]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var whole = String(decoding: base, as: UTF8.self)
        let unbroken = whole.withUTF8 { FormDecoder.decodeSectionsAsParsed($0, path: "m.json", registry: Catalog(), minimumBytes: 0) }
        #expect(unbroken != nil, "\(Self.usual(String(decoding: base, as: UTF8.self)).prefix(300))")
        var fast = 0, gaveUp = 0
        for _ in 0..<2000 {
            var bytes = base
            let at = next(bytes.count)
            switch next(3) {
            case 0: bytes[at] = replacements[next(replacements.count)]
            case 1: bytes.remove(at: at)
            default: bytes.insert(replacements[next(replacements.count)], at: at)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            var copy = text
            let form = copy.withUTF8 { FormDecoder.decodeSectionsAsParsed($0, path: "m.json", registry: Catalog(), minimumBytes: 0) }
            let usual = Self.usual(text)
            if let form {
                fast += 1
                let same = SectionsAsParsedTests.dumped(form) == usual
                #expect(same, "byte \(at): \(text.prefix(at + 20).suffix(60))")
            } else {
                gaveUp += 1
            }
        }
        // Both outcomes are met: some breaks leave a valid document (a digit, a space), most do not.
        #expect(fast > 80 && gaveUp > 1000, "\(fast) read fast, \(gaveUp) given up")
    }

    /// Records what the parser offers it, and takes every field.
    final class Recorder: FlatFieldSink {
        var offered: [(position: Int, id: String?, keys: [String])] = []
        func take(_ field: inout FlatField, position: Int) -> Bool {
            offered.append((position, field.id, field.model.map(\.key)))
            return position % 2 == 0  // an odd one is read again as a node
        }
    }

    @Test("the parser offers the fields it can read flat, and reads the others, and those not taken, as nodes")
    func offered() throws {
        let fields = (0..<16).map(Self.field)
        var text = #"{"sections":[{"id":"s","fields":[\#(fields.joined(separator: ",\n"))],"after":[1,2]}]}"#
        let recorder = Recorder()
        let node = text.withUTF8 { bytes -> SourceNode? in
            let item = JSONParser.SkippedSection(position: 0, start: 13, end: bytes.count - 2, line: 1)
            return JSONParser.section(item, in: bytes, flatFields: recorder)
        }
        let section = try #require(node)
        // 12 to 15 have keys a flat field does not; the rest are offered, in order, with their model's keys.
        #expect(recorder.offered.map(\.position) == Array(0..<12))
        #expect(recorder.offered[1].id == "c1" && recorder.offered[1].keys == ["value", "title"])
        #expect(recorder.offered[10].keys == ["title", "value"])
        // Taken: a null in the list, with the field's line; not taken: the field's node.
        guard case .array(let items)? = section["fields"]?.kind else { Issue.record("no fields"); return }
        #expect(items.count == 16)
        func isNull(_ node: SourceNode) -> Bool { if case .null = node.kind { true } else { false } }
        #expect(isNull(items[0]) && items[0].line == 1 && items[2].line == 3)
        #expect(items[1]["id"]?.string == "c1" && items[1].line == 2)
        #expect(items[12]["textInput"] != nil && items[15]["accessibilityId"]?.members != nil)
        // Field 4 is written over three lines: field 5 starts on line 8.
        #expect(isNull(items[4]) && items[5]["id"]?.string == "t5" && items[5].line == 8)
        #expect(section["after"] != nil)
    }
}
