/// What a document's value becomes in a field of a given type: the rule, written once, for the tree decoder
/// (`value(_:as:)`, with its messages) and the flat one (`coerce`).
enum ValueCoercion {
    struct Problem: Error { var text: String }

    /// The typed value of `value` for a field of `type`, or nil when it does not fit (the tree decoder then says
    /// why; the flat decoder gives the field up to it). A date is ISO 8601 text: a bare number is not a date in a
    /// document (seconds? milliseconds? a year?).
    @inline(__always)
    static func coerce(_ value: FlatValue, to type: FieldType) -> Value? {
        switch (type, value) {
        case (.string, .string(let s)), (.text, .string(let s)), (.choice, .string(let s)): .string(s)
        case (.bool, .bool(let b)): .bool(b)
        case (.integer, .integer(let i)): .integer(i)
        case (.integer, .number(let d)) where d == d.rounded() && abs(d) < 9e15: .integer(Int64(d))
        case (.number, .integer(let i)): .number(Double(i))
        case (.number, .number(let d)): .number(d)
        case (.date, .string(let s)): DateFormat.parse(s).map { .number($0) }
        case (.stringList, .strings(let list)), (.choiceList, .strings(let list)): .stringList(list)
        default: nil
        }
    }

    /// The typed value of a document's node for `field`, or what is wrong with it.
    static func value(_ node: SourceNode, as field: FieldSchema) -> Result<Value, Problem> {
        // YAML reads plain `On`, `Yes`, `1.0` as booleans and numbers; a string field takes the text as written.
        if let text = node.plainText, [.string, .text, .choice].contains(field.type) { return .success(.string(text)) }
        let scalar: FlatValue?
        switch node.kind {
        case .string(let s): scalar = .string(s)
        case .bool(let b): scalar = .bool(b)
        case .integer(let i): scalar = .integer(i)
        case .number(let d): scalar = .number(d)
        case .array(let items) where field.type.isList:
            var strings: [String] = []
            strings.reserveCapacity(items.count)  // one allocation, not one per doubling
            for (i, item) in items.enumerated() {
                guard let s = item.string ?? item.plainText else {
                    return .failure(Problem(text: loc("item {0} must be a string, not {1}", i, item.typeWords)))
                }
                strings.append(s)
            }
            scalar = .strings(strings)
        default: scalar = nil
        }
        if let scalar, let value = coerce(scalar, to: field.type) { return .success(value) }
        if field.type == .date, case .string(let s) = node.kind {
            return .failure(
                Problem(
                    text: loc(
                        "'{0}' is not a date; write \"2026-11-21\", \"2026-11-21T09:30:00Z\" or a time alone, \"09:30\"",
                        SchemaValidator.truncated(s))
                ))
        }
        let expected: String =
            switch field.type {
            case .string, .text: loc("a string")
            case .choice: loc("one of {0}", field.choices.map { "'\($0.value)'" }.joined(separator: ", "))
            case .bool: loc("true or false")
            case .integer: loc("an integer")
            case .number: loc("a number")
            case .date: loc("a date such as \"2026-11-21\" or \"2026-11-21T09:30:00Z\"")
            case .stringList: loc("a list of strings")
            case .choiceList: loc("a list of {0}", field.choices.map { "'\($0.value)'" }.joined(separator: ", "))
            }
        return .failure(Problem(text: loc("must be {0}, not {1}", expected, node.typeWords)))
    }
}

extension SourceNode {
    /// `typeName` in the current catalogue's language, for messages about values (a person may read them).
    var typeWords: String {
        switch kind {
        case .null: loc("null")
        case .bool: loc("a boolean")
        case .integer: loc("an integer")
        case .number: loc("a number")
        case .string: loc("a string")
        case .array: loc("a list")
        case .object: loc("an object")
        }
    }
}
