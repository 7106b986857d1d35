import CFormwork
import Foundation
import Testing
import FormworkTestSupport

/// gcc, clang and Swift must agree on the size, alignment and member offsets of every ABI struct.
@Suite("ABI layout agreement")
struct LayoutAgreementTests {
    /// "struct size alignment" and "struct.member offset size" lines, from a C compiler.
    func cLayout(_ compiler: String) throws -> [String: [Int]] {
        let binary = "\(Scratch.directory)/layout-\((compiler as NSString).lastPathComponent)"
        let build = try run(compiler, ["-std=c11", "-Wall", "-Werror", "-I", Source.include, Source.fixture("layout.c"), "-o", binary])
        #expect(build.status == 0, "\(build.stderr)")
        let output = try run(binary, []).stdout
        var table: [String: [Int]] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            table[String(parts[0])] = parts.dropFirst().compactMap { Int($0) }
        }
        return table
    }

    func structLine<T>(_ type: T.Type) -> [Int] { [MemoryLayout<T>.size, MemoryLayout<T>.alignment] }

    /// Swift's view: struct sizes / alignments and member offsets.
    var swiftLayout: [String: Int] {
        var t: [String: Int] = [:]
        func s<T>(_ name: String, _ type: T.Type) { t[name] = MemoryLayout<T>.size; t[name + "#align"] = MemoryLayout<T>.alignment }
        func m<T>(_ name: String, _ path: PartialKeyPath<T>) { t[name] = MemoryLayout<T>.offset(of: path) }
        s("fw_version", fw_version.self); m("fw_version.major", \fw_version.major); m("fw_version.minor", \fw_version.minor);
        m("fw_version.patch", \fw_version.patch)
        s("fw_string_list", fw_string_list.self); m("fw_string_list.items", \fw_string_list.items);
        m("fw_string_list.count", \fw_string_list.count)
        s("fw_value", fw_value.self); m("fw_value.type", \fw_value.type); m("fw_value.reserved", \fw_value.reserved);
        m("fw_value.as", \fw_value.as)
        s("fw_choice", fw_choice.self); m("fw_choice.struct_size", \fw_choice.struct_size); m("fw_choice.reserved", \fw_choice.reserved)
        m("fw_choice.value", \fw_choice.value); m("fw_choice.label", \fw_choice.label)
        s("fw_field", fw_field.self)
        for (n, p) in [
            ("struct_size", \fw_field.struct_size), ("type", \fw_field.type), ("flags", \fw_field.flags),
            ("choice_count", \fw_field.choice_count), ("min_length", \fw_field.min_length), ("max_length", \fw_field.max_length),
        ]
            as [(String, PartialKeyPath<fw_field>)]
        { m("fw_field.\(n)", p) }
        for (n, p) in [
            ("name", \fw_field.name), ("label", \fw_field.label), ("doc", \fw_field.doc), ("options_field", \fw_field.options_field),
        ]
            as [(String, PartialKeyPath<fw_field>)]
        { m("fw_field.\(n)", p) }
        m("fw_field.choices", \fw_field.choices); m("fw_field.default_value", \fw_field.default_value)
        m("fw_field.minimum", \fw_field.minimum); m("fw_field.maximum", \fw_field.maximum)
        s("fw_text_traits", fw_text_traits.self)
        for (n, p) in [
            ("struct_size", \fw_text_traits.struct_size), ("autocapitalization", \fw_text_traits.autocapitalization),
            ("autocorrection", \fw_text_traits.autocorrection), ("spell_checking", \fw_text_traits.spell_checking),
            ("smart_dashes", \fw_text_traits.smart_dashes), ("smart_quotes", \fw_text_traits.smart_quotes),
            ("smart_insert_delete", \fw_text_traits.smart_insert_delete), ("keyboard", \fw_text_traits.keyboard),
            ("keyboard_appearance", \fw_text_traits.keyboard_appearance), ("return_key", \fw_text_traits.return_key),
            ("clear_button", \fw_text_traits.clear_button), ("secure_entry", \fw_text_traits.secure_entry),
            ("data_detectors", \fw_text_traits.data_detectors), ("selectable", \fw_text_traits.selectable),
            ("date_mode", \fw_text_traits.date_mode), ("reserved", \fw_text_traits.reserved),
        ]
            as [(String, PartialKeyPath<fw_text_traits>)]
        { m("fw_text_traits.\(n)", p) }
        for (n, p) in [
            ("content_type", \fw_text_traits.content_type), ("minimum_field", \fw_text_traits.minimum_field),
            ("maximum_field", \fw_text_traits.maximum_field),
        ] as [(String, PartialKeyPath<fw_text_traits>)] { m("fw_text_traits.\(n)", p) }
        s("fw_host", fw_host.self); m("fw_host.abi", \fw_host.abi); m("fw_host.struct_size", \fw_host.struct_size)
        m("fw_host.name", \fw_host.name); m("fw_host.version", \fw_host.version); m("fw_host.host_data", \fw_host.host_data)
        m("fw_host.log", \fw_host.log); m("fw_host.get_extension", \fw_host.get_extension)
        s("fw_canvas", fw_canvas.self); m("fw_canvas.struct_size", \fw_canvas.struct_size); m("fw_canvas.reserved", \fw_canvas.reserved)
        m("fw_canvas.begin_group", \fw_canvas.begin_group); m("fw_canvas.end_group", \fw_canvas.end_group);
        m("fw_canvas.label", \fw_canvas.label)
        m("fw_canvas.value", \fw_canvas.value); m("fw_canvas.text_input", \fw_canvas.text_input); m("fw_canvas.toggle", \fw_canvas.toggle)
        m("fw_canvas.button", \fw_canvas.button); m("fw_canvas.choice", \fw_canvas.choice); m("fw_canvas.date", \fw_canvas.date)
        m("fw_canvas.message", \fw_canvas.message); m("fw_canvas.number", \fw_canvas.number);
        m("fw_canvas.multi_choice", \fw_canvas.multi_choice)
        s("fw_pack_context", fw_pack_context.self); m("fw_pack_context.struct_size", \fw_pack_context.struct_size)
        m("fw_pack_context.reserved", \fw_pack_context.reserved); m("fw_pack_context.pack_path", \fw_pack_context.pack_path)
        m("fw_pack_context.resource_dir", \fw_pack_context.resource_dir)
        s("fw_cell_type", fw_cell_type.self)
        m("fw_cell_type.struct_size", \fw_cell_type.struct_size); m("fw_cell_type.flags", \fw_cell_type.flags)
        m("fw_cell_type.id", \fw_cell_type.id); m("fw_cell_type.name", \fw_cell_type.name); m("fw_cell_type.summary", \fw_cell_type.summary)
        m("fw_cell_type.fields", \fw_cell_type.fields); m("fw_cell_type.field_count", \fw_cell_type.field_count)
        m("fw_cell_type.text_input_kind", \fw_cell_type.text_input_kind); m("fw_cell_type.text_input_field", \fw_cell_type.text_input_field)
        m("fw_cell_type.text_traits", \fw_cell_type.text_traits); m("fw_cell_type.create", \fw_cell_type.create)
        m("fw_cell_type.destroy", \fw_cell_type.destroy); m("fw_cell_type.configure", \fw_cell_type.configure)
        m("fw_cell_type.render", \fw_cell_type.render); m("fw_cell_type.did_set_selected", \fw_cell_type.did_set_selected)
        m("fw_cell_type.did_set_highlighted", \fw_cell_type.did_set_highlighted);
        m("fw_cell_type.value_changed", \fw_cell_type.value_changed)
        m("fw_cell_type.typed_convention", \fw_cell_type.typed_convention); m("fw_cell_type.model_alignment", \fw_cell_type.model_alignment)
        m("fw_cell_type.model_size", \fw_cell_type.model_size); m("fw_cell_type.typed_configure", \fw_cell_type.typed_configure)
        m("fw_cell_type.value_field", \fw_cell_type.value_field); m("fw_cell_type.title_field", \fw_cell_type.title_field)
        m("fw_cell_type.required_field", \fw_cell_type.required_field); m("fw_cell_type.max_length_field", \fw_cell_type.max_length_field)
        m("fw_cell_type.placeholder_field", \fw_cell_type.placeholder_field)
        s("fw_pack", fw_pack.self); m("fw_pack.abi", \fw_pack.abi); m("fw_pack.struct_size", \fw_pack.struct_size)
        m("fw_pack.id", \fw_pack.id); m("fw_pack.name", \fw_pack.name); m("fw_pack.version", \fw_pack.version)
        m("fw_pack.vendor", \fw_pack.vendor); m("fw_pack.license", \fw_pack.license); m("fw_pack.description", \fw_pack.description)
        m("fw_pack.init", \fw_pack.`init`); m("fw_pack.deinit", \fw_pack.deinit); m("fw_pack.cell_types", \fw_pack.cell_types)
        m("fw_pack.cell_type_count", \fw_pack.cell_type_count); m("fw_pack.reserved", \fw_pack.reserved)
        return t
    }

    @Test("gcc, clang and Swift agree on every struct and member")
    func agreement() throws {
        let gcc = try cLayout("/usr/bin/gcc")
        let clangPath =
            ["/usr/bin/clang", "/opt/swift/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "clang"
        let clang = try cLayout(clangPath)
        #expect(gcc.count == 120, "gcc printed \(gcc.count) lines (12 structs, 108 members: ABI 1.1)")
        #expect(gcc == clang, "gcc and clang disagree")
        let swift = swiftLayout
        var compared = 0
        for (name, values) in gcc {
            if name.contains(".") {
                #expect(swift[name] == values[0], "\(name): C offset \(values[0]), Swift \(swift[name].map(String.init) ?? "missing")")
            } else {
                #expect(swift[name] == values[0], "\(name): C size \(values[0]), Swift \(swift[name] ?? -1)")
                #expect(swift[name + "#align"] == values[1], "\(name): C alignment \(values[1]), Swift \(swift[name + "#align"] ?? -1)")
            }
            compared += 1
        }
        #expect(compared == swift.keys.filter { !$0.hasSuffix("#align") }.count, "a struct or member is missing from one side")
    }
}
