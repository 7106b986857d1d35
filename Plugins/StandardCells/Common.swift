import FormworkPluginKit

/// Fields most input cells share, in the order they appear in schemas.
enum Common {
    static func title(required: Bool = true) -> Field {
        .string("title", label: "Title", doc: "Label shown with the cell.", required: required, maxLength: 200)
    }
    static let hint = Field.string("hint", label: "Hint", doc: "Help text shown under the cell.", maxLength: 500)
    static let error = Field.string("error", label: "Error", doc: "Error text shown under the cell.", maxLength: 500)
    static let enabled = Field.bool("enabled", label: "Enabled", doc: "Whether the user can change the value.", default: true)
    static let required = Field.bool("required", label: "Required", doc: "Whether a value must be given.", default: false)
}

/// The fields input cells share (title, placeholder, hint, error, enabled,
/// required), read once; a cell whose schema lacks one gets its default.
struct Basics {
    var title: String
    var placeholder: String?
    var hint: String?
    var error: String?
    var enabled: Bool
    var required: Bool

    init(_ values: ModelValues) {
        title = values.string("title") ?? ""
        placeholder = values.string("placeholder")
        hint = values.string("hint")
        error = values.string("error")
        enabled = values.bool("enabled") ?? true
        required = values.bool("required") ?? false
    }

    func flags(multiline: Bool = false) -> Canvas.Flags { Canvas.Flags(enabled: enabled, required: required, multiline: multiline) }

    /// Hint and error messages, drawn after the cell's control.
    func renderMessages(into canvas: Canvas) {
        if let error, !error.isEmpty { canvas.message(error, kind: .error) }
        if let hint, !hint.isEmpty { canvas.message(hint, kind: .hint) }
    }
}

extension Canvas.Flags {
    init(enabled: Bool, required: Bool, multiline: Bool = false) {
        self = []
        if !enabled { insert(.disabled) }
        if required { insert(.required) }
        if multiline { insert(.multiline) }
    }
}
