/// Values as documents, values files and every JSON output write them: one
/// encoding, used by values files, `fill`, `inspect`, the JSON Schemas and `check`.
extension Value {
    /// Dates as ISO 8601 strings; everything else as its JSON type.
    package func json(as type: FieldType) -> JSON {
        switch self {
        case .string(let s): .string(s)
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(i)
        case .number(let d): type == .date ? .string(DateFormat.iso8601(d)) : .number(d)
        case .stringList(let items): .array(items.map(JSON.string))
        }
    }

    /// The name of the value's kind in messages.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .bool: "bool"
        case .integer: "integer"
        case .number: "number"
        case .stringList: "string list"
        }
    }
}

extension FieldSchema {
    /// A `minimum` / `maximum` as JSON: a date string, an integer, or a number.
    package func boundJSON(_ bound: Double) -> JSON {
        switch type {
        case .date: .string(DateFormat.iso8601(bound))
        case .integer: Int64(exactly: bound).map(JSON.integer) ?? .number(bound)
        default: .number(bound)
        }
    }

    /// A bound in messages: a date, or a number.
    func boundText(_ bound: Double) -> String {
        type == .date ? DateFormat.iso8601(bound) : NumberText.format(bound)
    }
}
