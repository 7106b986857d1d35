/// The type of one model field. The raw value is the name used in documents,
/// JSON output and error messages; `abiValue` is formwork.h's `FW_FIELD_*`.
public enum FieldType: String, Sendable, CaseIterable, Codable, ABIEnum {
    case string, text, bool, integer, number, date, choice, stringList, choiceList

    public var abiValue: UInt32 {
        switch self {
        case .string: 1  // FW_FIELD_STRING
        case .text: 2  // FW_FIELD_TEXT
        case .bool: 3  // FW_FIELD_BOOL
        case .integer: 4  // FW_FIELD_INTEGER
        case .number: 5  // FW_FIELD_NUMBER
        case .date: 6  // FW_FIELD_DATE
        case .choice: 7  // FW_FIELD_CHOICE
        case .stringList: 8  // FW_FIELD_STRING_LIST
        case .choiceList: 9  // FW_FIELD_CHOICE_LIST (ABI 1.1)
        }
    }

    /// Whether `minimum` / `maximum` apply to values of this type.
    public var isOrdered: Bool { self == .integer || self == .number || self == .date }
    /// Whether `minLength` / `maxLength` apply (characters, or items for a list).
    public var hasLength: Bool { self == .string || self == .text || self == .stringList || self == .choiceList }
    /// Whether values are lists (`Value.stringList`).
    public var isList: Bool { self == .stringList || self == .choiceList }
    /// Whether the field's `choices` list its allowed values.
    public var hasChoices: Bool { self == .choice || self == .choiceList }
    /// The ABI minor version that introduced the type (a pack claiming an older minor cannot use it).
    public var sinceMinor: UInt32 { self == .choiceList ? 1 : 0 }
}

/// A model value, as read from a document or a values file, or passed to a cell.
/// Dates are `.number` (seconds since 1970-01-01T00:00:00Z); choices are `.string`.
public enum Value: Sendable, Equatable, Hashable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case stringList([String])

    /// An equal value whose strings and arrays are its own (`FieldSchema.copy`).
    func copy() -> Value {
        switch self {
        case .string(let text): .string(text.withOwnStorage)
        case .stringList(let list): .stringList(list.map(\.withOwnStorage))
        case .bool, .integer, .number: self
        }
    }
}

/// One allowed value of a choice field.
public struct Choice: Sendable, Equatable, Hashable {
    public let value: String
    public let label: String

    public init(value: String, label: String? = nil) {
        self.value = value
        self.label = label ?? value
    }
}

/// One field of a cell type's model schema, copied out of the pack's descriptor.
///
/// A class: every field of a form refers to its cell type's schema, and decoding, validating
/// and configuring walk it for every field; a reference is one retain where a struct of six
/// strings and arrays was six.
public final class FieldSchema: Sendable, Equatable {
    public let name: String
    public let type: FieldType
    public let label: String
    public let doc: String?
    public let required: Bool
    public let choices: [Choice]
    public let defaultValue: Value?
    public let minimum: Double?
    public let maximum: Double?
    /// Fewest characters (Unicode scalars) or list items; nil for no limit.
    public let minLength: Int?
    /// Most characters (Unicode scalars) or list items; nil for no limit.
    public let maxLength: Int?
    /// Name of a string-list field of the same model whose items are this field's allowed values.
    public let optionsField: String?
    /// ABI 1.2: the step between allowed values (integer and number fields), counted from `minimum` (0
    /// without one); nil for none. Always finite and above 0 (the loader refuses anything else).
    public let step: Double?
    /// ABI 1.2: whether `minimum` / `maximum` themselves are excluded.
    public let exclusiveMinimum: Bool
    public let exclusiveMaximum: Bool

    public init(
        name: String, type: FieldType, label: String? = nil, doc: String? = nil, required: Bool = false,
        choices: [Choice] = [], defaultValue: Value? = nil, minimum: Double? = nil, maximum: Double? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, optionsField: String? = nil, step: Double? = nil,
        exclusiveMinimum: Bool = false, exclusiveMaximum: Bool = false
    ) {
        self.name = name
        self.type = type
        self.label = label ?? name
        self.doc = doc
        self.required = required
        self.choices = choices
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.optionsField = optionsField
        self.step = step
        self.exclusiveMinimum = exclusiveMinimum
        self.exclusiveMaximum = exclusiveMaximum
    }

    /// An equal schema whose objects, arrays and strings are its own (`CellType.copy`).
    func copy() -> FieldSchema {
        FieldSchema(
            name: name.withOwnStorage, type: type, label: label.withOwnStorage, doc: doc?.withOwnStorage, required: required,
            choices: choices.map { Choice(value: $0.value.withOwnStorage, label: $0.label.withOwnStorage) },
            defaultValue: defaultValue?.copy(), minimum: minimum, maximum: maximum, minLength: minLength, maxLength: maxLength,
            optionsField: optionsField?.withOwnStorage, step: step, exclusiveMinimum: exclusiveMinimum,
            exclusiveMaximum: exclusiveMaximum)
    }

    public static func == (a: FieldSchema, b: FieldSchema) -> Bool {
        a === b
            || (a.name == b.name && a.type == b.type && a.label == b.label && a.doc == b.doc && a.required == b.required
                && a.choices == b.choices && a.defaultValue == b.defaultValue && a.minimum == b.minimum && a.maximum == b.maximum
                && a.minLength == b.minLength && a.maxLength == b.maxLength && a.optionsField == b.optionsField
                && a.step == b.step && a.exclusiveMinimum == b.exclusiveMinimum && a.exclusiveMaximum == b.exclusiveMaximum)
    }
}

extension FieldSchema {
    /// The smallest value the schema allows (bounds, exclusive bounds and the step together), or nil without a
    /// minimum: what `check` and the samples try first. Computed here so that no caller guesses at steps.
    public var lowestAllowed: Double? {
        guard let minimum else { return nil }
        guard exclusiveMinimum else { return minimum }
        if let step { return minimum + step }
        return type == .integer ? minimum + 1 : minimum.nextUp
    }

    /// The largest value the schema allows, or nil without a maximum.
    public var highestAllowed: Double? {
        guard let maximum else { return nil }
        var highest = maximum
        if let step {
            let base = minimum ?? 0
            highest = base + ((maximum - base) / step).rounded(.down) * step
            if exclusiveMaximum && highest >= maximum { highest -= step }
        } else if exclusiveMaximum {
            highest = type == .integer ? maximum - 1 : maximum.nextDown
        }
        return highest.isFinite ? highest : nil
    }
}
