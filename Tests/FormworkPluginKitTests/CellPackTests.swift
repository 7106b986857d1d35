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

@Suite("FormworkPluginKit descriptors")
struct CellPackTests {
    static let pack = CellPack(
        id: "com.example.greetings", name: "Greetings", version: "1.2.3", license: "MIT",
        cells: [GreetingCell.self])

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
        #expect(status == fw_status(FW_OK))
        #expect(recorder.labels == ["Hello, Ada"])
    }
}
