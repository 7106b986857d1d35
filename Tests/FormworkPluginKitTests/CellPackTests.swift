import CFormwork
import FormworkPluginKit
import Glibc
import Testing

/// A Swift cell as a pack author writes it.
final class GreetingCell: Cell, SelectableCell {
    struct Model: CellModel {
        static let fields: [Field] = [
            .string("name", label: "Name", required: true, maxLength: 100),
            .bool("excited", default: false),
        ]
        var name: String
        var excited: Bool
        init(_ values: ModelValues) {
            name = values.string("name") ?? ""
            excited = values.bool("excited") ?? false
        }
    }

    static let identifier = "com.example.greeting"
    static let displayName = "Greeting"
    static let textInput = TextInput.textField("name", TextTraits(autocapitalization: .words, contentType: "name"))

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }
    func render(into canvas: Canvas) { canvas.label("Hello, \(model.name)", style: .title) }
    func setSelected(_ selected: Bool) {}
}

/// A model that reads its values out of schema order, one twice and one the schema does not have, and keeps
/// them: look-ups start where the last one ended (`ModelValues`), and the array behind them is reused.
final class ScrambledCell: Cell {
    struct Model: CellModel {
        static let fields: [Field] = [
            .string("a"), .string("b"), .string("c"), .integer("d"), .bool("e"),
        ]
        var read: [String]
        var kept: ModelValues
        init(_ v: ModelValues) {
            read = [
                v.integer("d").map { "\($0)" } ?? "-", v.string("a") ?? "-", v.bool("e").map { "\($0)" } ?? "-",
                v.string("zz") ?? "-", v.string("c") ?? "-", v.string("b") ?? "-", v.string("a") ?? "-",
                v.string("d") ?? "-",
            ]
            kept = v
        }
    }

    static let identifier = "com.example.scrambled"
    static let displayName = "Scrambled"

    private var model = Model(ModelValues([:]))
    private var first: ModelValues?
    init() {}
    func configure(model: Model) throws {
        if first == nil { first = model.kept }
        self.model = model
    }
    func render(into canvas: Canvas) {
        canvas.label(model.read.joined(separator: " "), style: .body)
        canvas.label(first.map { "first a=\($0.string("a") ?? "-") d=\($0.integer("d").map { "\($0)" } ?? "-")" } ?? "-", style: .body)
    }
}

/// Choices as a pack draws them: labels that differ from their values, non-ASCII text, none at all, and
/// the selected items of a multiple choice.
final class ChoicesCell: Cell {
    struct Model: CellModel {
        static let fields: [Field] = []
        init(_ values: ModelValues) {}
    }
    static let identifier = "com.example.choices"
    static let displayName = "Choices"
    init() {}
    func configure(model: Model) throws {}
    func render(into canvas: Canvas) {
        let choices = [(value: "a", label: "Apple"), (value: "b", label: "b"), (value: "ü", label: "Ünïcode – a longer label")]
        canvas.choice(field: "one", label: "One", choices: choices, selected: "b")
        canvas.choice(field: "none", label: nil, choices: [], selected: nil)
        canvas.multiChoice(field: "many", label: "Many", choices: choices, selected: ["ü", "a"])
        canvas.multiChoice(field: "empty", label: "Empty", choices: [], selected: [])
        // Choices shown as their values: one C string each, the label the value's.
        canvas.choice(field: "plain", label: "Plain", values: ["x", "ÿ – a value longer than fifteen bytes"], selected: "x")
        canvas.choice(field: "nothing", label: nil, values: [], selected: nil, style: .segments)
        canvas.multiChoice(field: "several", label: nil, values: ["x", "y"], selected: ["y"])
        canvas.multiChoice(field: "no-values", label: "None", values: [], selected: [])
    }
}

/// A cell that reacts to all three optional protocols, one of them adopted in an extension: each is found
/// where the type adopts `Cell` (no dynamic cast), and reached through the vtable.
final class ObservantCell: Cell, HighlightableCell, ValueObservingCell {
    struct Model: CellModel {
        static let fields: [Field] = [.string("name")]
        init(_ values: ModelValues) {}
    }
    static let identifier = "com.example.observant"
    static let displayName = "Observant"
    var calls: [String] = []
    init() {}
    func configure(model: Model) throws {}
    func render(into canvas: Canvas) { canvas.label(calls.joined(separator: ","), style: .body) }
    func setHighlighted(_ highlighted: Bool) { calls.append("highlighted \(highlighted)") }
    func valueChanged(field: String, to value: ModelValue?) -> ValueChange {
        calls.append("changed \(field)")
        return value == .string("no") ? .reject("not that") : .accept
    }
}

extension ObservantCell: SelectableCell {
    func setSelected(_ selected: Bool) { calls.append("selected \(selected)") }
}

@Suite("FormworkPluginKit descriptors")
struct CellPackTests {
    static let pack = CellPack(
        id: "com.example.greetings", name: "Greetings", version: "1.2.3", license: "MIT",
        cells: [GreetingCell.self])
    // Descriptors live for the process, as the ABI requires: each pack is made once and kept.
    static let observantPack = CellPack(
        id: "com.example.observant-pack", name: "Observant", version: "1.0.0", cells: [ObservantCell.self, ScrambledCell.self])
    static let scrambledPack = CellPack(
        id: "com.example.scrambled-pack", name: "Scrambled", version: "1.0.0", cells: [ScrambledCell.self])
    static let choicesPack = CellPack(id: "com.example.choices-pack", name: "Choices", version: "1.0.0", cells: [ChoicesCell.self])

    func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

    @Test("a CellPack is a valid fw_pack: version first, sizes, strings, one cell type")
    func pack() throws {
        let d = Self.pack.entry.load(as: fw_pack.self)
        #expect(d.abi.major == UInt32(FW_ABI_VERSION_MAJOR) && d.abi.minor == UInt32(FW_ABI_VERSION_MINOR))
        #expect(d.struct_size == UInt32(MemoryLayout<fw_pack>.size))
        #expect(string(d.id) == "com.example.greetings")
        #expect(string(d.version) == "1.2.3")
        #expect(string(d.license) == "MIT")
        #expect(d.cell_type_count == 1)
        let cell = try #require(d.cell_types).pointee
        #expect(cell.struct_size == UInt32(MemoryLayout<fw_cell_type>.size))
        #expect(string(cell.id) == "com.example.greeting")
        #expect(cell.flags & UInt32(FW_CELL_SELECTABLE) != 0)
        #expect(cell.did_set_selected != nil && cell.did_set_highlighted == nil)
        #expect(cell.text_input_kind == UInt32(FW_TEXT_INPUT_TEXT_FIELD))
        #expect(string(cell.text_input_field) == "name")
        #expect(cell.field_count == 2)
        let fields = try #require(cell.fields)
        #expect(string(fields[0].name) == "name" && fields[0].type == UInt32(FW_FIELD_STRING))
        #expect(fields[0].flags & UInt32(FW_FIELD_REQUIRED) != 0 && fields[0].max_length == 100)
        #expect(fields[1].default_value.type == UInt32(FW_FIELD_BOOL) && fields[1].default_value.as.boolean == false)
        let traits = try #require(cell.text_traits).pointee
        #expect(traits.autocapitalization == UInt32(FW_AUTOCAPITALIZATION_WORDS))
        #expect(string(traits.content_type) == "name")
    }

    @Test("create → configure → render → destroy through the vtable")
    func vtable() throws {
        let d = Self.pack.entry.load(as: fw_pack.self)
        let type = try #require(d.cell_types)
        let cell = try #require(type.pointee.create?(type, nil))
        defer { type.pointee.destroy?(cell) }
        var values = [fw_value(), fw_value()]
        let name = strdup("Ada")!
        defer { free(name) }
        values[0].type = UInt32(FW_FIELD_STRING)
        values[0].as.string = UnsafePointer(name)
        #expect(values.withUnsafeBufferPointer { type.pointee.configure?(cell, $0.baseAddress, 2) } == fw_status(FW_OK))
        #expect(try labels(type, cell) == ["Hello, Ada"])
    }

    @Test("the optional protocols set their flags and vtable entries, and a cell without them gets none")
    func optionalProtocols() throws {
        let d = Self.observantPack.entry.load(as: fw_pack.self)
        let types = try #require(d.cell_types)
        let observant = types[0], plain = types[1]
        #expect(observant.flags & UInt32(FW_CELL_SELECTABLE | FW_CELL_HIGHLIGHTABLE) == UInt32(FW_CELL_SELECTABLE | FW_CELL_HIGHLIGHTABLE))
        #expect(observant.did_set_selected != nil && observant.did_set_highlighted != nil && observant.value_changed != nil)
        #expect(plain.flags & UInt32(FW_CELL_SELECTABLE | FW_CELL_HIGHLIGHTABLE) == 0)
        #expect(plain.did_set_selected == nil && plain.did_set_highlighted == nil && plain.value_changed == nil)

        let type = types
        let cell = try #require(type.pointee.create?(type, nil))
        defer { type.pointee.destroy?(cell) }
        type.pointee.did_set_selected?(cell, true)
        type.pointee.did_set_highlighted?(cell, false)
        var value = fw_value()
        value.type = UInt32(FW_FIELD_STRING)
        let no = strdup("no")!
        defer { free(no) }
        value.as.string = UnsafePointer(no)
        var message: UnsafePointer<CChar>?
        #expect(type.pointee.value_changed?(cell, "name", &value, &message) == fw_status(FW_REJECTED))
        #expect(message.map { String(cString: $0) } == "not that")
        #expect(try labels(type, cell) == ["selected true,highlighted false,changed name"])
    }

    /// The labels `cell` draws through the vtable's `render` (which must succeed).
    func labels(_ type: UnsafePointer<fw_cell_type>, _ cell: UnsafeMutableRawPointer) throws -> [String] {
        final class Recorder { var labels: [String] = [] }
        let recorder = Recorder()
        var canvas = fw_canvas()
        canvas.struct_size = UInt32(MemoryLayout<fw_canvas>.size)
        canvas.label = { ctx, text, _ in
            Unmanaged<Recorder>.fromOpaque(ctx!).takeUnretainedValue().labels.append(String(cString: text!))
        }
        let status = withExtendedLifetime(recorder) {
            type.pointee.render?(cell, &canvas, Unmanaged.passUnretained(recorder).toOpaque())
        }
        try #require(status == fw_status(FW_OK))
        return recorder.labels
    }

    @Test("values are found by name in any order, twice or not at all, configure after configure")
    func lookUpsInAnyOrder() throws {
        let type = try #require(Self.scrambledPack.entry.load(as: fw_pack.self).cell_types)
        let cell = try #require(type.pointee.create?(type, nil))
        defer { type.pointee.destroy?(cell) }
        func configure(_ a: String?, _ b: String?, _ c: String?, _ d: Int64?, _ e: Bool?) -> fw_status {
            let strings = [a, b, c].map { $0.map { strdup($0)! } }
            defer { for s in strings { free(s) } }
            var values = [fw_value](repeating: fw_value(), count: 5)
            for (i, s) in strings.enumerated() {
                guard let s else { continue }
                values[i].type = UInt32(FW_FIELD_STRING)
                values[i].as.string = UnsafePointer(s)
            }
            if let d {
                values[3].type = UInt32(FW_FIELD_INTEGER)
                values[3].as.integer = d
            }
            if let e {
                values[4].type = UInt32(FW_FIELD_BOOL)
                values[4].as.boolean = e
            }
            return values.withUnsafeBufferPointer { type.pointee.configure?(cell, $0.baseAddress, 5) ?? fw_status(FW_ERROR) }
        }
        #expect(configure("one", "two", nil, 4, true) == fw_status(FW_OK))
        #expect(try labels(type, cell) == ["4 one true - - two one -", "first a=one d=4"])
        #expect(configure(nil, "b", "c", nil, false) == fw_status(FW_OK))
        #expect(try labels(type, cell) == ["- - false - c b - -", "first a=one d=4"])
        #expect(configure("x", nil, "z", -7, nil) == fw_status(FW_OK))
        #expect(try labels(type, cell) == ["-7 x - - z - x -", "first a=one d=4"])
    }

    @Test("choices reach the canvas as C strings: values, labels, the selection, and empty lists as NULL")
    func choices() throws {
        let type = try #require(Self.choicesPack.entry.load(as: fw_pack.self).cell_types)
        let cell = try #require(type.pointee.create?(type, nil))
        defer { type.pointee.destroy?(cell) }
        final class Recorder {
            var lines: [String] = []
            /// Choices whose label pointer is their value pointer.
            var sharedLabels = 0
        }
        func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "NULL" }
        func list(_ choices: UnsafePointer<fw_choice>?, _ count: UInt32) -> String {
            guard let choices else { return "NULL/\(count)" }
            return (0..<Int(count)).map { "\(text(choices[$0].value))=\(text(choices[$0].label))" }.joined(separator: ",")
        }
        var canvas = fw_canvas()
        canvas.struct_size = UInt32(MemoryLayout<fw_canvas>.size)
        canvas.choice = { ctx, field, label, choices, count, selected, _, _ in
            let r = Unmanaged<Recorder>.fromOpaque(ctx!).takeUnretainedValue()
            if let choices { r.sharedLabels += (0..<Int(count)).filter { choices[$0].label == choices[$0].value }.count }
            r.lines.append("\(text(field)) \(text(label)) [\(list(choices, count))] \(text(selected))")
        }
        canvas.multi_choice = { ctx, field, label, choices, count, selected, _, _ in
            let r = Unmanaged<Recorder>.fromOpaque(ctx!).takeUnretainedValue()
            if let choices { r.sharedLabels += (0..<Int(count)).filter { choices[$0].label == choices[$0].value }.count }
            let items = selected.map { s in
                s.pointee.items.map { items in (0..<s.pointee.count).map { text(items[$0]) }.joined(separator: ",") }
                    ?? "NULL/\(s.pointee.count)"
            }
            r.lines.append("\(text(field)) \(text(label)) [\(list(choices, count))] \(items ?? "no list")")
        }
        let recorder = Recorder()
        let status = withExtendedLifetime(recorder) {
            type.pointee.render?(cell, &canvas, Unmanaged.passUnretained(recorder).toOpaque())
        }
        #expect(status == fw_status(FW_OK))
        #expect(
            recorder.lines == [
                "one One [a=Apple,b=b,ü=Ünïcode – a longer label] b",
                "none NULL [NULL/0] NULL",
                "many Many [a=Apple,b=b,ü=Ünïcode – a longer label] ü,a",
                "empty Empty [NULL/0] NULL/0",
                "plain Plain [x=x,ÿ – a value longer than fifteen bytes=ÿ – a value longer than fifteen bytes] x",
                "nothing NULL [NULL/0] NULL",
                "several NULL [x=x,y=y] y",
                "no-values None [NULL/0] NULL/0",
            ])
        // Four by `values:`, and "b" by `choices:` (a label equal to its value is not copied twice), twice.
        #expect(recorder.sharedLabels == 6, "a label that is its value is the value's own C string")
    }
}
