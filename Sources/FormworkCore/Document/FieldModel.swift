/// A field's model: its values in the order of its cell type's schema — what configure
/// receives — read and written by field name like a dictionary.
///
/// Stored as one array (an absent value is nil), not a dictionary: a form of 100,000 fields
/// holds 100,000 models, and a configure takes `values` as they are. A name the schema
/// does not have (given to `FormField(model:)` or the subscript) is kept aside: it reads
/// back, but no cell ever receives it.
public struct FieldModel: Sendable, Equatable, CustomStringConvertible {
    /// The cell type whose schema orders the values.
    public let cell: CellType
    /// The values in schema order (`cell.fields`); nil = absent.
    public private(set) var values: [Value?]
    /// Values under names the schema does not have (nil when there are none, the usual case).
    private var extra: [String: Value]?

    /// A model of `cell` from `values` in schema order (missing trailing values absent, extra ones dropped).
    public init(cell: CellType, values: [Value?]) {
        self.cell = cell
        let count = cell.fields.count
        if values.count == count {
            self.values = values
        } else {
            self.values = Array(values.prefix(count)) + Array(repeating: nil, count: max(0, count - values.count))
        }
    }

    /// A model of `cell` from values by field name.
    public init(cell: CellType, _ dictionary: [String: Value]) {
        self.cell = cell
        values = Array(repeating: nil, count: cell.fields.count)
        for (name, value) in dictionary { self[name] = value }
    }

    /// The value of the model field `name` (nil: absent).
    public subscript(name: String) -> Value? {
        get {
            if let index = cell.index(of: name) { return values[index] }
            return extra?[name]
        }
        set {
            if let index = cell.index(of: name) {
                values[index] = newValue
            } else {
                extra = extra ?? [:]
                extra![name] = newValue
                if extra!.isEmpty { extra = nil }
            }
        }
    }

    /// The value at schema position `index` (nil: absent).
    public subscript(index: Int) -> Value? {
        get { values[index] }
        set { values[index] = newValue }
    }

    /// The values present, by field name.
    public var dictionary: [String: Value] {
        var out = extra ?? [:]
        for i in values.indices { if let value = values[i] { out[cell.fields[i].name] = value } }
        return out
    }

    /// The names of the values present: schema order, then any others sorted.
    public var names: [String] {
        cell.fields.indices.compactMap { values[$0] == nil ? nil : cell.fields[$0].name } + (extra?.keys.sorted() ?? [])
    }

    /// Number of values present.
    public var count: Int { values.reduce(0) { $0 + ($1 == nil ? 0 : 1) } + (extra?.count ?? 0) }
    public var isEmpty: Bool { count == 0 }

    public var description: String { dictionary.description }

    public static func == (a: FieldModel, b: FieldModel) -> Bool {
        if a.cell === b.cell { return a.values == b.values && a.extra == b.extra }
        return a.dictionary == b.dictionary
    }

    /// Whether the values present are exactly `dictionary`.
    public static func == (a: FieldModel, b: [String: Value]) -> Bool { a.dictionary == b }
}

extension FieldModel: ModelLookup {
    package func value(named name: String) -> Value? { self[name] }
}
