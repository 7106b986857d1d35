// Fields read flat, with no nodes made for them (`FlatField`), decoded to the same `FormField` as the tree
// decoder's `field`; used by the streaming paths of both JSON (`SectionsAsParsed`) and YAML (`SectionsAsRead`).

extension FormDecoder {
    /// A field read flat from its bytes (`FlatField`), decoded as `field` decodes the same object: the same
    /// `FormField`, or nil when `field` would report anything, or would do anything this does not (a value of
    /// another type, a model value out of its schema's bounds, an unknown key, a cell type not found). The
    /// caller then reads the field as a node and `field` reports it. Never reports itself, and checks no repeated
    /// ids: a streaming path checks them once every field is decoded.
    mutating func flatField(_ flat: borrowing FlatField, location: FieldLocation) -> FormField? {
        guard let id = flat.id, Self.isIdentifier(id), let cellID = flat.cell else { return nil }
        if let a = flat.accessibilityId, !Self.isIdentifier(a) { return nil }
        let cell: CellType
        let cellIDLength = cellID.utf8.count
        if let recent = recentCells.first(where: { $0.id.utf8.count == cellIDLength && $0.id == cellID }) {
            cell = recent
        } else {
            guard let found = try? registry.cellType(cellID) else { return nil }
            if recentCells.count == 8 { recentCells.removeFirst() }
            recentCells.append(found)
            cell = found
        }
        // The model, as `model` builds it: the cell type's defaults, each value the document wrote coerced by
        // `ValueCoercion` (the model keeps only those that differ from the defaults, in an array made once).
        let fields = cell.fields
        var model = FieldModel(defaultsOf: cell)
        model.reserveOverrides(flat.model.count)
        // Which fields the document wrote (a field left at a default that fits whatever the model holds needs
        // no check); beyond 64 fields every one is checked.
        var written: UInt64 = fields.count > 64 ? ~0 : 0
        for member in flat.model {
            guard let index = cell.index(of: member.key) else { return nil }
            if case .null = member.value { continue }
            guard let value = ValueCoercion.coerce(member.value, to: fields[index].type) else { return nil }
            model[index] = value
            if index < 64 { written |= 1 << UInt64(index) }
        }
        let defaultFits = cell.defaultFits
        // The values read in place, defaults and overrides merged in one walk (by index, each look-up searched).
        var fits = true
        model.forEachValue { i, value in
            guard fits else { return }
            guard case .some(let value) = value.pointee else {
                if fields[i].required { fits = false }
                return
            }
            if i < 64 && written & (1 << UInt64(i)) == 0 && defaultFits[i] { return }
            if !SchemaValidator.fits(value, fields[i]), SchemaValidator.problem(with: value, for: fields[i], model: model) != nil {
                fits = false
            }
        }
        guard fits else { return nil }
        let required = flat.required ?? false
        if required, let role = cell.roles.required, !(flat.hasModel && flat.model.contains { $0.key == role }) {
            model[role] = .bool(true)
        }
        if cell.textInput.hasDateBounds,
            DateBounds.problem(model: model, traits: cell.textInput.traits, field: cell.textInput.field) != nil
        {
            return nil
        }
        let requiredByModel =
            cell.roles.required.map { role in (cell.requiredRoleIndex.map { model[$0] } ?? model[role]) == .bool(true) } ?? false
        return FormField(
            id: id, cell: cell, model: model, textInput: cell.textInput, accessibilityId: flat.accessibilityId ?? id,
            required: required || requiredByModel, valueField: cell.roles.value, location: location)
    }

    /// A section some of whose fields were read flat and decoded as they were read (`flat`, the section's: those
    /// fields are nulls in `node`'s list), decoded as `section` decodes it whole: the other fields from their nodes,
    /// each field's id checked against `fieldIDs` in row order, the section's own conditions pending before its
    /// fields'. A repeated group's checks read its fields' nodes for keys that a flat field never has (conditions,
    /// cross-field rules): its nulls pass them as the fields would. nil, having reported nothing, for anything
    /// `section` would do otherwise (a repeated id, a field with a problem): `decodeSectionsAsRead` then gives up.
    mutating func sectionWithFlatFields(
        _ node: SourceNode, index: Int, pointer: String, flat: FlatFieldDecoder, sectionIDs: inout [String: String],
        fieldIDs: inout FieldIDs
    ) -> FormSection? {
        guard case .array(let items)? = node["fields"]?.kind,
            let read = fields(
                items, flat: flat, pointer: pointer, section: index, scope: Self.fieldScope(ofSection: node),
                accept: { fieldIDs.repeated($0, at: $1) == nil }),
            let section = self.section(
                node, index: index, pointer: pointer, sectionIDs: &sectionIDs, fieldIDs: &fieldIDs, decoded: read),
            diagnostics.isEmpty
        else { return nil }
        return section
    }

    /// A section's fields from its list: those taken flat (`flat`; nulls in `items`) as they were decoded, the others
    /// decoded from their nodes, with the pending conditions of those; nil when one has a problem, or when `accept`
    /// refuses a field's id and location (in row order).
    func fields(
        _ items: [SourceNode], flat: FlatFieldDecoder, pointer: String, section: Int, scope: String?,
        accept: (String, FieldLocation) -> Bool = { _, _ in true }
    ) -> DecodedFields? {
        var fields: [FormField] = []
        fields.reserveCapacity(items.count)
        // In the section's scope, as `section` decodes them (a repeated group's file field is refused there).
        var nodes = FormDecoder(registry: registry, file: file)
        nodes.fieldScope = scope
        var unused = FieldIDs(checked: false)
        for row in items.indices {
            let location = FieldLocation(section: pointer, row: row)
            let field: FormField
            if let taken = flat.field(at: row) {
                field = taken
            } else {
                guard let decoded = nodes.field(items[row], location: location, section: section, row: row, fieldIDs: &unused),
                    nodes.diagnostics.isEmpty
                else { return nil }
                field = decoded
            }
            guard accept(field.id, location) else { return nil }
            fields.append(field)
        }
        return DecodedFields(fields: fields, pending: nodes.pending)
    }
}

/// The decoder's side of a section's fields read flat (`JSONParser.flatFields`): each field is decoded as it is
/// read (`FormDecoder.flatField`), and kept by its place in the section's list.
final class FlatFieldDecoder: FlatFieldSink {
    private(set) var decoder: FormDecoder
    let pointer: String
    private var fields: [FormField?] = []
    /// How many fields were taken.
    private(set) var taken = 0

    /// `pointer` is the section's.
    init(decoder: FormDecoder, pointer: String) {
        self.decoder = decoder
        self.pointer = pointer
    }

    func take(_ field: inout FlatField, position: Int) -> Bool {
        guard let decoded = decoder.flatField(field, location: FieldLocation(section: pointer, row: position)) else { return false }
        if fields.count < position { fields.append(contentsOf: repeatElement(nil, count: position - fields.count)) }
        fields.append(decoded)
        taken += 1
        return true
    }

    /// The field taken at `row`, if it was.
    func field(at row: Int) -> FormField? { row < fields.count ? fields[row] : nil }
}
