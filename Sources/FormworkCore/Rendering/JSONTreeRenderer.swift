/// The view tree as JSON; the format is documented in docs/view-tree.md.
package enum JSONTreeRenderer {
    static func render(_ tree: ViewTree, sections: Bool = true) -> JSON {
        .object([
            ("formwork", .integer(1)),
            (
                "form",
                .object([
                    ("id", .string(tree.formID)), ("title", tree.title.map(JSON.string)),
                    ("description", tree.description.map(JSON.string)),
                ])
            ),
            (
                "pages",
                tree.pages.isEmpty
                    ? nil
                    : .array(
                        tree.pages.map { page in
                            .object([
                                ("id", .string(page.id)), ("title", page.title.map(JSON.string)),
                                ("sections", .array(tree.sections[page.sections].map { .string($0.id) })),
                            ])
                        })
            ),
            ("sections", sections ? .array(tree.sections.map(section)) : nil),
        ])
    }

    /// The tree as JSON text with a final newline. Each section is built and written on its own (on several
    /// cores for a large form) and only its bytes are kept: the whole tree is never held as JSON values.
    static func text(_ tree: ViewTree) -> String {
        var out = JSONBytes(capacity: 1 << 16)
        write(tree) { out.append($0) }
        return out.string
    }

    /// `text`, written to `sink` a section at a time.
    static func write(_ tree: ViewTree, to sink: (UnsafeRawBufferPointer) -> Void) {
        let parallel = tree.sections.count > 1 && tree.sections.reduce(0) { $0 + $1.fields.count } >= 2000
        render(tree, sections: false).writeLine(
            appending: "sections", count: tree.sections.count, parallel: parallel, item: { section(tree.sections[$0]) }, to: sink)
    }

    static func section(_ section: SectionView) -> JSON {
        JSON.object([
            ("id", .string(section.id)), ("header", section.header.map(JSON.string)),
            ("footer", section.footer.map(JSON.string)),
            (
                "insets",
                section.insets.map { i in
                    .object([
                        ("top", .number(i.top)), ("left", .number(i.left)), ("bottom", .number(i.bottom)),
                        ("right", .number(i.right)),
                    ])
                }
            ),
            ("spacing", section.spacing.map(JSON.number)),
            ("visibleIf", section.conditions.visibleIf.map { .string($0.text) }),
            ("enabledIf", section.conditions.enabledIf.map { .string($0.text) }),
            ("visible", section.visible ? nil : .bool(false)),
            (
                "repeat",
                section.repeatGroup.map { g in
                    .object([
                        ("minItems", .integer(Int64(g.minItems))), ("maxItems", .integer(Int64(g.maxItems))),
                        ("itemLabel", .string(g.itemLabel)),
                    ])
                }
            ),
            (
                "fields",
                .array(
                    {
                        var traits = TraitsCache()
                        return section.fields.map { field($0, traits: &traits) }
                    }())
            ),
        ])

    }

    /// The JSON of the last few trait sets met (a form's fields share their cell types' traits; building
    /// the object key by key for each field was a fifth of a JSON render).
    struct TraitsCache {
        private var entries: [(traits: TextInputTraits, json: JSON)] = []
        mutating func json(_ traits: TextInputTraits) -> JSON {
            if let hit = entries.first(where: { $0.traits == traits }) { return hit.json }
            let json = TraitKey.json(traits)
            if entries.count == 8 { entries.removeFirst() }
            entries.append((traits, json))
            return json
        }
    }

    static func field(_ f: FieldView) -> JSON {
        var traits = TraitsCache()
        return field(f, traits: &traits)
    }

    static func field(_ f: FieldView, traits cache: inout TraitsCache) -> JSON {
        .object([
            ("id", .string(f.id)), ("cell", .string(f.cell)), ("accessibilityId", .string(f.accessibilityId)),
            ("required", .bool(f.required)),
            (
                "textInput",
                f.textInput.kind == .none
                    ? nil
                    : .object([
                        ("kind", .string(f.textInput.kind.rawValue)), ("field", f.textInput.field.map(JSON.string)),
                        ("traits", cache.json(f.textInput.traits)),
                    ])
            ),
            ("minimum", f.minimum.map { .string(DateFormat.iso8601($0)) }),
            ("maximum", f.maximum.map { .string(DateFormat.iso8601($0)) }),
            ("maxLength", f.maxLength.map { .integer(Int64($0)) }),
            ("rules", f.rules.isEmpty ? nil : f.rules.json),
            // Conditions (as written) and the state they give for the values rendered; absent when the field has none.
            ("visibleIf", f.conditions.visibleIf.map { .string($0.text) }),
            ("enabledIf", f.conditions.enabledIf.map { .string($0.text) }),
            ("requiredIf", f.conditions.requiredIf.map { .string($0.text) }),
            ("visible", f.visible ? nil : .bool(false)),
            ("enabled", f.enabled ? nil : .bool(false)),
            ("item", f.item.map { .integer(Int64($0.index)) }),
            (
                "crossRules",
                f.crossRules.isEmpty
                    ? nil
                    : .array(
                        f.crossRules.map { rule in
                            switch rule {
                            case .equals(let other, let message):
                                .object([("equals", .string(other)), ("message", message.map(JSON.string))])
                            case .expression(let source, let message):
                                .object([("expression", .string(source.text)), ("message", message.map(JSON.string))])
                            }
                        })
            ),
            ("views", .array(f.nodes.map(node))),
        ])
    }

    static func control(_ type: String, _ c: Control, _ extra: [(String, JSON?)]) -> JSON {
        .object(
            [("type", .string(type)), ("id", .string(c.id)), ("field", c.field.map(JSON.string)), ("label", c.label.map(JSON.string))]
                + extra
                + [
                    ("disabled", c.disabled ? .bool(true) : nil), ("required", c.required ? .bool(true) : nil),
                    ("multiline", c.multiline ? .bool(true) : nil),
                ])
    }

    package static func node(_ n: ViewNode) -> JSON {
        switch n {
        case .group(let role, let title, let children):
            .object([
                ("type", .string("group")), ("role", .string(role)), ("title", title.map(JSON.string)),
                ("children", .array(children.map(node))),
            ])
        case .label(let text, let style):
            .object([("type", .string("label")), ("text", .string(text)), ("style", .string(style.rawValue))])
        case .value(let label, let text):
            .object([("type", .string("value")), ("label", .string(label)), ("text", .string(text))])
        case .textInput(let c, let text, let placeholder):
            control("textInput", c, [("text", text.map(JSON.string)), ("placeholder", placeholder.map(JSON.string))])
        case .toggle(let c, let isOn):
            control("toggle", c, [("on", .bool(isOn))])
        case .button(let c, let role):
            control("button", c, [("role", .string(role.rawValue))])
        case .choice(let c, let choices, let selected, let style):
            control(
                "choice", c,
                [
                    ("style", .string(style.rawValue)),
                    ("choices", .array(choices.map { .object([("value", .string($0.value)), ("label", .string($0.label))]) })),
                    ("selected", selected.map(JSON.string)),
                ])
        case .date(let c, let seconds, let mode):
            control("date", c, [("mode", .string(mode.rawValue)), ("value", seconds.map { .string(DateFormat.iso8601($0)) })])
        case .message(let kind, let text):
            .object([("type", .string("message")), ("kind", .string(kind.rawValue)), ("text", .string(text))])
        case .number(let c, let value, let minimum, let maximum, let step, let style):
            control(
                "number", c,
                [
                    ("style", .string(style.rawValue)), ("value", value.map(JSON.number)),
                    ("minimum", minimum.map(JSON.number)), ("maximum", maximum.map(JSON.number)),
                    ("step", step.map(JSON.number)),
                ])
        case .multiChoice(let c, let choices, let selected, let style):
            control(
                "multiChoice", c,
                [
                    ("style", .string(style.rawValue)),
                    ("choices", .array(choices.map { .object([("value", .string($0.value)), ("label", .string($0.label))]) })),
                    ("selected", .array(selected.map(JSON.string))),
                ])
        }
    }
}
