/// The view tree as JSON; the format is documented in docs/view-tree.md.
///
/// The sections are written as text as they are laid out (`JSONTextWriter`), not built as `JSON`
/// values first: a 100,000-field form made some twenty small arrays and boxes per field that way.
package enum JSONTreeRenderer {
    /// The form's members before its sections.
    static func header(_ tree: ViewTree) -> JSON {
        .object([
            ("formwork", .integer(1)),
            (
                "form",
                .object([
                    ("id", .string(tree.formID)), ("title", tree.title.map(JSON.string)),
                    ("description", tree.description.map(JSON.string)),
                    ("language", .string(tree.language)),
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
        ])
    }

    /// The tree as JSON text with a final newline. Each section is written on its own (on several
    /// cores for a large form) and only its bytes are kept: the whole tree is never held as JSON values.
    static func text(_ tree: ViewTree) -> String {
        var out = JSONBytes(capacity: 1 << 16)
        write(tree) { out.append($0) }
        return out.string
    }

    /// `text`, written to `sink` a section at a time, or a large section a run of fields at a time.
    /// (`splitting` false writes every section whole: what a split section's pieces must add up to.)
    static func write(_ tree: ViewTree, splitting: Bool = true, to sink: (UnsafeRawBufferPointer) -> Void) {
        let fields = tree.sections.reduce(0) { $0 + $1.fields.count }
        var pieces = SectionPieces.plan(tree, splitting: splitting)
        // A split section's text before its first field (up to its `"fields": [`) and after its last: those of the
        // section written without fields, whose `[]` ends it.
        var ends: [Int: (head: JSONBytes, tail: JSONBytes)] = [:]
        for piece in pieces where piece.first && !piece.last {
            var empty = tree.sections[piece.section]
            empty.fields = []
            var w = JSONTextWriter(depth: 2)
            section(empty, to: &w)
            guard let (head, tail) = splitAtFields(w.out) else {
                pieces = SectionPieces.plan(tree, splitting: false)
                ends = [:]
                break
            }
            ends[piece.section] = (head, tail)
        }
        let parallel = SectionPieces.parallel(pieces, fields: fields)
        // Each slot of the stream's window writes its pieces into one buffer, emptied for each: a fresh
        // buffer per section touched fresh memory for all of the output (a page fault per 4 KB: 1,500 of them
        // for the JSON of 10,000 fields). Two pieces per thread keep both cores busy; more when they are small.
        let perThread = Parallel.perThread(pieces.count, weight: fields, minimum: 2)
        let largest = pieces.reduce(0) { max($0, $1.fields.count) }
        let buffers = (0..<min(Parallel.streamWindow(worthIt: parallel, perThread: perThread), pieces.count)).map { _ in
            ByteBuffer(capacity: 1 << 12 + largest * 1024)
        }
        // A section is the third level of the document: { "sections": [ { … } ] }.
        header(tree).writeLine(
            appending: "sections", count: pieces.count, parallel: parallel, perThread: perThread, continues: { !pieces[$0].first },
            item: { index in
                let piece = pieces[index]
                guard let (head, tail) = ends[piece.section] else {
                    var w = JSONTextWriter(reusing: buffers[index % buffers.count], depth: 2)
                    section(tree.sections[piece.section], to: &w)
                    return w.out
                }
                // The fields list's items are at the fourth level, the list itself at the third.
                var w = JSONTextWriter(reusing: buffers[index % buffers.count], depth: 3)
                if piece.first { w.out.append(head) }
                w.resume(afterItems: piece.fields.lowerBound)
                fieldItems(of: tree.sections[piece.section], piece.fields, to: &w)
                if piece.last { w.out.append(tail) }
                return w.out
            }, to: sink)
    }

    /// The text of a section written without fields, cut around its fields list: up to its `[` (the list's
    /// items follow), and from the list's closing on, for a list that has items. Nil when it does not end
    /// with its fields list, `[]` and the object's end.
    static func splitAtFields(_ text: JSONBytes) -> (head: JSONBytes, tail: JSONBytes)? {
        var end = JSONBytes(capacity: 16)
        end.append("[]")
        end.newline(2)
        end.byte(0x7D)
        let whole = text.string, ending = end.string
        guard whole.hasSuffix(ending) else { return nil }
        var head = JSONBytes(capacity: whole.utf8.count)
        head.append(String(whole.dropLast(ending.count - 1)))
        var tail = JSONBytes(capacity: 16)
        tail.newline(2 + 1)
        tail.append(String(ending.dropFirst(1)))
        return (head, tail)
    }

    static func section(_ section: SectionView, to w: inout JSONTextWriter) {
        w.object { w in
            w.member("id", section.id)
            w.member("header", section.header)
            w.member("footer", section.footer)
            if let i = section.insets {
                w.member("insets") { w in
                    w.object { w in
                        w.member("top", number: i.top)
                        w.member("left", number: i.left)
                        w.member("bottom", number: i.bottom)
                        w.member("right", number: i.right)
                    }
                }
            }
            w.member("spacing", number: section.spacing)
            w.member("visibleIf", section.conditions.visibleIf?.text)
            w.member("enabledIf", section.conditions.enabledIf?.text)
            w.member("visible", bool: section.visible ? nil : false)
            w.member("object", section.object)
            if let g = section.repeatGroup {
                w.member("repeat") { w in
                    w.object { w in
                        w.member("minItems", integer: Int64(g.minItems))
                        w.member("maxItems", integer: Int64(g.maxItems))
                        w.member("itemLabel", g.itemLabel)
                    }
                }
            }
            // Last, so that a large section can be written in pieces (`write`).
            w.member("fields") { w in w.array { w in fieldItems(of: section, section.fields.indices, to: &w) } }
        }
    }

    /// The items of `section`'s fields list in `rows`.
    static func fieldItems(of section: SectionView, _ rows: Range<Int>, to w: inout JSONTextWriter) {
        var traits = TraitsCache()
        // Through the buffer: each field is borrowed, not copied.
        section.fields.withUnsafeBufferPointer { fields in
            // By pointer: `for f in fields`, or `fields[i]` handed to a closure, copies each field (a dozen retains).
            let base = fields.baseAddress
            for i in rows { w.item { field(base.unsafelyUnwrapped + i, traits: &traits, to: &$0) } }
        }
    }

    /// The JSON of the last few trait sets met (a form's fields share their cell types' traits; building
    /// the object key by key for each field would repeat the same work for every field).
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

    /// One field, read in place (`field` points into its section's array).
    static func field(_ field: UnsafePointer<FieldView>, traits cache: inout TraitsCache, to w: inout JSONTextWriter) {
        w.object { w in
            w.member("id", field.pointee.id)
            w.member("cell", field.pointee.cell)
            w.member("accessibilityId", field.pointee.accessibilityId)
            w.member("required", bool: field.pointee.required)
            if field.pointee.textInput.kind != .none {
                w.member("textInput") { w in
                    w.object { w in
                        w.member("kind", field.pointee.textInput.kind.rawValue)
                        w.member("field", field.pointee.textInput.field)
                        w.member("traits", json: cache.json(field.pointee.textInput.traits))
                    }
                }
            }
            w.member("minimum", field.pointee.minimum.map { DateFormat.iso8601($0) })
            w.member("maximum", field.pointee.maximum.map { DateFormat.iso8601($0) })
            w.member("maxLength", integer: field.pointee.maxLength.map { Int64($0) })
            if !field.pointee.rules.isEmpty, case .object(let rules) = field.pointee.rules.json, !rules.isEmpty {
                w.member("rules", json: .object(rules))
            }
            if let upload = field.pointee.rules.upload { w.member("file", json: upload.json) }
            // Conditions (as written) and the state they give for the values rendered; absent when the field has none.
            w.member("visibleIf", field.pointee.conditions.visibleIf?.text)
            w.member("enabledIf", field.pointee.conditions.enabledIf?.text)
            w.member("requiredIf", field.pointee.conditions.requiredIf?.text)
            w.member("computed", field.pointee.conditions.value?.text)
            w.member("hidden", bool: field.pointee.conditions.hidden ? true : nil)
            w.member("readOnly", bool: field.pointee.conditions.readOnly ? true : nil)
            w.member("visible", bool: field.pointee.visible ? nil : false)
            w.member("enabled", bool: field.pointee.enabled ? nil : false)
            w.member("item", integer: field.pointee.item.map { Int64($0.index) })
            if !field.pointee.crossRules.isEmpty {
                w.member("crossRules") { w in
                    w.array { w in
                        for rule in field.pointee.crossRules {
                            w.item { w in
                                w.object { w in
                                    switch rule {
                                    case .equals(let other, let message):
                                        w.member("equals", other)
                                        w.member("message", message)
                                    case .expression(let source, let message):
                                        w.member("expression", source.text)
                                        w.member("message", message)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            w.member("views") { w in w.array { w in nodes(field.pointee.nodes, to: &w) } }
        }
    }

    /// One view node as compact JSON text (conformance messages quote it).
    package static func nodeText(_ n: ViewNode) -> String {
        var w = JSONTextWriter(pretty: false)
        node(n, to: &w)
        return w.out.string
    }

    /// A control: its type, id, field and label, then `extra`, then its flags (only those that are set).
    static func control(_ type: String, _ c: Control, to w: inout JSONTextWriter, _ extra: (inout JSONTextWriter) -> Void) {
        w.object { w in
            w.member("type", type)
            w.member("id", c.id)
            w.member("field", c.field)
            w.member("label", c.label)
            extra(&w)
            w.member("disabled", bool: c.disabled ? true : nil)
            w.member("required", bool: c.required ? true : nil)
            w.member("multiline", bool: c.multiline ? true : nil)
        }
    }

    static func choices(_ choices: [Choice], to w: inout JSONTextWriter) {
        w.member("choices") { w in
            w.array { w in
                for choice in choices {
                    w.item { w in
                        w.object { w in
                            w.member("value", choice.value)
                            w.member("label", choice.label)
                        }
                    }
                }
            }
        }
    }

    /// Each node as an item of the array being written, read in place (`for n in nodes` copies each node).
    static func nodes(_ nodes: [ViewNode], to w: inout JSONTextWriter) {
        nodes.withUnsafeBufferPointer { nodes in
            for i in nodes.indices { w.item { node(nodes[i], to: &$0) } }
        }
    }

    static func node(_ n: ViewNode, to w: inout JSONTextWriter) {
        switch n {
        case .group(let role, let title, let children):
            w.object { w in
                w.member("type", "group")
                w.member("role", role)
                w.member("title", title)
                w.member("children") { w in w.array { w in nodes(children, to: &w) } }
            }
        case .label(let text, let style):
            w.object { w in
                w.member("type", "label")
                w.member("text", text)
                w.member("style", style.rawValue)
            }
        case .value(let label, let text):
            w.object { w in
                w.member("type", "value")
                w.member("label", label)
                w.member("text", text)
            }
        case .textInput(let c, let text, let placeholder):
            control("textInput", c, to: &w) { w in
                w.member("text", text)
                w.member("placeholder", placeholder)
            }
        case .toggle(let c, let isOn):
            control("toggle", c, to: &w) { $0.member("on", bool: isOn) }
        case .button(let c, let role):
            control("button", c, to: &w) { $0.member("role", role.rawValue) }
        case .choice(let c, let list, let selected, let style):
            control("choice", c, to: &w) { w in
                w.member("style", style.rawValue)
                choices(list, to: &w)
                w.member("selected", selected)
            }
        case .date(let c, let seconds, let mode):
            control("date", c, to: &w) { w in
                w.member("mode", mode.rawValue)
                w.member("value", seconds.map { DateFormat.iso8601($0) })
            }
        case .message(let kind, let text):
            w.object { w in
                w.member("type", "message")
                w.member("kind", kind.rawValue)
                w.member("text", text)
            }
        case .number(let c, let value, let minimum, let maximum, let step, let style):
            control("number", c, to: &w) { w in
                w.member("style", style.rawValue)
                w.member("value", number: value)
                w.member("minimum", number: minimum)
                w.member("maximum", number: maximum)
                w.member("step", number: step)
            }
        case .multiChoice(let c, let list, let selected, let style):
            control("multiChoice", c, to: &w) { w in
                w.member("style", style.rawValue)
                choices(list, to: &w)
                w.member("selected") { w in w.array { w in for s in selected { w.item { $0.string(s) } } } }
            }
        }
    }
}
