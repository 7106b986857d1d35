/// A JSON Schema (draft 2020-12) for form documents, generated from the
/// installed cell types: each field's `model` is checked against its cell's
/// schema and its `textInput` against the cell's text-input kind. Editors use it
/// for completion and inline errors; `formwork validate` remains the authority
/// (it also checks cross-field rules such as unique ids and picker options).
package enum DocumentSchema {
    package static func generate(_ registry: some CellTypeCatalog) -> JSON {
        let cells = registry.cellTypes
        var defs: [(String, JSON)] = [
            (
                "identifier",
                .object([("type", .string("string")), ("pattern", .string("^[A-Za-z][A-Za-z0-9_-]*$")), ("maxLength", .integer(128))])
            ),
            // Identifiers joined by dots: a field of an object (`billing.address.city`), and an object inside objects
            // (`billing.address`, at most FormDecoder.maxObjectDepth deep).
            (
                "path",
                .object([
                    ("type", .string("string")),
                    ("pattern", .string("^[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z][A-Za-z0-9_-]*){0,\(FormDecoder.maxObjectDepth)}$")),
                ])
            ),
            (
                "objectPath",
                .object([
                    ("type", .string("string")),
                    ("pattern", .string("^[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z][A-Za-z0-9_-]*){0,\(FormDecoder.maxObjectDepth - 1)}$")),
                ])
            ),
            (
                "date",
                .object([
                    (
                        "anyOf",
                        .array([
                            .object([
                                ("type", .string("string")),
                                (
                                    "pattern",
                                    .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+-][0-9]{2}:[0-9]{2})?)?$")
                                ),
                            ]),
                            .object([("type", .string("number"))]),
                        ])
                    )
                ])
            ),
            (
                "insets",
                .object([
                    (
                        "anyOf",
                        .array([
                            .object([("type", .string("number")), ("minimum", .integer(0))]),
                            .object([
                                ("type", .string("object")), ("additionalProperties", .bool(false)),
                                (
                                    "properties",
                                    .object(
                                        ["top", "left", "bottom", "right"].map {
                                            ($0, .object([("type", .string("number")), ("minimum", .integer(0))]))
                                        })
                                ),
                            ]),
                        ])
                    )
                ])
            ),
            (
                "accessibilityId",
                .object([
                    (
                        "anyOf",
                        .array([
                            ref("identifier"),
                            .object([
                                ("type", .string("object")), ("additionalProperties", .bool(false)),
                                (
                                    "properties",
                                    .object([
                                        ("id", ref("identifier")),
                                        (
                                            "suffix",
                                            .object([
                                                ("type", .string("array")),
                                                ("items", .object([("enum", .array([.string("section"), .string("row")]))])),
                                            ])
                                        ),
                                    ])
                                ),
                            ]),
                        ])
                    )
                ])
            ),
            (
                "section",
                .object([
                    ("type", .string("object")), ("additionalProperties", .bool(false)),
                    ("required", .array([.string("id"), .string("fields")])),
                    (
                        "properties",
                        .object([
                            ("id", ref("identifier")), ("header", string), ("footer", string), ("insets", ref("insets")),
                            ("spacing", .object([("type", .string("number")), ("minimum", .integer(0))])),
                            ("fields", .object([("type", .string("array")), ("items", ref("field"))])),
                            ("visibleIf", ref("condition")), ("enabledIf", ref("condition")),
                            ("repeat", repeatSchema),
                            (
                                "object",
                                .object([
                                    ("$ref", .string("#/$defs/objectPath")),
                                    (
                                        "description",
                                        .string(
                                            "The key the section's values nest under: {\"address\": {\"city\": …}}; billing.address for an object inside an object."
                                        )
                                    ),
                                ])
                            ),
                        ])
                    ),
                ])
            ),
            (
                "page",
                .object([
                    ("type", .string("object")), ("additionalProperties", .bool(false)),
                    ("required", .array([.string("id"), .string("sections")])),
                    (
                        "properties",
                        .object([
                            ("id", ref("identifier")), ("title", string),
                            ("sections", .object([("type", .string("array")), ("minItems", .integer(1)), ("items", ref("section"))])),
                            ("visibleIf", ref("condition")),
                        ])
                    ),
                ])
            ),
            (
                "condition",
                .object([
                    ("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(2000)),
                    (
                        "description",
                        .string("An expression over other fields' values (docs/forms.md, 'Conditions'), e.g. \"country == 'NL'\".")
                    ),
                ])
            ),
            ("field", .object([("oneOf", .array(cells.map { ref("cell:" + $0.id) }))])),
            ("rules", rulesSchema),
        ]
        for cell in cells { defs.append(("cell:" + cell.id, field(cell))) }
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("Formwork form document")),
            ("description", .string("Generated by `formwork schema` from the installed cell types (\(cells.count)).")),
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("required", .array([.string("formwork"), .string("id")])),
            // Sections, or pages of sections: one or the other.
            (
                "oneOf",
                .array([
                    .object([("required", .array([.string("sections")])), ("not", .object([("required", .array([.string("pages")]))]))]),
                    .object([("required", .array([.string("pages")])), ("not", .object([("required", .array([.string("sections")]))]))]),
                ])
            ),
            (
                "properties",
                .object([
                    ("formwork", .object([("const", .integer(1))])), ("id", ref("identifier")),
                    ("title", string), ("description", string),
                    // The document's language, and its texts' translations into others (docs/forms.md, Translations).
                    ("language", languageTag),
                    (
                        "translations",
                        .object([
                            ("type", .string("object")), ("propertyNames", languageTag),
                            (
                                "additionalProperties",
                                .object([("type", .string("object")), ("additionalProperties", .object([("type", .string("string"))]))])
                            ),
                        ])
                    ),
                    ("sections", .object([("type", .string("array")), ("minItems", .integer(1)), ("items", ref("section"))])),
                    ("pages", .object([("type", .string("array")), ("minItems", .integer(1)), ("items", ref("page"))])),
                    // Fields earlier revisions had, whose stored answers are dropped, or kept under `keepAs`.
                    (
                        "removed",
                        .object([
                            ("type", .string("array")),
                            (
                                "items",
                                .object([
                                    (
                                        "anyOf",
                                        .array([
                                            ref("path"),
                                            .object([
                                                ("type", .string("object")), ("additionalProperties", .bool(false)),
                                                ("required", .array([.string("id")])),
                                                ("properties", .object([("id", ref("path")), ("keepAs", ref("identifier"))])),
                                            ]),
                                        ])
                                    )
                                ])
                            ),
                        ])
                    ),
                ])
            ),
            ("$defs", .object(defs)),
        ])
    }

    static var string: JSON { .object([("type", .string("string"))]) }
    /// A BCP 47 language tag as the decoder takes it (`LanguageTag.normalized`): `fr`, `pt-BR`, `zh-Hant-TW`.
    static var languageTag: JSON {
        .object([("type", .string("string")), ("pattern", .string("^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")), ("maxLength", .integer(35))])
    }

    /// `repeat:` of a section: `true`, or `{ minItems, maxItems, itemLabel }`.
    static var repeatSchema: JSON {
        let minItems = JSON.object([("type", .string("integer")), ("minimum", .integer(0)), ("maximum", .integer(1000))])
        let maxItems = JSON.object([("type", .string("integer")), ("minimum", .integer(1)), ("maximum", .integer(1000))])
        let object = JSON.object([
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("properties", .object([("minItems", minItems), ("maxItems", maxItems), ("itemLabel", string)])),
        ])
        return .object([("anyOf", .array([.object([("const", .bool(true))]), object]))])
    }

    /// `rules:` of a field: each rule a value or `{ value, message }` (FieldRules).
    static var rulesSchema: JSON {
        func rule(_ value: JSON) -> JSON {
            .object([
                (
                    "anyOf",
                    .array([
                        value,
                        .object([
                            ("type", .string("object")), ("additionalProperties", .bool(false)), ("required", .array([.string("value")])),
                            ("properties", .object([("value", value), ("message", .object([("type", .string("string"))]))])),
                        ]),
                    ])
                )
            ])
        }
        let count = JSON.object([("type", .string("integer")), ("minimum", .integer(0)), ("maximum", .integer(1_000_000))])
        let number = JSON.object([("type", .string("number"))])
        return .object([
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            (
                "properties",
                .object([
                    ("required", string), ("minLength", rule(count)), ("maxLength", rule(count)),
                    ("pattern", rule(.object([("type", .string("string")), ("minLength", .integer(1)), ("maxLength", .integer(500))]))),
                    ("format", rule(.object([("enum", .array(FieldRules.Format.allCases.map { .string($0.rawValue) }))]))),
                    ("minimum", rule(number)), ("maximum", rule(number)),
                    ("step", rule(.object([("type", .string("number")), ("exclusiveMinimum", .integer(0))]))),
                    ("minItems", rule(count)), ("maxItems", rule(count)),
                    ("equals", rule(ref("identifier"))), ("expression", rule(ref("condition"))),
                ])
            ),
        ])
    }

    static func ref(_ name: String) -> JSON {
        .object([("$ref", .string("#/$defs/" + Pointer.escape(name)))])
    }

    static func field(_ cell: CellType) -> JSON {
        // The list a value is chosen from may come from a pack instead (`choicesFrom`): not required here.
        let choicesField = cell.roles.value.flatMap { cell.field(named: $0)?.optionsField }
        let required = cell.fields.filter { $0.required && $0.defaultValue == nil && $0.name != choicesField }.map { JSON.string($0.name) }
        var model: [(String, JSON?)] = [
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            (
                "properties",
                .object(
                    cell.fields.map { f in
                        // An options list may hold { value, label } choices.
                        (f.name, cell.fields.contains { $0.optionsField == f.name } ? optionsValue(f) : value(f))
                    })
            ),
        ]
        model.append(("required", required.isEmpty ? nil : .array(required)))
        var properties: [(String, JSON)] = [
            ("id", ref("identifier")), ("cell", .object([("const", .string(cell.id))])),
            ("model", .object(model)), ("accessibilityId", ref("accessibilityId")),
            ("required", .object([("type", .string("boolean"))])),
            ("rules", ref("rules")),
            ("visibleIf", ref("condition")), ("enabledIf", ref("condition")), ("requiredIf", ref("condition")),
            // A computed value: an expression over other fields (docs/forms.md, Computed values).
            ("value", ref("condition")),
            // Never shown, submitted with the document's value (docs/forms.md, A field).
            ("hidden", .object([("type", .string("boolean"))])),
            // Shown, never edited, submitted with the document's value (docs/forms.md, A field).
            ("readOnly", .object([("type", .string("boolean"))])),
            // The field takes a file (docs/forms.md, Files).
            (
                "file",
                .object([
                    (
                        "anyOf",
                        .array([
                            .object([("type", .string("boolean"))]),
                            .object([
                                ("type", .string("object")), ("additionalProperties", .bool(false)),
                                (
                                    "properties",
                                    .object([
                                        (
                                            "accept",
                                            .object([
                                                ("type", .string("array")),
                                                (
                                                    "items",
                                                    .object([
                                                        ("enum", .array((FileUpload.knownTypes.map(\.type) + ["image/*"]).map(JSON.string)))
                                                    ])
                                                ),
                                            ])
                                        ),
                                        (
                                            "maxBytes",
                                            .object([
                                                ("type", .string("integer")), ("minimum", .integer(1)),
                                                ("maximum", .integer(Int64(FileUpload.largestMaxBytes))),
                                            ])
                                        ),
                                    ])
                                ),
                            ]),
                        ])
                    )
                ])
            ),
            // The id (or ids) this field's answers were stored under in earlier revisions (docs/format.md, Revisions).
            (
                "renamedFrom",
                .object([
                    (
                        "anyOf",
                        .array([
                            ref("path"),
                            .object([("type", .string("array")), ("minItems", .integer(1)), ("items", ref("path"))]),
                        ])
                    )
                ])
            ),
        ]
        if choicesField != nil {
            // ABI 1.2: the choices come from a pack's source (docs/forms.md, Choices from a pack).
            properties.append(
                ("choicesFrom", .object([("type", .string("string")), ("pattern", .string("^[A-Za-z0-9_.-]+/[A-Za-z][A-Za-z0-9_.-]*$"))])))
        }
        let traits = TraitKey.all.filter { $0.kinds.contains(cell.textInput.kind) }
        if !traits.isEmpty {
            properties.append(
                (
                    "textInput",
                    .object([
                        ("type", .string("object")), ("additionalProperties", .bool(false)),
                        ("properties", .object(traits.map { ($0.name, $0.jsonSchema) })),
                    ])
                ))
        }
        let requiresModel = !required.isEmpty
        return .object([
            ("title", .string(cell.name)), ("description", cell.summary.map(JSON.string)),
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("required", .array([.string("id"), .string("cell")] + (requiresModel ? [.string("model")] : []))),
            ("properties", .object(properties)),
        ])
    }

    /// A string-list field that serves as another field's options: strings, integers, booleans or `{ value, label }`.
    static func optionsValue(_ f: FieldSchema) -> JSON {
        let scalar = JSON.object([("type", .array([.string("string"), .string("integer"), .string("boolean")]))])
        let labelled = JSON.object([
            ("type", .string("object")), ("additionalProperties", .bool(false)), ("required", .array([.string("value")])),
            ("properties", .object([("value", scalar), ("label", string)])),
        ])
        return .object([
            ("description", f.doc.map(JSON.string)), ("type", .string("array")),
            ("items", .object([("anyOf", .array([scalar, labelled]))])),
            ("minItems", f.minLength.map { .integer(Int64($0)) }), ("maxItems", f.maxLength.map { .integer(Int64($0)) }),
        ])
    }

    static func value(_ f: FieldSchema) -> JSON {
        var members: [(String, JSON?)] = [("description", f.doc.map(JSON.string))]
        switch f.type {
        case .string, .text:
            members += [
                ("type", .string("string")), ("minLength", f.minLength.map { .integer(Int64($0)) }),
                ("maxLength", f.maxLength.map { .integer(Int64($0)) }),
            ]
            if f.type == .string { members.append(("pattern", .string("^[^\\n]*$"))) }
        case .bool: members.append(("type", .string("boolean")))
        case .integer, .number:
            // JSON Schema 2020-12: an exclusive bound is `exclusiveMinimum: m`, not a flag.
            members += [
                ("type", .string(f.type == .integer ? "integer" : "number")),
                (f.exclusiveMinimum ? "exclusiveMinimum" : "minimum", f.minimum.map(f.boundJSON)),
                (f.exclusiveMaximum ? "exclusiveMaximum" : "maximum", f.maximum.map(f.boundJSON)),
                // multipleOf counts from 0: a step from another minimum is checked by `validate` alone.
                ("multipleOf", f.step.flatMap { (f.minimum ?? 0) == 0 ? f.boundJSON($0) : nil }),
            ]
        case .date: members.append(("$ref", .string("#/$defs/date")))
        case .choice: members.append(("enum", .array(f.choices.map { .string($0.value) })))
        case .stringList:
            members += [
                ("type", .string("array")), ("items", string),
                ("minItems", f.minLength.map { .integer(Int64($0)) }), ("maxItems", f.maxLength.map { .integer(Int64($0)) }),
            ]
        case .choiceList:
            members += [
                ("type", .string("array")), ("items", .object([("enum", .array(f.choices.map { .string($0.value) }))])),
                ("uniqueItems", .bool(true)),
                ("minItems", f.minLength.map { .integer(Int64($0)) }), ("maxItems", f.maxLength.map { .integer(Int64($0)) }),
            ]
        }
        members.append(("default", f.defaultValue.map { $0.json(as: f.type) }))
        return .object(members)
    }
}
