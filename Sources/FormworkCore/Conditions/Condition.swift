/// A condition over other fields' values (`visibleIf`, `enabledIf`, `requiredIf`, and
/// the `expression` rule), in the small language docs/forms.md documents:
///
/// ```
/// expression := or
/// or         := and ("or" and)*
/// and        := not ("and" not)*
/// not        := "not" not | comparison
/// comparison := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum
///                        | "not"? "in" sum
///                        | "is" "not"? "empty")?
/// sum        := product (("+" | "-") product)*
/// product    := unary (("*" | "/") unary)*
/// unary      := "-" unary | operand
/// operand    := NUMBER | STRING | "true" | "false" | "null" | FIELD-ID | list | "(" expression ")"
/// list       := "[" (literal ("," literal)*)? "]"
/// ```
///
/// Strings are quoted with `'` or `"` (a backslash escapes the quote or itself); a field is
/// named by its id. Nothing is executed: an expression is parsed into this tree once, when the
/// document is decoded, and evaluated over values. The HTML renderer embeds the tree as JSON
/// for the inline script, which evaluates it with the same rules (shared test vectors).
public indirect enum Condition: Sendable, Equatable {
    case literal(Value?)
    case list([Value])
    case field(String)
    case not(Condition)
    case and(Condition, Condition)
    case or(Condition, Condition)
    case compare(Condition, Comparison, Condition)
    case isIn(Condition, Condition)
    case isEmpty(Condition)
    /// Arithmetic on numbers (a computed value's `price * quantity`); absent when an operand is not a number or
    /// the result is not finite (a division by zero).
    case arithmetic(Condition, Arithmetic, Condition)

    public enum Arithmetic: String, Sendable, CaseIterable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
    }

    public enum Comparison: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// The ids of the fields it reads, in order of appearance.
    public var fields: [String] {
        switch self {
        case .literal, .list: []
        case .field(let id): [id]
        case .not(let c), .isEmpty(let c): c.fields
        case .and(let a, let b), .or(let a, let b), .compare(let a, _, let b), .isIn(let a, let b), .arithmetic(let a, _, let b):
            a.fields + b.fields
        }
    }

    // MARK: evaluation

    /// Whether the condition holds when `value(id)` gives each field's value (nil: absent, or hidden).
    public func holds(_ value: (String) -> Value?) -> Bool { Self.truthy(evaluate(value)) }

    /// An operand's value: nil for null/absent, `.bool` for the result of a test.
    func evaluate(_ value: (String) -> Value?) -> Value? {
        switch self {
        case .literal(let v): return v
        case .list(let items): return .stringList(items.map(Self.text))
        case .field(let id): return value(id)
        case .not(let c): return .bool(!c.holds(value))
        case .and(let a, let b): return .bool(a.holds(value) && b.holds(value))
        case .or(let a, let b): return .bool(a.holds(value) || b.holds(value))
        case .isEmpty(let c): return .bool(Self.empty(c.evaluate(value)))
        case .isIn(let a, let b):
            guard let needle = a.evaluate(value), case .stringList(let hay)? = b.evaluate(value) else { return .bool(false) }
            if case .stringList(let items) = needle { return .bool(items.contains { hay.contains($0) }) }
            return .bool(hay.contains(Self.text(needle)))
        case .compare(let a, let op, let b): return .bool(Self.compare(a.evaluate(value), op, b.evaluate(value)))
        case .arithmetic(let a, let op, let b): return Self.arithmetic(a.evaluate(value), op, b.evaluate(value))
        }
    }

    /// The value of an expression, for a computed value: nil when it has none.
    public func value(_ value: (String) -> Value?) -> Value? { evaluate(value) }

    /// `a op b` on two numbers: integers stay integers while the result is one and fits (an overflow goes on in
    /// floating point, as the page's script does); nil when an operand is no number or the result is not finite.
    static func arithmetic(_ a: Value?, _ op: Arithmetic, _ b: Value?) -> Value? {
        if case .integer(let x)? = a, case .integer(let y)? = b {
            let r: (partialValue: Int64, overflow: Bool)
            switch op {
            case .add: r = x.addingReportingOverflow(y)
            case .subtract: r = x.subtractingReportingOverflow(y)
            case .multiply: r = x.multipliedReportingOverflow(by: y)
            case .divide:
                guard y != 0 else { return nil }
                r = x.dividedReportingOverflow(by: y)
                if !r.overflow && r.partialValue.multipliedReportingOverflow(by: y) == (x, false) { return .integer(r.partialValue) }
                return finite(Double(x) / Double(y))
            }
            if !r.overflow { return .integer(r.partialValue) }
        }
        guard let x = number(a), let y = number(b) else { return nil }
        switch op {
        case .add: return finite(x + y)
        case .subtract: return finite(x - y)
        case .multiply: return finite(x * y)
        case .divide: return y == 0 ? nil : finite(x / y)
        }
    }

    static func finite(_ d: Double) -> Value? { d.isFinite ? .number(d) : nil }

    static func truthy(_ v: Value?) -> Bool {
        switch v {
        case nil: false
        case .bool(let b)?: b
        case .string(let s)?: !s.isEmpty
        case .integer(let n)?: n != 0
        case .number(let d)?: d != 0
        case .stringList(let items)?: !items.isEmpty
        }
    }

    static func empty(_ v: Value?) -> Bool {
        switch v {
        case nil: true
        case .string(let s)?: s.isEmpty
        case .stringList(let items)?: items.isEmpty
        default: false
        }
    }

    /// The text of a scalar for membership tests (a list holds text).
    static func text(_ v: Value) -> String {
        switch v {
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .integer(let n): String(n)
        case .number(let d): NumberText.format(d)
        case .stringList(let items): items.joined(separator: ",")
        }
    }

    static func number(_ v: Value?) -> Double? {
        switch v {
        case .integer(let n)?: Double(n)
        case .number(let d)?: d
        default: nil
        }
    }

    /// Equality across integer and number; null equals only null; ordering only between two
    /// numbers or two strings (otherwise false).
    static func compare(_ a: Value?, _ op: Comparison, _ b: Value?) -> Bool {
        let equal: Bool
        if let x = number(a), let y = number(b) {
            switch op {
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            case .greaterOrEqual: return x >= y
            default: equal = x == y
            }
        } else if case .string(let x)? = a, case .string(let y)? = b {
            switch op {
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            case .greaterOrEqual: return x >= y
            default: equal = x == y
            }
        } else {
            switch op {
            case .equal, .notEqual: equal = a == b
            default: return false
            }
        }
        return op == .equal ? equal : op == .notEqual ? !equal : false
    }

    // MARK: the tree as JSON (for the HTML script and the JSON view tree)

    package var json: JSON {
        switch self {
        case .literal(let v): .array([.string("lit"), v.map(Self.valueJSON) ?? .null])
        case .list(let items): .array([.string("list"), .array(items.map(Self.valueJSON))])
        case .field(let id): .array([.string("field"), .string(id)])
        case .not(let c): .array([.string("not"), c.json])
        case .and(let a, let b): .array([.string("and"), a.json, b.json])
        case .or(let a, let b): .array([.string("or"), a.json, b.json])
        case .compare(let a, let op, let b): .array([.string(op.rawValue), a.json, b.json])
        case .isIn(let a, let b): .array([.string("in"), a.json, b.json])
        case .isEmpty(let c): .array([.string("empty"), c.json])
        case .arithmetic(let a, let op, let b): .array([.string("math"), .string(op.rawValue), a.json, b.json])
        }
    }

    static func valueJSON(_ v: Value) -> JSON {
        switch v {
        case .string(let s): .string(s)
        case .bool(let b): .bool(b)
        case .integer(let n): .integer(n)
        case .number(let d): .number(d)
        case .stringList(let items): .array(items.map { .string($0) })
        }
    }
}

/// What kind of value an operand has, for the checks made when a document is decoded.
public enum ConditionType: String, Sendable {
    case text, number, bool, list, null, any

    /// The kind of a field's value.
    public init(_ type: FieldType?) {
        switch type {
        case .string?, .text?, .choice?: self = .text
        case .integer?, .number?, .date?: self = .number
        case .bool?: self = .bool
        case .stringList?, .choiceList?: self = .list
        case nil: self = .any
        }
    }
}

/// A condition as the document wrote it, and parsed.
public struct ConditionSource: Sendable, Equatable {
    public let text: String
    public let condition: Condition

    public init(text: String, condition: Condition) {
        self.text = text
        self.condition = condition
    }
}

/// `visibleIf`, `enabledIf` and `requiredIf` of a field (a section has no `requiredIf`).
public struct FieldConditions: Sendable, Equatable {
    /// Out of line, as `FieldRules`: most fields have no condition (eight bytes and no allocation then).
    struct Storage: Sendable, Equatable {
        var visibleIf: ConditionSource?
        var enabledIf: ConditionSource?
        var requiredIf: ConditionSource?
        /// A computed value (`value: "price * quantity"`): the field shows it, read-only, and it is recomputed
        /// wherever values are checked, never taken from an answer.
        var value: ConditionSource?
        /// `hidden: true`: never shown, but submitted — the document's value (or the computed one), which an
        /// answer cannot change.
        var hidden = false
        /// `readOnly: true`: shown, never edited, and submitted — the document's value, which an answer cannot
        /// change (where a disabled field's value is not submitted at all).
        var readOnly = false
    }

    private var storage: [Storage] = []

    private mutating func edit(_ change: (inout Storage) -> Void) {
        if storage.isEmpty { storage = [Storage()] }
        change(&storage[0])
    }

    public var visibleIf: ConditionSource? {
        get { storage.first?.visibleIf ?? nil }
        set { edit { $0.visibleIf = newValue } }
    }
    public var enabledIf: ConditionSource? {
        get { storage.first?.enabledIf ?? nil }
        set { edit { $0.enabledIf = newValue } }
    }
    public var requiredIf: ConditionSource? {
        get { storage.first?.requiredIf ?? nil }
        set { edit { $0.requiredIf = newValue } }
    }
    public var value: ConditionSource? {
        get { storage.first?.value ?? nil }
        set { edit { $0.value = newValue } }
    }
    public var hidden: Bool {
        get { storage.first?.hidden ?? false }
        set { edit { $0.hidden = newValue } }
    }
    public var readOnly: Bool {
        get { storage.first?.readOnly ?? false }
        set { edit { $0.readOnly = newValue } }
    }

    public init(visibleIf: ConditionSource? = nil, enabledIf: ConditionSource? = nil, requiredIf: ConditionSource? = nil) {
        if visibleIf != nil || enabledIf != nil || requiredIf != nil {
            storage = [Storage(visibleIf: visibleIf, enabledIf: enabledIf, requiredIf: requiredIf)]
        }
    }

    public static func == (a: FieldConditions, b: FieldConditions) -> Bool {
        (a.storage.first ?? Storage()) == (b.storage.first ?? Storage())
    }

    public var isEmpty: Bool { storage.isEmpty || storage[0] == Storage() }

    /// The ids of every field the conditions read.
    public var fields: [String] { [visibleIf, enabledIf, requiredIf, value].compactMap { $0?.condition.fields }.flatMap { $0 } }

    /// The keys a document uses for them (`value`: a computed value).
    public static let keys = ["visibleIf", "enabledIf", "requiredIf", "value"]
}

/// Where a field stands for the values at hand.
public struct FieldState: Sendable, Equatable {
    /// Shown, and its value submitted (its own and its section's `visibleIf` hold).
    public var visible: Bool
    /// Editable, and its value submitted (its own and its section's `enabledIf` hold).
    public var enabled: Bool
    /// Must have a value: `required`, or `requiredIf` holds (and it is visible and enabled).
    public var required: Bool

    public init(visible: Bool = true, enabled: Bool = true, required: Bool = false) {
        self.visible = visible
        self.enabled = enabled
        self.required = required
    }

    /// Whether its value is part of a submission.
    public var submitted: Bool { visible && enabled }
}

/// A rule across fields, reported against the field that declares it.
public enum CrossFieldRule: Sendable, Equatable {
    /// The value must equal the value of another field (a password confirmation).
    case equals(field: String, message: String?)
    /// The expression must hold for the form's values.
    case expression(ConditionSource, message: String?)
}
