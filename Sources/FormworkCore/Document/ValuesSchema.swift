/// The JSON Schema (draft 2020-12) of the values a form accepts (`formwork schema --values
/// FORM`): one property per field that holds a value, its type and the schema's and the
/// document's rules, `required` for the fields the document marks required, nothing else
/// allowed. A server in any language can check a submission with it.
///
/// What JSON Schema cannot say, `formwork validate --values` still checks: a cell's own
/// `value_changed` verdict; a `step` counted from a non-zero `minimum` (JSON Schema's
/// `multipleOf` counts from 0); date bounds (dates are strings); a pattern's exact regex
/// dialect (written here as `^(?:…)$`, which agrees for the common syntax).
package enum ValuesSchema {
    package static func generate(_ form: Form) -> JSON {
        var properties: [(String, JSON)] = []
        var required: [JSON] = []
        var conditional: [JSON] = []
        var notExpressed: [String] = []
        // `object: address`: {"address": {"city": …}}, one object however many sections share it, where its first is.
        // An object inside an object (`object: billing.address`) is a property of its parent's schema.
        var objects: [String: (properties: [(String, JSON)], required: [JSON])] = [:]
        var topIndex: [String: Int] = [:]
        for section in form.sections {
            if let group = section.repeatGroup {
                // {"tasks": [{"title": …}, …]}: an array of item objects.
                var itemProperties: [(String, JSON)] = []
                var itemRequired: [JSON] = []
                for field in section.template {
                    guard let name = field.valueField, let schema = field.cell.field(named: name) else { continue }
                    itemProperties.append((field.id, value(schema, field: field)))
                    if field.required && field.model[name] == nil { itemRequired.append(.string(field.id)) }
                }
                let item = JSON.object([
                    ("type", .string("object")), ("additionalProperties", .bool(false)), ("properties", .object(itemProperties)),
                    ("required", itemRequired.isEmpty ? nil : .array(itemRequired)),
                ])
                properties.append(
                    (
                        section.id,
                        .object([
                            ("title", .string(section.header ?? section.id)),
                            (
                                "anyOf",
                                .array([
                                    .object([
                                        ("type", .string("array")), ("items", item), ("minItems", .integer(Int64(group.minItems))),
                                        ("maxItems", .integer(Int64(group.maxItems))),
                                    ]),
                                    nullOnly,
                                ])
                            ),
                        ])
                    ))
                if group.minItems > 0 { required.append(.string(section.id)) }
                continue
            }
            for field in section.fields {
                guard let name = field.valueField, let schema = field.cell.field(named: name) else { continue }
                if let object = section.object {
                    let top = String(object.prefix { $0 != "." })
                    if topIndex[top] == nil {
                        topIndex[top] = properties.count
                        properties.append((top, .null))  // its place, filled below
                    }
                    if objects[object] == nil { objects[object] = ([], []) }
                    let path = object.split(separator: ".").map(String.init)
                    let member = String(field.id.dropFirst(object.utf8.count + 1))
                    objects[object]!.properties.append((member, value(schema, field: field)))
                    // As for a top-level field, with the member inside its object.
                    let gates = [
                        section.conditions.visibleIf, field.conditions.visibleIf, section.conditions.enabledIf, field.conditions.enabledIf,
                    ]
                    .compactMap { $0 }
                    let gate: JSON?? = gates.isEmpty ? .some(nil) : allOf(gates.map { predicate($0.condition, form) })
                    let alwaysRequired = field.required && field.model[name] == nil
                    func inObject(_ schema: JSON) -> JSON {
                        path.reversed().reduce(schema) { inner, key in .object([("properties", .object([(key, inner)]))]) }
                    }
                    func presentInObject() -> JSON {
                        path.reversed().reduce(present(member)) { inner, key in
                            .object([("required", .array([.string(key)])), ("properties", .object([(key, inner)]))])
                        }
                    }
                    switch gate {
                    case .some(nil):
                        if alwaysRequired { objects[object]!.required.append(.string(member)) }
                    case .some(let condition?):
                        conditional.append(
                            .object([
                                ("if", .object([("not", condition)])),
                                ("then", inObject(.object([("properties", .object([(member, nullOnly)]))]))),
                            ]))
                        if alwaysRequired { conditional.append(.object([("if", condition), ("then", presentInObject())])) }
                    case .none:
                        notExpressed.append(
                            "'\(field.id)' is shown or enabled only when \(gates.map(\.text).joined(separator: " and ")); JSON Schema cannot express that condition"
                        )
                    }
                    if let requiredIf = field.conditions.requiredIf {
                        if case .some(let g) = gate, let p = predicate(requiredIf.condition, form) {
                            let condition = g.map { JSON.object([("allOf", .array([$0, p]))]) } ?? p
                            conditional.append(.object([("if", condition), ("then", presentInObject())]))
                        } else {
                            notExpressed.append("'\(field.id)' is required when \(requiredIf.text), which JSON Schema cannot express")
                        }
                    }
                    if !field.crossRules.isEmpty || field.conditions.value != nil || field.conditions.hidden || field.conditions.readOnly {
                        notExpressed.append("the rules, computed, hidden or read-only value of '\(field.id)', a field of an object")
                    }
                    continue
                }
                var property = value(schema, field: field)
                if field.conditions.hidden || field.conditions.readOnly, field.conditions.value == nil, case .object(var members) = property
                {
                    // The document's value, which a submission cannot change.
                    members.append(("readOnly", .bool(true)))
                    if let name = field.valueField, let v = field.model[name], let schema = field.cell.field(named: name) {
                        members.append(("const", v.json(as: schema.type)))
                    }
                    property = .object(members)
                }
                if let computed = field.conditions.value, case .object(var members) = property {
                    // Computed from the others: a value given must agree, which JSON Schema cannot check.
                    members.append(("readOnly", .bool(true)))
                    property = .object(members)
                    notExpressed.append("'\(field.id)' is computed as \(computed.text); a value given must agree")
                }
                properties.append((field.id, property))
                // The field's value is submitted when it is visible and enabled (its own and its section's conditions).
                let gates = [
                    section.conditions.visibleIf, field.conditions.visibleIf, section.conditions.enabledIf, field.conditions.enabledIf,
                ]
                .compactMap { $0 }
                let gate: JSON?? = gates.isEmpty ? .some(nil) : allOf(gates.map { predicate($0.condition, form) })
                let id = JSON.string(field.id)
                // Required means "must be in the values" only when the document gives no value of its own.
                let alwaysRequired = field.required && field.model[name] == nil
                switch gate {
                case .some(nil):
                    if alwaysRequired { required.append(id) }
                case .some(let condition?):
                    // Not submitted: no value (null is allowed). Submitted and required: present.
                    conditional.append(
                        .object([
                            ("if", .object([("not", condition)])), ("then", .object([("properties", .object([(field.id, nullOnly)]))])),
                        ]))
                    if alwaysRequired { conditional.append(.object([("if", condition), ("then", present(field.id))])) }
                case .none:
                    notExpressed.append(
                        "'\(field.id)' is shown or enabled only when \(gates.map(\.text).joined(separator: " and ")); JSON Schema cannot express that condition, so it neither forbids nor requires the value"
                    )
                }
                if let requiredIf = field.conditions.requiredIf {
                    if case .some(let g) = gate, let p = predicate(requiredIf.condition, form) {
                        let condition = g.map { JSON.object([("allOf", .array([$0, p]))]) } ?? p
                        conditional.append(.object([("if", condition), ("then", present(field.id))]))
                    } else {
                        notExpressed.append("'\(field.id)' is required when \(requiredIf.text), which JSON Schema cannot express")
                    }
                }
                for rule in field.crossRules {
                    switch rule {
                    case .equals(let other, _):
                        notExpressed.append("'\(field.id)' must equal '\(other)' (JSON Schema cannot compare two values)")
                    case .expression(let source, _):
                        if let p = predicate(source.condition, form) {
                            conditional.append(.object([("if", present(field.id)), ("then", p)]))
                        } else {
                            notExpressed.append("the rule of '\(field.id)': \(source.text)")
                        }
                    }
                }
            }
        }
        // Every object inside another has its parent (`billing` for `billing.address`, declared or not).
        for key in objects.keys {
            var path = Substring(key)
            while let dot = path.lastIndex(of: ".") {
                path = path[..<dot]
                if objects[String(path)] == nil { objects[String(path)] = ([], []) }
            }
        }
        // The deepest first: each object's schema becomes a property of its parent's (required when it has required
        // members), a top-level one takes its place.
        for key in objects.keys.sorted(by: { ($0.split(separator: ".").count, $1) > ($1.split(separator: ".").count, $0) }) {
            let object = objects[key]!
            let schema = JSON.object([
                ("type", .string("object")), ("additionalProperties", .bool(false)), ("properties", .object(object.properties)),
                ("required", object.required.isEmpty ? nil : .array(object.required)),
            ])
            if let dot = key.lastIndex(of: ".") {
                let parent = String(key[..<dot]), name = String(key[key.index(after: dot)...])
                objects[parent]!.properties.append((name, schema))
                if !object.required.isEmpty { objects[parent]!.required.append(.string(name)) }
            } else if let index = topIndex[key] {
                properties[index].1 = schema
                if !object.required.isEmpty { required.append(.string(key)) }
            }
        }
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("Values of the form '\(form.id)'")),
            ("description", .string("Generated by `formwork schema --values`; `formwork validate --values` remains the authority.")),
            (
                "$comment",
                notExpressed.isEmpty ? nil : .string("Checked by formwork validate only: " + notExpressed.joined(separator: "; "))
            ),
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("properties", .object(properties)),
            ("required", required.isEmpty ? nil : .array(required)),
            ("allOf", conditional.isEmpty ? nil : .array(conditional)),
        ])
    }

    static let nullOnly = JSON.object([("type", .string("null"))])

    static func present(_ id: String) -> JSON {
        .object([("required", .array([.string(id)])), ("properties", .object([(id, .object([("not", nullOnly)]))]))])
    }

    /// All of `parts`, or nil (inexpressible) when any is nil; `.some(nil)` is never returned for a non-empty list.
    static func allOf(_ parts: [JSON?]) -> JSON?? {
        guard !parts.contains(where: { $0 == nil }) else { return .none }
        let known = parts.compactMap { $0 }
        return .some(known.count == 1 ? known[0] : .object([("allOf", .array(known))]))
    }

    /// A JSON Schema that holds for the values object exactly when `c` holds, or nil where JSON Schema cannot say it
    /// (comparing two fields, ordering texts).
    static func predicate(_ c: Condition, _ form: Form) -> JSON? {
        /// A test of one field, `holdsFor(value)`, whose non-null values that pass are `given`. A key left out of the
        /// values keeps the document's value; null clears it. Each case is spelled out.
        func leaf(_ id: String, _ test: Condition, given: JSON) -> JSON {
            let field = form.field(id)
            let documentValue = field.flatMap { f in f.valueField.flatMap { f.model[$0] } }
            func holds(_ v: Value?) -> Bool { test.holds { $0 == id ? v : nil } }
            var cases: [JSON] = [.object([("required", .array([.string(id)])), ("properties", .object([(id, given)]))])]
            if holds(nil) { cases.append(.object([("required", .array([.string(id)])), ("properties", .object([(id, nullOnly)]))])) }
            if holds(documentValue) { cases.append(.object([("not", .object([("required", .array([.string(id)]))]))])) }
            return cases.count == 1 ? cases[0] : .object([("anyOf", .array(cases))])
        }
        /// The value's JSON as a values file writes it for field `id` (a labelled choice keeps its type).
        func json(_ v: Value, for id: String) -> JSON {
            if case .string(let s) = v, let choice = form.field(id)?.labelledChoices[s] { return choice.json }
            return Condition.valueJSON(v)
        }
        // Dates are numbers (seconds) in conditions but text in values files: not expressed; nor a field of an
        // object (its value is not a property of the values object itself).
        for id in c.fields {
            if id.utf8.contains(0x2E) { return nil }
            if let f = form.field(id), f.valueField.flatMap({ f.cell.field(named: $0)?.type }) == .date { return nil }
        }
        switch c {
        case .literal(let v): return .bool(Condition.truthy(v))
        case .list(let items): return .bool(!items.isEmpty)
        case .field(let id):
            let falsy = JSON.object([
                (
                    "anyOf",
                    .array([
                        .object([("const", .bool(false))]), .object([("const", .string(""))]), .object([("const", .integer(0))]),
                        .object([("type", .string("array")), ("maxItems", .integer(0))]),
                    ])
                )
            ])
            return leaf(id, c, given: .object([("not", falsy)]))
        case .not(let inner): return predicate(inner, form).map { .object([("not", $0)]) }
        case .and(let a, let b):
            guard let x = predicate(a, form), let y = predicate(b, form) else { return nil }
            return .object([("allOf", .array([x, y]))])
        case .or(let a, let b):
            guard let x = predicate(a, form), let y = predicate(b, form) else { return nil }
            return .object([("anyOf", .array([x, y]))])
        case .isEmpty(.field(let id)):
            return leaf(
                id, c,
                given: .object([
                    (
                        "anyOf",
                        .array([.object([("const", .string(""))]), .object([("type", .string("array")), ("maxItems", .integer(0))])])
                    )
                ]))
        case .isIn(.field(let id), .list(let items)):
            return leaf(id, c, given: .object([("enum", .array(items.map { json($0, for: id) }))]))
        case .isIn(.literal(let v?), .field(let id)):
            return leaf(id, c, given: .object([("type", .string("array")), ("contains", .object([("const", json(v, for: id))]))]))
        case .compare(let a, let op, let b):
            var op = op
            let id: String, v: Value?
            if case .field(let x) = a, case .literal(let y) = b {
                (id, v) = (x, y)
            } else if case .field(let x) = b, case .literal(let y) = a {
                (id, v) = (x, y)
                op = [.less: .greater, .lessOrEqual: .greaterOrEqual, .greater: .less, .greaterOrEqual: .lessOrEqual][op] ?? op
            } else {
                return nil
            }
            switch op {
            case .equal, .notEqual:
                let equal = v.map { JSON.object([("const", json($0, for: id))]) } ?? .bool(false)
                return leaf(id, c, given: op == .equal ? equal : .object([("not", equal)]))
            default:
                guard let d = Condition.number(v) else { return nil }
                let key = ["<": "exclusiveMaximum", "<=": "maximum", ">": "exclusiveMinimum", ">=": "minimum"][op.rawValue]!
                return leaf(id, c, given: .object([("type", .string("number")), (key, .number(d))]))
            }
        default: return nil
        }
    }

    static func value(_ f: FieldSchema, field: FormField) -> JSON {
        var members: [(String, JSON?)] = [("title", .string(titleOf(field) ?? field.id))]
        let rules = field.rules
        func intJSON(_ i: Int) -> JSON { .integer(Int64(i)) }
        switch f.type {
        case .string, .text:
            var options: [String]?
            if let o = f.optionsField, case .stringList(let items)? = field.model[o] { options = items }
            if let options {
                members.append(("enum", .array(options.map { field.labelledChoices[$0]?.json ?? .string($0) })))
            } else {
                members.append(("type", .string("string")))
            }
            members.append(("minLength", (rules.minLength?.value ?? f.minLength).map(intJSON)))
            let maxLength = [rules.maxLength?.value, f.maxLength].compactMap { $0 }.min()
            members.append(("maxLength", maxLength.map(intJSON)))
            var pattern: String? = f.type == .string ? "^[^\\n]*$" : nil
            if let p = rules.pattern?.value { pattern = "^(?:\(p))$" }
            switch rules.format?.value {
            case .email?: members.append(("format", .string("email")))
            case .url?:
                members.append(("format", .string("uri")))
                if rules.pattern == nil { pattern = "^https?://[^/\\s]+[^\\s]*$" }
            case .date?: members.append(("format", .string("date")))
            case .uuid?: members.append(("format", .string("uuid")))
            case .uri?:
                members.append(("format", .string("uri")))
                if rules.pattern == nil { pattern = "^[A-Za-z][A-Za-z0-9+.\\-]*:[^\\s]+$" }
            case .time?:
                // JSON Schema's "time" needs seconds and a zone; a time input posts neither.
                if rules.pattern == nil { pattern = "^(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?$" }
            case .tel?:
                if rules.pattern == nil { pattern = "^(?=(?:[^0-9]*[0-9]){3})[0-9 +\\-().]+$" }
            case nil: break
            }
            members.append(("pattern", pattern.map(JSON.string)))
            if let upload = rules.upload {
                // The value names a file: a path in a values file, the file's name in a stored submission.
                members.append(
                    ("description", .string("A file (\(upload.summary)): a path to it in a values file; its name in a stored submission.")))
                members.append(("x-formwork-file", upload.json))
            }
        case .bool:
            members.append(("type", .string("boolean")))
        case .integer, .number:
            members.append(("type", .string(f.type == .integer ? "integer" : "number")))
            let minimum = [rules.minimum?.value, f.minimum].compactMap { $0 }.max()
            let maximum = [rules.maximum?.value, f.maximum].compactMap { $0 }.min()
            // The pack's bound is the tighter one when it is exclusive and not below the document's.
            let minimumExcluded = f.exclusiveMinimum && f.minimum != nil && f.minimum == minimum
            let maximumExcluded = f.exclusiveMaximum && f.maximum != nil && f.maximum == maximum
            members.append((minimumExcluded ? "exclusiveMinimum" : "minimum", minimum.map(JSON.number)))
            members.append((maximumExcluded ? "exclusiveMaximum" : "maximum", maximum.map(JSON.number)))
            if let step = rules.step?.value, (rules.minimum?.value ?? 0) == 0 {
                members.append(("multipleOf", .number(step)))
            } else if let step = f.step, (f.minimum ?? 0) == 0 {
                members.append(("multipleOf", .number(step)))
            }
        case .date:
            members.append(("type", .string("string")))
            members.append(
                ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+-][0-9]{2}:[0-9]{2})?)?$")))
        case .choice:
            members.append(("enum", .array(f.choices.map { .string($0.value) })))
        case .stringList, .choiceList:
            var items: JSON = .object([("type", .string("string"))])
            if f.type == .choiceList { items = .object([("enum", .array(f.choices.map { .string($0.value) }))]) }
            if let o = f.optionsField, case .stringList(let options)? = field.model[o] {
                items = .object([("enum", .array(options.map { field.labelledChoices[$0]?.json ?? .string($0) }))])
            }
            members.append(("type", .string("array")))
            members.append(("items", items))
            if f.type == .choiceList { members.append(("uniqueItems", .bool(true))) }
            let minItems = [rules.minItems?.value, f.minLength].compactMap { $0 }.max()
            let maxItems = [rules.maxItems?.value, f.maxLength].compactMap { $0 }.min()
            members.append(("minItems", minItems.map(intJSON)))
            members.append(("maxItems", maxItems.map(intJSON)))
        }
        let schema = JSON.object(members)
        // A field that is not required may be cleared with null.
        return field.required ? schema : .object([("anyOf", .array([schema, .object([("type", .string("null"))])]))])
    }

    static func titleOf(_ field: FormField) -> String? {
        field.cell.roles.title.flatMap { if case .string(let s)? = field.model[$0] { s } else { nil } }
    }
}
