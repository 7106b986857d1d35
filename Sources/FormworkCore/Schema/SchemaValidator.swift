import Glibc

/// Checks values against field schemas. Problems are phrases meant to follow the
/// thing they describe ("the default is 12, above the maximum 10").
package enum SchemaValidator {
    package static func problem(with value: Value, for field: FieldSchema, model: some ModelLookup) -> String? {
        switch (field.type, value) {
        case (.string, .string(let s)), (.text, .string(let s)):
            if field.type == .string, hasLineBreak(s) {
                return loc("contains a line break but '{0}' is single-line (use a text field)", field.name)
            }
            // A string has at most as many scalars as UTF-8 bytes: under a maximum alone, the bytes tell.
            if field.minLength != nil || field.maxLength.map({ s.utf8.count > $0 }) == true,
                let problem = lengthProblem(s.unicodeScalars.count, field, items: false)
            {
                return problem
            }
            if let options = field.optionsField, case .stringList(let allowed)? = model.value(named: options), !allowed.contains(s) {
                return loc("'{0}' is not one of {1}: {2}", truncated(s), options, list(allowed))
            }
            return nil
        case (.choice, .string(let s)):
            guard field.choices.contains(where: { $0.value == s }) else {
                return loc("'{0}' is not one of the choices: {1}", truncated(s), list(field.choices.map(\.value)))
            }
            return nil
        case (.bool, .bool):
            return nil
        case (.integer, .integer(let i)):
            return rangeProblem(Double(i), field, shown: String(i))
        case (.number, .number(let d)), (.date, .number(let d)):
            guard d.isFinite else { return loc("is not a finite number") }
            return rangeProblem(d, field, shown: field.boundText(d))
        case (.stringList, .stringList(let items)):
            if let options = field.optionsField, case .stringList(let allowed)? = model.value(named: options),
                let unknown = items.first(where: { !allowed.contains($0) })
            {
                return loc("has '{0}', which is not one of {1}: {2}", truncated(unknown), options, list(allowed))
            }
            return lengthProblem(items.count, field, items: true)
        case (.choiceList, .stringList(let items)):
            if let unknown = items.first(where: { item in !field.choices.contains { $0.value == item } }) {
                return loc("has '{0}', which is not one of the choices: {1}", truncated(unknown), list(field.choices.map(\.value)))
            }
            if Set(items).count != items.count { return loc("lists a choice twice; each may be selected once") }
            return lengthProblem(items.count, field, items: true)
        default:
            return loc("is a {0} but '{1}' is a {2}", value.typeName, field.name, field.type.rawValue)
        }
    }

    /// Whether `value` fits `field` with nothing to report: `problem(with:for:model:) == nil`
    /// without the generic model look-up and without making any text, for the checks that run
    /// on every configure. False also when the field takes its allowed values from another
    /// (`options`): the caller then asks `problem` with the model.
    package static func fits(_ value: Value, _ field: FieldSchema) -> Bool {
        switch (field.type, value) {
        case (.string, .string(let s)), (.text, .string(let s)):
            if field.optionsField != nil || (field.type == .string && hasLineBreak(s)) { return false }
            // Under a maximum alone the UTF-8 count (at least the scalar count) settles it, as in `problem`.
            if field.minLength == nil && (field.maxLength.map { s.utf8.count <= $0 } ?? true) { return true }
        case (.bool, .bool):
            return true
        case (.integer, .integer(let i)):
            return inRange(Double(i), field)
        case (.number, .number(let d)), (.date, .number(let d)):
            return d.isFinite && inRange(d, field)
        case (.stringList, .stringList(let items)):
            // `problem` then checks the count alone: the same test, without going through it.
            if field.optionsField != nil { return false }
            return !(field.minLength.map { items.count < $0 } ?? false) && !(field.maxLength.map { items.count > $0 } ?? false)
        case (.stringList, _):
            if field.optionsField != nil { return false }
        default:
            break
        }
        return problem(with: value, for: field, model: [String: Value]()) == nil
    }

    @inline(__always) private static func inRange(_ value: Double, _ field: FieldSchema) -> Bool {
        if let minimum = field.minimum, value < minimum || (field.exclusiveMinimum && value == minimum) { return false }
        if let maximum = field.maximum, value > maximum || (field.exclusiveMaximum && value == maximum) { return false }
        if let step = field.step, !FieldRules.isMultiple(value, of: step, from: field.minimum ?? 0) { return false }
        return true
    }

    /// `shown` (the value as the message quotes it) is made only for a value out of range.
    /// Whether `s` holds a line feed: over its contiguous UTF-8 in place, by `memchr` past 32 bytes (the
    /// generic `s.utf8.contains` was a twentieth of a configure; a libc call costs more than a short title).
    static func hasLineBreak(_ s: String) -> Bool {
        if let found = s.utf8.withContiguousStorageIfAvailable({ bytes in
            // Short strings (titles, most values) by a loop: a call into libc costs more than their bytes.
            if bytes.count <= 32 { return bytes.contains(0x0A) }
            return bytes.baseAddress.map { memchr($0, 0x0A, bytes.count) != nil } ?? false
        }) {
            return found
        }
        return s.utf8.contains(0x0A)
    }

    private static func rangeProblem(_ value: Double, _ field: FieldSchema, shown: @autoclosure () -> String) -> String? {
        if let minimum = field.minimum, value < minimum { return loc("is {0}, below the minimum {1}", shown(), field.boundText(minimum)) }
        if let minimum = field.minimum, field.exclusiveMinimum, value == minimum {
            return loc("is {0}; it must be above {1}", shown(), field.boundText(minimum))
        }
        if let maximum = field.maximum, value > maximum { return loc("is {0}, above the maximum {1}", shown(), field.boundText(maximum)) }
        if let maximum = field.maximum, field.exclusiveMaximum, value == maximum {
            return loc("is {0}; it must be below {1}", shown(), field.boundText(maximum))
        }
        if let step = field.step, !FieldRules.isMultiple(value, of: step, from: field.minimum ?? 0) {
            guard let minimum = field.minimum else {
                return loc("is {0}, not a whole number of steps of {1}", shown(), NumberText.format(step))
            }
            return loc("is {0}, not a whole number of steps of {1} from {2}", shown(), NumberText.format(step), field.boundText(minimum))
        }
        return nil
    }

    /// `count` is counted only when the field has a length limit (a string's scalars are a walk of its bytes).
    private static func lengthProblem(_ count: @autoclosure () -> Int, _ field: FieldSchema, items: Bool) -> String? {
        guard field.minLength != nil || field.maxLength != nil else { return nil }
        let count = count()
        if let minimum = field.minLength, count < minimum {
            return items
                ? locPlural(
                    count, one: "has {0} item, fewer than the minimum {1}", other: "has {0} items, fewer than the minimum {1}", count,
                    minimum)
                : locPlural(
                    count, one: "has {0} character, fewer than the minimum {1}", other: "has {0} characters, fewer than the minimum {1}",
                    count, minimum)
        }
        if let maximum = field.maxLength, count > maximum {
            return items
                ? locPlural(
                    count, one: "has {0} item, more than the maximum {1}", other: "has {0} items, more than the maximum {1}", count, maximum
                )
                : locPlural(
                    count, one: "has {0} character, more than the maximum {1}", other: "has {0} characters, more than the maximum {1}",
                    count, maximum)
        }
        return nil
    }

    package static func truncated(_ s: String) -> String { s.count > 40 ? String(s.prefix(40)) + "…" : s }
    static func list(_ items: [String]) -> String {
        items.prefix(12).joined(separator: ", ") + (items.count > 12 ? ", …" : "")
    }
}

/// Reading a model's values by name, from a `FieldModel` or a dictionary (the schema checks take either).
package protocol ModelLookup {
    func value(named name: String) -> Value?
}

extension [String: Value]: ModelLookup {
    package func value(named name: String) -> Value? { self[name] }
}
