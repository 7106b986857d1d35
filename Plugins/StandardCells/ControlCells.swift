import FormworkPluginKit

/// An on/off switch.
final class ToggleCell: Cell, SelectableCell {
    struct Model: CellModel {
        static let fields: [Field] = [
            Common.title(), .bool("value", label: "On", doc: "Whether the switch is on.", default: false),
            Common.hint, Common.enabled,
        ]
        var value: Bool
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            value = v.bool("value") ?? false
        }
    }

    static let identifier = "org.formwork.toggle"
    static let displayName = "Toggle"
    static let summary: String? = "An on/off switch with a title."

    private var model = Model(ModelValues([:]))
    private(set) var selected = false
    init() {}
    func configure(model: Model) throws { self.model = model }
    func setSelected(_ selected: Bool) {
        // Selecting a toggle row flips it, as in the Fields demo.
        if selected && model.basics.enabled { model.value.toggle() }
        self.selected = selected
    }
    func render(into canvas: Canvas) {
        canvas.toggle(field: "value", label: model.basics.title, isOn: model.value, flags: model.basics.flags())
        model.basics.renderMessages(into: canvas)
    }
}

/// A button with a role.
final class ButtonCell: Cell, SelectableCell, HighlightableCell {
    struct Model: CellModel {
        static let fields: [Field] = [
            Common.title(),
            .choice(
                "role", label: "Role", doc: "What the button does, which decides its look.",
                choices: [("default", "Default"), ("primary", "Primary"), ("cancel", "Cancel"), ("destructive", "Destructive")],
                default: "default"),
            .string("action", label: "Action", doc: "Name of the action reported when pressed.", maxLength: 100),
            Common.enabled,
        ]
        var role: Canvas.ButtonRole
        var action: String?
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            role =
                switch v.string("role") {
                case "primary": .primary
                case "cancel": .cancel
                case "destructive": .destructive
                default: .default
                }
            action = v.string("action")
        }
    }

    static let identifier = "org.formwork.button"
    static let displayName = "Button"
    static let summary: String? = "A button: submit, cancel, or a destructive action."

    private var model = Model(ModelValues([:]))
    private(set) var highlighted = false
    private(set) var pressed = 0
    init() {}
    func configure(model: Model) throws { self.model = model }
    func setSelected(_ selected: Bool) { if selected && model.basics.enabled { pressed += 1 } }
    func setHighlighted(_ highlighted: Bool) { self.highlighted = highlighted }
    func render(into canvas: Canvas) {
        canvas.button(field: model.action, title: model.basics.title, role: model.role, flags: model.basics.flags())
    }
}

/// A date (and time) input with bounds.
final class DatePickerCell: Cell {
    struct Model: CellModel {
        static let fields: [Field] = [
            Common.title(),
            .date("value", label: "Date", doc: "The chosen date."),
            .date("minimum", label: "Earliest", doc: "Earliest date that can be chosen."),
            .date("maximum", label: "Latest", doc: "Latest date that can be chosen."),
            .choice(
                "mode", label: "Mode", doc: "What is picked.",
                choices: [("date", "Date"), ("time", "Time"), ("dateAndTime", "Date and time"), ("countdown", "Countdown")],
                default: "date"),
            Common.hint, Common.error, Common.enabled, Common.required,
        ]
        var value: Double?
        var minimum: Double?
        var maximum: Double?
        var mode: TextTraits.DateMode
        var basics: Basics
        init(_ v: ModelValues) throws {
            basics = Basics(v)
            value = v.date("value")
            minimum = v.date("minimum")
            maximum = v.date("maximum")
            mode =
                switch v.string("mode") {
                case "time": .time
                case "dateAndTime": .dateAndTime
                case "countdown": .countdown
                default: .date
                }
            if let minimum, let maximum, minimum > maximum {
                throw CellError("date picker '\(basics.title)': minimum is after maximum")
            }
        }
    }

    static let identifier = "org.formwork.date-picker"
    static let displayName = "Date picker"
    static let summary: String? = "A date, time or date-and-time input with optional earliest and latest dates."
    static let textInput = TextInput.datePicker("value", TextTraits(dateMode: .date, minimumField: "minimum", maximumField: "maximum"))

    private var model: Model? = nil
    init() {}
    func configure(model: Model) throws { self.model = model }
    func render(into canvas: Canvas) {
        guard let model else { return }
        canvas.date(
            field: "value", label: model.basics.title, seconds: model.value, mode: model.mode,
            flags: model.basics.flags())
        model.basics.renderMessages(into: canvas)
    }
}

/// Pick one of several rows.
final class PickerCell: Cell {
    struct Model: CellModel {
        static let fields: [Field] = [
            Common.title(),
            .string("value", label: "Value", doc: "The chosen row; one of choices.", options: "choices"),
            .stringList("choices", label: "Choices", doc: "The rows to pick from.", required: true, minItems: 1, maxItems: 1000),
            .string("placeholder", label: "Placeholder", doc: "Shown while nothing is chosen.", maxLength: 200),
            Common.hint, Common.error, Common.enabled, Common.required,
        ]
        var value: String?
        var choices: [String]
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            value = v.string("value")
            choices = v.stringList("choices") ?? []
        }
    }

    static let identifier = "org.formwork.picker"
    static let displayName = "Picker"
    static let summary: String? = "Pick one row from a list, such as a country or a plan."
    static let textInput = TextInput.picker("value")

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }
    func render(into canvas: Canvas) {
        canvas.choice(
            field: "value", label: model.basics.title, values: model.choices, selected: model.value,
            style: .menu, flags: model.basics.flags())
        model.basics.renderMessages(into: canvas)
    }
}

/// A segmented control.
final class SegmentsCell: Cell, SelectableCell {
    struct Model: CellModel {
        static let fields: [Field] = [
            Common.title(required: false),
            .string("value", label: "Value", doc: "The chosen segment; one of choices.", options: "choices"),
            .stringList("choices", label: "Segments", doc: "The segments, two to six.", required: true, minItems: 2, maxItems: 6),
            Common.hint, Common.enabled,
        ]
        var title: String?
        var value: String?
        var choices: [String]
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            title = v.string("title")
            value = v.string("value")
            choices = v.stringList("choices") ?? []
        }
    }

    static let identifier = "org.formwork.segments"
    static let displayName = "Segments"
    static let summary: String? = "A segmented control: one of two to six short options, all visible."

    private var model = Model(ModelValues([:]))
    private(set) var selected = false
    init() {}
    func configure(model: Model) throws { self.model = model }
    func setSelected(_ selected: Bool) { self.selected = selected }
    func render(into canvas: Canvas) {
        canvas.choice(
            field: "value", label: model.title, values: model.choices,
            selected: model.value, style: .segments,
            flags: model.basics.flags())
        model.basics.renderMessages(into: canvas)
    }
}
