import CFormwork
import FormworkCore

/// One cell instance held by its caller and driven directly: configure, offer, highlight
/// and render without requests, responses or the instance pool — for an embedding UI that
/// keeps a live cell per visible field and configures it on every change.
///
/// ```swift
/// let cells = InProcessCells(registry: registry)
/// let rating = try cells.liveCell(registry.cellType("org.formwork.c.rating"))
/// try rating.configure(["title": .string("Service"), "value": .integer(4)])
/// let views = try rating.render(accessibilityId: "service")
/// ```
///
/// A configure checks each value against the cell type's schema (kind, range, length,
/// choices; a failure names the cell, the field and the value, and nothing reaches the
/// pack), lays the values out for the pack in the instance's reused C memory and makes
/// one call: a typed cell through its prepared `ffi_cif` (by value) or directly (by
/// pointer), any other through `configure`. The pack's log is read only when a call fails.
///
/// A live cell is used from one thread at a time and lives in this process: a crash in
/// its pack is a crash of the caller (use ``IsolatedCells`` for packs you do not trust).
/// What its pack prints goes to the process's standard output (`render` and `list`
/// redirect it; an embedding program owns its output). The instance is destroyed, and the
/// pack's `deinit` called when it was the last, when the live cell is released.
public final class LiveCell {
    /// The cell type this is an instance of.
    public let cell: CellType
    private let instance: CellInstance
    /// Whether some field takes its allowed values from another (`options`): only then is a
    /// dictionary of the model built to check them.
    private let hasOptionsFields: Bool
    /// Whether some field has a default: absent values then take it (laid out by the instance's plan,
    /// no model with its defaults filled in is built per configure).
    private let hasDefaults: Bool
    private let fieldCount: Int

    init(cell: CellType, instance: CellInstance) {
        self.cell = cell
        self.instance = instance
        hasOptionsFields = cell.fields.contains { $0.optionsField != nil }
        hasDefaults = cell.fields.contains { $0.defaultValue != nil }
        fieldCount = cell.fields.count
    }

    /// Configures the cell with `model`, its values in schema order (`cell.fields`; nil = absent,
    /// missing trailing values absent). An absent value takes the field's default, as in a document.
    /// Throws, naming the model field, when a required value is absent or a value does not fit the
    /// schema, or when the pack's configure fails (quoting what the pack logged).
    public func configure(_ model: [Value?]) throws(RuntimeError) {
        guard model.count <= fieldCount else {
            throw error("has \(model.count) model values but its schema has \(fieldCount) fields")
        }
        // One pass: each value checked and laid out for the pack, then the call. A value the pass does
        // not take (one that may not fit, or needs a check it leaves to the general path) takes the
        // path below, which checks in full and reports the problem.
        if try instance.configureIfPlain(model, defaults: hasDefaults, checking: true, field: nil) { return }
        let fields = cell.fields
        // Checked through the buffers (no copy of a value or retain of a schema per field) and
        // without making text; a value that may not fit is checked again in full, with the model.
        var from = 0
        while let index = firstUnchecked(model, fields, from: from) {
            if let failure = problem(at: index, in: model) { throw failure }
            from = index + 1
        }
        try instance.configure(model, defaults: hasDefaults, field: nil)
    }

    /// The index of the first value from `from` on that does not plainly fit its schema (or is absent
    /// where the schema requires one and has no default), nil when all do.
    private func firstUnchecked(_ model: [Value?], _ fields: [FieldSchema], from: Int) -> Int? {
        model.withUnsafeBufferPointer { values in
            fields.withUnsafeBufferPointer { schemas in
                for i in from..<schemas.count {
                    if i < values.count, let value = values[i] {
                        if !SchemaValidator.fits(value, schemas[i]) { return i }
                    } else if schemas[i].required && schemas[i].defaultValue == nil {
                        return i
                    }
                }
                return nil
            }
        }
    }

    /// The error for the value at `index`, nil when it fits after all (made only for such a value).
    private func problem(at index: Int, in model: [Value?]) -> RuntimeError? {
        let schema = cell.fields[index]
        guard let value = index < model.count ? model[index] : nil else {
            return error("model field '\(schema.name)' is required")
        }
        guard let problem = SchemaValidator.problem(with: value, for: schema, model: hasOptionsFields ? named(model) : [:]) else {
            return nil
        }
        return error("model field '\(schema.name)' \(problem)")
    }

    /// Configures the cell with `model` by field name; a name the schema does not have is an error.
    public func configure(_ model: [String: Value]) throws(RuntimeError) {
        if let unknown = model.keys.sorted().first(where: { cell.field(named: $0) == nil }) {
            throw error("has no model field '\(unknown)' (its fields: \(cell.fields.map(\.name).joined(separator: ", ")))")
        }
        try configure(cell.fields.map { model[$0.name] })
    }

    /// Offers `value` for the model field at `index` through `value_changed`, after a configure:
    /// nil when the cell accepts it (or has no `value_changed`), else its reason.
    public func offer(_ value: Value?, toField index: Int) -> String? {
        guard cell.fields.indices.contains(index) else { return "the cell type has no model field \(index)" }
        let schema = cell.fields[index]
        return instance.valueChanged(field: schema.name, to: value, type: schema.type)
    }

    /// Calls `did_set_highlighted` (an interactive form highlights the focused field).
    public func setHighlighted(_ highlighted: Bool) { instance.setHighlighted(highlighted) }
    /// Calls `did_set_selected`.
    public func setSelected(_ selected: Bool) { instance.setSelected(selected) }

    /// What the cell draws as configured, recorded as a view tree; its controls take
    /// `accessibilityId` as their id, and `valueField` names the model field of its value.
    public func render(accessibilityId: String, valueField: String? = nil) throws(RuntimeError) -> [ViewNode] {
        try instance.render(accessibilityId: accessibilityId, valueField: valueField ?? cell.roles.value, field: nil)
    }

    private func named(_ model: [Value?]) -> [String: Value] {
        var out: [String: Value] = [:]
        for (i, value) in model.enumerated() { if let value { out[cell.fields[i].name] = value } }
        return out
    }

    private func error(_ message: String) -> RuntimeError {
        RuntimeError(cellID: cell.id, fieldID: nil, packPath: cell.packPath, message: message)
    }
}

extension InProcessCells {
    /// A new instance of `cell`, held by the caller (see ``LiveCell``); its pack is loaded first
    /// if this process has not loaded it yet.
    public func liveCell(_ cell: CellType) throws(RuntimeError) -> LiveCell {
        let entry = try entry(for: cell, index: 0, field: nil)
        return LiveCell(cell: cell, instance: try CellInstance(cell, entry: entry))
    }
}
