import CFormwork
import FormworkCore
import Glibc

/// How one cell type's configure is laid out, worked out once per instance so that a configure
/// whose values plainly fit their schema is one pass over the values: each checked, if asked, and
/// stored in the same step, with no schema object, array or optional touched per field.
///
/// What it keeps per model field is plain data (kind, where the member goes, the limits a value is
/// checked against), and, per convention, a **template**: the typed model struct, or the generic
/// `fw_value` array, with every default already laid out in memory the plan owns (absent dates as
/// NaN). A configure copies the template and stores only the values it was given.
///
/// The fast path takes only values of exactly the field's kind with the checks below. Anything
/// else — a kind the member cannot hold, a field whose allowed values come from another field
/// (`options`), a minimum length, a choice list, a value that fails a check — returns nil, and
/// the caller takes the general path, which checks in full and reports the problem as before.
final class ConfigurePlan {
    /// One model field as the fast path reads it.
    struct Slot {
        var type: FieldType
        /// The typed struct member's offset (0 for a generic cell).
        var offset: Int
        var flags: Flags
        /// -infinity / +infinity when the schema has no bound.
        var minimum: Double
        var maximum: Double
        /// Int.max when the schema has no maximum length (characters or items).
        var maxLength: Int
    }

    struct Flags: OptionSet {
        let rawValue: UInt8
        /// Required, with no default: an absent value is an error (the general path reports it).
        static let requiredWithoutDefault = Flags(rawValue: 1)
        /// Checked only by the general path: `options`, a minimum length, a choice list, a step.
        static let generalCheck = Flags(rawValue: 2)
    }

    let slots: UnsafeMutableBufferPointer<Slot>
    /// The allowed values of each choice field (empty for other fields), in schema order.
    private let choices: [[String]]
    /// The typed model's template, with and without the schema's defaults (nil for a generic cell).
    private let typedWithDefaults: UnsafeMutableRawBufferPointer?
    private let typedBare: UnsafeMutableRawBufferPointer?
    /// The generic `fw_value` template with the defaults (absent values are all-zero without them).
    private let genericWithDefaults: UnsafeMutableBufferPointer<fw_value>
    /// Owns the defaults' strings and lists for the plan's life (never reset).
    private let permanent = CMarshaller()
    /// Where the typed model's presence bitmap starts (ABI 1.2), or nil.
    private let presenceOffset: Int?

    init(fields: [FieldSchema], layout: TypedModelLayout?) {
        slots = .allocate(capacity: fields.count)
        for (i, field) in fields.enumerated() {
            var flags: Flags = []
            if field.required && field.defaultValue == nil { flags.insert(.requiredWithoutDefault) }
            if field.optionsField != nil || field.minLength != nil || field.type == .choiceList || field.step != nil {
                flags.insert(.generalCheck)
            }
            // An exclusive bound as the nearest double inside it: `value > m` is `value >= m.nextUp` for any double.
            let minimum = field.minimum.map { field.exclusiveMinimum ? $0.nextUp : $0 } ?? -.infinity
            let maximum = field.maximum.map { field.exclusiveMaximum ? $0.nextDown : $0 } ?? .infinity
            slots.initializeElement(
                at: i,
                to: Slot(
                    type: field.type, offset: layout?.offsets[i] ?? 0, flags: flags, minimum: minimum, maximum: maximum,
                    maxLength: field.maxLength ?? .max))
        }
        choices = fields.map { $0.type == .choice ? $0.choices.map(\.value) : [] }
        presenceOffset = layout?.presenceOffset
        genericWithDefaults = .allocate(capacity: max(fields.count, 1))
        for (i, field) in fields.enumerated() {
            genericWithDefaults.initializeElement(at: i, to: permanent.value(field.defaultValue, as: field.type))
        }
        if let layout {
            let size = Self.typedSize(layout)
            let alignment = max(layout.alignment, 8)
            let bare = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: alignment)
            let full = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: alignment)
            bare.initializeMemory(as: UInt8.self, repeating: 0)
            full.initializeMemory(as: UInt8.self, repeating: 0)
            for (i, field) in fields.enumerated() {
                let at = layout.offsets[i]
                if field.type == .date { bare.baseAddress!.advanced(by: at).storeBytes(of: Double.nan, as: Double.self) }
                if let value = field.defaultValue {
                    permanent.store(value, as: field.type, at: full.baseAddress! + at)
                    layout.markPresent(i, in: full.baseAddress!)
                } else if field.type == .date {
                    full.baseAddress!.advanced(by: at).storeBytes(of: Double.nan, as: Double.self)
                }
            }
            typedBare = bare
            typedWithDefaults = full
        } else {
            typedBare = nil
            typedWithDefaults = nil
        }
    }

    deinit {
        slots.deallocate()
        genericWithDefaults.deallocate()
        typedBare?.deallocate()
        typedWithDefaults?.deallocate()
    }

    /// Lays `values` (schema order, nil = absent) out as the typed model struct in `model` (the
    /// layout's size): nil when a value is not for the fast path (see the type's comment), or, when
    /// `checking`, does not plainly fit its schema or is absent where it is required.
    func layTyped(
        _ values: UnsafeBufferPointer<Value?>, defaults: Bool, checking: Bool, into model: UnsafeMutableRawPointer,
        marshaller: CMarshaller
    ) -> Bool {
        guard let template = defaults ? typedWithDefaults : typedBare else { return false }
        // Word by word (the size is a multiple of the alignment, at least 8): a model struct is a few words.
        let source = UnsafeRawPointer(template.baseAddress!)
        for offset in stride(from: 0, to: template.count, by: 8) {
            model.storeBytes(of: source.load(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
        }
        for i in 0..<slots.count {
            let slot = slots[i]
            guard i < values.count else {
                if checking && slot.flags.contains(.requiredWithoutDefault) { return false }
                continue
            }
            let at = model + slot.offset
            // Matched in place (a `let value = values[i]` first copied the value: a retain and a release).
            switch values[i] {
            case nil:
                if checking && slot.flags.contains(.requiredWithoutDefault) { return false }
            case .string(let s)?:
                guard isStringKind(slot.type), let copied = string(s, slot, index: i, checking: checking, marshaller) else { return false }
                at.storeBytes(of: copied, as: UnsafePointer<CChar>?.self)
                markPresent(i, in: model)
            case .bool(let b)?:
                guard slot.type == .bool else { return false }
                at.storeBytes(of: b, as: Bool.self)
                markPresent(i, in: model)
            case .integer(let n)?:
                guard slot.type == .integer, !checking || inRange(Double(n), slot) else { return false }
                at.storeBytes(of: n, as: Int64.self)
                markPresent(i, in: model)
            case .number(let d)?:
                guard slot.type == .number || slot.type == .date, !checking || (d.isFinite && inRange(d, slot)) else { return false }
                at.storeBytes(of: d, as: Double.self)
                markPresent(i, in: model)
            case .stringList(let items)?:
                guard slot.type == .stringList || slot.type == .choiceList, !checking || fitsList(items, slot) else { return false }
                at.storeBytes(of: marshaller.list(items), as: fw_string_list.self)
                markPresent(i, in: model)
            }
        }
        return true
    }

    /// The generic counterpart of `layTyped`: `count` `fw_value`s in `array` (see `genericCount`).
    func layGeneric(
        _ values: UnsafeBufferPointer<Value?>, defaults: Bool, checking: Bool, into array: UnsafeMutablePointer<fw_value>,
        count: Int, marshaller: CMarshaller
    ) -> Bool {
        if defaults {
            array.initialize(from: genericWithDefaults.baseAddress!, count: count)
        } else {
            array.initialize(repeating: fw_value(), count: count)
        }
        for i in 0..<count {
            let slot = slots[i]
            guard i < values.count else {
                if checking && slot.flags.contains(.requiredWithoutDefault) { return false }
                continue
            }
            var v = fw_value()
            switch values[i] {
            case nil:
                if checking && slot.flags.contains(.requiredWithoutDefault) { return false }
                continue
            case .string(let s)?:
                guard isStringKind(slot.type), let copied = string(s, slot, index: i, checking: checking, marshaller) else { return false }
                v.as.string = copied
            case .bool(let b)?:
                guard slot.type == .bool else { return false }
                v.as.boolean = b
            case .integer(let n)?:
                guard slot.type == .integer, !checking || inRange(Double(n), slot) else { return false }
                v.as.integer = n
            case .number(let d)?:
                guard slot.type == .number || slot.type == .date, !checking || (d.isFinite && inRange(d, slot)) else { return false }
                v.as.number = d
            case .stringList(let items)?:
                // An empty generic list keeps a non-NULL items pointer (1.0 behaviour): the general path makes it.
                guard slot.type == .stringList || slot.type == .choiceList, !items.isEmpty, !checking || fitsList(items, slot) else {
                    return false
                }
                v.as.list = marshaller.list(items)
            }
            v.type = slot.type.abiValue
            array[i] = v
        }
        return true
    }

    /// `layTyped` from a model's wire bytes, unchecked (the host checked the values): the cell host's configure,
    /// with no `Value` or Swift string made. False, as `layTyped`, when a value is not for the fast path.
    func layTyped(wire values: WireValues, defaults: Bool, into model: UnsafeMutableRawPointer, marshaller: CMarshaller) -> Bool {
        guard let template = defaults ? typedWithDefaults : typedBare else { return false }
        let source = UnsafeRawPointer(template.baseAddress!)
        for offset in stride(from: 0, to: template.count, by: 8) {
            model.storeBytes(of: source.load(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
        }
        var p = values.start
        for i in 0..<min(values.count, slots.count) {
            let slot = slots[i]
            let at = model + slot.offset
            switch WireValues.next(&p) {
            case .absent: continue
            case .string(let bytes):
                guard isStringKind(slot.type) else { return false }
                at.storeBytes(of: marshaller.copy(bytes), as: UnsafePointer<CChar>?.self)
                markPresent(i, in: model)
            case .bool(let b):
                guard slot.type == .bool else { return false }
                at.storeBytes(of: b, as: Bool.self)
                markPresent(i, in: model)
            case .integer(let n):
                guard slot.type == .integer else { return false }
                at.storeBytes(of: n, as: Int64.self)
                markPresent(i, in: model)
            case .number(let d):
                guard slot.type == .number || slot.type == .date else { return false }
                at.storeBytes(of: d, as: Double.self)
                markPresent(i, in: model)
            case .list(let count, let first):
                guard slot.type == .stringList || slot.type == .choiceList else { return false }
                at.storeBytes(of: marshaller.list(wire: first, count: count), as: fw_string_list.self)
                markPresent(i, in: model)
            }
        }
        return true
    }

    /// `layGeneric` from a model's wire bytes, unchecked (see `layTyped(wire:…)`); `count` is `genericCount`'s.
    func layGeneric(
        wire values: WireValues, defaults: Bool, into array: UnsafeMutablePointer<fw_value>, count: Int, marshaller: CMarshaller
    ) -> Bool {
        if defaults {
            array.initialize(from: genericWithDefaults.baseAddress!, count: count)
        } else {
            array.initialize(repeating: fw_value(), count: count)
        }
        var p = values.start
        for i in 0..<min(count, values.count) {
            let slot = slots[i]
            var v = fw_value()
            switch WireValues.next(&p) {
            case .absent: continue
            case .string(let bytes):
                guard isStringKind(slot.type) else { return false }
                v.as.string = marshaller.copy(bytes)
            case .bool(let b):
                guard slot.type == .bool else { return false }
                v.as.boolean = b
            case .integer(let n):
                guard slot.type == .integer else { return false }
                v.as.integer = n
            case .number(let d):
                guard slot.type == .number || slot.type == .date else { return false }
                v.as.number = d
            case .list(let n, let first):
                // An empty generic list keeps a non-NULL items pointer (1.0 behaviour): the general path makes it.
                guard slot.type == .stringList || slot.type == .choiceList, n > 0 else { return false }
                v.as.list = marshaller.list(wire: first, count: n)
            }
            v.type = slot.type.abiValue
            array[i] = v
        }
        return true
    }

    /// The bytes of a typed model's buffer: the struct's size rounded up to whole words (the template
    /// is copied a word at a time, and a direct by-value call reads whole words).
    static func typedSize(_ layout: TypedModelLayout) -> Int { layout.bufferSize }

    /// How many `fw_value`s a generic configure passes: every field with the defaults, else as many
    /// as there are values (at most the schema's).
    func genericCount(values: Int, defaults: Bool) -> Int { defaults ? slots.count : min(values, slots.count) }

    /// Sets field `index`'s presence bit (ABI 1.2) in a typed model, when the cell type asks for presence.
    @inline(__always) private func markPresent(_ index: Int, in model: UnsafeMutableRawPointer) {
        guard let presenceOffset else { return }
        let byte = model + presenceOffset + index / 8
        byte.storeBytes(of: byte.load(as: UInt8.self) | UInt8(1 << (index % 8)), as: UInt8.self)
    }

    @inline(__always) private func isStringKind(_ type: FieldType) -> Bool { type == .string || type == .text || type == .choice }

    /// A field with a step goes to the general path (`generalCheck`), which counts the steps.
    @inline(__always) private func inRange(_ value: Double, _ slot: Slot) -> Bool {
        value >= slot.minimum && value <= slot.maximum && !slot.flags.contains(.generalCheck)
    }

    @inline(__always) private func fitsList(_ items: [String], _ slot: Slot) -> Bool {
        !slot.flags.contains(.generalCheck) && items.count <= slot.maxLength
    }

    /// A C copy of `s` for the slot, checked when `checking` as `SchemaValidator.fits` does: no line
    /// break in a single-line string, at most `maxLength` UTF-8 bytes (at least as many as its
    /// characters; more goes to the general path, which counts characters), one of the choices.
    @inline(__always)
    private func string(_ s: String, _ slot: Slot, index: Int, checking: Bool, _ marshaller: CMarshaller) -> UnsafePointer<CChar>? {
        if checking {
            if slot.flags.contains(.generalCheck) { return nil }
            if slot.type == .choice && !choices[index].contains(s) { return nil }
        }
        // `withContiguousStorageIfAvailable` is specialised here (a generic helper from another module is
        // not: it looked its type metadata up on every call).
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> UnsafePointer<CChar>?? in
            check(bytes, slot, checking: checking) ? .some(marshaller.copy(bytes)) : .some(nil)
        }
        if let copied { return copied ?? nil }
        var contiguous = s
        return contiguous.withUTF8 { bytes in check(bytes, slot, checking: checking) ? marshaller.copy(bytes) : nil }
    }

    @inline(__always)
    private func check(_ bytes: UnsafeBufferPointer<UInt8>, _ slot: Slot, checking: Bool) -> Bool {
        guard checking && slot.type != .choice else { return true }
        if bytes.count > slot.maxLength { return false }
        guard slot.type == .string else { return true }
        // Short strings (titles, most values) by a loop: a call into libc costs more than their bytes.
        if bytes.count <= 32 { return !bytes.contains(0x0A) }
        return memchr(bytes.baseAddress!, 0x0A, bytes.count) == nil
    }
}
