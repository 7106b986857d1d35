import FormworkPluginKit

/// What the number cells share: bounds, step, style, unit (ABI 1.1's `number` control).
struct NumberBasics {
    var minimum: Double?
    var maximum: Double?
    var step: Double?
    var style: Canvas.NumberStyle
    var unit: String?

    static let fields: [Field] = [
        .number("minimum", label: "Minimum", doc: "The smallest value allowed."),
        .number("maximum", label: "Maximum", doc: "The largest value allowed."),
        .number(
            "step", label: "Step", doc: "The increment between allowed values (a stepper's and a slider's step).",
            minimum: 0),
        .choice(
            "style", label: "Style", doc: "A field, a stepper (- value +) or a slider.",
            choices: [("field", "Field"), ("stepper", "Stepper"), ("slider", "Slider")], default: "field"),
        .string("unit", label: "Unit", doc: "Shown after the value, e.g. \"kg\" or \"€\".", maxLength: 20),
    ]

    init(_ v: ModelValues) {
        minimum = v.number("minimum")
        maximum = v.number("maximum")
        step = v.number("step").flatMap { $0 > 0 ? $0 : nil }
        style =
            switch v.string("style") {
            case "stepper": .stepper
            case "slider": .slider
            default: .field
            }
        unit = v.string("unit")
    }

    /// Why `value` is not allowed, or nil.
    func problem(_ value: Double) -> String? {
        if let minimum, value < minimum { return "choose \(Self.format(minimum)) or more" }
        if let maximum, value > maximum { return "choose \(Self.format(maximum)) or less" }
        if let step, let base = minimum ?? Optional(0), ((value - base) / step).rounded() * step + base != value,
            abs(((value - base) / step).rounded() * step + base - value) > 1e-9 * max(1, abs(value))
        {
            return "choose a multiple of \(Self.format(step))" + (base != 0 ? " from \(Self.format(base))" : "")
        }
        return nil
    }

    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    func render(into canvas: Canvas, value: Double?, basics: Basics) {
        let label = unit.map { "\(basics.title) (\($0))" } ?? basics.title
        if canvas.hasNumberAndMultiChoice {
            canvas.number(
                field: "value", label: label, value: value, minimum: minimum, maximum: maximum, step: step,
                style: style, flags: basics.flags())
        } else {
            // A 1.0 host has no number control: a text input keeps the cell usable.
            canvas.textInput(field: "value", label: label, text: value.map(Self.format), placeholder: nil, flags: basics.flags())
        }
        if let value, let problem = problem(value) {
            canvas.message(problem.prefix(1).uppercased() + problem.dropFirst() + ".", kind: .error)
        }
        basics.renderMessages(into: canvas)
    }
}

/// A decimal number: a field, a stepper or a slider, with bounds, a step and a unit.
final class NumberCell: Cell, ValueObservingCell {
    struct Model: CellModel {
        static let fields: [Field] =
            [Common.title(), .number("value", label: "Value", doc: "The number.")]
            + NumberBasics.fields + [Common.hint, Common.error, Common.enabled, Common.required]
        var value: Double?
        var number: NumberBasics
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            number = NumberBasics(v)
            value = v.number("value")
        }
    }

    static let identifier = "org.formwork.number"
    static let displayName = "Number"
    static let summary: String? = "A decimal number: a field, a stepper or a slider, with bounds, a step and a unit."
    static let roles = FieldRoles(value: "value", title: "title", required: "required", maxLength: "", placeholder: "")

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }
    func valueChanged(field: String, to value: ModelValue?) -> ValueChange {
        guard field == "value", case .number(let d)? = value else { return .accept }
        return model.number.problem(d).map(ValueChange.reject) ?? .accept
    }
    func render(into canvas: Canvas) { model.number.render(into: canvas, value: model.value, basics: model.basics) }
}

/// A whole number (a quantity, an age): the same control, integer values.
final class IntegerCell: Cell, ValueObservingCell {
    struct Model: CellModel {
        static let fields: [Field] =
            [Common.title(), .integer("value", label: "Value", doc: "The whole number.")]
            + NumberBasics.fields + [Common.hint, Common.error, Common.enabled, Common.required]
        var value: Int64?
        var number: NumberBasics
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            number = NumberBasics(v)
            if number.step == nil { number.step = 1 }
            value = v.integer("value")
        }
    }

    static let identifier = "org.formwork.integer"
    static let displayName = "Integer"
    static let summary: String? = "A whole number such as a quantity: a field, a stepper or a slider."
    static let roles = FieldRoles(value: "value", title: "title", required: "required", maxLength: "", placeholder: "")

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }
    func valueChanged(field: String, to value: ModelValue?) -> ValueChange {
        guard field == "value", case .integer(let n)? = value else { return .accept }
        return model.number.problem(Double(n)).map(ValueChange.reject) ?? .accept
    }
    func render(into canvas: Canvas) { model.number.render(into: canvas, value: model.value.map(Double.init), basics: model.basics) }
}

/// Several choices at once: checkboxes or a list (ABI 1.1's `multi_choice` control).
final class MultiSelectCell: Cell {
    struct Model: CellModel {
        static let fields: [Field] = [
            Common.title(),
            .stringList("value", label: "Selected", doc: "The chosen options; each one of options.", options: "options"),
            .stringList("options", label: "Options", doc: "What can be chosen.", required: true, minItems: 1, maxItems: 1000),
            .choice(
                "style", label: "Style", doc: "Checkboxes, or a list allowing several selections.",
                choices: [("checkboxes", "Checkboxes"), ("list", "List")], default: "checkboxes"),
            Common.hint, Common.error, Common.enabled, Common.required,
        ]
        var value: [String]
        var options: [String]
        var style: Canvas.MultiChoiceStyle
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            value = v.stringList("value") ?? []
            options = v.stringList("options") ?? []
            style = v.string("style") == "list" ? .list : .checkboxes
        }
    }

    static let identifier = "org.formwork.multi-select"
    static let displayName = "Multi-select"
    static let summary: String? = "Choose several options: checkboxes or a list."
    static let roles = FieldRoles(value: "value", title: "title", required: "required", maxLength: "", placeholder: "")

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }
    func render(into canvas: Canvas) {
        if canvas.hasNumberAndMultiChoice {
            canvas.multiChoice(
                field: "value", label: model.basics.title, values: model.options,
                selected: model.value, style: model.style, flags: model.basics.flags())
        } else {
            canvas.value(label: model.basics.title, text: model.value.joined(separator: ", "))
        }
        model.basics.renderMessages(into: canvas)
    }
}
