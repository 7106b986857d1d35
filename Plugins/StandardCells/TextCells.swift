import FormworkPluginKit

/// Static, multi-line text.
final class TextCell: Cell {
    struct Model: CellModel {
        static let fields: [Field] = [
            .text("text", label: "Text", doc: "The text; line breaks are kept.", required: true, maxLength: 100_000),
            .choice(
                "style", label: "Style", doc: "Typographic style.",
                choices: [("body", "Body"), ("title", "Title"), ("caption", "Caption"), ("emphasis", "Emphasis")],
                default: "body"),
        ]
        var text: String
        var style: Canvas.LabelStyle
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            text = v.string("text") ?? ""
            style =
                switch v.string("style") {
                case "title": .title
                case "caption": .caption
                case "emphasis": .emphasis
                default: .body
                }
        }
    }

    static let identifier = "org.formwork.text"
    static let displayName = "Text"
    static let summary: String? = "Static, multi-line text such as an introduction or legal notice."

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }
    func render(into canvas: Canvas) { canvas.label(model.text, style: model.style) }
}

/// A single-line text input.
final class TextFieldCell: Cell, ValueObservingCell {
    struct Model: CellModel {
        static let fields: [Field] = [
            Common.title(),
            .string("value", label: "Value", doc: "The text entered.", maxLength: 10_000),
            .string("placeholder", label: "Placeholder", doc: "Shown while the field is empty.", maxLength: 200),
            Common.hint, Common.error, Common.enabled, Common.required,
            .integer(
                "maxLength", label: "Maximum length", doc: "Most characters accepted; 0 for no limit.",
                default: 0, minimum: 0, maximum: 10_000),
        ]
        var value: String?
        var maxLength: Int64
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            value = v.string("value")
            maxLength = v.integer("maxLength") ?? 0
        }
    }

    static let identifier = "org.formwork.text-field"
    static let displayName = "Text field"
    static let summary: String? = "A single-line text input: names, user names, e-mail addresses, passwords."
    static let textInput = TextInput.textField(
        "value", TextTraits(autocapitalization: .sentences, returnKey: .next, clearButton: .whileEditing))

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }

    func render(into canvas: Canvas) {
        canvas.textInput(
            field: "value", label: model.basics.title, text: model.value, placeholder: model.basics.placeholder,
            flags: model.basics.flags())
        model.basics.renderMessages(into: canvas)
    }

    func valueChanged(field: String, to value: ModelValue?) -> ValueChange {
        guard field == "value" else { return .accept }
        if !model.basics.enabled { return .reject("\(model.basics.title) cannot be changed") }
        if case .string(let text)? = value {
            if model.maxLength > 0 && text.unicodeScalars.count > model.maxLength {
                return .reject("\(model.basics.title) takes at most \(model.maxLength) characters")
            }
            if model.basics.required && text.isEmpty { return .reject("\(model.basics.title) is required") }
        } else if model.basics.required {
            return .reject("\(model.basics.title) is required")
        }
        return .accept
    }
}

/// A multi-line text input.
final class TextViewCell: Cell {
    struct Model: CellModel {
        static let fields: [Field] = [
            Common.title(),
            .text("value", label: "Value", doc: "The text entered; may span lines.", maxLength: 100_000),
            .string("placeholder", label: "Placeholder", doc: "Shown while the view is empty.", maxLength: 200),
            Common.hint, Common.error, Common.enabled, Common.required,
        ]
        var value: String?
        var basics: Basics
        init(_ v: ModelValues) {
            basics = Basics(v)
            value = v.string("value")
        }
    }

    static let identifier = "org.formwork.text-view"
    static let displayName = "Text view"
    static let summary: String? = "A multi-line text input for notes, comments and addresses."
    static let textInput = TextInput.textView(
        "value", TextTraits(autocapitalization: .sentences, spellChecking: true, dataDetectors: [.link, .phoneNumber], selectable: true))

    private var model = Model(ModelValues([:]))
    init() {}
    func configure(model: Model) throws { self.model = model }

    func render(into canvas: Canvas) {
        canvas.textInput(
            field: "value", label: model.basics.title, text: model.value, placeholder: model.basics.placeholder,
            flags: model.basics.flags(multiline: true))
        model.basics.renderMessages(into: canvas)
    }
}
