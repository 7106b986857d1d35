import CFormwork
import Synchronization

/// One field of a model schema, declared in Swift.
///
///     static let fields: [Field] = [
///         .string("title", label: "Title", required: true),
///         .bool("enabled", default: true),
///     ]
public struct Field: Sendable {
    public enum Kind: Sendable { case string, text, bool, integer, number, date, choice, stringList, choiceList }

    public var name: String
    public var kind: Kind
    public var label: String?
    public var doc: String?
    public var required: Bool = false
    public var defaultValue: ModelValue?
    public var minimum: Double?
    public var maximum: Double?
    public var minLength: Int?
    public var maxLength: Int?
    public var choices: [(value: String, label: String)] = []
    public var optionsField: String?
    /// ABI 1.2: the step between allowed values (integer and number), counted from `minimum` (0 without one).
    public var step: Double?
    /// ABI 1.2: `minimum` / `maximum` themselves are not allowed.
    public var exclusiveMinimum = false
    public var exclusiveMaximum = false

    public static func string(
        _ name: String, label: String? = nil, doc: String? = nil, required: Bool = false,
        default value: String? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        options: String? = nil
    ) -> Field {
        Field(
            name: name, kind: .string, label: label, doc: doc, required: required, defaultValue: value.map(ModelValue.string),
            minLength: minLength, maxLength: maxLength, optionsField: options)
    }

    public static func text(
        _ name: String, label: String? = nil, doc: String? = nil, required: Bool = false,
        default value: String? = nil, maxLength: Int? = nil
    ) -> Field {
        Field(
            name: name, kind: .text, label: label, doc: doc, required: required, defaultValue: value.map(ModelValue.string),
            maxLength: maxLength)
    }

    public static func bool(_ name: String, label: String? = nil, doc: String? = nil, default value: Bool? = nil) -> Field {
        Field(name: name, kind: .bool, label: label, doc: doc, defaultValue: value.map(ModelValue.bool))
    }

    public static func integer(
        _ name: String, label: String? = nil, doc: String? = nil, required: Bool = false,
        default value: Int64? = nil, minimum: Int64? = nil, maximum: Int64? = nil, step: Int64? = nil
    ) -> Field {
        Field(
            name: name, kind: .integer, label: label, doc: doc, required: required, defaultValue: value.map(ModelValue.integer),
            minimum: minimum.map(Double.init), maximum: maximum.map(Double.init), step: step.map(Double.init))
    }

    public static func number(
        _ name: String, label: String? = nil, doc: String? = nil, required: Bool = false,
        default value: Double? = nil, minimum: Double? = nil, maximum: Double? = nil, step: Double? = nil,
        exclusiveMinimum: Bool = false, exclusiveMaximum: Bool = false
    ) -> Field {
        Field(
            name: name, kind: .number, label: label, doc: doc, required: required, defaultValue: value.map(ModelValue.number),
            minimum: minimum, maximum: maximum, step: step, exclusiveMinimum: exclusiveMinimum, exclusiveMaximum: exclusiveMaximum)
    }

    /// A date: seconds since 1970-01-01T00:00:00Z.
    public static func date(
        _ name: String, label: String? = nil, doc: String? = nil, required: Bool = false,
        minimum: Double? = nil, maximum: Double? = nil
    ) -> Field {
        Field(name: name, kind: .date, label: label, doc: doc, required: required, minimum: minimum, maximum: maximum)
    }

    public static func choice(
        _ name: String, label: String? = nil, doc: String? = nil, required: Bool = false,
        choices: [(value: String, label: String)], default value: String? = nil
    ) -> Field {
        Field(
            name: name, kind: .choice, label: label, doc: doc, required: required, defaultValue: value.map(ModelValue.string),
            choices: choices)
    }

    /// `options` (ABI 1.1 for lists): another string-list field whose items are the allowed items of this one.
    public static func stringList(
        _ name: String, label: String? = nil, doc: String? = nil, required: Bool = false,
        default value: [String]? = nil, minItems: Int? = nil, maxItems: Int? = nil,
        options: String? = nil
    ) -> Field {
        Field(
            name: name, kind: .stringList, label: label, doc: doc, required: required, defaultValue: value.map(ModelValue.stringList),
            minLength: minItems, maxLength: maxItems, optionsField: options)
    }

    /// ABI 1.1: several of `choices` at once (values are `.stringList`).
    public static func choiceList(
        _ name: String, label: String? = nil, doc: String? = nil, required: Bool = false,
        choices: [(value: String, label: String)], default value: [String]? = nil,
        minItems: Int? = nil, maxItems: Int? = nil
    ) -> Field {
        Field(
            name: name, kind: .choiceList, label: label, doc: doc, required: required,
            defaultValue: value.map(ModelValue.stringList), minLength: minItems, maxLength: maxItems, choices: choices)
    }

    var cType: fw_field_type {
        switch kind {
        case .string: fw_field_type(FW_FIELD_STRING)
        case .text: fw_field_type(FW_FIELD_TEXT)
        case .bool: fw_field_type(FW_FIELD_BOOL)
        case .integer: fw_field_type(FW_FIELD_INTEGER)
        case .number: fw_field_type(FW_FIELD_NUMBER)
        case .date: fw_field_type(FW_FIELD_DATE)
        case .choice: fw_field_type(FW_FIELD_CHOICE)
        case .stringList: fw_field_type(FW_FIELD_STRING_LIST)
        case .choiceList: fw_field_type(FW_FIELD_CHOICE_LIST)
        }
    }
}

/// A value passed to a cell. Dates are `.number` (seconds since 1970), choices `.string`.
public enum ModelValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case stringList([String])
}

/// The values of one configure call, by field name. Absent values are nil.
public struct ModelValues: Sendable {
    /// The names and values in schema order, as configure receives them: no dictionary is built
    /// per configure (a model has a handful of fields, so a name is found by a short search).
    private var names: [String]
    private var ordered: [ModelValue?]
    /// Where the search for the next name starts: just after the last name found. A model's `init` asks for
    /// its fields mostly in schema order, so most look-ups compare one name instead of half of them. Shared by
    /// the values of one cell instance (made once with it); nil for values made from a dictionary.
    private let cursor: LookupCursor?

    /// The values by name (built when asked for).
    public var values: [String: ModelValue] {
        get {
            var out: [String: ModelValue] = [:]
            for (name, value) in zip(names, ordered) { if let value { out[name] = value } }
            return out
        }
        set {
            names = Array(newValue.keys)
            ordered = names.map { newValue[$0] }
        }
    }

    public init(_ values: [String: ModelValue]) {
        names = Array(values.keys)
        ordered = names.map { values[$0] }
        cursor = nil
    }

    /// Values in the order of `names` (nil: absent), searched from `cursor`.
    init(names: [String], ordered: [ModelValue?], cursor: LookupCursor? = nil) {
        self.names = names
        self.ordered = ordered
        self.cursor = cursor
    }

    public subscript(name: String) -> ModelValue? {
        // Lengths first: a model's names are ASCII (the host checks them), and an ASCII string equals no string
        // of another length, so most names are passed over without a full string comparison. Names are unique
        // (a schema's, or a dictionary's keys), so where the search starts does not change what it finds.
        let length = name.utf8.count, count = names.count
        var i = cursor?.start(below: count) ?? 0
        for _ in 0..<count {
            if names[i].utf8.count == length && names[i] == name {
                cursor?.found(i)
                return ordered[i]
            }
            i = i + 1 == count ? 0 : i + 1
        }
        return nil
    }

    public func string(_ name: String) -> String? {
        if case .string(let s)? = self[name] { return s }
        return nil
    }
    public func bool(_ name: String) -> Bool? {
        if case .bool(let b)? = self[name] { return b }
        return nil
    }
    public func integer(_ name: String) -> Int64? {
        if case .integer(let i)? = self[name] { return i }
        return nil
    }
    public func number(_ name: String) -> Double? {
        switch self[name] {
        case .number(let d)?: return d
        case .integer(let i)?: return Double(i)
        default: return nil
        }
    }
    /// A date field, in seconds since 1970-01-01T00:00:00Z.
    public func date(_ name: String) -> Double? { number(name) }
    public func stringList(_ name: String) -> [String]? {
        if case .stringList(let l)? = self[name] { return l }
        return nil
    }
}

/// Where a `ModelValues` look-up starts (see `ModelValues.cursor`). Only a hint: relaxed atomic loads and stores
/// (plain moves on x86-64) keep it free of data races when values are read on several threads; whatever it
/// holds, a look-up finds the same value.
final class LookupCursor: Sendable {
    private let next = Atomic<Int>(0)

    init() {}

    /// The index to start at, below `count` (0 when `count` is 0: the search then makes no comparison).
    func start(below count: Int) -> Int {
        let n = next.load(ordering: .relaxed)
        return n < count ? n : 0
    }

    func found(_ index: Int) { next.store(index + 1, ordering: .relaxed) }
}

/// A cell's model: its schema and how to build it from values.
public protocol CellModel {
    /// The schema, in order.
    static var fields: [Field] { get }
    /// Builds the model; throw `CellError` to refuse the values.
    init(_ values: ModelValues) throws
}

/// An error a cell reports; its message reaches the host's log.
public struct CellError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
