/// A validated form: every field bound to a registered cell type, every model
/// value typed and checked against its schema.
public struct Form: Sendable {
    public var id: String
    public var title: String?
    /// Shown under the title in every renderer.
    public var description: String?
    public var sections: [FormSection]
    /// Field ids in an order where every field comes after the fields its conditions read
    /// (set by the decoder, which refuses cycles); empty when no field has a condition.
    public var evaluationOrder: [String] = []
    /// Pages (steps) grouping consecutive sections; empty for a one-page form.
    public var pages: [FormPage] = []
    /// The language its texts are in (`language:`, a BCP 47 tag; `en` when not given): after `translated(to:)`, the
    /// language translated to. Renderers mark their output with it and write the host's words in it.
    public var language = "en"
    /// `translations:`: for each other language, the document's texts and their translations (Translations.swift).
    public var translations: [String: [String: String]] = [:]
    /// `translations: { fr: feedback.fr.yaml }`: the files `FormDecoder.load` reads the tables from, by language.
    package var translationFiles: [String: String] = [:]

    /// The translation files of the document read from `documentPath`, where they are (a server watches them too).
    package func translationFilePaths(documentPath: String) -> [String] {
        translationFiles.values.sorted().map { SourceFile.besides(documentPath, $0) }
    }

    public var fields: [FormField] { sections.flatMap(\.fields) }
    /// The keys of the objects values nest in, as field ids name them: each section's `object` and every object it
    /// is inside (`billing` and `billing.address` for `object: billing.address`).
    package var objectPaths: Set<String> {
        var out: Set<String> = []
        for case let object? in sections.map(\.object) {
            var path = Substring(object)
            out.insert(object)
            while let dot = path.lastIndex(of: ".") {
                path = path[..<dot]
                out.insert(String(path))
            }
        }
        return out
    }

    /// How many fields the form has (without copying them, as `fields` does).
    public var fieldCount: Int { sections.reduce(0) { $0 + $1.fields.count } }

    public init(id: String, title: String? = nil, description: String? = nil, sections: [FormSection]) {
        self.id = id
        self.title = title
        self.description = description
        self.sections = sections
    }
}

/// A page (step) of a form: consecutive sections of `Form.sections`.
public struct FormPage: Sendable, Equatable {
    public var id: String
    public var title: String?
    public var firstSection: Int
    public var sectionCount: Int

    public init(id: String, title: String?, firstSection: Int, sectionCount: Int) {
        self.id = id
        self.title = title
        self.firstSection = firstSection
        self.sectionCount = sectionCount
    }

    public var sections: Range<Int> { firstSection..<(firstSection + sectionCount) }
}

public struct FormSection: Sendable {
    public var id: String
    public var header: String?
    public var footer: String?
    public var insets: EdgeInsets?
    public var spacing: Double?
    public var fields: [FormField]
    /// `visibleIf` and `enabledIf` of the section (they apply to each of its fields).
    public var conditions = FieldConditions()
    /// Set when the section is a repeatable group: `fields` then holds its items' fields, item after item,
    /// each a copy of `template` (see `FormField.item`).
    public var repeatGroup: RepeatGroup?
    public var template: [FormField] = []
    /// `object: address`: the section's values nest under `address` in a values file (`{"address": {"city": …}}`),
    /// and its fields' ids are `address.city` (pointers `/address/city`). Several sections may share an object.
    public var object: String?

    public init(
        id: String, header: String? = nil, footer: String? = nil, insets: EdgeInsets? = nil, spacing: Double? = nil,
        fields: [FormField]
    ) {
        self.id = id
        self.header = header
        self.footer = footer
        self.insets = insets
        self.spacing = spacing
        self.fields = fields
    }
}

/// A field of a form. A value type whose properties live in one shared, copy-on-write box: a copy
/// (a field passed along, read out of an array) is one retain, not one per property (a dozen).
public struct FormField: Sendable {
    /// The properties; mutated only when this field is its only owner (`storage` below). The cell type is the model's
    /// (`model.cell`), and the text-input configuration, accessibility id and value field are kept only where they
    /// are not what the cell type and the id say (`Extras`): a large form's fields are plain ones.
    final class Storage: @unchecked Sendable {
        var id: String
        var model: FieldModel
        var required: Bool
        var location: FieldLocation
        /// What most fields leave empty, in a box made on the first write (nil: all empty). A field of a large form
        /// is a plain field, which held them inline for nothing (docs/performance.md has the figures).
        var extras: Extras?

        init(id: String, model: FieldModel, required: Bool, location: FieldLocation) {
            self.id = id
            self.model = model
            self.required = required
            self.location = location
        }

        init(copying other: Storage) {
            id = other.id
            model = other.model
            required = other.required
            location = other.location
            extras = other.extras  // shared until either field writes one of them (`uniqueExtras`)
        }
    }

    /// A field's rules, conditions, repeated-group place and choices, and what it does not take from its cell type
    /// and id: mutated only when its storage is its only owner.
    final class Extras: ExtrasBox, @unchecked Sendable {
        var rules = FieldRules()
        var conditions = FieldConditions()
        var crossRules: [CrossFieldRule] = []
        var item: ItemPosition?
        var labelledChoices: [String: LabelledChoice] = [:]
        var choicesFrom: ChoicesSource?
        /// Nil: the cell type's.
        var textInput: TextInputConfiguration?
        /// Nil: the field's id.
        var accessibilityId: String?
        /// Nil: the cell type's value role; `.some(nil)`: none.
        var valueField: String??
        /// What a values file gave (see `FormField.valuesFromFile`): only a filled form's fields have any, and a
        /// storage object of 96 bytes is a 112-byte block where 112 was a 128-byte one.
        var valuesFromFile: Set<String> = []
        var documentModel: [String: Value?] = [:]

        init() {}

        init(copying other: Extras) {
            rules = other.rules
            conditions = other.conditions
            crossRules = other.crossRules
            item = other.item
            labelledChoices = other.labelledChoices
            choicesFrom = other.choicesFrom
            textInput = other.textInput
            accessibilityId = other.accessibilityId
            valueField = other.valueField
            valuesFromFile = other.valuesFromFile
            documentModel = other.documentModel
        }
    }

    /// Read in the module's tests too: whether a field is freed is whether its box is.
    private(set) var storage: Storage

    /// The box, copied first when another field shares it.
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
            return storage
        }
    }

    /// The extras' box, made or copied first when it is absent or shared.
    private var uniqueExtras: Extras {
        mutating get { unique.extras.madeUnique() }
    }

    public var id: String {
        get { storage.id }
        set {
            // The accessibility id stays what it was: it follows the id only when it is set again.
            let accessibilityId = self.accessibilityId
            unique.id = newValue
            self.accessibilityId = accessibilityId
        }
    }
    /// The cell type (the model's): a new one keeps the model's values by name.
    public var cell: CellType {
        get { storage.model.cell }
        set {
            let model = storage.model
            unique.model = FieldModel(cell: newValue, model.dictionary)
        }
    }
    /// Model values (read and written by field name, stored in schema order), defaults filled in,
    /// the values file applied.
    public var model: FieldModel {
        get { storage.model }
        _modify {
            let box = unique
            yield &box.model
        }
    }
    /// The cell's text-input configuration with the document's overrides applied.
    public var textInput: TextInputConfiguration {
        get { storage.extras?.textInput ?? storage.model.cell.textInput }
        set {
            if newValue != storage.model.cell.textInput {
                uniqueExtras.textInput = newValue
            } else if storage.extras?.textInput != nil {
                uniqueExtras.textInput = nil
            }
        }
    }
    /// Its view's cell type id, text input and value field: its cell type's own box unless the field overrides one.
    var viewCommon: ViewCommon {
        let cell = storage.model.cell
        guard let extras = storage.extras, extras.textInput != nil || extras.valueField != nil else { return cell.viewCommon }
        return ViewCommon(cell: cell.id, textInput: textInput, valueField: valueField)
    }
    /// Stable id carried to every renderer (HTML `id`, JSON path, terminal label).
    public var accessibilityId: String {
        get { storage.extras?.accessibilityId ?? storage.id }
        set {
            if newValue != storage.id {
                uniqueExtras.accessibilityId = newValue
            } else if storage.extras?.accessibilityId != nil {
                uniqueExtras.accessibilityId = nil
            }
        }
    }
    public var required: Bool {
        get { storage.required }
        _modify {
            let box = unique
            yield &box.required
        }
    }
    /// The model field that holds the field's value (the text-input field, else `value`), if any.
    public var valueField: String? {
        get { storage.extras?.valueField ?? storage.model.cell.roles.value }
        set {
            if newValue != storage.model.cell.roles.value {
                uniqueExtras.valueField = .some(newValue)
            } else if storage.extras?.valueField != nil {
                uniqueExtras.valueField = nil
            }
        }
    }
    /// JSON pointer of the field in the document (made when asked for: a decoded field keeps its place,
    /// not the text).
    public var pointer: String {
        get { storage.location.pointer }
        set { unique.location = FieldLocation(newValue) }
    }
    /// Validation rules the document declares for the value.
    public var rules: FieldRules {
        get { storage.extras?.rules ?? FieldRules() }
        _modify {
            let box = uniqueExtras
            yield &box.rules
        }
    }
    /// `visibleIf`, `enabledIf`, `requiredIf`.
    public var conditions: FieldConditions {
        get { storage.extras?.conditions ?? FieldConditions() }
        _modify {
            let box = uniqueExtras
            yield &box.conditions
        }
    }
    /// Rules across fields (`rules.equals`, `rules.expression`).
    public var crossRules: [CrossFieldRule] {
        get { storage.extras?.crossRules ?? [] }
        _modify {
            let box = uniqueExtras
            yield &box.crossRules
        }
    }
    /// For a field of a repeatable group's item: the group (its section id), the item's index and the
    /// template field's id — the value's place in a values file, `{"tasks": [{"title": …}]}`.
    public var item: ItemPosition? {
        get { storage.extras?.item }
        _modify {
            let box = uniqueExtras
            yield &box.item
        }
    }
    /// The JSON pointer of the field's value in a values file: `/email`, or `/tasks/2/title`.
    public var valuePointer: String {
        if let item { return "/\(Pointer.escape(item.group))/\(item.index)/\(Pointer.escape(item.name))" }
        // A field of an object: `address.city` is `/address/city` (ids hold no '.' of their own).
        if id.utf8.contains(0x2E) { return "/" + id.split(separator: ".").map { Pointer.escape(String($0)) }.joined(separator: "/") }
        return "/" + Pointer.escape(id)
    }
    /// What kind of value conditions see for this field when its choices are written with typed values: a number
    /// when every choice's value is an integer, true/false when every one is a boolean; nil otherwise.
    public var typedChoiceKind: ConditionType? {
        let choices = labelledChoices
        guard !choices.isEmpty else { return nil }
        if choices.values.allSatisfy({ if case .integer = $0.json { true } else { false } }) { return .number }
        if choices.values.allSatisfy({ if case .bool = $0.json { true } else { false } }) { return .bool }
        return nil
    }

    /// `value` as conditions and cross-field rules read it: a choice written with a typed value is that value.
    public func conditionValue(_ value: Value) -> Value {
        guard case .string(let text) = value, let choice = labelledChoices[text] else { return value }
        switch choice.json {
        case .integer(let n): return .integer(n)
        case .bool(let b): return .bool(b)
        default: return value
        }
    }

    /// Choices the document wrote as `{ value, label }` (a picker's, segments' or multi-select's
    /// options), by the value's text: renderers show the label, values files hold the value
    /// with its JSON type (a string, an integer or a boolean).
    public var labelledChoices: [String: LabelledChoice] {
        get { storage.extras?.labelledChoices ?? [:] }
        _modify {
            let box = uniqueExtras
            yield &box.labelledChoices
        }
    }
    /// ABI 1.2: where the field's choices come from (`choicesFrom: PACK/SOURCE`), filled by `Form.resolveChoices`.
    public var choicesFrom: ChoicesSource? {
        get { storage.extras?.choicesFrom }
        _modify {
            let box = uniqueExtras
            yield &box.choicesFrom
        }
    }
    /// Model fields whose value came from a values file (they go through `value_changed`).
    var valuesFromFile: Set<String> {
        get { storage.extras?.valuesFromFile ?? [] }
        _modify {
            let box = uniqueExtras
            yield &box.valuesFromFile
        }
    }
    /// The document's values of those fields, before the values file replaced them.
    var documentModel: [String: Value?] {
        get { storage.extras?.documentModel ?? [:] }
        _modify {
            let box = uniqueExtras
            yield &box.documentModel
        }
    }

    /// A field of `cell`: its model is the schema defaults overlaid with `model`; its
    /// value field and required flag follow the cell's roles. The model is not checked here: decode a
    /// document, or apply values with `ValuesFile.apply`, for checked input.
    public init(
        id: String, cell: CellType, model: [String: Value] = [:], textInput: TextInputConfiguration? = nil,
        accessibilityId: String? = nil, required: Bool = false
    ) {
        var filled = FieldModel(defaultsOf: cell)
        for (name, value) in model { filled[name] = value }
        if required, let role = cell.roles.required, model[role] == nil { filled[role] = .bool(true) }
        self.init(
            id: id, cell: cell, model: filled, textInput: textInput ?? cell.textInput,
            accessibilityId: accessibilityId ?? id,
            required: required || (cell.roles.required.map { filled[$0] == .bool(true) } ?? false),
            valueField: cell.roles.value, location: FieldLocation(""))
    }

    init(
        id: String, cell: CellType, model: FieldModel, textInput: TextInputConfiguration, accessibilityId: String,
        required: Bool, valueField: String?, location: FieldLocation
    ) {
        // The model is the cell type's (a field's cell type is its model's).
        let model = model.cell === cell ? model : FieldModel(cell: cell, model.dictionary)
        storage = Storage(id: id, model: model, required: required, location: location)
        if textInput != cell.textInput { self.textInput = textInput }
        if accessibilityId != id { self.accessibilityId = accessibilityId }
        if valueField != cell.roles.value { self.valueField = valueField }
    }
}

/// Where a field stands in its document: its section's JSON pointer and its row. The field's own pointer
/// (`/sections/3/fields/17`) is made from them only when a diagnostic needs it, not for every field decoded.
struct FieldLocation: Sendable {
    /// The section's pointer (shared by its fields), or the whole pointer when `row` is negative.
    var section: String
    var row: Int

    init(section: String, row: Int) {
        self.section = section
        self.row = row
    }

    /// A pointer given whole.
    init(_ pointer: String) {
        section = pointer
        row = -1
    }

    var pointer: String { row < 0 ? section : "\(section)/fields/\(row)" }
}

extension FormSection {
    /// The fields of item `index`: copies of the template with ids `group/index/name` and their own accessibility ids.
    public func item(_ index: Int) -> [FormField] {
        template.map { t in
            var f = t
            f.id = "\(id)/\(index)/\(t.id)"
            f.accessibilityId = "\(id)-\(index)-\(t.accessibilityId)"
            f.item = ItemPosition(group: id, index: index, name: t.id)
            return f
        }
    }

    /// How many items the section holds now.
    public var itemCount: Int { repeatGroup == nil ? 0 : (template.isEmpty ? 0 : fields.count / template.count) }
}

/// A choice as a document wrote it: its value (a string, an integer or a boolean) and its label.
public struct LabelledChoice: Sendable, Equatable {
    /// The value as JSON (its type is kept for values files).
    package let json: JSON
    public let label: String
}

/// A problem found in a document or a values file.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The document or values are wrong (exit 65).
        case invalid
        /// A needed cell type is not installed (exit 69).
        case unavailable
    }

    public var kind: Kind
    public var file: String?
    /// JSON pointer of the offending node, e.g. `/sections/0/fields/2/model/title`.
    public var pointer: String
    public var line: Int?
    public var message: String
    /// Advice shared by several problems (where packs were searched, what to install), said once.
    public var hint: String?
    /// What kind of problem with values this is, for clients that branch on it (the web runtime's `code`):
    /// `required`, `unknown-field`, `not-submitted`, `type` or `invalid`; nil when the check that found it does not say.
    public var code: String?

    public init(kind: Kind, file: String?, pointer: String, line: Int?, message: String, hint: String? = nil, code: String? = nil) {
        self.kind = kind
        self.file = file
        self.pointer = pointer
        self.line = line
        self.message = message
        self.hint = hint
        self.code = code
    }

    /// `FILE:LINE: POINTER: MESSAGE`, the one-line form printed by the command.
    public var description: String {
        var location = file ?? "<document>"
        if let line { location += ":\(line)" }
        return "\(location): \(pointer.isEmpty ? "/" : pointer): \(message)"
    }
}

/// Why a document or values file could not be read at all, or is invalid.
public enum FormError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingFile(String)
    case notAFile(String)
    case unreadable(String, String)
    case tooLarge(String, Int)
    case parse(String, ParseError)
    case invalid([Diagnostic])

    public var description: String {
        switch self {
        case .missingFile(let path): "\(path): no such file"
        case .notAFile(let path): "\(path): is a directory, not a file; pass a form document (.json, .yaml)"
        case .unreadable(let path, let why): "\(path): cannot be read: \(why)"
        case .tooLarge(let path, let size): "\(path): \(size) bytes is larger than the \(InputLimits.maxBytes / 1024 / 1024) MiB limit"
        case .parse(let path, let error): "\(path):\(error.line.map { "\($0):" } ?? "") \(error.message)"
        case .invalid(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
        }
    }
}
