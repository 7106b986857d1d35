// The fields of a document, from their nodes: the reference decoding of a field, its model, text input, rules
// and accessibility id. A field read flat (`Streaming/FlatFieldDecoder.swift`) must decode to the same `FormField`.

extension FormDecoder {
    /// The field of `node`, at `row` of the `section`th section; its id is checked against `fieldIDs` (and noted there).
    mutating func field(
        _ node: SourceNode, location: FieldLocation, section: Int, row: Int, fieldIDs: inout FieldIDs
    ) -> FormField? {
        // Made only where it is used: in a diagnostic (the autoclosures below) or for a condition.
        var pointer: String { location.pointer }
        guard let members = node.members else {
            report(pointer, node, "a field must be an object with 'id' and 'cell', not \(node.typeName)")
            return nil
        }
        // One pass over the field's keys (a look-up per key compared every key with each of the field's, and
        // checking for unknown keys did it again); the first of a repeated key counts, as with `node[key]`.
        var idNode: SourceNode?, cellNode: SourceNode?, modelNode: SourceNode?, textInputNode: SourceNode?
        var accessibilityNode: SourceNode?, requiredNode: SourceNode?, rulesNode: SourceNode?, renamedNode: SourceNode?
        var hiddenNode: SourceNode?, choicesNode: SourceNode?, readOnlyNode: SourceNode?, fileNode: SourceNode?
        var unknownKeys = false, conditionKeys = false
        for (key, value) in members {
            // On the key's length first: a `switch` on the string compares it with each case in turn, and each
            // case that does not match is a call (six a field).
            switch key.utf8.count {
            case 2 where key == "id": if idNode == nil { idNode = value }
            case 4 where key == "cell": if cellNode == nil { cellNode = value }
            case 4 where key == "file": if fileNode == nil { fileNode = value }
            case 5 where key == "model": if modelNode == nil { modelNode = value }
            case 9 where key == "textInput": if textInputNode == nil { textInputNode = value }
            case 15 where key == "accessibilityId": if accessibilityNode == nil { accessibilityNode = value }
            case 8 where key == "required": if requiredNode == nil { requiredNode = value }
            case 8 where key == "readOnly": if readOnlyNode == nil { readOnlyNode = value }
            case 5 where key == "rules": if rulesNode == nil { rulesNode = value }
            case 11 where key == "renamedFrom": if renamedNode == nil { renamedNode = value }
            case 11 where key == "choicesFrom": if choicesNode == nil { choicesNode = value }
            case 6 where key == "hidden": if hiddenNode == nil { hiddenNode = value }
            default:
                if FieldConditions.keys.contains(key) { conditionKeys = true } else { unknownKeys = true }
            }
        }
        if unknownKeys { checkKeys(node, allowed: Self.fieldKeys, at: pointer, what: "a field") }
        let id = identifier(idNode, "\(pointer)/id", parent: node, what: "field")
        if let id, let first = fieldIDs.repeated(fieldScope.map { $0 + id } ?? id, at: location) {
            let scope =
                switch fieldScope?.last {
                case "."?: "within the object '\(fieldScope!.dropLast())'"
                case "/"?: "within the items of '\(fieldScope!.dropLast())'"
                default: "across the form's top-level fields"
                }
            report(
                "\(pointer)/id", idNode,
                "duplicate field id '\(id)' (first used at \(first.pointer)); field ids must be unique \(scope)")
        }
        if let renamedNode {
            let names: [SourceNode] = if case .array(let list) = renamedNode.kind { list } else { [renamedNode] }
            if names.isEmpty {
                report("\(pointer)/renamedFrom", renamedNode, "'renamedFrom' names the field's earlier id (or a list of them)")
            }
            for (i, name) in names.enumerated() {
                let at = renamedNode.string != nil ? "\(pointer)/renamedFrom" : "\(pointer)/renamedFrom/\(i)"
                // The earlier id as values were stored: `city` (top level) or `address.town` (in an object).
                let scoped = fieldScope?.last == "." ? fieldScope! + (id ?? "") : id
                if let old = fieldPath(name, at, parent: renamedNode, what: "earlier field"), old == scoped {
                    report(
                        at, name, "field '\(old)' is renamed from itself; 'renamedFrom' names the id its answers were stored under before")
                }
            }
        }
        var required = false
        if let r = requiredNode {
            if case .bool(let b) = r.kind { required = b } else { report("\(pointer)/required", r, "'required' must be true or false") }
        }
        let accessibilityId = accessibility(accessibilityNode, "\(pointer)/accessibilityId", fieldID: id, section: section, row: row)

        guard let cellNode else {
            report(pointer, node, "missing 'cell': name the cell type, e.g. org.formwork.text-field")
            return nil
        }
        guard let cellID = string(cellNode, "\(pointer)/cell", what: "'cell'") else { return nil }
        let cell: CellType
        // Lengths first: two ids of different storage compare byte by byte, a call for each that does not match.
        let cellIDLength = cellID.utf8.count
        if let recent = recentCells.first(where: { $0.id.utf8.count == cellIDLength && $0.id == cellID }) {
            cell = recent
        } else {
            do { cell = try registry.cellType(cellID) } catch {
                report("\(pointer)/cell", cellNode, error.summary, kind: .unavailable, hint: error.hint)
                return nil
            }
            if recentCells.count == 8 { recentCells.removeFirst() }
            recentCells.append(cell)
        }

        labelledChoices = [:]
        let choicesFrom = choicesNode.flatMap { choicesSource($0, "\(pointer)/choicesFrom", cell: cell, model: modelNode) }
        var model = model(modelNode, "\(pointer)/model", cell: cell, parent: node, suppliedLater: choicesFrom?.optionsField)
        if required, let role = cell.roles.required, modelNode?[role] == nil {
            model[role] = .bool(true)
        }
        let textInput = textInput(textInputNode, "\(pointer)/textInput", cell: cell)
        if cell.textInput.hasDateBounds,
            let problem = DateBounds.problem(model: model, traits: cell.textInput.traits, field: cell.textInput.field)
        {
            report("\(pointer)/model/\(problem.field)", modelNode?[problem.field] ?? node, problem.message)
        }
        let requiredByModel = cell.roles.required.map { model[$0] == .bool(true) } ?? false
        var rules = FieldRules()
        if let rulesNode {
            rules = self.rules(
                rulesNode, "\(pointer)/rules", valueType: cell.roles.value.flatMap { cell.field(named: $0)?.type }, cell: cell)
            // A value written in the document keeps the rules too.
            if let name = cell.roles.value, let value = model[name] {
                let label = cell.roles.title.flatMap { if case .string(let s)? = model[$0] { s } else { nil } } ?? id ?? name
                for problem in rules.problems(value, label: label) {
                    report("\(pointer)/model/\(Pointer.escape(name))", modelNode?[name] ?? node, problem)
                }
            }
        }
        for key in FieldConditions.keys where conditionKeys {
            if let n = node[key] {
                pending.append(PendingCondition(target: .field(pointer), key: key, node: n, pointer: "\(pointer)/\(key)"))
            }
        }
        guard let id else { labelledChoices = [:]; return nil }
        var field = FormField(
            id: id, cell: cell, model: model, textInput: textInput, accessibilityId: accessibilityId ?? id,
            required: required || requiredByModel, valueField: cell.roles.value, location: location)
        field.rules = rules
        field.labelledChoices = labelledChoices
        labelledChoices = [:]
        field.choicesFrom = choicesFrom
        // `hidden` and `readOnly` submit the field's value, so the field must hold one.
        func valueFlag(_ node: SourceNode?, _ key: String, _ what: String) -> Bool {
            guard let node else { return false }
            guard case .bool(let on) = node.kind else {
                report("\(pointer)/\(key)", node, "'\(key)' must be true or false, not \(node.typeName)")
                return false
            }
            guard !on || cell.roles.value != nil else {
                report(
                    "\(pointer)/\(key)", node, "'\(id)' (\(cell.id)) holds no value; a \(what) field submits its value, so it needs one")
                return false
            }
            return on
        }
        if valueFlag(hiddenNode, "hidden", "hidden") { field.conditions.hidden = true }
        if valueFlag(readOnlyNode, "readOnly", "read-only") { field.conditions.readOnly = true }
        if let fileNode, let upload = upload(fileNode, "\(pointer)/file", field: field) { field.rules.upload = upload }
        return field
    }

    /// `file: true` or `file: { accept: [application/pdf, image/*], maxBytes: 2000000 }`: the field takes a file.
    mutating func upload(_ node: SourceNode, _ pointer: @autoclosure () -> String, field: FormField) -> FileUpload? {
        let valueType = field.valueField.flatMap { field.cell.field(named: $0)?.type }
        guard valueType == .string else {
            report(
                pointer(), node,
                "'\(field.id)' (\(field.cell.id)) does not hold a single line of text; a file field's value is the file's name, so use a cell whose value is a string (org.formwork.text-field)"
            )
            return nil
        }
        if field.item != nil || fieldScope?.last == "/" {
            report(pointer(), node, "'\(field.id)' is in a repeated group; a file field must be outside repeated groups")
            return nil
        }
        if case .bool(let on) = node.kind { return on ? FileUpload() : nil }
        guard let members = node.members else {
            report(pointer(), node, "'file' must be true or { accept, maxBytes }, not \(node.typeName)")
            return nil
        }
        checkKeys(node, allowed: ["accept", "maxBytes"], at: pointer(), what: "'file'")
        var accept: [String] = []
        var maxBytes = FileUpload.defaultMaxBytes
        for (key, value) in members {
            switch key {
            case "accept":
                guard case .array(let items) = value.kind else {
                    report("\(pointer())/accept", value, "'accept' must be a list of media types, such as [application/pdf, image/*]")
                    continue
                }
                for (i, item) in items.enumerated() {
                    let at = "\(pointer())/accept/\(i)"
                    guard let type = item.string?.lowercased(), FileUpload.isKnown(type) else {
                        let known = FileUpload.knownTypes.map(\.type).joined(separator: ", ")
                        let given = item.string.map { "'\($0)' is not" } ?? "\(item.typeName) is not"
                        report(at, item, "\(given) a type Formwork can recognise from a file's content; 'accept' takes \(known) or image/*")
                        continue
                    }
                    if !accept.contains(type) { accept.append(type) }
                }
            case "maxBytes":
                guard case .integer(let n) = value.kind, n >= 1, n <= Int64(FileUpload.largestMaxBytes) else {
                    report(
                        "\(pointer())/maxBytes", value, "'maxBytes' must be a whole number of bytes from 1 to \(FileUpload.largestMaxBytes)"
                    )
                    continue
                }
                maxBytes = Int(n)
            default: break
            }
        }
        return FileUpload(accept: accept, maxBytes: maxBytes)
    }

    /// `{ value: 1, label: Poor }` or a plain scalar: the value's text (the model holds text), and the choice.
    mutating func labelledChoice(_ node: SourceNode, _ pointer: @autoclosure () -> String) -> (text: String, choice: LabelledChoice)? {
        func scalar(_ n: SourceNode) -> (String, JSON)? {
            switch n.kind {
            case .string(let s): (s, .string(s))
            case .integer(let i): (String(i), .integer(i))
            case .bool(let b): (b ? "true" : "false", .bool(b))
            default: nil
            }
        }
        if let members = node.members {
            for (k, v) in members where k != "value" && k != "label" {
                report("\(pointer())/\(Pointer.escape(k))", v, "unknown key '\(k)' in a choice; a choice is { value, label }")
            }
            guard let valueNode = node["value"], let (text, json) = scalar(valueNode), !text.isEmpty else {
                report(pointer(), node, "a choice needs a 'value': a non-empty string, an integer or a boolean")
                return nil
            }
            // A plain YAML scalar (`Yes`, `1.5`) is the text as written, as for a string field.
            let label = node["label"].flatMap { $0.string ?? $0.plainText } ?? text
            if let l = node["label"], l.string == nil && l.plainText == nil {
                report("\(pointer())/label", l, "'label' must be a string")
            }
            return (text, LabelledChoice(json: json, label: label))
        }
        guard let (text, json) = scalar(node), !text.isEmpty else {
            report(pointer(), node, "a choice must be a string, an integer, a boolean or { value, label }")
            return nil
        }
        return (text, LabelledChoice(json: json, label: text))
    }

    /// `rules:`: each key a plain value or `{ value, message }`, checked against the type of the
    /// field's value (lengths, pattern and format for text; bounds and step for numbers; item counts for lists).
    mutating func rules(_ node: SourceNode, _ pointer: @autoclosure () -> String, valueType: FieldType?, cell: CellType) -> FieldRules {
        var rules = FieldRules()
        guard let members = node.members else {
            report(
                pointer(), node,
                "'rules' must be an object of validation rules (\(FieldRules.keys.joined(separator: ", "))), not \(node.typeName)")
            return rules
        }
        guard let type = valueType else {
            report(pointer(), node, "cell '\(cell.id)' holds no value, so it takes no rules; remove 'rules'")
            return rules
        }
        checkKeys(node, allowed: FieldRules.keys, at: pointer(), what: "rules")
        let text = type == .string || type == .text, numeric = type == .integer || type == .number, list = type.isList
        func split(_ key: String, _ n: SourceNode) -> (SourceNode, String?)? {
            guard let inner = n.members else { return (n, nil) }
            for (k, v) in inner where k != "value" && k != "message" {
                report(
                    "\(pointer())/\(key)/\(Pointer.escape(k))", v, "unknown key '\(k)' in a rule; a rule is a value or { value, message }")
            }
            guard let value = n["value"] else { report("\(pointer())/\(key)", n, "a rule written as an object needs 'value'"); return nil }
            var message: String?
            if let m = n["message"] {
                message = m.string; if message == nil { report("\(pointer())/\(key)/message", m, "'message' must be a string") }
            }
            return (value, message)
        }
        func applies(_ key: String, _ ok: Bool, _ n: SourceNode, _ what: String) -> Bool {
            if !ok { report("\(pointer())/\(key)", n, "'\(key)' applies to \(what) values, but this field's value is \(type.rawValue)") }
            return ok
        }
        func count(_ key: String, _ n: SourceNode) -> FieldRules.Rule<Int>? {
            guard let (v, message) = split(key, n) else { return nil }
            guard case .integer(let i) = v.kind, i >= 0, i <= 1_000_000 else {
                report("\(pointer())/\(key)", v, "'\(key)' must be a whole number from 0 to 1000000"); return nil
            }
            return FieldRules.Rule(Int(i), message: message)
        }
        func bound(_ key: String, _ n: SourceNode) -> FieldRules.Rule<Double>? {
            guard let (v, message) = split(key, n) else { return nil }
            guard let d = number(v), d.isFinite, abs(d) <= 1e15 else {
                report("\(pointer())/\(key)", v, "'\(key)' must be a number within ±1e15"); return nil
            }
            if key == "step" && d <= 0 { report("\(pointer())/\(key)", v, "'step' must be greater than 0"); return nil }
            if type == .integer && d != d.rounded() {
                report("\(pointer())/\(key)", v, "'\(key)' of an integer field must be a whole number"); return nil
            }
            return FieldRules.Rule(d, message: message)
        }
        for (key, value) in members {
            switch key {
            case "equals", "expression":
                guard let (v, message) = split(key, value) else { continue }
                let fieldPointer = String(pointer().dropLast("/rules".count))
                pending.append(
                    PendingCondition(target: .field(fieldPointer), key: key, node: v, pointer: "\(pointer())/\(key)", message: message))
            case "required":
                if let s = value.string {
                    rules.required = s
                } else if let (_, message) = split(key, value), let message {
                    rules.required = message
                } else {
                    report("\(pointer())/required", value, "'required' in rules is the message shown when the value is missing: a string")
                }
            case "minLength": if applies(key, text, value, "text") { rules.minLength = count(key, value) }
            case "maxLength": if applies(key, text, value, "text") { rules.maxLength = count(key, value) }
            case "minItems": if applies(key, list, value, "list") { rules.minItems = count(key, value) }
            case "maxItems": if applies(key, list, value, "list") { rules.maxItems = count(key, value) }
            case "minimum": if applies(key, numeric, value, "number") { rules.minimum = bound(key, value) }
            case "maximum": if applies(key, numeric, value, "number") { rules.maximum = bound(key, value) }
            case "step": if applies(key, numeric, value, "number") { rules.step = bound(key, value) }
            case "pattern":
                guard applies(key, text, value, "text"), let (v, message) = split(key, value) else { continue }
                guard let s = v.string, !s.isEmpty, s.count <= 500 else {
                    report("\(pointer())/pattern", v, "'pattern' must be a regular expression of at most 500 characters"); continue
                }
                do throws(Pattern.Problem) {
                    _ = try Pattern(s)
                } catch {
                    report(
                        "\(pointer())/pattern", v,
                        "'\(SchemaValidator.truncated(s))' is not a pattern Formwork can match: \(error.description) (docs/forms.md, \"Patterns\")"
                    )
                    continue
                }
                rules.pattern = FieldRules.Rule(s, message: message)
            case "format":
                guard applies(key, text, value, "text"), let (v, message) = split(key, value) else { continue }
                guard let s = v.string, let f = FieldRules.Format(rawValue: s) else {
                    report(
                        "\(pointer())/format", v,
                        "unknown format; use one of \(FieldRules.Format.allCases.map(\.rawValue).joined(separator: ", "))");
                    continue
                }
                rules.format = FieldRules.Rule(f, message: message)
            default: break
            }
        }
        if let a = rules.minLength?.value, let b = rules.maxLength?.value, a > b {
            report("\(pointer())/minLength", node["minLength"], "minLength \(a) is greater than maxLength \(b)")
        }
        if let a = rules.minItems?.value, let b = rules.maxItems?.value, a > b {
            report("\(pointer())/minItems", node["minItems"], "minItems \(a) is greater than maxItems \(b)")
        }
        if let a = rules.minimum?.value, let b = rules.maximum?.value, a > b {
            report(
                "\(pointer())/minimum", node["minimum"], "minimum \(NumberText.format(a)) is greater than maximum \(NumberText.format(b))")
        }
        return rules
    }

    /// `accessibilityId: login_username`, or `{ id: login_username, suffix: [section, row] }`
    /// (CellViewModel's suffix options: `_<section>` and / or `_<row>` appended).
    mutating func accessibility(
        _ node: SourceNode?, _ pointer: @autoclosure () -> String, fieldID: String?, section: Int, row: Int
    ) -> String? {
        guard let node else { return nil }
        if let s = node.string {
            guard Self.isIdentifier(s) else {
                report(pointer(), node, "accessibility id '\(s)' must start with a letter and use only letters, digits, '_' and '-'");
                return nil
            }
            return s
        }
        guard node.members != nil else {
            report(pointer(), node, "accessibilityId must be a string or an object with 'id' and 'suffix'")
            return nil
        }
        checkKeys(node, allowed: ["id", "suffix"], at: pointer(), what: "accessibilityId")
        var base = fieldID
        if let idNode = node["id"] {
            guard let s = idNode.string, Self.isIdentifier(s) else {
                report(
                    "\(pointer())/id", idNode,
                    "accessibility id must be a string that starts with a letter and uses only letters, digits, '_' and '-'")
                return nil
            }
            base = s
        }
        guard var id = base else { return nil }
        if let suffix = node["suffix"] {
            guard case .array(let items) = suffix.kind else {
                report("\(pointer())/suffix", suffix, "suffix must be a list of 'section' and / or 'row'")
                return id
            }
            for (i, item) in items.enumerated() {
                switch item.string {
                case "section": id += "_\(section)"
                case "row": id += "_\(row)"
                default:
                    report(
                        "\(pointer())/suffix/\(i)", item,
                        "unknown suffix option \(item.json.serialized(pretty: false)); use 'section' or 'row'")
                }
            }
        }
        return id
    }

    /// ABI 1.2: `choicesFrom: PACK_ID/SOURCE`, checked against the registry's packs and the cell: its value must be
    /// chosen from an options list (a picker's `choices`), which the document then leaves to the pack.
    mutating func choicesSource(_ node: SourceNode, _ pointer: String, cell: CellType, model: SourceNode?) -> ChoicesSource? {
        guard let text = string(node, pointer, what: "'choicesFrom'") else { return nil }
        guard let slash = text.lastIndex(of: "/"), slash != text.startIndex, text.index(after: slash) != text.endIndex else {
            report(pointer, node, "'choicesFrom' names a pack and one of its sources as PACK_ID/SOURCE, e.g. com.example.places/airports")
            return nil
        }
        let packID = String(text[..<slash]), source = String(text[text.index(after: slash)...])
        guard let pack = registry.choiceSources(pack: packID) else {
            report(
                pointer, node, "no pack '\(packID)' is registered; install it or add its directory with --pack-path", kind: .unavailable)
            return nil
        }
        guard pack.sources.contains(source) else {
            let offered = pack.sources.isEmpty ? "it offers no choices" : "its sources are \(pack.sources.joined(separator: ", "))"
            report(pointer, node, "pack '\(packID)' has no choices source '\(source)'; \(offered)", kind: .unavailable)
            return nil
        }
        guard let value = cell.roles.value.flatMap(cell.field(named:)), let options = value.optionsField else {
            report(
                pointer, node,
                "'\(cell.id)' takes no list of choices to fill; choicesFrom needs a cell whose value is chosen from a list (org.formwork.picker, org.formwork.segments, org.formwork.multi-select)"
            )
            return nil
        }
        if let given = model?[options] {
            report(
                "\(pointer.dropLastComponent)/model/\(Pointer.escape(options))", given,
                "'\(options)' comes from \(text); leave it out of the model")
        }
        return ChoicesSource(pack: packID, packPath: pack.path, source: source, optionsField: options, cacheSeconds: pack.cacheSeconds)
    }

    /// `suppliedLater`: a model field filled after decoding (`choicesFrom`), not required here.
    mutating func model(
        _ node: SourceNode?, _ pointer: @autoclosure () -> String, cell: CellType, parent: SourceNode, suppliedLater: String? = nil
    ) -> FieldModel {
        // Values are gathered in schema order (no hashing per schema field), as the model keeps them.
        let fields = cell.fields
        // Reserved and filled rather than `Array(repeating:count:)`, whose allocation looks the storage class's
        // metadata up in the runtime's table on every call.
        var values: [Value?] = []
        values.reserveCapacity(fields.count)
        for _ in fields.indices { values.append(nil) }
        if let node {
            guard let members = node.members else {
                report(pointer(), node, "'model' must be an object of the cell's fields, not \(node.typeName)")
                return defaults(cell)
            }
            for (key, valueNode) in members {
                // The pointer() is built only when a problem is reported (it was a large share of decoding).
                func at() -> String { "\(pointer())/\(Pointer.escape(key))" }
                guard let index = cell.index(of: key) else {
                    var message = "unknown model field '\(key)' for cell '\(cell.id)'"
                    if let s = EditDistance.suggestion(for: key, in: fields.map(\.name)) {
                        message += "; did you mean '\(s)'?"
                    } else {
                        message += "; its fields are \(fields.map(\.name).joined(separator: ", "))"
                    }
                    report(at(), valueNode, message)
                    continue
                }
                let field = fields[index]
                if case .null = valueNode.kind { continue }
                // An options list may be written as { value, label } objects (values: strings, integers, booleans).
                let isOptions = field.type == .stringList && fields.contains { $0.optionsField == key }
                if isOptions, case .array(let items) = valueNode.kind, items.contains(where: { $0.members != nil }) {
                    var texts: [String] = []
                    for (i, item) in items.enumerated() {
                        guard let choice = labelledChoice(item, "\(at())/\(i)") else { continue }
                        let text = choice.text
                        if labelledChoices[text] != nil {
                            report(
                                "\(at())/\(i)", item, "the choice value \(choice.choice.json.serialized(pretty: false)) is listed twice");
                            continue
                        }
                        labelledChoices[text] = choice.choice
                        texts.append(text)
                    }
                    values[index] = .stringList(texts)
                    continue
                }
                switch ValueCoercion.value(valueNode, as: field) {
                case .success(let value): values[index] = value
                case .failure(let problem): report(at(), valueNode, "\(field.name) \(problem.text)")
                }
            }
        }
        for i in fields.indices where values[i] == nil {
            if let value = fields[i].defaultValue { values[i] = value }
        }
        var model = FieldModel(cell: cell, values: values)
        values = []  // the model's array is its own from here (a second reference made every model a copy)
        for i in fields.indices {
            let field = fields[i]
            func at() -> String { "\(pointer())/\(Pointer.escape(field.name))" }
            guard let value = model[i] else {
                if field.required && field.name != suppliedLater {
                    report(
                        node == nil ? pointer().dropLastComponent : pointer(), node ?? parent,
                        "missing required model field '\(field.name)' (\(field.type.rawValue)) for cell '\(cell.id)'")
                }
                continue
            }
            // `fits` answers yes for most values without building anything; only the others are looked at in full.
            if !SchemaValidator.fits(value, field), let problem = SchemaValidator.problem(with: value, for: field, model: model) {
                report(at(), node?[field.name] ?? node, "\(field.name) \(problem)")
                model[i] = nil
            }
        }
        return model
    }

    func defaults(_ cell: CellType) -> FieldModel {
        FieldModel(defaultsOf: cell)
    }

    mutating func textInput(_ node: SourceNode?, _ pointer: @autoclosure () -> String, cell: CellType) -> TextInputConfiguration {
        var configuration = cell.textInput
        guard let node else { return configuration }
        guard let members = node.members else {
            report(pointer(), node, "'textInput' must be an object of trait overrides, not \(node.typeName)")
            return configuration
        }
        let kind = cell.textInput.kind
        if kind == .none {
            report(pointer(), node, "cell '\(cell.id)' has no text input; remove 'textInput'")
            return configuration
        }
        for (key, value) in members {
            guard let trait = TraitKey.named(key), trait.isDocumentKey else {
                var message = "unknown text-input trait '\(key)'"
                if let s = EditDistance.suggestion(for: key, in: TraitKey.documentKeys) { message += "; did you mean '\(s)'?" }
                report("\(pointer())/\(Pointer.escape(key))", value, message)
                continue
            }
            guard trait.kinds.contains(kind) else {
                let fits = trait.kinds.map(\.rawValue)
                report(
                    "\(pointer())/\(Pointer.escape(key))", value,
                    "'\(key)' does not apply to a \(kind.rawValue) (cell '\(cell.id)'); it applies to \(fits.joined(separator: " and "))")
                continue
            }
            if let problem = trait.apply(value, to: &configuration.traits) { report("\(pointer())/\(Pointer.escape(key))", value, problem) }
        }
        return configuration
    }
}
