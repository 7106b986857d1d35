import CFFI
import CFormwork
import FormworkCore

/// Opens a pack, finds its entry, negotiates the ABI and validates every
/// descriptor before anything is returned: a pack either loads whole or not at all.
enum PackLoader {
    static let minimumSize = DescriptorReader.minimumSize

    /// Loads under `PackOutput.redirect`: the pack's constructors and entry may print; it never reaches standard output.
    ///
    /// `realPath`: the file's real path when the caller found it a regular file there (discovery did): it is
    /// then neither examined nor resolved again before `dlopen` (five system calls a pack), only when `dlopen`
    /// refuses it, so the errors are the same. Empty: both are done here.
    static func load(path: String, realPath: String = "") throws(PackError) -> LoadedPack {
        try PackOutput.redirect { () throws(PackError) -> LoadedPack in try loadUnguarded(path: path, known: realPath) }
    }

    private static func loadUnguarded(path: String, known: String) throws(PackError) -> LoadedPack {
        func fail(_ reason: PackError.Reason) -> PackError { PackError(path: path, reason: reason) }
        func checkKind() throws(PackError) {
            switch FileSystem.kind(of: path) {
            case .missing: throw fail(.fileNotFound)
            case .directory, .other: throw fail(.notARegularFile)
            case .regular: break
            }
        }

        if known.isEmpty { try checkKind() }
        let library: DynamicLibrary
        // An absolute path: a bare "libx.so" would make dlopen search the library path instead.
        let realPath = known.isEmpty ? FileSystem.realPath(path) : known
        do { library = try DynamicLibrary.open(realPath ?? path) } catch {
            if !known.isEmpty { try checkKind() }
            // Why, in the words of the usual cases, read only when dlopen refused the file (one open and
            // read less per pack on the way that succeeds).
            guard let magic = FileSystem.prefix(of: path, count: 4) else { throw fail(.unreadable) }
            guard magic == [0x7F, 0x45, 0x4C, 0x46] else { throw fail(.notELF) }
            throw fail(.openFailed(error.message))
        }

        guard let entry = library.symbol(FW_PACK_ENTRY_SYMBOL) else {
            // A C++ definition without C linkage exports the Itanium-mangled name instead.
            if library.symbol("_Z16formwork_pack_v1v") != nil { throw fail(.mangledEntry) }
            let others = ([0] + Array(2...9)).filter { library.symbol("formwork_pack_v\($0)") != nil }
            throw fail(.missingEntry(otherMajors: others.map(UInt32.init)))
        }
        let function = unsafeBitCast(entry, to: (@convention(c) () -> UnsafeRawPointer?).self)
        guard let raw = function() else { throw fail(.entryReturnedNull) }

        // Version first: read only the fw_version before trusting anything else.
        let version = raw.loadUnaligned(as: fw_version.self)
        let abi = ABIVersion(major: version.major, minor: version.minor, patch: version.patch)
        guard ABIVersion.host.canLoad(pack: abi) else {
            throw fail(.incompatibleABI(pack: abi, host: .host))
        }
        do {
            return try DescriptorValidator(path: path, realPath: realPath, abi: abi).pack(at: raw)
        } catch {
            throw fail(.invalidDescriptor(error.text))
        }
    }
}

/// A validation failure: where, what, and how to fix it.
struct DescriptorProblem: Error {
    var text: String
    init(_ text: String) { self.text = text }
}

/// Reads and validates descriptors into plain Swift values.
struct DescriptorValidator {
    let path: String
    /// `path` with its links resolved, when the loader has it (nil: resolved when needed).
    var realPath: String? = nil
    let abi: ABIVersion

    func pack(at raw: UnsafeRawPointer) throws(DescriptorProblem) -> LoadedPack {
        let size = Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        try checkSize(size, minimum: PackLoader.minimumSize.pack, of: "fw_pack")
        // A pack that claims 1.0 or 1.1 knows nothing past 1.1's fw_pack: whatever follows is not get_extension.
        let d = DescriptorReader.copy(
            fw_pack.self, from: raw, declaredSize: abi.minor >= 2 ? size : min(size, PackLoader.minimumSize.pack))

        let id = try requiredString(d.id, "fw_pack.id")
        try checkIdentifier(id, what: "pack id")
        let name = try requiredString(d.name, "pack '\(id)': fw_pack.name")
        let version = try requiredString(d.version, "pack '\(id)': fw_pack.version")
        let vendor = try optionalString(d.vendor, "pack '\(id)': fw_pack.vendor")
        let license = try optionalString(d.license, "pack '\(id)': fw_pack.license")
        let description = try optionalString(d.description, "pack '\(id)': fw_pack.description")
        try checkReserved(d.reserved, "pack '\(id)': fw_pack.reserved")

        guard d.cell_type_count > 0, let cells = d.cell_types else {
            throw DescriptorProblem("pack '\(id)' declares no cell types; set fw_pack.cell_types and cell_type_count")
        }
        guard d.cell_type_count <= 10_000 else {
            throw DescriptorProblem("pack '\(id)' declares \(d.cell_type_count) cell types; the limit is 10000")
        }
        let choices = try choicesExtension(d.get_extension, packID: id)
        let lifecycle = PackLifecycle(
            host: Host.forPack(path: path, realPath: realPath, id: id), initialize: d.`init`, deinitialize: d.deinit,
            choices: choices)
        let loaded = try array(
            UnsafeRawPointer(cells), count: Int(d.cell_type_count),
            minimum: PackLoader.minimumSize.cellType, what: "pack '\(id)': cell_types"
        ) {
            (element, elementSize) throws(DescriptorProblem) in
            try cellType(at: element, size: elementSize, packID: id, lifecycle: lifecycle)
        }
        if let twice = Self.firstRepeated(loaded, { $0.0.id }) {
            throw DescriptorProblem("cell type '\(twice)' is declared twice in pack '\(id)'; give each cell type its own identifier")
        }
        let pack = Pack(
            path: path, id: id, name: name, version: version, vendor: vendor, license: license,
            description: description, abi: abi, cellTypes: loaded.map(\.0), choiceSources: choices?.sources ?? [],
            choicesCacheSeconds: choices?.cacheSeconds ?? 0)
        return LoadedPack(pack: pack, lifecycle: lifecycle, entries: loaded.map(\.1))
    }

    /// The pack's `org.formwork.choices/1` (ABI 1.2), asked for and checked at load, or nil.
    func choicesExtension(
        _ getExtension: (@convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer?)?, packID: String
    ) throws(DescriptorProblem) -> ChoicesExtension? {
        guard let getExtension, let raw = getExtension(FW_PACK_EXTENSION_CHOICES) else { return nil }
        func at() -> String { "pack '\(packID)': \(FW_PACK_EXTENSION_CHOICES)" }
        let size = Int(raw.loadUnaligned(as: UInt32.self))
        guard size >= MemoryLayout<fw_choices_ext>.size, size <= DescriptorReader.maximumStride else {
            throw DescriptorProblem(
                "\(at()): struct_size is \(size), not the \(MemoryLayout<fw_choices_ext>.size) bytes of fw_choices_ext; set it to sizeof")
        }
        let e = DescriptorReader.copy(fw_choices_ext.self, from: raw, declaredSize: size)
        try checkReserved(e.reserved, "\(at()): reserved")
        guard let list = e.list else { throw DescriptorProblem("\(at()): list is NULL; the extension must provide list") }
        guard (1...1000).contains(e.source_count), let names = e.sources else {
            throw DescriptorProblem("\(at()): source_count is \(e.source_count); name between 1 and 1000 sources in sources")
        }
        var sources: [String] = []
        for i in 0..<Int(e.source_count) {
            let name = try requiredString(names[i], "\(at()): sources[\(i)]")
            guard Self.isSourceName(name) else {
                throw DescriptorProblem("\(at()): source '\(name)' must match [A-Za-z][A-Za-z0-9_.-]*")
            }
            sources.append(name)
        }
        if let twice = Self.firstRepeated(sources, { $0 }) {
            throw DescriptorProblem("\(at()): source '\(twice)' is listed twice")
        }
        return ChoicesExtension(list: list, sources: sources, cacheSeconds: e.cache_seconds)
    }

    /// `[A-Za-z][A-Za-z0-9_.-]*`, at most 100 bytes: a source name is written in documents after the pack's id.
    static func isSourceName(_ name: String) -> Bool {
        func letter(_ c: UInt8) -> Bool { (65...90).contains(c) || (97...122).contains(c) }
        guard let first = name.utf8.first, letter(first), name.utf8.count <= 100 else { return false }
        return name.utf8.allSatisfy { letter($0) || (48...57).contains($0) || $0 == 95 || $0 == 46 || $0 == 45 }
    }

    // MARK: cell types

    func cellType(
        at raw: UnsafeRawPointer, size: Int, packID: String, lifecycle: PackLifecycle
    ) throws(DescriptorProblem) -> (CellType, CellEntry) {
        // A pack that claims 1.0 knows nothing past 1.0's fw_cell_type: whatever follows is not a 1.1 member.
        let d = DescriptorReader.copy(
            fw_cell_type.self, from: raw,
            declaredSize: abi.minor >= 1 ? size : min(size, PackLoader.minimumSize.cellType))
        let id = try requiredString(d.id, "pack '\(packID)': fw_cell_type.id")
        try checkIdentifier(id, what: "cell type identifier")
        // Where a problem is, built only when one is reported (never on the success path).
        func at() -> String { "cell type '\(id)'" }
        let name = try requiredString(d.name, "\(at()): name")
        let summary = try optionalString(d.summary, "\(at()): summary")

        guard let create = d.create else { throw DescriptorProblem("\(at()): create is NULL; every cell type must provide create") }
        guard let destroy = d.destroy else { throw DescriptorProblem("\(at()): destroy is NULL; every cell type must provide destroy") }
        guard let configure = d.configure else {
            throw DescriptorProblem("\(at()): configure is NULL; the generic configure is required even with typed configure")
        }
        guard let render = d.render else { throw DescriptorProblem("\(at()): render is NULL; every cell type must provide render") }

        let known = CellCapabilities.known.rawValue
        guard d.flags & ~known == 0 else {
            throw DescriptorProblem("\(at()): unknown capability flags 0x\(String(d.flags & ~known, radix: 16)); use only FW_CELL_* values")
        }
        let capabilities = CellCapabilities(rawValue: d.flags)
        if capabilities.contains(.typedPresence) && abi.minor < 2 {
            throw DescriptorProblem(
                "\(at()): FW_CELL_TYPED_PRESENCE is new in ABI 1.2 but the pack claims ABI \(abi); build it against formwork.h 1.2 or later"
            )
        }
        try checkPair(
            capabilities.contains(.selectable), d.did_set_selected != nil, flag: "FW_CELL_SELECTABLE", function: "did_set_selected", at: at)
        try checkPair(
            capabilities.contains(.highlightable), d.did_set_highlighted != nil, flag: "FW_CELL_HIGHLIGHTABLE",
            function: "did_set_highlighted", at: at)

        var fields: [FieldSchema] = []
        if d.field_count > 0 {
            guard let pointer = d.fields else { throw DescriptorProblem("\(at()): field_count is \(d.field_count) but fields is NULL") }
            guard d.field_count <= 1000 else { throw DescriptorProblem("\(at()): \(d.field_count) fields; the limit is 1000") }
            fields = try array(
                UnsafeRawPointer(pointer), count: Int(d.field_count), minimum: PackLoader.minimumSize.field,
                what: "\(at()): fields"
            ) { (element, elementSize) throws(DescriptorProblem) in
                try field(at: element, size: elementSize, cell: at)
            }
        }
        if let twice = Self.firstRepeated(fields, { $0.name }) {
            throw DescriptorProblem("\(at()): field '\(twice)' is declared twice; field names must be unique in a schema")
        }
        for field in fields {
            guard let options = field.optionsField else { continue }
            guard field.type == .string || (field.type == .stringList && abi.minor >= 1) else {
                throw DescriptorProblem(
                    "\(at()) field '\(field.name)': options_field is only allowed on string fields (and, from ABI 1.1, string-list fields)")
            }
            guard options != field.name else {
                throw DescriptorProblem("\(at()) field '\(field.name)': options_field names the field itself")
            }
            guard fields.first(where: { $0.name == options })?.type == .stringList else {
                throw DescriptorProblem(
                    "\(at()) field '\(field.name)': options_field '\(options)' is not a string-list field of the same model")
            }
        }

        let textInput = try textInput(d, fields: fields, at: at)
        let typed = try typedConfigure(d, capabilities: capabilities, fields: fields, at: at)
        let configureStyle: ConfigureStyle =
            typed.map {
                .typed(convention: $0.convention, size: $0.layout.size, alignment: $0.layout.alignment)
            } ?? .generic

        let entry = CellEntry(
            descriptor: raw, create: create, destroy: destroy, configure: configure, render: render,
            didSetSelected: d.did_set_selected, didSetHighlighted: d.did_set_highlighted,
            valueChanged: d.value_changed, typed: typed, lifecycle: lifecycle,
            createLock: capabilities.contains(.threadSafe) ? nil : Lock())
        let roles = try self.roles(d, fields: fields, textInput: textInput, at: at)
        let cell = CellType(
            id: id, name: name, summary: summary, fields: fields, textInput: textInput,
            capabilities: capabilities, configure: configureStyle, modelOffsets: typed?.layout.offsets ?? [],
            roles: roles, packID: packID, packPath: path, packABI: abi)
        return (cell, entry)
    }

    /// The field roles: declared (1.1) or the 1.0 conventions. A declared role must name a
    /// field of a fitting type; "" declares that the cell has none.
    func roles(
        _ d: fw_cell_type, fields: [FieldSchema], textInput: TextInputConfiguration, at: () -> String
    ) throws(DescriptorProblem) -> FieldRoles {
        let conventions = FieldRoles(conventionsFor: fields, textInputField: textInput.field)
        func role(
            _ pointer: UnsafePointer<CChar>?, _ member: String, _ convention: String?, _ types: [FieldType]?
        ) throws(DescriptorProblem) -> String? {
            guard let name = try optionalString(pointer, "\(at()): fw_cell_type.\(member)") else { return convention }
            if name.isEmpty { return nil }
            guard let field = fields.first(where: { $0.name == name }) else {
                throw DescriptorProblem(
                    "\(at()): \(member) '\(name)' is not a field of the model (fields: \(fields.map(\.name).joined(separator: ", "))); name one, or use \"\" for none"
                )
            }
            if let types, !types.contains(field.type) {
                throw DescriptorProblem(
                    "\(at()): \(member) '\(name)' is of type \(field.type.rawValue); this role needs \(types.map(\.rawValue).joined(separator: " or "))"
                )
            }
            return name
        }
        return FieldRoles(
            value: try role(d.value_field, "value_field", conventions.value, nil),
            required: try role(d.required_field, "required_field", conventions.required, [.bool]),
            title: try role(d.title_field, "title_field", conventions.title, [.string, .text]),
            maxLength: try role(d.max_length_field, "max_length_field", conventions.maxLength, [.integer]),
            placeholder: try role(d.placeholder_field, "placeholder_field", conventions.placeholder, [.string, .text]))
    }

    func checkPair(_ flag: Bool, _ function: Bool, flag flagName: String, function name: String, at: () -> String) throws(DescriptorProblem)
    {
        if flag && !function { throw DescriptorProblem("\(at()): sets \(flagName) but \(name) is NULL; provide \(name) or clear the flag") }
        if !flag && function {
            throw DescriptorProblem("\(at()): provides \(name) without \(flagName); set the flag or leave \(name) NULL")
        }
    }

    /// The typed binding (layout built once, here), or nil for a generic cell type.
    func typedConfigure(
        _ d: fw_cell_type, capabilities: CellCapabilities, fields: [FieldSchema], at: () -> String
    ) throws(DescriptorProblem) -> TypedBinding? {
        let declared = capabilities.contains(.typedConfigure)
        if capabilities.contains(.typedPresence) && !declared {
            throw DescriptorProblem("\(at()): FW_CELL_TYPED_PRESENCE is set without FW_CELL_TYPED_CONFIGURE; it describes the typed model")
        }
        guard declared else {
            if d.typed_configure != nil || d.typed_convention != UInt32(FW_TYPED_NONE) {
                throw DescriptorProblem(
                    "\(at()): typed_configure is set without FW_CELL_TYPED_CONFIGURE; set the flag or clear typed_configure and typed_convention"
                )
            }
            return nil
        }
        guard let function = d.typed_configure else {
            throw DescriptorProblem("\(at()): sets FW_CELL_TYPED_CONFIGURE but typed_configure is NULL")
        }
        let convention: TypedConvention
        switch Int(d.typed_convention) {
        case Int(FW_TYPED_BY_VALUE): convention = .byValue
        case Int(FW_TYPED_BY_POINTER): convention = .byPointer
        default:
            throw DescriptorProblem(
                "\(at()): typed_convention \(d.typed_convention) is not FW_TYPED_BY_VALUE (1) or FW_TYPED_BY_POINTER (2)")
        }
        guard !fields.isEmpty else { throw DescriptorProblem("\(at()): typed configure needs at least one field in the schema") }
        let layout: TypedModelLayout
        do { layout = try TypedModelLayout(fields: fields.map(\.type), presence: capabilities.contains(.typedPresence)) } catch {
            throw DescriptorProblem("\(at()): libffi could not lay out the model struct (\(error)); report this as a host bug")
        }
        if Int(d.model_size) != layout.size || Int(d.model_alignment) != layout.alignment {
            let members =
                (zip(fields, layout.offsets).map { "\($0.name)@\($1)" } + (layout.presenceOffset.map { ["present@\($0)"] } ?? []))
                .joined(separator: ", ")
            throw DescriptorProblem(
                "\(at()): typed model size \(d.model_size) / alignment \(d.model_alignment) does not match the schema's layout, size \(layout.size) / alignment \(layout.alignment) (\(members)); declare the struct's members in schema order with the C types of formwork.h"
            )
        }
        return TypedBinding(function: function, convention: convention, layout: layout)
    }

    func textInput(_ d: fw_cell_type, fields: [FieldSchema], at: () -> String) throws(DescriptorProblem) -> TextInputConfiguration {
        guard let kind = TextInputKind(abiValue: d.text_input_kind) else {
            throw DescriptorProblem("\(at()): text_input_kind \(d.text_input_kind) is unknown; use one of FW_TEXT_INPUT_* (0...4)")
        }
        let fieldName = try optionalString(d.text_input_field, "\(at()): text_input_field")
        var traits = TextInputTraits()
        if let pointer = d.text_traits {
            let raw = UnsafeRawPointer(pointer)
            let size = Int(raw.loadUnaligned(as: UInt32.self))
            try checkSize(size, minimum: PackLoader.minimumSize.traits, of: "\(at()): fw_text_traits")
            let t = DescriptorReader.copy(fw_text_traits.self, from: raw, declaredSize: size)
            try checkReserved(t.reserved, "\(at()): fw_text_traits.reserved")
            traits = try readTraits(t, at: at)
        }
        // A default a document could not set for this kind is a mistake in the pack (secure entry on a text view).
        // Whether a key applies is asked first: reading a trait's value (a key path and its JSON) only for those that do not.
        // Default traits set nothing (most cell types): the table is then not walked (a copy of each of its keys
        // is work for nothing).
        for key in traits == TextInputTraits() ? [] : TraitKey.all
        where !(key.isDocumentKey ? key.kinds.contains(kind) : kind == .datePicker) {
            guard key.json(in: traits) == nil else {
                let fits = key.isDocumentKey ? key.kinds.map(\.rawValue).joined(separator: " and ") : "datePicker"
                throw DescriptorProblem(
                    "\(at()): fw_text_traits sets '\(key.name)', which does not apply to a \(kind.rawValue) (it applies to \(fits)); leave it at its default"
                )
            }
        }
        if kind == .none {
            if let fieldName {
                throw DescriptorProblem(
                    "\(at()): text_input_field '\(fieldName)' is set but text_input_kind is FW_TEXT_INPUT_NONE; set a kind or clear the field"
                )
            }
            return TextInputConfiguration(kind: kind, field: nil, traits: traits)
        }
        guard let fieldName else {
            throw DescriptorProblem(
                "\(at()): text_input_kind is \(kind.rawValue) but text_input_field is NULL; name the model field it binds to")
        }
        guard let bound = fields.first(where: { $0.name == fieldName }) else {
            throw DescriptorProblem(
                "\(at()): text_input_field '\(fieldName)' is not a field of the model (fields: \(fields.map(\.name).joined(separator: ", ")))"
            )
        }
        guard kind.bindableTypes.contains(bound.type) else {
            throw DescriptorProblem(
                "\(at()): a \(kind.rawValue) cannot bind field '\(fieldName)' of type \(bound.type.rawValue); it binds \(kind.bindableTypes.map(\.rawValue).joined(separator: " or "))"
            )
        }
        if kind == .picker && bound.type == .string && bound.optionsField == nil {
            throw DescriptorProblem("\(at()): a picker bound to string field '\(fieldName)' needs options_field naming its rows")
        }
        for (key, name) in [("minimum_field", traits.minimumField), ("maximum_field", traits.maximumField)] {
            guard let name else { continue }
            guard fields.first(where: { $0.name == name })?.type == .date else {
                throw DescriptorProblem("\(at()): fw_text_traits.\(key) '\(name)' is not a date field of the model")
            }
        }
        return TextInputConfiguration(kind: kind, field: fieldName, traits: traits)
    }

    func readTraits(_ t: fw_text_traits, at: () -> String) throws(DescriptorProblem) -> TextInputTraits {
        /// By the header's explicit values; 0 (`*_DEFAULT`) is the platform default (nil).
        func pick<E: ABIEnum>(_ value: UInt32, _ type: E.Type, _ name: String) throws(DescriptorProblem) -> E? {
            guard let picked = E(abiValue: value) else {
                throw DescriptorProblem("\(at()): fw_text_traits.\(name) has unknown value \(value)")
            }
            return value == 0 ? nil : picked
        }
        func tristate(_ value: UInt32, _ name: String) throws(DescriptorProblem) -> Bool? {
            switch Int(value) {
            case Int(FW_TRAIT_DEFAULT): return nil
            case Int(FW_TRAIT_NO): return false
            case Int(FW_TRAIT_YES): return true
            default:
                throw DescriptorProblem(
                    "\(at()): fw_text_traits.\(name) has unknown value \(value); use FW_TRAIT_DEFAULT, FW_TRAIT_NO or FW_TRAIT_YES")
            }
        }
        var traits = TextInputTraits()
        traits.autocapitalization = try pick(t.autocapitalization, Autocapitalization.self, "autocapitalization")
        traits.autocorrection = try tristate(t.autocorrection, "autocorrection")
        traits.spellChecking = try tristate(t.spell_checking, "spell_checking")
        traits.smartDashes = try tristate(t.smart_dashes, "smart_dashes")
        traits.smartQuotes = try tristate(t.smart_quotes, "smart_quotes")
        traits.smartInsertDelete = try tristate(t.smart_insert_delete, "smart_insert_delete")
        traits.keyboard = try pick(t.keyboard, KeyboardType.self, "keyboard")
        traits.keyboardAppearance = try pick(t.keyboard_appearance, KeyboardAppearance.self, "keyboard_appearance")
        traits.returnKey = try pick(t.return_key, ReturnKey.self, "return_key")
        traits.clearButton = try pick(t.clear_button, ClearButtonMode.self, "clear_button")
        traits.secureEntry = try tristate(t.secure_entry, "secure_entry")
        traits.contentType = try optionalString(t.content_type, "\(at()): fw_text_traits.content_type")
        guard t.data_detectors & ~DataDetector.knownBits == 0 else {
            throw DescriptorProblem(
                "\(at()): fw_text_traits.data_detectors has unknown bits 0x\(String(t.data_detectors & ~DataDetector.knownBits, radix: 16))"
            )
        }
        traits.dataDetectors = DataDetector.from(mask: t.data_detectors)
        traits.selectable = try tristate(t.selectable, "selectable")
        traits.dateMode = try pick(t.date_mode, DatePickerMode.self, "date_mode")
        traits.minimumField = try optionalString(t.minimum_field, "\(at()): fw_text_traits.minimum_field")
        traits.maximumField = try optionalString(t.maximum_field, "\(at()): fw_text_traits.maximum_field")
        return traits
    }

    // MARK: fields

    func field(at raw: UnsafeRawPointer, size: Int, cell: () -> String) throws(DescriptorProblem) -> FieldSchema {
        // A pack that claims 1.0 or 1.1 knows nothing past 1.1's fw_field: whatever follows is not `step`.
        let d = DescriptorReader.copy(
            fw_field.self, from: raw, declaredSize: abi.minor >= 2 ? size : min(size, PackLoader.minimumSize.field))
        let name = try requiredString(d.name, "\(cell()): fw_field.name")
        func at() -> String { "\(cell()) field '\(name)'" }
        guard Self.isFieldName(name) else {
            throw DescriptorProblem("\(at()): the name must match [A-Za-z][A-Za-z0-9_]*")
        }
        guard let type = FieldType(abiValue: d.type) else {
            throw DescriptorProblem("\(at()): unknown field type \(d.type); use one of FW_FIELD_STRING (1) ... FW_FIELD_CHOICE_LIST (9)")
        }
        guard type.sinceMinor <= abi.minor else {
            throw DescriptorProblem(
                "\(at()): field type \(type.rawValue) (\(type.abiValue)) is new in ABI 1.\(type.sinceMinor) but the pack claims ABI \(abi); build it against formwork.h 1.\(type.sinceMinor) or later"
            )
        }
        let known = UInt32(FW_FIELD_REQUIRED | FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM)
        let known12 = UInt32(FW_FIELD_HAS_STEP | FW_FIELD_EXCLUSIVE_MINIMUM | FW_FIELD_EXCLUSIVE_MAXIMUM)
        guard d.flags & ~(known | known12) == 0 else {
            throw DescriptorProblem(
                "\(at()): unknown flags 0x\(String(d.flags & ~(known | known12), radix: 16)); use only FW_FIELD_* flags")
        }
        guard d.flags & known12 == 0 || abi.minor >= 2 else {
            throw DescriptorProblem(
                "\(at()): flags 0x\(String(d.flags & known12, radix: 16)) (step, exclusive bounds) are new in ABI 1.2 but the pack claims ABI \(abi); build it against formwork.h 1.2 or later"
            )
        }
        let label = try optionalString(d.label, "\(at()): label") ?? name
        let doc = try optionalString(d.doc, "\(at()): doc")
        let optionsField = try optionalString(d.options_field, "\(at()): options_field")

        var choices: [Choice] = []
        if type.hasChoices {
            guard d.choice_count > 0, let pointer = d.choices else {
                throw DescriptorProblem("\(at()): a \(type.rawValue) field needs at least one choice; set choices and choice_count")
            }
            choices = try array(
                UnsafeRawPointer(pointer), count: Int(d.choice_count), minimum: PackLoader.minimumSize.choice,
                what: "\(at()): choices"
            ) { (element, elementSize) throws(DescriptorProblem) in
                let c = DescriptorReader.copy(fw_choice.self, from: element, declaredSize: elementSize)
                try checkReserved(c.reserved, "\(at()): fw_choice.reserved")
                let value = try requiredString(c.value, "\(at()): choice value")
                guard !value.isEmpty else { throw DescriptorProblem("\(at()): a choice value is empty") }
                let label = try optionalString(c.label, "\(at()): choice label") ?? value
                return Choice(value: value, label: label)
            }
            if let twice = Self.firstRepeated(choices, { $0.value }) {
                throw DescriptorProblem("\(at()): choice '\(twice)' is listed twice; choice values must be unique")
            }
        } else if d.choice_count != 0 {
            throw DescriptorProblem("\(at()): only choice and choiceList fields may have choices (choice_count is \(d.choice_count))")
        }

        let hasMin = d.flags & UInt32(FW_FIELD_HAS_MINIMUM) != 0
        let hasMax = d.flags & UInt32(FW_FIELD_HAS_MAXIMUM) != 0
        if (hasMin || hasMax) && !type.isOrdered {
            throw DescriptorProblem("\(at()): minimum/maximum apply only to integer, number and date fields, not \(type.rawValue)")
        }
        let minimum = hasMin ? d.minimum : nil
        let maximum = hasMax ? d.maximum : nil
        // Each bound in turn (an array of the two, compacted, was two allocations a field).
        func check(_ bound: Double?) throws(DescriptorProblem) {
            guard let bound else { return }
            guard bound.isFinite else { throw DescriptorProblem("\(at()): minimum and maximum must be finite numbers") }
            // Bounds are checked at the door so that nothing downstream (inspect, schema, check) can trap on them.
            if type == .integer, Int64(exactly: bound) == nil {
                throw DescriptorProblem(
                    "\(at()): an integer field's minimum and maximum must be whole numbers within int64_t (got \(NumberText.format(bound)))"
                )
            }
            if type == .date, !(DateFormat.earliest...DateFormat.latest).contains(bound) {
                throw DescriptorProblem(
                    "\(at()): a date field's minimum and maximum must lie between years 0001 and 9999 (got \(NumberText.format(bound)) seconds)"
                )
            }
        }
        try check(minimum)
        try check(maximum)
        if let minimum, let maximum, minimum > maximum {
            throw DescriptorProblem("\(at()): minimum \(NumberText.format(minimum)) is greater than maximum \(NumberText.format(maximum))")
        }
        let (step, exclusiveMinimum, exclusiveMaximum) = try steps(d, type: type, minimum: minimum, maximum: maximum, at: at)
        let minLength = d.min_length == 0 ? nil : Int(d.min_length)
        let maxLength = d.max_length == 0 ? nil : Int(d.max_length)
        if (minLength != nil || maxLength != nil) && !type.hasLength {
            throw DescriptorProblem(
                "\(at()): min_length/max_length apply only to string, text and string-list fields, not \(type.rawValue)")
        }
        if let minLength, let maxLength, minLength > maxLength {
            throw DescriptorProblem("\(at()): min_length \(minLength) is greater than max_length \(maxLength)")
        }
        // Each choice is chosen at most once: a required item count above the choices could never be met.
        if type == .choiceList, let minLength, minLength > choices.count {
            throw DescriptorProblem(
                "\(at()): min_length \(minLength) asks for more items than its \(choices.count) choices can give (each is chosen at most once); lower min_length or add choices"
            )
        }

        let schema = FieldSchema(
            name: name, type: type, label: label, doc: doc,
            required: d.flags & UInt32(FW_FIELD_REQUIRED) != 0, choices: choices,
            defaultValue: nil, minimum: minimum, maximum: maximum,
            minLength: minLength, maxLength: maxLength, optionsField: optionsField, step: step,
            exclusiveMinimum: exclusiveMinimum, exclusiveMaximum: exclusiveMaximum)
        guard let value = try defaultValue(d.default_value, field: schema, at: at) else { return schema }
        return FieldSchema(
            name: name, type: type, label: label, doc: doc, required: schema.required, choices: choices,
            defaultValue: value, minimum: minimum, maximum: maximum,
            minLength: minLength, maxLength: maxLength, optionsField: optionsField, step: step,
            exclusiveMinimum: exclusiveMinimum, exclusiveMaximum: exclusiveMaximum)
    }

    /// ABI 1.2: the step and the exclusive bounds, refused where no value could ever meet them.
    func steps(
        _ d: fw_field, type: FieldType, minimum: Double?, maximum: Double?, at: () -> String
    ) throws(DescriptorProblem) -> (Double?, Bool, Bool) {
        let exclusiveMinimum = d.flags & UInt32(FW_FIELD_EXCLUSIVE_MINIMUM) != 0
        let exclusiveMaximum = d.flags & UInt32(FW_FIELD_EXCLUSIVE_MAXIMUM) != 0
        if exclusiveMinimum && minimum == nil {
            throw DescriptorProblem("\(at()): FW_FIELD_EXCLUSIVE_MINIMUM needs FW_FIELD_HAS_MINIMUM and a minimum")
        }
        if exclusiveMaximum && maximum == nil {
            throw DescriptorProblem("\(at()): FW_FIELD_EXCLUSIVE_MAXIMUM needs FW_FIELD_HAS_MAXIMUM and a maximum")
        }
        if let minimum, let maximum, minimum == maximum, exclusiveMinimum || exclusiveMaximum {
            throw DescriptorProblem(
                "\(at()): minimum and maximum are both \(NumberText.format(minimum)) and one is exclusive, so no value is allowed")
        }
        if type == .integer, let minimum, let maximum, exclusiveMinimum && exclusiveMaximum, maximum - minimum <= 1 {
            throw DescriptorProblem(
                "\(at()): no whole number lies strictly between \(NumberText.format(minimum)) and \(NumberText.format(maximum))")
        }
        guard d.flags & UInt32(FW_FIELD_HAS_STEP) != 0 else {
            // `step` is read only with its flag: a 1.2 pack that leaves it 0 has no step.
            return (nil, exclusiveMinimum, exclusiveMaximum)
        }
        guard type == .integer || type == .number else {
            throw DescriptorProblem("\(at()): a step applies only to integer and number fields, not \(type.rawValue)")
        }
        let step = d.step
        guard step.isFinite, step > 0 else {
            throw DescriptorProblem(
                "\(at()): step is \(NumberText.format(step)); it must be a finite number above 0 (clear FW_FIELD_HAS_STEP for none)")
        }
        if type == .integer, step.rounded() != step || step > 9_007_199_254_740_992 {
            throw DescriptorProblem("\(at()): an integer field's step must be a whole number (got \(NumberText.format(step)))")
        }
        return (step, exclusiveMinimum, exclusiveMaximum)
    }

    func defaultValue(_ v: fw_value, field: FieldSchema, at: () -> String) throws(DescriptorProblem) -> Value? {
        try checkReserved(v.reserved, "\(at()): default_value.reserved")
        guard v.type != UInt32(FW_FIELD_NONE) else { return nil }
        guard v.type == field.type.abiValue else {
            let given = FieldType(abiValue: v.type)?.rawValue ?? "unknown type \(v.type)"
            throw DescriptorProblem("\(at()): the default is a \(given) but the field is a \(field.type.rawValue)")
        }
        let value: Value
        switch field.type {
        case .string, .text, .choice:
            guard let text = try optionalString(v.as.string, "\(at()): default") else { return nil }
            value = .string(text)
        case .bool: value = .bool(v.as.boolean)
        case .integer: value = .integer(v.as.integer)
        case .number, .date:
            guard v.as.number.isFinite else { throw DescriptorProblem("\(at()): the default must be a finite number") }
            value = .number(v.as.number)
        case .stringList, .choiceList:
            let list = v.as.list
            var items: [String] = []
            if list.count > 0 {
                guard let base = list.items, list.count <= 10_000 else {
                    throw DescriptorProblem("\(at()): the default list has \(list.count) items but no items pointer")
                }
                for i in 0..<list.count { items.append(try requiredString(base[i], "\(at()): default item \(i)")) }
            }
            value = .stringList(items)
        }
        if let problem = SchemaValidator.problem(with: value, for: field, model: [:]) {
            throw DescriptorProblem("\(at()): the default \(problem)")
        }
        return value
    }

    // MARK: helpers

    func array<T>(
        _ base: UnsafeRawPointer, count: Int, minimum: Int, what: @autoclosure () -> String,
        _ read: (UnsafeRawPointer, Int) throws(DescriptorProblem) -> T
    ) throws(DescriptorProblem) -> [T] {
        let stride = Int(base.loadUnaligned(as: UInt32.self))
        try checkSize(stride, minimum: minimum, of: "\(what())[0]")
        guard stride <= DescriptorReader.maximumStride else {
            throw DescriptorProblem(
                "\(what())[0].struct_size is \(stride), larger than the \(DescriptorReader.maximumStride) bytes this host accepts for an array element; set it to sizeof and rebuild against formwork.h"
            )
        }
        var out: [T] = []
        for i in 0..<count {
            let element = base + i * stride
            let size = Int(element.loadUnaligned(as: UInt32.self))
            guard size == stride else {
                throw DescriptorProblem(
                    "\(what())[\(i)].struct_size is \(size) but element 0 says \(stride); every element of an array must have the same struct_size"
                )
            }
            out.append(try read(element, size))
        }
        return out
    }

    /// Fields documented "Must be 0": refused otherwise, so that a later minor can give them a meaning.
    func checkReserved(_ value: UInt32, _ what: @autoclosure () -> String) throws(DescriptorProblem) {
        guard value == 0 else {
            throw DescriptorProblem("\(what()) is \(value) but must be 0 (reserved for a later ABI version); zero-initialise the struct")
        }
    }

    func checkSize(_ size: Int, minimum: Int, of what: @autoclosure () -> String) throws(DescriptorProblem) {
        guard size >= minimum else {
            throw DescriptorProblem(
                "\(what()).struct_size is \(size), smaller than the \(minimum) bytes of ABI 1.0; set it to sizeof and rebuild against formwork.h"
            )
        }
    }

    func requiredString(_ pointer: UnsafePointer<CChar>?, _ what: @autoclosure () -> String) throws(DescriptorProblem) -> String {
        guard let text = try optionalString(pointer, what()) else {
            throw DescriptorProblem("\(what()) is NULL; it is required")
        }
        return text
    }

    func optionalString(_ pointer: UnsafePointer<CChar>?, _ what: @autoclosure () -> String) throws(DescriptorProblem) -> String? {
        do { return try DescriptorReader.string(pointer) } catch {
            switch error {
            case .tooLong: throw DescriptorProblem("\(what()) is not NUL-terminated within \(DescriptorReader.maxStringLength) bytes")
            case .invalidUTF8: throw DescriptorProblem("\(what()) is not valid UTF-8")
            }
        }
    }

    func checkIdentifier(_ id: String, what: @autoclosure () -> String) throws(DescriptorProblem) {
        guard Self.isReverseDNS(id) else {
            throw DescriptorProblem(
                "\(what()) '\(id)' is not in reverse-DNS form; use lowercase dot-separated labels such as 'com.example.rating'")
        }
    }

    /// `label(.label)+`, labels of lowercase letters, digits and hyphens, starting with a letter or digit.
    /// Whether `id` is a reverse-DNS identifier: two or more dot-separated labels of `a-z`, `0-9` and `-`, each
    /// 1–63 bytes, starting with a letter or digit and not ending with `-`, the first starting with a letter;
    /// 255 bytes at most. One pass over the bytes (splitting the string into labels of characters was a
    /// twentieth of reading a pack's descriptors).
    static func isReverseDNS(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { bytes -> Bool in
            guard bytes.count <= 255, let first = bytes.first, (0x61...0x7A).contains(first) else { return false }
            var labels = 1, length = 0, last: UInt8 = 0
            for byte in bytes {
                if byte == 0x2E {
                    guard length > 0, last != 0x2D else { return false }
                    labels += 1
                    length = 0
                    continue
                }
                let alnum = (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                guard alnum || (byte == 0x2D && length > 0) else { return false }
                length += 1
                guard length <= 63 else { return false }
                last = byte
            }
            return labels >= 2 && length > 0 && last != 0x2D
        }
    }

    /// The first value of `key` that an earlier element already had, nil when all differ (`String` equality, as a
    /// set's). A handful of names is compared pair by pair; hashing each was as costly as the rest of the check.
    static func firstRepeated<T>(_ elements: [T], _ key: (T) -> String) -> String? {
        if elements.count <= 16 {
            for i in elements.indices.dropFirst() {
                let name = key(elements[i])
                for j in 0..<i where key(elements[j]) == name { return name }
            }
            return nil
        }
        var seen: Set<String> = []
        for element in elements {
            let name = key(element)
            if !seen.insert(name).inserted { return name }
        }
        return nil
    }

    static func isFieldName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64 else { return false }
        let isAlpha: (UInt8) -> Bool = { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        return isAlpha(first) && name.utf8.allSatisfy { isAlpha($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }

}
