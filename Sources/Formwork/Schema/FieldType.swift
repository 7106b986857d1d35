import CFormwork

/// The type of one model field. The raw value is the name used in documents,
/// JSON output and error messages.
public enum FieldType: String, Sendable, CaseIterable, Codable {
    case string, text, bool, integer, number, date, choice, stringList

    init?(cValue: UInt32) {
        switch Int(cValue) {
        case Int(FW_FIELD_STRING): self = .string
        case Int(FW_FIELD_TEXT): self = .text
        case Int(FW_FIELD_BOOL): self = .bool
        case Int(FW_FIELD_INTEGER): self = .integer
        case Int(FW_FIELD_NUMBER): self = .number
        case Int(FW_FIELD_DATE): self = .date
        case Int(FW_FIELD_CHOICE): self = .choice
        case Int(FW_FIELD_STRING_LIST): self = .stringList
        default: return nil
        }
    }

    var cValue: UInt32 {
        switch self {
        case .string: UInt32(FW_FIELD_STRING)
        case .text: UInt32(FW_FIELD_TEXT)
        case .bool: UInt32(FW_FIELD_BOOL)
        case .integer: UInt32(FW_FIELD_INTEGER)
        case .number: UInt32(FW_FIELD_NUMBER)
        case .date: UInt32(FW_FIELD_DATE)
        case .choice: UInt32(FW_FIELD_CHOICE)
        case .stringList: UInt32(FW_FIELD_STRING_LIST)
        }
    }

    /// Whether `minimum` / `maximum` apply to values of this type.
    var isOrdered: Bool { self == .integer || self == .number || self == .date }
    /// Whether `minLength` / `maxLength` apply (characters, or items for a list).
    var hasLength: Bool { self == .string || self == .text || self == .stringList }
}

/// A model value, as read from a document or a values file, or passed to a cell.
/// Dates are `.number` (seconds since 1970-01-01T00:00:00Z); choices are `.string`.
public enum Value: Sendable, Equatable, Hashable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case stringList([String])
}

/// One allowed value of a choice field.
public struct Choice: Sendable, Equatable, Hashable {
    public var value: String
    public var label: String
}

/// One field of a cell type's model schema, copied out of the pack's descriptor.
public struct FieldSchema: Sendable, Equatable {
    public var name: String
    public var type: FieldType
    public var label: String
    public var doc: String?
    public var required: Bool
    public var choices: [Choice]
    public var defaultValue: Value?
    public var minimum: Double?
    public var maximum: Double?
    /// Fewest characters (Unicode scalars) or list items; nil for no limit.
    public var minLength: Int?
    /// Most characters (Unicode scalars) or list items; nil for no limit.
    public var maxLength: Int?
    /// Name of a string-list field of the same model whose items are this field's allowed values.
    public var optionsField: String?
}
