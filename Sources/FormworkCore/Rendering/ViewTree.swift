/// What cells drew, recorded from their canvas calls: the single input of every renderer.
public struct ViewTree: Sendable, Equatable {
    public var formID: String
    public var title: String?
    /// The form's description, shown under its title.
    public var description: String?
    public var sections: [SectionView]
    /// Pages (steps) over consecutive sections; empty for a one-page form.
    public var pages: [PageView] = []
    /// The language of the form's texts (`Form.language`, a BCP 47 tag): the renderers mark their output with it and
    /// write the host's own words (buttons, headings, "Page 2 of 3") in it when the host has its catalogue.
    public var language = "en"

    /// The host's catalogue for `language`, English when it has none.
    var messages: Messages { Messages.catalogue(for: language) ?? .english }

    public init(formID: String, title: String?, description: String? = nil, sections: [SectionView]) {
        self.formID = formID
        self.title = title
        self.description = description
        self.sections = sections
    }
}

extension FieldView {
    /// Drawn by text, ANSI and the terminal form: visible, and not a hidden field.
    public var isDrawn: Bool { visible && !conditions.hidden }

    /// The texts a form posts for the field's value, as its value control would (a hidden field's hidden inputs).
    public var submittedTexts: [String] {
        guard let value = valueField else { return [] }
        func texts(_ node: ViewNode) -> [String]? {
            switch node {
            case .group(_, _, let children):
                for child in children { if let found = texts(child) { return found } }
                return nil
            case .textInput(let c, let text, _) where c.field == value: return text.map { [$0] } ?? []
            case .toggle(let c, let isOn) where c.field == value: return isOn ? ["true"] : []
            case .choice(let c, _, let selected, _) where c.field == value: return selected.map { [$0] } ?? []
            case .number(let c, let v, _, _, _, _) where c.field == value: return v.map { [NumberText.format($0)] } ?? []
            case .date(let c, let seconds, _) where c.field == value: return seconds.map { [DateFormat.iso8601($0)] } ?? []
            case .multiChoice(let c, _, let selected, _) where c.field == value: return selected
            default: return nil
            }
        }
        for node in nodes { if let found = texts(node) { return found } }
        return []
    }
}

extension ViewTree {
    /// The pages shown for the values rendered: those with a visible section (a page whose sections are all
    /// hidden is skipped, and pages are counted among those shown).
    public var shownPages: [Int] { pages.indices.filter { pages[$0].sections.contains { sections[$0].visible } } }
}

/// A page of the form: its title and the range of `ViewTree.sections` it holds.
public struct PageView: Sendable, Equatable {
    public var id: String
    public var title: String?
    public var sections: Range<Int>

    public init(id: String, title: String?, sections: Range<Int>) {
        self.id = id
        self.title = title
        self.sections = sections
    }
}

/// Padding around a section, in CSS pixels.
public struct EdgeInsets: Sendable, Equatable {
    public var top: Double, left: Double, bottom: Double, right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

public struct SectionView: Sendable, Equatable {
    public var id: String
    public var header: String?
    public var footer: String?
    public var insets: EdgeInsets?
    public var spacing: Double?
    public var fields: [FieldView]
    /// Whether the section's `visibleIf` holds for the values rendered.
    public var visible = true
    /// The section's conditions, for renderers that re-evaluate them live (HTML) or carry them (JSON).
    public var conditions = FieldConditions()
    /// A repeatable group: `fields` holds its items, item after item (`FieldView.item`); `spare` is one more,
    /// empty item (HTML clones it for "Add", and shows it, optional, without JavaScript).
    public var repeatGroup: RepeatGroup?
    public var spare: [FieldView] = []
    /// `object: address`: the key the section's values nest under (its fields' ids are `address.city`).
    public var object: String?

    public init(id: String, header: String?, footer: String?, insets: EdgeInsets? = nil, spacing: Double? = nil, fields: [FieldView]) {
        self.id = id
        self.header = header
        self.footer = footer
        self.insets = insets
        self.spacing = spacing
        self.fields = fields
    }
}

/// A field's view: what its cell drew and what renderers need to lay it out. A value type whose properties live
/// in one shared, copy-on-write box (as `FormField`'s do): a copy — a view returned, stored into its section's
/// array, read out of it — is one retain, not one per property (about forty atomic operations a field, made
/// twice for every field a render finishes).
public struct FieldView: Sendable, Equatable {
    /// The properties; mutated only when this view is its only owner (`unique`).
    // The words first, the bytes last: a class's stored properties are laid out in this order, and each Bool
    // between two words took a word of its own (96 bytes an object, 80 now).
    final class Storage: @unchecked Sendable {
        var id: String
        /// The cell type's id, text input and value field: one box for every view of a cell type whose field
        /// keeps its cell type's (`CellType.viewCommon`), copied on a view's first write to one of them.
        var common: ViewCommon
        var nodes: [ViewNode]
        var rules: FieldRules
        /// What most views leave empty, in a box made on the first write (nil: all empty), as `FormField` keeps its
        /// own: a large form's views are of plain fields.
        var extras: Extras?
        var maxLength: Int?
        var choiceKind: ConditionType?
        var required: Bool
        var visible: Bool = true
        var enabled: Bool = true

        init(id: String, common: ViewCommon, required: Bool, nodes: [ViewNode], maxLength: Int?, rules: FieldRules) {
            self.id = id
            self.common = common
            self.required = required
            self.nodes = nodes
            self.maxLength = maxLength
            self.rules = rules
        }

        init(copying other: Storage) {
            id = other.id
            common = other.common  // shared until either view writes one of its properties (`uniqueCommon`)
            required = other.required
            nodes = other.nodes
            maxLength = other.maxLength
            choiceKind = other.choiceKind
            rules = other.rules
            visible = other.visible
            enabled = other.enabled
            extras = other.extras  // shared until either view writes one of them (`uniqueExtras`)
        }
    }

    /// A view's bounds, conditions, rules across fields and item: mutated only when its storage is its only owner.
    final class Extras: ExtrasBox, @unchecked Sendable {
        var minimum: Double?
        var maximum: Double?
        var conditions = FieldConditions()
        var crossRules: [CrossFieldRule] = []
        var item: ItemPosition?
        /// The accessibility id where it is not the view's id.
        var accessibilityId: String?

        init() {}

        init(copying other: Extras) {
            minimum = other.minimum
            maximum = other.maximum
            conditions = other.conditions
            crossRules = other.crossRules
            item = other.item
            accessibilityId = other.accessibilityId
        }
    }

    private var storage: Storage

    /// The box, copied first when another view shares it.
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

    /// The common properties' box, copied first when another view or the cell type shares it.
    private var uniqueCommon: ViewCommon {
        mutating get {
            let box = unique
            if !isKnownUniquelyReferenced(&box.common) {
                box.common = ViewCommon(cell: box.common.cell, textInput: box.common.textInput, valueField: box.common.valueField)
            }
            return box.common
        }
    }

    public var id: String {
        get { storage.id }
        set {
            // The accessibility id stays what it was: one that was the old id becomes the view's own.
            let accessibilityId = self.accessibilityId
            unique.id = newValue
            self.accessibilityId = accessibilityId
        }
    }
    public var cell: String {
        get { storage.common.cell }
        _modify {
            let box = uniqueCommon
            yield &box.cell
        }
    }
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
    public var textInput: TextInputConfiguration {
        get { storage.common.textInput }
        _modify {
            let box = uniqueCommon
            yield &box.textInput
        }
    }
    public var nodes: [ViewNode] {
        get { storage.nodes }
        _modify {
            let box = unique
            yield &box.nodes
        }
    }
    /// Bounds of the value (a date picker's earliest / latest date), for renderers.
    public var minimum: Double? {
        get { storage.extras?.minimum }
        _modify {
            let box = uniqueExtras
            yield &box.minimum
        }
    }
    public var maximum: Double? {
        get { storage.extras?.maximum }
        _modify {
            let box = uniqueExtras
            yield &box.maximum
        }
    }
    /// The kind of value conditions read from this field's choices (`FormField.typedChoiceKind`): the page's
    /// script reads the chosen value as a number or true/false, as `validate` does.
    public var choiceKind: ConditionType? {
        get { storage.choiceKind }
        _modify {
            let box = unique
            yield &box.choiceKind
        }
    }
    /// Most characters of the value, when its schema limits it.
    public var maxLength: Int? {
        get { storage.maxLength }
        _modify {
            let box = unique
            yield &box.maxLength
        }
    }
    /// The model field that holds the field's value (its role), if any.
    public var valueField: String? {
        get { storage.common.valueField }
        _modify {
            let box = uniqueCommon
            yield &box.valueField
        }
    }
    /// The document's validation rules for the value (HTML constraint attributes, the JSON tree).
    public var rules: FieldRules {
        get { storage.rules }
        _modify {
            let box = unique
            yield &box.rules
        }
    }
    /// The field's state for the values rendered (its conditions and its section's).
    public var visible: Bool {
        get { storage.visible }
        _modify {
            let box = unique
            yield &box.visible
        }
    }
    public var enabled: Bool {
        get { storage.enabled }
        _modify {
            let box = unique
            yield &box.enabled
        }
    }
    /// The field's conditions and rules across fields, for HTML's live script and the JSON tree.
    public var conditions: FieldConditions {
        get { storage.extras?.conditions ?? FieldConditions() }
        _modify {
            let box = uniqueExtras
            yield &box.conditions
        }
    }
    public var crossRules: [CrossFieldRule] {
        get { storage.extras?.crossRules ?? [] }
        _modify {
            let box = uniqueExtras
            yield &box.crossRules
        }
    }
    /// The item of a repeatable group the field belongs to.
    public var item: ItemPosition? {
        get { storage.extras?.item }
        _modify {
            let box = uniqueExtras
            yield &box.item
        }
    }

    public init(
        id: String, cell: String, accessibilityId: String, required: Bool, textInput: TextInputConfiguration,
        nodes: [ViewNode], minimum: Double? = nil, maximum: Double? = nil, maxLength: Int? = nil,
        valueField: String? = nil, rules: FieldRules = FieldRules()
    ) {
        self.init(
            id: id, common: ViewCommon(cell: cell, textInput: textInput, valueField: valueField), accessibilityId: accessibilityId,
            required: required, nodes: nodes, minimum: minimum, maximum: maximum, maxLength: maxLength, rules: rules)
    }

    /// A view whose cell type's id, text input and value field are `common`'s (a cell type's `viewCommon`, shared).
    init(
        id: String, common: ViewCommon, accessibilityId: String, required: Bool, nodes: [ViewNode], minimum: Double? = nil,
        maximum: Double? = nil, maxLength: Int? = nil, rules: FieldRules = FieldRules()
    ) {
        storage = Storage(id: id, common: common, required: required, nodes: nodes, maxLength: maxLength, rules: rules)
        if accessibilityId != id { self.accessibilityId = accessibilityId }
        if minimum != nil || maximum != nil {
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// Equal when every property is (two views that share a box are).
    public static func == (a: FieldView, b: FieldView) -> Bool {
        if a.storage === b.storage { return true }
        let x = a.storage, y = b.storage
        return x.id == y.id
            && a.cell == b.cell
            && a.accessibilityId == b.accessibilityId
            && x.required == y.required
            && a.textInput == b.textInput
            && x.nodes == y.nodes
            && a.minimum == b.minimum
            && a.maximum == b.maximum
            && x.maxLength == y.maxLength
            && a.valueField == b.valueField
            && x.rules == y.rules
            && x.visible == y.visible
            && x.enabled == y.enabled
            && a.conditions == b.conditions
            && a.crossRules == b.crossRules
            && a.item == b.item
    }
}

/// `FW_LABEL_*`
public enum LabelStyle: String, Sendable, CaseIterable, ABIEnum {
    case body, title, caption, emphasis

    public var abiValue: UInt32 {
        switch self {
        case .body: 0
        case .title: 1
        case .caption: 2
        case .emphasis: 3
        }
    }
}

/// `FW_BUTTON_*`
public enum ButtonRole: String, Sendable, CaseIterable, ABIEnum {
    case `default`, primary, cancel, destructive

    public var abiValue: UInt32 {
        switch self {
        case .default: 0
        case .primary: 1
        case .cancel: 2
        case .destructive: 3
        }
    }
}

/// `FW_CHOICE_*`
public enum ChoiceStyle: String, Sendable, CaseIterable, ABIEnum {
    case menu, segments

    public var abiValue: UInt32 {
        switch self {
        case .menu: 0
        case .segments: 1
        }
    }
}

/// `FW_MESSAGE_*`
public enum MessageKind: String, Sendable, CaseIterable, ABIEnum {
    case hint, error, warning

    public var abiValue: UInt32 {
        switch self {
        case .hint: 0
        case .error: 1
        case .warning: 2
        }
    }
}

/// `FW_NUMBER_*` (ABI 1.1): how a number is edited.
public enum NumberStyle: String, Sendable, CaseIterable, ABIEnum {
    case field, stepper, slider

    public var abiValue: UInt32 {
        switch self {
        case .field: 0
        case .stepper: 1
        case .slider: 2
        }
    }
}

/// `FW_MULTI_CHOICE_*` (ABI 1.1): how several choices are shown.
public enum MultiChoiceStyle: String, Sendable, CaseIterable, ABIEnum {
    case checkboxes, list

    public var abiValue: UInt32 {
        switch self {
        case .checkboxes: 0
        case .list: 1
        }
    }
}

/// A control bound to a model field.
public struct Control: Sendable, Equatable {
    /// The model field it edits (nil for none).
    public var field: String?
    /// Unique id in the rendered form: the field's accessibility id, suffixed with
    /// `-<model field>` for controls other than the value control.
    public var id: String
    public var label: String?
    public var disabled: Bool
    public var required: Bool
    public var multiline: Bool

    public init(field: String?, id: String, label: String?, disabled: Bool = false, required: Bool = false, multiline: Bool = false) {
        self.field = field
        self.id = id
        self.label = label
        self.disabled = disabled
        self.required = required
        self.multiline = multiline
    }
}

public enum ViewNode: Sendable, Equatable {
    case group(role: String, title: String?, children: [ViewNode])
    case label(text: String, style: LabelStyle)
    case value(label: String, text: String)
    case textInput(Control, text: String?, placeholder: String?)
    case toggle(Control, isOn: Bool)
    case button(Control, role: ButtonRole)
    case choice(Control, choices: [Choice], selected: String?, style: ChoiceStyle)
    case date(Control, seconds: Double?, mode: DatePickerMode)
    case message(kind: MessageKind, text: String)
    /// ABI 1.1: a number input; absent bounds and step are nil. Boxed (`indirect`): its four optional doubles made
    /// every view node larger, for the few nodes that are numbers.
    indirect case number(Control, value: Double?, minimum: Double?, maximum: Double?, step: Double?, style: NumberStyle)
    /// ABI 1.1: several choices at once; `selected` holds choice values.
    case multiChoice(Control, choices: [Choice], selected: [String], style: MultiChoiceStyle)
}
