/// A field's model: its values in the order of its cell type's schema — what configure
/// receives — read and written by field name like a dictionary.
///
/// Stored as what differs from the cell type's defaults, not as one value a schema field:
/// a form of 100,000 fields holds 100,000 models, and most of a model is its cell type's
/// defaults (a text field's eight schema fields, three of them written), which every field
/// of that cell type shares. A name the schema does not have (given to `FormField(model:)`
/// or the subscript) is kept aside: it reads back, but no cell ever receives it.
public struct FieldModel: Sendable, Equatable, CustomStringConvertible {
    /// A value at a schema position that is not the cell type's default there (nil: absent where the
    /// schema has a default). 24 bytes, as a `Value?` alone is: the index fits in the value's padding.
    @usableFromInline struct Override: Sendable, Equatable {
        @usableFromInline var value: Value?
        @usableFromInline let index: UInt32
    }

    /// The cell type whose schema orders the values.
    public let cell: CellType
    /// The values that are not the defaults, in schema order: one each, none equal to the cell type's default at
    /// its index (so two models of one cell type are equal when these are). A loaded pack's schema has at most
    /// 1,000 fields; one made in memory has no limit, and 32 bits cost the same 24 bytes as 16.
    @usableFromInline private(set) var overrides: [Override]
    /// Values under names the schema does not have (nil when there are none, the usual case).
    private var extra: [String: Value]?

    /// A model of `cell` holding its defaults.
    public init(defaultsOf cell: CellType) {
        self.cell = cell
        overrides = []
    }

    /// A model of `cell` from `values` in schema order (missing trailing values absent, extra ones dropped).
    public init(cell: CellType, values: [Value?]) {
        self.cell = cell
        overrides = []
        let defaults = cell.defaultModel
        for index in defaults.indices {
            let value = index < values.count ? values[index] : nil
            if value != defaults[index] { overrides.append(Override(value: value, index: UInt32(index))) }
        }
    }

    /// A model of `cell` holding exactly the values of `dictionary` by field name: every other schema field is
    /// absent, its default too.
    public init(cell: CellType, _ dictionary: [String: Value]) {
        self.init(cell: cell, values: [])
        for (name, value) in dictionary { self[name] = value }
    }

    /// The values in schema order (nil = absent), as configure receives them: made when asked for.
    public var values: [Value?] {
        var out = cell.defaultModel
        for o in overrides { out[Int(o.index)] = o.value }
        return out
    }

    /// Number of schema fields (present or not).
    public var schemaCount: Int { cell.defaultModel.count }

    /// The value of the model field `name` (nil: absent).
    public subscript(name: String) -> Value? {
        get {
            if let index = cell.index(of: name) { return self[index] }
            return extra?[name]
        }
        set {
            if let index = cell.index(of: name) {
                self[index] = newValue
            } else {
                extra = extra ?? [:]
                extra![name] = newValue
                if extra!.isEmpty { extra = nil }
            }
        }
    }

    /// Where `index`'s override is, or where it would be inserted (the overrides are few: a linear search).
    private func position(of index: UInt32) -> (at: Int, found: Bool) {
        var at = 0
        while at < overrides.count {
            let i = overrides[at].index
            if i == index { return (at, true) }
            if i > index { break }
            at += 1
        }
        return (at, false)
    }

    /// The value at schema position `index` (nil: absent).
    public subscript(index: Int) -> Value? {
        get {
            // Through the buffer: a `for o in overrides` loop copies each override's value (a retain and a release).
            let key = UInt32(truncatingIfNeeded: index)
            let found: Int? = overrides.withUnsafeBufferPointer { own in
                for j in own.indices {
                    let i = own[j].index
                    if i == key { return j }
                    if i > key { break }
                }
                return nil
            }
            if let found { return overrides[found].value }
            return cell.defaultModel[index]
        }
        set {
            precondition(cell.defaultModel.indices.contains(index), "model index \(index) out of the schema's range")
            let (at, found) = position(of: UInt32(index))
            if newValue == cell.defaultModel[index] {
                if found { overrides.remove(at: at) }
            } else if found {
                overrides[at].value = newValue
            } else if at == overrides.count {
                // A document's values mostly come in schema order (`insert` at the end is a generic, slower call).
                overrides.append(Override(value: newValue, index: UInt32(index)))
            } else {
                overrides.insert(Override(value: newValue, index: UInt32(index)), at: at)
            }
        }
    }

    /// Calls `body` with each schema position and a pointer to its value, in schema order, read in place from the
    /// cell type's defaults and the overrides (a `Value?` passed by value is copied: a retain and a release each).
    /// Inlinable: a request's encoding (another module) walks every field's values with it, twice.
    @inlinable package func forEachValue(_ body: (Int, UnsafePointer<Value?>) throws -> Void) rethrows {
        let valueOffset = MemoryLayout<Override>.offset(of: \Override.value)!
        try cell.defaultModel.withUnsafeBufferPointer { defaults in
            try overrides.withUnsafeBufferPointer { own in
                var next = 0
                for i in 0..<defaults.count {
                    if next < own.count, Int(own[next].index) == i {
                        let at = UnsafeRawPointer(own.baseAddress.unsafelyUnwrapped + next) + valueOffset
                        try body(i, at.assumingMemoryBound(to: Value?.self))
                        next += 1
                    } else {
                        try body(i, defaults.baseAddress.unsafelyUnwrapped + i)
                    }
                }
            }
        }
    }

    /// Room for `count` overrides: a decoder that knows how many values a document wrote makes the array once.
    mutating func reserveOverrides(_ count: Int) { overrides.reserveCapacity(count) }

    /// The values present, by field name.
    public var dictionary: [String: Value] {
        var out = extra ?? [:]
        let all = values
        for i in all.indices { if let value = all[i] { out[cell.fields[i].name] = value } }
        return out
    }

    /// The names of the values present: schema order, then any others sorted.
    public var names: [String] {
        let all = values
        return all.indices.compactMap { all[$0] == nil ? nil : cell.fields[$0].name } + (extra?.keys.sorted() ?? [])
    }

    /// Number of values present.
    public var count: Int { values.reduce(0) { $0 + ($1 == nil ? 0 : 1) } + (extra?.count ?? 0) }
    public var isEmpty: Bool { count == 0 }

    public var description: String { dictionary.description }

    public static func == (a: FieldModel, b: FieldModel) -> Bool {
        if a.cell === b.cell { return a.overrides == b.overrides && a.extra == b.extra }
        return a.dictionary == b.dictionary
    }

    /// Whether the values present are exactly `dictionary`.
    public static func == (a: FieldModel, b: [String: Value]) -> Bool { a.dictionary == b }
}

extension FieldModel: ModelLookup {
    package func value(named name: String) -> Value? { self[name] }
}
