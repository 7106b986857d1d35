/// The ABI version a pack or host was built with.
public struct ABIVersion: Sendable, Equatable, Comparable, CustomStringConvertible {
    public let major: UInt32
    public let minor: UInt32
    public let patch: UInt32

    public init(major: UInt32, minor: UInt32, patch: UInt32) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (a: ABIVersion, b: ABIVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}

/// Capabilities a cell type declares. Raw values are formwork.h's `FW_CELL_*` bits
/// (a test compares them with the header).
public struct CellCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `FW_CELL_SELECTABLE`
    public static let selectable = CellCapabilities(rawValue: 1 << 0)
    /// `FW_CELL_HIGHLIGHTABLE`
    public static let highlightable = CellCapabilities(rawValue: 1 << 1)
    /// `FW_CELL_TYPED_CONFIGURE`
    public static let typedConfigure = CellCapabilities(rawValue: 1 << 2)
    /// `FW_CELL_THREAD_SAFE`
    public static let threadSafe = CellCapabilities(rawValue: 1 << 3)
    /// `FW_CELL_TYPED_PRESENCE` (ABI 1.2): the typed model ends with a presence bitmap.
    public static let typedPresence = CellCapabilities(rawValue: 1 << 4)

    /// Every bit the host knows (`typedPresence` only from a pack that claims 1.2).
    public static let known: CellCapabilities = [.selectable, .highlightable, .typedConfigure, .threadSafe, .typedPresence]

    /// Names as used in JSON output, in a stable order.
    public var names: [String] {
        var out: [String] = []
        if contains(.selectable) { out.append("selectable") }
        if contains(.highlightable) { out.append("highlightable") }
        if contains(.typedConfigure) { out.append("typedConfigure") }
        if contains(.threadSafe) { out.append("threadSafe") }
        if contains(.typedPresence) { out.append("typedPresence") }
        return out
    }
}

/// How the host passes a model to a cell.
public enum ConfigureStyle: Sendable, Equatable {
    /// Tagged values in schema order (`fw_cell_type.configure`).
    case generic
    /// A C struct laid out from the schema, called through libffi.
    case typed(convention: TypedConvention, size: Int, alignment: Int)

    public var name: String {
        if case .typed = self { return "typed" }
        return "generic"
    }
}

/// How a typed model crosses the ABI (`FW_TYPED_BY_VALUE`, `FW_TYPED_BY_POINTER`).
public enum TypedConvention: String, Sendable, Equatable { case byValue, byPointer }

/// A cell type's registration entry as plain Swift values: what the core needs to
/// decode, validate and render documents. Where the cell's code lives (a pack loaded
/// in this process, or a child process) is the `CellDriver`'s business.
public final class CellType: Sendable {
    public let id: String
    public let name: String
    public let summary: String?
    /// The model schema, in the order configure receives it.
    public let fields: [FieldSchema]
    public let textInput: TextInputConfiguration
    public let capabilities: CellCapabilities
    public let configure: ConfigureStyle
    /// Byte offset of each field in the typed model struct (empty for generic configure).
    public let modelOffsets: [Int]
    /// The model fields the host gives a meaning to (value, title, required, maximum length).
    public let roles: FieldRoles
    /// The pack that provides it.
    public let packID: String
    public let packPath: String
    public let packABI: ABIVersion

    public init(
        id: String, name: String, summary: String? = nil, fields: [FieldSchema],
        textInput: TextInputConfiguration = TextInputConfiguration(kind: .none, field: nil),
        capabilities: CellCapabilities = [], configure: ConfigureStyle = .generic, modelOffsets: [Int] = [],
        roles: FieldRoles? = nil, packID: String, packPath: String, packABI: ABIVersion
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.fields = fields
        self.fieldNames = fields.map(\.name)
        self.textInput = textInput
        self.capabilities = capabilities
        self.configure = configure
        self.modelOffsets = modelOffsets
        let roles = roles ?? FieldRoles(conventionsFor: fields, textInputField: textInput.field)
        self.roles = roles
        let names = self.fieldNames
        self.valueRoleField = roles.value.flatMap { value in names.firstIndex(of: value).map { fields[$0] } }
        self.maxLengthRoleIndex = roles.maxLength.flatMap { names.firstIndex(of: $0) }
        self.requiredRoleIndex = roles.required.flatMap { names.firstIndex(of: $0) }
        self.defaultModel = fields.map(\.defaultValue)
        self.defaultFits = fields.map { field in field.defaultValue.map { SchemaValidator.fits($0, field) } ?? false }
        self.packID = packID
        self.packPath = packPath
        self.packABI = packABI
        self.viewCommon = ViewCommon(cell: id, textInput: textInput, valueField: roles.value)
    }

    /// An equal cell type whose objects, arrays and strings are its own: a core that decodes fields with it
    /// retains and releases counts that no other core touches (`WorkerCatalog`). Two cores that took
    /// references to the same cell type's objects for every field moved those counts' cache lines between
    /// them at every field.
    func copy() -> CellType {
        func own(_ text: String?) -> String? { text?.withOwnStorage }
        return CellType(
            id: id.withOwnStorage, name: name.withOwnStorage, summary: own(summary), fields: fields.map { $0.copy() },
            textInput: textInput.copy(), capabilities: capabilities, configure: configure, modelOffsets: modelOffsets.map { $0 },
            roles: FieldRoles(
                value: own(roles.value), required: own(roles.required), title: own(roles.title), maxLength: own(roles.maxLength),
                placeholder: own(roles.placeholder)),
            packID: packID.withOwnStorage, packPath: packPath.withOwnStorage, packABI: packABI)
    }

    public func field(named name: String) -> FieldSchema? { index(of: name).map { fields[$0] } }

    /// Position of `name` in the schema (asked for every model key of every field: the names are
    /// compared from an array of their own, without touching each field's schema object).
    public func index(of name: String) -> Int? { fieldNames.firstIndex(of: name) }
    private let fieldNames: [String]
    /// The schema of the field the value role names, and the positions of the ones the maximum-length and
    /// required roles name, found once: decoding and rendering ask for them for every field (by name each was a
    /// search of the schema).
    let valueRoleField: FieldSchema?
    let maxLengthRoleIndex: Int?
    let requiredRoleIndex: Int?
    /// Each field's default (nil: none), in schema order: the model a document starts from.
    @usableFromInline let defaultModel: [Value?]
    /// For each field, whether its default fits its schema whatever else the model holds
    /// (`SchemaValidator.fits`): a field left at such a default needs no check when a document is decoded.
    let defaultFits: [Bool]
    /// Its id, text input and value role, in the box every view of a field that keeps them shares (never mutated:
    /// a view copies it before it writes one of them).
    let viewCommon: ViewCommon
}

/// A pack as the host sees it after loading and validation.
public struct Pack: Sendable {
    public let path: String
    public let id: String
    public let name: String
    public let version: String
    public let vendor: String?
    public let license: String?
    public let description: String?
    public let abi: ABIVersion
    public let cellTypes: [CellType]
    /// ABI 1.2, `org.formwork.choices/1`: the sources of choices the pack supplies (empty: none), and how long
    /// an answer may be reused for a render (0: not at all).
    public let choiceSources: [String]
    public let choicesCacheSeconds: UInt32

    public init(
        path: String, id: String, name: String, version: String, vendor: String? = nil, license: String? = nil,
        description: String? = nil, abi: ABIVersion, cellTypes: [CellType], choiceSources: [String] = [],
        choicesCacheSeconds: UInt32 = 0
    ) {
        self.choiceSources = choiceSources
        self.choicesCacheSeconds = choicesCacheSeconds
        self.path = path
        self.id = id
        self.name = name
        self.version = version
        self.vendor = vendor
        self.license = license
        self.description = description
        self.abi = abi
        self.cellTypes = cellTypes
    }
}

/// What the views of one cell type have in common: the cell type's id, its text input and the model field of its
/// value (`FieldView.cell`, `.textInput`, `.valueField`). One box a cell type makes once (`CellType.viewCommon`),
/// shared by every view of a field that does not override them (a large form's views, almost all), so a view holds
/// one reference where it held two strings and a text input (72 bytes of its storage). Mutated only through
/// `FieldView`'s `uniqueCommon`, when the view is its only owner (never the cell type's own). Here, with the cell
/// type, and not in Rendering: the schema does not depend on the views.
final class ViewCommon: @unchecked Sendable {
    var cell: String
    var textInput: TextInputConfiguration
    var valueField: String?

    init(cell: String, textInput: TextInputConfiguration, valueField: String?) {
        self.cell = cell
        self.textInput = textInput
        self.valueField = valueField
    }
}
