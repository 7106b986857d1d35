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

/// Hint and error messages, drawn after a cell's control.
struct Messages {
    var hint: String?
    var error: String?

    init(_ values: ModelValues) {
        hint = values.string("hint")
        error = values.string("error")
    }

    func render(into canvas: Canvas) {
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
