extension Form {
    /// Whether any field or section has a condition.
    public var hasConditions: Bool { !evaluationOrder.isEmpty }

    /// Whether any field has a rule across fields (checked without copying the fields).
    public var hasCrossRules: Bool { sections.contains { $0.fields.contains { !$0.crossRules.isEmpty } } }

    /// Each field's state (visible, enabled, required) for the form's current values. A hidden
    /// field's value reads as absent in the conditions of others; fields are evaluated in
    /// `evaluationOrder`, which puts every field after those it reads.
    public func states() -> [String: FieldState] {
        var out: [String: FieldState] = [:]
        out.reserveCapacity(fields.count)
        guard hasConditions else {
            for field in fields { out[field.id] = FieldState(required: field.required) }
            return out
        }
        var where_: [String: (section: Int, field: Int)] = [:]
        for (s, section) in sections.enumerated() {
            for (f, field) in section.fields.enumerated() { where_[field.id] = (s, f) }
        }
        var visibleValues: [String: Value] = [:]
        func value(_ id: String) -> Value? { visibleValues[id] }
        for id in evaluationOrder {
            guard let (s, f) = where_[id] else { continue }
            let section = sections[s]
            let field = section.fields[f]
            let conditions = field.conditions
            let visible =
                (section.conditions.visibleIf?.condition.holds(value) ?? true) && (conditions.visibleIf?.condition.holds(value) ?? true)
            let enabled =
                (section.conditions.enabledIf?.condition.holds(value) ?? true) && (conditions.enabledIf?.condition.holds(value) ?? true)
            let required = visible && enabled && (field.required || (conditions.requiredIf?.condition.holds(value) ?? false))
            out[id] = FieldState(visible: visible, enabled: enabled, required: required)
            if visible, let name = field.valueField, let v = field.model[name] { visibleValues[id] = field.conditionValue(v) }
        }
        // Fields no condition reads and that have none (the items of a repeated group, added after decoding).
        for field in fields where out[field.id] == nil { out[field.id] = FieldState(required: field.required) }
        return out
    }

    /// Whether any field's value is computed (`value: "price * quantity"`).
    public var hasComputedValues: Bool { hasConditions && sections.contains { $0.fields.contains { $0.conditions.value != nil } } }

    /// Sets every computed field's value from the values it reads, in evaluation order (a computed value may read
    /// another; a hidden field reads as absent, as in conditions). Whatever an answer or a values file put in a
    /// computed field is replaced: the value is never taken from outside.
    public mutating func recompute() {
        guard hasComputedValues else { return }
        var where_: [String: (section: Int, field: Int)] = [:]
        for (s, section) in sections.enumerated() {
            for (f, field) in section.fields.enumerated() where field.item == nil { where_[field.id] = (s, f) }
        }
        var visibleValues: [String: Value] = [:]
        func value(_ id: String) -> Value? { visibleValues[id] }
        for id in evaluationOrder {
            guard let (s, f) = where_[id] else { continue }
            let section = sections[s]
            let conditions = section.fields[f].conditions
            let visible =
                (section.conditions.visibleIf?.condition.holds(value) ?? true) && (conditions.visibleIf?.condition.holds(value) ?? true)
            if let computed = conditions.value, let name = section.fields[f].valueField,
                let type = section.fields[f].cell.field(named: name)?.type
            {
                sections[s].fields[f].model[name] = Self.computed(computed.condition.value(value), as: type)
            }
            let field = sections[s].fields[f]
            if visible, let name = field.valueField, let v = field.model[name] { visibleValues[id] = field.conditionValue(v) }
        }
    }

    /// A computed result as a value of the field's type: a whole number for an integer field (else none), a
    /// decimal text for a text field, true/false for a boolean.
    static func computed(_ v: Value?, as type: FieldType) -> Value? {
        guard let v else { return nil }
        switch (type, v) {
        case (.integer, .integer): return v
        case (.integer, .number(let d)): return Int64(exactly: d).map(Value.integer)
        case (.number, .integer(let n)): return .number(Double(n))
        case (.number, .number): return v
        case (.string, _), (.text, _), (.choice, _):
            if case .string = v { return v }
            if case .stringList = v { return nil }
            return .string(Condition.text(v))
        case (.bool, _): return .bool(Condition.truthy(v))
        default: return nil
        }
    }

    /// The pages shown for the current values, in order: a page is skipped when every one of its sections is
    /// hidden (its own `visibleIf`, or the page's, which applies to each of them). Empty for a form without pages.
    public func shownPages(_ states: [String: FieldState]) -> [Int] {
        guard !pages.isEmpty else { return [] }
        guard sections.contains(where: { $0.conditions.visibleIf != nil }) else { return Array(pages.indices) }
        // What conditions read: the values of visible fields (a hidden field's value reads as absent).
        var values: [String: Value] = [:]
        for field in fields where states[field.id]?.visible ?? true {
            if let name = field.valueField, let v = field.model[name] { values[field.id] = field.conditionValue(v) }
        }
        return pages.indices.filter { p in
            pages[p].sections.contains { s in sections[s].conditions.visibleIf?.condition.holds({ values[$0] }) ?? true }
        }
    }

    /// The values that a submission holds: those of visible, enabled fields ("" is no value).
    public func submittedValues(_ states: [String: FieldState]) -> [String: Value] {
        var out: [String: Value] = [:]
        for field in fields where states[field.id]?.submitted ?? true {
            guard let name = field.valueField, let value = field.model[name], value != .string("") else { continue }
            out[field.id] = field.conditionValue(value)
        }
        return out
    }

    /// What the rules across fields say about the submitted values: (field id, message).
    public func crossFieldProblems(_ states: [String: FieldState]) -> [(field: String, message: String)] {
        guard hasCrossRules else { return [] }
        let values = submittedValues(states)
        var out: [(String, String)] = []
        for field in fields where !field.crossRules.isEmpty && (states[field.id]?.submitted ?? true) {
            let label = displayLabel(field)
            for rule in field.crossRules {
                switch rule {
                case .equals(let other, let message):
                    // What is there is compared: both missing is no mismatch, one missing is ("" is no value).
                    let mine = values[field.id], theirs = values[other]
                    if mine == nil && theirs == nil { continue }
                    if mine == nil || theirs == nil || !Condition.compare(mine, .equal, theirs) {
                        let otherLabel = self.field(other).map(displayLabel) ?? other
                        out.append((field.id, message ?? loc("{0} must match {1}.", label, otherLabel)))
                    }
                case .expression(let source, let message):
                    if !source.condition.holds({ values[$0] }) {
                        out.append((field.id, message ?? loc("{0}: the rule '{1}' does not hold.", label, source.text)))
                    }
                }
            }
        }
        return out
    }

    /// A field's title (its title role), else its id.
    func displayLabel(_ field: FormField) -> String {
        field.cell.roles.title.flatMap { if case .string(let t)? = field.model[$0], !t.isEmpty { t } else { nil } } ?? field.id
    }
}
