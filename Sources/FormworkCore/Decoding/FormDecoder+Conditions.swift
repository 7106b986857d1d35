/// A condition or cross-field rule met while decoding, parsed when every field is known.
struct PendingCondition {
    enum Target: Equatable {
        /// The field at this JSON pointer.
        case field(String)
        case section(Int)
        /// A page's sections (its `visibleIf`).
        case sections(Range<Int>)
    }
    var target: Target
    /// `visibleIf`, `enabledIf`, `requiredIf`, `equals` or `expression`.
    var key: String
    var node: SourceNode
    var pointer: String
    var message: String? = nil
}

extension FormDecoder {
    /// Parses every pending condition against the form's fields, attaches it, and returns an
    /// evaluation order; refuses unknown fields, kind mismatches and cycles.
    mutating func resolveConditions(_ sections: inout [FormSection]) -> [String] {
        guard !pending.isEmpty else { return [] }
        var types: [String: ConditionType] = [:]
        var location: [String: (Int, Int)] = [:]
        var repeated: [String: String] = [:]
        for (s, section) in sections.enumerated() {
            for (f, field) in section.fields.enumerated() {
                location[field.pointer] = (s, f)
                if section.repeatGroup != nil {
                    repeated[field.id] = section.id
                    continue
                }
                types[field.id] = field.typedChoiceKind ?? ConditionType(field.valueField.flatMap { field.cell.field(named: $0)?.type })
            }
        }
        // A repeated item's `title` beside a top-level `title`: the name is the top-level field's.
        for id in repeated.keys where types[id] != nil { repeated[id] = nil }
        for item in pending {
            guard let text = item.node.string else {
                let what = item.key == "equals" ? "the id of another field" : "an expression in a string, such as \"country == 'NL'\""
                report(item.pointer, item.node, "'\(item.key)' must be \(what), not \(item.node.typeName)")
                continue
            }
            var fieldIndex: (Int, Int)?
            if case .field(let p) = item.target {
                guard let found = location[p] else { continue }  // the field itself did not decode
                fieldIndex = found
            }
            if item.key == "equals" {
                guard let (s, f) = fieldIndex else { continue }
                let field = sections[s].fields[f]
                if let group = repeated[text] {
                    report(
                        item.pointer, item.node,
                        "'equals' names '\(text)', a field of the repeated group '\(group)'; name a field outside it")
                    continue
                }
                guard let other = types[text] else {
                    var message = "'equals' names no field of the form: '\(text)'"
                    if let suggestion = EditDistance.suggestion(for: text, in: Array(types.keys)) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    report(item.pointer, item.node, message)
                    continue
                }
                guard text != field.id else {
                    report(item.pointer, item.node, "'equals' names the field itself; name the field to compare with")
                    continue
                }
                let mine = types[field.id] ?? .any
                guard mine == other || mine == .any || other == .any else {
                    report(
                        item.pointer, item.node,
                        "'\(field.id)' holds \(mine.rawValue) and '\(text)' holds \(other.rawValue); they can never be equal")
                    continue
                }
                sections[s].fields[f].crossRules.append(.equals(field: text, message: item.message))
                continue
            }
            let condition: Condition
            do { condition = try ConditionParser.parse(text, fields: types) } catch {
                if let name = repeated.keys.first(where: { error.message.hasPrefix("unknown field '\($0)'") }) {
                    report(
                        item.pointer, item.node,
                        "column \(error.column): '\(name)' is a field of the repeated group '\(repeated[name]!)'; a condition cannot read a repeated field (it has one value per item)"
                    )
                } else {
                    report(item.pointer, item.node, "column \(error.column): \(error.message)")
                }
                continue
            }
            let source = ConditionSource(text: text, condition: condition)
            switch (item.target, item.key) {
            case (.section(let s), "visibleIf"): if s < sections.count { sections[s].conditions.visibleIf = source }
            case (.section(let s), "enabledIf"): if s < sections.count { sections[s].conditions.enabledIf = source }
            case (.sections(let range), "visibleIf"):
                for s in range where s < sections.count {
                    if let own = sections[s].conditions.visibleIf {
                        sections[s].conditions.visibleIf = ConditionSource(
                            text: "(\(text)) and (\(own.text))", condition: .and(condition, own.condition))
                    } else {
                        sections[s].conditions.visibleIf = source
                    }
                }
            case (.field, "expression"):
                if let (s, f) = fieldIndex { sections[s].fields[f].crossRules.append(.expression(source, message: item.message)) }
            case (.field, "visibleIf"): if let (s, f) = fieldIndex { sections[s].fields[f].conditions.visibleIf = source }
            case (.field, "enabledIf"): if let (s, f) = fieldIndex { sections[s].fields[f].conditions.enabledIf = source }
            case (.field, "requiredIf"): if let (s, f) = fieldIndex { sections[s].fields[f].conditions.requiredIf = source }
            case (.field, "value"):
                guard let (s, f) = fieldIndex else { break }
                let field = sections[s].fields[f]
                guard let name = field.valueField, let schema = field.cell.field(named: name) else {
                    report(
                        item.pointer, item.node,
                        "'\(field.id)' (\(field.cell.id)) holds no value; a computed value needs a field that has one")
                    break
                }
                let kind = field.typedChoiceKind ?? ConditionType(schema.type)
                let made = ConditionParser.kind(of: condition, fields: types)
                // A number may be shown in a text field; otherwise the kinds must agree.
                guard made == kind || made == .any || kind == .any || (made == .number && kind == .text && field.labelledChoices.isEmpty)
                else {
                    report(item.pointer, item.node, "'value' makes \(made.rawValue) but '\(field.id)' holds \(kind.rawValue)")
                    break
                }
                sections[s].fields[f].conditions.value = source
            default: break
            }
        }
        return evaluationOrder(sections)
    }

    /// Kahn's algorithm over "a field's state reads these fields' values" (its own conditions
    /// and its section's). A field left over is on a cycle, which is reported.
    mutating func evaluationOrder(_ sections: [FormSection]) -> [String] {
        var dependencies: [String: Set<String>] = [:]
        var pointers: [String: String] = [:]
        var order: [String] = []
        var ids: [String] = []
        for section in sections {
            // A duplicate id is reported where it is decoded; here it counts once.
            for field in section.fields where dependencies[field.id] == nil {
                ids.append(field.id)
                pointers[field.id] = field.pointer
                dependencies[field.id] = Set(field.conditions.fields + section.conditions.fields)
            }
        }
        var dependents: [String: [String]] = [:]
        var remaining: [String: Int] = [:]
        for id in ids {
            let known = dependencies[id]!.filter { dependencies[$0] != nil }
            remaining[id] = known.count
            for d in known { dependents[d, default: []].append(id) }
        }
        var ready = ids.filter { remaining[$0] == 0 }
        var next = 0
        while next < ready.count {
            let id = ready[next]
            next += 1
            order.append(id)
            for dependent in dependents[id] ?? [] {
                remaining[dependent]! -= 1
                if remaining[dependent] == 0 { ready.append(dependent) }
            }
        }
        guard order.count < ids.count else { return order }
        // Walk from a field left over until one repeats: that is the cycle to show.
        let left = Set(ids.filter { (remaining[$0] ?? 0) > 0 })
        guard let first = ids.first(where: { left.contains($0) }) else { return order }
        var walk: [String] = [first]
        var seen: [String: Int] = [walk[0]: 0]
        while true {
            let current = walk.last!
            guard let step = dependencies[current]?.sorted().first(where: { left.contains($0) }) else { break }
            if let start = seen[step] {
                let cycle = walk[start...] + [step]
                let first = cycle.first!
                report(
                    "\(pointers[first] ?? "")", nil,
                    "the conditions of '\(first)' depend on themselves: \(cycle.map { "'\($0)'" }.joined(separator: " → ")); a condition cannot read a field whose state depends on it (a section's or a page's condition cannot read a field of that section or page)"
                )
                break
            }
            seen[step] = walk.count
            walk.append(step)
        }
        return order
    }
}
