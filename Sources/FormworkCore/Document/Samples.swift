/// Forms made from cell types alone: one cell with its defaults (`preview`),
/// or every installed cell (`gallery`, a catalog for pack authors).
package enum Samples {
    /// A one-field form for `cell`, its model the schema defaults plus sample values for required fields.
    package static func previewForm(for cell: CellType) -> Form {
        Form(
            id: "preview", title: cell.name,
            sections: [
                FormSection(
                    id: "preview", header: nil, footer: cell.summary, insets: nil, spacing: nil, fields: [field(for: cell, id: "sample")])
            ])
    }

    /// Every usable cell type of `registry`, one section each.
    package static func galleryForm(_ registry: some CellTypeCatalog) -> Form {
        let sections = registry.cellTypes.enumerated().map { i, cell in
            FormSection(
                id: "cell-\(i)", header: "\(cell.name) — \(cell.id)", footer: cell.summary, insets: nil, spacing: nil,
                fields: [field(for: cell, id: "cell\(i)")])
        }
        return Form(id: "gallery", title: "Formwork cell gallery", sections: sections)
    }

    package static func field(for cell: CellType, id: String) -> FormField {
        var model = FieldModel(defaultsOf: cell)
        for f in cell.fields where f.required && model[f.name] == nil { model[f.name] = sample(f, cell: cell) }
        for f in cell.fields where f.optionsField != nil && model[f.name] == nil {
            if case .stringList(let items)? = model[f.optionsField!], let first = items.first { model[f.name] = .string(first) }
        }
        let required = cell.roles.required.map { model[$0] == .bool(true) } ?? false
        return FormField(
            id: id, cell: cell, model: model, textInput: cell.textInput, accessibilityId: id,
            required: required, valueField: cell.roles.value, location: FieldLocation(""))
    }

    static func sample(_ f: FieldSchema, cell: CellType) -> Value {
        switch f.type {
        case .string: return .string(f.name == cell.roles.title ? cell.name : f.label)
        case .text: return .string(cell.summary ?? "\(cell.name) sample text.")
        case .bool: return .bool(false)
        case .integer: return .integer(f.lowestAllowed.flatMap(Int64.init(exactly:)) ?? 0)
        case .number: return .number(f.lowestAllowed ?? 0)
        case .date: return .number(f.minimum ?? 1_767_225_600)  // 2026-01-01
        case .choice: return .string(f.choices.first?.value ?? "")
        case .choiceList:
            return .stringList(Array(f.choices.prefix(max(1, f.minLength ?? 1)).map(\.value)))
        case .stringList:
            let count = max(f.minLength ?? 1, min(3, f.maxLength ?? 3))
            return .stringList((1...max(1, count)).map { "Option \($0)" })
        }
    }
}
