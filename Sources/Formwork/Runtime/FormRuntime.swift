/// Drives a validated form through the ABI and records its view tree.
public final class FormRuntime {
    private let pool = InstancePool()

    public init() {}

    /// Values a cell refused through `value_changed`, found by the last `render`.
    public private(set) var rejections: [Diagnostic] = []

    /// Instances created so far (pooling keeps this at one per cell type).
    public var instancesCreated: Int { pool.created }
    public var peakLiveInstances: Int { pool.peakLive }

    /// Configures and renders every field, reusing pooled instances.
    public func render(_ form: Form) throws(RuntimeError) -> ViewTree {
        rejections = []
        var sections: [SectionView] = []
        for section in form.sections {
            var fields: [FieldView] = []
            for field in section.fields { fields.append(try render(field)) }
            sections.append(SectionView(id: section.id, header: section.header, footer: section.footer,
                                        insets: section.insets, spacing: section.spacing, fields: fields))
        }
        return ViewTree(formID: form.id, title: form.title, sections: sections)
    }

    func render(_ field: FormField) throws(RuntimeError) -> FieldView {
        let instance = try pool.dequeue(field.cell)
        defer { pool.enqueue(instance) }
        var model = field.model
        var errors: [String] = []
        if !field.valuesFromFile.isEmpty {
            // Configure with the document's model, then offer each value from the values file.
            var document = model
            for name in field.valuesFromFile { document[name] = field.documentModel[name] ?? nil }
            try instance.configure(field.cell.fields.map { document[$0.name] }, field: field.id)
            model = document
            for name in field.valuesFromFile.sorted() {
                guard let schema = field.cell.field(named: name) else { continue }
                if let reason = instance.valueChanged(field: name, to: field.model[name], type: schema.type) {
                    errors.append(reason)
                    rejections.append(Diagnostic(kind: .invalid, file: nil, pointer: "/" + Pointer.escape(field.id), line: nil,
                                                 message: "cell '\(field.cell.id)' rejected the value of '\(field.id)': \(reason)"))
                } else {
                    model[name] = field.model[name]
                }
            }
        }
        try instance.configure(field.cell.fields.map { model[$0.name] }, field: field.id)
        var nodes = try instance.render(accessibilityId: field.accessibilityId, valueField: field.valueField, field: field.id)
        nodes += errors.map { .message(kind: .error, text: $0) }
        func date(_ name: String?) -> Double? {
            guard let name, case .number(let d)? = model[name] else { return nil }
            return d
        }
        let bound = field.valueField.flatMap { field.cell.field(named: $0) }
        let maxLength: Int? = bound.flatMap { $0.type == .string || $0.type == .text ? $0.maxLength : nil }
        if let limit = model["maxLength"], case .integer(let n) = limit, n > 0, n < (maxLength ?? .max) { return FieldView(
            id: field.id, cell: field.cell.id, accessibilityId: field.accessibilityId, required: field.required,
            textInput: field.textInput, nodes: nodes, minimum: date(field.textInput.traits.minimumField),
            maximum: date(field.textInput.traits.maximumField), maxLength: Int(n)) }
        return FieldView(id: field.id, cell: field.cell.id, accessibilityId: field.accessibilityId, required: field.required,
                         textInput: field.textInput, nodes: nodes, minimum: date(field.textInput.traits.minimumField),
                         maximum: date(field.textInput.traits.maximumField), maxLength: maxLength)
    }

    /// Destroys pooled instances now rather than when the runtime goes away.
    public func drain() { pool.drain() }
}
