import CFormwork
import Glibc

/// Builds the C descriptors of a Swift cell type and its C trampolines.
/// Everything allocated here lives for the process (descriptors must stay valid).
enum Descriptors {
    static func string(_ s: String) -> UnsafePointer<CChar> { UnsafePointer(strdup(s)!) }

    static func cellType(_ type: any Cell.Type) -> fw_cell_type {
        func open<C: Cell>(_ type: C.Type) -> fw_cell_type { cellType(for: type) }
        return open(type)
    }

    private static func cellType<C: Cell>(for type: C.Type) -> fw_cell_type {
        let fields = C.Model.fields
        var d = fw_cell_type()
        d.struct_size = UInt32(MemoryLayout<fw_cell_type>.size)
        var flags: UInt32 = 0
        if C._selectedSetter != nil { flags |= UInt32(FW_CELL_SELECTABLE) }
        if C._highlightedSetter != nil { flags |= UInt32(FW_CELL_HIGHLIGHTABLE) }
        if C.isThreadSafe { flags |= UInt32(FW_CELL_THREAD_SAFE) }
        d.flags = flags
        d.id = string(C.identifier)
        d.name = string(C.displayName)
        d.summary = C.summary.map(string)
        let array = UnsafeMutablePointer<fw_field>.allocate(capacity: max(fields.count, 1))
        for (i, field) in fields.enumerated() { array.advanced(by: i).initialize(to: descriptor(field)) }
        d.fields = UnsafePointer(array)
        d.field_count = UInt32(fields.count)
        let input = C.textInput
        d.text_input_kind = input.kind.rawValue
        d.text_input_field = input.field.map(string)
        let traits = UnsafeMutablePointer<fw_text_traits>.allocate(capacity: 1)
        traits.initialize(to: descriptor(input.traits))
        d.text_traits = UnsafePointer(traits)

        let roles = C.roles
        d.value_field = roles.value.map(string)
        d.title_field = roles.title.map(string)
        d.required_field = roles.required.map(string)
        d.max_length_field = roles.maxLength.map(string)
        d.placeholder_field = roles.placeholder.map(string)

        installVTable(&d, observesValues: C._valueObserver != nil)
        return d
    }

    /// The C trampolines; not generic, so they can be C function pointers.
    private static func installVTable(_ d: inout fw_cell_type, observesValues: Bool) {
        d.create = { descriptor, host in
            guard let descriptor, let type = CellTable.shared.cell(for: UnsafeRawPointer(descriptor)) else { return nil }
            return Unmanaged.passRetained(Descriptors.makeBox(type, host: host)).toOpaque()
        }
        d.destroy = { cell in
            guard let cell else { return }
            Unmanaged<CellBox>.fromOpaque(cell).release()
        }
        d.configure = { cell, values, count in
            guard let box = CellBox.from(cell) else { return fw_status(FW_INVALID_ARGUMENT) }
            guard Int(count) == box.fields.count, count == 0 || values != nil else {
                box.log("configure: expected \(box.fields.count) values, got \(count)")
                return fw_status(FW_INVALID_ARGUMENT)
            }
            // The instance's scratch array, taken for the call (one access to the box) and given back: each
            // value is overwritten in place by the next configure (the count is the schema's, every call), so
            // no array is made, and each old value is released by code made for `ModelValue?` rather than
            // by the runtime's generic destroy of a whole array. A model that kept a copy of its
            // `ModelValues` keeps its own storage (the first write copies).
            var ordered: [ModelValue?] = []
            swap(&ordered, &box.scratch)
            if ordered.count != Int(count) { ordered = Array(repeating: nil, count: Int(count)) }
            for i in 0..<Int(count) { ordered[i] = Descriptors.modelValue(values![i]) }
            defer { swap(&ordered, &box.scratch) }
            do {
                try box.configure(ModelValues(names: box.fieldNames, ordered: ordered, cursor: box.cursor))
                return fw_status(FW_OK)
            } catch {
                box.log("\(error)")
                return fw_status(FW_INVALID_ARGUMENT)
            }
        }
        d.render = { cell, canvas, context in
            guard let box = CellBox.from(cell), let canvas else { return fw_status(FW_ERROR) }
            box.render(Canvas(canvas, context: context))
            return fw_status(FW_OK)
        }
        if d.flags & UInt32(FW_CELL_SELECTABLE) != 0 {
            d.did_set_selected = { cell, selected in CellBox.from(cell)?.setSelected?(selected) }
        }
        if d.flags & UInt32(FW_CELL_HIGHLIGHTABLE) != 0 {
            d.did_set_highlighted = { cell, highlighted in CellBox.from(cell)?.setHighlighted?(highlighted) }
        }
        if observesValues {
            d.value_changed = { cell, field, value, message in
                guard let box = CellBox.from(cell), let field, let observe = box.valueChanged else { return fw_status(FW_OK) }
                switch observe(String(cString: field), value.flatMap { Descriptors.modelValue($0.pointee) }) {
                case .accept:
                    return fw_status(FW_OK)
                case .reject(let reason):
                    free(box.message)
                    box.message = strdup(reason)
                    message?.pointee = UnsafePointer(box.message)
                    return fw_status(FW_REJECTED)
                }
            }
        }
    }

    private static func makeBox(_ type: any Cell.Type, host: UnsafePointer<fw_host>?) -> CellBox {
        func make<T: Cell>(_ type: T.Type) -> CellBox { CellBox(T(), host: host) }
        return make(type)
    }

    static func modelValue(_ v: fw_value) -> ModelValue? {
        switch Int(v.type) {
        case Int(FW_FIELD_STRING), Int(FW_FIELD_TEXT), Int(FW_FIELD_CHOICE):
            return v.as.string.map { .string(String(cString: $0)) }
        case Int(FW_FIELD_BOOL): return .bool(v.as.boolean)
        case Int(FW_FIELD_INTEGER): return .integer(v.as.integer)
        case Int(FW_FIELD_NUMBER), Int(FW_FIELD_DATE): return .number(v.as.number)
        case Int(FW_FIELD_STRING_LIST), Int(FW_FIELD_CHOICE_LIST):
            let list = v.as.list
            guard list.count > 0, let items = list.items else { return .stringList([]) }
            return .stringList((0..<list.count).map { items[$0].map { String(cString: $0) } ?? "" })
        default: return nil
        }
    }

    static func descriptor(_ field: Field) -> fw_field {
        var f = fw_field()
        f.struct_size = UInt32(MemoryLayout<fw_field>.size)
        f.type = field.cType
        f.name = string(field.name)
        f.label = field.label.map(string)
        f.doc = field.doc.map(string)
        var flags: UInt32 = 0
        if field.required { flags |= UInt32(FW_FIELD_REQUIRED) }
        if let minimum = field.minimum { flags |= UInt32(FW_FIELD_HAS_MINIMUM); f.minimum = minimum }
        if let maximum = field.maximum { flags |= UInt32(FW_FIELD_HAS_MAXIMUM); f.maximum = maximum }
        if let step = field.step { flags |= UInt32(FW_FIELD_HAS_STEP); f.step = step }
        if field.exclusiveMinimum { flags |= UInt32(FW_FIELD_EXCLUSIVE_MINIMUM) }
        if field.exclusiveMaximum { flags |= UInt32(FW_FIELD_EXCLUSIVE_MAXIMUM) }
        f.flags = flags
        if !field.choices.isEmpty {
            let choices = UnsafeMutablePointer<fw_choice>.allocate(capacity: field.choices.count)
            for (i, choice) in field.choices.enumerated() {
                choices.advanced(by: i).initialize(
                    to: fw_choice(
                        struct_size: UInt32(MemoryLayout<fw_choice>.size), reserved: 0,
                        value: string(choice.value), label: string(choice.label)))
            }
            f.choices = UnsafePointer(choices)
            f.choice_count = UInt32(field.choices.count)
        }
        if let value = field.defaultValue { f.default_value = cValue(value, type: f.type) }
        f.min_length = UInt32(field.minLength ?? 0)
        f.max_length = UInt32(field.maxLength ?? 0)
        f.options_field = field.optionsField.map(string)
        return f
    }

    static func cValue(_ value: ModelValue, type: fw_field_type) -> fw_value {
        var v = fw_value()
        v.type = type
        switch value {
        case .string(let s): v.as.string = string(s)
        case .bool(let b): v.as.boolean = b
        case .integer(let i): v.as.integer = i
        case .number(let d): v.as.number = d
        case .stringList(let items):
            let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(items.count, 1))
            for (i, item) in items.enumerated() { array[i] = string(item) }
            v.as.list = fw_string_list(items: UnsafePointer(array), count: items.count)
        }
        return v
    }

    static func descriptor(_ t: TextTraits) -> fw_text_traits {
        func tristate(_ b: Bool?) -> fw_tristate {
            guard let b else { return fw_tristate(FW_TRAIT_DEFAULT) }
            return fw_tristate(b ? FW_TRAIT_YES : FW_TRAIT_NO)
        }
        var d = fw_text_traits()
        d.struct_size = UInt32(MemoryLayout<fw_text_traits>.size)
        d.autocapitalization = t.autocapitalization?.rawValue ?? 0
        d.autocorrection = tristate(t.autocorrection)
        d.spell_checking = tristate(t.spellChecking)
        d.smart_dashes = tristate(t.smartDashes)
        d.smart_quotes = tristate(t.smartQuotes)
        d.smart_insert_delete = tristate(t.smartInsertDelete)
        d.keyboard = t.keyboard?.rawValue ?? 0
        d.keyboard_appearance = t.keyboardAppearance?.rawValue ?? 0
        d.return_key = t.returnKey?.rawValue ?? 0
        d.clear_button = t.clearButton?.rawValue ?? 0
        d.secure_entry = tristate(t.secureEntry)
        d.content_type = t.contentType.map(string)
        d.data_detectors = t.dataDetectors.rawValue
        d.selectable = tristate(t.selectable)
        d.date_mode = t.dateMode?.rawValue ?? 0
        d.minimum_field = t.minimumField.map(string)
        d.maximum_field = t.maximumField.map(string)
        return d
    }
}
